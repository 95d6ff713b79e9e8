/*
 * fuzz/fuzz_cli.c - libFuzzer harness: the argument parsers of one CLI command.
 * Built once per command with -DZVP_FUZZ_COMMAND="solve" (or "eval", "sweep") and with the
 * CLI sources (every .c under src/cli) compiled with -Dmain=zvp_cli_main_for_fuzz, so the
 * whole command line path runs: argv = { "zvmperf", ZVP_FUZZ_COMMAND, <the input split on
 * NUL or newline bytes> } (at most 64 arguments). The CLI's stdout and stderr go to
 * /dev/null (libFuzzer's -close_fd_mask=3 unless given; libFuzzer's and the sanitizers'
 * reports are kept); stdin is /dev/null, so "-" (standard input) reads an empty file.
 * Confinement (fuzz/README.md):
 *   - the CLI runs with the scratch directory as its working directory, and an input with
 *     an argument containing '/' is skipped: whatever it names (-o, --output=, -oFILE, a
 *     model file) lies in the scratch directory;
 *   - ZVMPERF_DATA is the scratch directory, whose params/ holds copies of
 *     calibration/params, so `eval sweetspot-zvm63` loads a shipped calibrated file;
 *   - sweep: an input whose arguments could make more than MAX_POINTS grid points is
 *     skipped (16: a calibrated sweetspot point costs about 8 ms in a release build and
 *     30-40 times that under the sanitizers with coverage, and one input has 10 s);
 *     (every argument is counted as if it were an axis NAME=LO:HI:STEP or
 *     NAME=V1,V2,...: a bound that needs no option parsing); OpenMP gets at most 2 threads
 *     whatever --threads says;
 *   - solve: an input is skipped when the product of (N + 1) over the numbers it gives to
 *     population, server, capacity and iteration options exceeds MAX_WORK. The solvers
 *     accept work up to ZVP_QUEUE_MAX_WORK by design (seconds in a release build, e.g.
 *     `mva-multi --users 49999999,0 --demands "1;1"`: 3 s, 400 MB), more than the 10 s
 *     timeout of one input under the sanitizers.
 */
#include <fcntl.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common.h"

#ifndef ZVP_FUZZ_COMMAND
#error "build with -DZVP_FUZZ_COMMAND=\"solve\" (or eval, sweep)"
#endif

#define MAX_ARGS 64
#define MAX_POINTS 16.0
#define MAX_WORK 1e6

int zvp_cli_main_for_fuzz(int argc, char **argv);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    int fd = open("/dev/null", O_RDONLY);
    if (fd >= 0) {
        dup2(fd, 0);
        close(fd);
    }
    fuzz_quiet(argc, argv);
    /* sweep --threads N: at most 2 OpenMP threads whatever N (set before OpenMP starts) */
    setenv("OMP_THREAD_LIMIT", "2", 1);
    setenv("OMP_NUM_THREADS", "1", 0);
    fuzz_copy_dir("calibration/params", "params", ".ini");
    setenv("ZVMPERF_DATA", fuzz_scratch(), 1);
    return 0;
}

/* Points of an argument read as an axis spec [--option=]NAME=LO:HI:STEP | NAME=V1,V2,...,
 * as an upper bound: 1 when it is neither (a malformed range counts 1: the CLI refuses
 * it before allocating). */
static double axis_points(const char *arg)
{
    const char *v = strrchr(arg, '=');
    double lo, hi, step, n = 1;
    char *end;
    if (!v)
        return 1;
    v++;
    if (strchr(v, ':')) {
        lo = strtod(v, &end);
        if (end == v || *end != ':')
            return 1;
        v = end + 1;
        hi = strtod(v, &end);
        if (end == v || *end != ':')
            return 1;
        v = end + 1;
        step = strtod(v, &end);
        if (end == v || !(step > 0) || !(hi >= lo))
            return 1;
        n = (hi - lo) / step + 2;
        return n == n ? n : 1e300;
    }
    for (; *v; v++)
        n += *v == ',';
    return n;
}

/* Product of (|x| + 1) over the finite numbers in a list value ("1,2;3:4"): a bound on the
 * work the counts in it can ask for (an exact multiclass MVA visits prod (N_c + 1) states). */
static double count_work(const char *v)
{
    double work = 1;
    char *end;
    while (*v) {
        double x = strtod(v, &end);
        if (end == v)
            end = (char *)v + 1;
        else if (x <= DBL_MAX && x >= -DBL_MAX) /* inf (a delay station) is not a count */
            work *= (x < 0 ? -x : x) + 1;
        v = end;
    }
    return work;
}

/* solve options whose values are counts (also as --opt=value and abbreviations). */
static int count_option(const char *a)
{
    static const char *const opts[] = {"--users", "--sources", "--servers", "--station-servers",
                                       "--capacity", "--max-iterations"};
    size_t n = strcspn(a, "=");
    if (n < 3 || strncmp(a, "--", 2) != 0)
        return 0;
    for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++)
        if (strncmp(a, opts[k], n) == 0)
            return 1;
    return 0;
}

/* 1 when the arguments are inside the harness's bounds (see the top of this file). */
static int confined(int argc, char **argv)
{
    double points = 1, work = 1;
    int solve = strcmp(ZVP_FUZZ_COMMAND, "solve") == 0;
    for (int i = 2; i < argc; i++) {
        if (!solve && strchr(argv[i], '/'))
            return 0;
        if (!solve)
            points *= axis_points(argv[i]);
        else if (count_option(argv[i]))
            work *= count_work(strchr(argv[i], '=') ? strchr(argv[i], '=') + 1
                               : i + 1 < argc   ? argv[i + 1]
                                                : "");
    }
    return points <= MAX_POINTS && work <= MAX_WORK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[MAX_ARGS + 3], *text = malloc(size + 1);
    int argc = 0, cwd;
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    argv[argc++] = (char *)"zvmperf";
    argv[argc++] = (char *)ZVP_FUZZ_COMMAND;
    for (size_t i = 0, start = 0; size > 0 && i <= size; i++)
        if (i == size || text[i] == '\n' || text[i] == '\0') {
            if (i == size && start == size)
                break; /* a trailing separator ends the last argument */
            if (argc == MAX_ARGS + 2) {
                free(text);
                return 0;
            }
            text[i] = '\0';
            argv[argc++] = text + start;
            start = i + 1;
        }
    argv[argc] = NULL;
    if (confined(argc, argv) && (cwd = open(".", O_RDONLY | O_DIRECTORY)) >= 0) {
        if (chdir(fuzz_scratch()) == 0) {
            (void)zvp_cli_main_for_fuzz(argc, argv);
            if (fchdir(cwd) != 0)
                abort();
        }
        close(cwd);
    }
    free(text);
    return 0;
}
