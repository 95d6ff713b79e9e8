/*
 * src/mpi/main.c - zvmperf-mpi: `zvmperf sweep` on MPI. Under `mpirun -np N` or `srun`,
 * `zvmperf-mpi sweep MODEL --axis ... -o OUT` takes the options of `zvmperf sweep` (parsed
 * with the CLI's argument module) and runs zvp_mpi_sweep_run on MPI_COMM_WORLD. Rank 0
 * prints the summary, the progress line and the errors; the other ranks print nothing
 * unless they alone fail. src/mpi/README.md describes the program.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "mpi/mpi_sweep.h"

static const char help_text[] =
    "Usage: mpirun -np N zvmperf-mpi sweep MODEL --axis NAME=LO:HI:STEP|NAME=V1,V2,...\n"
    "                     [--axis ...] -o OUT.h5 [--threads T] [--block POINTS] [--resume]\n"
    "                     [--progress|--no-progress] [NAME=VALUE ...] [--json]\n"
    "       zvmperf-mpi --help | --version\n"
    "The sweep of 'zvmperf sweep' on MPI: the N ranks (on one machine or several) share the\n"
    "blocks of the grid (dynamic assignment), each evaluates its blocks with T OpenMP threads,\n"
    "and all write OUT.h5 together with parallel HDF5. The datasets are bit-identical to\n"
    "'zvmperf sweep' for any N and T. OUT.h5.partial is written first and renamed to OUT.h5\n"
    "when complete; SIGINT/SIGTERM stop after the current round (exit 130/143), and --resume\n"
    "continues a partial file (written by zvmperf or zvmperf-mpi, any number of ranks).\n"
    "MODEL is a model file, the NAME of a calibrated model file or a registered model, as for\n"
    "'zvmperf sweep' (not '-': standard input reaches rank 0 only). Every rank reads MODEL and\n"
    "writes OUT.h5 by the same path: use a file system that all nodes share.\n"
    "\n"
    "Options:\n"
    "      --axis SPEC       a swept parameter (at most 8 axes, at most 10^9 points)\n"
    "  -o, --output FILE     the HDF5 file to write (replaced only when complete)\n"
    "      --threads T       OpenMP threads per rank, 0 = the OpenMP default\n"
    "      --block POINTS    points per block (memory per rank: up to 4 blocks), default 65536\n"
    "      --resume          continue from OUT.h5.partial (same model, parameters and axes)\n"
    "      --progress        rank 0 shows percent done, points/s and ETA on stderr\n"
    "      --no-progress     no progress line (the default when stderr is not a terminal)\n"
    "      --json            the summary as one JSON object, as 'zvmperf sweep --json'\n"
    "  -h, --help            this help\n"
    "\n"
    "Exit status: 0 success; 1 I/O or internal failure; 2 bad input; 130/143 stopped by\n"
    "SIGINT/SIGTERM (the partial file is kept: rerun with --resume).\n";

enum { O_AXIS, O_OUTPUT, O_THREADS, O_BLOCK, O_RESUME, O_PROGRESS, O_NO_PROGRESS, N_OPTS };
static const cli_option opts[N_OPTS] = {
    {"axis", 0, 1, 1},   {"output", 'o', 1, 0}, {"threads", 0, 1, 0},    {"block", 0, 1, 0},
    {"resume", 0, 0, 0}, {"progress", 0, 0, 0}, {"no-progress", 0, 0, 0}};

/* The signal that asked to stop (SIGINT or SIGTERM), 0 = none. Set by the handler only. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

typedef struct mpi_job {
    cli_sweep_axes x;
    zvp_model_file *mf;
    const char *out;
    zvp_mpi_options opt;
} mpi_job;

/* Options, axes, the model file and its NAME=VALUE overrides: the same on every rank. */
static int setup(const cli_ctx *c, const cli_args *a, mpi_job *j)
{
    size_t src = 0;
    int rc;
    zvp_sweep_options_init(&j->opt.sweep);
    j->opt.sweep.command = c->cmdline;
    if ((rc = cli_sweep_counts(c, a->value[O_THREADS], a->value[O_BLOCK], &j->opt.sweep)))
        return rc;
    if (a->value[O_PROGRESS] && a->value[O_NO_PROGRESS])
        return cli_error(c, ZVP_EINVAL, "--progress and --no-progress exclude each other");
    j->opt.progress = a->value[O_PROGRESS] ? 1 : a->value[O_NO_PROGRESS] ? 0 : isatty(2);
    j->opt.sweep.resume = a->value[O_RESUME] ? 1 : 0;
    if ((rc = cli_sweep_parse_axes(c, a, O_AXIS, &j->x)))
        return rc;
    while (src < a->n_pos && strchr(a->pos[src], '='))
        src++;
    if (src == a->n_pos || !a->value[O_OUTPUT] || j->x.n_axes == 0)
        return cli_error(c, ZVP_EINVAL, "sweep needs a MODEL, at least one --axis and -o OUT.h5 "
                         "(see 'zvmperf-mpi --help')");
    if (strcmp(a->pos[src], "-") == 0)
        return cli_error(c, ZVP_EINVAL, "MODEL = '-' (standard input) is not supported under "
                         "MPI: give a model file that every rank can read");
    j->out = a->value[O_OUTPUT];
    return cli_sweep_model(c, a, src, j->out, &j->x, &j->mf);
}

