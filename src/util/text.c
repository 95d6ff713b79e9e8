/* src/util/text.c - strings, the one number grammar, and the ISO-8601 UTC timestamp. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "internal.h"

char *zvp_strdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_trailing_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* Skip leading blanks; return the first character after them. */
static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Is [p, ...) only trailing blanks up to the end? */
static int only_blanks(const char *p)
{
    while (is_trailing_blank(*p))
        p++;
    return *p == '\0';
}

/* Scan the decimal grammar from s (after blanks); return the end of the number, or NULL when
 * the text is not a number. `integer` forbids the point and the exponent. */
static const char *scan_number(const char *s, int integer)
{
    const char *p = s;
    size_t digits = 0;
    if (*p == '+' || *p == '-')
        p++;
    while (is_digit(*p)) {
        p++;
        digits++;
    }
    if (!integer && *p == '.') {
        p++;
        while (is_digit(*p)) {
            p++;
            digits++;
        }
    }
    if (digits == 0)
        return NULL;
    if (!integer && (*p == 'e' || *p == 'E')) {
        const char *q = p + 1;
        if (*q == '+' || *q == '-')
            q++;
        if (!is_digit(*q))
            return NULL;
        while (is_digit(*q))
            q++;
        p = q;
    }
    return p;
}

/* Does the number scanned from s have a nonzero digit before its exponent? */
static int nonzero_mantissa(const char *s)
{
    for (; *s && *s != 'e' && *s != 'E'; s++)
        if (*s >= '1' && *s <= '9')
            return 1;
    return 0;
}

int zvp_parse_double(const char *s, double *out)
{
    if (!s || !out)
        return -1;
    s = skip_blanks(s);
    const char *end = scan_number(s, 0);
    if (!end || !only_blanks(end))
        return -1;
    char *stop;
    double v = strtod(s, &stop);
    if (stop != end || !isfinite(v)) /* stop != end: a locale with another decimal point */
        return -1;
    if (v == 0.0 && nonzero_mantissa(s))
        return -1; /* underflow: "1e-400" is not zero, yet strtod reads it as 0 */
    /* -0 reads as 0 (and 0 is what every writer prints), so values round-trip bit for bit */
    *out = v == 0.0 ? 0.0 : v;
    return 0;
}

int zvp_parse_long(const char *s, long *out)
{
    if (!s || !out)
        return -1;
    s = skip_blanks(s);
    const char *end = scan_number(s, 1);
    if (!end || !only_blanks(end))
        return -1;
    char *stop;
    errno = 0;
    long v = strtol(s, &stop, 10);
    if (stop != end || errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

int zvp_iso8601_utc(char *buf, size_t size)
{
    struct tm tm;
    time_t t = time(NULL);
    if (!buf || size == 0)
        return -1;
    buf[0] = '\0';
    if (size < 21 || t == (time_t)-1 || !gmtime_r(&t, &tm) ||
        strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0) {
        buf[0] = '\0';
        return -1;
    }
    return 0;
}
