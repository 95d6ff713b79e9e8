/*
 * src/cli/main.c - the zvmperf command-line tool.
 *
 *   zvmperf models [NAME] [--json]
 *   zvmperf eval MODELFILE|MODEL [NAME=VALUE ...] [--json]
 *   zvmperf sweep MODELFILE|MODEL --axis NAME=LO:HI:STEP --axis NAME=V1,V2,... -o OUT.h5
 *                 [--threads N] [--block N] [NAME=VALUE ...]
 *   zvmperf calibrate FITFILE [-o MODELFILE] [--h5 REPORT.h5]
 *   zvmperf version
 *
 * Exit status: 0 success; 1 I/O or internal failure; 2 bad input (usage, unknown name,
 * out-of-range value, malformed file); 3 no steady state.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "zvmperf/zvmperf.h"

/* src/cli/solve.c: `zvmperf solve KIND ...`; returns the exit status. */
int zvp_cli_solve(int argc, char **argv);

#define EXIT_BADINPUT 2
#define EXIT_UNSTABLE 3

static int exit_code(int status)
{
    switch (status) {
    case ZVP_SUCCESS: return 0;
    case ZVP_EUNSTABLE: return EXIT_UNSTABLE;
    case ZVP_EINVAL:
    case ZVP_EBADLEN:
    case ZVP_ENOTFOUND:
    case ZVP_EPARSE: return EXIT_BADINPUT;
    default: return 1;
    }
}

static int report(const zvp_error *err)
{
    fprintf(stderr, "zvmperf: error: %s (%s)\n", err->message[0] ? err->message : "failed",
            zvp_strerror(err->status));
    return exit_code(err->status);
}

static void json_str(FILE *fp, const char *s);

/* --json: bad input is one object too: {"status": "error", "message": ...}, exit as report(). */
static int json_error(const zvp_error *err)
{
    fputs("{\"outputs\": {}, \"status\": \"error\", \"message\": ", stdout);
    json_str(stdout, err->message[0] ? err->message : zvp_strerror(err->status));
    fputs("}\n", stdout);
    return report(err);
}

static int usage(FILE *fp)
{
    fprintf(fp,
            "usage:\n"
            "  zvmperf models [NAME] [--json]\n"
            "  zvmperf eval MODELFILE|MODEL [NAME=VALUE ...] [--json]\n"
            "  zvmperf sweep MODELFILE|MODEL --axis NAME=LO:HI:STEP|NAME=V1,V2,... [--axis ...]\n"
            "                -o OUT.h5 [--threads N] [--block POINTS] [NAME=VALUE ...]\n"
            "  zvmperf calibrate FITFILE [-o MODELFILE] [--h5 REPORT.h5]\n"
            "  zvmperf solve KIND [options] [--json]   (KIND: mm1 mmc erlang-b mm1k mmck mminf\n"
            "                repairman open mva mva-multi bounds usl; zvmperf solve --help)\n"
            "  zvmperf version\n"
            "MODELFILE is an INI model file (calibration/params/*.ini); MODEL, a registered model\n"
            "name, starts from the model's defaults. Exit status: 0 ok, 1 I/O failure, 2 bad\n"
            "input, 3 no steady state.\n");
    return fp == stderr ? EXIT_BADINPUT : 0;
}

/* JSON string with the minimal escapes. */
static void json_str(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(fp, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", fp);
        else if (c < 0x20)
            fprintf(fp, "\\u%04x", c);
        else
            fputc(c, fp);
    }
    fputc('"', fp);
}

static void json_num(FILE *fp, double v)
{
    if (v != v || v == 1.0 / 0.0 || v == -1.0 / 0.0)
        fputs("null", fp);
    else
        fprintf(fp, "%.17g", v);
}

