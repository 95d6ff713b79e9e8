/* src/model_sim.c - zvp_model_simulate: a model's outputs from a simulation of the network it
 * stands for (the model's `sim` hook; models/README.md "The model contract"). */
#include <math.h>
#include <stdlib.h>
#include "internal.h"

int zvp_model_simulate(const zvp_model *m, const double *params, const zvp_sim_options *opt,
                       zvp_sim_estimate *outputs, const char **why, zvp_sim_result **result,
                       zvp_error *err)
{
    zvp_sim_network net;
    zvp_sim_result *r = NULL;
    void *storage = NULL;
    if (result)
        *result = NULL;
    if (!m || !params || !outputs)
        return zvp_fail(err, ZVP_EINVAL, "zvp_model_simulate: m, params and outputs may not be "
                        "NULL");
    const zvp_sim_estimate nan = {NAN, NAN, NAN, NAN};
    for (size_t j = 0; j < m->n_outputs; j++) {
        outputs[j] = nan;
        if (why)
            why[j] = NULL;
    }
    if (!m->sim || !m->sim->network || !m->sim->outputs)
        return zvp_fail(err, ZVP_EINVAL, "zvp_model_simulate: model %s describes no network for "
                        "the simulator (models with one: sweetspot, spinlock, mmc, repairman)", m->name);
    int st = zvp_model_check_params(m, params, err);
    if (st != ZVP_SUCCESS)
        return st;
    st = m->sim->network(params, &net, &storage, err);
    if (st == ZVP_SUCCESS)
        st = zvp_sim_run(&net, opt, &r, err);
    free(storage);
    if (st == ZVP_SUCCESS) {
        const char **w = why ? why : malloc(m->n_outputs * sizeof *w);
        st = w ? m->sim->outputs(params, r, outputs, w, err)
               : zvp_fail(err, ZVP_ENOMEM, "zvp_model_simulate: out of memory");
        if (!why)
            free((void *)w);
    }
    if (st != ZVP_SUCCESS) {
        for (size_t j = 0; j < m->n_outputs; j++)
            outputs[j] = nan;
        zvp_sim_result_free(r);
        return st;
    }
    if (result)
        *result = r;
    else
        zvp_sim_result_free(r);
    return ZVP_SUCCESS;
}
