/*
 * src/fit/units.c - units of CSV header cells against the model descriptors' units
 * (zvp_unit_factor, zvmperf/table.h). The rules are in calibration/README.md ("Units").
 *
 * A unit is `atom` or `atom/atom`. Known atoms have a dimension and a factor to the
 * dimension's base; any other atom is its own dimension with factor 1 (so "tx/s" matches
 * only "tx/s", and "apples" nothing else). Decimal prefixes are decimal and binary ones
 * binary: KB = 1e3, MB = 1e6, GB = 1e9, TB = 1e12 bytes; KiB = 2^10, MiB = 2^20,
 * GiB = 2^30, TiB = 2^40 bytes (IEC 80000-13). "%" is 0.01 of the dimensionless "1".
 */
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "zvmperf/table.h"

typedef struct unit_def {
    const char *name, *dim;
    double num, den; /* the unit is num/den of the dimension's base (exact integers) */
    int count;       /* 1: a count of things (pages, frames): also converts to "1" */
} unit_def;

static const unit_def known[] = {
    {"1", "1", 1, 1, 0},          {"%", "1", 1, 100, 0},
    {"s", "s", 1, 1, 0},          {"ms", "s", 1, 1e3, 0},        {"us", "s", 1, 1e6, 0},
    {"ns", "s", 1, 1e9, 0},       {"min", "s", 60, 1, 0},        {"h", "s", 3600, 1, 0},
    {"B", "B", 1, 1, 0},          {"KB", "B", 1e3, 1, 0},        {"kB", "B", 1e3, 1, 0},
    {"MB", "B", 1e6, 1, 0},       {"GB", "B", 1e9, 1, 0},        {"TB", "B", 1e12, 1, 0},
    {"KiB", "B", 1024.0, 1, 0},   {"MiB", "B", 1048576.0, 1, 0},
    {"GiB", "B", 1073741824.0, 1, 0},  {"TiB", "B", 1099511627776.0, 1, 0},
    {"pages", "pages", 1, 1, 1},  {"kpages", "pages", 1e3, 1, 1}, {"Mpages", "pages", 1e6, 1, 1},
    {"frames", "frames", 1, 1, 1}, {"kframes", "frames", 1e3, 1, 1},
};

/* One side of a unit (numerator or denominator). */
typedef struct atom_info {
    const char *dim; /* dimension name (an unknown atom is its own dimension) */
    size_t dim_len;
    double num, den; /* ratio to the dimension's base */
    int count, one;  /* a count of things; the literal "1" */
} atom_info;

/* The atom s[0..len): a known atom, else itself with ratio 1; "" is "1". */
static atom_info atom(const char *s, size_t len)
{
    atom_info a = {s, len, 1.0, 1.0, 0, 0};
    if (len == 0) {
        s = "1";
        len = 1;
    }
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strlen(known[i].name) == len && memcmp(known[i].name, s, len) == 0) {
            a.dim = known[i].dim;
            a.dim_len = strlen(known[i].dim);
            a.num = known[i].num;
            a.den = known[i].den;
            a.count = known[i].count;
            a.one = strcmp(known[i].name, "1") == 0;
        }
    return a;
}

/* Same kind: the same dimension, or a count of things against the plain number "1". */
static int same_kind(const atom_info *a, const atom_info *b)
{
    if (a->dim_len == b->dim_len && memcmp(a->dim, b->dim, a->dim_len) == 0)
        return 1;
    return (a->count && b->one) || (a->one && b->count);
}

int zvp_unit_ratio(const char *from, const char *to, double *mul, double *div, zvp_error *err)
{
    atom_info fn, fd, tn, td;
    const char *fs, *ts;
    if (!from || !to || !mul || !div)
        return zvp_fail(err, ZVP_EINVAL, "zvp_unit_ratio: no argument may be NULL");
    *mul = *div = 1.0;
    if (from[0] == '\0' || strcmp(from, to) == 0)
        return ZVP_SUCCESS;
    fs = strchr(from, '/');
    ts = strchr(to, '/');
    fn = atom(from, fs ? (size_t)(fs - from) : strlen(from));
    fd = atom(fs ? fs + 1 : "1", fs ? strlen(fs + 1) : 1);
    tn = atom(to, ts ? (size_t)(ts - to) : strlen(to));
    td = atom(ts ? ts + 1 : "1", ts ? strlen(ts + 1) : 1);
    if (!same_kind(&fn, &tn) || !same_kind(&fd, &td))
        return zvp_fail(err, ZVP_EINVAL,
                        "unit [%.100s] cannot be converted to [%.100s] (not the same kind of "
                        "quantity)", from, to[0] ? to : "1");
    /* from = (fn.num/fn.den) / (fd.num/fd.den) base units; to likewise */
    *mul = fn.num * fd.den * tn.den * td.num;
    *div = fn.den * fd.num * tn.num * td.den;
    return ZVP_SUCCESS;
}