/* Open a model file, or a registered model with its defaults when `arg` names no file. */
static int open_model(const char *arg, zvp_model_file **mf, zvp_error *err)
{
    if (access(arg, F_OK) != 0) {
        const zvp_model *m = zvp_model_find(arg, err);
        if (!m && !strchr(arg, '/') && !strstr(arg, ".ini")) {
            /* neither a file nor a model: say both (err holds the list of models) */
            char models[ZVP_ERRMSG_MAX];
            snprintf(models, sizeof models, "%s", err->message);
            snprintf(err->message, sizeof err->message,
                     "'%s' is neither a model file nor a registered model: %.400s", arg, models);
            return err->status = ZVP_ENOTFOUND;
        }
        if (m) {
            *mf = zvp_model_file_new(m);
            if (!*mf) {
                snprintf(err->message, sizeof err->message, "out of memory");
                err->status = ZVP_ENOMEM;
                return ZVP_ENOMEM;
            }
            return ZVP_SUCCESS;
        }
    }
    return zvp_model_file_read(arg, mf, err);
}

/* 1 if the NAME of a NAME=VALUE argument (up to '=') equals `name`. */
static int override_names(const char *arg, const char *name)
{
    size_t n = strcspn(arg, "=");
    return strlen(name) == n && strncmp(arg, name, n) == 0;
}

/* Bad input if a NAME=VALUE argument repeats an earlier one (argv[0..i-1]). */
static int check_repeated(char **argv, int i, zvp_error *err)
{
    size_t n = strcspn(argv[i], "=");
    for (int j = 0; j < i; j++)
        if (strchr(argv[j], '=') && strcspn(argv[j], "=") == n && strncmp(argv[j], argv[i], n) == 0 &&
            argv[j][0] != '-') {
            snprintf(err->message, sizeof err->message,
                     "parameter %.*s is given twice ('%s' and '%s')", (int)n, argv[i], argv[j],
                     argv[i]);
            return err->status = ZVP_EPARSE;
        }
    return ZVP_SUCCESS;
}

/* Apply NAME=VALUE overrides. */
static int apply_override(zvp_model_file *mf, const char *arg, zvp_error *err)
{
    char name[128];
    const char *eq = strchr(arg, '=');
    char *end;
    double v;
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof name) {
        snprintf(err->message, sizeof err->message,
                 "argument '%s' is not NAME=VALUE (a parameter assignment)", arg);
        return err->status = ZVP_EPARSE;
    }
    memcpy(name, arg, (size_t)(eq - arg));
    name[eq - arg] = '\0';
    v = strtod(eq + 1, &end);
    if (end == eq + 1 || *end != '\0' || strpbrk(eq + 1, "xXpP")) { /* decimal numbers only */
        snprintf(err->message, sizeof err->message, "parameter %s: value '%s' is not a number",
                 name, eq + 1);
        return err->status = ZVP_EPARSE;
    }
    return zvp_model_file_set(mf, name, v, err);
}

static void print_desc_json(FILE *fp, const zvp_param_desc *d, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ", " : "", fp);
        fputs("{\"name\": ", fp);
        json_str(fp, d[i].name);
        fputs(", \"unit\": ", fp);
        json_str(fp, d[i].unit);
        fputs(", \"description\": ", fp);
        json_str(fp, d[i].description);
        fputs(", \"min\": ", fp);
        json_num(fp, d[i].min);
        fputs(", \"max\": ", fp);
        json_num(fp, d[i].max);
        fputs(", \"default\": ", fp);
        json_num(fp, d[i].default_value);
        fputs(d[i].integer ? ", \"integer\": true}" : ", \"integer\": false}", fp);
    }
}

