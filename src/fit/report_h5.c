/*
 * src/fit/report_h5.c - the calibration report as HDF5 (layout in calibration/README.md),
 * written with the helpers of src/h5util.h:
 *   /measured, /fitted, /residual, /residual_pct   [rows x matched]  (residual = fitted - measured)
 *   /estimates, /stderrs, /lo, /hi, /start         [free]
 *   /covariance                                    [free x free]
 *   /r2, /rmse, /mape                              [matched]
 *   /start_cost, /start_iterations, /start_status  [starts]
 * plus a `units` attribute on every dataset and the root attributes.
 */
#include <stdlib.h>
#include <string.h>
#include <hdf5.h>
#include "fit/fit_impl.h"
#include "h5util.h"
#include "util/atomic.h"

static const char *unit_or_1(const char *u) { return u && u[0] ? u : "1"; }

/* Scratch of one report: names and units, residual %, per-start figures. */
typedef struct h5_scratch {
    const char **pnames, **punits, **onames, **ounits;
    double *pct, *sc, *sit, *sst;
} h5_scratch;

static void scratch_free(h5_scratch *s)
{
    free(s->pnames);
    free(s->punits);
    free(s->onames);
    free(s->ounits);
    free(s->pct);
    free(s->sc);
    free(s->sit);
    free(s->sst);
}

static int scratch_fill(const zvp_fit_result *res, h5_scratch *s)
{
    const zvp_model *m = res->model;
    size_t p = res->p, nm = res->n_match, n = res->n_rows * nm, ns = res->n_starts;
    memset(s, 0, sizeof *s);
    s->pnames = malloc((p + 1) * sizeof *s->pnames);
    s->punits = malloc((p + 1) * sizeof *s->punits);
    s->onames = malloc((nm + 1) * sizeof *s->onames);
    s->ounits = malloc((nm + 1) * sizeof *s->ounits);
    s->pct = malloc((n + 1) * sizeof *s->pct);
    s->sc = malloc((ns + 1) * sizeof *s->sc);
    s->sit = malloc((ns + 1) * sizeof *s->sit);
    s->sst = malloc((ns + 1) * sizeof *s->sst);
    if (!s->pnames || !s->punits || !s->onames || !s->ounits || !s->pct || !s->sc || !s->sit ||
        !s->sst)
        return ZVP_ENOMEM;
    for (size_t k = 0; k < p; k++) {
        s->pnames[k] = m->params[res->param_index[k]].name;
        s->punits[k] = unit_or_1(m->params[res->param_index[k]].unit);
    }
    for (size_t j = 0; j < nm; j++) {
        s->onames[j] = m->outputs[res->output_index[j]].name;
        s->ounits[j] = unit_or_1(m->outputs[res->output_index[j]].unit);
    }
    for (size_t i = 0; i < n; i++)
        s->pct[i] = (isnan(res->measured[i]) || res->measured[i] == 0.0)
                        ? NAN
                        : 100.0 * res->residual[i] / fabs(res->measured[i]);
    for (size_t k = 0; k < ns; k++) {
        s->sc[k] = res->starts[k].cost;
        s->sit[k] = (double)res->starts[k].iterations;
        s->sst[k] = (double)res->starts[k].gsl_status;
    }
    return ZVP_SUCCESS;
}

/* The datasets. */
static int write_datasets(hid_t f, const zvp_fit_result *res, const h5_scratch *s,
                          const char *path, zvp_error *err)
{
    size_t p = res->p, nm = res->n_match;
    const hsize_t rm[2] = {res->n_rows, nm}, pp[2] = {p, p}, d_p[1] = {p}, d_m[1] = {nm},
                  d_s[1] = {res->n_starts};
    const char *const *ou = s->ounits, *const *pu = s->punits;
    int st = ZVP_SUCCESS;
#define DS(call)                                                                               \
    do {                                                                                       \
        if (!st)                                                                               \
            st = (call);                                                                       \
    } while (0)
    DS(zvp_h5_dataset_double_units(f, "measured", 2, rm, res->measured, ou, nm, NULL, path, err));
    DS(zvp_h5_dataset_double_units(f, "fitted", 2, rm, res->fitted, ou, nm, NULL, path, err));
    DS(zvp_h5_dataset_double_units(f, "residual", 2, rm, res->residual, ou, nm,
                                   "fitted - measured (NaN: not measured)", path, err));
    DS(zvp_h5_dataset_double(f, "residual_pct", 2, rm, s->pct, "%",
                             "100 (fitted - measured) / |measured| (NaN: not measured)", path,
                             err));
    DS(zvp_h5_dataset_double_units(f, "estimates", 1, d_p, res->estimates, pu, p, NULL, path, err));
    DS(zvp_h5_dataset_double_units(f, "stderrs", 1, d_p, res->stderrs, pu, p, NULL, path, err));
    DS(zvp_h5_dataset_double_units(f, "lo", 1, d_p, res->lo, pu, p, NULL, path, err));
    DS(zvp_h5_dataset_double_units(f, "hi", 1, d_p, res->hi, pu, p, NULL, path, err));
    DS(zvp_h5_dataset_double_units(f, "start", 1, d_p, res->start, pu, p, NULL, path, err));
    DS(zvp_h5_dataset_double(f, "covariance", 2, pp, res->covariance,
                             "unit of param_names[i] x unit of param_names[j]", NULL, path, err));
    DS(zvp_h5_dataset_double(f, "r2", 1, d_m, res->r2, "1", NULL, path, err));
    DS(zvp_h5_dataset_double_units(f, "rmse", 1, d_m, res->rmse, ou, nm, NULL, path, err));
    DS(zvp_h5_dataset_double(f, "mape", 1, d_m, res->mape, "%", NULL, path, err));
    DS(zvp_h5_dataset_double(f, "start_cost", 1, d_s, s->sc, "1", NULL, path, err));
    DS(zvp_h5_dataset_double(f, "start_iterations", 1, d_s, s->sit, "1", NULL, path, err));
    DS(zvp_h5_dataset_double(f, "start_status", 1, d_s, s->sst, "1",
                             "GSL status of gsl_multifit_nlinear_driver: 0 converged, 11 "
                             "iteration limit, 27 no progress", path, err));
#undef DS
    return st;
}

