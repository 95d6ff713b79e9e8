/* src/modelfile.c - model files (zvmperf/modelfile.h): a registered model plus a parameter
 * vector, standard errors and provenance, read with the library's INI reader
 * (src/util/ini.c: the input is read once, no line-length limit, "-" is standard input). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util/atomic.h"
#include "util/ini.h"
#include "zvmperf/modelfile.h"
#include "modelfile_unc.h"

typedef struct kv {
    char *key, *value;
} kv;

struct zvp_model_file {
    const zvp_model *model;
    double *params;  /* [n_params] */
    double *stderrs; /* [n_params], NaN = none */
    unsigned char *given; /* [n_params]: 1 = set by [parameters] or zvp_model_file_set */
    char *text;      /* file text as read, "" otherwise */
    kv *prov;        /* provenance entries */
    size_t n_prov, cap_prov;
    zvp_mf_unc *unc; /* [transform], [covariance], [residual_variance] (modelfile_unc.c) */
};

zvp_model_file *zvp_model_file_new(const zvp_model *m)
{
    zvp_model_file *mf = calloc(1, sizeof *mf);
    if (!mf)
        return NULL;
    mf->model = m;
    mf->params = malloc((m->n_params ? m->n_params : 1) * sizeof(double));
    mf->stderrs = malloc((m->n_params ? m->n_params : 1) * sizeof(double));
    mf->given = calloc(m->n_params ? m->n_params : 1, 1);
    mf->text = zvp_strdup("");
    mf->unc = zvp_mf_unc_new(m);
    if (!mf->params || !mf->stderrs || !mf->given || !mf->text || !mf->unc) {
        zvp_model_file_free(mf);
        return NULL;
    }
    zvp_model_defaults(m, mf->params);
    for (size_t i = 0; i < m->n_params; i++)
        mf->stderrs[i] = NAN;
    return mf;
}

void zvp_model_file_free(zvp_model_file *mf)
{
    if (!mf)
        return;
    for (size_t i = 0; i < mf->n_prov; i++) {
        free(mf->prov[i].key);
        free(mf->prov[i].value);
    }
    free(mf->prov);
    free(mf->params);
    free(mf->stderrs);
    free(mf->given);
    free(mf->text);
    zvp_mf_unc_free(mf->unc);
    free(mf);
}

zvp_mf_unc *zvp_model_file_unc(const zvp_model_file *mf) { return mf ? mf->unc : NULL; }

/* Accessors: a NULL handle gives NULL / NaN, or is a no-op (model.h). */
const zvp_model *zvp_model_file_model(const zvp_model_file *mf) { return mf ? mf->model : NULL; }
double *zvp_model_file_params(zvp_model_file *mf) { return mf ? mf->params : NULL; }
const char *zvp_model_file_text(const zvp_model_file *mf) { return mf ? mf->text : NULL; }

double zvp_model_file_stderr(const zvp_model_file *mf, size_t i)
{
    return mf && i < mf->model->n_params ? mf->stderrs[i] : NAN;
}

int zvp_model_file_is_set(const zvp_model_file *mf, size_t i)
{
    return mf && i < mf->model->n_params ? mf->given[i] : -1;
}

void zvp_model_file_set_stderr(zvp_model_file *mf, size_t i, double se)
{
    if (mf && i < mf->model->n_params)
        mf->stderrs[i] = se + 0.0; /* -0 becomes 0 */
}

int zvp_model_file_set(zvp_model_file *mf, const char *name, double value, zvp_error *err)
{
    long i = zvp_model_param_index(mf->model, name, err);
    if (i < 0)
        return ZVP_ENOTFOUND;
    int st = zvp_check_param(mf->model->name, &mf->model->params[i], value, err);
    if (st == ZVP_SUCCESS) {
        mf->params[i] = value;
        mf->given[i] = 1;
    }
    return st;
}

/* ---- provenance text -------------------------------------------------------------------
 * Keys: non-empty, valid UTF-8, no control characters, no '=', ';', '[' or ']', no blank at
 * either end, not starting with '#'. Values: one line of valid UTF-8 (tabs allowed, no other
 * control character). Values are written escaped so that they read back unchanged through
 * the INI comment rule (" ;" starts a comment) and the trimming of blanks: '\' is written
 * "\\", a ';' first or after a blank "\;", a blank at either end "\s" (space) or "\t"
 * (tab). Reading undoes exactly these four; any other '\' is kept as written. */

