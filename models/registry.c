/* models/registry.c - the table of registered models (read-only), built from
 * models/models.def: a new model is one file plus one line there. */
#include "registry.h"

static const zvp_model *const zvp_models[] = {
#define ZVP_MODEL(name) &zvp_model_##name,
#include "models.def"
#undef ZVP_MODEL
};

size_t zvp_model_count(void) { return sizeof zvp_models / sizeof zvp_models[0]; }

const zvp_model *zvp_model_at(size_t i)
{
    return i < zvp_model_count() ? zvp_models[i] : 0;
}
