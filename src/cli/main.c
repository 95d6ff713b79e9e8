/*
 * src/cli/main.c - the zvmperf command-line tool: the command table and dispatch.
 * src/cli/README.md describes the commands, options, JSON conventions and exit statuses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static int cli_help(const cli_ctx *c, int argc, char **argv);

static const char help_help[] =
    "Usage: zvmperf help [COMMAND]\n"
    "Print the help of COMMAND (or the overview); the same as 'zvmperf COMMAND --help'.\n";

/* The one command table: name, summary, handler, help. */
static const cli_command commands[] = {
    {"models", "list the registered models, their parameters and outputs", cli_models,
     cli_help_models},
    {"eval", "evaluate a model at one point", cli_eval, cli_help_eval},
    {"sweep", "evaluate a model over a grid into HDF5", cli_sweep, cli_help_sweep},
    {"calibrate", "fit a model's parameters to measured data", cli_calibrate, cli_help_calibrate},
    {"validate", "cross-validate a fit: in-sample vs held-out error, dof, coverage", cli_validate,
     cli_help_validate},
    {"sensitivity", "elasticities of a model's outputs to its parameters", cli_sensitivity,
     cli_help_sensitivity},
    {"claims", "evaluate claims files: report statements as tests of the models", cli_claims,
     cli_help_claims},
    {"solve", "analytical queueing solvers (M/M/c, MVA, bounds, USL, ...)", cli_solve, NULL},
    {"simulate", "simulate a queueing network, with confidence intervals", cli_simulate, cli_help_simulate},
    {"version", "print the version and the data search path", cli_version, cli_help_version},
    {"help", "print the help of a command", cli_help, help_help},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static const char exit_text[] =
    "Exit status:\n"
    "  0  success (also --help and --version)\n"
    "  1  I/O or internal failure (a file that cannot be read or written, out of memory), or\n"
    "     an approximate solver that did not converge (its figures are still printed)\n"
    "  2  bad input: usage, an unknown command, option, model, parameter or output name, a\n"
    "     value out of range or not a number, a malformed model or fit file\n"
    "  3  no steady state (e.g. a station at utilization >= 1; the station is named)\n"
    "  4  a check failed: a claim does not hold (claims)\n";

static void overview(FILE *fp)
{
    fprintf(fp, "Usage: zvmperf COMMAND [OPTION]... [ARGUMENT]...\n"
                "       zvmperf --help | --version | help COMMAND\n"
                "Model z/VM memory management with queueing models: evaluate, sweep and calibrate\n"
                "the models, and solve queueing networks.\n\nCommands:\n");
    /* one column, two spaces after the longest name: help2man (the man page) needs them */
    int width = 0;
    for (size_t i = 0; i < N_COMMANDS; i++)
        if ((int)strlen(commands[i].name) > width)
            width = (int)strlen(commands[i].name);
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(fp, "  %-*s  %s\n", width, commands[i].name, commands[i].summary);
    fprintf(fp,
            "\nOptions:\n"
            "  -h, --help      print this help (COMMAND --help: the command's help) and exit\n"
            "      --version   print the version and exit\n"
            "      --json      (every command) the result as one JSON object on stdout; a failure\n"
            "                  too: {\"status\": \"error\", \"message\": ...}\n"
            "\nMODEL (eval, sweep) is a model file, '-' (standard input), the NAME of a\n"
            "calibrated model file (NAME.ini in $ZVMPERF_DATA/params, ./calibration/params or\n"
            "%s/params) or a registered model with its uncalibrated defaults.\n"
            "Options take '--opt value' or '--opt=value'; '--' ends the options; an option given\n"
            "twice is refused (except --axis).\n\n%s"
            "\nJSON: a quantity with a unit is {\"value\": V, \"unit\": U} (U \"1\": dimensionless);\n"
            "a NaN or infinite value is null, and \"nulls\" maps its JSON Pointer to the reason.\n",
            cli_datadir(), exit_text);
}

void cli_print_command_help(const cli_command *cmd, FILE *fp)
{
    if (cmd->help)
        fputs(cmd->help, fp);
    else
        cli_solve_help(fp);
    fprintf(fp, "\n%s", exit_text);
}

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* help --json: {"command": "help", "status", "commands": [{"name", "summary"}], "help": text} */
static int help_json(const cli_command *cmd)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    json_t *d = cli_json_doc("help"), *list = json_array();
    if (fp) {
        if (cmd)
            cli_print_command_help(cmd, fp);
        else
            overview(fp);
        fclose(fp);
    }
    for (size_t i = 0; list && i < N_COMMANDS; i++)
        json_array_append_new(list, json_pack("{s:s, s:s}", "name", commands[i].name, "summary",
                                              commands[i].summary));
    cli_json_set(d, "status", json_string("ok"));
    cli_json_set(d, "commands", list);
    cli_json_set(d, "help", text ? json_string(text) : NULL);
    free(text);
    return cli_json_print(d);
}

static int cli_help(const cli_ctx *c0, int argc, char **argv)
{
    cli_ctx c = *c0;
    cli_args a;
    const cli_command *cmd = NULL;
    int rc = cli_parse(&c, argc, argv, NULL, 0, "", &a);
    if (rc)
        return rc;
    c.json = a.json;
    if (a.n_pos > 1)
        rc = cli_error(&c, ZVP_EINVAL, "help takes one COMMAND ('%s' and '%s')", a.pos[0],
                       a.pos[1]);
    else if (a.n_pos == 1 && (cmd = find_command(a.pos[0])) == NULL)
        rc = cli_error(&c, ZVP_EINVAL, "unknown command '%s' (see 'zvmperf --help')", a.pos[0]);
    cli_args_free(&a);
    if (rc)
        return rc;
    if (c.json)
        return help_json(cmd);
    if (cmd)
        cli_print_command_help(cmd, stdout);
    else
        overview(stdout);
    return CLI_EXIT_OK;
}

int main(int argc, char **argv)
{
    char cmdline[4096];
    size_t used = 0;
    cli_ctx c = {"zvmperf", 0, 0, cmdline};
    zvp_init();
    cmdline[0] = '\0';
    for (int i = 0; i < argc && used < sizeof cmdline; i++)
        used += (size_t)snprintf(cmdline + used, sizeof cmdline - used, "%s%s", i ? " " : "",
                                 argv[i]);
    if (zvp_version_number() != ZVP_VERSION_NUMBER) {
        fprintf(stderr, "zvmperf: error: library version %s does not match the CLI (%s)\n",
                zvp_version(), ZVP_VERSION_STRING);
        return CLI_EXIT_FAILURE;
    }
    if (argc < 2) {
        fprintf(stderr, "zvmperf: error: no command given (usage below)\n");
        overview(stderr);
        return CLI_EXIT_BADINPUT;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        overview(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("zvmperf %s\n", zvp_version());
        return CLI_EXIT_OK;
    }
    const cli_command *cmd = find_command(argv[1]);
    if (!cmd) {
        fprintf(stderr, "zvmperf: error: unknown command '%s'\n", argv[1]);
        overview(stderr);
        return CLI_EXIT_BADINPUT;
    }
    c.command = cmd->name;
    c.json = cli_wants_json(argc - 2, argv + 2);
    if (cli_wants_help(argc - 2, argv + 2)) {
        cli_print_command_help(cmd, stdout);
        return CLI_EXIT_OK;
    }
    return cmd->run(&c, argc - 2, argv + 2);
}