static int cmd_models(int argc, char **argv)
{
    int json = 0;
    const char *only = NULL;
    zvp_error err = {0};
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (!only && argv[i][0] != '-')
            only = argv[i];
        else {
            fprintf(stderr, "zvmperf: error: models: unknown or repeated argument '%s'\n", argv[i]);
            return usage(stderr);
        }
    }
    if (only && !zvp_model_find(only, &err))
        return report(&err);
    if (json)
        fputs("[", stdout);
    for (size_t k = 0, shown = 0; k < zvp_model_count(); k++) {
        const zvp_model *m = zvp_model_at(k);
        if (only && strcmp(only, m->name) != 0)
            continue;
        if (json) {
            fputs(shown++ ? ",\n {\"name\": " : "{\"name\": ", stdout);
            json_str(stdout, m->name);
            fputs(", \"description\": ", stdout);
            json_str(stdout, m->description);
            fputs(", \"source\": ", stdout);
            json_str(stdout, m->source);
            fputs(", \"parameters\": [", stdout);
            print_desc_json(stdout, m->params, m->n_params);
            fputs("], \"outputs\": [", stdout);
            print_desc_json(stdout, m->outputs, m->n_outputs);
            fputs("]}", stdout);
            continue;
        }
        printf("%s\n  %s\n  source: %s\n  parameters:\n", m->name, m->description, m->source);
        for (size_t i = 0; i < m->n_params; i++)
            printf("    %-26s %-9s [%g, %g]%s default %g  %s\n", m->params[i].name,
                   m->params[i].unit, m->params[i].min, m->params[i].max,
                   m->params[i].integer ? " integer" : "", m->params[i].default_value,
                   m->params[i].description);
        printf("  outputs:\n");
        for (size_t i = 0; i < m->n_outputs; i++)
            printf("    %-26s %-9s [%g, %g]  %s\n", m->outputs[i].name, m->outputs[i].unit,
                   m->outputs[i].min, m->outputs[i].max, m->outputs[i].description);
        printf("\n");
    }
    if (json)
        fputs("]\n", stdout);
    return 0;
}

static int cmd_eval(int argc, char **argv)
{
    zvp_error err = {0};
    zvp_model_file *mf = NULL;
    int json = 0, st;
    const char *src = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (!src && !strchr(argv[i], '='))
            src = argv[i];
    }
    if (!src)
        return usage(stderr);
    if ((st = open_model(src, &mf, &err)) != ZVP_SUCCESS)
        return json ? json_error(&err) : report(&err);
    for (int i = 0, seen_json = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0 && seen_json++) {
            snprintf(err.message, sizeof err.message, "option --json is given twice");
            err.status = ZVP_EPARSE;
            st = ZVP_EPARSE;
        } else if (argv[i] != src && strcmp(argv[i], "--json") != 0 &&
                   (argv[i][0] == '-' && !strchr(argv[i], '='))) {
            snprintf(err.message, sizeof err.message,
                     "unknown option '%s' (eval takes MODELFILE|MODEL, NAME=VALUE and --json)",
                     argv[i]);
            err.status = st = ZVP_EPARSE;
        } else if (argv[i] != src && strcmp(argv[i], "--json") != 0 &&
                   ((st = check_repeated(argv, i, &err)) != ZVP_SUCCESS ||
                    (st = apply_override(mf, argv[i], &err)) != ZVP_SUCCESS)) {
        }
        if (st != ZVP_SUCCESS) {
            zvp_model_file_free(mf);
            return json ? json_error(&err) : report(&err);
        }
    }
    const zvp_model *m = zvp_model_file_model(mf);
    double *out = malloc(m->n_outputs * sizeof *out);
    if (!out) {
        zvp_model_file_free(mf);
        return 1;
    }
    st = zvp_model_eval(m, zvp_model_file_params(mf), out, &err);
    if (json) {
        fputs("{\"model\": ", stdout);
        json_str(stdout, m->name);
        fputs(", \"outputs\": {", stdout);
        for (size_t j = 0; j < m->n_outputs; j++) {
            fputs(j ? ", " : "", stdout);
            json_str(stdout, m->outputs[j].name);
            fputs(": {\"value\": ", stdout);
            json_num(stdout, out[j]);
            fputs(", \"unit\": ", stdout);
            json_str(stdout, m->outputs[j].unit);
            fputs("}", stdout);
        }
        fputs("}, \"status\": ", stdout);
        json_str(stdout, st == ZVP_SUCCESS ? "ok" : st == ZVP_EUNSTABLE ? "unstable" : "error");
        if (st != ZVP_SUCCESS) {
            fputs(", \"message\": ", stdout);
            json_str(stdout, err.message);
        }
        fputs("}\n", stdout);
    } else if (st == ZVP_SUCCESS) {
        printf("model %s\n", m->name);
        for (size_t j = 0; j < m->n_outputs; j++)
            printf("  %-24s %14.6g %-9s %s\n", m->outputs[j].name, out[j], m->outputs[j].unit,
                   m->outputs[j].description);
    }
    free(out);
    zvp_model_file_free(mf);
    if (st != ZVP_SUCCESS) {
        if (!json)
            return report(&err);
        fprintf(stderr, "zvmperf: error: %s\n", err.message);
        return exit_code(st);
    }
    return 0;
}