/* Offset of the first byte of s that is not valid UTF-8 (no overlongs, surrogates or code
 * points above U+10FFFF), or (size_t)-1 when all of it is. */
static size_t utf8_invalid_at(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (p[i]) {
        unsigned c = p[i];
        size_t n = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2
                 : (c & 0xF8) == 0xF0 ? 3 : 9;
        unsigned long cp = n == 0 ? c : n == 1 ? (c & 0x1Fu) : n == 2 ? (c & 0x0Fu) : (c & 0x07u);
        if (n == 9 || (n == 1 && c < 0xC2))
            return i;
        for (size_t k = 1; k <= n; k++) {
            if ((p[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (p[i + k] & 0x3Fu);
        }
        if ((n == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return i;
        i += n + 1;
    }
    return (size_t)-1;
}

static int is_blank_c(char c) { return c == ' ' || c == '\t'; }

/* A control character (other than tab when tab_ok) in s: its offset, else (size_t)-1. */
static size_t control_at(const char *s, int tab_ok)
{
    for (size_t i = 0; s[i]; i++)
        if (((unsigned char)s[i] < 0x20 && !(tab_ok && s[i] == '\t')) || s[i] == 0x7f)
            return i;
    return (size_t)-1;
}

static int check_provenance(const char *key, const char *value, zvp_error *err)
{
    size_t at, klen;
    if (!key || !value)
        return zvp_fail(err, ZVP_EINVAL, "provenance: key and value must not be NULL");
    klen = strlen(key);
    if (klen == 0 || key[0] == '#' || strpbrk(key, "=;[]") || is_blank_c(key[0]) ||
        is_blank_c(key[klen - 1]) || control_at(key, 0) != (size_t)-1)
        return zvp_fail(err, ZVP_EINVAL,
                        "provenance key '%.200s': a key is a non-empty name without '=', ';', "
                        "brackets, control characters or blanks at its ends, and does not start "
                        "with '#'", key);
    if ((at = utf8_invalid_at(key)) != (size_t)-1)
        return zvp_fail(err, ZVP_EINVAL, "provenance key: byte %zu is not valid UTF-8", at + 1);
    if ((at = control_at(value, 1)) != (size_t)-1)
        return zvp_fail(err, ZVP_EINVAL,
                        "provenance %.200s: the value has a control character (byte %zu, code "
                        "%u): a value is one line", key, at + 1,
                        (unsigned)(unsigned char)value[at]);
    if ((at = utf8_invalid_at(value)) != (size_t)-1)
        return zvp_fail(err, ZVP_EINVAL, "provenance %.200s: byte %zu of the value is not valid "
                        "UTF-8 (0x%02x)", key, at + 1, (unsigned)(unsigned char)value[at]);
    return ZVP_SUCCESS;
}

/* Write a value escaped (so that it reads back unchanged) to fp. */
static void provenance_write_value(FILE *fp, const char *v)
{
    size_t n = strlen(v);
    for (size_t i = 0; i < n; i++) {
        char c = v[i];
        if (c == '\\' || (c == ';' && (i == 0 || is_blank_c(v[i - 1])))) {
            fputc('\\', fp);
            fputc(c, fp);
        } else if (is_blank_c(c) && (i == 0 || i == n - 1)) {
            fputc('\\', fp);
            fputc(c == ' ' ? 's' : 't', fp);
        } else {
            fputc(c, fp);
        }
    }
}

/* The value a written (escaped) value stands for (malloc'd). */
static char *provenance_unescape(const char *v)
{
    char *out = malloc(strlen(v) + 1), *d = out;
    if (!out)
        return NULL;
    for (const char *p = v; *p; p++) {
        if (*p == '\\' && (p[1] == '\\' || p[1] == ';' || p[1] == 's' || p[1] == 't')) {
            p++;
            *d++ = *p == 's' ? ' ' : *p == 't' ? '\t' : *p;
        } else {
            *d++ = *p;
        }
    }
    *d = '\0';
    return out;
}

/* Append (key, value) (copied; the key is not looked up). */
static int provenance_append(zvp_model_file *mf, const char *key, char *value_owned,
                             zvp_error *err)
{
    char *k = zvp_strdup(key);
    if (!k || !value_owned || ZVP_GROW(mf->prov, mf->cap_prov, mf->n_prov + 1) != 0) {
        free(k);
        free(value_owned);
        return zvp_fail(err, ZVP_ENOMEM, "out of memory storing provenance '%.200s'", key);
    }
    mf->prov[mf->n_prov].key = k;
    mf->prov[mf->n_prov].value = value_owned;
    mf->n_prov++;
    return ZVP_SUCCESS;
}

int zvp_model_file_set_provenance(zvp_model_file *mf, const char *key, const char *value,
                                  zvp_error *err)
{
    int st = check_provenance(key, value, err);
    if (st != ZVP_SUCCESS)
        return st;
    for (size_t i = 0; i < mf->n_prov; i++)
        if (strcmp(mf->prov[i].key, key) == 0) {
            char *v = zvp_strdup(value);
            if (!v)
                return zvp_fail(err, ZVP_ENOMEM, "out of memory storing provenance '%.200s'", key);
            free(mf->prov[i].value);
            mf->prov[i].value = v;
            return ZVP_SUCCESS;
        }
    return provenance_append(mf, key, zvp_strdup(value), err);
}

const char *zvp_model_file_provenance(const zvp_model_file *mf, const char *key)
{
    if (!mf || !key)
        return NULL;
    for (size_t i = 0; i < mf->n_prov; i++)
        if (strcmp(mf->prov[i].key, key) == 0)
            return mf->prov[i].value;
    return NULL;
}

/* A [provenance] line as read: unescaped, checked, appended (keys are unique: the reader
 * refused repeated keys before, so there is no lookup and loading stays linear). */
static int read_provenance(zvp_model_file *mf, const zvp_ini *ini, const zvp_ini_entry *e,
                           zvp_error *err)
{
    char *v = provenance_unescape(e->value);
    zvp_error sub;
    zvp_error_clear(&sub);
    if (!v)
        return zvp_fail(err, ZVP_ENOMEM, "%s:%zu: out of memory", ini->name, e->line);
    if (check_provenance(e->key, v, &sub) != ZVP_SUCCESS) {
        free(v);
        return zvp_fail(err, ZVP_EPARSE, "%s:%zu: [provenance] %s", ini->name, e->line,
                        sub.message);
    }
    return provenance_append(mf, e->key, v, err);
}

/* ---- reading ---------------------------------------------------------------------------- */

/* The value of [model] name, or NULL. */
static const char *model_name_of(const zvp_ini *ini)
{
    for (size_t i = 0; i < ini->n_entries; i++)
        if (strcmp(ini->entries[i].section, "model") == 0 &&
            strcmp(ini->entries[i].key, "name") == 0)
            return ini->entries[i].value;
    return NULL;
}

/* A number in [parameters] or [stderr]: the parameter must exist and the value be a number;
 * [parameters] values pass the engines' parameter check. */
static int apply_number(zvp_model_file *mf, const zvp_ini *ini, const zvp_ini_entry *e,
                        zvp_error *err)
{
    const zvp_model *m = mf->model;
    double v;
    long k = zvp_model_param_index(m, e->key, err);
    if (k < 0)
        return zvp_fail(err, ZVP_ENOTFOUND, "%s:%zu: [%s] %s: model '%s' has no such parameter",
                        ini->name, e->line, e->section, e->key, m->name);
    if (zvp_parse_double(e->value, &v) != 0)
        return zvp_fail(err, ZVP_EPARSE,
                        "%s:%zu: [%s] %s = '%s' is not a finite decimal number", ini->name,
                        e->line, e->section, e->key, e->value);
    if (strcmp(e->section, "stderr") == 0) {
        if (v < 0)
            return zvp_fail(err, ZVP_EINVAL,
                            "%s:%zu: [stderr] %s = %s: a standard error is >= 0", ini->name,
                            e->line, e->key, e->value);
        mf->stderrs[k] = v + 0.0; /* -0 is stored (and written) as 0 */
        return ZVP_SUCCESS;
    }
    int st = zvp_check_param(ini->name, &m->params[k], v, err);
    if (st == ZVP_SUCCESS) {
        mf->params[k] = v;
        mf->given[k] = 1;
    }
    return st;
}

/* One entry, by section. */
static int apply_entry(zvp_model_file *mf, const zvp_ini *ini, const zvp_ini_entry *e,
                       zvp_error *err)
{
    if (strcmp(e->section, "parameters") == 0 || strcmp(e->section, "stderr") == 0)
        return apply_number(mf, ini, e, err);
    if (strcmp(e->section, "provenance") == 0)
        return read_provenance(mf, ini, e, err);
    if (zvp_mf_unc_is_section(e->section))
        return zvp_mf_unc_apply(mf->unc, mf->model, ini, e, err);
    if (strcmp(e->section, "model") == 0) {
        if (strcmp(e->key, "name") != 0 && strcmp(e->key, "description") != 0)
            return zvp_fail(err, ZVP_EPARSE,
                            "%s:%zu: [model] unknown key '%s' (allowed: name, description)",
                            ini->name, e->line, e->key);
        return ZVP_SUCCESS;
    }
    return zvp_fail(err, ZVP_EPARSE,
                    "%s:%zu: unknown section [%s] (allowed: model, parameters, stderr, transform, "
                    "covariance, residual_variance, provenance)",
                    ini->name, e->line, e->section);
}

/* A key given twice in a section is an error, not "last wins": both lines are named. */
static int refuse_duplicates(const zvp_ini *ini, zvp_error *err)
{
    size_t a, b;
    int dup = zvp_ini_find_duplicate(ini, &a, &b);
    if (dup < 0)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", ini->name);
    if (dup == 0)
        return ZVP_SUCCESS;
    const zvp_ini_entry *x = &ini->entries[a], *y = &ini->entries[b];
    return zvp_fail(err, ZVP_EPARSE,
                    "%s:%zu: [%s] %s is given twice (line %zu: '%.100s', line %zu: '%.100s')",
                    ini->name, y->line, y->section, y->key, x->line, x->value, y->line, y->value);
}

/* Build a handle from parsed entries. */
static int from_ini(const zvp_ini *ini, zvp_model_file **out, zvp_error *err)
{
    int st = refuse_duplicates(ini, err);
    if (st != ZVP_SUCCESS)
        return st;
    const char *model_name = model_name_of(ini);
    if (!model_name)
        return zvp_fail(err, ZVP_EPARSE, "%s: no 'name = <model>' in section [model]", ini->name);
    const zvp_model *m = zvp_model_find(model_name, err);
    if (!m) {
        char msg[ZVP_ERRMSG_MAX];
        snprintf(msg, sizeof msg, "%s", err ? err->message : "");
        return zvp_fail(err, ZVP_ENOTFOUND, "%s: [model] name: %.400s", ini->name, msg);
    }
    zvp_model_file *mf = zvp_model_file_new(m);
    char *text = malloc(ini->text_len + 1);
    if (!mf || !text) {
        free(text);
        zvp_model_file_free(mf);
        return zvp_fail(err, ZVP_ENOMEM, "out of memory reading model file '%s'", ini->name);
    }
    memcpy(text, ini->text, ini->text_len + 1);
    free(mf->text);
    mf->text = text;
    for (size_t i = 0; i < ini->n_entries && st == ZVP_SUCCESS; i++)
        st = apply_entry(mf, ini, &ini->entries[i], err);
    if (st == ZVP_SUCCESS)
        st = zvp_mf_unc_finish(mf->unc, m, ini->name, err);
    if (st != ZVP_SUCCESS) {
        zvp_model_file_free(mf);
        return st;
    }
    *out = mf;
    return ZVP_SUCCESS;
}

int zvp_model_file_parse(const char *name, const char *text, size_t len, zvp_model_file **out,
                         zvp_error *err)
{
    zvp_ini *ini = NULL;
    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "model file parse: out must not be NULL");
    *out = NULL;
    if (!name)
        return zvp_fail(err, ZVP_EINVAL, "model file parse: name must not be NULL");
    int st = zvp_ini_parse(name, text, len, &ini, err);
    if (st == ZVP_SUCCESS)
        st = from_ini(ini, out, err);
    zvp_ini_free(ini);
    return st;
}

int zvp_model_file_read(const char *path, zvp_model_file **out, zvp_error *err)
{
    char *text = NULL;
    size_t len = 0;
    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "model file read: out must not be NULL");
    *out = NULL;
    if (!path)
        return zvp_fail(err, ZVP_EINVAL, "model file path is NULL");
    int st = zvp_read_input(path, ZVP_INI_MAX_BYTES, &text, &len, err);
    if (st == ZVP_SUCCESS)
        st = zvp_model_file_parse(strcmp(path, "-") == 0 ? "<stdin>" : path, text, len, out, err);
    free(text);
    return st;
}

/* The shortest of %.12g, %.15g, %.17g that reads back as the same double, so a written
 * model file reproduces the evaluated model exactly and stays readable. */
void zvp_format_exact(double v, char *buf, size_t n)
{
    static const char *const fmts[] = {"%.12g", "%.15g", "%.17g"};
    v += 0.0; /* -0 is written as 0 */
    for (size_t i = 0; i < 3; i++) {
        snprintf(buf, n, fmts[i], v);
        double back;
        if (zvp_parse_double(buf, &back) == 0 && back == v)
            return;
    }
}

/* Write mf to the open stream fp; 0, or -1 when a write failed. */
static int write_stream(const zvp_model_file *mf, FILE *fp)
{
    const zvp_model *m = mf->model;
    size_t i;
    int any_se = 0;
    fprintf(fp, "; zvmperf model file (zvmperf %s)\n[model]\nname = %s\n\n[parameters]\n",
            zvp_version(), m->name);
    for (i = 0; i < m->n_params; i++) {
        char num[32];
        zvp_format_exact(mf->params[i], num, sizeof num);
        fprintf(fp, "; [%.20s] %.150s\n%s = %s\n", m->params[i].unit, m->params[i].description,
                m->params[i].name, num);
    }
    for (i = 0; i < m->n_params; i++)
        any_se |= isfinite(mf->stderrs[i]);
    if (any_se) {
        fprintf(fp, "\n; standard errors of the fitted parameters, same units\n[stderr]\n");
        for (i = 0; i < m->n_params; i++)
            if (isfinite(mf->stderrs[i]))
                fprintf(fp, "%-28s = %.6g\n", m->params[i].name, mf->stderrs[i]);
    }
    zvp_mf_unc_write(mf->unc, m, fp);
    if (mf->n_prov) {
        fprintf(fp, "\n[provenance]\n");
        for (i = 0; i < mf->n_prov; i++) {
            fprintf(fp, "%s = ", mf->prov[i].key);
            provenance_write_value(fp, mf->prov[i].value); /* escaped: reads back unchanged */
            fputc('\n', fp);
        }
    }
    return fflush(fp) != 0 || ferror(fp) ? -1 : 0;
}

int zvp_model_file_write_tmp(const zvp_model_file *mf, const zvp_atomic *a, zvp_error *err)
{
    if (!mf || !a || !a->tmp)
        return zvp_fail(err, ZVP_EINVAL, "model file write: mf and a begun output are required");
    FILE *fp = fopen(a->tmp, "w");
    if (!fp)
        return zvp_fail(err, ZVP_EIO, "cannot write model file '%s': %s", a->target,
                        strerror(errno));
    int bad = write_stream(mf, fp), e = errno;
    if (fclose(fp) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad)
        return zvp_fail(err, ZVP_EIO, "error writing model file '%s': %s (the old file, if "
                        "any, is unchanged)", a->target, strerror(e));
    return ZVP_SUCCESS;
}

int zvp_model_file_write(const zvp_model_file *mf, const char *path, zvp_error *err)
{
    zvp_atomic a;
    if (!mf || !path)
        return zvp_fail(err, ZVP_EINVAL, "model file write: mf and path must not be NULL");
    int st = zvp_atomic_begin(&a, path, err);
    if (st != ZVP_SUCCESS)
        return st;
    st = zvp_model_file_write_tmp(mf, &a, err);
    if (st == ZVP_SUCCESS)
        return zvp_atomic_commit(&a, err);
    zvp_atomic_abort(&a);
    return st;
}
