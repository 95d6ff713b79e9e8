/* models/registry.h - the model descriptors defined in models/ (private). */
#ifndef ZVP_MODELS_REGISTRY_H
#define ZVP_MODELS_REGISTRY_H
#include "zvmperf/model.h"

extern const zvp_model zvp_model_sweetspot;
extern const zvp_model zvp_model_mmc;
extern const zvp_model zvp_model_repairman;
extern const zvp_model zvp_model_overcommit;
extern const zvp_model zvp_model_paging;
extern const zvp_model zvp_model_dump;
extern const zvp_model zvp_model_apache;
extern const zvp_model zvp_model_cms;
extern const zvp_model zvp_model_fsio;
/* @declare: add one line above this marker, e.g. with sed -i (atomic) */

#endif
