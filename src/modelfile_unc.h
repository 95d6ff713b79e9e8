/* src/modelfile_unc.h - private: the uncertainty sections of a model file ([transform],
 * [covariance], [residual_variance]; modelfile_unc.c), parsed and written for modelfile.c. */
#ifndef ZVMPERF_MODELFILE_UNC_H
#define ZVMPERF_MODELFILE_UNC_H

#include <stdio.h>
#include "util/ini.h"
#include "zvmperf/modelfile.h"

typedef struct zvp_mf_unc zvp_mf_unc;

zvp_mf_unc *zvp_mf_unc_new(const zvp_model *m);
void zvp_mf_unc_free(zvp_mf_unc *u);
/* The handle's uncertainty part (never NULL for a handle made by zvp_model_file_new). */
zvp_mf_unc *zvp_model_file_unc(const zvp_model_file *mf);
/* 1 when section is one of [transform], [covariance], [residual_variance]. */
int zvp_mf_unc_is_section(const char *section);
/* One entry of those sections; zvp_mf_unc_finish after the last entry checks the whole. */
int zvp_mf_unc_apply(zvp_mf_unc *u, const zvp_model *m, const zvp_ini *ini,
                     const zvp_ini_entry *e, zvp_error *err);
int zvp_mf_unc_finish(zvp_mf_unc *u, const zvp_model *m, const char *name, zvp_error *err);
/* Write the sections (nothing when empty). */
void zvp_mf_unc_write(const zvp_mf_unc *u, const zvp_model *m, FILE *fp);
/* The shortest of %.12g, %.15g, %.17g that reads back as v (modelfile.c). */
void zvp_format_exact(double v, char *buf, size_t n);

#endif
