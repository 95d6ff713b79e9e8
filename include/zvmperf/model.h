/*
 * zvmperf/model.h - the model contract and the registry.
 *
 * A model is a pure function from a flat parameter vector (descriptor order) to a flat
 * output vector. Engines (calibration, sweeps) and front ends see models only through
 * zvp_model; every evaluation goes through zvp_model_eval, which checks the parameters
 * against the descriptor first. The contract, in prose, is in models/README.md
 * ("The model contract"). Model files (INI) are declared in zvmperf/modelfile.h, which this
 * header includes for compatibility.
 */
#ifndef ZVMPERF_MODEL_H
#define ZVMPERF_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "sim.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Description of one parameter or output. */
typedef struct zvp_param_desc {
    const char *name;        /* snake_case, e.g. "storage_gb" */
    const char *unit;        /* "GiB", "s", "1/s", "%", "kpages/s", "1" */
    const char *description; /* one line */
    double min, max;         /* valid closed range; for outputs enforced by zvp_model_eval */
    double default_value;    /* used when a model file does not set it */
    int32_t integer;         /* 1: the value must be a whole number (counts, switches) */
    int32_t reserved;        /* 0 */
} zvp_param_desc;

/* Model evaluation: reads params[n_params], writes outputs[n_outputs].
 * Pure and thread-safe. Called only through zvp_model_eval, which has already checked every
 * parameter against its descriptor (finite, in [min, max], whole for `integer`); the model
 * checks only conditions a descriptor cannot express (e.g. lo < hi between two parameters).
 * Returns ZVP_SUCCESS, ZVP_EUNSTABLE (no steady state: outputs are set to NaN and the status
 * says so), or ZVP_EINVAL with a message in err. */
typedef int (*zvp_eval_fn)(const double *params, double *outputs, zvp_error *err);

/* The network a model stands for, for the simulator (include/zvmperf/sim.h): fills *net
 * for params (already checked against the descriptor) with pointers into one block the
 * function allocates and returns in *storage (the caller frees it with free() after the
 * run). Pure and thread-safe. Returns ZVP_SUCCESS, ZVP_EINVAL or ZVP_ENOMEM (then *storage
 * is NULL). */
typedef int (*zvp_network_fn)(const double *params, zvp_sim_network *net, void **storage,
                              zvp_error *err);

/* The model's outputs from a simulation of that network: outputs[n_outputs] estimates (mean
 * and 95% interval); an output the simulator does not measure is NaN with the reason in
 * why[j] (a static string; NULL for the measured ones). Pure. */
typedef int (*zvp_sim_outputs_fn)(const double *params, const zvp_sim_result *r,
                                  zvp_sim_estimate *outputs, const char **why, zvp_error *err);

/* The simulation hook of a model (models/README.md "The model contract"). */
typedef struct zvp_model_sim {
    zvp_network_fn network;      /* the model's queueing network */
    zvp_sim_outputs_fn outputs;  /* the simulator's figures as the model's outputs */
} zvp_model_sim;

typedef struct zvp_model {
    const char *name;        /* registry key, e.g. "sweetspot" */
    const char *description; /* one paragraph */
    const char *source;      /* report(s) and table(s) it is calibrated on */
    size_t n_params;
    const zvp_param_desc *params;
    size_t n_outputs;
    const zvp_param_desc *outputs;
    zvp_eval_fn eval;
    const struct zvp_model_sim *sim; /* its network for the simulator; NULL: none */
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
 * @return as zvp_model_check_params, then as the model's eval; then every output is checked:
 *         not finite is ZVP_EUNSTABLE; within 1e-12 x max(1, |bound|) beyond a bound
 *         (rounding) it is set to the bound; further outside [min, max] is ZVP_EINTERNAL
 *         (the model should have refused the inputs with a status: a model bug). So on
 *         ZVP_SUCCESS every output is finite and in range; on any other status every output
 *         is NaN.
 */
int zvp_model_eval(const zvp_model *m, const double *params, double *outputs, zvp_error *err);

/**
 * zvp_model_simulate - simulate the network of a model at one point.
 * @param[in]  m, params  the model (m->sim set) and params [n_params],
 *                        checked as by zvp_model_check_params.
 * @param[in]  opt        simulation options (NULL: zvp_sim_default_options).
 * @param[out] outputs    [n_outputs] the outputs with 95% intervals; NaN where why[j] is set.
 * @param[out] why        [n_outputs] NULL, or why output j is not simulated (static); may be
 *                        NULL.
 * @param[out] result     if not NULL, *result: the simulation's own result (free with
 *                        zvp_sim_result_free); NULL on error.
 * @return ZVP_SUCCESS; ZVP_EINVAL (NULL argument; a bad parameter; a model without a
 *         network, named); as zvp_sim_run. Thread safety: pure.
 */
int zvp_model_simulate(const zvp_model *m, const double *params, const zvp_sim_options *opt,
                       zvp_sim_estimate *outputs, const char **why, zvp_sim_result **result,
                       zvp_error *err);

#ifdef __cplusplus
}
#endif

/* model files: declared apart, included here for the sources written before the split */
#include "modelfile.h"

#endif /* ZVMPERF_MODEL_H */
