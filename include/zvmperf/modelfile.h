/*
 * zvmperf/modelfile.h - model files: a registered model with a parameter vector, standard
 * errors and provenance, read from and written to INI text.
 *
 *     [model]       name = <registered model>
 *     [parameters]  <param> = <number>        (units as in the descriptor)
 *     [stderr]      <param> = <number>        (standard errors of fitted values, optional)
 *     [transform]   <param> = logistic <lo> <hi>     (fitted parametrisation, optional)
 *     [covariance]  <param> = <c_1> ... <c_n>         (covariance of the fitted u, optional)
 *     [residual_variance] <output> = <s^2> relative|absolute   (optional)
 *     [provenance]  <key> = <text>            (optional; escapes: zvp_model_file_set_provenance)
 * The uncertainty sections are described in calibration/README.md ("Covariance in model
 * files"); files without them read as before.
 */
#ifndef ZVMPERF_MODELFILE_H
#define ZVMPERF_MODELFILE_H

#include <stddef.h>
#include "status.h"
#include "model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A model with a parameter vector, as read from a model file. Opaque handle. */
typedef struct zvp_model_file zvp_model_file;

/**
 * zvp_model_file_read - read and parse a model file:
 *     [model]       name = <registered model>
 *     [parameters]  <param> = <number>        (units as in the descriptor)
 *     [provenance]  <key> = <text>            (optional; escapes: zvp_model_file_set_provenance)
 *     [stderr]      <param> = <number>        (standard errors of fitted values, optional)
 * Parameters not set keep their defaults. Values are range-checked ([parameters]: in the
 * descriptor's [min, max], whole numbers for `integer` parameters; [stderr]: a finite
 * number >= 0, -0 stored as 0). [model] may also hold `description` (ignored).
 * The file is read once into memory (at most 64 MiB; lines of any length). Syntax: see
 * zvp_model_file_parse.
 * @param[in]  path  file path, or "-" for standard input (NULL: ZVP_EINVAL).
 * @param[out] out   must not be NULL; new handle on success (free with
 *                   zvp_model_file_free), NULL otherwise.
 * @return ZVP_SUCCESS; ZVP_EIO (missing/unreadable file, a directory, larger than the
 *         limit); ZVP_EPARSE
 *         (malformed line, message gives file and line; a value that is not a finite
 *         number; a key given twice in the same section, e.g. a parameter set twice in
 *         [parameters]: an error, not "last wins", the message quotes both values; no
 *         `name` in [model]; an unknown key in [model]; an unknown section); ZVP_ENOTFOUND
 *         (unknown model, or a [parameters]/[stderr] key that is not a parameter of the
 *         model); ZVP_EINVAL (NULL path; value out of range or not a whole number for an
 *         integer parameter); ZVP_ENOMEM.
 */
int zvp_model_file_read(const char *path, zvp_model_file **out, zvp_error *err);

/**
 * zvp_model_file_parse - parse a model file held in memory (e.g. standard input read by the
 * caller). Same syntax, checks and errors as zvp_model_file_read; zvp_model_file_read(path)
 * is zvp_read_input + this function.
 *   INI syntax: "[section]" lines; "key = value" lines (key and value trimmed; in a value,
 *   ';' after a blank starts a comment); lines starting with ';' or '#' are comments; LF or
 *   CRLF line ends; a UTF-8 byte-order mark is skipped; no line-length limit. Numbers are
 *   decimal (sign, digits, optional point and exponent): no hexadecimal, inf or nan.
 * @param[in]  name  the name used in messages ("<name>:<line>: ..."), not NULL.
 * @param[in]  text  len bytes (need not be NUL-terminated; a NUL byte is a parse error);
 *                   NULL only when len is 0.
 * @param[out] out   not NULL; new handle on success (zvp_model_file_text gives the text),
 *                   NULL otherwise.
 * @return as zvp_model_file_read (ZVP_EINVAL for NULL name or out; no ZVP_EIO).
 */
int zvp_model_file_parse(const char *name, const char *text, size_t len, zvp_model_file **out,
                         zvp_error *err);

/** zvp_model_file_new - a handle for model `m` with its default parameters, or NULL (ENOMEM). */
zvp_model_file *zvp_model_file_new(const zvp_model *m);

