/*
 * src/cli/modelsrc.c - how a model argument (eval, sweep) becomes a model file handle:
 * "-" (standard input), a path, a calibrated file found by name in the search path, or a
 * registered model with its uncalibrated defaults (the lookup itself is the library's
 * zvp_model_file_open, include/zvmperf/claims.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

#ifndef ZVP_DATADIR
#define ZVP_DATADIR "/usr/local/share/zvmperf"
#endif

const char *cli_datadir(void) { return ZVP_DATADIR; }

size_t cli_search_path(char buf[][4096], size_t n_max)
{
    size_t n = 0;
    const char *env = getenv("ZVMPERF_DATA");
    if (env && *env && n < n_max)
        snprintf(buf[n++], sizeof buf[0], "%s/params", env);
    if (n < n_max)
        snprintf(buf[n++], sizeof buf[0], "calibration/params");
    if (n < n_max)
        snprintf(buf[n++], sizeof buf[0], "%s/params", ZVP_DATADIR);
    return n;
}

int cli_open_model(const cli_ctx *c, const char *arg, zvp_model_file **mf, char *found,
                   size_t found_len, zvp_error *err)
{
    char dirs[3][4096];
    const char *dir[3];
    size_t nd = cli_search_path(dirs, 3);
    int st;
    zvp_error_clear(err);
    *mf = NULL;
    snprintf(found, found_len, "%s", arg);
    if (strcmp(arg, "-") == 0)
        return zvp_model_file_read("-", mf, err); /* read once, from memory */
    for (size_t i = 0; i < nd; i++)
        dir[i] = dirs[i];
    /* the library's lookup (shared with the claims evaluator) */
    st = zvp_model_file_open(arg, dir, nd, mf, found, found_len, err);
    if (st == ZVP_SUCCESS && found[0] == '\0')
        cli_warn(c, "'%s' is the registered model with its uncalibrated default parameters (no "
                 "calibrated file %s.ini in the search path; 'zvmperf version' lists it)", arg,
                 arg);
    return st;
}

/* At most this many parameter names are listed; the rest are counted. */
#define CLI_UNSET_LISTED 8

void cli_warn_unset(const cli_ctx *c, const zvp_model_file *mf, const char *file,
                    const char *const *skip, size_t n_skip)
{
    const zvp_model *m = zvp_model_file_model(mf);
    char list[CLI_UNSET_LISTED * 130 + 64];
    size_t n = 0, len = 0;
    if (!m || !file || !*file) /* a registered model's defaults: cli_open_model said so */
        return;
    list[0] = '\0';
    for (size_t i = 0; i < m->n_params; i++) {
        int swept = 0;
        for (size_t k = 0; k < n_skip; k++)
            swept |= strcmp(skip[k], m->params[i].name) == 0;
        if (swept || zvp_model_file_is_set(mf, i) != 0)
            continue;
        if (n < CLI_UNSET_LISTED && len < sizeof list)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%.120s", n ? ", " : "",
                                    m->params[i].name);
        n++;
    }
    if (n == 0)
        return;
    if (n > CLI_UNSET_LISTED && len < sizeof list)
        snprintf(list + len, sizeof list - len, " and %zu more", n - CLI_UNSET_LISTED);
    cli_warn(c, "%s does not set %s: %s the model's uncalibrated default%s ('zvmperf models "
             "%s' lists %s)", strcmp(file, "-") == 0 ? "the model file on standard input" : file,
             list, n == 1 ? "it keeps" : "they keep", n == 1 ? "" : "s", m->name,
             n == 1 ? "it" : "them");
}
