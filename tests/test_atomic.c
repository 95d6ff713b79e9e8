/* tests/test_atomic.c - the one write mechanism (src/util/atomic.c): a temporary beside the
 * target renamed over it only when complete; the output-is-an-input check; the path-climb
 * rule; the public writers built on it. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <CUnit/CUnit.h>
#include "tests.h"
#include "internal.h"
#include "util/atomic.h"

#define ADIR ZVP_TEST_TMPDIR "/atomic"

/* The whole content of path (malloc'd), or NULL. */
static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = calloc(1, 65536);
    if (buf)
        (void)fread(buf, 1, 65535, fp);
    fclose(fp);
    return buf;
}

static int content_is(const char *path, const char *want)
{
    char *got = slurp(path);
    int same = got && strcmp(got, want) == 0;
    free(got);
    return same;
}

/* Number of ".*.tmp" files in dir. */
static int temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        n += e->d_name[0] == '.' && len > 5 && strcmp(e->d_name + len - 4, ".tmp") == 0;
    }
    closedir(d);
    return n;
}

static void fresh_dir(void)
{
    mkdir(ZVP_TEST_TMPDIR, 0777);
    mkdir(ADIR, 0777);
    DIR *d = opendir(ADIR);
    struct dirent *e;
    char p[512];
    while (d && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, ADIR "/%s", e->d_name);
            unlink(p);
        }
    if (d)
        closedir(d);
}

