/* src/util/ini.c - read an input once, and the INI reader of src/util/ini.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "internal.h"
#include "util/ini.h"

int zvp_read_input(const char *path, size_t max_bytes, char **text, size_t *len, zvp_error *err)
{
    if (!path || !text || !len)
        return zvp_fail(err, ZVP_EINVAL, "read input: path, text and len must not be NULL");
    *text = NULL;
    *len = 0;
    int is_stdin = strcmp(path, "-") == 0;
    const char *shown = is_stdin ? "<stdin>" : path;
    FILE *fp = is_stdin ? stdin : fopen(path, "rb");
    if (!fp)
        return zvp_fail(err, ZVP_EIO, "%s: cannot open: %s", shown, strerror(errno));
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!is_stdin)
            fclose(fp);
        return zvp_fail(err, ZVP_EIO, "%s: is a directory, not a file", shown);
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    int rc = buf ? ZVP_SUCCESS : zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", shown);
    while (rc == ZVP_SUCCESS) {
        if (n == cap) {
            size_t ncap = cap * 2;
            char *nb = realloc(buf, ncap + 1);
            if (!nb) {
                rc = zvp_fail(err, ZVP_ENOMEM, "%s: out of memory after %zu bytes", shown, n);
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, fp);
        n += got;
        if (n > max_bytes)
            rc = zvp_fail(err, ZVP_EIO, "%s: input is larger than the limit of %zu bytes", shown,
                          max_bytes);
        else if (got == 0) {
            if (ferror(fp))
                rc = zvp_fail(err, ZVP_EIO, "%s: read error: %s", shown, strerror(errno));
            break;
        }
    }
    if (!is_stdin)
        fclose(fp);
    if (rc != ZVP_SUCCESS) {
        free(buf);
        return rc;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return ZVP_SUCCESS;
}

void zvp_ini_free(zvp_ini *ini)
{
    if (!ini)
        return;
    free(ini->name);
    free(ini->text);
    free(ini->entries);
    free(ini->store);
    free(ini);
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

/* Trim blanks from [*b, *e). */
static void trim(const char **b, const char **e)
{
    while (*b < *e && is_blank(**b))
        (*b)++;
    while (*e > *b && is_blank((*e)[-1]))
        (*e)--;
}

/* Copy [b, e) into the store at *pos as a NUL-terminated string; return it. */
static const char *put(char *store, size_t *pos, const char *b, const char *e)
{
    char *d = store + *pos;
    size_t k = (size_t)(e - b);
    memcpy(d, b, k);
    d[k] = '\0';
    *pos += k + 1;
    return d;
}

/* One line [b, e) (no line end); adds at most one entry. */
static int parse_line(zvp_ini *ini, const char *b, const char *e, size_t line, const char **section,
                      size_t *pos, zvp_error *err)
{
    trim(&b, &e);
    if (b == e || *b == ';' || *b == '#')
        return ZVP_SUCCESS;
    if (*b == '[') {
        const char *close = memchr(b, ']', (size_t)(e - b));
        if (!close)
            return zvp_fail(err, ZVP_EPARSE, "%s:%zu: section header without ']'", ini->name, line);
        const char *rest = close + 1, *rend = e;
        trim(&rest, &rend);
        if (rest < rend && *rest != ';' && *rest != '#')
            return zvp_fail(err, ZVP_EPARSE, "%s:%zu: text after the section header", ini->name,
                            line);
        const char *sb = b + 1, *se = close;
        trim(&sb, &se);
        *section = put(ini->store, pos, sb, se);
        return ZVP_SUCCESS;
    }
    const char *eq = memchr(b, '=', (size_t)(e - b));
    if (!eq)
        return zvp_fail(err, ZVP_EPARSE, "%s:%zu: expected 'key = value' or '[section]'",
                        ini->name, line);
    const char *kb = b, *ke = eq, *vb = eq + 1, *ve = e;
    trim(&kb, &ke);
    if (kb == ke)
        return zvp_fail(err, ZVP_EPARSE, "%s:%zu: empty key before '='", ini->name, line);
    for (const char *p = vb; p < ve; p++)
        if (*p == ';' && p > vb && is_blank(p[-1])) {
            ve = p;
            break;
        }
    trim(&vb, &ve);
    zvp_ini_entry *en = &ini->entries[ini->n_entries++];
    en->section = *section;
    en->key = put(ini->store, pos, kb, ke);
    en->value = put(ini->store, pos, vb, ve);
    en->line = line;
    return ZVP_SUCCESS;
}

