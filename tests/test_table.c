/*
 * tests/test_table.c - measurement tables (CSV): zvp_table_read and the cell accessors.
 * Expected values: the fixture tests/data/table_basic.csv is typed in by hand.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"

static void test_table_read_basic(void)
{
    zvp_table *t = NULL;
    zvp_error err;
    int st = zvp_table_read("data/table_basic.csv", &t, &err);
    CU_ASSERT_EQUAL_FATAL(st, ZVP_SUCCESS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(zvp_table_rows(t), 3);
    CU_ASSERT_EQUAL(zvp_table_cols(t), 4);
    CU_ASSERT_STRING_EQUAL(zvp_table_col_name(t, 0), "runid");
    CU_ASSERT_STRING_EQUAL(zvp_table_col_unit(t, 0), "");
    CU_ASSERT_STRING_EQUAL(zvp_table_col_name(t, 1), "storage_gb");
    CU_ASSERT_STRING_EQUAL(zvp_table_col_unit(t, 1), "GiB");
    CU_ASSERT_STRING_EQUAL(zvp_table_col_name(t, 2), "rate");
    CU_ASSERT_STRING_EQUAL(zvp_table_col_unit(t, 2), "1/s");
    CU_ASSERT_STRING_EQUAL(zvp_table_col_name(t, 3), "note");
    /* text cells */
    CU_ASSERT(isnan(zvp_table_value(t, 0, 0)));
    CU_ASSERT_STRING_EQUAL(zvp_table_text(t, 0, 0), "A1");
    CU_ASSERT_STRING_EQUAL(zvp_table_text(t, 2, 0), "C3");
    CU_ASSERT_STRING_EQUAL(zvp_table_text(t, 0, 3), "hello, world");
    CU_ASSERT_STRING_EQUAL(zvp_table_text(t, 2, 3), "x"); /* CR removed */
    /* numbers */
    CU_ASSERT_EQUAL(zvp_table_value(t, 0, 1), 256.0);
    CU_ASSERT_EQUAL(zvp_table_value(t, 1, 1), 512.0);
    CU_ASSERT_EQUAL(zvp_table_value(t, 2, 1), 1024.0);
    CU_ASSERT_EQUAL(zvp_table_value(t, 0, 2), 1.5);
    CU_ASSERT_EQUAL(zvp_table_value(t, 2, 2), 2500.0);
    CU_ASSERT_STRING_EQUAL(zvp_table_text(t, 2, 2), "2.5e3");
    /* empty cell */
    CU_ASSERT(isnan(zvp_table_value(t, 1, 2)));
    CU_ASSERT_STRING_EQUAL(zvp_table_text(t, 1, 2), "");
    /* out of range */
    CU_ASSERT(isnan(zvp_table_value(t, 3, 0)));
    CU_ASSERT(isnan(zvp_table_value(t, 0, 4)));
    CU_ASSERT_PTR_NULL(zvp_table_text(t, 0, 4));
    CU_ASSERT_PTR_NULL(zvp_table_text(t, 3, 0));
    CU_ASSERT_PTR_NULL(zvp_table_col_name(t, 4));
    CU_ASSERT_PTR_NULL(zvp_table_col_unit(t, 4));
    /* NULL table (table.h): 0 rows and columns, NULL / NaN cells */
    CU_ASSERT_EQUAL(zvp_table_rows(NULL), 0);
    CU_ASSERT_EQUAL(zvp_table_cols(NULL), 0);
    CU_ASSERT(isnan(zvp_table_value(NULL, 0, 0)));
    CU_ASSERT_PTR_NULL(zvp_table_text(NULL, 0, 0));
    CU_ASSERT_PTR_NULL(zvp_table_col_name(NULL, 0));
    /* column lookup */
    CU_ASSERT_EQUAL(zvp_table_col_index(t, "rate", &err), 2);
    CU_ASSERT_EQUAL(zvp_table_col_index(t, "nosuch_column", &err), -1);
    CU_ASSERT_EQUAL(err.status, ZVP_ENOTFOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "nosuch_column"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "storage_gb")); /* lists the columns */
    zvp_table_free(t);
    zvp_table_free(NULL);
}

static void test_table_read_ragged(void)
{
    zvp_table *t = (zvp_table *)1;
    zvp_error err;
    zvp_error_clear(&err);
    CU_ASSERT_EQUAL(zvp_table_read("data/table_ragged.csv", &t, &err), ZVP_EPARSE);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT_EQUAL(err.status, ZVP_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "data/table_ragged.csv:4"));
}

static void test_table_read_missing(void)
{
    zvp_table *t = (zvp_table *)1;
    zvp_error err;
    CU_ASSERT_EQUAL(zvp_table_read("data/no_such_table.csv", &t, &err), ZVP_EIO);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "data/no_such_table.csv"));
}

static void test_table_read_no_header(void)
{
    zvp_table *t = NULL;
    zvp_error err;
    zvp_test_write_file(ZVP_TEST_TMPDIR "/only_comments.csv", "# nothing but a comment\n\n");
    CU_ASSERT_EQUAL(zvp_table_read(ZVP_TEST_TMPDIR "/only_comments.csv", &t, &err), ZVP_EPARSE);
    CU_ASSERT_PTR_NULL(t);
}

int zvp_test_register_table(void)
{
    CU_pSuite s = CU_add_suite("table", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "table_read_basic", test_table_read_basic) ||
        !CU_add_test(s, "table_read_ragged", test_table_read_ragged) ||
        !CU_add_test(s, "table_read_missing", test_table_read_missing) ||
        !CU_add_test(s, "table_read_no_header", test_table_read_no_header))
        return (int)CU_get_error();
    return 0;
}
