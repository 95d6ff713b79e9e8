/*
 * src/fit/fitfile.c - the fit-file reader (format in calibration/README.md): reads the INI
 * file once (src/util/ini.h), loads the CSV tables, and builds an in-memory fit through the
 * functions of build.c; rows.c joins, filters and adds the rows.
 */
#include <stdlib.h>
#include <string.h>
#include "fit/fitfile_impl.h"
#include "util/atomic.h"

/* Resolve `rel` against the directory of `base_file` (absolute paths are kept). */
static char *resolve_path(const char *base_file, const char *rel)
{
    const char *slash = strrchr(base_file, '/');
    size_t dlen, rlen = strlen(rel);
    char *s;
    if (rel[0] == '/' || !slash)
        return zvp_strdup(rel);
    dlen = (size_t)(slash - base_file) + 1; /* keep the '/' */
    s = malloc(dlen + rlen + 1);
    if (!s)
        return NULL;
    memcpy(s, base_file, dlen);
    memcpy(s + dlen, rel, rlen + 1);
    return s;
}

/* Copy of s[0..len) without leading and trailing spaces and tabs; NULL if out of memory. */
static char *dup_trimmed(const char *s, size_t len)
{
    char *out;
    while (len > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        len--;
    }
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    out = malloc(len + 1);
    if (!out)
        return NULL;
    memcpy(out, s, len);
    out[len] = '\0';
    return out;
}

static void ff_free(ff_reader *r)
{
    for (size_t k = 0; k < r->n_data; k++) {
        if (r->data_paths)
            free(r->data_paths[k]);
        if (r->tables)
            zvp_table_free(r->tables[k]);
    }
    free(r->data_paths);
    free(r->tables);
    zvp_table_free(r->join_t);
    for (size_t k = 0; k < r->n_where; k++) {
        free(r->wheres[k].column);
        free(r->wheres[k].value);
    }
    free(r->wheres);
    free(r->input_cols);
    free(r->match_cols);
    zvp_ini_free(r->ini);
}

/* Line `line` (1-based) of the text as read: start and length (without the line end). */
static const char *raw_line(const zvp_ini *ini, size_t line, size_t *len)
{
    const char *s = ini->text, *end = ini->text + ini->text_len;
    for (size_t l = 1; l < line && s < end; l++) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        s = nl ? nl + 1 : end;
    }
    *len = strcspn(s, "\r\n");
    return s;
}

/* Checks on the entries as a whole: a key repeated within its section, a key before any
 * section, a `where` line that the INI comment rule would cut short. */
static int check_entries(const ff_reader *r, zvp_error *err)
{
    const zvp_ini *ini = r->ini;
    size_t a, b;
    int dup = zvp_ini_find_duplicate(ini, &a, &b);
    if (dup < 0)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    if (dup > 0)
        return zvp_fail(err, ZVP_EPARSE, "%s:%zu: [%s] %s = %s: key given twice (first at line %zu)",
                        r->path, ini->entries[b].line, ini->entries[b].section,
                        ini->entries[b].key, ini->entries[b].value, ini->entries[a].line);
    for (size_t i = 0; i < ini->n_entries; i++) {
        const zvp_ini_entry *x = &ini->entries[i];
        size_t len;
        const char *s, *eq;
        if (x->section[0] == '\0')
            return zvp_fail(err, ZVP_EPARSE, "%s: %s = %s: key outside any section", r->path,
                            x->key, x->value);
        if (strcmp(x->section, "fit") != 0 || strcmp(x->key, "where") != 0)
            continue;
        s = raw_line(ini, x->line, &len);
        eq = memchr(s, '=', len);
        for (const char *q = eq ? eq + 1 : s + len; q < s + len; q++)
            if (*q == ';' && (q[-1] == ' ' || q[-1] == '\t'))
                return zvp_fail(err, ZVP_EPARSE,
                                "%s:%zu: [fit] where: a ';' after a blank starts an INI comment "
                                "and would drop the rest of the conditions; write 'a = 1; b = 2' "
                                "(no blank before ';') and put comments on their own line",
                                r->path, x->line);
    }
    return ZVP_SUCCESS;
}

