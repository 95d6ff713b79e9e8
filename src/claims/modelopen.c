/*
 * src/claims/modelopen.c - zvp_model_file_open (include/zvmperf/claims.h): how a model
 * argument becomes a model file handle, shared by the claims evaluator and the command line
 * (`zvmperf eval NAME`, src/cli/modelsrc.c): a path, a calibrated file NAME.ini found in
 * a list of directories, or a registered model with its defaults.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
#include "zvmperf/claims.h"

/* Append s to the string in buf (capacity cap), cut to fit. */
static void append(char *buf, size_t cap, const char *s)
{
    size_t n = strlen(buf);
    while (*s && n + 1 < cap)
        buf[n++] = *s++;
    buf[n] = '\0';
}

/* NAME (or NAME.ini) in the directories: 1 and the path in path[len], or 0. */
static int find_calibrated(const char *name, const char *const *dirs, size_t n_dirs, char *path,
                           size_t len)
{
    size_t n = strlen(name);
    const int has_ini = n > 4 && strcmp(name + n - 4, ".ini") == 0;
    for (size_t i = 0; i < n_dirs; i++) {
        int k = snprintf(path, len, "%s/%s%s", dirs[i], name, has_ini ? "" : ".ini");
        if (k > 0 && (size_t)k < len && access(path, R_OK) == 0)
            return 1;
    }
    return 0;
}

int zvp_model_file_open(const char *arg, const char *const *dirs, size_t n_dirs,
                        zvp_model_file **out, char *found, size_t found_len, zvp_error *err)
{
    char path[4096];
    const zvp_model *m;
    zvp_error e;
    if (out)
        *out = NULL;
    if (found && found_len)
        found[0] = '\0';
    if (!arg || !*arg || !out)
        return zvp_fail(err, ZVP_EINVAL, "zvp_model_file_open: %s", !out ? "out is NULL"
                                                                        : "empty model argument");
    if (access(arg, F_OK) == 0 || strchr(arg, '/')) {
        if (found && found_len)
            snprintf(found, found_len, "%s", arg);
        return zvp_model_file_read(arg, out, err);
    }
    if (find_calibrated(arg, dirs, n_dirs, path, sizeof path)) {
        if (found && found_len)
            snprintf(found, found_len, "%s", path);
        return zvp_model_file_read(path, out, err);
    }
    if ((m = zvp_model_find(arg, &e)) == NULL) {
        char msg[ZVP_ERRMSG_MAX];
        snprintf(msg, sizeof msg, "'%s' is neither a model file nor a registered model, and no "
                 "calibrated file %s%s is in ", arg, arg, strstr(arg, ".ini") ? "" : ".ini");
        for (size_t i = 0; i < n_dirs; i++) {
            if (i)
                append(msg, sizeof msg, ", ");
            append(msg, sizeof msg, dirs[i]);
        }
        if (n_dirs == 0)
            append(msg, sizeof msg, "(no directory searched)");
        append(msg, sizeof msg, ": ");
        append(msg, sizeof msg, e.message);
        return zvp_fail(err, ZVP_ENOTFOUND, "%s", msg);
    }
    if ((*out = zvp_model_file_new(m)) == NULL)
        return zvp_fail(err, ZVP_ENOMEM, "out of memory");
    return ZVP_SUCCESS;
}