static int parse_count(const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "zvmperf: error: %s = '%s' is not an integer in [%ld, %ld]\n", opt, s, lo,
                hi);
        return -1;
    }
    *out = v;
    return 0;
}

#define MAX_AXES 8

static int cmd_sweep(int argc, char **argv, const char *cmdline)
{
    zvp_error err = {0};
    zvp_model_file *mf = NULL;
    zvp_axis axes[MAX_AXES];
    char *names[MAX_AXES] = {0};
    double *vals[MAX_AXES] = {0};
    size_t n_axes = 0;
    const char *src = NULL, *outpath = NULL;
    zvp_sweep_options opt;
    zvp_sweep_summary sum;
    int st = ZVP_SUCCESS, rc = 0;
    long v;

    zvp_sweep_options_init(&opt);
    opt.command = cmdline;
    for (int i = 0; i < argc && rc == 0; i++) {
        const char *a = argv[i];
        if ((strcmp(a, "--axis") == 0 || strcmp(a, "-o") == 0 || strcmp(a, "--threads") == 0 ||
             strcmp(a, "--block") == 0) && i + 1 >= argc) {
            fprintf(stderr, "zvmperf: error: option %s needs a value\n", a);
            rc = EXIT_BADINPUT;
        } else if (strcmp(a, "--axis") == 0) {
            if (n_axes == MAX_AXES) {
                fprintf(stderr, "zvmperf: error: at most %d axes\n", MAX_AXES);
                rc = EXIT_BADINPUT;
            } else if ((st = zvp_axis_parse(argv[++i], &names[n_axes], &vals[n_axes],
                                            &axes[n_axes].n_values, &err)) != ZVP_SUCCESS) {
                rc = report(&err);
            } else {
                axes[n_axes].name = names[n_axes];
                axes[n_axes].values = vals[n_axes];
                n_axes++;
            }
        } else if (strcmp(a, "-o") == 0) {
            if (outpath) {
                fprintf(stderr, "zvmperf: error: option -o is given twice ('%s' and '%s')\n",
                        outpath, argv[i + 1]);
                rc = EXIT_BADINPUT;
            }
            outpath = argv[++i];
        } else if (strcmp(a, "--threads") == 0) {
            if (parse_count("--threads", argv[++i], 0, 4096, &v))
                rc = EXIT_BADINPUT;
            opt.threads = (int32_t)v;
        } else if (strcmp(a, "--block") == 0) {
            if (parse_count("--block", argv[++i], 1, 1L << 30, &v))
                rc = EXIT_BADINPUT;
            opt.block_points = (uint64_t)v;
        } else if (!src && !strchr(a, '=') && a[0] != '-') {
            src = a;
        } else if (a[0] == '-' || !strchr(a, '=')) {
            fprintf(stderr, "zvmperf: error: unknown argument '%s'\n", a);
            rc = EXIT_BADINPUT;
        }
    }
    if (rc == 0 && (!src || !outpath || n_axes == 0)) {
        fprintf(stderr, "zvmperf: error: sweep needs a model file, at least one --axis and -o OUT.h5\n");
        rc = usage(stderr);
    }
    if (rc == 0 && (st = open_model(src, &mf, &err)) != ZVP_SUCCESS)
        rc = report(&err);
    for (int i = 0; rc == 0 && i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--axis") == 0 || strcmp(a, "-o") == 0 || strcmp(a, "--threads") == 0 ||
            strcmp(a, "--block") == 0) {
            i++;
            continue;
        }
        if (a == src || !strchr(a, '='))
            continue;
        for (size_t k = 0; k < n_axes && rc == 0; k++)
            if (override_names(a, axes[k].name)) {
                fprintf(stderr, "zvmperf: error: parameter %s is both swept (--axis) and fixed ('%s')\n",
                        axes[k].name, a);
                rc = EXIT_BADINPUT;
            }
        if (rc == 0 && ((st = check_repeated(argv, i, &err)) != ZVP_SUCCESS ||
                        (st = apply_override(mf, a, &err)) != ZVP_SUCCESS))
            rc = report(&err);
    }
    if (rc == 0) {
        st = zvp_sweep_run(mf, axes, n_axes, outpath, &opt, &sum, &err);
        if (st != ZVP_SUCCESS)
            rc = report(&err);
        else {
            printf("sweep %s: %llu points (%llu ok, %llu no steady state, %llu invalid) in %.3f s "
                   "-> %s\n",
                   zvp_model_file_model(mf)->name, (unsigned long long)sum.points,
                   (unsigned long long)sum.ok, (unsigned long long)sum.unstable,
                   (unsigned long long)sum.invalid, sum.seconds, outpath);
            /* Invalid points are bad input the model rejected at those points (for example a
             * non-integer count): warn, and fail when no point is valid. */
            if (sum.invalid > 0)
                fprintf(stderr, "zvmperf: warning: %llu of %llu points are invalid input (status 3 in "
                        "/status); check the axis values against 'zvmperf models %s'\n",
                        (unsigned long long)sum.invalid, (unsigned long long)sum.points,
                        zvp_model_file_model(mf)->name);
            if (sum.invalid == sum.points) {
                fprintf(stderr, "zvmperf: error: no point of the sweep is valid input; evaluate one "
                        "point with 'zvmperf eval' to see the model's message\n");
                rc = EXIT_BADINPUT;
            }
        }
    }
    for (size_t k = 0; k < n_axes; k++) {
        free(names[k]);
        free(vals[k]);
    }
    zvp_model_file_free(mf);
    return rc;
}