/* [fit] keys into r; the tunables `starts` and `residual` into *pp. */
static int parse_fit_section(ff_reader *r, zvp_fit_parameters *pp, zvp_error *err)
{
    static const char *const keys[] = {"model", "data", "join", "join_key", "base",
                                       "output", "where", "starts", "residual"};
    const char **slots[] = {&r->model, &r->data, &r->join, &r->join_key, &r->base,
                            &r->output, &r->where, &r->starts, &r->residual};
    for (size_t i = 0; i < r->ini->n_entries; i++) {
        const zvp_ini_entry *x = &r->ini->entries[i];
        size_t k = 0;
        if (strcmp(x->section, "fit") != 0)
            continue;
        while (k < sizeof keys / sizeof keys[0] && strcmp(x->key, keys[k]) != 0)
            k++;
        if (k == sizeof keys / sizeof keys[0])
            return zvp_fail(err, ZVP_EPARSE,
                            "%s: [fit] %s = %s: unknown key (model, data, join, join_key, where, "
                            "base, output, starts, residual)", r->path, x->key, x->value);
        if (x->value[0] == '\0')
            return zvp_fail(err, ZVP_EPARSE, "%s: [fit] %s has an empty value", r->path, x->key);
        *slots[k] = x->value;
    }
    if (!r->model)
        return zvp_fail(err, ZVP_EPARSE, "%s: [fit] model = <name> is missing", r->path);
    if (!r->data)
        return zvp_fail(err, ZVP_EPARSE, "%s: [fit] data = <csv file> is missing", r->path);
    if ((r->join == NULL) != (r->join_key == NULL))
        return zvp_fail(err, ZVP_EPARSE, "%s: [fit] join and join_key must be given together",
                        r->path);
    *pp = zvp_fit_default_parameters();
    if (r->starts) {
        double v;
        zvp_error e;
        if (zvp_parse_double(r->starts, &v) || v != floor(v))
            return zvp_fail(err, ZVP_EPARSE, "%s: [fit] starts = %s: not an integer", r->path,
                            r->starts);
        /* the range is zvp_fit_check_parameters's */
        pp->starts = v >= 1 && v <= 10000 ? (size_t)v : 0;
        zvp_error_clear(&e);
        if (zvp_fit_check_parameters(pp, &e))
            return zvp_fail(err, ZVP_EINVAL, "%s: [fit] starts = %s is out of range [1, 10000]",
                            r->path, r->starts);
    }
    if (r->residual) {
        if (!strcmp(r->residual, "absolute"))
            pp->residual = ZVP_FIT_ABSOLUTE;
        else if (strcmp(r->residual, "relative") != 0)
            return zvp_fail(err, ZVP_EINVAL,
                            "%s: [fit] residual = %s: must be relative or absolute", r->path,
                            r->residual);
    }
    return ZVP_SUCCESS;
}

/* [fit] data = a.csv[, b.csv ...]: r->data_paths (resolved) and fit->data_path (the
 * resolved paths joined with ", "). */
static int parse_data_list(ff_reader *r, zvp_error *err)
{
    size_t n = 1, len = 0;
    const char *p = r->data;
    char *d;
    for (const char *q = r->data; *q; q++)
        n += *q == ',';
    r->data_paths = calloc(n, sizeof *r->data_paths);
    r->tables = calloc(n, sizeof *r->tables);
    if (!r->data_paths || !r->tables)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    r->n_data = n;
    for (size_t k = 0; k < n; k++) {
        const char *comma = strchr(p, ',');
        char *name = dup_trimmed(p, comma ? (size_t)(comma - p) : strlen(p));
        if (!name)
            return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
        if (name[0] == '\0') {
            free(name);
            return zvp_fail(err, ZVP_EPARSE,
                            "%s: [fit] data = %s: file %zu of the list is empty (expected "
                            "<csv file>[, <csv file> ...])", r->path, r->data, k + 1);
        }
        r->data_paths[k] = resolve_path(r->path, name);
        free(name);
        if (!r->data_paths[k])
            return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
        len += strlen(r->data_paths[k]) + 2;
        p = comma ? comma + 1 : p;
    }
    if (!(r->fit->data_path = malloc(len + 1)))
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    d = r->fit->data_path; /* joined with ", " (linear in the list) */
    for (size_t k = 0; k < n; k++) {
        size_t l = strlen(r->data_paths[k]);
        if (k) {
            memcpy(d, ", ", 2);
            d += 2;
        }
        memcpy(d, r->data_paths[k], l);
        d += l;
    }
    *d = '\0';
    return ZVP_SUCCESS;
}

