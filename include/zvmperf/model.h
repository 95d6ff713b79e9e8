/*
 * zvmperf/model.h - the model contract, the registry, and model files.
 *
 * A model is a pure function from a flat parameter vector (descriptor order) to a flat
 * output vector. Engines (calibration, sweeps) and front ends see models only through
 * zvp_model. See ../shared/DESIGN.md, "The model contract".
 */
#ifndef ZVMPERF_MODEL_H
#define ZVMPERF_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Description of one parameter or output. */
typedef struct zvp_param_desc {
    const char *name;        /* snake_case, e.g. "storage_gb" */
    const char *unit;        /* "GiB", "s", "1/s", "%", "kpages/s", "1" */
    const char *description; /* one line */
    double min, max;         /* valid closed range (outputs: expected range, informative) */
    double default_value;    /* used when a model file does not set it */
    int32_t integer;         /* 1: the value must be a whole number (counts, switches) */
    int32_t reserved;        /* 0 */
} zvp_param_desc;

/* Model evaluation: reads params[n_params], writes outputs[n_outputs].
 * Pure and thread-safe. Returns ZVP_SUCCESS, ZVP_EUNSTABLE (no steady state: outputs are
 * set to NaN and the status says so), or ZVP_EINVAL with a message in err. */
typedef int (*zvp_eval_fn)(const double *params, double *outputs, zvp_error *err);

typedef struct zvp_model {
    const char *name;        /* registry key, e.g. "sweetspot" */
    const char *description; /* one paragraph */
    const char *source;      /* report(s) and table(s) it is calibrated on */
    size_t n_params;
    const zvp_param_desc *params;
    size_t n_outputs;
    const zvp_param_desc *outputs;
    zvp_eval_fn eval;
} zvp_model;

/* ---- Registry (read-only tables, no global mutable state) ---------------------------- */

/** zvp_model_count - number of registered models (>= 1; a compile-time constant of the
 *  registry, the same on every call). Takes no argument, so there is nothing to be NULL. */
size_t zvp_model_count(void);

/** zvp_model_at - the i-th registered model (0 <= i < zvp_model_count()), NULL otherwise.
 *  The descriptor is static; never freed. */
const zvp_model *zvp_model_at(size_t i);

/**
 * zvp_model_find - look a model up by name.
 * @return the static descriptor, or NULL with ZVP_ENOTFOUND in err (message lists the names).
 */
const zvp_model *zvp_model_find(const char *name, zvp_error *err);

/** zvp_model_param_index / zvp_model_output_index - index of a name in the descriptor, or
 *  -1 with ZVP_ENOTFOUND in err (message names the model and lists the valid names). */
long zvp_model_param_index(const zvp_model *m, const char *name, zvp_error *err);
long zvp_model_output_index(const zvp_model *m, const char *name, zvp_error *err);

/** zvp_model_defaults - write the default parameter vector. params: [m->n_params]. */
void zvp_model_defaults(const zvp_model *m, double *params);

/**
 * zvp_model_check_params - validate a parameter vector against the descriptor ranges and,
 * for parameters marked `integer`, whole-number values.
 * @return ZVP_SUCCESS or ZVP_EINVAL; the message names the first bad parameter, its value
 *         and the allowed range (NaN and infinities are always invalid).
 */
int zvp_model_check_params(const zvp_model *m, const double *params, zvp_error *err);

/**
 * zvp_model_eval - check params, then evaluate. params: [n_params], outputs: [n_outputs].
 * @return as zvp_model_check_params, then as the model's eval. On any non-success status
 *         every output is NaN.
 */
int zvp_model_eval(const zvp_model *m, const double *params, double *outputs, zvp_error *err);

/* ---- Model files (INI) --------------------------------------------------------------- */

/* A model with a parameter vector, as read from a model file. Opaque handle. */
typedef struct zvp_model_file zvp_model_file;

/**
 * zvp_model_file_read - parse a model file:
 *     [model]       name = <registered model>
 *     [parameters]  <param> = <number>        (units as in the descriptor)
 *     [provenance]  <anything> = <text>       (kept verbatim, optional)
 *     [stderr]      <param> = <number>        (standard errors of fitted values, optional)
 * Parameters not set keep their defaults. Values are range-checked ([parameters]: in the
 * descriptor's [min, max], whole numbers for `integer` parameters; [stderr]: any finite
 * number, stored as given). [model] may also hold `description` (ignored).
 * @param[in]  path  file path (NULL: ZVP_EINVAL).
 * @param[out] out   must not be NULL; new handle on success (free with
 *                   zvp_model_file_free), NULL otherwise.
 * @return ZVP_SUCCESS; ZVP_EIO (missing/unreadable file, or a directory); ZVP_EPARSE
 *         (malformed line, message gives file and line; a value that is not a finite
 *         number; a key given twice in the same section, e.g. a parameter set twice in
 *         [parameters]: an error, not "last wins", the message quotes both values; no
 *         `name` in [model]; an unknown key in [model]; an unknown section); ZVP_ENOTFOUND
 *         (unknown model, or a [parameters]/[stderr] key that is not a parameter of the
 *         model); ZVP_EINVAL (NULL path; value out of range or not a whole number for an
 *         integer parameter); ZVP_ENOMEM.
 */
int zvp_model_file_read(const char *path, zvp_model_file **out, zvp_error *err);

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
 * @return ZVP_SUCCESS; ZVP_EINVAL (NULL or empty key, a key with '=', ';', brackets or a
 *         newline, a NULL value or one with a newline); ZVP_ENOMEM.
 */
int zvp_model_file_set_provenance(zvp_model_file *mf, const char *key, const char *value,
                                  zvp_error *err);

/**
 * zvp_model_file_write - write the handle as a model file ([model], [parameters] with unit
 * comments, [stderr] where known, [provenance]); the file is created or truncated.
 * [parameters] round-trips exactly: each value is written in the shortest of %.12g, %.15g
 * and %.17g that reads back (strtod) as the identical double, so zvp_model_file_read of
 * the file gives bit-identical parameters. [stderr] lists the finite standard errors only,
 * with %.6g (6 significant digits: not exact). [provenance] lines are written as
 * "key = value" with the key cut at 40 and the value at 150 characters (inih reads lines
 * of at most 200 characters); the unit and description comments are cut likewise.
 * @param[in] mf    the handle, not NULL.
 * @param[in] path  output path, not NULL.
 * @return ZVP_SUCCESS or ZVP_EIO (cannot open or finish writing path; message names it).
 */
int zvp_model_file_write(const zvp_model_file *mf, const char *path, zvp_error *err);

#ifdef __cplusplus
}
#endif
#endif /* ZVMPERF_MODEL_H */
