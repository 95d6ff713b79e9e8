/* models/registry.h - the model descriptors defined in models/ (private). */
#ifndef ZVP_MODELS_REGISTRY_H
#define ZVP_MODELS_REGISTRY_H
#include "zvmperf/model.h"

extern const zvp_model zvp_model_sweetspot;
extern const zvp_model zvp_model_mmc;
extern const zvp_model zvp_model_repairman;
/* @declare: add one line above this marker, e.g. with sed -i (atomic) */

#endif
