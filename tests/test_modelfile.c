/*
 * tests/test_modelfile.c - model files read from memory and from standard input, the INI
 * reader under them (long comment lines, duplicates), the library's number grammar and
 * toolbox (src/internal.h), and the engines' one parameter check standing in for the range
 * checks the models no longer repeat.
 */
#include <math.h>
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
                                      "0x", "1e5x", "\v1", "1e-400", "-1e-400", "2e-324",
                                      "0.00001e-320"};
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
                {"1E3\r\n", 1e3},  {"\t7\t", 7.0},        {"-0", -0.0},   {"0e-400", 0.0},
                {"00012.500", 12.5}, {"1.7976931348623157e308", 1.7976931348623157e308},
                {"5e-324", 4.9406564584124654e-324}, {"-0.0e-999", 0.0}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        CU_ASSERT_EQUAL(zvp_parse_double(good[i].s, &v), 0);
        CU_ASSERT(v == good[i].v);
    }
    /* -0 (and -0 with an exponent) reads as +0, as every writer prints it: a model file with
     * `x = -0` round-trips bit for bit (found by the model_file fuzzer) */
    CU_ASSERT(zvp_parse_double("-0", &v) == 0 && v == 0.0 && !signbit(v));
    CU_ASSERT(zvp_parse_double("-0.000e-400", &v) == 0 && v == 0.0 && !signbit(v));
    {
        const char *text = "[model]\nname = cms\n[parameters]\npage_read_ms = -0\n";
        const char *path = ZVP_TEST_TMPDIR "/negzero.ini";
        zvp_model_file *a = NULL, *b = NULL;
        zvp_error e = {0};
        CU_ASSERT_EQUAL_FATAL(zvp_model_file_parse("negzero", text, strlen(text), &a, &e),
                              ZVP_SUCCESS);
        CU_ASSERT_EQUAL(zvp_model_file_write(a, path, &e), ZVP_SUCCESS);
        CU_ASSERT_EQUAL(zvp_model_file_read(path, &b, &e), ZVP_SUCCESS);
        if (a && b)
            CU_ASSERT(memcmp(zvp_model_file_params(a), zvp_model_file_params(b),
                             zvp_model_file_model(a)->n_params * sizeof(double)) == 0);
        zvp_model_file_free(a);
        zvp_model_file_free(b);
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

/* The whole file at path (malloc'd), or NULL. */
static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    char *buf = NULL;
    long n;
    if (!fp)
        return NULL;
    if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)) != NULL) {
        buf[fread(buf, 1, (size_t)n, fp)] = '\0';
    }
    fclose(fp);
    return buf;
}

/* Provenance round-trips: long keys are not cut, values with " ;", backslashes, blanks at
 * the ends, '#' read back unchanged; writing what was read gives the same bytes. */
