/*
 * src/table.c - measurement tables (CSV): '#' comment lines, one header row whose cells are
 * `name` or `name [unit]`, then data rows of numbers or text.
 *
 * Lines are read with getline(), so there is no line-length limit. Cells are split on ',';
 * a cell may be quoted with '"' (RFC 4180: "" inside quotes is one quote, commas inside
 * quotes are kept). Cells are trimmed of spaces and tabs; CR before LF is dropped. Blank
 * lines and lines whose first non-blank character is '#' are skipped. A UTF-8 byte-order
 * mark at the start of the file is skipped.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "zvmperf/table.h"

struct zvp_table {
    size_t rows, cols;
    char **names;  /* [cols] */
    char **units;  /* [cols], "" when none */
    char **text;   /* [rows*cols] row-major, as written (trimmed) */
    double *value; /* [rows*cols] NaN for text or empty cells */
};

/* A growable list of owned strings. */
typedef struct strvec {
    char **v;
    size_t n, cap;
} strvec;

static void strvec_free(strvec *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    s->v = NULL;
    s->n = s->cap = 0;
}

/* Append a copy of the len bytes at p (NUL added). 0 on success, -1 on ENOMEM. */
static int strvec_push(strvec *s, const char *p, size_t len)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        char **v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    char *c = malloc(len + 1);
    if (!c)
        return -1;
    memcpy(c, p, len);
    c[len] = '\0';
    s->v[s->n++] = c;
    return 0;
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/*
 * Split one line (no line terminator) into cells appended to `cells`.
 * Returns ZVP_SUCCESS, ZVP_ENOMEM, or ZVP_EPARSE (bad quoting; message names path:line).
 */
static int split_line(const char *line, strvec *cells, const char *path, size_t lineno,
                      zvp_error *err)
{
    const char *p = line;
    char *buf = malloc(strlen(line) + 1); /* a cell is never longer than the line */
    if (!buf)
        return zvp_fail(err, ZVP_ENOMEM, "%s:%zu: out of memory", path, lineno);
    for (;;) {
        size_t len = 0;
        while (is_blank(*p))
            p++;
        if (*p == '"') {
            p++;
            for (;;) {
                if (*p == '\0') {
                    free(buf);
                    return zvp_fail(err, ZVP_EPARSE, "%s:%zu: unterminated quoted cell", path,
                                    lineno);
                }
                if (*p == '"') {
                    if (p[1] == '"') {
                        buf[len++] = '"';
                        p += 2;
                        continue;
                    }
                    p++;
                    break;
                }
                buf[len++] = *p++;
            }
            while (is_blank(*p))
                p++;
            if (*p != ',' && *p != '\0') {
                free(buf);
                return zvp_fail(err, ZVP_EPARSE,
                                "%s:%zu: unexpected character '%c' after a quoted cell", path,
                                lineno, *p);
            }
        } else {
            while (*p != ',' && *p != '\0')
                buf[len++] = *p++;
            while (len > 0 && is_blank(buf[len - 1]))
                len--;
        }
        if (strvec_push(cells, buf, len)) {
            free(buf);
            return zvp_fail(err, ZVP_ENOMEM, "%s:%zu: out of memory", path, lineno);
        }
        if (*p == '\0')
            break;
        p++; /* the comma */
    }
    free(buf);
    return ZVP_SUCCESS;
}

/* Split a header cell "name [unit]" into name and unit (both trimmed, newly allocated). */
static int parse_header_cell(const char *cell, char **name, char **unit, const char *path,
                             size_t lineno, size_t col, zvp_error *err)
{
    const char *open = strchr(cell, '[');
    size_t nlen = open ? (size_t)(open - cell) : strlen(cell);
    const char *u = "";
    size_t ulen = 0;
    while (nlen > 0 && is_blank(cell[nlen - 1]))
        nlen--;
    if (open) {
        const char *close = strchr(open, ']');
        if (!close || close[1] != '\0')
            return zvp_fail(err, ZVP_EPARSE,
                            "%s:%zu: header cell %zu '%s': expected `name` or `name [unit]`",
                            path, lineno, col + 1, cell);
        u = open + 1;
        while (is_blank(*u))
            u++;
        ulen = (size_t)(close - u);
        while (ulen > 0 && is_blank(u[ulen - 1]))
            ulen--;
    }
    if (nlen == 0)
        return zvp_fail(err, ZVP_EPARSE, "%s:%zu: header cell %zu '%s' has no column name", path,
                        lineno, col + 1, cell);
    *name = malloc(nlen + 1);
    *unit = malloc(ulen + 1);
    if (!*name || !*unit) {
        free(*name);
        free(*unit);
        *name = *unit = NULL;
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", path);
    }
    memcpy(*name, cell, nlen);
    (*name)[nlen] = '\0';
    memcpy(*unit, u, ulen);
    (*unit)[ulen] = '\0';
    return ZVP_SUCCESS;
}

void zvp_table_free(zvp_table *t)
{
    if (!t)
        return;
    for (size_t j = 0; j < t->cols; j++) {
        if (t->names)
            free(t->names[j]);
        if (t->units)
            free(t->units[j]);
    }
    if (t->text)
        for (size_t k = 0; k < t->rows * t->cols; k++)
            free(t->text[k]);
    free(t->names);
    free(t->units);
    free(t->text);
    free(t->value);
    free(t);
}

