/*
 * src/sweep/grid.c - evaluation of a model at many points into caller-owned arrays:
 * zvp_eval_points (a list of points) and zvp_eval_grid (a slice of a Cartesian grid),
 * OpenMP-parallel. Also the axis checks shared with the sweep's plan.
 *
 * Each point is evaluated alone with zvp_model_eval on its own parameter vector (the base
 * vector with the varied values set), and its results are stored at the point's index,
 * never in completion order: the arrays do not depend on the thread count, bit for bit.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "internal.h"
#include "sweep/sweep_impl.h"

void zvp_grid_param_list(const zvp_model *m, char *buf, size_t size)
{
    size_t i, used = 0;
    buf[0] = '\0';
    for (i = 0; i < m->n_params && used + 1 < size; i++) {
        int k = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", m->params[i].name);
        if (k < 0 || (size_t)k >= size - used) {
            if (size > 4)
                memcpy(buf + size - 4, "...", 4);
            return;
        }
        used += (size_t)k;
    }
}

int zvp_grid_resolve_axis(const zvp_model *m, const zvp_axis *axes, size_t k, size_t *param,
                          const char *who, zvp_error *err)
{
    const zvp_axis *ax = &axes[k];
    size_t i, j;
    int found = 0;
    if (!ax->name)
        return zvp_fail(err, ZVP_EINVAL, "%s: axis %zu has no name", who, k);
    for (i = 0; i < m->n_params; i++)
        if (strcmp(m->params[i].name, ax->name) == 0) {
            param[k] = i;
            found = 1;
            break;
        }
    if (!found) {
        char list[384];
        zvp_grid_param_list(m, list, sizeof list);
        return zvp_fail(err, ZVP_ENOTFOUND,
                        "%s axis '%s' is not a parameter of model '%s' (parameters: %s)", who,
                        ax->name, m->name, list);
    }
    for (j = 0; j < k; j++)
        if (param[j] == param[k])
            return zvp_fail(err, ZVP_EINVAL, "%s axis '%s' is given twice (axes %zu and %zu)",
                            who, ax->name, j, k);
    if (ax->n_values < 1 || !ax->values)
        return zvp_fail(err, ZVP_EINVAL, "%s axis '%s': n_values = %zu, must be >= 1", who,
                        ax->name, ax->n_values);
    return ZVP_SUCCESS;
}

/* Where the varied parameters of point p (0 <= p < count) come from: row p of a matrix
 * (zvp_eval_points) or flat grid point first + p (zvp_eval_grid). */
typedef struct zvp_eval_src {
    size_t n_vary;
    const size_t *index;  /* [n_vary] parameter indices */
    const double *rows;   /* points: [count * n_vary] row-major; NULL for a grid */
    const zvp_axis *axes; /* grid: [n_vary], first axis slowest */
    uint64_t first;       /* grid: flat index of point 0 */
} zvp_eval_src;

static void zvp_eval_set_params(const zvp_eval_src *s, uint64_t p, double *params)
{
    size_t k;
    if (s->rows) {
        const double *r = s->rows + (size_t)p * s->n_vary;
        for (k = 0; k < s->n_vary; k++)
            params[s->index[k]] = r[k];
    } else if (s->axes) {
        uint64_t flat = s->first + p;
        k = s->n_vary;
        while (k-- > 0) {
            uint64_t n = (uint64_t)s->axes[k].n_values;
            params[s->index[k]] = s->axes[k].values[flat % n];
            flat /= n;
        }
    }
}

static uint8_t zvp_eval_point_status(int rc)
{
    return rc == ZVP_SUCCESS     ? (uint8_t)ZVP_POINT_OK
           : rc == ZVP_EUNSTABLE ? (uint8_t)ZVP_POINT_UNSTABLE
           : rc == ZVP_EINVAL    ? (uint8_t)ZVP_POINT_INVALID
                                 : (uint8_t)ZVP_POINT_FAILED;
}

/* The parallel loop shared by both entry points; arguments already checked. Output j of
 * point p goes to outputs[j * ostride + p] (ostride >= count), its status to status[p].
 * stop (may be NULL): read
 * before each point; once it is nonzero, the points not started get status
 * ZVP_POINT_NOT_COMPUTED and NaN outputs (those started finish). */
