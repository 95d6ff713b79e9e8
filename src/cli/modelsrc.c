/*
 * src/cli/modelsrc.c - how a model argument (eval, sweep) becomes a model file handle:
 * "-" (standard input), a path, a calibrated file found by name in the search path, or a
 * registered model with its uncalibrated defaults.
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

/* Append s to the string in buf (capacity cap), cut to fit. */
static void append(char *buf, size_t cap, const char *s)
{
    size_t n = strlen(buf);
    while (*s && n + 1 < cap)
        buf[n++] = *s++;
    buf[n] = '\0';
}

/* Look NAME (bare: no '/') up in the search path as NAME or NAME.ini. */
static int find_calibrated(const char *name, char *found, size_t found_len)
{
    char dirs[3][4096];
    size_t nd = cli_search_path(dirs, 3), len = strlen(name);
    const int has_ini = len > 4 && strcmp(name + len - 4, ".ini") == 0;
    for (size_t i = 0; i < nd; i++) {
        snprintf(found, found_len, "%s/%s%s", dirs[i], name, has_ini ? "" : ".ini");
        if (access(found, R_OK) == 0)
            return 1;
    }
    found[0] = '\0';
    return 0;
}

int cli_open_model(const cli_ctx *c, const char *arg, zvp_model_file **mf, char *found,
                   size_t found_len, zvp_error *err)
{
    const zvp_model *m;
    zvp_error_clear(err);
    *mf = NULL;
    snprintf(found, found_len, "%s", arg);
    if (strcmp(arg, "-") == 0)
        return zvp_model_file_read("-", mf, err); /* read once, from memory */
    if (access(arg, F_OK) == 0 || strchr(arg, '/'))
        return zvp_model_file_read(arg, mf, err);
    if (find_calibrated(arg, found, found_len))
        return zvp_model_file_read(found, mf, err);
    if ((m = zvp_model_find(arg, err)) == NULL) {
        char models[ZVP_ERRMSG_MAX], dirs[3][4096], where[3 * 4096 + 8] = "";
        size_t nd = cli_search_path(dirs, 3);
        for (size_t i = 0; i < nd; i++)
            snprintf(where + strlen(where), sizeof where - strlen(where), "%s%s", i ? ", " : "",
                     dirs[i]);
        snprintf(models, sizeof models, "%s", err->message);
        snprintf(err->message, sizeof err->message, "'%s' is neither a model file nor a "
                 "registered model, and no calibrated file %s%s is in ", arg, arg,
                 strstr(arg, ".ini") ? "" : ".ini");
        append(err->message, sizeof err->message, where);
        append(err->message, sizeof err->message, ": ");
        append(err->message, sizeof err->message, models);
        return err->status = ZVP_ENOTFOUND;
    }
    found[0] = '\0';
    if ((*mf = zvp_model_file_new(m)) == NULL) {
        snprintf(err->message, sizeof err->message, "out of memory");
        return err->status = ZVP_ENOMEM;
    }
    cli_warn(c, "'%s' is the registered model with its uncalibrated default parameters (no "
             "calibrated file %s.ini in the search path; 'zvmperf version' lists it)", arg, arg);
    return ZVP_SUCCESS;
}
