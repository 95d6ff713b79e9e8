/*
 * fuzz/fuzz_cli.c - libFuzzer harness: the argument parsers of one CLI command.
 * Built once per command with -DZVP_FUZZ_COMMAND="solve" (or "eval", "sweep") and with the
 * CLI sources (src/cli/ *.c) compiled with -Dmain=zvp_cli_main_for_fuzz, so the whole
 * command line path runs: argv = { "zvmperf", ZVP_FUZZ_COMMAND, <input split on NUL or
 * newline bytes> } (at most 64 arguments). The CLI's stdout and stderr go to /dev/null
 * (libFuzzer's -close_fd_mask=3 unless given; libFuzzer's and the sanitizers' reports are
 * kept); stdin is /dev/null, so "-" (standard input) reads an empty file.
 * eval and sweep read model files, so their inputs are confined:
 *   - an argument containing '/' is skipped (no path outside the scratch directory);
 *   - a bare argument naming a file of calibration/params (copied to <scratch>/params) is
 *     replaced by that copy's path, so `eval sweetspot-zvm63.ini` loads a shipped file;
 *   - sweep: the value of every -o is replaced by <scratch>/out.h5 (nothing is written
 *     elsewhere), and an input whose axes make more than MAX_POINTS points is skipped
 *     (LO:HI:STEP ranges are counted before the CLI allocates them).
 * solve: an input is skipped when the product of (N + 1) over the numbers it gives as
 * populations, server counts, capacities and iteration counts exceeds MAX_WORK. The solvers accept work up to ZVP_QUEUE_MAX_WORK by design (seconds
 * in a release build, e.g. `mva-multi --users 49999999,0 --demands "1;1"`: 3 s, 400 MB),
 * which under the sanitizers exceeds the 10 s timeout of one input; the parsers of these
 * options are still fuzzed below the cap (fuzz/README.md).
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common.h"

#ifndef ZVP_FUZZ_COMMAND
#error "build with -DZVP_FUZZ_COMMAND=\"solve\" (or eval, sweep)"
#endif

#define MAX_ARGS 64
#define MAX_POINTS 1024.0
#define MAX_WORK 1e6

int zvp_cli_main_for_fuzz(int argc, char **argv);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char out_path[FUZZ_PATH_MAX];

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
    if (strcmp(ZVP_FUZZ_COMMAND, "solve") != 0)
        fuzz_copy_dir("calibration/params", "params", ".ini");
    snprintf(out_path, sizeof out_path, "%s/out.h5", fuzz_scratch());
    return 0;
}

/* Points of one axis spec NAME=LO:HI:STEP | NAME=V1,V2,... | NAME=V, as an upper bound
 * (a malformed spec counts 1: the CLI refuses it before allocating). */
static double axis_points(const char *spec)
{
    const char *v = strchr(spec, '=');
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

/* Product of (|x| + 1) over the finite numbers of a list value ("1,2;3:4"): a bound on the
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

/* 1 when `name` (no '/') is a file in <scratch>/params: *path gets its copy's path. */
static int shipped_model(const char *name, char *path, size_t n)
{
    struct stat st;
    if (!*name || name[0] == '-' || strchr(name, '='))
        return 0;
    snprintf(path, n, "%s/params/%s", fuzz_scratch(), name);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char paths[MAX_ARGS + 3][FUZZ_PATH_MAX];
    char *argv[MAX_ARGS + 3], *text = malloc(size + 1);
    int argc = 0, files = strcmp(ZVP_FUZZ_COMMAND, "solve") != 0;
    int sweep = strcmp(ZVP_FUZZ_COMMAND, "sweep") == 0;
    double points = 1, work = 1;
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    argv[argc++] = (char *)"zvmperf";
    argv[argc++] = (char *)ZVP_FUZZ_COMMAND;
    for (size_t i = 0, start = 0; i <= size; i++)
        if (i == size || text[i] == '\n' || text[i] == '\0') {
            if (i == size && start == size && size > 0)
                break; /* a trailing separator ends the last argument */
            if (argc == MAX_ARGS + 2) {
                free(text);
                return 0;
            }
            text[i] = '\0';
            argv[argc++] = text + start;
            start = i + 1;
        }
    if (size == 0)
        argc = 2; /* no input: no argument */
    for (int i = 2; files && i < argc; i++) {
        if (strchr(argv[i], '/')) {
            free(text);
            return 0;
        }
        if (shipped_model(argv[i], paths[i], sizeof paths[i]))
            argv[i] = paths[i];
    }
    for (int i = 2; sweep && i + 1 < argc; i++) {
        /* the CLI's scan: these options take the next argument as their value */
        if (strcmp(argv[i], "-o") == 0)
            argv[++i] = out_path;
        else if (strcmp(argv[i], "--axis") == 0)
            points *= axis_points(argv[++i]);
        else if (strcmp(argv[i], "--threads") == 0 || strcmp(argv[i], "--block") == 0)
            i++;
    }
    for (int i = 2; !files && i + 1 < argc; i++)
        if (strcmp(argv[i], "--users") == 0 || strcmp(argv[i], "--sources") == 0 ||
            strcmp(argv[i], "--servers") == 0 || strcmp(argv[i], "--station-servers") == 0 ||
            strcmp(argv[i], "--capacity") == 0 || strcmp(argv[i], "--max-iterations") == 0)
            work *= count_work(argv[i + 1]);
    if (points > MAX_POINTS || work > MAX_WORK) {
        free(text);
        return 0;
    }
    argv[argc] = NULL;
    (void)zvp_cli_main_for_fuzz(argc, argv);
    free(text);
    return 0;
}
