/*
 * src/util/decimal.h - why a text is not a number of the library's one number grammar
 * (zvp_parse_double, src/internal.h), for messages that name the cause. Private: the CLI, the
 * sweep axes and the claims parser share it; not installed.
 */
#ifndef ZVP_UTIL_DECIMAL_H
#define ZVP_UTIL_DECIMAL_H

typedef enum zvp_decimal_kind {
    ZVP_DECIMAL_OK = 0,     /* a finite decimal number: zvp_parse_double accepts it */
    ZVP_DECIMAL_NOT_NUMBER, /* not spelled as a decimal number ("abc", "0x10", "inf", "1e") */
    ZVP_DECIMAL_OVERFLOW,   /* spelled as one, beyond the double range ("1e400") */
    ZVP_DECIMAL_UNDERFLOW   /* spelled as one, not zero, yet it reads as 0 ("1e-400") */
} zvp_decimal_kind;

/* Read s as zvp_parse_double does (the same blanks around it): ZVP_DECIMAL_OK with *out set
 * (out may be NULL), or why it is refused (*out untouched). A NULL s is not a number. */
zvp_decimal_kind zvp_decimal_read(const char *s, double *out);

/* The cause as a phrase after the text: "is too small to represent (underflow)", "is too
 * large to represent (overflow)", else "is not a number" (also for ZVP_DECIMAL_OK). */
const char *zvp_decimal_phrase(zvp_decimal_kind k);

/* zvp_decimal_phrase(zvp_decimal_read(s, NULL)), for a text zvp_parse_double refused. */
const char *zvp_decimal_why(const char *s);

#endif
