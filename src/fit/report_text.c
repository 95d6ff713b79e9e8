/* src/fit/report_text.c - the calibration report as text (zvp_fit_result_print). */
#include <stdio.h>
#include "fit/fit_impl.h"

static const char *unit_or_1(const char *u) { return u && u[0] ? u : "1"; }

/* Header: model, sources, sizes, residual kind, starts. */
static void print_header(const zvp_fit_result *res, FILE *fp)
{
    size_t usable = 0;
    for (size_t s = 0; s < res->n_starts; s++)
        usable += (size_t)res->starts[s].usable;
    fprintf(fp, "zvmperf %s calibration report\n", zvp_version());
    fprintf(fp, "  model      %s\n", res->model->name);
    fprintf(fp, "  fit file   %s\n", res->fit_path ? res->fit_path : "(built in memory)");
    fprintf(fp, "  data       %s\n", res->data_path ? res->data_path : "(in memory)");
    if (res->where)
        fprintf(fp, "  where      %s\n", res->where);
    if (res->join_path)
        fprintf(fp, "  join       %s (on %s)\n", res->join_path, res->join_key);
    if (res->base_path)
        fprintf(fp, "  base       %s\n", res->base_path);
    if (res->n_independent != res->n_measured)
        fprintf(fp, "  rows       %zu, measured cells %zu (%zu independent, %zu declared dependent), "
                "free parameters %zu, dof %zu\n", res->n_rows, res->n_measured,
                res->n_independent, res->n_measured - res->n_independent, res->p, res->dof_eff);
    else
        fprintf(fp, "  rows       %zu, measured cells %zu, free parameters %zu, dof %zu\n",
                res->n_rows, res->n_measured, res->p, res->dof);
    if (res->saturated)
        fprintf(fp, "  saturated: standard errors undefined (%zu independent cells for %zu free "
                "parameters)\n", res->n_independent, res->p);
    fprintf(fp, "  residual   %s; cost (sum of squared weighted residuals) %.6g\n",
            res->residual_absolute ? "absolute" : "relative", res->cost);
    fprintf(fp, "  starts     %zu (%zu usable); best start %zu: %zu iterations, %s\n",
            res->n_starts, usable, res->best_start + 1, res->starts[res->best_start].iterations,
            zvp_fit_start_outcome(&res->starts[res->best_start]));
}

static void print_params(const zvp_fit_result *res, FILE *fp)
{
    const zvp_model *m = res->model;
    fprintf(fp, "\nfree parameters\n");
    fprintf(fp, "  %-28s %15s %12s %10s %-10s %12s %12s\n", "name", "estimate", "stderr", "stderr%",
            "unit", "lo", "hi");
    for (size_t k = 0; k < res->p; k++) {
        const zvp_param_desc *d = &m->params[res->param_index[k]];
        double est = res->estimates[k], se = res->stderrs[k];
        fprintf(fp, "  %-28s %15.8g %12.4g %10.3g %-10s %12.6g %12.6g%s\n", d->name, est, se,
                est != 0.0 ? 100.0 * se / fabs(est) : NAN, unit_or_1(d->unit), res->lo[k],
                res->hi[k],
                res->flags[k] == ZVP_FIT_AT_BOUND ? "  (at a bound: no stderr)"
                : res->flags[k] == ZVP_FIT_UNIDENTIFIED
                    ? "  (not identified: the fitted outputs do not depend on it here)"
                    : "");
    }
    if (res->saturated)
        fprintf(fp, "  saturated: standard errors undefined (no degree of freedom left)\n");
}

static void print_goodness(const zvp_fit_result *res, FILE *fp)
{
    fprintf(fp, "\ngoodness of fit\n");
    fprintf(fp, "  %-28s %6s %12s %12s %-10s %10s\n", "output", "cells", "R^2", "RMSE", "unit",
            "MAPE %");
    for (size_t j = 0; j < res->n_match; j++) {
        const zvp_param_desc *d = &res->model->outputs[res->output_index[j]];
        fprintf(fp, "  %-28s %6zu %12.6g %12.4g %-10s %10.4g\n", d->name, res->cells[j],
                res->r2[j], res->rmse[j], unit_or_1(d->unit), res->mape[j]);
    }
    fprintf(fp, "  overall MAPE %.4g %%\n", res->mape_all);
    for (size_t j = 0; j < res->n_match; j++)
        if (res->no_rel[j])
            fprintf(fp, "  note: %zu cell(s) of %s near zero (|measured| < %g, or within its "
                    "sigma of 0) have no relative error: not in the MAPE, their error is in the "
                    "RMSE and shown as abs in the rows\n", res->no_rel[j],
                    res->model->outputs[res->output_index[j]].name, ZVP_FIT_REL_MIN);
}

static void print_rows(const zvp_fit_result *res, FILE *fp)
{
    size_t nm = res->n_match;
    fprintf(fp, "\nrows (measured / fitted / residual %%)\n");
    fprintf(fp, "  %-20s", "row");
    for (size_t j = 0; j < nm; j++)
        fprintf(fp, " | %-36.36s", res->model->outputs[res->output_index[j]].name);
    fputc('\n', fp);
    for (size_t i = 0; i < res->n_rows; i++) {
        fprintf(fp, "  %-20s", res->labels[i]);
        for (size_t j = 0; j < nm; j++) {
            double y = res->measured[i * nm + j], f = res->fitted[i * nm + j];
            double pct = res->pct[i * nm + j];
            if (isnan(y))
                fprintf(fp, " | %11s %11.5g %12s", "-", f, "-");
            else if (isnan(pct) && !isnan(f)) /* near zero: the absolute error */
                fprintf(fp, " | %11.5g %11.5g %8.3g abs", y, f, f - y);
            else
                fprintf(fp, " | %11.5g %11.5g %11.3f%%", y, f, pct);
        }
        fputc('\n', fp);
    }
}

void zvp_fit_result_print(const zvp_fit_result *res, FILE *fp)
{
    if (!res || !fp)
        return;
    print_header(res, fp);
    print_params(res, fp);
    print_goodness(res, fp);
    print_rows(res, fp);
}
