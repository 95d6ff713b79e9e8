/* tests/test_decimal.c - why a text is not a number of the library's grammar (src/util/
 * decimal.c): overflow and underflow named apart from "not a number". The double range: the
 * largest double is about 1.8e308, the smallest subnormal about 4.9e-324 (IEEE 754 binary64). */
#include <stdio.h>
#include <string.h>
#include <CUnit/CUnit.h>
#include "tests.h"
#include "internal.h"
#include "util/decimal.h"

static void expect_kind(const char *s, zvp_decimal_kind want)
{
    double v = 42.0;
    zvp_decimal_kind k = zvp_decimal_read(s, &v);
    CU_ASSERT_EQUAL(k, want);
    if (k != want)
        fprintf(stderr, "\n'%s': kind %d, want %d\n", s ? s : "(null)", (int)k, (int)want);
    if (want != ZVP_DECIMAL_OK)
        CU_ASSERT_EQUAL(v, 42.0); /* untouched */
}

static void test_kinds(void)
{
    double v = 0;
    CU_ASSERT_EQUAL(zvp_decimal_read(" -2.5e3 \r\n", &v), ZVP_DECIMAL_OK);
    CU_ASSERT_EQUAL(v, -2500.0);
    CU_ASSERT_EQUAL(zvp_decimal_read("1", NULL), ZVP_DECIMAL_OK);
    expect_kind("0e-400", ZVP_DECIMAL_OK); /* exactly 0 */
    expect_kind("-0.000e99999", ZVP_DECIMAL_OK);
    expect_kind("1e-310", ZVP_DECIMAL_OK); /* a subnormal */
    expect_kind("1e400", ZVP_DECIMAL_OVERFLOW);
    expect_kind(" -1.5E+309\t", ZVP_DECIMAL_OVERFLOW);
    expect_kind("1e-400", ZVP_DECIMAL_UNDERFLOW);
    expect_kind("-3e-330", ZVP_DECIMAL_UNDERFLOW);
    expect_kind(".5e-99999", ZVP_DECIMAL_UNDERFLOW);
    const char *not_numbers[] = {NULL, "", " ", "abc", "inf", "-Infinity", "nan", "0x10",
                                 "0x1p99999", "1e", "1e+", ".", "-.e5", "1..2", "1e400x",
                                 "1 e400", "--1e400", "1,5e400"};
    for (size_t i = 0; i < sizeof not_numbers / sizeof *not_numbers; i++)
        expect_kind(not_numbers[i], ZVP_DECIMAL_NOT_NUMBER);
}

/* Texts longer than the classifier's stack buffer (127 characters) */
static void test_long_texts(void)
{
    char big[512], tiny[512];
    big[0] = '1';
    memset(big + 1, '0', 400); /* 10^400 */
    big[401] = '\0';
    memcpy(tiny, "0.", 2);
    memset(tiny + 2, '0', 399); /* 10^-400 */
    memcpy(tiny + 401, "1", 2);
    expect_kind(big, ZVP_DECIMAL_OVERFLOW);
    expect_kind(tiny, ZVP_DECIMAL_UNDERFLOW);
    big[200] = 'x';
    expect_kind(big, ZVP_DECIMAL_NOT_NUMBER);
}

static void test_phrases(void)
{
    CU_ASSERT_STRING_EQUAL(zvp_decimal_why("1e400"), "is too large to represent (overflow)");
    CU_ASSERT_STRING_EQUAL(zvp_decimal_why("-1e-400"), "is too small to represent (underflow)");
    CU_ASSERT_STRING_EQUAL(zvp_decimal_why("1e"), "is not a number");
    CU_ASSERT_STRING_EQUAL(zvp_decimal_why(NULL), "is not a number");
}

int zvp_test_register_decimal(void)
{
    CU_pSuite s = CU_add_suite("decimal", NULL, NULL);
    if (!s || !CU_add_test(s, "kinds", test_kinds) ||
        !CU_add_test(s, "long_texts", test_long_texts) ||
        !CU_add_test(s, "phrases", test_phrases))
        return 1;
    return 0;
}
