/* tests/test_axis.c - zvp_axis_parse: ranges (computed, not accumulated; HI included within
 * a relative 1e-9), lists, and every malformed or invalid spelling. Expected values are the
 * decimal arithmetic of the specs, written here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"

static void test_zvp_axis_parse_range(void)
{
    zvp_error err;
    char *name = NULL;
    double *v = NULL;
    size_t n = 0, i;

    CU_ASSERT_EQUAL_FATAL(zvp_axis_parse("storage_gb=256:4096:64", &name, &v, &n, &err),
                          ZVP_SUCCESS);
    CU_ASSERT_STRING_EQUAL(name, "storage_gb");
    CU_ASSERT_EQUAL(n, 61); /* (4096 - 256) / 64 + 1 */
    for (i = 0; i < n; i++)
        CU_ASSERT_EQUAL(v[i], 256.0 + 64.0 * (double)i);
    free(name);
    free(v);

    /* 0:1:0.1 -> 11 values, each LO + i*STEP (not accumulated), HI included */
    CU_ASSERT_EQUAL_FATAL(zvp_axis_parse(" x = 0:1:0.1 ", &name, &v, &n, &err), ZVP_SUCCESS);
    CU_ASSERT_STRING_EQUAL(name, "x");
    CU_ASSERT_EQUAL_FATAL(n, 11);
    for (i = 0; i + 1 < n; i++)
        CU_ASSERT_EQUAL(v[i], (double)i * 0.1);
    CU_ASSERT_EQUAL(v[10], 1.0);
    free(name);
    free(v);

    /* (0.3 - 0) / 0.1 = 2.9999999999999996 in binary: HI is still included (tolerance),
     * and the last value is HI itself, not 3 * 0.1 = 0.30000000000000004 */
    CU_ASSERT_EQUAL_FATAL(zvp_axis_parse("x=0:0.3:0.1", &name, &v, &n, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(n, 4);
    CU_ASSERT_EQUAL(v[1], 0.1);
    CU_ASSERT_EQUAL(v[3], 0.3);
    free(name);
    free(v);

    /* HI not on the grid: stop below it */
    CU_ASSERT_EQUAL_FATAL(zvp_axis_parse("x=1:2:0.3", &name, &v, &n, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(n, 4); /* 1, 1.3, 1.6, 1.9 */
    CU_ASSERT_EQUAL(v[3], 1.0 + 3.0 * 0.3);
    free(name);
    free(v);

    /* LO == HI: one value */
    CU_ASSERT_EQUAL_FATAL(zvp_axis_parse("cpus=16:16:4", &name, &v, &n, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(n, 1);
    CU_ASSERT_EQUAL(v[0], 16.0);
    free(name);
    free(v);
}

static void test_zvp_axis_parse_list(void)
{
    zvp_error err;
    char *name = NULL;
    double *v = NULL;
    size_t n = 0;

    CU_ASSERT_EQUAL_FATAL(zvp_axis_parse("servers=1,2,4,-0.5e1", &name, &v, &n, &err),
                          ZVP_SUCCESS);
    CU_ASSERT_STRING_EQUAL(name, "servers");
    CU_ASSERT_EQUAL_FATAL(n, 4);
    CU_ASSERT_EQUAL(v[0], 1.0);
    CU_ASSERT_EQUAL(v[1], 2.0);
    CU_ASSERT_EQUAL(v[2], 4.0);
    CU_ASSERT_EQUAL(v[3], -5.0);
    free(name);
    free(v);

    CU_ASSERT_EQUAL_FATAL(zvp_axis_parse("think_s = 2.5", &name, &v, &n, &err), ZVP_SUCCESS);
    CU_ASSERT_STRING_EQUAL(name, "think_s");
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(v[0], 2.5);
    free(name);
    free(v);

    CU_ASSERT_EQUAL_FATAL(zvp_axis_parse("a = 3 , 1 ", &name, &v, &n, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(v[0], 3.0);
    CU_ASSERT_EQUAL(v[1], 1.0);
    free(name);
    free(v);
}

static void check_axis_error(const char *spec, int expected)
{
    zvp_error err;
    char *name = (char *)1;
    double *v = (double *)1;
    size_t n = 7;
    int rc;
    zvp_error_clear(&err);
    rc = zvp_axis_parse(spec, &name, &v, &n, &err);
    CU_ASSERT_EQUAL(rc, expected);
    CU_ASSERT_EQUAL(err.status, expected);
    CU_ASSERT_PTR_NULL(name);
    CU_ASSERT_PTR_NULL(v);
    CU_ASSERT_EQUAL(n, 0);
    /* the message quotes the text */
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, spec));
    if (rc != expected)
        fprintf(stderr, "\n  axis \"%s\": got %d (%s)\n", spec, rc, err.message);
}

static void test_zvp_axis_parse_errors(void)
{
    zvp_error err;
    char *name;
    double *v;
    size_t n;
    /* malformed */
    check_axis_error("storage_gb", ZVP_EPARSE);
    check_axis_error("=1", ZVP_EPARSE);
    check_axis_error("1x=1", ZVP_EPARSE);
    check_axis_error("a b=1", ZVP_EPARSE);
    check_axis_error("x=", ZVP_EPARSE);
    check_axis_error("x=1,,2", ZVP_EPARSE);
    check_axis_error("x=1,2,", ZVP_EPARSE);
    check_axis_error("x=abc", ZVP_EPARSE);
    check_axis_error("x=1.5GB", ZVP_EPARSE);
    check_axis_error("x=1:2", ZVP_EPARSE);
    check_axis_error("x=1:2:3:4", ZVP_EPARSE);
    check_axis_error("x=1:2:", ZVP_EPARSE);
    check_axis_error("x=1:2:0.5,3", ZVP_EPARSE);
    check_axis_error("x=1:two:1", ZVP_EPARSE);
    /* invalid values */
    check_axis_error("x=0:1:0", ZVP_EINVAL);
    check_axis_error("x=0:1:-0.1", ZVP_EINVAL);
    check_axis_error("x=1:0:0.1", ZVP_EINVAL);
    check_axis_error("x=inf", ZVP_EINVAL);
    check_axis_error("x=1,nan", ZVP_EINVAL);
    check_axis_error("x=0:1e999:1", ZVP_EINVAL);
    check_axis_error("x=0:-inf:1", ZVP_EINVAL);
    check_axis_error("x=0:1e10:1", ZVP_EINVAL); /* 10^10 + 1 values */
    check_axis_error("x=0:1:1e-300", ZVP_EINVAL);
    /* NULL arguments */
    CU_ASSERT_EQUAL(zvp_axis_parse(NULL, &name, &v, &n, &err), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_axis_parse("x=1", NULL, &v, &n, NULL), ZVP_EINVAL);
}

/* Spellings the one number grammar (zvp_parse_double) rejects are sorted into "not finite"
 * (ZVP_EINVAL) and "not a number" (ZVP_EPARSE) by their shape. */
static void test_zvp_axis_parse_number_shapes(void)
{
    /* spelled like numbers, but not finite */
    check_axis_error("x=-Infinity", ZVP_EINVAL);
    check_axis_error("x=NAN", ZVP_EINVAL);
    check_axis_error("x=nan(1)", ZVP_EINVAL);
    check_axis_error("x=1,-1.5E+400", ZVP_EINVAL);
    check_axis_error("x=.5e9999", ZVP_EINVAL);
    /* not numbers */
    check_axis_error("x=info", ZVP_EPARSE);
    check_axis_error("x=nano", ZVP_EPARSE);
    check_axis_error("x=1e", ZVP_EPARSE);
    check_axis_error("x=1e5e5", ZVP_EPARSE);
    check_axis_error("x=.", ZVP_EPARSE);
    check_axis_error("x=+", ZVP_EPARSE);
    check_axis_error("x=1 2", ZVP_EPARSE);
}

/* Numbers the grammar accepts: signs, exponents, tiny values that underflow to 0, spaces. */
static void test_zvp_axis_parse_number_forms(void)
{
    zvp_error err;
    char *name = NULL;
    double *v = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL_FATAL(zvp_axis_parse("x= +1.5e2 ,-.25, 2E-1,\t7.", &name, &v, &n, &err),
                          ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(n, 4);
    CU_ASSERT_EQUAL(v[0], 150.0);
    CU_ASSERT_EQUAL(v[1], -0.25);
    CU_ASSERT_EQUAL(v[2], 0.2);
    CU_ASSERT_EQUAL(v[3], 7.0);
    free(name);
    free(v);
}

int zvp_test_register_axis(void)
{
    CU_pSuite s = CU_add_suite("axis", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "axis_parse_range", test_zvp_axis_parse_range) ||
        !CU_add_test(s, "axis_parse_list", test_zvp_axis_parse_list) ||
        !CU_add_test(s, "axis_parse_errors", test_zvp_axis_parse_errors) ||
        !CU_add_test(s, "axis_parse_number_shapes", test_zvp_axis_parse_number_shapes) ||
        !CU_add_test(s, "axis_parse_number_forms", test_zvp_axis_parse_number_forms))
        return (int)CU_get_error();
    return 0;
}