/** zvp_model_file_free - free a handle; NULL is a no-op. */
void zvp_model_file_free(zvp_model_file *mf);

/** Accessors. The returned pointers belong to the handle and live until it is freed.
 *  zvp_model_file_model: the (static) model descriptor; NULL when mf is NULL.
 *  zvp_model_file_params: the writable vector [model->n_params], in descriptor order and
 *  the descriptor's units; NULL when mf is NULL. Values written through it are not checked
 *  here (zvp_model_eval checks them at evaluation). */
const zvp_model *zvp_model_file_model(const zvp_model_file *mf);
double *zvp_model_file_params(zvp_model_file *mf);
/** Text of the file as read (empty for a handle made by zvp_model_file_new); NULL when mf
 *  is NULL. */
const char *zvp_model_file_text(const zvp_model_file *mf);
/** zvp_model_file_stderr - standard error recorded for parameter i (descriptor index, in
 *  the parameter's unit), or NaN when none is recorded, when i >= model->n_params, or when
 *  mf is NULL. */
double zvp_model_file_stderr(const zvp_model_file *mf, size_t i);
/**
 * zvp_model_file_is_set - whether parameter i holds a value that was given rather than the
 * model's default. A file need not set every parameter (those it leaves out keep the
 * descriptor's default, zvp_model_defaults); this tells a caller which ones it left out,
 * e.g. to warn that a truncated or hand-written file evaluates partly at uncalibrated
 * defaults.
 * @param[in] mf  the handle (NULL: -1).
 * @param[in] i   descriptor index, 0 <= i < model->n_params (otherwise -1).
 * @return 1 when the [parameters] section of the text read set parameter i, or
 *         zvp_model_file_set set it since; 0 when it holds the model's default (every
 *         parameter of a handle from zvp_model_file_new; values written through the
 *         zvp_model_file_params pointer are not tracked and leave the answer as it was);
 *         -1 for a NULL mf or i out of range. No error status: a pure query.
 */
int zvp_model_file_is_set(const zvp_model_file *mf, size_t i);
/** zvp_model_file_set_stderr - record se as the standard error of parameter i
 *  (0 <= i < model->n_params, descriptor index; an i out of range, or a NULL mf, is a
 *  no-op). se is stored as given, unchecked: NaN (or +-inf) means "none": it clears a
 *  recorded value, zvp_model_file_stderr then returns it as given and zvp_model_file_write
 *  leaves the parameter out of [stderr] (only finite values are written); a finite
 *  negative value is not rejected and is written as is (a standard error is >= 0: callers
 *  should not pass one). */
void zvp_model_file_set_stderr(zvp_model_file *mf, size_t i, double se);

/**
 * zvp_model_file_set - set one parameter by name (range-checked).
 * @return ZVP_SUCCESS, ZVP_ENOTFOUND (unknown name), ZVP_EINVAL (value out of range/NaN).
 */
int zvp_model_file_set(zvp_model_file *mf, const char *name, double value, zvp_error *err);

/**
 * zvp_model_file_set_provenance - add or replace a [provenance] key (copied).
 * A key is non-empty valid UTF-8 without '=', ';', brackets, control characters or blanks at
 * its ends, and does not start with '#' (any length). A value is one line of valid UTF-8
 * (tabs allowed). Values are written escaped so that any value reads back unchanged: '\' as
 * "\\", a ';' first or after a blank as "\;" (else the INI comment rule would cut it), a
 * blank at either end as "\s" (space) or "\t" (tab); reading undoes these four escapes only.
 * @return ZVP_SUCCESS; ZVP_EINVAL (NULL, a key or value breaking these rules: the message
 *         names the key and the offending byte); ZVP_ENOMEM.
 */
int zvp_model_file_set_provenance(zvp_model_file *mf, const char *key, const char *value,
                                  zvp_error *err);

/** zvp_model_file_provenance - the value of a [provenance] key (owned by mf), NULL when the
 *  key is not set or mf or key is NULL. */
const char *zvp_model_file_provenance(const zvp_model_file *mf, const char *key);