/* REPORT path beside the model file: foo.ini -> foo.report.h5 */
static void report_path(const char *model_path, char *buf, size_t n)
{
    size_t len = strlen(model_path);
    if (len > 4 && strcmp(model_path + len - 4, ".ini") == 0)
        len -= 4;
    snprintf(buf, n, "%.*s.report.h5", (int)len, model_path);
}

/* One summary line: fit, model, release (the fit file's name after "<model>-"), rows, free
 * parameters, smallest R^2 over the matched outputs, overall MAPE, and the worst cell. */
static void print_summary(const char *fitpath, const zvp_fit_result *res)
{
    const zvp_model *m = zvp_model_file_model(zvp_fit_result_model_file(res));
    const char *base = strrchr(fitpath, '/') ? strrchr(fitpath, '/') + 1 : fitpath;
    char name[128], release[128];
    size_t rows = zvp_fit_result_n_rows(res), k = zvp_fit_result_n_matched(res);
    const double *meas = zvp_fit_result_measured(res), *fit = zvp_fit_result_fitted(res);
    double r2min = 1.0 / 0.0, worst = -1.0;
    size_t wi = 0, wj = 0, mlen = strlen(m->name);
    snprintf(name, sizeof name, "%s", base);
    if (strlen(name) > 4 && strcmp(name + strlen(name) - 4, ".ini") == 0)
        name[strlen(name) - 4] = '\0';
    snprintf(release, sizeof release, "%s",
             strncmp(name, m->name, mlen) == 0 && name[mlen] == '-' ? name + mlen + 1 : "-");
    for (size_t j = 0; j < k; j++) {
        double r2 = zvp_fit_result_r2(res, j);
        if (r2 == r2 && r2 < r2min)
            r2min = r2;
    }
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < k; j++) {
            double a = meas[i * k + j], f = fit[i * k + j];
            if (a == a && a != 0.0 && fabs(f - a) / fabs(a) > worst) {
                worst = fabs(f - a) / fabs(a);
                wi = i;
                wj = j;
            }
        }
    if (!isfinite(r2min))
        r2min = NAN; /* no output with a defined R^2 (one row, or flat data) */
    printf("\nsummary: %-22s %-10s %-14s %5zu %5zu %9.4f %8.3f  %s (%s, %+.1f%%)\n", name, m->name,
           release, rows, zvp_fit_result_n_free(res), r2min, zvp_fit_result_mape_all(res),
           worst >= 0 ? zvp_fit_result_row_label(res, wi) : "-",
           worst >= 0 ? zvp_fit_result_output_name(res, wj) : "-",
           worst >= 0 ? 100.0 * (fit[wi * k + wj] - meas[wi * k + wj]) / fabs(meas[wi * k + wj]) : 0.0);
}