/* The root attributes. */
static int write_root_attrs(hid_t f, const zvp_fit_result *res, const h5_scratch *s,
                            const char *path, zvp_error *err)
{
    const zvp_fit_start_info *best = &res->starts[res->best_start];
    const double dof = (double)res->dof, best_start = (double)(res->best_start + 1),
                 iters = (double)best->iterations;
    char created[32] = "";
    int st = ZVP_SUCCESS;
    if (zvp_h5_iso8601_now(created, sizeof created, NULL) != ZVP_SUCCESS)
        created[0] = '\0';
#define AS(name, v)                                                                            \
    do {                                                                                       \
        if (!st)                                                                               \
            st = zvp_h5_attr_string(f, "/", (name), (v), path, err);                           \
    } while (0)
#define AD(name, v)                                                                            \
    do {                                                                                       \
        if (!st)                                                                               \
            st = zvp_h5_attr_double(f, "/", (name), (v), 1, path, err);                        \
    } while (0)
    if (!st)
        st = zvp_h5_attr_strings(f, "/", "param_names", s->pnames, res->p, path, err);
    if (!st)
        st = zvp_h5_attr_strings(f, "/", "param_units", s->punits, res->p, path, err);
    if (!st)
        st = zvp_h5_attr_strings(f, "/", "output_names", s->onames, res->n_match, path, err);
    if (!st)
        st = zvp_h5_attr_strings(f, "/", "output_units", s->ounits, res->n_match, path, err);
    if (!st)
        st = zvp_h5_attr_strings(f, "/", "row_labels", (const char *const *)res->labels,
                                 res->n_rows, path, err);
    AS("zvmperf_version", zvp_version());
    AS("model", res->model->name);
    AS("fit_file", res->fit_path ? res->fit_path : "");
    AS("data_file", res->data_path ? res->data_path : "");
    if (res->where)
        AS("where", res->where);
    if (res->join_path) {
        AS("join_file", res->join_path);
        AS("join_key", res->join_key);
    }
    if (res->base_path)
        AS("base_file", res->base_path);
    AS("created", created);
    AS("residual", res->residual_absolute ? "absolute" : "relative");
    AS("outcome", zvp_fit_start_outcome(best));
    AD("cost", &res->cost);
    AD("dof", &dof);
    AD("best_start", &best_start);
    AD("iterations", &iters);
    AD("mape_all_pct", &res->mape_all);
#undef AS
#undef AD
    return st;
}

int zvp_fit_result_write_h5_tmp(const zvp_fit_result *res, const zvp_atomic *a,
                                zvp_error *err)
{
    h5_scratch s;
    hid_t f;
    zvp_h5_guard guard;
    zvp_h5_quiet quiet;
    int st;
    if (!res || !a || !a->tmp)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_result_write_h5: result or path is NULL");
    const char *path = a->target; /* messages name the target */
    if (scratch_fill(res, &s)) {
        scratch_free(&s);
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", path);
    }
    zvp_h5_quiet_begin(&quiet); /* restored below: no process-wide side effect */
    f = zvp_h5_create(&guard, a->tmp, H5P_DEFAULT);
    if (f < 0) {
        st = zvp_h5_fail(err, path, "create", path);
    } else {
        st = write_datasets(f, res, &s, path, err);
        if (!st)
            st = write_root_attrs(f, res, &s, path, err);
        st = zvp_h5_close(&guard, f, st, path, err);
    }
    zvp_h5_quiet_end(&quiet);
    scratch_free(&s);
    return st;
}

int zvp_fit_result_write_h5(const zvp_fit_result *res, const char *path, zvp_error *err)
{
    zvp_atomic a;
    if (!res || !path)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_result_write_h5: result or path is NULL");
    int st = zvp_atomic_begin(&a, path, err);
    if (st != ZVP_SUCCESS)
        return st;
    st = zvp_fit_result_write_h5_tmp(res, &a, err);
    if (st == ZVP_SUCCESS)
        return zvp_atomic_commit(&a, err);
    zvp_atomic_abort(&a);
    return st;
}
