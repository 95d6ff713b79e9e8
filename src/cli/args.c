/*
 * src/cli/args.c - the argument module: getopt_long over a per-command option table.
 * `--opt value` and `--opt=value`, short forms where the table gives one (-o), `--` ends
 * the options, positional arguments kept in order wherever they stand, unknown options
 * and options given twice refused with their names.
 */
#define _GNU_SOURCE 1 /* getopt_long */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int cli_wants_help(int argc, char **argv)
{
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

int cli_wants_json(int argc, char **argv)
{
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--json") == 0)
            return 1;
    return 0;
}

void cli_args_free(cli_args *a)
{
    free(a->item_opt);
    free((void *)a->item_val);
    free((void *)a->pos);
    a->item_opt = NULL;
    a->item_val = NULL;
    a->pos = NULL;
}

/* The spelling the user gave for option i: "--name" or "-o". */
static void spelling(const cli_args *a, size_t i, int used_long, char *buf, size_t n)
{
    if (i == a->n_spec)
        snprintf(buf, n, "--json");
    else if (!used_long && a->spec[i].short_name)
        snprintf(buf, n, "-%c", a->spec[i].short_name);
    else
        snprintf(buf, n, "--%s", a->spec[i].name);
}

/* Record one occurrence of option i (value v); refuse a second one of a non-repeatable. */
static int record(const cli_ctx *c, cli_args *a, size_t i, const char *v, int used_long,
                  const char *context)
{
    const int repeatable = i < a->n_spec && a->spec[i].repeatable;
    if (a->count[i] > 0 && !repeatable) {
        char name[64];
        spelling(a, i, used_long, name, sizeof name);
        if (i == a->n_spec || !a->spec[i].has_value)
            return cli_error(c, ZVP_EINVAL, "option %s is given twice%s: give it once", name,
                             context);
        return cli_error(c, ZVP_EINVAL,
                         "option %s is given twice%s (first '%s', then '%s'): give it once",
                         name, context, a->value[i], v);
    }
    a->count[i]++;
    if (!a->value[i])
        a->value[i] = v;
    a->item_opt[a->n_items] = (int)i;
    a->item_val[a->n_items++] = v;
    return 0;
}

/* A '?' from getopt_long: an unknown, ambiguous or misused option. */
static int refuse(const cli_ctx *c, const cli_args *a, const char *arg, int optopt_)
{
    const char *eq = strchr(arg, '=');
    if (strncmp(arg, "--", 2) == 0 && eq) {
        size_t n = (size_t)(eq - arg - 2);
        for (size_t i = 0; i <= a->n_spec; i++) {
            const char *name = i < a->n_spec ? a->spec[i].name : "json";
            if (strlen(name) == n && strncmp(name, arg + 2, n) == 0)
                return cli_error(c, ZVP_EINVAL, "option --%s takes no value ('%s')", name, arg);
        }
    }
    if (optopt_ && strncmp(arg, "--", 2) != 0)
        return cli_error(c, ZVP_EINVAL,
                         "unknown option '-%c' (unknown or repeated argument '%s': see "
                         "'zvmperf %s --help')", optopt_, arg, c->command);
    return cli_error(c, ZVP_EINVAL,
                     "unknown option '%s' (unknown or repeated argument '%s': see 'zvmperf %s "
                     "--help')", arg, arg, c->command);
}

int cli_parse(const cli_ctx *c, int argc, char **argv, const cli_option *spec, size_t n_spec,
              const char *context, cli_args *a)
{
    struct option lo[CLI_MAX_OPTIONS + 2];
    char shorts[3 * CLI_MAX_OPTIONS + 4] = "-:";
    size_t ns = 2;
    memset(a, 0, sizeof *a);
    a->spec = spec;
    a->n_spec = n_spec;
    if (n_spec >= CLI_MAX_OPTIONS)
        return cli_error(c, ZVP_EINVAL, "internal: too many options");
    for (size_t i = 0; i < n_spec; i++) {
        lo[i] = (struct option){spec[i].name, spec[i].has_value ? required_argument : no_argument,
                                NULL, 256 + (int)i};
        if (spec[i].short_name) {
            shorts[ns++] = (char)spec[i].short_name;
            if (spec[i].has_value)
                shorts[ns++] = ':';
        }
    }
    lo[n_spec] = (struct option){"json", no_argument, NULL, 256 + (int)n_spec};
    lo[n_spec + 1] = (struct option){NULL, 0, NULL, 0};
    shorts[ns] = '\0';
    /* argv itself is the program's; getopt permutes nothing in RETURN_IN_ORDER mode */
    size_t cap = (size_t)argc + 1;
    a->item_opt = malloc(cap * sizeof *a->item_opt);
    a->item_val = malloc(cap * sizeof *a->item_val);
    a->pos = malloc(cap * sizeof *a->pos);
    if (!a->item_opt || !a->item_val || !a->pos) {
        cli_args_free(a);
        return cli_error(c, ZVP_ENOMEM, "out of memory");
    }
    /* getopt expects argv[0] to be the program: hand it argv shifted by one */
    char **av = argv - 1;
    int rc = 0;
    opterr = 0;
    optind = 0; /* glibc: full re-initialisation */
    for (;;) {
        int li = -1;
        int ch = getopt_long(argc + 1, av, shorts, lo, &li);
        if (ch == -1)
            break;
        const char *arg = av[optind - 1];
        if (ch == 1) {
            a->pos[a->n_pos++] = optarg;
        } else if (ch == ':') {
            rc = cli_error(c, ZVP_EINVAL, "option %s needs a value", arg);
        } else if (ch == '?') {
            rc = refuse(c, a, arg, optopt);
        } else {
            size_t i = SIZE_MAX;
            if (ch >= 256)
                i = (size_t)(ch - 256);
            else
                for (size_t k = 0; k < n_spec; k++)
                    if (spec[k].short_name == ch)
                        i = k;
            rc = record(c, a, i, optarg ? optarg : "", li >= 0, context);
        }
        if (rc)
            break;
    }
    if (!rc)
        for (int i = optind; i < argc + 1; i++)
            a->pos[a->n_pos++] = av[i];
    a->json = a->count[n_spec] > 0;
    if (rc)
        cli_args_free(a);
    return rc;
}
