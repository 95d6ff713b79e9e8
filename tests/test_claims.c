/* tests/test_claims.c - the claims evaluator (include/zvmperf/claims.h, src/claims/).
 * Expression values are worked by hand (noted at each test); model terms are checked against
 * closed forms written here independently of the library's kernels: M/M/c (Erlang C) and the
 * finite-source M/M/1//N by its birth-death balance equations. The fixtures are written into
 * tmp/ by each test (tests run in tests/). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"

#define HDR ZVP_CLAIMS_HEADER "\n"
#define TMP ZVP_TEST_TMPDIR "/claims_"

/* Write text to tmp/claims_<name>.csv and read it as one set (NULL on error, err filled). */
static zvp_claims *read_text(const char *name, const char *text, zvp_error *err)
{
    char path[256];
    const char *paths[1] = {path};
    zvp_claims *c = NULL;
    snprintf(path, sizeof path, TMP "%s.csv", name);
    zvp_test_write_file(path, text);
    zvp_error_clear(err);
    zvp_claims_read(paths, 1, NULL, &c, err);
    return c;
}

/* The lhs value of claim i (fatal unless it evaluates). */
static double lhs_of(const zvp_claims *c, size_t i)
{
    zvp_claim_result r;
    zvp_error e;
    CU_ASSERT_EQUAL_FATAL(zvp_claim_eval(c, i, &r, &e), ZVP_SUCCESS);
    if (r.reason[0] && isnan(r.lhs))
        fprintf(stderr, "claim %zu: %s\n", i, r.reason);
    return r.lhs;
}