static int zvp_eval_run(const zvp_model *m, const double *base, const zvp_eval_src *s,
                        uint64_t count, double *outputs, size_t ostride, uint8_t *status,
                        int threads, const volatile sig_atomic_t *stop, const char *who,
                        zvp_error *err)
{
    const size_t np = m->n_params, no = m->n_outputs;
    const size_t wstride = (np + no + 8) / 8 * 8; /* >= 8, 64-byte multiples */
    const int64_t n = (int64_t)count;
    double *work;
    int nthreads, t, chunk;
    int64_t p;
    if (count == 0)
        return ZVP_SUCCESS;
#ifdef _OPENMP
    nthreads = threads > 0 ? threads : omp_get_max_threads();
#else
    nthreads = 1;
    (void)threads;
#endif
    if (nthreads < 1)
        nthreads = 1;
    work = aligned_alloc(64, (size_t)nthreads * wstride * sizeof *work);
    if (!work)
        return zvp_fail(err, ZVP_ENOMEM, "%s: cannot allocate %d parameter vectors", who,
                        nthreads);
    for (t = 0; t < nthreads; t++)
        memcpy(work + (size_t)t * wstride, base, np * sizeof *base);
    /* chunks of up to 64 points, smaller for a short range (a sweep's slices) so that every
     * thread gets work; the results do not depend on the schedule */
    chunk = (int)(count / (16 * (uint64_t)nthreads));
    chunk = chunk < 1 ? 1 : chunk > 64 ? 64 : chunk;
#pragma omp parallel for schedule(dynamic, chunk) num_threads(nthreads)
    for (p = 0; p < n; p++) {
#ifdef _OPENMP
        double *params = work + (size_t)omp_get_thread_num() * wstride;
#else
        double *params = work;
#endif
        double *out = params + np;
        size_t j;
        uint8_t st = ZVP_POINT_NOT_COMPUTED;
        if (!stop || !*stop) {
            zvp_eval_set_params(s, (uint64_t)p, params);
            st = zvp_eval_point_status(zvp_model_eval(m, params, out, NULL));
        }
        for (j = 0; j < no; j++)
            outputs[j * ostride + (size_t)p] = st == ZVP_POINT_OK ? out[j] : NAN;
        status[p] = st;
    }
    free(work);
    return ZVP_SUCCESS;
}

/* Checks common to both entry points: m, base, the output arrays for `count` points and
 * the thread count. */
static int zvp_eval_check(const zvp_model *m, const double *base, uint64_t count,
                          const double *outputs, const uint8_t *status, int threads,
                          const char *who, zvp_error *err)
{
    if (!m || !base)
        return zvp_fail(err, ZVP_EINVAL, "%s: m and base_params must not be NULL", who);
    if (threads < 0)
        return zvp_fail(err, ZVP_EINVAL,
                        "%s: threads = %d is out of range [0, inf) (0 = the OpenMP default)", who,
                        threads);
    if (count > (uint64_t)INT64_MAX ||
        (m->n_outputs && count > (uint64_t)(SIZE_MAX / sizeof(double) / m->n_outputs)))
        return zvp_fail(err, ZVP_EINVAL, "%s: %llu points x %zu outputs do not fit in memory",
                        who, (unsigned long long)count, m->n_outputs);
    if (count > 0 && (!status || (m->n_outputs && !outputs)))
        return zvp_fail(err, ZVP_EINVAL,
                        "%s: outputs and status must not be NULL (%llu points, %zu outputs)", who,
                        (unsigned long long)count, m->n_outputs);
    return ZVP_SUCCESS;
}