/**
 * zvp_model_file_write - write the handle as a model file ([model], [parameters] with unit
 * comments, [stderr] where known, [provenance]). Atomic: written to a temporary file in
 * path's directory and renamed over path only when complete; on failure path is untouched.
 * [parameters] round-trips exactly: each value is written in the shortest of %.12g, %.15g
 * and %.17g that reads back (strtod) as the identical double, so zvp_model_file_read of
 * the file gives bit-identical parameters. [stderr] lists the finite standard errors only,
 * with %.6g (6 significant digits: not exact). [provenance] lines are written whole as
 * "key = value" with the value escaped, so they read back as set; -0 is written 0; the
 * unit and description comment above each parameter is cut at 20 and 150 characters.
 * @param[in] mf    the handle, not NULL.
 * @param[in] path  output path, not NULL.
 * @return ZVP_SUCCESS; ZVP_EINVAL (NULL, or path a directory); ZVP_EIO (cannot create or
 *         finish writing path; message names it).
 */
int zvp_model_file_write(const zvp_model_file *mf, const char *path, zvp_error *err);

/* ---- Uncertainty of a calibrated file (sections [transform], [covariance],
 * [residual_variance]; calibration/README.md, "Covariance in model files"). A fitted
 * parameter theta in (lo, hi) is fitted as u = log((theta - lo) / (hi - theta)); the
 * covariance is that of u (the solver's s^2 (J_u^T J_u)^-1 with the effective dof). All
 * values round-trip exactly through zvp_model_file_write / zvp_model_file_read. ---- */

/* Residual kinds of [residual_variance]: relative = of (model - measured) / |measured|,
 * absolute = of (model - measured) in the output's unit. */
enum { ZVP_RESVAR_RELATIVE = 0, ZVP_RESVAR_ABSOLUTE = 1 };

/** zvp_model_file_set_transform - parameter i (descriptor index) is fitted through the
 *  logistic map onto (lo, hi). @return ZVP_SUCCESS; ZVP_EINVAL (NULL, i out of range, not
 *  finite lo < hi). */
int zvp_model_file_set_transform(zvp_model_file *mf, size_t i, double lo, double hi,
                                 zvp_error *err);
/** Transforms in file order: their count, and entry k's parameter index (lo, hi through the
 *  pointers, may be NULL); (size_t)-1 when k is out of range. */
size_t zvp_model_file_n_transforms(const zvp_model_file *mf);
size_t zvp_model_file_transform_at(const zvp_model_file *mf, size_t k, double *lo, double *hi);

/** zvp_model_file_set_covariance - covariance [n * n] row-major of the transformed
 *  parameters params[n] (descriptor indices, each with a transform); n = 0 clears it.
 *  @return ZVP_SUCCESS; ZVP_EINVAL (NULL, an index without a transform or repeated, an entry
 *  not finite, not exactly symmetric, a negative variance; the message names them);
 *  ZVP_ENOMEM. */
int zvp_model_file_set_covariance(zvp_model_file *mf, size_t n, const size_t *params,
                                  const double *cov, zvp_error *err);
/** The covariance: its size n (0: none, e.g. a saturated fit), parameter indices [n] and
 *  matrix [n * n] (NULL when n = 0); owned by mf. */
size_t zvp_model_file_n_covariance(const zvp_model_file *mf);
const size_t *zvp_model_file_covariance_params(const zvp_model_file *mf);
const double *zvp_model_file_covariance(const zvp_model_file *mf);

/** zvp_model_file_set_residual_variance - residual variance of output j (ZVP_RESVAR_*
 *  kind); NaN clears it. @return ZVP_SUCCESS; ZVP_EINVAL (j or kind out of range, var < 0 or
 *  infinite). */
int zvp_model_file_set_residual_variance(zvp_model_file *mf, size_t j, double var, int kind,
                                         zvp_error *err);
/** Residual variance of output j (NaN: none), its kind through `kind` (may be NULL). */
double zvp_model_file_residual_variance(const zvp_model_file *mf, size_t j, int *kind);
/** Effective degrees of freedom of the fit (provenance `dof_effective`); NaN when unknown. */
double zvp_model_file_dof_effective(const zvp_model_file *mf);

#ifdef __cplusplus
}
#endif
#endif /* ZVMPERF_MODELFILE_H */