/* The command line, space-separated (recorded as the file's `command` attribute). */
static char *join_args(int argc, char **argv)
{
    size_t len = 1;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    char *s = malloc(len);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (int i = 0; i < argc; i++) {
        if (i)
            strcat(s, " ");
        strcat(s, argv[i]);
    }
    return s;
}

/* The arguments and the model are the same on every rank: only rank 0 says what is wrong
 * with them. quiet_begin sends the other ranks' stderr to /dev/null (returns the saved
 * descriptor, or -1), quiet_end restores it. */
static int quiet_begin(int rank)
{
    int saved, null;
    if (rank == 0)
        return -1;
    fflush(stderr);
    saved = dup(2);
    null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, 2);
        close(null);
    }
    return saved;
}

static void quiet_end(int saved)
{
    if (saved < 0)
        return;
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
}

/* Run the sweep (stderr of ranks other than 0 quiet until the setup is done: see
 * quiet_begin); the exit status (the same on every rank). */
static int sweep(const cli_ctx *c, const cli_args *a, int rank, int ranks, int quiet)
{
    mpi_job j;
    zvp_sweep_summary sum;
    zvp_error err;
    struct sigaction sa;
    int rc, all;
    memset(&j, 0, sizeof j);
    rc = setup(c, a, &j);
    quiet_end(quiet);
    /* a rank that could not read the model (a file system some nodes lack) fails them all */
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (all && !rc)
        rc = all;
    if (!all) {
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        j.opt.stop = &stop_signal;
        j.opt.progress = rank == 0 && j.opt.progress;
        zvp_error_clear(&err);
        rc = zvp_mpi_sweep_run(MPI_COMM_WORLD, j.mf, j.x.axes, j.x.n_axes, j.out, &j.opt, &sum,
                               &err);
        if (rc == ZVP_ECANCELED) {
            int sig = stop_signal ? (int)stop_signal : SIGTERM;
            MPI_Bcast(&sig, 1, MPI_INT, 0, MPI_COMM_WORLD);
            if (rank == 0)
                fprintf(stderr, "zvmperf sweep: stopped by %s after %llu of %llu points; the "
                        "partial file %s.partial is kept: run the same command with --resume "
                        "to continue\n", sig == SIGINT ? "SIGINT" : "SIGTERM",
                        (unsigned long long)(sum.ok + sum.unstable + sum.invalid),
                        (unsigned long long)sum.points, j.out);
            rc = 128 + sig;
        } else if (rc != ZVP_SUCCESS) {
            if (rank == 0)
                rc = cli_lib_error(c, &err);
            else
                rc = cli_exit_code(rc);
        } else if (rank == 0) {
            rc = cli_sweep_summary(c, zvp_model_file_model(j.mf), j.x.axes, j.x.n_axes, j.out,
                                   &sum, ranks);
        } else {
            rc = CLI_EXIT_OK;
        }
    }
    zvp_model_file_free(j.mf);
    cli_sweep_axes_free(&j.x);
    return rc;
}

int main(int argc, char **argv)
{
    int rank = 0, ranks = 1, rc = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    if (rank != 0) { /* one summary: rank 0's */
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            close(null);
        }
    }
    char *cmdline = join_args(argc, argv);
    cli_ctx c = {"sweep", cli_wants_json(argc - 1, argv + 1), 0, cmdline};
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        if (rank == 0)
            printf("zvmperf-mpi %s\n", zvp_version());
    } else if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
               (strcmp(argv[1], "sweep") == 0 && cli_wants_help(argc - 2, argv + 2))) {
        if (rank == 0)
            fputs(help_text, argc < 2 ? stderr : stdout);
        rc = argc < 2 ? CLI_EXIT_BADINPUT : CLI_EXIT_OK;
    } else if (strcmp(argv[1], "sweep") != 0) {
        if (rank == 0)
            fprintf(stderr, "zvmperf-mpi: error: unknown command '%s': the only command is "
                    "'sweep' (see 'zvmperf-mpi --help')\n", argv[1]);
        rc = CLI_EXIT_BADINPUT;
    } else {
        cli_args a;
        int quiet = quiet_begin(rank);
        c.json = cli_wants_json(argc - 2, argv + 2);
        rc = cli_parse(&c, argc - 2, argv + 2, opts, N_OPTS, "", &a);
        if (rc == 0) {
            c.json = a.json;
            rc = sweep(&c, &a, rank, ranks, quiet);
            cli_args_free(&a);
        } else {
            quiet_end(quiet);
        }
    }
    free(cmdline);
    MPI_Finalize();
    return rc;
}
