/*
 * src/modelfile_unc.c - the uncertainty sections of a model file (calibration/README.md,
 * "Covariance in model files"):
 *   [transform]          <param> = logistic <lo> <hi>     the fitted parametrisation
 *                        u = log((theta - lo) / (hi - theta)) of each fitted parameter
 *   [covariance]         <param> = <c_1> ... <c_n>        covariance of u, one row per
 *                        parameter, columns in the order of the rows (symmetric)
 *   [residual_variance]  <output> = <s^2> relative|absolute
 * Numbers are written exactly (shortest of %.12g/%.15g/%.17g that reads back) so a file
 * read and written again is identical.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "modelfile_unc.h"

struct zvp_mf_unc {
    size_t n_params, n_outputs;
    size_t n_tr;
    size_t *tr_index;     /* [n_params] transform order */
    double *tr_lo, *tr_hi; /* [n_params] by parameter index, NaN = none */
    size_t n_cov;
    size_t *cov_index;    /* [n_params] */
    double *cov;          /* [n_cov * n_cov] */
    double *resvar;       /* [n_outputs], NaN = none */
    int *reskind;         /* [n_outputs] ZVP_RESVAR_* */
    /* while parsing [covariance]: rows in file order */
    size_t n_rows, cap_raw, n_raw;
    double *raw;
    size_t *row_len, *row_line;
};

zvp_mf_unc *zvp_mf_unc_new(const zvp_model *m)
{
    size_t np = m->n_params + 1, no = m->n_outputs + 1;
    zvp_mf_unc *u = calloc(1, sizeof *u);
    if (!u)
        return NULL;
    u->n_params = m->n_params;
    u->n_outputs = m->n_outputs;
    u->tr_index = malloc(np * sizeof *u->tr_index);
    u->tr_lo = malloc(np * sizeof(double));
    u->tr_hi = malloc(np * sizeof(double));
    u->cov_index = malloc(np * sizeof *u->cov_index);
    u->row_len = malloc(np * sizeof *u->row_len);
    u->row_line = malloc(np * sizeof *u->row_line);
    u->resvar = malloc(no * sizeof(double));
    u->reskind = calloc(no, sizeof(int));
    if (!u->tr_index || !u->tr_lo || !u->tr_hi || !u->cov_index || !u->row_len ||
        !u->row_line || !u->resvar || !u->reskind) {
        zvp_mf_unc_free(u);
        return NULL;
    }
    for (size_t i = 0; i < m->n_params; i++)
        u->tr_lo[i] = u->tr_hi[i] = NAN;
    for (size_t j = 0; j < m->n_outputs; j++)
        u->resvar[j] = NAN;
    return u;
}

void zvp_mf_unc_free(zvp_mf_unc *u)
{
    if (!u)
        return;
    free(u->tr_index);
    free(u->tr_lo);
    free(u->tr_hi);
    free(u->cov_index);
    free(u->cov);
    free(u->resvar);
    free(u->reskind);
    free(u->raw);
    free(u->row_len);
    free(u->row_line);
    free(u);
}

int zvp_mf_unc_is_section(const char *s)
{
    return strcmp(s, "transform") == 0 || strcmp(s, "covariance") == 0 ||
           strcmp(s, "residual_variance") == 0;
}

/* ---- public accessors ---- */

static int check_transform(const zvp_model *m, size_t i, double lo, double hi, zvp_error *err)
{
    if (i >= m->n_params)
        return zvp_fail(err, ZVP_EINVAL, "transform: parameter index %zu is out of range [0, %zu)",
                        i, m->n_params);
    if (!(isfinite(lo) && isfinite(hi) && lo < hi))
        return zvp_fail(err, ZVP_EINVAL, "transform of %s: logistic bounds lo = %g, hi = %g: need "
                        "finite lo < hi", m->params[i].name, lo, hi);
    return ZVP_SUCCESS;
}

int zvp_model_file_set_transform(zvp_model_file *mf, size_t i, double lo, double hi,
                                 zvp_error *err)
{
    zvp_mf_unc *u = zvp_model_file_unc(mf);
    int st;
    if (!u)
        return zvp_fail(err, ZVP_EINVAL, "zvp_model_file_set_transform: mf is NULL");
    if ((st = check_transform(zvp_model_file_model(mf), i, lo, hi, err)))
        return st;
    if (isnan(u->tr_lo[i]))
        u->tr_index[u->n_tr++] = i;
    u->tr_lo[i] = lo;
    u->tr_hi[i] = hi;
    return ZVP_SUCCESS;
}