/* Read the data files; a second or later file must have the first one's header (same column
 * names and units, in order): the tables are concatenated. Then the join table. */
static int load_tables(ff_reader *r, zvp_error *err)
{
    zvp_error e;
    zvp_error_clear(&e);
    for (size_t k = 0; k < r->n_data; k++) {
        const zvp_table *a = r->tables[0], *b;
        if (zvp_table_read(r->data_paths[k], &r->tables[k], &e))
            return zvp_fit_fail_from(err, &e, "%s: [fit] data = %s", r->path, r->data);
        b = r->tables[k];
        if (k == 0)
            continue;
        if (zvp_table_cols(a) != zvp_table_cols(b))
            return zvp_fail(err, ZVP_EPARSE,
                            "%s: [fit] data = %s: %s has %zu columns and %s has %zu; "
                            "concatenated tables need identical headers", r->path, r->data,
                            r->data_paths[0], zvp_table_cols(a), r->data_paths[k],
                            zvp_table_cols(b));
        for (size_t j = 0; j < zvp_table_cols(a); j++)
            if (strcmp(zvp_table_col_name(a, j), zvp_table_col_name(b, j)) != 0 ||
                strcmp(zvp_table_col_unit(a, j), zvp_table_col_unit(b, j)) != 0)
                return zvp_fail(err, ZVP_EPARSE,
                                "%s: [fit] data = %s: column %zu is '%s [%s]' in %s but '%s [%s]' "
                                "in %s; concatenated tables need identical headers", r->path,
                                r->data, j + 1, zvp_table_col_name(a, j), zvp_table_col_unit(a, j),
                                r->data_paths[0], zvp_table_col_name(b, j),
                                zvp_table_col_unit(b, j), r->data_paths[k]);
    }
    if (r->join && zvp_table_read(r->fit->join_path, &r->join_t, &e))
        return zvp_fit_fail_from(err, &e, "%s: [fit] join = %s", r->path, r->join);
    return ZVP_SUCCESS;
}

int zvp_ff_find_column(const ff_reader *r, const char *section, const char *key,
                       const char *column, ff_col *c, zvp_error *err)
{
    zvp_error e1, e2;
    long j;
    zvp_error_clear(&e1);
    zvp_error_clear(&e2);
    c->mul = c->div = 1.0;
    j = zvp_table_col_index(r->tables[0], column, &e1);
    if (j >= 0) {
        c->table = 0;
        c->col = (size_t)j;
        return ZVP_SUCCESS;
    }
    if (r->join_t) {
        j = zvp_table_col_index(r->join_t, column, &e2);
        if (j >= 0) {
            c->table = 1;
            c->col = (size_t)j;
            return ZVP_SUCCESS;
        }
        return zvp_fail(err, ZVP_ENOTFOUND, "%s: [%s] %s = %s: in %s: %s; in %s: %s", r->path,
                        section, key, column, r->fit->data_path, e1.message, r->fit->join_path,
                        e2.message);
    }
    return zvp_fail(err, ZVP_ENOTFOUND, "%s: [%s] %s = %s: in %s: %s", r->path, section, key,
                    column, r->fit->data_path, e1.message);
}

/* The header unit of column c against the model unit `unit` of [section] key: c->mul and
 * c->div convert the column's values (calibration/README.md, "Units"). */
