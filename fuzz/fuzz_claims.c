/*
 * fuzz/fuzz_claims.c - libFuzzer harness: claims files (include/zvmperf/claims.h). The input
 * is written to <scratch>/input.csv and read with zvp_claims_read; a set that loads is
 * walked through every accessor and every claim is evaluated (zvp_claim_eval). The
 * documented invariants are checked (a violation aborts, naming it on stderr):
 *   - a failed read leaves *out NULL, returns a documented status and a message that starts
 *     with the file's path;
 *   - every claim as read: id NNN-name, unique (zvp_claims_index finds it at its index),
 *     kind fitted|predicted|identity (and `predicted` agrees), relation < <= > >= ~, a tolerance for
 *     ~ only, the file as given, a line >= 1; every model has a name and a file string;
 *   - every result: status ZVP_SUCCESS (or ZVP_ENOMEM), pass 0 or 1; a claim that passes
 *     has finite lhs and rhs, no reason, and its relation holds (for ~ a finite tolerance
 *     >= 0, NaN for an inequality); a claim that fails gives a reason; evaluating the
 *     first claim twice gives the same result;
 *   - out-of-range indexes and an unknown id are errors with a message.
 * Claims are evaluated in file order until EVAL_BUDGET_S seconds have passed (the first one
 * always): one term of the calibrated cms model costs about 0.2 s under the sanitizers, so a
 * file of a few dozen such claims would exceed the 10 s timeout without being a defect.
 * Confinement (fuzz/README.md): the calls run with the scratch directory as the working
 * directory (changed into and back around each input), which holds copies of
 * calibration/params (the search directory) and tests/data/claims (the seeds name
 * tests/data/claims/mm2.ini); a MODEL that is a path is read there. An input that could name
 * a file outside it is skipped: one containing "..", or a '/' whose preceding character
 * (blanks skipped) is none of a letter, a digit, '_', '.', ')' or ']' (an absolute path
 * starts a term only after an operator, '(', a cell start or a blank; after the others a
 * '/' is a division or inside a relative path).
 */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "zvmperf/zvmperf.h"
#include "common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define IN_NAME "input.csv"
#define EVAL_BUDGET_S 2.0

static const char *const search_dirs[2] = {"no-such-dir", "calibration/params"};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    char dir[FUZZ_PATH_MAX];
    (void)argc;
    (void)argv;
    zvp_init();
    snprintf(dir, sizeof dir, "%s/calibration", fuzz_scratch());
    mkdir(dir, 0755);
    snprintf(dir, sizeof dir, "%s/tests", fuzz_scratch());
    mkdir(dir, 0755);
    snprintf(dir, sizeof dir, "%s/tests/data", fuzz_scratch());
    mkdir(dir, 0755);
    fuzz_copy_dir("calibration/params", "calibration/params", ".ini");
    fuzz_copy_dir("tests/data/claims", "tests/data/claims", ".ini");
    return 0;
}

static void violated(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_claims: invariant violated: %s (%s)\n", what, detail ? detail : "");
    abort();
}

#define CHECK(cond, detail)                                                                    \
    do {                                                                                       \
        if (!(cond))                                                                           \
            violated(#cond, detail);                                                           \
    } while (0)

/* 1 when nothing in the input can name a file outside the working directory. */
static int confined(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < size; i++) {
        size_t j = i;
        if (data[i] == '.' && i + 1 < size && data[i + 1] == '.')
            return 0;
        if (data[i] != '/')
            continue;
        while (j > 0 && (data[j - 1] == ' ' || data[j - 1] == '\t'))
            j--;
        if (j == 0)
            return 0;
        if (!isalnum(data[j - 1]) && !strchr("_.)]", data[j - 1]))
            return 0;
    }
    return 1;
}

static int message_ok(const zvp_error *e)
{
    return e->message[0] != '\0' && memchr(e->message, '\0', sizeof e->message) != NULL;
}

static int id_ok(const char *id)
{
    size_t n = strlen(id);
    if (n < 5 || !isdigit((unsigned char)id[0]) || !isdigit((unsigned char)id[1]) ||
        !isdigit((unsigned char)id[2]) || id[3] != '-')
        return 0;
    for (size_t k = 4; k < n; k++)
        if (!isalnum((unsigned char)id[k]) && !strchr("-_.", id[k]))
            return 0;
    return 1;
}

static void check_info(const zvp_claims *c, size_t i)
{
    zvp_claim_info in;
    zvp_error e = {0};
    const char *r;
    CHECK(zvp_claims_info(c, i, &in, &e) == ZVP_SUCCESS, e.message);
    r = in.relation;
    CHECK(in.id && in.kind && in.source && in.statement && in.lhs && in.relation && in.rhs &&
              in.tolerance && in.file, "a NULL string in zvp_claim_info");
    CHECK(id_ok(in.id), in.id);
    CHECK(in.source[0] && in.statement[0] && in.lhs[0] && in.rhs[0], in.id);
    CHECK(((strcmp(in.kind, "fitted") == 0 || strcmp(in.kind, "identity") == 0) &&
           !in.predicted) || (strcmp(in.kind, "predicted") == 0 && in.predicted == 1), in.kind);
    CHECK(!strcmp(r, "<") || !strcmp(r, "<=") || !strcmp(r, ">") || !strcmp(r, ">=") ||
              !strcmp(r, "~"), r);
    CHECK((strcmp(r, "~") == 0) == (in.tolerance[0] != '\0'), in.tolerance);
    CHECK(strcmp(in.file, IN_NAME) == 0, in.file);
    CHECK(in.line >= 1, in.id);
    CHECK(zvp_claims_index(c, in.id, &e) == (long)i, in.id);
}