size_t zvp_model_file_n_transforms(const zvp_model_file *mf)
{
    zvp_mf_unc *u = zvp_model_file_unc(mf);
    return u ? u->n_tr : 0;
}

size_t zvp_model_file_transform_at(const zvp_model_file *mf, size_t k, double *lo, double *hi)
{
    zvp_mf_unc *u = zvp_model_file_unc(mf);
    if (!u || k >= u->n_tr)
        return (size_t)-1;
    if (lo)
        *lo = u->tr_lo[u->tr_index[k]];
    if (hi)
        *hi = u->tr_hi[u->tr_index[k]];
    return u->tr_index[k];
}

int zvp_model_file_set_covariance(zvp_model_file *mf, size_t n, const size_t *params,
                                  const double *cov, zvp_error *err)
{
    zvp_mf_unc *u = zvp_model_file_unc(mf);
    const zvp_model *m = zvp_model_file_model(mf);
    double *c;
    if (!u || (n && (!params || !cov)))
        return zvp_fail(err, ZVP_EINVAL, "zvp_model_file_set_covariance: NULL argument");
    if (n > u->n_params)
        return zvp_fail(err, ZVP_EINVAL, "covariance: n = %zu is out of range [0, %zu]", n,
                        u->n_params);
    for (size_t a = 0; a < n; a++) {
        if (params[a] >= u->n_params || isnan(u->tr_lo[params[a]]))
            return zvp_fail(err, ZVP_EINVAL, "covariance: parameter %s has no [transform] entry "
                            "(the covariance is of the transformed parameters)",
                            params[a] < u->n_params ? m->params[params[a]].name : "(out of range)");
        for (size_t b = 0; b < a; b++)
            if (params[b] == params[a])
                return zvp_fail(err, ZVP_EINVAL, "covariance: parameter %s is given twice",
                                m->params[params[a]].name);
        if (!(cov[a * n + a] >= 0.0))
            return zvp_fail(err, ZVP_EINVAL, "covariance: variance of %s = %g: must be >= 0",
                            m->params[params[a]].name, cov[a * n + a]);
        for (size_t b = 0; b < n; b++)
            if (!isfinite(cov[a * n + b]) || cov[a * n + b] != cov[b * n + a])
                return zvp_fail(err, ZVP_EINVAL, "covariance: entry (%s, %s) = %g: must be "
                                "finite and equal to (%s, %s) = %g (symmetric)",
                                m->params[params[a]].name, m->params[params[b]].name,
                                cov[a * n + b], m->params[params[b]].name,
                                m->params[params[a]].name, cov[b * n + a]);
    }
    c = malloc((n * n + 1) * sizeof *c);
    if (!c)
        return zvp_fail(err, ZVP_ENOMEM, "covariance: out of memory");
    memcpy(c, cov, n * n * sizeof *c);
    free(u->cov);
    u->cov = c;
    u->n_cov = n;
    memcpy(u->cov_index, params, n * sizeof *params);
    return ZVP_SUCCESS;
}

size_t zvp_model_file_n_covariance(const zvp_model_file *mf)
{
    zvp_mf_unc *u = zvp_model_file_unc(mf);
    return u ? u->n_cov : 0;
}

const size_t *zvp_model_file_covariance_params(const zvp_model_file *mf)
{
    zvp_mf_unc *u = zvp_model_file_unc(mf);
    return u && u->n_cov ? u->cov_index : NULL;
}

const double *zvp_model_file_covariance(const zvp_model_file *mf)
{
    zvp_mf_unc *u = zvp_model_file_unc(mf);
    return u && u->n_cov ? u->cov : NULL;
}

int zvp_model_file_set_residual_variance(zvp_model_file *mf, size_t j, double var, int kind,
                                         zvp_error *err)
{
    zvp_mf_unc *u = zvp_model_file_unc(mf);
    if (!u || j >= u->n_outputs)
        return zvp_fail(err, ZVP_EINVAL, "residual variance: output index %zu is out of range",
                        j);
    if (kind != ZVP_RESVAR_RELATIVE && kind != ZVP_RESVAR_ABSOLUTE)
        return zvp_fail(err, ZVP_EINVAL, "residual variance of %s: kind = %d is not relative (0) "
                        "or absolute (1)", zvp_model_file_model(mf)->outputs[j].name, kind);
    if (!isnan(var) && !(var >= 0.0 && isfinite(var)))
        return zvp_fail(err, ZVP_EINVAL, "residual variance of %s = %g: must be finite and >= 0 "
                        "(NaN clears it)", zvp_model_file_model(mf)->outputs[j].name, var);
    u->resvar[j] = var + 0.0;
    u->reskind[j] = kind;
    return ZVP_SUCCESS;
}