static int column_unit(const ff_reader *r, const char *section, const char *key,
                       const char *column, const char *unit, ff_col *c, zvp_error *err)
{
    const zvp_table *t = c->table ? r->join_t : r->tables[0];
    zvp_error e;
    zvp_error_clear(&e);
    if (zvp_unit_ratio(zvp_table_col_unit(t, c->col), unit ? unit : "", &c->mul, &c->div, &e))
        return zvp_fail(err, ZVP_EINVAL, "%s: [%s] %s = %s: the column's %s; %s is in [%s]",
                        r->path, section, key, column, e.message, key, unit && *unit ? unit : "1");
    return ZVP_SUCCESS;
}

/* A column is numeric when it has a non-empty cell and every non-empty cell is a number (in
 * every data file for a data column). */
static int column_is_numeric(const ff_reader *r, ff_col c)
{
    size_t nt = c.table ? 1 : r->n_data, filled = 0;
    for (size_t k = 0; k < nt; k++) {
        const zvp_table *t = c.table ? r->join_t : r->tables[k];
        for (size_t i = 0; i < zvp_table_rows(t); i++) {
            if (zvp_table_text(t, i, c.col)[0] == '\0')
                continue;
            if (isnan(zvp_table_value(t, i, c.col)))
                return 0;
            filled++;
        }
    }
    return filled > 0;
}

