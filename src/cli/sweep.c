/*
 * src/cli/sweep.c - `zvmperf sweep MODEL --axis SPEC ... -o OUT.h5`: a model over a grid,
 * written as a netCDF-4/HDF5 file (zvp_sweep_run_notify) through OUT.h5.partial; a progress
 * line on a terminal; SIGINT/SIGTERM stop the sweep within about a second (the library
 * reads the flag before each point; exit 130/143) and --resume continues; the summary as
 * text or JSON.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

const char cli_help_sweep[] =
    "Usage: zvmperf sweep MODEL --axis NAME=LO:HI:STEP|NAME=V1,V2,... [--axis ...]\n"
    "                     -o OUT.h5 [--threads N] [--block POINTS] [--resume]\n"
    "                     [--progress|--no-progress] [--interval LEVEL [--method delta|mc]\n"
    "                     [--samples N] [--seed S] [--confidence]] [NAME=VALUE ...] [--json]\n"
    "Evaluate MODEL over the Cartesian product of the axes (first axis slowest) in parallel\n"
    "and write OUT.h5, a netCDF-4 file (xarray, ncdump): one coordinate variable per axis,\n"
    "one N-D variable per output (with units), status per point (0 not computed, 1 ok,\n"
    "2 no steady state, 3 invalid input), /parameters. MODEL as for 'zvmperf eval'.\n"
    "NAME=VALUE fixes a parameter that is not swept.\n"
    "The sweep writes OUT.h5.partial, saved after every block, and renames it to OUT.h5\n"
    "when complete: an existing OUT.h5 survives a failed or interrupted sweep. Ctrl-C\n"
    "(SIGINT) or SIGTERM stops once the points in progress finish (about a second; with\n"
    "--method mc a point is all its draws) and keeps them; exit 130 / 143; run the same\n"
    "command with --resume to continue.\n"
    "Values of a whole-number parameter must be whole (checked before anything is written).\n"
    "\n"
    "Options:\n"
    "      --axis SPEC       a swept parameter (at most 8 axes, at most 10^9 points)\n"
    "  -o, --output FILE     the HDF5 file to write (replaced only when complete; not the\n"
    "                        model file)\n"
    "      --threads N       OpenMP threads, 0 = the OpenMP default (results identical)\n"
    "      --block POINTS    points evaluated and written per block (memory), default\n"
    "                        and least 65536 (one HDF5 chunk): smaller values are raised\n"
    "                        to it\n"
    "      --resume          continue FILE.partial (same model, model file, fixed\n"
    "                        parameters and axes; only missing points are computed)\n"
    "      --progress        show the progress line (percent, points/s, ETA) on stderr\n"
    "      --no-progress     never show it (default: shown when stderr is a terminal)\n"
    "      --interval LEVEL  also OUT_lo and OUT_hi beside each output OUT: the bounds of its\n"
    "                        LEVEL prediction interval (as 'zvmperf eval --interval'; the\n"
    "                        same numbers on any thread count); --method, --samples, --seed,\n"
    "                        --confidence as for eval; with --method mc also\n"
    "                        stable_draw_share, the share of each point's draws that have a\n"
    "                        steady state\n"
    "      --json            the summary as one JSON object {\"command\", \"model\", \"output\",\n"
    "                        \"points\", \"ok\", \"unstable\", \"invalid\", \"seconds\", \"axes\", \"status\"}\n"
    "  -h, --help            this help\n";

enum { O_AXIS, O_OUTPUT, O_THREADS, O_BLOCK, O_RESUME, O_PROGRESS, O_NO_PROGRESS, O_INTERVAL,
       O_METHOD, O_SAMPLES, O_SEED, O_CONFIDENCE, N_OPTS };
static const cli_option opts[N_OPTS] = {
    {"axis", 0, 1, 1},   {"output", 'o', 1, 0},   {"threads", 0, 1, 0},    {"block", 0, 1, 0},
    {"resume", 0, 0, 0}, {"progress", 0, 0, 0}, {"no-progress", 0, 0, 0}, {"interval", 0, 1, 0},
    {"method", 0, 1, 0}, {"samples", 0, 1, 0},  {"seed", 0, 1, 0},        {"confidence", 0, 0, 0}};

/* ---- interruption and progress ------------------------------------------------------ */

