/* tests/tests.h - the CUnit suites and shared test helpers. */
#ifndef ZVP_TESTS_H
#define ZVP_TESTS_H
#include <CUnit/CUnit.h>
#include <math.h>

/* Each test module registers its suite; returns 0 on success (CUnit error otherwise). */
#define ZVP_TEST_SUITE(name) int zvp_test_register_##name(void);
#include "suites.def"
#undef ZVP_TEST_SUITE

/* Relative-tolerance assertion (CUnit's DOUBLE_EQUAL is absolute). */
#define ZVP_ASSERT_REL(actual, expected, rel)                                              \
    CU_ASSERT(fabs((actual) - (expected)) <= (rel) * fabs(expected))

/* Tests run with the working directory tests/; scratch files go to tmp/ there. */
#define ZVP_TEST_TMPDIR "tmp"
/* ---- shared helpers (tests/helpers.c) ------------------------------------------------------ */
#include <stddef.h>
#include "zvmperf/zvmperf.h"

/* The registered model `name`; fatal when it is missing. */
const zvp_model *zvp_test_find_model(const char *name);
/* The same, and fatal unless it has n_params parameters. */
const zvp_model *zvp_test_model(const char *name, size_t n_params);
/* p[index of parameter `name`] = v; fatal when m has no such parameter. */
void zvp_test_set_param(const zvp_model *m, double *p, const char *name, double v);
/* out[index of output `name`]; fatal when m has no such output. */
double zvp_test_output(const zvp_model *m, const double *out, const char *name);
/* Writes `text` to `path`; returns 0, or -1 when the file cannot be opened (no assertion). */
int zvp_test_write_text(const char *path, const char *text);
/* Writes `text` to `path`; fatal when the file cannot be opened. */
void zvp_test_write_file(const char *path, const char *text);
/* Reads a calibrated model file of model `model_name` and copies its n_params parameters
 * into p; fatal on a read error or another model. */
void zvp_test_read_params(const char *path, const char *model_name, double *p, size_t n_params);
/* Reads and runs a fit file (the fit itself is freed); fatal on either error, with the
 * message on stderr. The caller frees the result. */
zvp_fit_result *zvp_test_run_fit(const char *path);
/* Column `name` of t; fatal when missing. */
long zvp_test_col(const zvp_table *t, const char *name);
/* First row of t whose column col equals `value` (as a number or as text); fatal when none. */
size_t zvp_test_row_where(const zvp_table *t, long col, double value);
size_t zvp_test_row_where_text(const zvp_table *t, long col, const char *text);
/* Evaluates m at p into out; fatal unless it succeeds, with "label eval: message" on stderr. */
void zvp_test_eval_ok(const zvp_model *m, const double *p, double *out, const char *label);
/* Evaluates m at p and asserts the status is `status` and that the error message contains
 * each of the NULL-terminated needles (one assertion each). */
void zvp_test_expect_eval_error(const zvp_model *m, const double *p, double *out, int status, ...);
/* True when the error message mentions `needle`. */
int zvp_test_msg_has(const zvp_error *e, const char *needle);
/* A station of the given kind (reserved fields zero). */
zvp_station zvp_test_station(int kind, int servers, unsigned replicas, double demand_s);

/* Worst and mean relative error of a model against measured rows. */
typedef struct zvp_test_rel_error {
    double sum;   /* sum of the relative errors added */
    double worst; /* the largest one */
    size_t n;     /* how many were added */
} zvp_test_rel_error;
/* Adds one relative error (computed by the caller). */
void zvp_test_rel_error_add(zvp_test_rel_error *e, double rel);
/* Asserts worst <= max_rel and MAPE = 100 sum / n <= mape_pct (two assertions); on failure
 * prints "file what: worst, MAPE" to stderr. */
void zvp_test_rel_error_check(const zvp_test_rel_error *e, double max_rel, double mape_pct,
                              const char *file, const char *what);

/* Closed-form references, written independently of the library's kernels. */
/* Erlang B by its recurrence B(0) = 1, B(j) = a B(j-1) / (j + a B(j-1)). */
double zvp_test_erlang_b(unsigned n, double a);
/* M/M/1 mean number in system L = rho / (1 - rho). */
double zvp_test_mm1_mean_in_system(double rho);
/* M/M/1 mean number in queue Lq = rho^2 / (1 - rho). */
double zvp_test_mm1_mean_in_queue(double rho);
#endif
