/* src/util/atomic.c - temporary beside the target, sync, rename (src/util/atomic.h); the
 * output-is-an-input check and the path-climb test. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"
#include "util/atomic.h"

/* The directory part of path ("." when none, "/" for "/x"); malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return zvp_strdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* splitmix64: a well-mixed word from a seed (no global state: the seed comes from the clock,
 * the process id, an address and the attempt number). */
static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* Fill the six X of the temporary name. */
static void unique_suffix(char *six, const void *addr, unsigned attempt)
{
    static const char pool[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = mix64((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
                       ((uint64_t)getpid() << 17) ^ (uint64_t)(uintptr_t)addr ^
                       ((uint64_t)attempt << 48));
    for (int i = 0; i < 6; i++) {
        six[i] = pool[x % 62];
        x /= 62;
    }
}

static int atomic_begin_at(zvp_atomic *a, const char *target, zvp_error *err);

int zvp_atomic_resolve(const char *path, char **out, zvp_error *err)
{
    struct stat lst, st;
    *out = NULL;
    if (path && path[0] && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        if (!(*out = realpath(path, NULL))) {
            int e = errno;
            return zvp_fail(err, e == ENOMEM ? ZVP_ENOMEM : ZVP_EINVAL, "output '%s' is a "
                            "symbolic link whose target cannot be resolved (%s): it must name "
                            "a regular file or a new path", path, strerror(e));
        }
    } else if (!(*out = zvp_strdup(path ? path : ""))) {
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", path ? path : "(null)");
    }
    /* neither a regular file nor a directory (a device such as /dev/null, a FIFO, a socket):
     * the rename would replace it */
    if (stat(*out, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        int rc = zvp_fail(err, ZVP_EINVAL, "output '%s' exists and is not a regular file (a "
                          "device, FIFO or socket), which writing it would replace: it must "
                          "name a regular file or a new path", *out);
        free(*out);
        *out = NULL;
        return rc;
    }
    return ZVP_SUCCESS;
}

/* A symbolic link is written through (its target is replaced, the link stays); a target that
 * exists and is not a regular file (a device such as /dev/null, a FIFO, a socket) is refused:
 * the rename would replace it with a regular file. */
int zvp_atomic_begin(zvp_atomic *a, const char *target, zvp_error *err)
{
    char *resolved;
    int rc;
    if (!a || !target)
        return atomic_begin_at(a, target, err);
    if ((rc = zvp_atomic_resolve(target, &resolved, err)) != ZVP_SUCCESS) {
        a->target = a->tmp = NULL;
        return rc;
    }
    rc = atomic_begin_at(a, resolved, err);
    free(resolved);
    return rc;
}

static int atomic_begin_at(zvp_atomic *a, const char *target, zvp_error *err)
{
    if (!a)
        return zvp_fail(err, ZVP_EINVAL, "zvp_atomic_begin: a is NULL");
    a->target = a->tmp = NULL;
    size_t tlen = target ? strlen(target) : 0;
    if (!target || tlen == 0 || target[tlen - 1] == '/')
        return zvp_fail(err, ZVP_EINVAL, "output path '%s' is empty or ends in '/': it must "
                        "name a file", target ? target : "(null)");
    struct stat st;
    int exists = stat(target, &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return zvp_fail(err, ZVP_EINVAL, "output '%s' is a directory: it must name a file",
                        target);

    char *dir = dir_of(target);
    const char *base = base_of(target);
    int blen = (int)(strlen(base) > 200 ? 200 : strlen(base)); /* the name stays < NAME_MAX */
    size_t n = (dir ? strlen(dir) : 0) + (size_t)blen + 16;
    a->target = zvp_strdup(target);
    a->tmp = malloc(n);
    if (!dir || !a->target || !a->tmp) {
        free(dir);
        zvp_atomic_abort(a);
        return zvp_fail(err, ZVP_ENOMEM, "%s: out of memory", target);
    }
    int fd = -1, e = 0;
    for (unsigned attempt = 0; attempt < 100 && fd < 0; attempt++) {
        int k = snprintf(a->tmp, n, "%s/.%.*s.XXXXXX.tmp", dir, blen, base);
        unique_suffix(a->tmp + k - 10, a, attempt);
        fd = open(a->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        e = errno;
        if (fd < 0 && e != EEXIST)
            break;
    }
    if (fd < 0) {
        free(a->tmp);
        a->tmp = NULL;
        zvp_atomic_abort(a);
        struct stat dst;
        int rc;
        if (e == ENOENT && stat(dir, &dst) != 0)
            rc = zvp_fail(err, ZVP_EIO, "cannot write '%s': directory '%s' does not exist",
                          target, dir);
        else if (e == ENOENT)
            /* the directory exists, yet creating a file in it reports ENOENT: a virtual file
             * system such as /proc or /sys, whose files cannot be replaced */
            rc = zvp_fail(err, ZVP_EIO, "cannot write '%s': directory '%s' exists but does "
                          "not allow new files in it (a virtual file system?)", target, dir);
        else
            rc = zvp_fail(err, ZVP_EIO, "cannot write '%s': cannot create a file in directory "
                          "'%s': %s", target, dir, strerror(e));
        free(dir);
        return rc;
    }
    free(dir);
    if (exists)
        (void)fchmod(fd, st.st_mode & 07777); /* keep the old file's permissions */
    if (close(fd) != 0) {
        e = errno;
        zvp_atomic_abort(a);
        return zvp_fail(err, ZVP_EIO, "cannot write '%s': %s", target, strerror(e));
    }
    return ZVP_SUCCESS;
}

void zvp_atomic_abort(zvp_atomic *a)
{
    if (!a)
        return;
    if (a->tmp)
        (void)unlink(a->tmp);
    free(a->tmp);
    free(a->target);
    a->tmp = a->target = NULL;
}

/* fsync a closed file by its path; 0 or an errno value. */
static int sync_path(const char *path, int dir)
{
    int fd = open(path, O_RDONLY | (dir ? O_DIRECTORY : 0));
    if (fd < 0)
        return errno;
    int e = fsync(fd) == 0 ? 0 : errno;
    if (close(fd) != 0 && !e)
        e = errno;
    return e;
}

/* Rename a's temporary over its target and sync the directory (best effort: some file
 * systems cannot sync a directory). Releases a. */
static int rename_one(zvp_atomic *a, zvp_error *err)
{
    if (rename(a->tmp, a->target) != 0) {
        int e = errno;
        int rc = zvp_fail(err, ZVP_EIO, "cannot replace '%s' by its new content ('%s'): %s",
                          a->target, a->tmp, strerror(e));
        zvp_atomic_abort(a);
        return rc;
    }
    char *dir = dir_of(a->target);
    if (dir)
        (void)sync_path(dir, 1);
    free(dir);
    free(a->tmp);
    a->tmp = NULL;
    zvp_atomic_abort(a);
    return ZVP_SUCCESS;
}

int zvp_atomic_commit(zvp_atomic *a, zvp_error *err)
{
    return zvp_atomic_commit_all(a, 1, err);
}

int zvp_atomic_commit_all(zvp_atomic *a, size_t n, zvp_error *err)
{
    int rc = ZVP_SUCCESS;
    for (size_t i = 0; i < n && rc == ZVP_SUCCESS; i++) {
        if (!a[i].tmp) {
            rc = zvp_fail(err, ZVP_EINVAL, "commit of '%s': nothing was begun",
                          a[i].target ? a[i].target : "(null)");
            break;
        }
        int e = sync_path(a[i].tmp, 0);
        if (e)
            rc = zvp_fail(err, ZVP_EIO, "cannot write '%s': sync failed: %s", a[i].target,
                          strerror(e));
    }
    if (rc != ZVP_SUCCESS) {
        for (size_t i = 0; i < n; i++)
            zvp_atomic_abort(&a[i]);
        return rc;
    }
    for (size_t i = 0; i < n; i++) {
        if (rc == ZVP_SUCCESS) {
            rc = rename_one(&a[i], err);
            if (rc != ZVP_SUCCESS && i > 0 && err) {
                char msg[ZVP_ERRMSG_MAX];
                snprintf(msg, sizeof msg, "%s", err->message);
                zvp_fail(err, rc, "%.300s (the %zu output(s) before it were already replaced)",
                         msg, i);
            }
        } else {
            zvp_atomic_abort(&a[i]);
        }
    }
    return rc;
}

/* ---- same file ------------------------------------------------------------------------ */

/* path made absolute (from the working directory) with ".", ".." and empty segments removed
 * lexically; malloc'd, NULL when out of memory. */
static char *lexical_abs(const char *path)
{
    char cwd[4096] = "";
    if (path[0] != '/' && !getcwd(cwd, sizeof cwd))
        cwd[0] = '\0';
    size_t n = strlen(cwd) + strlen(path) + 2;
    char *in = malloc(n), *out = malloc(n + 1);
    if (!in || !out) {
        free(in);
        free(out);
        return NULL;
    }
    snprintf(in, n, "%s/%s", path[0] == '/' ? "" : cwd, path);
    size_t len = 0;
    for (char *seg = in, *next; seg; seg = next) {
        char *slash = strchr(seg, '/');
        next = slash ? slash + 1 : NULL;
        size_t sl = slash ? (size_t)(slash - seg) : strlen(seg);
        if (sl == 0 || (sl == 1 && seg[0] == '.'))
            continue;
        if (sl == 2 && seg[0] == '.' && seg[1] == '.') {
            while (len > 0 && out[len - 1] != '/')
                len--;
            if (len > 0)
                len--; /* the '/' before the removed segment */
            continue;
        }
        out[len++] = '/';
        memcpy(out + len, seg, sl);
        len += sl;
    }
    if (len == 0)
        out[len++] = '/';
    out[len] = '\0';
    free(in);
    return out;
}

int zvp_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!a || !b || strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return 0;
    int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea && eb)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea != eb)
        return 0; /* one exists, the other does not: not the same name */
    if (strcmp(base_of(a), base_of(b)) != 0)
        return 0;
    char *da = dir_of(a), *db = dir_of(b);
    int same = -1;
    if (da && db && stat(da, &sa) == 0 && stat(db, &sb) == 0)
        same = sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    free(da);
    free(db);
    if (same >= 0)
        return same;
    char *la = lexical_abs(a), *lb = lexical_abs(b);
    same = la && lb && strcmp(la, lb) == 0;
    free(la);
    free(lb);
    return same;
}

int zvp_check_outputs(const char *const *inputs, const char *const *in_what, size_t n_in,
                      const char *const *outputs, const char *const *out_what, size_t n_out,
                      zvp_error *err)
{
    for (size_t j = 0; j < n_out; j++) {
        const char *o = outputs[j];
        if (!o || strcmp(o, "-") == 0)
            continue;
        for (size_t i = 0; i < n_in; i++)
            if (inputs[i] && zvp_same_file(o, inputs[i]))
                return zvp_fail(err, ZVP_EINVAL, "output %s '%s' is the input %s '%s': "
                                "refusing to overwrite an input; write elsewhere",
                                out_what[j], o, in_what[i], inputs[i]);
        for (size_t k = 0; k < j; k++)
            if (outputs[k] && zvp_same_file(o, outputs[k]))
                return zvp_fail(err, ZVP_EINVAL, "outputs %s '%s' and %s '%s' are the same "
                                "file: give each output its own path", out_what[k], outputs[k],
                                out_what[j], o);
    }
    return ZVP_SUCCESS;
}

int zvp_path_climbs(const char *path, int max_up)
{
    if (!path || path[0] == '/')
        return 1;
    int depth = 0;
    for (const char *seg = path; seg && *seg;) {
        const char *slash = strchr(seg, '/');
        size_t sl = slash ? (size_t)(slash - seg) : strlen(seg);
        if (sl == 2 && seg[0] == '.' && seg[1] == '.') {
            if (--depth < -max_up)
                return 1;
        } else if (sl > 0 && !(sl == 1 && seg[0] == '.')) {
            depth++;
        }
        seg = slash ? slash + 1 : NULL;
    }
    return 0;
}
