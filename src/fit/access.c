/* src/fit/access.c - what a fit holds (fit.h, fitfile.h accessors). */
#include <string.h>
#include "fit/fit_impl.h"

#define ZVP_NO_INDEX ((size_t)-1)

const char *zvp_fit_output_path(const zvp_fit *fit) { return fit ? fit->output_path : NULL; }
const char *zvp_fit_base_path(const zvp_fit *fit) { return fit ? fit->base_path : NULL; }
const zvp_model *zvp_fit_model(const zvp_fit *fit) { return fit ? fit->model : NULL; }
size_t zvp_fit_n_rows(const zvp_fit *fit) { return fit ? fit->n_rows : 0; }

const char *zvp_fit_row_label(const zvp_fit *fit, size_t i)
{
    return fit && i < fit->n_rows ? fit->labels[i] : NULL;
}

size_t zvp_fit_n_matched(const zvp_fit *fit) { return fit ? fit->n_match : 0; }

size_t zvp_fit_matched_output(const zvp_fit *fit, size_t j)
{
    return fit && j < fit->n_match ? fit->match[j].index : ZVP_NO_INDEX;
}

const char *zvp_fit_matched_column(const zvp_fit *fit, size_t j)
{
    return fit && j < fit->n_match ? fit->match[j].column : NULL;
}

const char *zvp_fit_matched_unit(const zvp_fit *fit, size_t j)
{
    return fit && j < fit->n_match ? fit->match[j].unit : NULL;
}

double zvp_fit_measured(const zvp_fit *fit, size_t i, size_t j)
{
    return fit && i < fit->n_rows && j < fit->n_match ? fit->measured[i * fit->n_match + j] : NAN;
}

size_t zvp_fit_n_free(const zvp_fit *fit) { return fit ? fit->n_free : 0; }

size_t zvp_fit_free_param_at(const zvp_fit *fit, size_t k, double *start, double *lo, double *hi)
{
    if (!fit || k >= fit->n_free)
        return ZVP_NO_INDEX;
    if (start)
        *start = fit->free[k].start;
    if (lo)
        *lo = fit->free[k].lo;
    if (hi)
        *hi = fit->free[k].hi;
    return fit->free[k].index;
}

size_t zvp_fit_n_fixed(const zvp_fit *fit) { return fit ? fit->n_fixed : 0; }

size_t zvp_fit_fixed_param_at(const zvp_fit *fit, size_t f, double *value)
{
    if (!fit || f >= fit->n_fixed)
        return ZVP_NO_INDEX;
    if (value)
        *value = fit->fixed_value[f];
    return fit->fixed_index[f];
}

size_t zvp_fit_n_inputs(const zvp_fit *fit) { return fit ? fit->n_inputs : 0; }

size_t zvp_fit_input_param_at(const zvp_fit *fit, size_t k, const char **column)
{
    if (!fit || k >= fit->n_inputs)
        return ZVP_NO_INDEX;
    if (column)
        *column = fit->inputs[k].column;
    return fit->inputs[k].index;
}

int zvp_fit_row_params(const zvp_fit *fit, size_t i, const double *params_in, double *params_out,
                       zvp_error *err)
{
    if (!fit || !params_out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_row_params: fit and params_out must not be NULL");
    if (i >= fit->n_rows)
        return zvp_fail(err, ZVP_EINVAL, "%s: row %zu is out of range [0, %zu]",
                        zvp_fit_name(fit), i, fit->n_rows ? fit->n_rows - 1 : 0);
    const size_t np = fit->model->n_params;
    const double *row = fit->row_params + i * np;
    if (!params_in) {
        memmove(params_out, row, np * sizeof(double));
        return ZVP_SUCCESS;
    }
    memmove(params_out, params_in, np * sizeof(double));
    for (size_t f = 0; f < fit->n_fixed; f++)
        params_out[fit->fixed_index[f]] = fit->fixed_value[f];
    for (size_t k = 0; k < fit->n_inputs; k++)
        params_out[fit->inputs[k].index] = row[fit->inputs[k].index];
    return ZVP_SUCCESS;
}