/* The relation of claim i holds for r (r->lhs, r->rhs finite). */
static int holds(const zvp_claims *c, size_t i, const zvp_claim_result *r)
{
    zvp_claim_info in;
    zvp_error e;
    const char *rel;
    if (zvp_claims_info(c, i, &in, &e))
        return 0;
    rel = in.relation;
    if (strcmp(rel, "~") == 0)
        return isfinite(r->tolerance) && r->tolerance >= 0 &&
               fabs(r->lhs - r->rhs) <= r->tolerance;
    if (!isnan(r->tolerance))
        return 0;
    if (strcmp(rel, "<") == 0)
        return r->lhs < r->rhs;
    if (strcmp(rel, "<=") == 0)
        return r->lhs <= r->rhs;
    if (strcmp(rel, ">") == 0)
        return r->lhs > r->rhs;
    return r->lhs >= r->rhs;
}

static void check_result(const zvp_claims *c, size_t i, zvp_claim_result *r)
{
    zvp_error e = {0};
    int st = zvp_claim_eval(c, i, r, &e);
    if (st == ZVP_ENOMEM) {
        CHECK(message_ok(&e), "ENOMEM without a message");
        return;
    }
    CHECK(st == ZVP_SUCCESS, e.message);
    CHECK(memchr(r->reason, '\0', sizeof r->reason) != NULL, "reason not terminated");
    CHECK(r->pass == 0 || r->pass == 1, r->reason);
    if (r->pass) {
        CHECK(isfinite(r->lhs) && isfinite(r->rhs), "a passing claim with a non-finite side");
        CHECK(r->reason[0] == '\0', r->reason);
        CHECK(holds(c, i, r), "a passing claim whose relation does not hold");
    } else {
        CHECK(r->reason[0] != '\0', "a failing claim without a reason");
    }
}

static int same(double a, double b)
{
    return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void walk(const zvp_claims *c)
{
    const double t0 = now_s();
    size_t n = zvp_claims_count(c), nm = zvp_claims_models(c);
    zvp_claim_info in;
    zvp_claim_result r, first;
    zvp_error e = {0};
    for (size_t k = 0; k < nm; k++) {
        const char *name = NULL, *file = NULL;
        CHECK(zvp_claims_model(c, k, &name, &file, &e) == ZVP_SUCCESS, e.message);
        CHECK(name && name[0] && file, "a model without a name or file string");
    }
    CHECK(zvp_claims_model(c, nm, NULL, NULL, &e) == ZVP_EINVAL && message_ok(&e),
          "zvp_claims_model out of range");
    CHECK(zvp_claims_info(c, n, &in, &e) == ZVP_EINVAL && message_ok(&e),
          "zvp_claims_info out of range");
    CHECK(zvp_claim_eval(c, n, &r, &e) == ZVP_EINVAL && message_ok(&e),
          "zvp_claim_eval out of range");
    CHECK(zvp_claims_index(c, "not an id", &e) == -1 && e.status == ZVP_ENOTFOUND &&
              message_ok(&e), "zvp_claims_index of an unknown id");
    for (size_t i = 0; i < n; i++)
        check_info(c, i);
    for (size_t i = 0; i < n && (i == 0 || now_s() - t0 < EVAL_BUDGET_S); i++) {
        check_result(c, i, &r);
        if (i == 0)
            first = r;
    }
    if (n > 0) {
        check_result(c, 0, &r);
        CHECK(r.pass == first.pass && same(r.lhs, first.lhs) && same(r.rhs, first.rhs) &&
                  same(r.tolerance, first.tolerance) && strcmp(r.reason, first.reason) == 0,
              "claim 0 evaluated twice gives two results");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const paths[1] = {IN_NAME};
    const zvp_claims_options opt = {search_dirs, 2};
    static int sentinel;
    zvp_claims *c = (zvp_claims *)(void *)&sentinel; /* a failed read must reset it to NULL */
    zvp_error e = {0};
    int cwd, st;
    if (!confined(data, size) || (cwd = open(".", O_RDONLY | O_DIRECTORY)) < 0)
        return 0;
    if (chdir(fuzz_scratch()) != 0)
        abort();
    fuzz_write_file(IN_NAME, data, size);
    st = zvp_claims_read(paths, 1, &opt, &c, &e);
    if (st != ZVP_SUCCESS) {
        CHECK(c == NULL, "*out not NULL after a failed read");
        CHECK(st == ZVP_EIO || st == ZVP_EPARSE || st == ZVP_ENOTFOUND || st == ZVP_EINVAL ||
                  st == ZVP_ENOMEM, e.message);
        CHECK(e.status == st && message_ok(&e), "a failed read without its status or message");
        CHECK(strncmp(e.message, IN_NAME, strlen(IN_NAME)) == 0, e.message);
    } else {
        CHECK(c != NULL && c != (zvp_claims *)(void *)&sentinel, "no set after a successful read");
        walk(c);
        zvp_claims_free(c);
    }
    if (fchdir(cwd) != 0)
        abort();
    close(cwd);
    return 0;
}