double zvp_model_file_residual_variance(const zvp_model_file *mf, size_t j, int *kind)
{
    zvp_mf_unc *u = zvp_model_file_unc(mf);
    if (!u || j >= u->n_outputs)
        return NAN;
    if (kind)
        *kind = u->reskind[j];
    return u->resvar[j];
}

double zvp_model_file_dof_effective(const zvp_model_file *mf)
{
    const char *s = zvp_model_file_provenance(mf, "dof_effective");
    double v;
    return s && zvp_parse_double(s, &v) == 0 && v >= 0.0 ? v : NAN;
}

/* ---- reading ---- */

/* Split value into at most max blank-separated tokens of buf; the count. */
static size_t tokens(const char *value, char *buf, size_t size, char **tok, size_t max)
{
    size_t n = 0;
    char *save = NULL;
    snprintf(buf, size, "%s", value);
    for (char *t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
        if (n < max)
            tok[n++] = t;
        else
            return max + 1;
    return n;
}

static int apply_transform(zvp_mf_unc *u, const zvp_model *m, const zvp_ini *ini,
                           const zvp_ini_entry *e, size_t k, zvp_error *err)
{
    char buf[256], *tok[4];
    double lo, hi;
    zvp_error sub;
    size_t n = tokens(e->value, buf, sizeof buf, tok, 3);
    if (n != 3 || strcmp(tok[0], "logistic") != 0 || zvp_parse_double(tok[1], &lo) ||
        zvp_parse_double(tok[2], &hi))
        return zvp_fail(err, ZVP_EPARSE, "%s:%zu: [transform] %s = '%.100s': expected "
                        "'logistic LO HI' (two decimal numbers)", ini->name, e->line, e->key,
                        e->value);
    zvp_error_clear(&sub);
    if (check_transform(m, k, lo, hi, &sub))
        return zvp_fail(err, ZVP_EINVAL, "%s:%zu: [transform] %s", ini->name, e->line,
                        sub.message);
    u->tr_index[u->n_tr++] = k;
    u->tr_lo[k] = lo;
    u->tr_hi[k] = hi;
    return ZVP_SUCCESS;
}

static int apply_cov_row(zvp_mf_unc *u, const zvp_model *m, const zvp_ini *ini,
                         const zvp_ini_entry *e, size_t k, zvp_error *err)
{
    const char *p = e->value;
    size_t len = 0;
    if (u->n_rows >= u->n_params)
        return zvp_fail(err, ZVP_EPARSE, "%s:%zu: [covariance] has more rows than the model has "
                        "parameters", ini->name, e->line);
    while (*p) {
        char num[64];
        size_t w;
        double v;
        p += strspn(p, " \t");
        w = strcspn(p, " \t");
        if (w == 0)
            break;
        snprintf(num, sizeof num, "%.*s", (int)(w < 63 ? w : 63), p);
        if (w >= 63 || zvp_parse_double(num, &v))
            return zvp_fail(err, ZVP_EPARSE, "%s:%zu: [covariance] %s: '%.*s' is not a finite "
                            "decimal number", ini->name, e->line, e->key, (int)(w < 60 ? w : 60),
                            p);
        if (ZVP_GROW(u->raw, u->cap_raw, u->n_raw + 1))
            return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", ini->name);
        u->raw[u->n_raw++] = v;
        len++;
        p += w;
    }
    (void)m;
    u->cov_index[u->n_rows] = k;
    u->row_len[u->n_rows] = len;
    u->row_line[u->n_rows++] = e->line;
    return ZVP_SUCCESS;
}

int zvp_mf_unc_apply(zvp_mf_unc *u, const zvp_model *m, const zvp_ini *ini,
                     const zvp_ini_entry *e, zvp_error *err)
{
    long k;
    zvp_error sub;
    zvp_error_clear(&sub);
    if (strcmp(e->section, "residual_variance") == 0) {
        char buf[256], *tok[3];
        double v;
        long j = zvp_model_output_index(m, e->key, &sub);
        size_t n = tokens(e->value, buf, sizeof buf, tok, 2);
        if (j < 0)
            return zvp_fail(err, ZVP_ENOTFOUND, "%s:%zu: [residual_variance] %s: model '%s' has "
                            "no such output", ini->name, e->line, e->key, m->name);
        if (n != 2 || zvp_parse_double(tok[0], &v) || !(v >= 0.0) ||
            (strcmp(tok[1], "relative") && strcmp(tok[1], "absolute")))
            return zvp_fail(err, ZVP_EPARSE, "%s:%zu: [residual_variance] %s = '%.100s': expected "
                            "'VARIANCE relative|absolute' (a number >= 0)", ini->name, e->line,
                            e->key, e->value);
        u->resvar[j] = v + 0.0;
        u->reskind[j] = strcmp(tok[1], "absolute") == 0 ? ZVP_RESVAR_ABSOLUTE : ZVP_RESVAR_RELATIVE;
        return ZVP_SUCCESS;
    }
    k = zvp_model_param_index(m, e->key, &sub);
    if (k < 0)
        return zvp_fail(err, ZVP_ENOTFOUND, "%s:%zu: [%s] %s: model '%s' has no such parameter",
                        ini->name, e->line, e->section, e->key, m->name);
    if (strcmp(e->section, "transform") == 0)
        return apply_transform(u, m, ini, e, (size_t)k, err);
    return apply_cov_row(u, m, ini, e, (size_t)k, err);
}

int zvp_mf_unc_finish(zvp_mf_unc *u, const zvp_model *m, const char *name, zvp_error *err)
{
    size_t n = u->n_rows;
    double *c;
    if (n == 0)
        return ZVP_SUCCESS;
    for (size_t a = 0; a < n; a++) {
        size_t k = u->cov_index[a];
        if (isnan(u->tr_lo[k]))
            return zvp_fail(err, ZVP_EPARSE, "%s:%zu: [covariance] %s has no [transform] entry",
                            name, u->row_line[a], m->params[k].name);
        if (u->row_len[a] != n)
            return zvp_fail(err, ZVP_EPARSE, "%s:%zu: [covariance] %s has %zu values: expected %zu "
                            "(one per row of [covariance])", name, u->row_line[a],
                            m->params[k].name, u->row_len[a], n);
    }
    c = malloc((n * n + 1) * sizeof *c);
    if (!c)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", name);
    memcpy(c, u->raw, n * n * sizeof *c);
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++)
            if (c[a * n + b] != c[b * n + a] || (a == b && c[a * n + a] < 0.0)) {
                int st = zvp_fail(err, ZVP_EPARSE, "%s:%zu: [covariance] %s, column %zu = %.17g "
                                  "differs from row %s, column %zu = %.17g, or is a negative "
                                  "variance: a covariance is symmetric with variances >= 0", name,
                                  u->row_line[a], m->params[u->cov_index[a]].name, b + 1,
                                  c[a * n + b], m->params[u->cov_index[b]].name, a + 1,
                                  c[b * n + a]);
                free(c);
                return st;
            }
    free(u->cov);
    u->cov = c;
    u->n_cov = n;
    free(u->raw);
    u->raw = NULL;
    u->n_raw = u->cap_raw = 0;
    return ZVP_SUCCESS;
}

