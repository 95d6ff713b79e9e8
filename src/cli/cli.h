/*
 * src/cli/cli.h - the zvmperf command-line tool's private interfaces: the command table,
 * the argument module (getopt_long), the one exit-code map and error reporter, the JSON
 * emitter (libjansson), number parsing, and how a model argument is found.
 * src/cli/README.md describes the commands, options, JSON conventions and exit statuses.
 */
#ifndef ZVMPERF_CLI_H
#define ZVMPERF_CLI_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>
#include "zvmperf/zvmperf.h"

/* ---- exit statuses (the one map; cli_exit_code turns a ZVP_* status into one) ---------- */
enum {
    CLI_EXIT_OK = 0,       /* success; --help, --version */
    CLI_EXIT_FAILURE = 1,  /* I/O or internal failure; an approximate solver that did not converge */
    CLI_EXIT_BADINPUT = 2, /* usage, unknown name or option, out-of-range value, malformed file */
    CLI_EXIT_UNSTABLE = 3, /* no steady state */
    CLI_EXIT_CHECK = 4     /* a check failed: a claim does not hold (zvmperf claims) */
};

/* Exit status for a library status code (ZVP_SUCCESS -> 0, ZVP_EUNSTABLE -> 3, ZVP_EINVAL,
 * ZVP_EBADLEN, ZVP_ENOTFOUND, ZVP_EPARSE -> 2, every other code -> 1). */
int cli_exit_code(int status);

/* What every handler knows about its invocation. */
typedef struct cli_ctx {
    const char *command;  /* "eval", "solve", ... */
    int json;             /* --json given: failures are one JSON object on stdout too */
    int error_outputs;    /* the JSON error object carries "outputs": {} (eval) */
    const char *cmdline;  /* the whole command line, recorded by sweep */
} cli_ctx;

/* Report a failure: "zvmperf CMD: error: MESSAGE" on stderr and, with --json, one error
 * object on stdout. Return the exit status of `status` (cli_exit_code). */