/* The signal that asked the sweep to stop (SIGINT, SIGTERM), 0 = none: the one piece of
 * state a signal handler can share. A second signal terminates at once (SA_RESETHAND). */
static volatile sig_atomic_t stop_signal = 0;

static void on_stop_signal(int sig)
{
    stop_signal = sig;
}

typedef struct sweep_progress {
    int show;          /* draw the line */
    int drawn;         /* a line is on the screen (end it with a newline) */
    double t0, last;   /* start, last drawing (monotonic s) */
    uint64_t first;    /* points done at the start (resumed) */
} sweep_progress;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* zvp_progress_fn: draw "sweep: P% (D of N points), R points/s, ETA T" at most 5 times a
 * second (and at the end); ask to stop when a signal came. */
static int on_progress(uint64_t done, uint64_t total, void *user)
{
    sweep_progress *p = user;
    double t = now_s();
    if (p->t0 == 0) {
        p->t0 = t;
        p->first = done;
    }
    if (p->show && (done == total || t - p->last >= 0.2 || !p->drawn)) {
        double rate = t > p->t0 ? (double)(done - p->first) / (t - p->t0) : 0;
        char eta[32] = "?";
        if (rate > 0) {
            double r = (double)(total - done) / rate;
            snprintf(eta, sizeof eta, "%d:%02d:%02d", (int)(r / 3600), (int)fmod(r / 60, 60),
                     (int)fmod(r, 60));
        }
        fprintf(stderr, "\rzvmperf sweep: %5.1f%% (%llu of %llu points), %.0f points/s, ETA %s"
                "\033[K", total ? 100.0 * (double)done / (double)total : 100.0,
                (unsigned long long)done, (unsigned long long)total, rate, eta);
        fflush(stderr);
        p->drawn = 1;
        p->last = t;
    }
    return stop_signal != 0;
}

static void on_notice(const char *message, void *user)
{
    (void)user;
    fprintf(stderr, "zvmperf sweep: %s\n", message);
}

typedef cli_sweep_axes sweep_job;

/* Run the sweep with the progress line and the signal handlers; the report. */
static int sweep_now(const cli_ctx *c, const cli_args *a, const sweep_job *j,
                     const zvp_model_file *mf, zvp_sweep_options *opt)
{
    struct sigaction sa, old_int, old_term;
    sweep_progress prog;
    zvp_sweep_summary sum;
    zvp_error err;
    int rc, st;
    memset(&prog, 0, sizeof prog);
    prog.show = a->value[O_PROGRESS] ? 1 : a->value[O_NO_PROGRESS] ? 0 : isatty(2);
    opt->progress = on_progress;
    opt->progress_user = &prog;
    opt->stop = &stop_signal; /* read before each point: a stop within about a second */
    opt->resume = a->value[O_RESUME] != NULL;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = (int)SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    stop_signal = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    zvp_error_clear(&err);
    st = zvp_sweep_run_notify(mf, j->axes, j->n_axes, a->value[O_OUTPUT], opt, &sum, on_notice,
                              NULL, &err);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (prog.drawn)
        fputc('\n', stderr);
    if (st == ZVP_SUCCESS && sum.unstable && opt->interval &&
        opt->interval->method == ZVP_INTERVAL_MC) /* src/interval/README.md */
        fprintf(stderr, "zvmperf sweep: note: the %llu point(s) without a steady state (status "
                "2) have NaN bounds too; the share of their draws that have one is in "
                "stable_draw_share, and 'zvmperf eval MODEL NAME=VALUE ... --interval LEVEL "
                "--method mc' gives the bounds of those draws\n",
                (unsigned long long)sum.unstable);
    if (st == ZVP_SUCCESS && stop_signal) { /* the signal came as the last points finished */
        rc = cli_sweep_summary(c, zvp_model_file_model(mf), j->axes, j->n_axes,
                               a->value[O_OUTPUT], &sum, 0);
        fprintf(stderr, "zvmperf sweep: %s arrived as the sweep finished: '%s' is complete\n",
                stop_signal == SIGTERM ? "SIGTERM" : "SIGINT", a->value[O_OUTPUT]);
        return rc ? rc : 128 + (stop_signal == SIGTERM ? SIGTERM : SIGINT);
    }
    if (st == ZVP_SUCCESS)
        return cli_sweep_summary(c, zvp_model_file_model(mf), j->axes, j->n_axes,
                                 a->value[O_OUTPUT], &sum, 0);
    if (st == ZVP_ECANCELED) /* one message, and the exit status of the signal in the JSON too */
        return cli_error_exit(c, st, 128 + (stop_signal == SIGTERM ? SIGTERM : SIGINT),
                              "stopped by %s after %llu of %llu points (kept in the partial "
                              "file); to continue, run: %s%s",
                              stop_signal == SIGTERM ? "SIGTERM" : "SIGINT",
                              (unsigned long long)(sum.ok + sum.unstable + sum.invalid),
                              (unsigned long long)sum.points,
                              c->cmdline ? c->cmdline : "zvmperf sweep ...",
                              opt->resume ? "" : " --resume");
    return cli_lib_error(c, &err);
}