/* Build the table from header cells and the row-major body cells (takes their strings). */
static int build_table(const char *path, size_t header_line, strvec *head, strvec *body,
                       zvp_table **out, zvp_error *err)
{
    zvp_table *t = calloc(1, sizeof *t);
    if (!t)
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", path);
    t->cols = head->n;
    t->rows = body->n / head->n;
    t->names = calloc(t->cols, sizeof *t->names);
    t->units = calloc(t->cols, sizeof *t->units);
    t->value = malloc((t->rows * t->cols + 1) * sizeof *t->value);
    if (!t->names || !t->units || !t->value) {
        t->cols = 0;
        t->rows = 0;
        zvp_table_free(t);
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", path);
    }
    for (size_t j = 0; j < t->cols; j++) {
        int st = parse_header_cell(head->v[j], &t->names[j], &t->units[j], path, header_line, j,
                                   err);
        if (st) {
            t->rows = 0;
            zvp_table_free(t);
            return st;
        }
        for (size_t k = 0; k < j; k++)
            if (strcmp(t->names[k], t->names[j]) == 0) {
                zvp_fail(err, ZVP_EPARSE, "%s:%zu: duplicate column name '%s' (columns %zu and %zu)",
                         path, header_line, t->names[j], k + 1, j + 1);
                t->rows = 0;
                zvp_table_free(t);
                return ZVP_EPARSE;
            }
    }
    /* take over the body strings */
    t->text = body->v;
    body->v = NULL;
    body->n = body->cap = 0;
    for (size_t k = 0; k < t->rows * t->cols; k++) {
        double v;
        t->value[k] = zvp_parse_double(t->text[k], &v) == 0 ? v : NAN;
    }
    *out = t;
    return ZVP_SUCCESS;
}

int zvp_table_read(const char *path, zvp_table **out, zvp_error *err)
{
    FILE *fp;
    char *line = NULL;
    size_t cap = 0, lineno = 0, header_line = 0;
    ssize_t len;
    strvec head = {0}, body = {0}, cells = {0};
    int st = ZVP_SUCCESS, have_header = 0;

    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_table_read: out is NULL");
    *out = NULL;
    if (!path)
        return zvp_fail(err, ZVP_EINVAL, "zvp_table_read: path is NULL");
    fp = fopen(path, "r");
    if (!fp)
        return zvp_fail(err, ZVP_EIO, "%s: cannot open: %s", path, strerror(errno));

    errno = 0;
    while ((len = getline(&line, &cap, fp)) != -1) {
        char *s = line;
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (lineno == 1 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB &&
            (unsigned char)s[2] == 0xBF)
            s += 3;
        while (is_blank(*s))
            s++;
        if (*s == '\0' || *s == '#')
            continue;
        if (strlen(s) != (size_t)(len - (s - line))) {
            st = zvp_fail(err, ZVP_EPARSE, "%s:%zu: NUL byte in line", path, lineno);
            break;
        }
        if (!have_header) {
            st = split_line(s, &head, path, lineno, err);
            if (st)
                break;
            have_header = 1;
            header_line = lineno;
            continue;
        }
        st = split_line(s, &cells, path, lineno, err);
        if (st)
            break;
        if (cells.n != head.n) {
            st = zvp_fail(err, ZVP_EPARSE, "%s:%zu: ragged row: %zu cells, header (line %zu) has %zu",
                          path, lineno, cells.n, header_line, head.n);
            break;
        }
        for (size_t j = 0; j < cells.n && !st; j++) {
            if (strvec_push(&body, cells.v[j], strlen(cells.v[j])))
                st = zvp_fail(err, ZVP_ENOMEM, "%s:%zu: out of memory", path, lineno);
        }
        strvec_free(&cells);
        if (st)
            break;
    }
    if (!st && ferror(fp))
        st = zvp_fail(err, ZVP_EIO, "%s:%zu: read error: %s", path, lineno + 1,
                      strerror(errno ? errno : EIO));
    if (!st && !have_header)
        st = zvp_fail(err, ZVP_EPARSE, "%s:%zu: no header row (only comments or blank lines)",
                      path, lineno);
    free(line);
    fclose(fp);
    if (!st)
        st = build_table(path, header_line, &head, &body, out, err);
    strvec_free(&cells);
    strvec_free(&head);
    strvec_free(&body);
    return st;
}

size_t zvp_table_rows(const zvp_table *t) { return t ? t->rows : 0; }
size_t zvp_table_cols(const zvp_table *t) { return t ? t->cols : 0; }

const char *zvp_table_col_name(const zvp_table *t, size_t j)
{
    return t && j < t->cols ? t->names[j] : NULL;
}

const char *zvp_table_col_unit(const zvp_table *t, size_t j)
{
    return t && j < t->cols ? t->units[j] : NULL;
}

long zvp_table_col_index(const zvp_table *t, const char *name, zvp_error *err)
{
    char list[ZVP_ERRMSG_MAX];
    size_t used = 0;
    if (!t || !name) {
        zvp_fail(err, ZVP_EINVAL, "zvp_table_col_index: table or name is NULL");
        return -1;
    }
    for (size_t j = 0; j < t->cols; j++)
        if (strcmp(t->names[j], name) == 0)
            return (long)j;
    list[0] = '\0';
    for (size_t j = 0; j < t->cols && used < sizeof list; j++) {
        int k = snprintf(list + used, sizeof list - used, "%s%s", j ? ", " : "", t->names[j]);
        if (k < 0)
            break;
        used += (size_t)k;
    }
    zvp_fail(err, ZVP_ENOTFOUND, "no column '%s' (columns: %s)", name, list);
    return -1;
}

double zvp_table_value(const zvp_table *t, size_t i, size_t j)
{
    if (!t || i >= t->rows || j >= t->cols)
        return NAN;
    return t->value[i * t->cols + j];
}

const char *zvp_table_text(const zvp_table *t, size_t i, size_t j)
{
    if (!t || i >= t->rows || j >= t->cols)
        return NULL;
    return t->text[i * t->cols + j];
}
