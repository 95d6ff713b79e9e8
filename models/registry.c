/* models/registry.c - the table of registered models (read-only). A new model adds one
 * line here and its descriptor in its own file. */
#include "registry.h"

static const zvp_model *const zvp_models[] = {
    &zvp_model_sweetspot,
    &zvp_model_mmc,
    &zvp_model_repairman,
    &zvp_model_overcommit,
    &zvp_model_paging,
    &zvp_model_dump,
    &zvp_model_apache,
    &zvp_model_cms,
    &zvp_model_fsio,
    /* @register: add one line above this marker, e.g. with sed -i (atomic) */
};

size_t zvp_model_count(void) { return sizeof zvp_models / sizeof zvp_models[0]; }

const zvp_model *zvp_model_at(size_t i)
{
    return i < zvp_model_count() ? zvp_models[i] : 0;
}
