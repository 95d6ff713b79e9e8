/*
 * src/util/atomic.h - the one way the library and the CLI write a file (private).
 *
 * Every output (model files, calibration reports, sweep files) is written to a temporary file
 * in the target's directory, ".NAME.XXXXXX.tmp" (created exclusively, unique name), then
 * synced and renamed over the target only when complete. On any failure the temporary is
 * removed and the old target is untouched: a reader sees the old file or the new one, never a
 * part. A command with several outputs writes all of them to their temporaries first and
 * renames them only when all succeeded (zvp_atomic_commit_all).
 *
 * The same module answers "is this output one of the inputs?" (zvp_same_file,
 * zvp_check_outputs) and "does this relative path climb out of a tree?" (zvp_path_climbs).
 */
#ifndef ZVP_UTIL_ATOMIC_H
#define ZVP_UTIL_ATOMIC_H

#include <stddef.h>
#include "zvmperf/fit.h"
#include "zvmperf/modelfile.h"
#include "zvmperf/status.h"

/* A file being written: the target and its temporary beside it. */
typedef struct zvp_atomic {
    char *target; /* copy of the target path (for messages and the rename) */
    char *tmp;    /* the temporary to write; NULL once committed or aborted */
} zvp_atomic;

/**
 * zvp_atomic_begin - create the empty temporary DIR/.NAME.XXXXXX.tmp beside target (mode
 * 0666 less the umask, or the existing target's permissions). Write it by a->tmp (stdio,
 * HDF5), close it, then zvp_atomic_commit or zvp_atomic_abort.
 * A symbolic link is written through (zvp_atomic_resolve).
 * @return ZVP_SUCCESS; ZVP_EINVAL (target NULL, empty, a directory or ending in '/', an
 *         existing file that is not a regular file: a device, FIFO or socket; a dangling link);
 *         ZVP_EIO (the directory does not exist or is not writable: the message names the
 *         target, the directory and the system's reason); ZVP_ENOMEM. On failure a holds
 *         nothing to release.
 */
int zvp_atomic_begin(zvp_atomic *a, const char *target, zvp_error *err);

/**
 * zvp_atomic_resolve - the path an output named `path` is written to: a symbolic link's
 * resolved target (so the link stays and its file is replaced), else a copy of path.
 * zvp_atomic_begin applies it; writers that rename files of their own (a sweep's .partial)
 * call it first, so their files sit beside the real target.
 * @return ZVP_SUCCESS with *out a malloc'ed path (free it); ZVP_EINVAL (a link whose target
 *         cannot be resolved, e.g. dangling; an existing target that is neither a regular
 *         file nor a directory: a device such as /dev/null, a FIFO, a socket, which a rename
 *         would replace), ZVP_ENOMEM; *out NULL on failure.
 */
int zvp_atomic_resolve(const char *path, char **out, zvp_error *err);

/**
 * zvp_atomic_commit - fsync the (closed) temporary, rename it over the target and fsync the
 * directory. On failure the temporary is removed and the target untouched. a is released
 * either way. @return ZVP_SUCCESS or ZVP_EIO naming the target.
 */
int zvp_atomic_commit(zvp_atomic *a, zvp_error *err);

/**
 * zvp_atomic_commit_all - all or none for n outputs: fsync every temporary, then rename
 * each over its target. If a sync fails, every temporary is removed and no target changes.
 * (A rename in a directory where the temporary was just created does not fail in practice;
 * if one did, the earlier targets are already replaced: the message says which.) Every
 * a[i] is released. @return ZVP_SUCCESS or ZVP_EIO.
 */
int zvp_atomic_commit_all(zvp_atomic *a, size_t n, zvp_error *err);

/** zvp_atomic_abort - remove the temporary (if any) and release a; a no-op on a released
 *  or zeroed a. */
void zvp_atomic_abort(zvp_atomic *a);

/**
 * zvp_same_file - 1 if paths a and b name the same file: same device and inode when both
 * exist; otherwise the same directory (device and inode) and the same last component, or,
 * when a directory does not exist either, the same path after making it absolute and
 * removing "." and ".." lexically. 0 otherwise. "-" (standard input/output) is no file.
 */
int zvp_same_file(const char *a, const char *b);

/**
 * zvp_check_outputs - refuse outputs that are inputs or that name the same file twice.
 * inputs[n_in] and outputs[n_out] are paths (NULL or "-" entries are skipped); in_what and
 * out_what say what each is ("fit file", "data file", "model file (-o)", ...) for the
 * message. @return ZVP_SUCCESS, or ZVP_EINVAL: "output <what> '<path>' is the input <what>
 * '<path>': refusing to overwrite an input" or "... and <what> '<path>' are the same file".
 */
int zvp_check_outputs(const char *const *inputs, const char *const *in_what, size_t n_in,
                      const char *const *outputs, const char *const *out_what, size_t n_out,
                      zvp_error *err);

/**
 * zvp_path_climbs - 1 if path is absolute, or if, read from a directory D segment by segment,
 * it ever goes above `max_up` levels over D ("../x" climbs 1 level, "a/../../x" climbs 1,
 * "../../x" climbs 2); 0 otherwise. Lexical: symbolic links are not followed.
 */
int zvp_path_climbs(const char *path, int max_up);

/* ---- the writers, into a begun temporary a->tmp (the caller commits or aborts; messages
 * name a->target). The public zvp_model_file_write / zvp_fit_result_write_h5 are begin +
 * these + commit. */
int zvp_model_file_write_tmp(const zvp_model_file *mf, const zvp_atomic *a, zvp_error *err);
int zvp_fit_result_write_h5_tmp(const zvp_fit_result *res, const zvp_atomic *a,
                                zvp_error *err);

#endif