static void test_provenance_round_trip(void)
{
    static const char *const values[] = {
        "a ;b", "x ; y ;; z", "tab\t;t", "C:\\data\\s.csv", "\\;", "  lead and trail  ",
        "\ttabs\t", "# not a comment", "; not a comment either", "\xc3\xa9t\xc3\xa9 \xe2\x82\xac",
        "", "=", "[x]", "a\\sb", " ",
    };
    const size_t nv = sizeof values / sizeof values[0];
    char key[400], k2[32], *t1, *t2;
    const char *p1 = ZVP_TEST_TMPDIR "/prov1.ini", *p2 = ZVP_TEST_TMPDIR "/prov2.ini";
    zvp_model_file *mf = zvp_model_file_new(zvp_model_find("mmc", NULL)), *back = NULL;
    zvp_error e;
    CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
    memset(key, 'k', 300);
    key[300] = '\0';
    CU_ASSERT_EQUAL(zvp_model_file_set_provenance(mf, key, "long key", &e), ZVP_SUCCESS);
    for (size_t i = 0; i < nv; i++) {
        snprintf(k2, sizeof k2, "v%zu", i);
        CU_ASSERT_EQUAL(zvp_model_file_set_provenance(mf, k2, values[i], &e), ZVP_SUCCESS);
    }
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_write(mf, p1, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(p1, &back, &e), ZVP_SUCCESS);
    CU_ASSERT_PTR_NOT_NULL(zvp_model_file_provenance(back, key));
    CU_ASSERT_STRING_EQUAL(zvp_model_file_provenance(back, key), "long key");
    for (size_t i = 0; i < nv; i++) {
        const char *got;
        snprintf(k2, sizeof k2, "v%zu", i);
        got = zvp_model_file_provenance(back, k2);
        CU_ASSERT_PTR_NOT_NULL_FATAL(got);
        CU_ASSERT_STRING_EQUAL(got, values[i]);
        if (strcmp(got, values[i]) != 0)
            fprintf(stderr, "\nprovenance %s: wrote '%s', read '%s'\n", k2, values[i], got);
    }
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_write(back, p2, &e), ZVP_SUCCESS);
    t1 = slurp(p1);
    t2 = slurp(p2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t2);
    CU_ASSERT_STRING_EQUAL(t1, t2);
    CU_ASSERT_PTR_NOT_NULL(strstr(t1, "v0 = a \\;b\n")); /* the documented escapes */
    CU_ASSERT_PTR_NOT_NULL(strstr(t1, "v5 = \\s lead and trail \\s\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t1, "v3 = C:\\\\data\\\\s.csv\n"));
    free(t1);
    free(t2);
    zvp_model_file_free(back);
    zvp_model_file_free(mf);
}

/* Keys that would not read back, and values that are not one line of UTF-8, are refused
 * when set (naming the key); the same in a file is refused naming the line. */
static void test_provenance_refused(void)
{
    static const char *const bad_keys[] = {"#x", ";x", "", "a=b", "a;b", "[a]", " a", "a ",
                                           "a\nb", "a\x01", "\xff"};
    static const char *const bad_values[] = {"a\nb", "a\rb", "\xff", "\xc3", "\xc0\xaf",
                                             "\xed\xa0\x80", "\xf4\x90\x80\x80", "x\x7f"};
    zvp_model_file *mf = zvp_model_file_new(zvp_model_find("mmc", NULL)), *back = NULL;
    zvp_error e;
    CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
    for (size_t i = 0; i < sizeof bad_keys / sizeof bad_keys[0]; i++)
        CU_ASSERT_EQUAL(zvp_model_file_set_provenance(mf, bad_keys[i], "v", &e), ZVP_EINVAL);
    for (size_t i = 0; i < sizeof bad_values / sizeof bad_values[0]; i++) {
        CU_ASSERT_EQUAL(zvp_model_file_set_provenance(mf, "k", bad_values[i], &e), ZVP_EINVAL);
        CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "provenance k"));
    }
    CU_ASSERT_EQUAL(zvp_model_file_set_provenance(mf, "k", "\xff", &e), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "not valid UTF-8"));
    CU_ASSERT_PTR_NULL(zvp_model_file_provenance(mf, "k"));
    zvp_model_file_free(mf);
    static const char bad_file[] = "[model]\nname = mmc\n[provenance]\nok = 1\nu = \xff\xfe\n";
    CU_ASSERT_EQUAL(zvp_model_file_parse("bad.ini", bad_file, sizeof bad_file - 1, &back, &e),
                    ZVP_EPARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "bad.ini:5: [provenance]"));
    CU_ASSERT_PTR_NULL(back);
}

/* [stderr] must be >= 0 (a negative one is refused naming it); -0 is stored and written as
 * 0, and so is a -0 parameter value. */
static void test_stderr_and_negative_zero(void)
{
    static const char neg[] = "[model]\nname = mmc\n[stderr]\nservers = -0.5\n";
    static const char zero[] = "[model]\nname = mmc\n[parameters]\narrival_rate_per_s = -0\n"
                               "[stderr]\nservice_rate_per_s = -0\n";
    zvp_model_file *mf = NULL;
    zvp_error e;
    char *t;
    const char *out = ZVP_TEST_TMPDIR "/negzero.ini";
    CU_ASSERT_EQUAL(zvp_model_file_parse("neg.ini", neg, sizeof neg - 1, &mf, &e), ZVP_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(e.message, "neg.ini:4: [stderr] servers = -0.5"));
    CU_ASSERT_PTR_NOT_NULL(strstr(e.message, ">= 0"));
    mf = parse_ok(zero);
    CU_ASSERT_EQUAL(zvp_model_file_stderr(mf, 1), 0.0);
    CU_ASSERT(!signbit(zvp_model_file_stderr(mf, 1)));
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_write(mf, out, &e), ZVP_SUCCESS);
    t = slurp(out);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\narrival_rate_per_s = 0\n"));
    CU_ASSERT_PTR_NULL(strstr(t, "-0"));
    free(t);
    zvp_model_file_free(mf);
}

