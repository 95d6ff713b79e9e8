/*
 * tests/test_modelfile.c - model files read from memory and from standard input, the INI
 * reader under them (long comment lines, duplicates), the library's number grammar and
 * toolbox (src/internal.h), and the engines' one parameter check standing in for the range
 * checks the models no longer repeat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "internal.h"

static const char MMC_TEXT[] = "; an M/M/c model file\n[model]\nname = mmc\n\n[parameters]\n"
                               "arrival_rate_per_s = 2.5\nservers = 3\n\n[stderr]\nservers = 0.25\n"
                               "\n[provenance]\nsource = typed in a test\n";

static zvp_model_file *parse_ok(const char *text)
{
    zvp_model_file *mf = NULL;
    zvp_error e = {0};
    int rc = zvp_model_file_parse("mem.ini", text, strlen(text), &mf, &e);
    if (rc != ZVP_SUCCESS)
        fprintf(stderr, "parse: %s\n", e.message);
    CU_ASSERT_EQUAL_FATAL(rc, ZVP_SUCCESS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
    return mf;
}

static double param(zvp_model_file *mf, const char *name)
{
    const zvp_model *m = zvp_model_file_model(mf);
    long i = zvp_model_param_index(m, name, NULL);
    CU_ASSERT_FATAL(i >= 0);
    return zvp_model_file_params(mf)[i];
}

/* Parsing from memory gives what reading the same bytes from a file gives. */
static void test_parse_equals_read(void)
{
    const char *path = ZVP_TEST_TMPDIR "/mf_mem.ini";
    zvp_test_write_file(path, MMC_TEXT);
    zvp_model_file *a = parse_ok(MMC_TEXT), *b = NULL;
    zvp_error e = {0};
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(path, &b, &e), ZVP_SUCCESS);
    const zvp_model *m = zvp_model_file_model(a);
    CU_ASSERT_PTR_EQUAL(m, zvp_model_file_model(b));
    CU_ASSERT_STRING_EQUAL(m->name, "mmc");
    for (size_t i = 0; i < m->n_params; i++) {
        CU_ASSERT(zvp_model_file_params(a)[i] == zvp_model_file_params(b)[i]);
        double sa = zvp_model_file_stderr(a, i), sb = zvp_model_file_stderr(b, i);
        CU_ASSERT((isnan(sa) && isnan(sb)) || sa == sb);
    }
    CU_ASSERT_STRING_EQUAL(zvp_model_file_text(a), MMC_TEXT);
    CU_ASSERT_STRING_EQUAL(zvp_model_file_text(b), MMC_TEXT);
    CU_ASSERT(param(a, "arrival_rate_per_s") == 2.5);
    CU_ASSERT(param(a, "servers") == 3.0);
    CU_ASSERT(param(a, "service_rate_per_s") == 1.0); /* the descriptor's default */
    CU_ASSERT(zvp_model_file_stderr(a, 2) == 0.25);
    zvp_model_file_free(a);
    zvp_model_file_free(b);
    /* not NUL-terminated: only len bytes are read */
    char buf[sizeof MMC_TEXT + 8];
    memcpy(buf, MMC_TEXT, sizeof MMC_TEXT - 1);
    memcpy(buf + sizeof MMC_TEXT - 1, "junk=!!", 8);
    zvp_model_file *c = NULL;
    CU_ASSERT_EQUAL(zvp_model_file_parse("buf", buf, sizeof MMC_TEXT - 1, &c, &e), ZVP_SUCCESS);
    zvp_model_file_free(c);
    /* NULL arguments */
    CU_ASSERT_EQUAL(zvp_model_file_parse(NULL, MMC_TEXT, 3, &c, &e), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_model_file_parse("x", MMC_TEXT, 3, NULL, &e), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_model_file_parse("x", NULL, 3, &c, &e), ZVP_EINVAL);
    CU_ASSERT_PTR_NULL(c);
}

