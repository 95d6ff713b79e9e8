/*
 * src/fit/table.c - measurement tables (CSV): '#' comment lines, one header row whose cells
 * are `name` or `name [unit]`, then data rows of numbers or text.
 *
 * The input is read once with zvp_read_input (a file, a pipe or a FIFO, "-" = standard input,
 * at most ZVP_TABLE_MAX_BYTES), so there is no line-length limit; a NUL byte anywhere is an
 * error naming the line. Loading is linear in the input (duplicate names by sorting).
 * Cells are split on ','; a cell may be quoted with '"' (RFC 4180: "" inside quotes is one
 * quote, commas inside quotes are kept). Cells are trimmed of spaces and tabs; CR before LF is dropped. Blank
 * lines and lines whose first non-blank character is '#' are skipped. A UTF-8 byte-order
 * mark at the start of the file is skipped.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util/ini.h"
#include "zvmperf/table.h"

struct zvp_table {
    size_t rows, cols;
    char **names;  /* [cols] */
    char **units;  /* [cols], "" when none */
    char **text;   /* [rows*cols] row-major, as written (trimmed) */
    double *value; /* [rows*cols] NaN for text or empty cells */
    size_t *line;  /* [rows] the line of each data row in the input (1-based) */
    struct named_col *sorted; /* [cols] names sorted (lookup by bsearch) */
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

/* Append an owned string. 0 on success, -1 on ENOMEM (s keeps nothing). */
static int strvec_take(strvec *s, char *c)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        char **v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = c;
    return 0;
}

/* Append a copy of the len bytes at p (NUL added). 0 on success, -1 on ENOMEM. */
static int strvec_push(strvec *s, const char *p, size_t len)
{
    char *c = malloc(len + 1);
    if (!c)
        return -1;
    memcpy(c, p, len);
    c[len] = '\0';
    if (strvec_take(s, c) == 0)
        return 0;
    free(c);
    return -1;
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
    free(t->line);
    free(t->sorted);
    free(t);
}

typedef struct named_col {
    const char *name;
    size_t col;
} named_col;

static int cmp_named(const void *a, const void *b)
{
    const named_col *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->col > y->col) - (x->col < y->col);
}

/* Sort the names into t->sorted; a column name given twice is an error (found by sorting:
 * O(n log n)) naming the first two columns of the repeated name that sorts first. */
static int check_duplicates(zvp_table *t, const char *path, size_t line, zvp_error *err)
{
    named_col *v;
    int st = ZVP_SUCCESS;
    if (!(v = t->sorted = malloc((t->cols + 1) * sizeof *v)))
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", path);
    for (size_t j = 0; j < t->cols; j++) {
        v[j].name = t->names[j];
        v[j].col = j;
    }
    qsort(v, t->cols, sizeof *v, cmp_named);
    for (size_t k = 1; k < t->cols; k++)
        if (strcmp(v[k - 1].name, v[k].name) == 0) {
            st = zvp_fail(err, ZVP_EPARSE,
                          "%s:%zu: duplicate column name '%s' (columns %zu and %zu)", path, line, v[k].name, v[k - 1].col + 1, v[k].col + 1);
            break;
        }
    return st;
}

