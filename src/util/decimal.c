/* src/util/decimal.c - why a text is not a number of the library's grammar (see decimal.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util/decimal.h"

/* Is s spelled as a decimal number, whatever its magnitude? The grammar of zvp_parse_double
 * asks only which characters are digits, so s with every digit made '0' is spelled the same
 * and reads as 0, which no range refuses: zvp_parse_double accepts the copy exactly when s
 * is so spelled. The grammar stays in one place (src/util/text.c). -1: out of memory. */
static int decimal_spelling(const char *s)
{
    char small[128], *z = small;
    size_t n = strlen(s);
    int spelled;
    double v;
    if (n >= sizeof small && !(z = malloc(n + 1)))
        return -1;
    for (size_t i = 0; i <= n; i++)
        z[i] = s[i] >= '1' && s[i] <= '9' ? '0' : s[i];
    spelled = zvp_parse_double(z, &v) == 0;
    if (z != small)
        free(z);
    return spelled;
}

zvp_decimal_kind zvp_decimal_read(const char *s, double *out)
{
    double v;
    if (!s)
        return ZVP_DECIMAL_NOT_NUMBER;
    if (zvp_parse_double(s, &v) == 0) {
        if (out)
            *out = v;
        return ZVP_DECIMAL_OK;
    }
    if (decimal_spelling(s) != 1)
        return ZVP_DECIMAL_NOT_NUMBER;
    /* spelled as a decimal number, yet refused: beyond the double range one way or the other */
    return isinf(strtod(s, NULL)) ? ZVP_DECIMAL_OVERFLOW : ZVP_DECIMAL_UNDERFLOW;
}

const char *zvp_decimal_phrase(zvp_decimal_kind k)
{
    switch (k) {
    case ZVP_DECIMAL_OVERFLOW: return "is too large to represent (overflow)";
    case ZVP_DECIMAL_UNDERFLOW: return "is too small to represent (underflow)";
    default: return "is not a number";
    }
}

const char *zvp_decimal_why(const char *s) { return zvp_decimal_phrase(zvp_decimal_read(s, NULL)); }
