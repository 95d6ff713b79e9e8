/*
 * tests/test_table.c - measurement tables (CSV): zvp_table_read and the cell accessors.
 * Expected values: the fixture tests/data/table_basic.csv is typed in by hand.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
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

/* A NUL byte anywhere (a data line, a comment line) is an error naming the line. */
static void test_table_nul(void)
{
    static const char data[] = "a,b\n1,2\n3,\0 4\n";
    static const char comment[] = "# x\0y\na,b\n1,2\n";
    zvp_table *t = NULL;
    zvp_error err;
    FILE *fp = fopen(ZVP_TEST_TMPDIR "/nul.csv", "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    fwrite(data, 1, sizeof data - 1, fp);
    fclose(fp);
    CU_ASSERT_EQUAL(zvp_table_read(ZVP_TEST_TMPDIR "/nul.csv", &t, &err), ZVP_EPARSE);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "nul.csv:3: NUL byte"));
    fp = fopen(ZVP_TEST_TMPDIR "/nul2.csv", "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    fwrite(comment, 1, sizeof comment - 1, fp);
    fclose(fp);
    CU_ASSERT_EQUAL(zvp_table_read(ZVP_TEST_TMPDIR "/nul2.csv", &t, &err), ZVP_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "nul2.csv:1: NUL byte"));
}

/* Special inputs: /dev/zero fails naming the limit; a directory is refused; "-" reads
 * standard input; a FIFO is read once. */
static void test_table_special(void)
{
    zvp_table *t = NULL;
    zvp_error err;
    const char *fifo = ZVP_TEST_TMPDIR "/table.fifo";
    CU_ASSERT_EQUAL(zvp_table_read("/dev/zero", &t, &err), ZVP_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "limit of 67108864 bytes"));
    CU_ASSERT_EQUAL(zvp_table_read(ZVP_TEST_TMPDIR, &t, &err), ZVP_EIO);
    zvp_test_write_file(ZVP_TEST_TMPDIR "/stdin.csv", "x [ms],y\n1,b\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(freopen(ZVP_TEST_TMPDIR "/stdin.csv", "r", stdin));
    CU_ASSERT_EQUAL_FATAL(zvp_table_read("-", &t, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_table_value(t, 0, 0), 1.0);
    CU_ASSERT_STRING_EQUAL(zvp_table_col_unit(t, 0), "ms");
    zvp_table_free(t);
    CU_ASSERT_PTR_NOT_NULL(freopen("/dev/null", "r", stdin));
    remove(fifo);
    if (mkfifo(fifo, 0600) == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            FILE *w = fopen(fifo, "w");
            if (w) {
                fputs("a,b\n1,2\n", w);
                fclose(w);
            }
            _exit(0);
        }
        CU_ASSERT_EQUAL(zvp_table_read(fifo, &t, &err), ZVP_SUCCESS);
        CU_ASSERT_EQUAL(zvp_table_rows(t), 1);
        CU_ASSERT_EQUAL(zvp_table_value(t, 0, 1), 2.0);
        zvp_table_free(t);
        waitpid(pid, NULL, 0);
        remove(fifo);
    }
}

/* Duplicate column names are found by sorting and named with both columns; a header of
 * 100,000 columns loads and every column is found (no timing assertion). Numbers are
 * decimal only: 0x10, inf, nan are text. */
static void test_table_wide_and_duplicates(void)
{
    const size_t n = 100000;
    zvp_table *t = NULL;
    zvp_error err;
    FILE *fp;
    zvp_test_write_file(ZVP_TEST_TMPDIR "/dup.csv", "a,b,c [s],d,b [ms]\n1,2,3,4,5\n");
    CU_ASSERT_EQUAL(zvp_table_read(ZVP_TEST_TMPDIR "/dup.csv", &t, &err), ZVP_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "duplicate column name 'b' (columns 2 and 5)"));
    fp = fopen(ZVP_TEST_TMPDIR "/wide_table.csv", "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    for (size_t j = 0; j < n; j++)
        fprintf(fp, "%sc%zu [ms]", j ? "," : "", n - j);
    fputc('\n', fp);
    for (size_t j = 0; j < n; j++)
        fprintf(fp, "%s%zu", j ? "," : "", j);
    fputc('\n', fp);
    fclose(fp);
    CU_ASSERT_EQUAL_FATAL(zvp_table_read(ZVP_TEST_TMPDIR "/wide_table.csv", &t, &err),
                          ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_table_cols(t), n);
    CU_ASSERT_EQUAL(zvp_table_col_index(t, "c100000", &err), 0);
    CU_ASSERT_EQUAL(zvp_table_col_index(t, "c1", &err), (long)n - 1);
    CU_ASSERT_EQUAL(zvp_table_col_index(t, "c31337", &err), (long)(n - 31337));
    CU_ASSERT_EQUAL(zvp_table_value(t, 0, n - 31337), (double)(n - 31337));
    CU_ASSERT_EQUAL(zvp_table_col_index(t, "c0", &err), -1);
    zvp_table_free(t);
    zvp_test_write_file(ZVP_TEST_TMPDIR "/hex.csv", "a,b,c,d\n0x10,inf,nan,1e3\n");
    CU_ASSERT_EQUAL_FATAL(zvp_table_read(ZVP_TEST_TMPDIR "/hex.csv", &t, &err), ZVP_SUCCESS);
    CU_ASSERT(isnan(zvp_table_value(t, 0, 0)));
    CU_ASSERT_STRING_EQUAL(zvp_table_text(t, 0, 0), "0x10");
    CU_ASSERT(isnan(zvp_table_value(t, 0, 1)));
    CU_ASSERT(isnan(zvp_table_value(t, 0, 2)));
    CU_ASSERT_EQUAL(zvp_table_value(t, 0, 3), 1000.0);
    zvp_table_free(t);
}

int zvp_test_register_table(void)
{
    CU_pSuite s = CU_add_suite("table", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "table_read_basic", test_table_read_basic) ||
        !CU_add_test(s, "table_read_ragged", test_table_read_ragged) ||
        !CU_add_test(s, "table_read_missing", test_table_read_missing) ||
        !CU_add_test(s, "table_read_no_header", test_table_read_no_header) ||
        !CU_add_test(s, "table_nul", test_table_nul) ||
        !CU_add_test(s, "table_special", test_table_special) ||
        !CU_add_test(s, "table_wide_and_duplicates", test_table_wide_and_duplicates))
        return (int)CU_get_error();
    return 0;
}
