/*
 * zvmperf/fitfile.h - reading a fit file (INI: [fit], [fixed], [inputs], [free], [match])
 * and its CSV data into an in-memory fit (fit.h). The format - keys, data/join/where, how
 * rows and their labels are built - is described in calibration/README.md.
 */
#ifndef ZVMPERF_FITFILE_H
#define ZVMPERF_FITFILE_H

#include "fit.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * zvp_fit_read - parse a fit file and load its data tables into a new fit.
 * @param[in]  path  the fit file, or "-" for standard input; the paths in it are relative to
 *                   its directory. Read once (64 MiB limit), no line-length limit. NULL:
 *                   ZVP_EINVAL.
 * @param[out] out   must not be NULL (ZVP_EINVAL); the new fit on success (free with
 *                   zvp_fit_free), NULL on failure. Its tunables are the file's `starts` and
 *                   `residual` over zvp_fit_default_parameters().
 * @param[out] err   may be NULL; the message on failure.
 * @return ZVP_SUCCESS; ZVP_EIO; ZVP_EPARSE (malformed line "file:line", key given twice,
 *         unknown key or section, data files with different headers, a malformed where);
 *         ZVP_ENOTFOUND (unknown model, parameter, output or column, including a where
 *         column); ZVP_EINVAL (bad bounds, start outside bounds, starts out of [1, 10000],
 *         where leaves no rows, where value not a number for a numeric column, an integer
 *         parameter in [free], an `output` that is absolute or climbs above the parent of
 *         the fit file's directory); ZVP_ENOMEM. Messages name the file, key and value.
 */
int zvp_fit_read(const char *path, zvp_fit **out, zvp_error *err);

/** Output path of the calibrated model file named in the fit file, resolved against the fit
 *  file's directory and within its parent (owned by fit), or NULL when the fit has no `output` key (and for a fit
 *  built in memory). */
const char *zvp_fit_output_path(const zvp_fit *fit);

/** The files a fit read from a fit file: the fit file itself (unless standard input), its
 *  data files, the join file and the base model file, in that order, resolved as above (owned
 *  by fit). zvp_fit_input_file gives NULL for i >= zvp_fit_n_input_files (a fit built in
 *  memory has none) and sets *role (if role is not NULL) to a static "fit file", "data file",
 *  "join file" or "base model file". A command refuses to write an output over any of them. */
size_t zvp_fit_n_input_files(const zvp_fit *fit);
const char *zvp_fit_input_file(const zvp_fit *fit, size_t i, const char **role);

/** Base model file resolved against the fit file's directory, or NULL when none. */
const char *zvp_fit_base_path(const zvp_fit *fit);

#ifdef __cplusplus
}
#endif
#endif /* ZVMPERF_FITFILE_H */