/* "-" reads standard input: the same handle as the file itself. */
static void test_read_stdin(void)
{
    const char *path = ZVP_TEST_TMPDIR "/mf_stdin.ini";
    zvp_test_write_file(path, MMC_TEXT);
    fflush(NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(freopen(path, "rb", stdin));
    zvp_model_file *mf = NULL;
    zvp_error e = {0};
    int rc = zvp_model_file_read("-", &mf, &e);
    CU_ASSERT_PTR_NOT_NULL(freopen("/dev/null", "rb", stdin));
    CU_ASSERT_EQUAL_FATAL(rc, ZVP_SUCCESS);
    CU_ASSERT_STRING_EQUAL(zvp_model_file_text(mf), MMC_TEXT);
    CU_ASSERT(param(mf, "servers") == 3.0);
    CU_ASSERT(param(mf, "arrival_rate_per_s") == 2.5);
    zvp_model_file_free(mf);
    /* errors on standard input name it */
    zvp_test_write_file(path, "[model]\nname = mmc\n[parameters]\nservers = 0\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(freopen(path, "rb", stdin));
    rc = zvp_model_file_read("-", &mf, &e);
    CU_ASSERT_PTR_NOT_NULL(freopen("/dev/null", "rb", stdin));
    CU_ASSERT_EQUAL(rc, ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "<stdin>"));
    CU_ASSERT(zvp_test_msg_has(&e, "servers"));
}

/* A 300-byte comment line ending in "servers = 7" is a comment: it sets nothing (a reader
 * with a 200-byte line buffer would have read its tail as a key). */
static void test_long_comment_line(void)
{
    char text[1024];
    for (int pass = 0; pass < 2; pass++) {
        char *p = text;
        p += sprintf(p, "[model]\nname = mmc\n[parameters]\n%c", pass ? '#' : ';');
        size_t fill = 300 - 1 - strlen(" servers = 7");
        memset(p, 'x', fill);
        p += fill;
        p += sprintf(p, " servers = 7\narrival_rate_per_s = 0.25\n");
        CU_ASSERT_EQUAL(strlen(strstr(text, pass ? "#" : ";")), 300 + 1 + 26);
        zvp_model_file *mf = parse_ok(text);
        CU_ASSERT(param(mf, "servers") == 1.0); /* the default, not 7 */
        CU_ASSERT(param(mf, "arrival_rate_per_s") == 0.25);
        zvp_model_file_free(mf);
    }
}

/* A key given twice is refused, naming both lines (found by sorting, whatever the distance). */
static void test_duplicate_keys(void)
{
    zvp_model_file *mf = NULL;
    zvp_error e = {0};
    const char *t = "[model]\nname = mmc\n[parameters]\nservers = 2\narrival_rate_per_s = 0.5\n"
                    "servers = 4\n";
    CU_ASSERT_EQUAL(zvp_model_file_parse("dup.ini", t, strlen(t), &mf, &e), ZVP_EPARSE);
    CU_ASSERT_PTR_NULL(mf);
    CU_ASSERT(zvp_test_msg_has(&e, "servers is given twice"));
    CU_ASSERT(zvp_test_msg_has(&e, "line 4"));
    CU_ASSERT(zvp_test_msg_has(&e, "line 6"));
    CU_ASSERT(zvp_test_msg_has(&e, "'2'"));
    CU_ASSERT(zvp_test_msg_has(&e, "'4'"));
    /* the same key in two sections is not a duplicate */
    t = "[model]\nname = mmc\n[parameters]\nservers = 2\n[stderr]\nservers = 0.1\n";
    CU_ASSERT_EQUAL(zvp_model_file_parse("ok.ini", t, strlen(t), &mf, &e), ZVP_SUCCESS);
    zvp_model_file_free(mf);
    /* [model] name twice */
    t = "[model]\nname = mmc\n\nname = paging\n";
    CU_ASSERT_EQUAL(zvp_model_file_parse("dup2.ini", t, strlen(t), &mf, &e), ZVP_EPARSE);
    CU_ASSERT(zvp_test_msg_has(&e, "name is given twice"));
    CU_ASSERT(zvp_test_msg_has(&e, "line 2"));
    CU_ASSERT(zvp_test_msg_has(&e, "line 4"));
}

/* The number grammar: decimal only. */
static void test_number_grammar(void)
{
    static const char *const bad[] = {"0x10", "0X1p4", "inf", "-inf", "INF", "infinity", "nan",
                                      "NaN", "1e400", "-1e400", "", "   ", "1e", "1e+", ".",
                                      "-", "+", "1.5.2", "1,5", "12abc", "abc", "1 2", "--1",
                                      "0x", "1e5x", "\v1"};
    double v = 42.0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(zvp_parse_double(bad[i], &v), -1);
        CU_ASSERT(v == 42.0);
    }
    CU_ASSERT_EQUAL(zvp_parse_double(NULL, &v), -1);
    static const struct {
        const char *s;
        double v;
    } good[] = {{"1", 1.0},        {" -2.5e-3 ", -0.0025}, {"+.5", 0.5},   {"5.", 5.0},
                {"1E3\r\n", 1e3},  {"\t7\t", 7.0},        {"-0", -0.0},   {"1e-400", 0.0},
                {"00012.500", 12.5}, {"1.7976931348623157e308", 1.7976931348623157e308}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        CU_ASSERT_EQUAL(zvp_parse_double(good[i].s, &v), 0);
        CU_ASSERT(v == good[i].v);
    }
    long l = 5;
    static const char *const bad_long[] = {"1.0", "1e3", "0x10", "", "99999999999999999999999",
                                           "inf", "7 7"};
    for (size_t i = 0; i < sizeof bad_long / sizeof bad_long[0]; i++) {
        CU_ASSERT_EQUAL(zvp_parse_long(bad_long[i], &l), -1);
        CU_ASSERT_EQUAL(l, 5);
    }
    CU_ASSERT_EQUAL(zvp_parse_long(" -42 \n", &l), 0);
    CU_ASSERT_EQUAL(l, -42);
    /* in a model file: the value is refused, with the file, line and key */
    zvp_model_file *mf = NULL;
    zvp_error e = {0};
    static const char *const file_bad[] = {"0x10", "inf", "nan", "1e400"};
    for (size_t i = 0; i < 4; i++) {
        char t[128];
        snprintf(t, sizeof t, "[model]\nname = mmc\n[parameters]\narrival_rate_per_s = %s\n",
                 file_bad[i]);
        CU_ASSERT_EQUAL(zvp_model_file_parse("num.ini", t, strlen(t), &mf, &e), ZVP_EPARSE);
        CU_ASSERT(zvp_test_msg_has(&e, "num.ini:4"));
        CU_ASSERT(zvp_test_msg_has(&e, "arrival_rate_per_s"));
        CU_ASSERT(zvp_test_msg_has(&e, file_bad[i]));
        CU_ASSERT_PTR_NULL(mf);
    }
}

