/*
 * fuzz/common.h - helpers shared by the libFuzzer harnesses (fuzz/README.md): a private
 * scratch directory per fuzzing process, copies of the shipped data in it, and writing the
 * fuzz input to a file there.
 */
#ifndef ZVP_FUZZ_COMMON_H
#define ZVP_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* The repository the harness was built from (the Makefile passes -DZVP_FUZZ_REPO=$(CURDIR));
 * the environment variable ZVP_FUZZ_REPO overrides it at run time. */
#ifndef ZVP_FUZZ_REPO
#define ZVP_FUZZ_REPO "."
#endif

/* The scratch directory of this process: $TMPDIR/zvp-fuzz-XXXXXX (TMPDIR defaults to /tmp),
 * created on the first call and removed with everything in it at exit. Never NULL (aborts
 * when it cannot be created: the harness cannot run). */
const char *fuzz_scratch(void);

/* Make directory <scratch>/<sub> and copy into it every regular file of <repo>/<from> whose
 * name ends in `suffix` (e.g. ".csv"). Returns the number of files copied. */
int fuzz_copy_dir(const char *from, const char *sub, const char *suffix);

/* Write data[0..size) to `path` (created or truncated). Aborts on failure. */
void fuzz_write_file(const char *path, const uint8_t *data, size_t size);

/* Path buffer size used by the harnesses. */
#define FUZZ_PATH_MAX 4096

/* What LLVMFuzzerInitialize of a harness that works on one file does: zvp_init() and
 * path[FUZZ_PATH_MAX] = <scratch>/<name>. */
void fuzz_init_path(char *path, const char *name);

/* Redirect stdout/stderr of the code under test to /dev/null without losing libFuzzer's
 * output: appends -close_fd_mask=3 to libFuzzer's arguments unless a -close_fd_mask flag is
 * already there. Call from LLVMFuzzerInitialize with its arguments. */
void fuzz_quiet(int *argc, char ***argv);

#endif