static int cmd_calibrate(int argc, char **argv)
{
    zvp_error err = {0};
    zvp_fit *fit = NULL;
    zvp_fit_result *res = NULL;
    const char *fitpath = NULL, *out = NULL, *h5 = NULL;
    char h5buf[4096];
    int st;
    for (int i = 0; i < argc; i++) {
        if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--h5") == 0) && i + 1 >= argc) {
            fprintf(stderr, "zvmperf: error: option %s needs a value\n", argv[i]);
            return EXIT_BADINPUT;
        }
        if (strcmp(argv[i], "-o") == 0)
            out = argv[++i];
        else if (strcmp(argv[i], "--h5") == 0)
            h5 = argv[++i];
        else if (!fitpath && argv[i][0] != '-')
            fitpath = argv[i];
        else {
            fprintf(stderr, "zvmperf: error: calibrate: unknown or repeated argument '%s'\n", argv[i]);
            return usage(stderr);
        }
    }
    if (!fitpath)
        return usage(stderr);
    if ((st = zvp_fit_read(fitpath, &fit, &err)) != ZVP_SUCCESS)
        return report(&err);
    if (!out)
        out = zvp_fit_output_path(fit);
    if (!out) {
        fprintf(stderr, "zvmperf: error: %s has no 'output' in [fit]; give -o MODELFILE\n", fitpath);
        zvp_fit_free(fit);
        return EXIT_BADINPUT;
    }
    if (!h5) {
        report_path(out, h5buf, sizeof h5buf);
        h5 = h5buf;
    }
    st = zvp_fit_run(fit, &res, &err);
    if (st == ZVP_SUCCESS) {
        zvp_fit_result_print(res, stdout);
        print_summary(fitpath, res);
        st = zvp_model_file_write(zvp_fit_result_model_file(res), out, &err);
    }
    if (st == ZVP_SUCCESS)
        st = zvp_fit_result_write_h5(res, h5, &err);
    if (st == ZVP_SUCCESS)
        printf("\nwrote %s and %s\n", out, h5);
    zvp_fit_result_free(res);
    zvp_fit_free(fit);
    return st == ZVP_SUCCESS ? 0 : report(&err);
}

int main(int argc, char **argv)
{
    char cmdline[4096];
    size_t used = 0;
    zvp_init();
    if (argc < 2)
        return usage(stderr);
    cmdline[0] = '\0';
    for (int i = 0; i < argc && used < sizeof cmdline; i++)
        used += (size_t)snprintf(cmdline + used, sizeof cmdline - used, "%s%s", i ? " " : "",
                                 argv[i]);
    if (zvp_version_number() != ZVP_VERSION_NUMBER) {
        fprintf(stderr, "zvmperf: error: library version %s does not match the CLI (%s)\n",
                zvp_version(), ZVP_VERSION_STRING);
        return 1;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "models") == 0)
        return cmd_models(argc - 2, argv + 2);
    if (strcmp(cmd, "eval") == 0)
        return cmd_eval(argc - 2, argv + 2);
    if (strcmp(cmd, "sweep") == 0)
        return cmd_sweep(argc - 2, argv + 2, cmdline);
    if (strcmp(cmd, "solve") == 0)
        return zvp_cli_solve(argc - 2, argv + 2);
    if (strcmp(cmd, "calibrate") == 0)
        return cmd_calibrate(argc - 2, argv + 2);
    if (strcmp(cmd, "version") == 0 && argc > 2) {
        fprintf(stderr, "zvmperf: error: version takes no argument ('%s')\n", argv[2]);
        return EXIT_BADINPUT;
    }
    if (strcmp(cmd, "version") == 0) {
        printf("zvmperf %s\n", zvp_version());
        return 0;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0)
        return usage(stdout);
    fprintf(stderr, "zvmperf: error: unknown command '%s'\n", cmd);
    return usage(stderr);
}