/* Precedence, associativity, unary minus, parentheses, exponents: values by hand. */
static void test_parser_arithmetic(void)
{
    static const struct {
        const char *expr;
        double want;
    } cases[] = {
        {"1+2*3", 7},        {"(1+2)*3", 9},     {"2-3-4", -5},      {"8/4/2", 1},
        {"-2*3", -6},        {"--2", 2},         {"2*-3", -6},       {"-(1+2)", -3},
        {"1e2/4", 25},       {" 2 * ( 3 + 4 ) ", 14}, {"+5-+2", 3},  {"2.5E-1*8", 2},
        {"1-2*3+4/2", -3},   {"((((7))))", 7},   {"-2-2", -4},       {"10/4*2", 5},
    };
    char text[4096];
    size_t used = (size_t)snprintf(text, sizeof text, HDR);
    zvp_error err;
    zvp_claims *c;
    size_t n = sizeof cases / sizeof cases[0];
    for (size_t i = 0; i < n; i++)
        used += (size_t)snprintf(text + used, sizeof text - used,
                                 "001-e%zu,fitted,here,s,\"%s\",<,1e300,\n", i, cases[i].expr);
    c = read_text("arith", text, &err);
    if (!c)
        fprintf(stderr, "%s\n", err.message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(zvp_claims_count(c), n);
    CU_ASSERT_EQUAL(zvp_claims_models(c), 0);
    for (size_t i = 0; i < n; i++) {
        double v = lhs_of(c, i);
        CU_ASSERT_DOUBLE_EQUAL(v, cases[i].want, 1e-12);
        if (fabs(v - cases[i].want) > 1e-12)
            fprintf(stderr, "%s = %g, want %g\n", cases[i].expr, v, cases[i].want);
    }
    zvp_claims_free(c);
}

/* Erlang C, independently: C(c, a) = [a^c/c! c/(c-a)] / [sum_{k<c} a^k/k! + a^c/c! c/(c-a)]. */
static double erlang_c(unsigned c, double a)
{
    double term = 1, sum = 0;
    for (unsigned k = 0; k < c; k++) {
        sum += term;
        term *= a / (k + 1);
    }
    term *= c / (c - a);
    return term / (sum + term);
}

/* Finite-source M/M/1//N by balance: p_{k+1} = p_k (N-k)/Z * S; X = (1 - p_0) / S. */
static double repairman_x(unsigned n, double z, double s)
{
    double p = 1, sum = 1;
    for (unsigned k = 0; k < n; k++) {
        p *= (n - k) / z * s;
        sum += p;
    }
    return (1 - 1 / sum) / s;
}

static void test_closed_forms(void)
{
    zvp_error err;
    zvp_claims *c = read_text("closed", HDR
        "001-mmc-r,predicted,here,s,mmc:response_s[arrival_rate_per_s=1;service_rate_per_s=1;servers=2],>,0,\n"
        "001-mmc-w,predicted,here,s,mmc:wait_s[arrival_rate_per_s=3.5; service_rate_per_s=1 ;servers=5],>,0,\n"
        "001-mmc-ratio,fitted,here,s,mmc:response_s[arrival_rate_per_s=1;servers=2]/mmc:response_s[arrival_rate_per_s=0.5],>,0,\n"
        "001-rep-x,predicted,here,s,repairman:throughput_per_s[sources=2;think_s=2;service_s=1;servers=1],>,0,\n"
        "001-rep-r,predicted,here,s,repairman:response_s[sources=7;think_s=3;service_s=0.5],>,0,\n",
        &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(zvp_claims_models(c), 2); /* mmc and repairman, each loaded once */
    {
        const char *file = NULL;
        CU_ASSERT_EQUAL(zvp_claims_model(c, 1, NULL, &file, &err), ZVP_SUCCESS);
        CU_ASSERT_STRING_EQUAL(file, ""); /* a registered model's defaults */
    }
    /* M/M/2, lambda = mu = 1: C = 1/3 (by hand), W = C / (2 - 1) + 1 = 4/3 */
    ZVP_ASSERT_REL(lhs_of(c, 0), 4.0 / 3.0, 1e-12);
    ZVP_ASSERT_REL(lhs_of(c, 0), erlang_c(2, 1.0) / (2 - 1.0) + 1, 1e-12);
    /* M/M/5, a = 3.5: Wq = C(5, 3.5) / (5 - 3.5) */
    ZVP_ASSERT_REL(lhs_of(c, 1), erlang_c(5, 3.5) / 1.5, 1e-12);
    /* ratio against the M/M/1 at lambda 0.5, mu 1 (the defaults): R = 1 / (1 - 0.5) = 2 */
    ZVP_ASSERT_REL(lhs_of(c, 2), (4.0 / 3.0) / 2.0, 1e-12);
    /* N = 2, Z = 2, S = 1: p = (0.4, 0.4, 0.2) by hand, X = 0.6 */
    ZVP_ASSERT_REL(lhs_of(c, 3), 0.6, 1e-12);
    ZVP_ASSERT_REL(lhs_of(c, 3), repairman_x(2, 2, 1), 1e-12);
    /* response by Little's law on the closed loop: R = N / X - Z */
    ZVP_ASSERT_REL(lhs_of(c, 4), 7 / repairman_x(7, 3, 0.5) - 3, 1e-10);
    zvp_claims_free(c);
}

/* Relations and tolerances: absolute, percentage of |rhs|, inequalities both ways. */
static void test_relations(void)
{
    static const struct {
        const char *row;
        int pass;
        double tol;
    } cases[] = {
        {"1,<,2,", 1, NAN},      {"2,<,2,", 0, NAN},      {"2,<=,2,", 1, NAN},
        {"3,<=,2,", 0, NAN},     {"3,>,2,", 1, NAN},      {"2,>,2,", 0, NAN},
        {"2,>=,2,", 1, NAN},     {"1,>=,2,", 0, NAN},     {"1,~,1.5,0.5", 1, 0.5},
        {"1,~,1.5,0.49", 0, 0.49}, {"1,~,1.05,5%", 1, 0.0525}, {"1,~,1.1,5%", 0, 0.055},
        {"-1,~,-1.04,4%", 1, 0.0416}, {"0,~,0,0", 1, 0},  {"1,~,-1,200%", 1, 2},
        /* |lhs - rhs| = 1.1e308 > 200% of 1e307 = 2e307 (passed once: tol * |rhs|
         * overflowed before the / 100; found by fuzz/fuzz_claims.c) */
        {"-1e308,~,1e307,200%", 0, 2e307},
        /* 1e308% of 1e300 is not a finite number: the claim fails, saying so */
        {"1,~,1e300,1e308%", 0, INFINITY},
    };
    char text[4096];
    size_t used = (size_t)snprintf(text, sizeof text, HDR);
    size_t n = sizeof cases / sizeof cases[0];
    zvp_error err;
    zvp_claims *c;
    for (size_t i = 0; i < n; i++)
        used += (size_t)snprintf(text + used, sizeof text - used,
                                 "002-r%zu,predicted,here,s,%s\n", i, cases[i].row);
    c = read_text("rel", text, &err);
    if (!c)
        fprintf(stderr, "%s\n", err.message);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    for (size_t i = 0; i < n; i++) {
        zvp_claim_result r;
        CU_ASSERT_EQUAL_FATAL(zvp_claim_eval(c, i, &r, &err), ZVP_SUCCESS);
        CU_ASSERT_EQUAL(r.pass, cases[i].pass);
        CU_ASSERT_EQUAL(r.reason[0] == '\0', cases[i].pass);
        if (isnan(cases[i].tol)) {
            CU_ASSERT(isnan(r.tolerance));
        } else if (isinf(cases[i].tol)) {
            CU_ASSERT(isinf(r.tolerance));
            CU_ASSERT(strstr(r.reason, "overflows") != NULL);
        } else {
            CU_ASSERT_DOUBLE_EQUAL(r.tolerance, cases[i].tol, 1e-15);
        }
        if (r.pass != cases[i].pass)
            fprintf(stderr, "relation case %s: pass %d (%s)\n", cases[i].row, r.pass, r.reason);
    }
    zvp_claim_result r;
    zvp_claim_eval(c, 11, &r, &err);
    CU_ASSERT(strstr(r.reason, "tolerance") != NULL);
    zvp_claim_eval(c, 1, &r, &err);
    CU_ASSERT(strstr(r.reason, "does not hold") != NULL);
    zvp_claims_free(c);
}

/* At most 1000 binary operators in one expression: a chain 1+1+...+1 is a tree as deep as
 * it is long, which evaluating and freeing recurse along (a million of them overflowed the
 * stack). 1000 operators: 1001 ones, value 1001 by hand; 1001 operators: an error. */
static void test_operator_limit(void)
{
    static char text[8192];
    size_t used = (size_t)snprintf(text, sizeof text, HDR "007-a,fitted,here,s,1");
    zvp_error err;
    zvp_claims *c;
    for (int k = 0; k < 1000; k++)
        used += (size_t)snprintf(text + used, sizeof text - used, "+1");
    snprintf(text + used, sizeof text - used, ",<,1e300,\n");
    c = read_text("ops", text, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_DOUBLE_EQUAL(lhs_of(c, 0), 1001, 0);
    zvp_claims_free(c);
    snprintf(text + used, sizeof text - used, "+1,<,1e300,\n");
    c = read_text("ops", text, &err);
    CU_ASSERT_PTR_NULL(c);
    CU_ASSERT_EQUAL(err.status, ZVP_EPARSE);
    CU_ASSERT(zvp_test_msg_has(&err, "more than 1000 operators"));
    CU_ASSERT(zvp_test_msg_has(&err, "claim 007-a"));
    zvp_claims_free(c);
}

/* Division by zero and a point with no steady state: the claim fails with the reason. */
static void test_failing_points(void)
{
    zvp_error err;
    zvp_claim_result r;
    zvp_claims *c = read_text("fail", HDR
        "003-div,fitted,here,s,1/(2-2),<,1,\n"
        "003-unstable,fitted,here,s,1,<,mmc:response_s[arrival_rate_per_s=3;servers=2],\n"
        "003-ok,fitted,here,s,mmc:utilization[arrival_rate_per_s=1.5;servers=2],~,0.75,1e-12\n",
        &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(zvp_claim_eval(c, 0, &r, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(r.pass, 0);
    CU_ASSERT(isnan(r.lhs));
    CU_ASSERT(strstr(r.reason, "division by zero") != NULL);
    CU_ASSERT(strstr(r.reason, "lhs") != NULL);
    CU_ASSERT_EQUAL(zvp_claim_eval(c, 1, &r, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(r.pass, 0);
    CU_ASSERT_DOUBLE_EQUAL(r.lhs, 1, 0);
    CU_ASSERT(isnan(r.rhs));
    CU_ASSERT(strstr(r.reason, "rhs") != NULL);
    CU_ASSERT(strstr(r.reason, "no steady state") != NULL);
    CU_ASSERT(strstr(r.reason, "mmc:response_s[arrival_rate_per_s=3;servers=2]") != NULL);
    /* utilization = lambda / (c mu) = 1.5 / 2, by hand */
    CU_ASSERT_EQUAL(zvp_claim_eval(c, 2, &r, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(r.pass, 1);
    CU_ASSERT_EQUAL(zvp_claim_eval(c, 3, &r, &err), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&err, "out of range"));
    zvp_claims_free(c);
}

/* One bad row: zvp_claims_read fails with `status` and every needle in the message. */
static void expect_error(const char *row, int status, const char *n1, const char *n2,
                         const char *n3)
{
    char text[2048];
    zvp_error err;
    zvp_claims *c;
    snprintf(text, sizeof text, HDR "004-fine,fitted,here,s,1,<,2,\n%s\n", row);
    c = read_text("err", text, &err);
    CU_ASSERT_PTR_NULL(c);
    CU_ASSERT_EQUAL(err.status, status);
    const char *needles[3] = {n1, n2, n3};
    for (size_t k = 0; k < 3; k++)
        if (needles[k]) {
            CU_ASSERT(zvp_test_msg_has(&err, needles[k]));
            if (!zvp_test_msg_has(&err, needles[k]))
                fprintf(stderr, "row %s: message '%s' lacks '%s'\n", row, err.message, needles[k]);
        }
    CU_ASSERT(zvp_test_msg_has(&err, "claims_err.csv:3"));
    zvp_claims_free(c);
}

static void test_errors(void)
{
    expect_error("004-k,guessed,here,s,1,<,2,", ZVP_EPARSE, "kind 'guessed'",
                 "fitted, predicted or identity", "claim 004-k");
    expect_error("004-r,fitted,here,s,1,=,2,", ZVP_EPARSE, "relation '='", "< <= > >= or ~",
                 NULL);
    expect_error("004-t,fitted,here,s,1,<,2,3", ZVP_EPARSE, "tolerance '3'", "inequality", NULL);
    expect_error("004-m,fitted,here,s,1,~,2,", ZVP_EPARSE, "needs a tolerance", NULL, NULL);
    expect_error("004-n,fitted,here,s,1,~,2,-1", ZVP_EPARSE, "tolerance '-1'", ">= 0", NULL);
    expect_error("004-p,fitted,here,s,1,~,2,x%", ZVP_EPARSE, "tolerance 'x%'", NULL, NULL);
    expect_error("004-fine,fitted,here,s,1,<,2,", ZVP_EINVAL, "duplicate id",
                 "claims_err.csv:2", NULL);
    expect_error("bad id,fitted,here,s,1,<,2,", ZVP_EPARSE, "id 'bad id'", "NNN-name", NULL);
    expect_error("004-e,fitted,,s,1,<,2,", ZVP_EPARSE, "source cell is empty", NULL, NULL);
    expect_error("004-x,fitted,here,s,1 + * 2,<,2,", ZVP_EPARSE, "unexpected '*'", "column 5",
                 "lhs");
    expect_error("004-x,fitted,here,s,1,<,(1+2,", ZVP_EPARSE, "rhs", "end of expression",
                 "')'");
    expect_error("004-x,fitted,here,s,1 2,<,2,", ZVP_EPARSE, "unexpected '2'", "operator", NULL);
    expect_error("004-x,fitted,here,s,1..2,<,2,", ZVP_EPARSE, "'1..2'", "not a finite", NULL);
    /* a model name ending the text: the scan stops at its end (it read past it once; found
     * by fuzz/fuzz_claims.c) */
    expect_error("004-x,fitted,here,s,mmc,<,2,", ZVP_EPARSE, "':' after the model name",
                 "unexpected end of expression at column 4 of 'mmc'", NULL);
    expect_error("004-x,fitted,here,s,1+a/b.c-d_e,<,2,", ZVP_EPARSE, "':' after the model name",
                 "unexpected end of expression at column 12 of '1+a/b.c-d_e'", NULL);
    expect_error("004-x,fitted,here,s,nosuchmodel:x,<,2,", ZVP_ENOTFOUND, "nosuchmodel",
                 "registered", NULL);
    expect_error("004-x,fitted,here,s,mmc:nosuch,<,2,", ZVP_ENOTFOUND, "nosuch",
                 "response_s", NULL);
    expect_error("004-x,fitted,here,s,mmc:wait_s[bogus=1],<,2,", ZVP_ENOTFOUND, "bogus",
                 "arrival_rate_per_s", NULL);
    expect_error("004-x,fitted,here,s,mmc:wait_s[servers=0],<,2,", ZVP_EINVAL, "servers = 0",
                 "out of range", "[1, 1");
    expect_error("004-x,fitted,here,s,mmc:wait_s[servers=1.5],<,2,", ZVP_EINVAL, "servers",
                 "integer", NULL);
    expect_error("004-x,fitted,here,s,mmc:wait_s[servers=1;servers=2],<,2,", ZVP_EINVAL,
                 "given twice", NULL, NULL);
    expect_error("004-x,fitted,here,s,mmc:wait_s[servers=1,<,2,", ZVP_EPARSE, "';'", "']'",
                 NULL);
    expect_error("004-x,fitted,here,s,mmc:wait_s[servers],<,2,", ZVP_EPARSE, "'='", NULL, NULL);
    expect_error("004-x,fitted,here,s,mmc:wait_s[servers=inf],<,2,", ZVP_EPARSE,
                 "a number after NAME=", NULL, NULL);
    /* a decimal number beyond the double range is named as such, in the CLI's words
     * (DBL_MAX is about 1.8e308, the smallest subnormal about 4.9e-324) */
    expect_error("004-x,fitted,here,s,mmc:wait_s[arrival_rate_per_s=1e400],<,2,", ZVP_EPARSE,
                 "'1e400' at column 31 is too large to represent (overflow)", "lhs", NULL);
    expect_error("004-x,fitted,here,s,mmc:wait_s[arrival_rate_per_s=1e-400],<,2,", ZVP_EPARSE,
                 "'1e-400' at column 31 is too small to represent (underflow)", NULL, NULL);
    expect_error("004-x,fitted,here,s,mmc:wait_s[arrival_rate_per_s=-2.5e-330],<,2,",
                 ZVP_EPARSE, "'2.5e-330' at column 32 is too small to represent (underflow)",
                 NULL, NULL);
    expect_error("004-x,fitted,here,s,1,<,2 * 1e999,", ZVP_EPARSE,
                 "'1e999' at column 5 is too large to represent (overflow)", "rhs", NULL);
    /* a subnormal is a number; 0e-400 is exactly 0 */
    expect_error("004-x,fitted,here,s,1,<,2 * 1e-310 * 0e-400 * 1.2.3,", ZVP_EPARSE,
                 "'1.2.3' at column 23 is not a finite decimal number", NULL, NULL);
}

/* The header must be exact; the ragged-row error of the CSV reader names the line. */
static void test_file_errors(void)
{
    zvp_error err;
    const char *none[1] = {ZVP_TEST_TMPDIR "/claims_missing.csv"};
    zvp_claims *c = read_text("hdr", "id,kind,source,statement,lhs,relation,rhs\n", &err);
    CU_ASSERT_PTR_NULL(c);
    CU_ASSERT_EQUAL(err.status, ZVP_EPARSE);
    CU_ASSERT(zvp_test_msg_has(&err, "header must be exactly"));
    c = read_text("ragged", HDR "004-a,fitted,here,s,1,<,2\n", &err);
    CU_ASSERT_PTR_NULL(c);
    CU_ASSERT(zvp_test_msg_has(&err, "claims_ragged.csv:2"));
    CU_ASSERT_EQUAL(zvp_claims_read(none, 1, NULL, &c, &err), ZVP_EIO);
    CU_ASSERT_EQUAL(zvp_claims_read(none, 0, NULL, &c, &err), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_claims_read(NULL, 1, NULL, &c, &err), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_claims_read(none, 1, NULL, NULL, &err), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_claims_count(NULL), 0);
    zvp_claims_free(NULL);
}

/* Two files: ids unique across them, lines and files reported, lookup by id. */
static void test_two_files_and_info(void)
{
    const char *paths[2] = {TMP "a.csv", TMP "b.csv"};
    zvp_claims *c = NULL;
    zvp_claim_info in;
    zvp_error err;
    zvp_test_write_file(paths[0], "# a comment\n" HDR "\n005-a,fitted,\"report 000, Table 3\","
                        "\"a, b\",1,<,2,\n");
    zvp_test_write_file(paths[1], HDR "005-b,predicted,src,st,1,~,1,10%\n"
                        "005-c,identity,src,st,1-1,~,0,1e-12\n");
    CU_ASSERT_EQUAL_FATAL(zvp_claims_read(paths, 2, NULL, &c, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_claims_count(c), 3);
    CU_ASSERT_EQUAL(zvp_claims_info(c, 0, &in, &err), ZVP_SUCCESS);
    CU_ASSERT_STRING_EQUAL(in.source, "report 000, Table 3");
    CU_ASSERT_STRING_EQUAL(in.statement, "a, b");
    CU_ASSERT_STRING_EQUAL(in.file, paths[0]);
    CU_ASSERT_EQUAL(in.line, 4);
    CU_ASSERT_EQUAL(in.predicted, 0);
    CU_ASSERT_STRING_EQUAL(in.tolerance, "");
    CU_ASSERT_EQUAL(zvp_claims_info(c, 1, &in, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(in.predicted, 1);
    CU_ASSERT_STRING_EQUAL(in.kind, "predicted");
    CU_ASSERT_STRING_EQUAL(in.relation, "~");
    CU_ASSERT_STRING_EQUAL(in.tolerance, "10%");
    CU_ASSERT_EQUAL(in.line, 2);
    /* kind identity: read as written, not a prediction */
    CU_ASSERT_EQUAL(zvp_claims_info(c, 2, &in, &err), ZVP_SUCCESS);
    CU_ASSERT_STRING_EQUAL(in.kind, "identity");
    CU_ASSERT_EQUAL(in.predicted, 0);
    CU_ASSERT_EQUAL(zvp_claims_index(c, "005-b", &err), 1);
    CU_ASSERT_EQUAL(zvp_claims_index(c, "005-z", &err), -1);
    CU_ASSERT_EQUAL(err.status, ZVP_ENOTFOUND);
    CU_ASSERT_EQUAL(zvp_claims_info(c, 3, &in, &err), ZVP_EINVAL);
    zvp_claims_free(c);
    /* the same id in the second file */
    zvp_test_write_file(paths[1], HDR "005-a,predicted,src,st,1,~,1,10%\n");
    CU_ASSERT_EQUAL(zvp_claims_read(paths, 2, NULL, &c, &err), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&err, "claims_b.csv:2: claim 005-a: duplicate id"));
    CU_ASSERT(zvp_test_msg_has(&err, "claims_a.csv:4"));
}

/* Model lookup: a path, a calibrated file in a search directory, a registered model. */
static void test_model_lookup(void)
{
    const char *dirs[2] = {TMP "nodir", ZVP_TEST_TMPDIR};
    const char *paths[1] = {TMP "lookup.csv"};
    zvp_claims_options o = {dirs, 2};
    zvp_model_file *mf = NULL;
    zvp_claims *c = NULL;
    zvp_error err;
    char found[256];
    zvp_test_write_file(ZVP_TEST_TMPDIR "/claims_mm.ini",
                        "[model]\nname = mmc\n[parameters]\narrival_rate_per_s = 1\nservers = 2\n");
    CU_ASSERT_EQUAL(zvp_model_file_open("claims_mm", dirs, 2, &mf, found, sizeof found, &err),
                    ZVP_SUCCESS);
    CU_ASSERT_STRING_EQUAL(found, ZVP_TEST_TMPDIR "/claims_mm.ini");
    CU_ASSERT_DOUBLE_EQUAL(zvp_model_file_params(mf)[2], 2, 0);
    zvp_model_file_free(mf);
    CU_ASSERT_EQUAL(zvp_model_file_open("mmc", dirs, 2, &mf, found, sizeof found, &err),
                    ZVP_SUCCESS);
    CU_ASSERT_STRING_EQUAL(found, "");
    zvp_model_file_free(mf);
    CU_ASSERT_EQUAL(zvp_model_file_open("claims_nosuch", dirs, 2, &mf, found, sizeof found,
                                        &err), ZVP_ENOTFOUND);
    CU_ASSERT_PTR_NULL(mf);
    CU_ASSERT(zvp_test_msg_has(&err, TMP "nodir"));
    CU_ASSERT(zvp_test_msg_has(&err, "repairman"));
    CU_ASSERT_EQUAL(zvp_model_file_open("", dirs, 2, &mf, NULL, 0, &err), ZVP_EINVAL);
    /* a claim on the file by name and by path: M/M/2 at lambda = mu = 1, R = 4/3 */
    zvp_test_write_file(paths[0], HDR
                        "006-a,fitted,x,y,claims_mm:response_s,~,4/3,1e-12\n"
                        "006-b,fitted,x,y," ZVP_TEST_TMPDIR "/claims_mm.ini:response_s,~,4/3,1e-12\n"
                        "006-c,fitted,x,y,claims_mm:response_s[servers=1;arrival_rate_per_s=0.5],~,2,1e-12\n");
    CU_ASSERT_EQUAL_FATAL(zvp_claims_read(paths, 1, &o, &c, &err), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_claims_models(c), 2);
    {
        const char *name = NULL, *file = NULL;
        CU_ASSERT_EQUAL(zvp_claims_model(c, 0, &name, &file, &err), ZVP_SUCCESS);
        CU_ASSERT_STRING_EQUAL(name, "claims_mm");
        CU_ASSERT_STRING_EQUAL(file, ZVP_TEST_TMPDIR "/claims_mm.ini");
        CU_ASSERT_EQUAL(zvp_claims_model(c, 1, &name, &file, &err), ZVP_SUCCESS);
        CU_ASSERT_STRING_EQUAL(name, ZVP_TEST_TMPDIR "/claims_mm.ini");
        CU_ASSERT_EQUAL(zvp_claims_model(c, 2, &name, &file, &err), ZVP_EINVAL);
    }
    for (size_t i = 0; i < 3; i++) {
        zvp_claim_result r;
        CU_ASSERT_EQUAL(zvp_claim_eval(c, i, &r, &err), ZVP_SUCCESS);
        CU_ASSERT_EQUAL(r.pass, 1);
    }
    zvp_claims_free(c);
    /* the default search directory (calibration/params) does not hold it */
    CU_ASSERT_EQUAL(zvp_claims_read(paths, 1, NULL, &c, &err), ZVP_ENOTFOUND);
    CU_ASSERT(zvp_test_msg_has(&err, "claims_lookup.csv:2: claim 006-a"));
}

int zvp_test_register_claims(void)
{
    CU_pSuite s = CU_add_suite("claims", NULL, NULL);
    if (!s || !CU_add_test(s, "parser_arithmetic", test_parser_arithmetic) ||
        !CU_add_test(s, "closed_forms", test_closed_forms) ||
        !CU_add_test(s, "relations", test_relations) ||
        !CU_add_test(s, "operator_limit", test_operator_limit) ||
        !CU_add_test(s, "failing_points", test_failing_points) ||
        !CU_add_test(s, "errors", test_errors) ||
        !CU_add_test(s, "file_errors", test_file_errors) ||
        !CU_add_test(s, "two_files_and_info", test_two_files_and_info) ||
        !CU_add_test(s, "model_lookup", test_model_lookup))
        return CU_get_error();
    return 0;
}