/* ---- writing ---- */

void zvp_mf_unc_write(const zvp_mf_unc *u, const zvp_model *m, FILE *fp)
{
    char num[32];
    int any_rv = 0;
    if (u->n_tr) {
        fprintf(fp, "\n; fitted parametrisation: u = log((theta - lo) / (hi - theta))\n"
                    "[transform]\n");
        for (size_t t = 0; t < u->n_tr; t++) {
            size_t k = u->tr_index[t];
            fprintf(fp, "%s = logistic ", m->params[k].name);
            zvp_format_exact(u->tr_lo[k], num, sizeof num);
            fprintf(fp, "%s ", num);
            zvp_format_exact(u->tr_hi[k], num, sizeof num);
            fprintf(fp, "%s\n", num);
        }
    }
    if (u->n_cov) {
        fprintf(fp, "\n; covariance of u (columns in the order of the rows)\n[covariance]\n");
        for (size_t a = 0; a < u->n_cov; a++) {
            fprintf(fp, "%s =", m->params[u->cov_index[a]].name);
            for (size_t b = 0; b < u->n_cov; b++) {
                zvp_format_exact(u->cov[a * u->n_cov + b], num, sizeof num);
                fprintf(fp, " %s", num);
            }
            fputc('\n', fp);
        }
    }
    for (size_t j = 0; j < u->n_outputs; j++)
        any_rv |= !isnan(u->resvar[j]);
    if (any_rv) {
        fprintf(fp, "\n; residual variance per output (relative: of (model - measured) / "
                    "|measured|)\n[residual_variance]\n");
        for (size_t j = 0; j < u->n_outputs; j++)
            if (!isnan(u->resvar[j])) {
                zvp_format_exact(u->resvar[j], num, sizeof num);
                fprintf(fp, "%s = %s %s\n", m->outputs[j].name, num,
                        u->reskind[j] == ZVP_RESVAR_ABSOLUTE ? "absolute" : "relative");
            }
    }
}