/* A model file of 60,000 lines (provenance keys, comments) loads, linearly (no timing
 * assertion; the keys are appended without a lookup since repeats were refused before). */
/* Which parameters a file set: those of [parameters] (not [stderr]) and those set since by
 * zvp_model_file_set; a parameter the file leaves out keeps its default and reads 0. */
static void test_is_set(void)
{
    static const char text[] = "[model]\nname = mmc\n[parameters]\narrival_rate_per_s = 2.5\n"
                               "[stderr]\nservice_rate_per_s = 0.1\n";
    const char *path = ZVP_TEST_TMPDIR "/mf_is_set.ini";
    zvp_model_file *mf = parse_ok(text), *back = NULL;
    const zvp_model *m = zvp_model_file_model(mf);
    long arr = zvp_model_param_index(m, "arrival_rate_per_s", NULL),
         mu = zvp_model_param_index(m, "service_rate_per_s", NULL),
         c = zvp_model_param_index(m, "servers", NULL);
    zvp_error e = {0};
    CU_ASSERT_FATAL(arr >= 0 && mu >= 0 && c >= 0);
    CU_ASSERT_EQUAL(m->n_params, 3);
    CU_ASSERT_EQUAL(zvp_model_file_is_set(mf, (size_t)arr), 1);
    CU_ASSERT_EQUAL(zvp_model_file_is_set(mf, (size_t)mu), 0); /* a standard error only */
    CU_ASSERT_EQUAL(zvp_model_file_is_set(mf, (size_t)c), 0);
    CU_ASSERT(param(mf, "servers") == 1.0); /* the descriptor's default, kept */
    CU_ASSERT_EQUAL(zvp_model_file_is_set(mf, m->n_params), -1);
    CU_ASSERT_EQUAL(zvp_model_file_is_set(NULL, 0), -1);
    /* a refused value sets nothing; an accepted one counts */
    CU_ASSERT_EQUAL(zvp_model_file_set(mf, "servers", 0.5, &e), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_model_file_is_set(mf, (size_t)c), 0);
    CU_ASSERT_EQUAL(zvp_model_file_set(mf, "servers", 4, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_model_file_is_set(mf, (size_t)c), 1);
    CU_ASSERT_EQUAL(zvp_model_file_is_set(mf, (size_t)mu), 0);
    /* a written file lists every parameter: read back, all are set */
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_write(mf, path, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(path, &back, &e), ZVP_SUCCESS);
    for (size_t i = 0; i < m->n_params; i++)
        CU_ASSERT_EQUAL(zvp_model_file_is_set(back, i), 1);
    zvp_model_file_free(back);
    zvp_model_file_free(mf);
    /* a new handle holds the defaults only */
    mf = zvp_model_file_new(m);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
    for (size_t i = 0; i < m->n_params; i++)
        CU_ASSERT_EQUAL(zvp_model_file_is_set(mf, i), 0);
    zvp_model_file_free(mf);
}

static void test_large_model_file(void)
{
    const char *path = ZVP_TEST_TMPDIR "/large.ini";
    FILE *fp = fopen(path, "w");
    zvp_model_file *mf = NULL;
    zvp_error e;
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    fputs("[model]\nname = mmc\n[parameters]\nservers = 2\n[provenance]\n", fp);
    for (int i = 0; i < 59995; i++)
        fprintf(fp, i % 2 ? "key_%d = value %d ; comment\n" : "; comment %d %d\n", i, i);
    fclose(fp);
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(path, &mf, &e), ZVP_SUCCESS);
    CU_ASSERT_STRING_EQUAL(zvp_model_file_provenance(mf, "key_59993"), "value 59993");
    CU_ASSERT_STRING_EQUAL(zvp_model_file_provenance(mf, "key_1"), "value 1");
    CU_ASSERT_PTR_NULL(zvp_model_file_provenance(mf, "key_2"));
    zvp_model_file_free(mf);
}

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
        !CU_add_test(s, "sweetspot: descriptor check", test_sweetspot_checked) ||
        !CU_add_test(s, "provenance round-trips", test_provenance_round_trip) ||
        !CU_add_test(s, "provenance refused at set time", test_provenance_refused) ||
        !CU_add_test(s, "stderr >= 0, -0 written 0", test_stderr_and_negative_zero) ||
        !CU_add_test(s, "60,000-line model file", test_large_model_file) ||
        !CU_add_test(s, "is_set: what the file set, what kept its default", test_is_set))
        return (int)CU_get_error();
    return 0;
}
