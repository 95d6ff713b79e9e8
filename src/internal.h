/*
 * src/internal.h - the library's private toolbox (not installed): error records, the one
 * number grammar, strings, growable arrays, the UTC timestamp and the one range/integer check
 * the engines use. Implemented in src/status.c and the files in src/util/. Includes only what it needs;
 * the public headers a source uses are its own includes.
 */
#ifndef ZVMPERF_INTERNAL_H
#define ZVMPERF_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include "zvmperf/status.h"
#include "zvmperf/model.h"

#if defined(__GNUC__)
#define ZVP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define ZVP_PRINTF(a, b)
#endif

/* Record status and a formatted message in err (if not NULL); return status. */
int zvp_fail(zvp_error *err, int status, const char *fmt, ...) ZVP_PRINTF(3, 4);

/* ---- checks (src/util/check.c) ------------------------------------------------------- */

/* Check lo <= value <= hi and isfinite(value); on failure record ZVP_EINVAL with
 * "<what> = <value> is out of range [lo, hi]" and return ZVP_EINVAL. */
int zvp_check_range(zvp_error *err, const char *what, double value, double lo, double hi);

/* The one parameter check of the engines (zvp_model_check_params, the model-file reader,
 * zvp_model_file_set): value finite and in the descriptor's [min, max], and a whole number
 * when d->integer. On failure records ZVP_EINVAL with
 *     "<who>: parameter <name> = <value> is out of range [min, max] (unit <unit>)"  or
 *     "<who>: parameter <name> = <value> is not an integer in [min, max]"
 * (who: the model name, or the file being read) and returns ZVP_EINVAL. */
int zvp_check_param(const char *who, const zvp_param_desc *d, double value, zvp_error *err);

/* The shortest of %.15g, %.16g, %.17g that reads back as v (1e-06, not 9.9999999999999995e-07),
 * into buf (n >= 32 bytes); returns buf. For messages that quote a range or a value. */
const char *zvp_fmt_num(double v, char *buf, size_t n);

/* ---- text (src/util/text.c) ---------------------------------------------------------- */

/* Duplicate a string with malloc (NULL on failure or when s is NULL). */
char *zvp_strdup(const char *s);

/*
 * The number grammar of every input the library reads (model files, fit files, tables,
 * axes): optional blanks, an optional sign, decimal digits with an optional decimal point
 * (at least one digit), an optional exponent e/E[sign]digits, optional trailing blanks
 * (space, tab, CR, LF). Nothing else: no hexadecimal ("0x10"), no "inf"/"infinity"/"nan",
 * no empty string. The value must be finite: "1e400" (overflow) is refused, and so is a
 * nonzero text that underflows to zero ("1e-400", "-3e-330"); a value between the smallest
 * subnormal and the smallest normal double (about 4.9e-324 to 2.2e-308) rounds to a subnormal
 * as strtod rounds it (the kernels' range checks judge such inputs).
 * zvp_parse_double: 0 and *out set on success; -1 (and *out untouched) otherwise.
 */
int zvp_parse_double(const char *s, double *out);

/* Decimal integer with the same blanks and sign rules (no point, no exponent), within the
 * range of long. 0 on success, -1 otherwise (*out untouched). */
int zvp_parse_long(const char *s, long *out);

/* The current time as ISO-8601 UTC, "YYYY-MM-DDTHH:MM:SSZ" (20 characters + NUL).
 * 0 on success; -1 when the clock cannot be read or size < 21 (buf then holds ""). */
int zvp_iso8601_utc(char *buf, size_t size);

/* zvp_smoothstep: the cubic x^2 (3 - 2x) on [0, 1], 0 below and 1 above: a weight that
 * rises from 0 to 1 with zero slope at both ends (the models' blends between two answers). */
static inline double zvp_smoothstep(double x)
{
    return x <= 0.0 ? 0.0 : x >= 1.0 ? 1.0 : x * x * (3.0 - 2.0 * x);
}

/* ---- growable arrays (src/util/array.c) ---------------------------------------------- */

/* zvp_grow: a buffer with room for at least `need` elements of `elem` bytes, growing `ptr`
 * (capacity *cap elements) geometrically (at least 8) and keeping its contents. Returns the
 * new buffer and sets *cap; on overflow or out of memory returns ptr unchanged and leaves
 * *cap unchanged (so *cap < need tells the failure). */
void *zvp_grow(void *ptr, size_t *cap, size_t need, size_t elem);

/* ZVP_GROW(arr, cap, need): grow the typed array `arr` (T *, capacity `cap`, a size_t lvalue)
 * to hold `need` elements; 0 on success, -1 on failure (arr and cap unchanged). Evaluates its
 * arguments more than once: pass plain lvalues. */
#define ZVP_GROW(arr, cap, need)                                                               \
    ((need) <= (cap) ? 0                                                                       \
                     : ((arr) = zvp_grow((arr), &(cap), (need), sizeof *(arr)),                \
                        (need) <= (cap) ? 0 : -1))

#endif