/* [fit] where = <column> = <value>[; <column> = <value> ...] -> r->wheres. */
static int parse_where(ff_reader *r, zvp_error *err)
{
    const char *w = r->where, *p = w;
    size_t n = 1;
    for (const char *q = w; *q; q++)
        n += *q == ';';
    if (!(r->wheres = calloc(n, sizeof *r->wheres)))
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    for (size_t k = 0; k < n; k++) {
        const char *semi = strchr(p, ';');
        size_t len = semi ? (size_t)(semi - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        ff_where *c = &r->wheres[k];
        int st;
        if (!eq)
            return zvp_fail(err, ZVP_EPARSE,
                            "%s: [fit] where = %s: condition %zu '%.*s' is not <column> = <value> "
                            "(conditions are separated by ';')", r->path, w, k + 1, (int)len, p);
        c->column = dup_trimmed(p, (size_t)(eq - p));
        c->value = dup_trimmed(eq + 1, len - (size_t)(eq - p) - 1);
        r->n_where++;
        if (!c->column || !c->value)
            return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
        if (c->column[0] == '\0' || c->value[0] == '\0')
            return zvp_fail(err, ZVP_EPARSE,
                            "%s: [fit] where = %s: condition %zu '%.*s' has an empty %s", r->path,
                            w, k + 1, (int)len, p, c->column[0] == '\0' ? "column" : "value");
        if ((st = zvp_ff_find_column(r, "fit", "where", c->column, &c->c, err)))
            return st;
        c->numeric = column_is_numeric(r, c->c);
        if (c->numeric && zvp_parse_double(c->value, &c->number))
            return zvp_fail(err, ZVP_EINVAL,
                            "%s: [fit] where = %s: column %s holds numbers, '%s' is not a number",
                            r->path, w, c->column, c->value);
        p = semi ? semi + 1 : p;
    }
    return ZVP_SUCCESS;
}

/* Parse "a, b, c" into up to max numbers; returns the count, or -1 if a token is not a
 * finite number, there are more than max, or out of memory. */
static int parse_number_list(const char *s, double *v, int max)
{
    int n = 0;
    for (const char *p = s;;) {
        const char *comma = strchr(p, ',');
        char *tok;
        int bad;
        if (n >= max)
            return -1;
        tok = dup_trimmed(p, comma ? (size_t)(comma - p) : strlen(p));
        bad = !tok || zvp_parse_double(tok, &v[n]);
        free(tok);
        if (bad)
            return -1;
        n++;
        if (!comma)
            return n;
        p = comma + 1;
    }
}

/* [match] <output> = <column> [, <weight>]. */
static int declare_match(ff_reader *r, const zvp_ini_entry *x, zvp_error *err)
{
    const char *comma = strchr(x->value, ',');
    char *column = dup_trimmed(x->value, comma ? (size_t)(comma - x->value) : strlen(x->value));
    double weight = 1.0;
    size_t j = r->fit->n_match;
    zvp_error e;
    int st;
    zvp_error_clear(&e);
    if (!column)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    if (column[0] == '\0')
        st = zvp_fail(err, ZVP_EPARSE, "%s: [match] %s = %s: expected <column> [, <weight>]",
                      r->path, x->key, x->value);
    else if (comma && zvp_parse_double(comma + 1, &weight))
        st = zvp_fail(err, ZVP_EPARSE, "%s: [match] %s = %s: weight '%s' is not a number",
                      r->path, x->key, x->value, comma + 1);
    else if (zvp_fit_add_match(r->fit, x->key, weight, &e))
        st = zvp_fit_fail_from(err, &e, "%s: [match] %s = %s", r->path, x->key, x->value);
    else if (!(st = zvp_ff_find_column(r, "match", x->key, column, &r->match_cols[j], err)) &&
             !(st = column_unit(r, "match", x->key, column,
                                r->fit->model->outputs[r->fit->match[j].index].unit,
                                &r->match_cols[j], err))) {
        const zvp_table *t = r->match_cols[j].table ? r->join_t : r->tables[0];
        if (zvp_fit_set_match_column(r->fit, j, column, zvp_table_col_unit(t, r->match_cols[j].col)))
            st = zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    }
    free(column);
    return st;
}

/* [inputs] <param> = <column>. */
static int declare_input(ff_reader *r, const zvp_ini_entry *x, zvp_error *err)
{
    size_t k = r->fit->n_inputs;
    zvp_error e;
    int st;
    zvp_error_clear(&e);
    if (zvp_fit_add_input(r->fit, x->key, &e))
        return zvp_fit_fail_from(err, &e, "%s: [inputs] %s = %s", r->path, x->key, x->value);
    if (zvp_fit_set_input_column(r->fit, k, x->value))
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    if (!strncmp(x->value, "per_file ", 9)) { /* one constant per data file, in data order */
        ff_col *c = &r->input_cols[k];
        const int n = parse_number_list(x->value + 9, c->file_value, FF_MAX_PER_FILE);
        if (n < 0 || (size_t)n != r->n_data)
            return zvp_fail(err, ZVP_EPARSE,
                            "%s: [inputs] %s = %s: expected per_file and one number per data "
                            "file (%zu), comma-separated", r->path, x->key, x->value, r->n_data);
        c->per_file = 1;
        return ZVP_SUCCESS;
    }
    st = zvp_ff_find_column(r, "inputs", x->key, x->value, &r->input_cols[k], err);
    if (!st)
        st = column_unit(r, "inputs", x->key, x->value,
                         r->fit->model->params[r->fit->inputs[k].index].unit, &r->input_cols[k],
                         err);
    return st;
}

/* [fixed] <param> = <value>, [free] <param> = <start>, <lo>, <hi>. */
static int declare_param(ff_reader *r, const zvp_ini_entry *x, zvp_error *err)
{
    zvp_error e;
    double v[3];
    zvp_error_clear(&e);
    if (!strcmp(x->section, "fixed")) {
        if (zvp_parse_double(x->value, &v[0])) {
            if (zvp_model_param_index(r->fit->model, x->key, &e) < 0)
                return zvp_fit_fail_from(err, &e, "%s: [fixed] %s = %s", r->path, x->key, x->value);
            return zvp_fail(err, ZVP_EPARSE, "%s: [fixed] %s = %s: not a number", r->path,
                            x->key, x->value);
        }
        if (zvp_fit_set_fixed(r->fit, x->key, v[0], &e))
            return zvp_fit_fail_from(err, &e, "%s: [fixed] %s = %s", r->path, x->key, x->value);
        return ZVP_SUCCESS;
    }
    if (parse_number_list(x->value, v, 3) != 3) {
        if (zvp_model_param_index(r->fit->model, x->key, &e) < 0)
            return zvp_fit_fail_from(err, &e, "%s: [free] %s = %s", r->path, x->key, x->value);
        return zvp_fail(err, ZVP_EPARSE,
                        "%s: [free] %s = %s: expected <start>, <lo>, <hi> (three numbers)",
                        r->path, x->key, x->value);
    }
    if (zvp_fit_add_free(r->fit, x->key, v[0], v[1], v[2], &e))
        return zvp_fit_fail_from(err, &e, "%s: [free] %s = %s", r->path, x->key, x->value);
    return ZVP_SUCCESS;
}

/* [fixed], [inputs], [free], [match] in file order (after checking the section names). */
static int declare_sections(ff_reader *r, zvp_error *err)
{
    size_t nfree = 0, nm = 0;
    int st = ZVP_SUCCESS;
    for (size_t i = 0; i < r->ini->n_entries; i++) {
        const zvp_ini_entry *x = &r->ini->entries[i];
        const char *s = x->section;
        nfree += !strcmp(s, "free");
        nm += !strcmp(s, "match");
        if (strcmp(s, "fit") && strcmp(s, "fixed") && strcmp(s, "inputs") && strcmp(s, "free") &&
            strcmp(s, "match") && strcmp(s, "dependent") && strcmp(s, "sigma"))
            return zvp_fail(err, ZVP_EPARSE,
                            "%s: [%s] %s = %s: unknown section (fit, fixed, inputs, free, match, "
                            "dependent, sigma)", r->path, s, x->key, x->value);
    }
    if (nfree == 0)
        return zvp_fail(err, ZVP_EINVAL, "%s: [free] is empty: nothing to fit", r->path);
    if (nm == 0)
        return zvp_fail(err, ZVP_EINVAL, "%s: [match] is empty: nothing to fit against", r->path);
    for (size_t i = 0; i < r->ini->n_entries && !st; i++) {
        const zvp_ini_entry *x = &r->ini->entries[i];
        if (!strcmp(x->section, "match"))
            st = declare_match(r, x, err);
        else if (!strcmp(x->section, "inputs"))
            st = declare_input(r, x, err);
        else if (strcmp(x->section, "fit") != 0 && strcmp(x->section, "dependent") != 0 &&
                 strcmp(x->section, "sigma") != 0)
            st = declare_param(r, x, err);
    }
    return st;
}

/* The base vector: model defaults, or the base file's parameters. */
static int read_base(ff_reader *r, const zvp_model *m, const char *base_path, double *p,
                     zvp_error *err)
{
    zvp_model_file *mf = NULL;
    zvp_error e;
    zvp_error_clear(&e);
    zvp_model_defaults(m, p);
    if (!base_path)
        return ZVP_SUCCESS;
    if (zvp_model_file_read(base_path, &mf, &e))
        return zvp_fit_fail_from(err, &e, "%s: [fit] base = %s", r->path, r->base);
    if (zvp_model_file_model(mf) != m) {
        int st = zvp_fail(err, ZVP_EINVAL, "%s: [fit] base = %s: is a model file for '%s', the "
                          "fit is for '%s'", r->path, r->base, zvp_model_file_model(mf)->name,
                          m->name);
        zvp_model_file_free(mf);
        return st;
    }
    memcpy(p, zvp_model_file_params(mf), m->n_params * sizeof *p);
    zvp_model_file_free(mf);
    return ZVP_SUCCESS;
}

/* The model, the base vector, the new fit with its provenance and tunables. */
static int make_fit(ff_reader *r, const zvp_fit_parameters *pp, zvp_error *err)
{
    const zvp_model *m;
    char *base_path = NULL;
    double *base = NULL;
    zvp_error e;
    int st;
    zvp_error_clear(&e);
    if (r->output && zvp_path_climbs(r->output, 1))
        return zvp_fail(err, ZVP_EINVAL,
                        "%s: [fit] output = '%s' leaves the fit file's tree: it must be a "
                        "relative path that stays within the parent of the fit file's "
                        "directory (as '../params/NAME.ini'); to write elsewhere, remove it "
                        "and give the path with 'calibrate -o'", r->path, r->output);
    if (!(m = zvp_model_find(r->model, &e)))
        return zvp_fit_fail_from(err, &e, "%s: [fit] model = %s", r->path, r->model);
    base = malloc((m->n_params + 1) * sizeof *base);
    base_path = r->base ? resolve_path(r->path, r->base) : NULL;
    r->input_cols = calloc(m->n_params + 1, sizeof *r->input_cols);
    r->match_cols = calloc(m->n_outputs + 1, sizeof *r->match_cols);
    if (!base || (r->base && !base_path) || !r->input_cols || !r->match_cols)
        st = zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    else if (!(st = read_base(r, m, base_path, base, err)) &&
             !(st = zvp_fit_new(m, base, &r->fit, err))) {
        zvp_fit *f = r->fit;
        f->params = *pp;
        f->base_path = base_path;
        base_path = NULL;
        f->path = zvp_strdup(r->path);
        f->where = r->where ? zvp_strdup(r->where) : NULL;
        f->join_path = r->join ? resolve_path(r->path, r->join) : NULL;
        f->join_key = r->join_key ? zvp_strdup(r->join_key) : NULL;
        f->output_path = r->output ? resolve_path(r->path, r->output) : NULL;
        if (!f->path || (r->where && !f->where) || (r->join && (!f->join_path || !f->join_key)) ||
            (r->output && !f->output_path))
            st = zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    }
    free(base);
    free(base_path);
    return st;
}

/* The files the fit reads, for the output-is-not-an-input check: the fit file (unless
 * standard input), the data files, the join file, the base model file. */
static int collect_files(ff_reader *r, zvp_error *err)
{
    zvp_fit *f = r->fit;
    f->files = calloc(r->n_data + 3, sizeof *f->files);
    if (!f->files)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    if (strcmp(r->path, "-") != 0)
        f->files[f->n_files++] = zvp_strdup(r->path);
    for (size_t k = 0; k < r->n_data; k++)
        f->files[f->n_files++] = zvp_strdup(r->data_paths[k]);
    if (f->join_path)
        f->files[f->n_files++] = zvp_strdup(f->join_path);
    if (f->base_path)
        f->files[f->n_files++] = zvp_strdup(f->base_path);
    for (size_t i = 0; i < f->n_files; i++)
        if (!f->files[i])
            return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", r->path);
    return ZVP_SUCCESS;
}

size_t zvp_fit_n_input_files(const zvp_fit *fit) { return fit ? fit->n_files : 0; }

const char *zvp_fit_input_file(const zvp_fit *fit, size_t i, const char **role)
{
    if (!fit || i >= fit->n_files)
        return NULL;
    if (role) {
        size_t first = fit->path && strcmp(fit->path, "-") != 0; /* the data files from here */
        size_t end = fit->n_files - (fit->base_path != NULL) - (fit->join_path != NULL);
        *role = i < first ? "fit file" : i < end ? "data file"
                : i == end && fit->join_path ? "join file" : "base model file";
    }
    return fit->files[i];
}

int zvp_fit_read(const char *path, zvp_fit **out, zvp_error *err)
{
    ff_reader r;
    zvp_fit_parameters pp;
    int st;
    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_read: out is NULL");
    *out = NULL;
    if (!path)
        return zvp_fail(err, ZVP_EINVAL, "zvp_fit_read: path is NULL");
    memset(&r, 0, sizeof r);
    r.path = path;
    if ((st = zvp_ini_read(path, ZVP_INI_MAX_BYTES, &r.ini, err)))
        return st;
    if (!(st = check_entries(&r, err)) && !(st = parse_fit_section(&r, &pp, err)) &&
        !(st = make_fit(&r, &pp, err)) && !(st = parse_data_list(&r, err)) &&
        !(st = load_tables(&r, err)) && !(st = r.where ? parse_where(&r, err) : 0) &&
        !(st = declare_sections(&r, err)) && !(st = zvp_ff_assemble_rows(&r, err)) &&
        !(st = zvp_ff_dependent(&r, err)) && !(st = zvp_ff_sigma(&r, err)))
        st = collect_files(&r, err);
    if (st == ZVP_SUCCESS) {
        *out = r.fit;
        r.fit = NULL;
    }
    zvp_fit_free(r.fit);
    ff_free(&r);
    return st;
}