int cli_error(const cli_ctx *c, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same with the exit status given (a sweep stopped by SIGTERM: status ZVP_ECANCELED,
 * exit 143), in the JSON object too. */
int cli_error_exit(const cli_ctx *c, int status, int exit_code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The same for a library error: its message, with the status text appended when the
 * message does not already say it. */
int cli_lib_error(const cli_ctx *c, const zvp_error *e);
/* A warning on stderr ("zvmperf CMD: warning: ..."). */
void cli_warn(const cli_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- numbers: the library's grammar (zvp_parse_double), decimal only ---------------- */
/* 0 and *out on success; -1 when s is not a finite decimal number. */
int cli_number(const char *s, double *out);
/* Why cli_number refused s, as a predicate for "VALUE ...": "is too small to represent
 * (underflow)" for a decimal number that rounds to 0 but is not 0 (1e-400), "is too large to
 * represent (overflow)" for one beyond the double range (1e400), else "is not a number". */
const char *cli_number_why(const char *s);

/* ---- the argument module ----------------------------------------------------------- */
#define CLI_MAX_OPTIONS 32

typedef struct cli_option {
    const char *name;  /* long name without "--" */
    int short_name;    /* e.g. 'o', or 0 */
    int has_value;     /* 1: takes a value (--name V or --name=V), 0: a flag */
    int repeatable;    /* 1: may be given more than once (values kept in order) */
} cli_option;

typedef struct cli_args {
    const cli_option *spec;
    size_t n_spec;
    const char *value[CLI_MAX_OPTIONS]; /* value of each option ("" for a flag), NULL if absent */
    int count[CLI_MAX_OPTIONS];
    size_t n_items;                     /* every option occurrence, in order */
    int *item_opt;
    const char **item_val;
    size_t n_pos;                       /* positional arguments, in order ('--' ends options) */
    const char **pos;
    int json;                           /* --json (every command takes it) */
} cli_args;

/* Parse argv[0..argc-1] (the arguments after the command name) against spec; --json is
 * added to every spec (--help is handled before). `context` is appended to a "given twice"
 * message (e.g. " for kind mmc"; may be ""). Errors (unknown option, missing value, an
 * option given twice) are reported through cli_error and their exit status returned;
 * 0 on success. Free with cli_args_free. */
int cli_parse(const cli_ctx *c, int argc, char **argv, const cli_option *spec, size_t n_spec,
              const char *context, cli_args *a);
void cli_args_free(cli_args *a);
/* 1 if argv (up to "--") asks for help (--help or -h). */
int cli_wants_help(int argc, char **argv);
/* 1 if argv (up to "--") has --json. */
int cli_wants_json(int argc, char **argv);

/* ---- the JSON emitter ---------------------------------------------------------------- */
/* A new document {"command": command}; NULL on out of memory. */
json_t *cli_json_doc(const char *command);
/* A number: a JSON real, or, when v is NaN or +-inf, a placeholder that cli_json_print
 * writes as null and explains in the document's "nulls" object (reason `why`, or a
 * default naming NaN / inf when why is NULL). */
json_t *cli_json_num(double v, const char *why);
/* A quantity with its unit: {"value": V, "unit": U} (V as cli_json_num). */
json_t *cli_json_qty(double v, const char *unit, const char *why);
/* obj[key] = v (v's reference is taken; a NULL v marks the document as failed). */
void cli_json_set(json_t *obj, const char *key, json_t *v);
/* Print doc on stdout (one line), nulls explained; frees doc. 0, or 1 on failure. */
int cli_json_print(json_t *doc);

/* ---- model arguments ----------------------------------------------------------------- */
/* Open a model argument: "-" reads a model file from standard input; an existing path or
 * one with '/' is read as a model file; a bare NAME is looked up as NAME(.ini) in the
 * calibrated-file search path (cli_search_path), then as a registered model (with its
 * defaults, said on stderr). found[found_len] receives the file read ("-" for standard
 * input; empty for a registered model's defaults). Library status; message in err. */
int cli_open_model(const cli_ctx *c, const char *arg, zvp_model_file **mf, char *found,
                   size_t found_len, zvp_error *err);
/* Warn (once, on stderr) when the model file `file` left parameters out: they keep the
 * model's uncalibrated defaults (zvp_model_file_is_set). Names the parameters not set and
 * not given since (NAME=VALUE), at most 8 then "and N more"; the `skip` names (swept axes)
 * are not counted. Nothing when file is NULL or empty (a registered model's defaults, which
 * cli_open_model already reported) or when every parameter is set. */
void cli_warn_unset(const cli_ctx *c, const zvp_model_file *mf, const char *file,
                    const char *const *skip, size_t n_skip);
/* The directories searched for calibrated model files, in order: $ZVMPERF_DATA/params (if
 * set), calibration/params (relative to the working directory), ZVP_DATADIR/params.
 * Writes at most n_max into buf; returns how many. */
size_t cli_search_path(char buf[][4096], size_t n_max);
/* The compiled-in data directory (PREFIX/share/zvmperf). */
const char *cli_datadir(void);

/* ---- commands ---------------------------------------------------------------------- */
typedef int (*cli_handler)(const cli_ctx *c, int argc, char **argv);

typedef struct cli_command {
    const char *name;
    const char *summary; /* one line for the command list */
    cli_handler run;
    const char *help;    /* the text of `zvmperf help NAME` and `zvmperf NAME --help` */
} cli_command;

int cli_models(const cli_ctx *c, int argc, char **argv);
int cli_eval(const cli_ctx *c, int argc, char **argv);
int cli_sweep(const cli_ctx *c, int argc, char **argv);
int cli_calibrate(const cli_ctx *c, int argc, char **argv);
int cli_solve(const cli_ctx *c, int argc, char **argv);
int cli_simulate(const cli_ctx *c, int argc, char **argv); extern const char cli_help_simulate[];
int cli_version(const cli_ctx *c, int argc, char **argv);
int cli_validate(const cli_ctx *c, int argc, char **argv);
int cli_sensitivity(const cli_ctx *c, int argc, char **argv);
extern const char cli_help_validate[], cli_help_sensitivity[];
int cli_claims(const cli_ctx *c, int argc, char **argv); extern const char cli_help_claims[];

extern const char cli_help_models[], cli_help_eval[], cli_help_sweep[], cli_help_calibrate[],
    cli_help_version[];
/* solve's help is built from its kind table. */
void cli_solve_help(FILE *fp);

/* Print the help of a command and the exit statuses to fp (solve's help is generated). */
void cli_print_command_help(const cli_command *cmd, FILE *fp);

/* NAME=VALUE overrides on a model file: each NAME once; returns 0 or an exit status
 * (reported). `skip` names parameters that may not be fixed (swept axes), may be NULL. */
int cli_apply_overrides(const cli_ctx *c, zvp_model_file *mf, const char **pos, size_t n_pos,
                        size_t first, const char *const *skip, size_t n_skip);

/* Why a whole-number output (descriptor `integer`) has NaN lo/hi under the delta method (the
 * library gives it none: the derivative of a step function is 0 almost everywhere). */
#define CLI_STEP_NO_INTERVAL                                                                   \
    "no delta-method interval for a whole-number output (a step function of the parameters): " \
    "use --method mc"

/* 1 when output j of m has no interval by `method` for that reason (eval, sweep). */
static inline int cli_step_no_interval(const zvp_model *m, size_t j, int method)
{
    return m->outputs[j].integer && method == ZVP_INTERVAL_DELTA;
}

/* --interval LEVEL [--method delta|mc] [--samples N] [--seed S] [--confidence] (eval,
 * sweep; src/cli/interval_opts.c): the options into *o, *on = 1 when --interval is given.
 * Strings NULL when absent. 0 or an exit status (reported). */
int cli_interval_options(const cli_ctx *c, const char *level, const char *method,
                         const char *samples, const char *seed, int confidence,
                         zvp_interval_options *o, int *on);

/* ---- the sweep's setup, shared by zvmperf sweep and zvmperf-mpi (common.c) ------------ */
#define CLI_MAX_AXES 8

/* The swept axes; names and vals owned (cli_sweep_axes_free). */
typedef struct cli_sweep_axes {
    zvp_axis axes[CLI_MAX_AXES];
    char *names[CLI_MAX_AXES];
    double *vals[CLI_MAX_AXES];
    size_t n_axes;
} cli_sweep_axes;

/* --threads (whole, 0..4096) and --block (whole, 1..2^30) into o (NULL: absent, unchanged);
 * 0 or an exit status (reported). */
int cli_sweep_counts(const cli_ctx *c, const char *threads, const char *block,
                     zvp_sweep_options *o);
/* Every --axis SPEC (the options numbered axis_opt in a) appended to x, at most CLI_MAX_AXES;
 * 0 or an exit status (reported). */
int cli_sweep_parse_axes(const cli_ctx *c, const cli_args *a, int axis_opt, cli_sweep_axes *x);
void cli_sweep_axes_free(cli_sweep_axes *x);
/* Open the model a->pos[src] into *mf, check that `out` does not overwrite the model file,
 * and apply the other positionals as NAME=VALUE overrides (the axes may not be fixed).
 * 0 or an exit status (reported); *mf (possibly NULL) is the caller's to free either way. */
int cli_sweep_model(const cli_ctx *c, const cli_args *a, size_t src, const char *out,
                    const cli_sweep_axes *x, zvp_model_file **mf);

/* Print a finished sweep's summary (text or JSON) and warn about invalid points; returns the
 * exit status (CLI_EXIT_BADINPUT when no point is valid). ranks > 0: the MPI sweep's rank
 * count, printed and in the JSON (common.c). */
int cli_sweep_summary(const cli_ctx *c, const zvp_model *m, const zvp_axis *axes, size_t n_axes,
                      const char *out, const zvp_sweep_summary *s, int ranks);

#endif /* ZVMPERF_CLI_H */
