/* tests/fit_fixtures.h - fixtures shared by the fit tests (test_fitfile.c, test_fit_engine.c,
 * test_fit_memory.c): fit-file text pieces over tests/data/mm1_*.csv and small file helpers.
 * The fixtures are synthetic M/M/1 data (mu = 2.5/s) computed from closed forms (see
 * tests/data/mm1_exact.csv). */
#ifndef ZVP_FIT_FIXTURES_H
#define ZVP_FIT_FIXTURES_H
#include <stddef.h>
#include "zvmperf/zvmperf.h"

#define MU_TRUE 2.5

/* Fit files written to tmp/ read their data from ../data/. */
#define FIT_HEAD "[fit]\nmodel = mmc\ndata = ../data/mm1_exact.csv\n"
#define FIT_FIXED "[fixed]\nservers = 1\n[inputs]\narrival_rate_per_s = arrival_rate_per_s\n"
#define FIT_MATCH "[match]\nmean_in_system = mean_in_system\n"
#define FREE_OK "[free]\nservice_rate_per_s = 5, 0.5, 20\n"
#define WHERE_HEAD "[fit]\nmodel = mmc\ndata = ../data/mm1_where.csv\nstarts = 4\n"
#define WHERE_BODY FIT_FIXED "[free]\nservice_rate_per_s = 5, 0.5, 20\n" FIT_MATCH

/* 1 when the file at path contains needle (in its first 16 KiB). */
int zvp_test_file_contains(const char *path, const char *needle);
/* Writes tmp/<name>.ini with text; path gets its name. Returns path. */
const char *zvp_test_write_fit(const char *name, const char *text, char *path, size_t size);
/* Writes tmp/<name>.ini and runs it (zvp_test_run_fit). */
zvp_fit_result *zvp_test_run_fit_text(const char *name, const char *text);
#endif