int zvp_eval_points(const zvp_model *m, const double *base_params, size_t n_points,
                    size_t n_vary, const size_t *vary_index, const double *vary_values,
                    double *outputs, uint8_t *status, int threads, zvp_error *err)
{
    static const char who[] = "zvp_eval_points";
    zvp_eval_src s;
    size_t j, k;
    int rc = zvp_eval_check(m, base_params, (uint64_t)n_points, outputs, status, threads, who,
                            err);
    if (rc)
        return rc;
    if (n_vary > 0 && (!vary_index || (n_points > 0 && !vary_values)))
        return zvp_fail(err, ZVP_EINVAL,
                        "%s: vary_index and vary_values must not be NULL (n_vary = %zu)", who,
                        n_vary);
    if (n_vary > 0 && n_points > SIZE_MAX / n_vary)
        return zvp_fail(err, ZVP_EINVAL, "%s: n_points = %zu x n_vary = %zu is too large", who,
                        n_points, n_vary);
    for (j = 0; j < n_vary; j++) {
        if (vary_index[j] >= m->n_params)
            return zvp_fail(err, ZVP_EINVAL,
                            "%s: vary_index[%zu] = %zu is out of range [0, %zu] (model '%s' has "
                            "%zu parameters)",
                            who, j, vary_index[j], m->n_params ? m->n_params - 1 : 0, m->name,
                            m->n_params);
        for (k = 0; k < j; k++)
            if (vary_index[k] == vary_index[j])
                return zvp_fail(err, ZVP_EINVAL,
                                "%s: vary_index[%zu] = %zu repeats vary_index[%zu] (parameter "
                                "'%s'); each parameter may vary once",
                                who, j, vary_index[j], k, m->params[vary_index[j]].name);
    }
    s.n_vary = n_vary;
    s.index = vary_index;
    s.rows = n_vary ? vary_values : NULL; /* NULL: every point is the base vector */
    s.axes = NULL;
    s.first = 0;
    return zvp_eval_run(m, base_params, &s, (uint64_t)n_points, outputs, n_points, status,
                        threads, NULL, who, err);
}

int zvp_eval_grid(const zvp_model *m, const double *base_params, const zvp_axis *axes,
                  size_t n_axes, uint64_t first, uint64_t count, double *outputs,
                  uint8_t *status, int threads, zvp_error *err)
{
    return zvp_eval_grid_stop(m, base_params, axes, n_axes, first, count, outputs, status,
                              threads, NULL, err);
}

int zvp_eval_grid_stop(const zvp_model *m, const double *base_params, const zvp_axis *axes,
                       size_t n_axes, uint64_t first, uint64_t count, double *outputs,
                       uint8_t *status, int threads, const volatile sig_atomic_t *stop,
                       zvp_error *err)
{
    return zvp_eval_grid_strided(m, base_params, axes, n_axes, first, count, outputs,
                                 (size_t)count, status, threads, stop, err);
}

int zvp_eval_grid_strided(const zvp_model *m, const double *base_params, const zvp_axis *axes,
                          size_t n_axes, uint64_t first, uint64_t count, double *outputs,
                          size_t ostride, uint8_t *status, int threads,
                          const volatile sig_atomic_t *stop, zvp_error *err)
{
    static const char who[] = "zvp_eval_grid";
    zvp_eval_src s;
    size_t *param = NULL, k;
    uint64_t points = 1;
    int rc = zvp_eval_check(m, base_params, count, outputs, status, threads, who, err);
    if (rc)
        return rc;
    if (n_axes > 0 && !axes)
        return zvp_fail(err, ZVP_EINVAL, "%s: axes must not be NULL (n_axes = %zu)", who,
                        n_axes);
    if (n_axes > m->n_params)
        return zvp_fail(err, ZVP_EINVAL,
                        "%s: n_axes = %zu is out of range [0, %zu] (the parameters of model "
                        "'%s', each at most once)",
                        who, n_axes, m->n_params, m->name);
    if (n_axes > 0 && !(param = malloc(n_axes * sizeof *param)))
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", who);
    for (k = 0; k < n_axes; k++) {
        if ((rc = zvp_grid_resolve_axis(m, axes, k, param, who, err)))
            goto done;
        if ((uint64_t)axes[k].n_values > UINT64_MAX / points) {
            rc = zvp_fail(err, ZVP_EINVAL, "%s: the grid has more than 2^64 points (axis '%s')",
                          who, axes[k].name);
            goto done;
        }
        points *= (uint64_t)axes[k].n_values;
    }
    if (first > points || count > points - first) {
        rc = zvp_fail(err, ZVP_EINVAL,
                      "%s: points [first, first + count) = [%llu, %llu + %llu) go beyond the "
                      "grid of %llu points",
                      who, (unsigned long long)first, (unsigned long long)first,
                      (unsigned long long)count, (unsigned long long)points);
        goto done;
    }
    s.n_vary = n_axes;
    s.index = param;
    s.rows = NULL;
    s.axes = n_axes ? axes : NULL;
    s.first = first;
    if (ostride < count) {
        rc = zvp_fail(err, ZVP_EINVAL, "%s: output stride %zu is below count %llu", who, ostride,
                      (unsigned long long)count);
        goto done;
    }
    rc = zvp_eval_run(m, base_params, &s, count, outputs, ostride, status, threads, stop, who,
                      err);
done:
    free(param);
    return rc;
}
