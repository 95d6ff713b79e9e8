/* fuzz/common.c - see common.h. */
#define _XOPEN_SOURCE 700
#include "common.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "zvmperf/zvmperf.h"

static char scratch[FUZZ_PATH_MAX];

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void remove_scratch(void)
{
    if (scratch[0])
        nftw(scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_scratch(void)
{
    if (!scratch[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(scratch, sizeof scratch, "%s/zvp-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(scratch)) {
            perror("fuzz: mkdtemp");
            abort();
        }
        atexit(remove_scratch);
    }
    return scratch;
}

static const char *repo(void)
{
    const char *r = getenv("ZVP_FUZZ_REPO");
    return r && *r ? r : ZVP_FUZZ_REPO;
}

static int copy_file(const char *src, const char *dst)
{
    char buf[65536];
    ssize_t n;
    int in = open(src, O_RDONLY), out;
    if (in < 0)
        return -1;
    out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0) {
        close(in);
        return -1;
    }
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n) {
            n = -1;
            break;
        }
    close(in);
    close(out);
    return n < 0 ? -1 : 0;
}

int fuzz_copy_dir(const char *from, const char *sub, const char *suffix)
{
    char src_dir[FUZZ_PATH_MAX], dst_dir[FUZZ_PATH_MAX], src[2 * FUZZ_PATH_MAX],
        dst[2 * FUZZ_PATH_MAX];
    struct dirent *e;
    DIR *d;
    int n = 0;
    size_t ls = strlen(suffix);
    snprintf(src_dir, sizeof src_dir, "%s/%s", repo(), from);
    snprintf(dst_dir, sizeof dst_dir, "%s/%s", fuzz_scratch(), sub);
    mkdir(dst_dir, 0755);
    if (!(d = opendir(src_dir))) {
        fprintf(stderr, "fuzz: cannot read %s (set ZVP_FUZZ_REPO to the repository)\n", src_dir);
        return 0;
    }
    while ((e = readdir(d)) != NULL) {
        size_t ln = strlen(e->d_name);
        struct stat st;
        if (ln <= ls || strcmp(e->d_name + ln - ls, suffix) != 0)
            continue;
        snprintf(src, sizeof src, "%s/%s", src_dir, e->d_name);
        snprintf(dst, sizeof dst, "%s/%s", dst_dir, e->d_name);
        if (stat(src, &st) == 0 && S_ISREG(st.st_mode) && copy_file(src, dst) == 0)
            n++;
    }
    closedir(d);
    return n;
}

void fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    size_t done = 0;
    if (fd < 0) {
        perror(path);
        abort();
    }
    while (done < size) {
        ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) {
            perror(path);
            abort();
        }
        done += (size_t)n;
    }
    close(fd);
}

void fuzz_quiet(int *argc, char ***argv)
{
    static char flag[] = "-close_fd_mask=3";
    static char *args[256];
    int n = *argc;
    for (int i = 1; i < n; i++)
        if (strncmp((*argv)[i], "-close_fd_mask", 14) == 0)
            return;
    if (n + 2 > (int)(sizeof args / sizeof args[0]))
        return;
    for (int i = 0; i < n; i++)
        args[i] = (*argv)[i];
    /* the flag goes first: arguments after it (corpus directories, files) keep their order */
    memmove(args + 2, args + 1, (size_t)(n - 1) * sizeof args[0]);
    args[1] = flag;
    args[n + 1] = NULL;
    *argc = n + 1;
    *argv = args;
}

void fuzz_init_path(char *path, const char *name)
{
    zvp_init();
    snprintf(path, FUZZ_PATH_MAX, "%s/%s", fuzz_scratch(), name);
}
