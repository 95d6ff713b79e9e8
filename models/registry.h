/* models/registry.h - the model descriptors defined in models/ (private), one per line of
 * models/models.def. */
#ifndef ZVP_MODELS_REGISTRY_H
#define ZVP_MODELS_REGISTRY_H
#include "zvmperf/model.h"

#define ZVP_MODEL(name) extern const zvp_model zvp_model_##name;
#include "models.def"
#undef ZVP_MODEL

#endif
