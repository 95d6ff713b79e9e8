/*
 * src/cli/version.c - `zvmperf version [--json]` (and `zvmperf --version`).
 */
#include <stdio.h>
#include "cli.h"

const char cli_help_version[] =
    "Usage: zvmperf version [--json]\n"
    "Print the library version, the installed data directory and the directories searched\n"
    "for calibrated model files by name (in order).\n"
    "\n"
    "Options:\n"
    "      --json   one JSON object {\"command\", \"status\", \"version\", \"version_number\",\n"
    "               \"datadir\", \"search_path\": [...]}\n"
    "  -h, --help   this help\n";

int cli_version(const cli_ctx *c0, int argc, char **argv)
{
    cli_ctx c = *c0;
    cli_args a;
    char dirs[3][4096];
    int rc = cli_parse(&c, argc, argv, NULL, 0, "", &a);
    if (rc)
        return rc;
    c.json = a.json;
    if (a.n_pos > 0) {
        rc = cli_error(&c, ZVP_EINVAL, "version takes no argument ('%s')", a.pos[0]);
        cli_args_free(&a);
        return rc;
    }
    cli_args_free(&a);
    size_t nd = cli_search_path(dirs, 3);
    if (!c.json) {
        printf("zvmperf %s\n", zvp_version());
        printf("data directory: %s\ncalibrated model files by name, searched in:", cli_datadir());
        for (size_t i = 0; i < nd; i++)
            printf(" %s", dirs[i]);
        printf("\n");
        return CLI_EXIT_OK;
    }
    json_t *d = cli_json_doc("version"), *sp = json_array();
    cli_json_set(d, "status", json_string("ok"));
    cli_json_set(d, "version", json_string(zvp_version()));
    cli_json_set(d, "version_number", json_integer(zvp_version_number()));
    cli_json_set(d, "datadir", json_string(cli_datadir()));
    for (size_t i = 0; sp && i < nd; i++)
        json_array_append_new(sp, json_string(dirs[i]));
    cli_json_set(d, "search_path", sp);
    return cli_json_print(d);
}