int zvp_ini_parse(const char *name, const char *text, size_t len, zvp_ini **out, zvp_error *err)
{
    if (!name || (!text && len) || !out)
        return zvp_fail(err, ZVP_EINVAL, "INI parse: name, text and out must not be NULL");
    *out = NULL;
    zvp_ini *ini = calloc(1, sizeof *ini);
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    if (ini) {
        ini->name = zvp_strdup(name);
        ini->text = malloc(len + 1);
        ini->entries = calloc(lines, sizeof *ini->entries);
        /* every string is a sub-range of one line plus its NUL; "" is the empty section */
        ini->store = malloc(len + 2 * lines + 2);
    }
    if (!ini || !ini->name || !ini->text || !ini->entries || !ini->store) {
        zvp_ini_free(ini);
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", name);
    }
    if (len)
        memcpy(ini->text, text, len);
    ini->text[len] = '\0';
    ini->text_len = len;
    size_t pos = 0;
    const char *section = put(ini->store, &pos, "", "");
    const char *p = ini->text, *end = ini->text + len;
    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    for (size_t line = 1; p < end || (p == end && line == 1 && len == 0); line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        if (memchr(p, '\0', (size_t)(le - p))) {
            zvp_ini_free(ini);
            return zvp_fail(err, ZVP_EPARSE, "%s:%zu: NUL byte in the line", name, line);
        }
        int rc = parse_line(ini, p, le, line, &section, &pos, err);
        if (rc != ZVP_SUCCESS) {
            zvp_ini_free(ini);
            return rc;
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    *out = ini;
    return ZVP_SUCCESS;
}

int zvp_ini_read(const char *path, size_t max_bytes, zvp_ini **out, zvp_error *err)
{
    char *text;
    size_t len;
    if (!out)
        return zvp_fail(err, ZVP_EINVAL, "INI read: out must not be NULL");
    *out = NULL;
    int rc = zvp_read_input(path, max_bytes, &text, &len, err);
    if (rc != ZVP_SUCCESS)
        return rc;
    rc = zvp_ini_parse(strcmp(path, "-") == 0 ? "<stdin>" : path, text, len, out, err);
    free(text);
    return rc;
}

static int cmp_entry(const void *a, const void *b)
{
    const zvp_ini_entry *x = *(const zvp_ini_entry *const *)a;
    const zvp_ini_entry *y = *(const zvp_ini_entry *const *)b;
    int c = strcmp(x->section, y->section);
    if (!c)
        c = strcmp(x->key, y->key);
    if (!c)
        c = (x > y) - (x < y); /* file order */
    return c;
}

int zvp_ini_find_duplicate(const zvp_ini *ini, size_t *first, size_t *second)
{
    if (!ini || ini->n_entries < 2)
        return 0;
    const zvp_ini_entry **v = malloc(ini->n_entries * sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < ini->n_entries; i++)
        v[i] = &ini->entries[i];
    qsort(v, ini->n_entries, sizeof *v, cmp_entry);
    size_t best_a = 0, best_b = 0;
    int found = 0;
    for (size_t i = 1; i < ini->n_entries; i++)
        if (!strcmp(v[i]->section, v[i - 1]->section) && !strcmp(v[i]->key, v[i - 1]->key)) {
            size_t a = (size_t)(v[i - 1] - ini->entries), b = (size_t)(v[i] - ini->entries);
            if (!found || b < best_b) {
                best_a = a;
                best_b = b;
                found = 1;
            }
            /* the first repeat of this key is enough: skip the rest of the group */
            while (i + 1 < ini->n_entries && !strcmp(v[i + 1]->section, v[i]->section) &&
                   !strcmp(v[i + 1]->key, v[i]->key))
                i++;
        }
    free(v);
    if (found) {
        if (first)
            *first = best_a;
        if (second)
            *second = best_b;
    }
    return found;
}