/* strdup, growable arrays and the ISO-8601 timestamp. */
static void test_toolbox(void)
{
    char *s = zvp_strdup("abc");
    CU_ASSERT_STRING_EQUAL(s, "abc");
    free(s);
    CU_ASSERT_PTR_NULL(zvp_strdup(NULL));
    int *a = NULL;
    size_t cap = 0;
    for (size_t n = 1; n <= 1000; n++) {
        CU_ASSERT_EQUAL_FATAL(ZVP_GROW(a, cap, n), 0);
        CU_ASSERT(cap >= n);
        a[n - 1] = (int)n;
    }
    long sum = 0;
    for (size_t i = 0; i < 1000; i++)
        sum += a[i];
    CU_ASSERT_EQUAL(sum, 500500L);
    size_t before = cap;
    CU_ASSERT_EQUAL(ZVP_GROW(a, cap, (size_t)-1), -1); /* overflow: unchanged */
    CU_ASSERT_EQUAL(cap, before);
    CU_ASSERT_EQUAL(a[999], 1000);
    free(a);
    char t[32];
    CU_ASSERT_EQUAL(zvp_iso8601_utc(t, sizeof t), 0);
    CU_ASSERT_EQUAL(strlen(t), 20);
    CU_ASSERT(t[4] == '-' && t[7] == '-' && t[10] == 'T' && t[13] == ':' && t[16] == ':' &&
              t[19] == 'Z');
    CU_ASSERT(strncmp(t, "20", 2) == 0);
    CU_ASSERT_EQUAL(zvp_iso8601_utc(t, 20), -1);
    CU_ASSERT_STRING_EQUAL(t, "");
}