/* The outputs the interval method leaves without bounds (OUT_lo, OUT_hi NaN in the file): say
 * so, as 'zvmperf eval --interval' does, instead of leaving silent NaN bounds. */
static void note_step_outputs(const zvp_model *m, int method)
{
    for (size_t k = 0; k < m->n_outputs; k++)
        if (cli_step_no_interval(m, k, method))
            fprintf(stderr, "zvmperf sweep: note: %s_lo and %s_hi are NaN: %s (the file says so "
                    "in their attribute no_interval_reason)\n", m->outputs[k].name,
                    m->outputs[k].name, CLI_STEP_NO_INTERVAL);
}

static int run(const cli_ctx *c, const cli_args *a, sweep_job *j)
{
    zvp_error err;
    zvp_model_file *mf = NULL;
    zvp_sweep_options opt;
    size_t src = 0;
    int rc;
    zvp_sweep_options_init(&opt);
    opt.command = c->cmdline;
    if ((rc = cli_sweep_counts(c, a->value[O_THREADS], a->value[O_BLOCK], &opt)))
        return rc;
    if ((rc = cli_sweep_parse_axes(c, a, O_AXIS, j)))
        return rc;
    zvp_interval_options iv;
    int iv_on = 0;
    if ((rc = cli_interval_options(c, a->value[O_INTERVAL], a->value[O_METHOD],
                                   a->value[O_SAMPLES], a->value[O_SEED],
                                   a->value[O_CONFIDENCE] != NULL, &iv, &iv_on)))
        return rc;
    iv.threads = opt.threads;
    if (iv_on)
        opt.interval = &iv;
    while (src < a->n_pos && strchr(a->pos[src], '='))
        src++;
    if (src == a->n_pos || !a->value[O_OUTPUT] || j->n_axes == 0)
        return cli_error(c, ZVP_EINVAL, "sweep needs a MODEL, at least one --axis and -o OUT.h5 "
                         "(see 'zvmperf sweep --help')");
    rc = cli_sweep_model(c, a, src, a->value[O_OUTPUT], j, &mf);
    zvp_error_clear(&err); /* intervals undefined (e.g. a saturated file): say so up front */
    if (!rc && iv_on && zvp_interval_points(mf, zvp_model_file_params(mf), 0, 0, 0, NULL, NULL,
                                            &iv, NULL, NULL, NULL, NULL, NULL, &err))
        rc = cli_lib_error(c, &err);
    if (!rc && iv_on)
        note_step_outputs(zvp_model_file_model(mf), iv.method);
    if (!rc)
        rc = sweep_now(c, a, j, mf, &opt);
    zvp_model_file_free(mf);
    return rc;
}

int cli_sweep(const cli_ctx *c0, int argc, char **argv)
{
    cli_ctx c = *c0;
    cli_args a;
    sweep_job j;
    memset(&j, 0, sizeof j);
    int rc = cli_parse(&c, argc, argv, opts, N_OPTS, "", &a);
    if (rc)
        return rc;
    c.json = a.json;
    rc = run(&c, &a, &j);
    cli_sweep_axes_free(&j);
    cli_args_free(&a);
    return rc;
}