/* Build the table from header cells and the row-major body cells (takes their strings). */
static int build_table(const char *path, size_t header_line, strvec *head, strvec *body,
                       zvp_table **out, zvp_error *err)
{
    zvp_table *t = calloc(1, sizeof *t);
    int st;
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
        st = parse_header_cell(head->v[j], &t->names[j], &t->units[j], path, header_line, j,
                               err);
        if (st) {
            t->rows = 0;
            zvp_table_free(t);
            return st;
        }
    }
    if ((st = check_duplicates(t, path, header_line, err))) {
        t->rows = 0;
        zvp_table_free(t);
        return st;
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

/* Lines of the text as read: the next line from *pos (its terminator replaced by NUL; a CR
 * before LF dropped), or NULL at the end. *len is the line's length. */
static char *next_line(char *text, size_t n, size_t *pos, size_t *len)
{
    char *s, *nl;
    size_t l;
    if (*pos >= n)
        return NULL;
    s = text + *pos;
    nl = memchr(s, '\n', n - *pos);
    l = nl ? (size_t)(nl - s) : n - *pos;
    *pos += l + (nl != NULL);
    s[l] = '\0';
    if (l > 0 && s[l - 1] == '\r')
        s[--l] = '\0';
    *len = l;
    return s;
}

/* The header and the body cells of the text (modified in place). */
static int parse_text(const char *path, char *text, size_t n, strvec *head, strvec *body,
                      size_t *header_line, size_t **lines, size_t *cap_lines, zvp_error *err)
{
    size_t n_rows = 0;
    strvec cells = {0};
    size_t pos = 0, lineno = 0, len;
    char *line;
    int st = ZVP_SUCCESS, have_header = 0;
    if (n >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF)
        pos = 3;
    while (!st && (line = next_line(text, n, &pos, &len)) != NULL) {
        char *s = line;
        lineno++;
        if (memchr(line, '\0', len))
            return zvp_fail(err, ZVP_EPARSE, "%s:%zu: NUL byte in line", path, lineno);
        while (is_blank(*s))
            s++;
        if (*s == '\0' || *s == '#')
            continue;
        if (!have_header) {
            st = split_line(s, head, path, lineno, err);
            have_header = 1;
            *header_line = lineno;
            continue;
        }
        if ((st = split_line(s, &cells, path, lineno, err)))
            break;
        if (ZVP_GROW(*lines, *cap_lines, n_rows + 1)) {
            st = zvp_fail(err, ZVP_ENOMEM, "%s:%zu: out of memory", path, lineno);
            break;
        }
        (*lines)[n_rows++] = lineno;
        if (cells.n != head->n)
            st = zvp_fail(err, ZVP_EPARSE, "%s:%zu: ragged row: %zu cells, header (line %zu) has %zu",
                          path, lineno, cells.n, *header_line, head->n);
        for (size_t j = 0; j < cells.n && !st; j++) {
            /* move the cell strings into the body */
            if (strvec_take(body, cells.v[j]))
                st = zvp_fail(err, ZVP_ENOMEM, "%s:%zu: out of memory", path, lineno);
            else
                cells.v[j] = NULL;
        }
        strvec_free(&cells);
    }
    strvec_free(&cells);
    if (!st && !have_header)
        st = zvp_fail(err, ZVP_EPARSE, "%s:%zu: no header row (only comments or blank lines)",
                      path, lineno);
    return st;
}

int zvp_table_read(const char *path, zvp_table **out, zvp_error *err)
{
    char *text = NULL;
    size_t n = 0, header_line = 0, *lines = NULL, cap_lines = 0;
    strvec head = {0}, body = {0};
    const char *name;
    int st;

    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_table_read: out is NULL");
    *out = NULL;
    if (!path)
        return zvp_fail(err, ZVP_EINVAL, "zvp_table_read: path is NULL");
    name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    if ((st = zvp_read_input(path, ZVP_TABLE_MAX_BYTES, &text, &n, err)))
        return st;
    st = parse_text(name, text, n, &head, &body, &header_line, &lines, &cap_lines, err);
    free(text);
    if (!st)
        st = build_table(name, header_line, &head, &body, out, err);
    if (!st) {
        (*out)->line = lines;
        lines = NULL;
    }
    free(lines);
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
    if (t->cols) {
        named_col key = {name, 0}, *hit;
        size_t lo = 0, hi = t->cols; /* first entry >= key (the lowest column of a name) */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (cmp_named(&t->sorted[mid], &key) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        hit = lo < t->cols ? &t->sorted[lo] : NULL;
        if (hit && strcmp(hit->name, name) == 0)
            return (long)hit->col;
    }
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

size_t zvp_table_row_line(const zvp_table *t, size_t i)
{
    return t && i < t->rows && t->line ? t->line[i] : 0;
}

const char *zvp_table_text(const zvp_table *t, size_t i, size_t j)
{
    if (!t || i >= t->rows || j >= t->cols)
        return NULL;
    return t->text[i * t->cols + j];
}
