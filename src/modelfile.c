/* src/modelfile.c - model files (INI, parsed with libinih): a registered model plus a
 * parameter vector, standard errors and provenance. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <ini.h>
#include "internal.h"

typedef struct kv {
    char *key, *value;
} kv;

struct zvp_model_file {
    const zvp_model *model;
    double *params;  /* [n_params] */
    double *stderrs; /* [n_params], NaN = none */
    char *text;      /* file text as read, "" otherwise */
    kv *prov;        /* provenance entries */
    size_t n_prov, cap_prov;
};

zvp_model_file *zvp_model_file_new(const zvp_model *m)
{
    zvp_model_file *mf = calloc(1, sizeof *mf);
    if (!mf)
        return NULL;
    mf->model = m;
    mf->params = malloc((m->n_params ? m->n_params : 1) * sizeof(double));
    mf->stderrs = malloc((m->n_params ? m->n_params : 1) * sizeof(double));
    mf->text = zvp_strdup("");
    if (!mf->params || !mf->stderrs || !mf->text) {
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
    free(mf->text);
    free(mf);
}

/* Accessors: a NULL handle gives NULL / NaN, or is a no-op (model.h). */
const zvp_model *zvp_model_file_model(const zvp_model_file *mf) { return mf ? mf->model : NULL; }
double *zvp_model_file_params(zvp_model_file *mf) { return mf ? mf->params : NULL; }
const char *zvp_model_file_text(const zvp_model_file *mf) { return mf ? mf->text : NULL; }

double zvp_model_file_stderr(const zvp_model_file *mf, size_t i)
{
    return mf && i < mf->model->n_params ? mf->stderrs[i] : NAN;
}

void zvp_model_file_set_stderr(zvp_model_file *mf, size_t i, double se)
{
    if (mf && i < mf->model->n_params)
        mf->stderrs[i] = se;
}

int zvp_model_file_set(zvp_model_file *mf, const char *name, double value, zvp_error *err)
{
    long i = zvp_model_param_index(mf->model, name, err);
    if (i < 0)
        return ZVP_ENOTFOUND;
    const zvp_param_desc *d = &mf->model->params[i];
    if (!isfinite(value) || value < d->min || value > d->max)
        return zvp_fail(err, ZVP_EINVAL, "%s: parameter %s = %.17g is out of range [%.17g, %.17g] (unit %s)",
                        mf->model->name, name, value, d->min, d->max, d->unit);
    if (d->integer && value != floor(value))
        return zvp_fail(err, ZVP_EINVAL, "%s: parameter %s = %.17g is not an integer in [%.17g, %.17g]",
                        mf->model->name, name, value, d->min, d->max);
    mf->params[i] = value;
    return ZVP_SUCCESS;
}

int zvp_model_file_set_provenance(zvp_model_file *mf, const char *key, const char *value,
                                  zvp_error *err)
{
    if (!key || !value || !key[0] || strpbrk(key, "=\n[];") || strchr(value, '\n'))
        return zvp_fail(err, ZVP_EINVAL,
                        "provenance key '%s' / value: key must be a non-empty name without "
                        "'=', ';', brackets or newlines, value one line (NULL is not allowed)",
                        key ? key : "(null)");
    for (size_t i = 0; i < mf->n_prov; i++)
        if (strcmp(mf->prov[i].key, key) == 0) {
            char *v = zvp_strdup(value);
            if (!v)
                return zvp_fail(err, ZVP_ENOMEM, "out of memory storing provenance '%s'", key);
            free(mf->prov[i].value);
            mf->prov[i].value = v;
            return ZVP_SUCCESS;
        }
    if (mf->n_prov == mf->cap_prov) {
        size_t cap = mf->cap_prov ? 2 * mf->cap_prov : 8;
        kv *p = realloc(mf->prov, cap * sizeof *p);
        if (!p)
            return zvp_fail(err, ZVP_ENOMEM, "out of memory storing provenance '%s'", key);
        mf->prov = p;
        mf->cap_prov = cap;
    }
    mf->prov[mf->n_prov].key = zvp_strdup(key);
    mf->prov[mf->n_prov].value = zvp_strdup(value);
    if (!mf->prov[mf->n_prov].key || !mf->prov[mf->n_prov].value) {
        free(mf->prov[mf->n_prov].key);
        free(mf->prov[mf->n_prov].value);
        return zvp_fail(err, ZVP_ENOMEM, "out of memory storing provenance '%s'", key);
    }
    mf->n_prov++;
    return ZVP_SUCCESS;
}

/* ---- reading ---------------------------------------------------------------------------- */

typedef struct entry {
    char *section, *key, *value;
} entry;

typedef struct parse_ctx {
    entry *e;
    size_t n, cap;
    int nomem;
} parse_ctx;

static int collect(void *user, const char *section, const char *name, const char *value)
{
    parse_ctx *c = user;
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 32;
        entry *p = realloc(c->e, cap * sizeof *p);
        if (!p) {
            c->nomem = 1;
            return 0;
        }
        c->e = p;
        c->cap = cap;
    }
    entry *x = &c->e[c->n];
    x->section = zvp_strdup(section);
    x->key = zvp_strdup(name);
    x->value = zvp_strdup(value);
    if (!x->section || !x->key || !x->value) {
        free(x->section);
        free(x->key);
        free(x->value);
        c->nomem = 1;
        return 0;
    }
    c->n++;
    return 1;
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    char *buf = NULL;
    long n;
    if (!fp)
        return NULL;
    if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)n + 1);
        if (buf) {
            size_t got = fread(buf, 1, (size_t)n, fp);
            buf[got] = '\0';
        }
    }
    fclose(fp);
    return buf;
}