/* Write text into a begun temporary. */
static void fill(const zvp_atomic *a, const char *text)
{
    FILE *fp = fopen(a->tmp, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    fputs(text, fp);
    CU_ASSERT_EQUAL(fclose(fp), 0);
}

static void test_atomic_replace(void)
{
    zvp_atomic a;
    zvp_error e = {0};
    fresh_dir();
    zvp_test_write_file(ADIR "/t.txt", "old\n");
    chmod(ADIR "/t.txt", 0640);
    CU_ASSERT_EQUAL_FATAL(zvp_atomic_begin(&a, ADIR "/t.txt", &e), ZVP_SUCCESS);
    /* the temporary is beside the target, hidden, unique, and the target is still the old one */
    CU_ASSERT(strncmp(a.tmp, ADIR "/.t.txt.", strlen(ADIR "/.t.txt.")) == 0);
    CU_ASSERT_EQUAL(strlen(a.tmp), strlen(ADIR "/.t.txt.XXXXXX.tmp"));
    CU_ASSERT_EQUAL(temporaries(ADIR), 1);
    fill(&a, "new\n");
    CU_ASSERT(content_is(ADIR "/t.txt", "old\n"));
    CU_ASSERT_EQUAL(zvp_atomic_commit(&a, &e), ZVP_SUCCESS);
    CU_ASSERT_PTR_NULL(a.tmp);
    CU_ASSERT(content_is(ADIR "/t.txt", "new\n"));
    CU_ASSERT_EQUAL(temporaries(ADIR), 0);
    struct stat st;
    CU_ASSERT(stat(ADIR "/t.txt", &st) == 0 && (st.st_mode & 0777) == 0640); /* kept */
    /* a new file (no target yet) */
    CU_ASSERT_EQUAL_FATAL(zvp_atomic_begin(&a, ADIR "/n.txt", &e), ZVP_SUCCESS);
    fill(&a, "first\n");
    CU_ASSERT_EQUAL(zvp_atomic_commit(&a, &e), ZVP_SUCCESS);
    CU_ASSERT(content_is(ADIR "/n.txt", "first\n"));
    /* two begun at once get different names */
    zvp_atomic b;
    CU_ASSERT_EQUAL_FATAL(zvp_atomic_begin(&a, ADIR "/t.txt", &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_atomic_begin(&b, ADIR "/t.txt", &e), ZVP_SUCCESS);
    CU_ASSERT(strcmp(a.tmp, b.tmp) != 0);
    zvp_atomic_abort(&a);
    zvp_atomic_abort(&b);
    CU_ASSERT_EQUAL(temporaries(ADIR), 0);
    CU_ASSERT(content_is(ADIR "/t.txt", "new\n"));
}

static void test_atomic_failures(void)
{
    zvp_atomic a, two[2];
    zvp_error e = {0};
    fresh_dir();
    zvp_test_write_file(ADIR "/keep.txt", "keep\n");
    /* abort: the temporary goes, the old file stays */
    CU_ASSERT_EQUAL_FATAL(zvp_atomic_begin(&a, ADIR "/keep.txt", &e), ZVP_SUCCESS);
    fill(&a, "half");
    zvp_atomic_abort(&a);
    zvp_atomic_abort(&a); /* twice is a no-op */
    CU_ASSERT(content_is(ADIR "/keep.txt", "keep\n"));
    CU_ASSERT_EQUAL(temporaries(ADIR), 0);
    /* a directory that does not exist: ZVP_EIO naming target and directory, nothing made */
    CU_ASSERT_EQUAL(zvp_atomic_begin(&a, ADIR "/nodir/x.txt", &e), ZVP_EIO);
    CU_ASSERT(zvp_test_msg_has(&e, ADIR "/nodir/x.txt"));
    CU_ASSERT(zvp_test_msg_has(&e, "directory '" ADIR "/nodir' does not exist"));
    CU_ASSERT_PTR_NULL(a.tmp);
    /* a directory that exists but refuses new files with ENOENT (Linux /proc): the message
     * must not say the directory is missing */
    struct stat pst;
    if (stat("/proc/version", &pst) == 0) {
        CU_ASSERT_EQUAL(zvp_atomic_begin(&a, "/proc/version", &e), ZVP_EIO);
        CU_ASSERT(zvp_test_msg_has(&e, "'/proc' exists but does not allow new files"));
        CU_ASSERT(!zvp_test_msg_has(&e, "does not exist"));
        CU_ASSERT_PTR_NULL(a.tmp);
    }
    /* a symbolic link is written through: its file changes, the link stays a link */
    zvp_test_write_file(ADIR "/real.txt", "old\n");
    unlink(ADIR "/link.txt");
    CU_ASSERT_EQUAL_FATAL(symlink("real.txt", ADIR "/link.txt"), 0);
    CU_ASSERT_EQUAL_FATAL(zvp_atomic_begin(&a, ADIR "/link.txt", &e), ZVP_SUCCESS);
    fill(&a, "new\n");
    CU_ASSERT_EQUAL(zvp_atomic_commit(&a, &e), ZVP_SUCCESS);
    struct stat lst;
    CU_ASSERT(lstat(ADIR "/link.txt", &lst) == 0 && S_ISLNK(lst.st_mode));
    CU_ASSERT(content_is(ADIR "/real.txt", "new\n"));
    /* a dangling link and a FIFO (as a device would be) are refused, and stay what they were */
    unlink(ADIR "/dangling.txt");
    CU_ASSERT_EQUAL_FATAL(symlink("none.txt", ADIR "/dangling.txt"), 0);
    CU_ASSERT_EQUAL(zvp_atomic_begin(&a, ADIR "/dangling.txt", &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "symbolic link"));
    CU_ASSERT(lstat(ADIR "/dangling.txt", &lst) == 0 && S_ISLNK(lst.st_mode));
    unlink(ADIR "/fifo");
    CU_ASSERT_EQUAL_FATAL(mkfifo(ADIR "/fifo", 0666), 0);
    CU_ASSERT_EQUAL(zvp_atomic_begin(&a, ADIR "/fifo", &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "not a regular file"));
    CU_ASSERT(lstat(ADIR "/fifo", &lst) == 0 && S_ISFIFO(lst.st_mode));
    CU_ASSERT_PTR_NULL(a.tmp);
    unlink(ADIR "/link.txt");
    unlink(ADIR "/real.txt");
    unlink(ADIR "/dangling.txt");
    unlink(ADIR "/fifo");
    /* a directory as target, an empty path, a path ending in '/' */
    mkdir(ADIR "/sub", 0777);
    CU_ASSERT_EQUAL(zvp_atomic_begin(&a, ADIR "/sub", &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "is a directory"));
    CU_ASSERT_EQUAL(zvp_atomic_begin(&a, "", &e), ZVP_EINVAL);
    CU_ASSERT_EQUAL(zvp_atomic_begin(&a, ADIR "/", &e), ZVP_EINVAL);
    rmdir(ADIR "/sub");
    /* the temporary vanishes before the commit (injected failure): EIO, target untouched */
    CU_ASSERT_EQUAL_FATAL(zvp_atomic_begin(&a, ADIR "/keep.txt", &e), ZVP_SUCCESS);
    fill(&a, "new\n");
    unlink(a.tmp);
    CU_ASSERT_EQUAL(zvp_atomic_commit(&a, &e), ZVP_EIO);
    CU_ASSERT(zvp_test_msg_has(&e, ADIR "/keep.txt"));
    CU_ASSERT(content_is(ADIR "/keep.txt", "keep\n"));
    /* all or none: the second output's temporary fails to sync, so neither target changes */
    zvp_test_write_file(ADIR "/b.txt", "old b\n");
    CU_ASSERT_EQUAL_FATAL(zvp_atomic_begin(&two[0], ADIR "/keep.txt", &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_atomic_begin(&two[1], ADIR "/b.txt", &e), ZVP_SUCCESS);
    fill(&two[0], "new a\n");
    fill(&two[1], "new b\n");
    unlink(two[1].tmp);
    CU_ASSERT_EQUAL(zvp_atomic_commit_all(two, 2, &e), ZVP_EIO);
    CU_ASSERT(content_is(ADIR "/keep.txt", "keep\n"));
    CU_ASSERT(content_is(ADIR "/b.txt", "old b\n"));
    CU_ASSERT_EQUAL(temporaries(ADIR), 0);
    /* and both when both are complete */
    CU_ASSERT_EQUAL_FATAL(zvp_atomic_begin(&two[0], ADIR "/keep.txt", &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_atomic_begin(&two[1], ADIR "/b.txt", &e), ZVP_SUCCESS);
    fill(&two[0], "new a\n");
    fill(&two[1], "new b\n");
    CU_ASSERT_EQUAL(zvp_atomic_commit_all(two, 2, &e), ZVP_SUCCESS);
    CU_ASSERT(content_is(ADIR "/keep.txt", "new a\n"));
    CU_ASSERT(content_is(ADIR "/b.txt", "new b\n"));
    /* a directory that becomes read-only (not for root, who may write anyway) */
    if (geteuid() != 0) {
        mkdir(ADIR "/ro", 0777);
        zvp_test_write_file(ADIR "/ro/f.txt", "ro\n");
        chmod(ADIR "/ro", 0555);
        CU_ASSERT_EQUAL(zvp_atomic_begin(&a, ADIR "/ro/f.txt", &e), ZVP_EIO);
        CU_ASSERT(zvp_test_msg_has(&e, "ermission denied"));
        CU_ASSERT(content_is(ADIR "/ro/f.txt", "ro\n"));
        chmod(ADIR "/ro", 0777);
        unlink(ADIR "/ro/f.txt");
        rmdir(ADIR "/ro");
    }
    CU_ASSERT_EQUAL(temporaries(ADIR), 0);
}

/* The public writers: a model file replaced whole, and a failed write keeps the old one. */
static void test_atomic_writers(void)
{
    const zvp_model *m = zvp_test_find_model("mmc");
    zvp_model_file *mf = zvp_model_file_new(m), *back = NULL;
    zvp_error e = {0};
    fresh_dir();
    CU_ASSERT_PTR_NOT_NULL_FATAL(mf);
    zvp_test_write_file(ADIR "/m.ini", "previous\n");
    CU_ASSERT_EQUAL(zvp_model_file_set(mf, "servers", 3, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_model_file_write(mf, ADIR "/m.ini", &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_model_file_read(ADIR "/m.ini", &back, &e), ZVP_SUCCESS);
    CU_ASSERT_EQUAL(zvp_model_file_params(back)[zvp_model_param_index(m, "servers", &e)], 3.0);
    zvp_model_file_free(back);
    CU_ASSERT_EQUAL(temporaries(ADIR), 0);
    zvp_test_write_file(ADIR "/m.ini", "previous\n");
    CU_ASSERT_EQUAL(zvp_model_file_write(mf, ADIR "/nodir/m.ini", &e), ZVP_EIO);
    mkdir(ADIR "/d.ini", 0777);
    CU_ASSERT_EQUAL(zvp_model_file_write(mf, ADIR "/d.ini", &e), ZVP_EINVAL);
    rmdir(ADIR "/d.ini");
    CU_ASSERT(content_is(ADIR "/m.ini", "previous\n"));
    CU_ASSERT_EQUAL(temporaries(ADIR), 0);
    zvp_model_file_free(mf);
}

static void test_same_file(void)
{
    const char *in[2] = {ADIR "/in.csv", NULL}, *in_what[2] = {"data file", "none"};
    const char *out[2] = {ADIR "/o.ini", ADIR "/o.h5"}, *out_what[2] = {"model file", "report"};
    zvp_error e = {0};
    fresh_dir();
    zvp_test_write_file(ADIR "/in.csv", "a\n1\n");
    CU_ASSERT(zvp_same_file(ADIR "/in.csv", ADIR "/./in.csv"));
    CU_ASSERT(zvp_same_file(ADIR "/in.csv", ZVP_TEST_TMPDIR "/../" ADIR "/in.csv"));
    CU_ASSERT_EQUAL(link(ADIR "/in.csv", ADIR "/hard.csv"), 0); /* same inode, other name */
    CU_ASSERT(zvp_same_file(ADIR "/in.csv", ADIR "/hard.csv"));
    CU_ASSERT(!zvp_same_file(ADIR "/in.csv", ADIR "/other.csv"));
    /* neither exists: same directory and name, or the same lexical path */
    CU_ASSERT(zvp_same_file(ADIR "/new.ini", ADIR "/../atomic/new.ini"));
    CU_ASSERT(!zvp_same_file(ADIR "/new.ini", ADIR "/new.h5"));
    CU_ASSERT(zvp_same_file(ADIR "/no/x/../y.ini", ADIR "/no/y.ini"));
    CU_ASSERT(!zvp_same_file(ADIR "/no/y.ini", ADIR "/nx/y.ini"));
    CU_ASSERT(!zvp_same_file("-", "-")); /* standard input/output is no file */
    CU_ASSERT_EQUAL(zvp_check_outputs(in, in_what, 2, out, out_what, 2, &e), ZVP_SUCCESS);
    out[1] = ADIR "/hard.csv";
    CU_ASSERT_EQUAL(zvp_check_outputs(in, in_what, 2, out, out_what, 2, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "output report '" ADIR "/hard.csv' is the input data file '"
                                   ADIR "/in.csv'"));
    out[1] = ADIR "/./o.ini";
    CU_ASSERT_EQUAL(zvp_check_outputs(in, in_what, 2, out, out_what, 2, &e), ZVP_EINVAL);
    CU_ASSERT(zvp_test_msg_has(&e, "are the same file"));
    CU_ASSERT(zvp_test_msg_has(&e, "model file '" ADIR "/o.ini'"));
    unlink(ADIR "/hard.csv");
}

static void test_path_climbs(void)
{
    CU_ASSERT(!zvp_path_climbs("x.ini", 1));
    CU_ASSERT(!zvp_path_climbs("../params/x.ini", 1));
    CU_ASSERT(!zvp_path_climbs("./a/../../params/x.ini", 1));
    CU_ASSERT(!zvp_path_climbs("a//b/./x.ini", 0));
    CU_ASSERT(zvp_path_climbs("../x.ini", 0));
    CU_ASSERT(zvp_path_climbs("../../x.ini", 1));
    CU_ASSERT(zvp_path_climbs("a/../../../x.ini", 1)); /* climbs 2 on the way */
    CU_ASSERT(zvp_path_climbs("../../a/b/c/x.ini", 1)); /* even if it ends deeper */
    CU_ASSERT(zvp_path_climbs("/etc/x.ini", 5));
    CU_ASSERT(zvp_path_climbs(NULL, 1));
}

/* The files a fit read, with their roles, for the output-is-an-input check. */
static void test_fit_input_files(void)
{
    zvp_fit *fit = NULL;
    zvp_error e = {0};
    const char *role = NULL;
    CU_ASSERT_EQUAL_FATAL(zvp_fit_read("../calibration/fits/sweetspot-zvm63-only.ini", &fit, &e),
                          ZVP_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_n_input_files(fit), 3);
    CU_ASSERT_STRING_EQUAL(zvp_fit_input_file(fit, 0, &role), "../calibration/fits/sweetspot-zvm63-only.ini");
    CU_ASSERT_STRING_EQUAL(role, "fit file");
    CU_ASSERT_STRING_EQUAL(zvp_fit_input_file(fit, 1, &role),
                           "../calibration/fits/../data/000_table3_sweetspot_zvm63.csv");
    CU_ASSERT_STRING_EQUAL(role, "data file");
    CU_ASSERT_STRING_EQUAL(zvp_fit_input_file(fit, 2, &role),
                           "../calibration/fits/../data/000_table1_sweetspot_config.csv");
    CU_ASSERT_STRING_EQUAL(role, "join file");
    CU_ASSERT_PTR_NULL(zvp_fit_input_file(fit, 3, &role));
    CU_ASSERT_STRING_EQUAL(zvp_fit_output_path(fit),
                           "../calibration/fits/../params/sweetspot-zvm63-only.ini");
    zvp_fit_free(fit);
    CU_ASSERT_EQUAL_FATAL(zvp_fit_read("../calibration/fits/dump-eckd-zvm62.ini", &fit, &e),
                          ZVP_SUCCESS);
    size_t n = zvp_fit_n_input_files(fit);
    CU_ASSERT_FATAL(n >= 3);
    CU_ASSERT_STRING_EQUAL(zvp_fit_input_file(fit, n - 1, &role), zvp_fit_base_path(fit));
    CU_ASSERT_STRING_EQUAL(role, "base model file");
    zvp_fit_free(fit);
    CU_ASSERT_EQUAL(zvp_fit_n_input_files(NULL), 0);
}

int zvp_test_register_atomic(void)
{
    CU_pSuite s = CU_add_suite("atomic writes", NULL, NULL);
    if (!s || !CU_add_test(s, "success replaces", test_atomic_replace) ||
        !CU_add_test(s, "failure keeps the old content", test_atomic_failures) ||
        !CU_add_test(s, "model file writer", test_atomic_writers) ||
        !CU_add_test(s, "same file", test_same_file) ||
        !CU_add_test(s, "path climbs", test_path_climbs) ||
        !CU_add_test(s, "fit input files", test_fit_input_files))
        return 1;
    return 0;
}