/* The models no longer re-check their descriptor's ranges: zvp_model_eval (the only caller of
 * a model's eval) refuses a fractional count and an out-of-range value for each of them. */
static void expect_refused(const char *model, const char *name, double frac, double outside)
{
    const zvp_model *m = zvp_test_find_model(model);
    double p[64], out[64];
    CU_ASSERT_FATAL(m->n_params <= 64 && m->n_outputs <= 64);
    zvp_model_defaults(m, p);
    long i = zvp_model_param_index(m, name, NULL);
    CU_ASSERT_FATAL(i >= 0);
    CU_ASSERT_FATAL(m->params[i].integer == 1);
    zvp_test_set_param(m, p, name, frac);
    zvp_test_expect_eval_error(m, p, out, ZVP_EINVAL, model, name, "is not an integer", NULL);
    for (size_t j = 0; j < m->n_outputs; j++)
        CU_ASSERT(isnan(out[j]));
    zvp_test_set_param(m, p, name, outside);
    zvp_test_expect_eval_error(m, p, out, ZVP_EINVAL, model, name, "is out of range", NULL);
}

static void test_apache_checked(void) { expect_refused("apache", "cores", 8.5, 257); }
static void test_cms_checked(void) { expect_refused("cms", "page_volumes", 21.5, 0); }
static void test_dump_checked(void) { expect_refused("dump", "chain_noncontiguous", 0.5, 2); }
static void test_fsio_checked(void) { expect_refused("fsio", "direct_io", 0.5, -1); }
static void test_overcommit_checked(void) { expect_refused("overcommit", "baseline", 1.5, 3); }
static void test_paging_checked(void) { expect_refused("paging", "volumes", 31.25, 100001); }
static void test_sweetspot_checked(void) { expect_refused("sweetspot", "lock_zones", 1.5, -1); }

int zvp_test_register_modelfile(void)
{
    CU_pSuite s = CU_add_suite("model files and toolbox", NULL, NULL);
    if (!s)
        return (int)CU_get_error();
    if (!CU_add_test(s, "parse from memory = read from file", test_parse_equals_read) ||
        !CU_add_test(s, "'-' reads standard input", test_read_stdin) ||
        !CU_add_test(s, "300-byte comment line sets nothing", test_long_comment_line) ||
        !CU_add_test(s, "duplicate keys name both lines", test_duplicate_keys) ||
        !CU_add_test(s, "number grammar: decimal only", test_number_grammar) ||
        !CU_add_test(s, "strdup, ZVP_GROW, ISO-8601", test_toolbox) ||
        !CU_add_test(s, "apache: descriptor check", test_apache_checked) ||
        !CU_add_test(s, "cms: descriptor check", test_cms_checked) ||
        !CU_add_test(s, "dump: descriptor check", test_dump_checked) ||
        !CU_add_test(s, "fsio: descriptor check", test_fsio_checked) ||
        !CU_add_test(s, "overcommit: descriptor check", test_overcommit_checked) ||
        !CU_add_test(s, "paging: descriptor check", test_paging_checked) ||
        !CU_add_test(s, "sweetspot: descriptor check", test_sweetspot_checked))
        return (int)CU_get_error();
    return 0;
}