int zvp_model_file_read(const char *path, zvp_model_file **out, zvp_error *err)
{
    parse_ctx c = {0};
    zvp_model_file *mf = NULL;
    const zvp_model *m = NULL;
    const char *model_name = NULL;
    int st = ZVP_SUCCESS, rc;
    size_t i;
    struct stat sb;

    *out = NULL;
    if (!path)
        return zvp_fail(err, ZVP_EINVAL, "model file path is NULL");
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        st = zvp_fail(err, ZVP_EIO, "cannot read model file '%s': it is a directory", path);
        goto done;
    }
    rc = ini_parse(path, collect, &c);
    if (rc == -1) {
        st = zvp_fail(err, ZVP_EIO, "cannot open model file '%s': %s", path, strerror(errno));
        goto done;
    }
    if (c.nomem || rc == -2) {
        st = zvp_fail(err, ZVP_ENOMEM, "out of memory reading model file '%s'", path);
        goto done;
    }
    if (rc > 0) {
        st = zvp_fail(err, ZVP_EPARSE, "%s:%d: malformed line (expected [section] or key = value)",
                      path, rc);
        goto done;
    }
    for (i = 0; i < c.n; i++) /* a key given twice in a section is an error, not "last wins" */
        for (size_t j = 0; j < i; j++)
            if (strcmp(c.e[i].section, c.e[j].section) == 0 && strcmp(c.e[i].key, c.e[j].key) == 0) {
                st = zvp_fail(err, ZVP_EPARSE, "%s: [%s] %s is given twice ('%s' and '%s')", path,
                              c.e[i].section, c.e[i].key, c.e[j].value, c.e[i].value);
                goto done;
            }
    for (i = 0; i < c.n; i++)
        if (strcmp(c.e[i].section, "model") == 0 && strcmp(c.e[i].key, "name") == 0)
            model_name = c.e[i].value;
    if (!model_name) {
        st = zvp_fail(err, ZVP_EPARSE, "%s: no 'name = <model>' in section [model]", path);
        goto done;
    }
    if (!(m = zvp_model_find(model_name, err))) {
        char msg[ZVP_ERRMSG_MAX];
        snprintf(msg, sizeof msg, "%s", err ? err->message : "");
        st = zvp_fail(err, ZVP_ENOTFOUND, "%s: [model] name: %.400s", path, msg);
        goto done;
    }
    if (!(mf = zvp_model_file_new(m))) {
        st = zvp_fail(err, ZVP_ENOMEM, "out of memory reading model file '%s'", path);
        goto done;
    }
    for (i = 0; i < c.n && st == ZVP_SUCCESS; i++) {
        const entry *e = &c.e[i];
        double v;
        if (strcmp(e->section, "parameters") == 0 || strcmp(e->section, "stderr") == 0) {
            long k = zvp_model_param_index(m, e->key, err);
            if (k < 0) {
                zvp_fail(err, ZVP_ENOTFOUND, "%s: [%s] %s: model '%s' has no such parameter", path,
                         e->section, e->key, m->name);
                st = ZVP_ENOTFOUND;
            } else if (zvp_parse_double(e->value, &v) != 0) {
                st = zvp_fail(err, ZVP_EPARSE, "%s: [%s] %s = '%s' is not a finite number", path,
                              e->section, e->key, e->value);
            } else if (e->section[0] == 's') {
                mf->stderrs[k] = v;
            } else {
                const zvp_param_desc *d = &m->params[k];
                if (v < d->min || v > d->max)
                    st = zvp_fail(err, ZVP_EINVAL,
                                  "%s: parameter %s = %.17g is out of range [%.17g, %.17g] (unit %s)", path,
                                  e->key, v, d->min, d->max, d->unit);
                else if (d->integer && v != floor(v))
                    st = zvp_fail(err, ZVP_EINVAL,
                                  "%s: parameter %s = %.17g is not an integer in [%.17g, %.17g]",
                                  path, e->key, v, d->min, d->max);
                else
                    mf->params[k] = v;
            }
        } else if (strcmp(e->section, "provenance") == 0) {
            st = zvp_model_file_set_provenance(mf, e->key, e->value, err);
        } else if (strcmp(e->section, "model") == 0) {
            if (strcmp(e->key, "name") != 0 && strcmp(e->key, "description") != 0)
                st = zvp_fail(err, ZVP_EPARSE, "%s: [model] unknown key '%s' (allowed: name, description)",
                              path, e->key);
        } else {
            st = zvp_fail(err, ZVP_EPARSE,
                          "%s: unknown section [%s] (allowed: model, parameters, stderr, provenance)",
                          path, e->section);
        }
    }
    if (st == ZVP_SUCCESS) {
        char *text = slurp(path);
        if (!text) {
            st = zvp_fail(err, ZVP_EIO, "cannot read model file '%s'", path);
        } else {
            free(mf->text);
            mf->text = text;
        }
    }
done:
    for (i = 0; i < c.n; i++) {
        free(c.e[i].section);
        free(c.e[i].key);
        free(c.e[i].value);
    }
    free(c.e);
    if (st != ZVP_SUCCESS)
        zvp_model_file_free(mf);
    else
        *out = mf;
    return st;
}

/* The shortest of %.12g, %.15g, %.17g that reads back as the same double, so a written
 * model file reproduces the evaluated model exactly and stays readable. */
static void format_exact(double v, char *buf, size_t n)
{
    static const char *const fmts[] = {"%.12g", "%.15g", "%.17g"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(buf, n, fmts[i], v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

int zvp_model_file_write(const zvp_model_file *mf, const char *path, zvp_error *err)
{
    const zvp_model *m = mf->model;
    FILE *fp = fopen(path, "w");
    size_t i;
    int any_se = 0;
    if (!fp)
        return zvp_fail(err, ZVP_EIO, "cannot write model file '%s'", path);
    fprintf(fp, "; zvmperf model file (zvmperf %s)\n[model]\nname = %s\n\n[parameters]\n",
            zvp_version(), m->name);
    for (i = 0; i < m->n_params; i++) {
        /* inih reads at most 200 characters a line: keep every line well below that */
        char num[32];
        format_exact(mf->params[i], num, sizeof num);
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
    if (mf->n_prov) {
        fprintf(fp, "\n[provenance]\n");
        for (i = 0; i < mf->n_prov; i++)
            fprintf(fp, "%.40s = %.150s\n", mf->prov[i].key, mf->prov[i].value);
    }
    if (fclose(fp) != 0)
        return zvp_fail(err, ZVP_EIO, "error writing model file '%s'", path);
    return ZVP_SUCCESS;
}
