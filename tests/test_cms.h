/*
 * tests/test_cms.h - the cms model's parameter indices (models/cms.c order) and the two
 * helpers that tests/test_cms.c and tests/test_cms_memory.c share.
 */
#ifndef ZVP_TEST_CMS_H
#define ZVP_TEST_CMS_H
#include "tests.h"

enum {
    USERS, THINK, CPUS, CPU_MS, PAGEABLE, XSTOR_MIB, MDC_REAL, MDC_XSTOR, SHARED, SERVER,
    LT_REF, LT_K, PAGE_VOL, PAGE_MS, XSTOR_US, MDC_READS, MDC_HIT, OTHER_RIO, IO_VOL, DASD_MS,
    NET_DELAY, OTHER_DELAY, LIMIT, PAGING_CPU, PAGE_INS_REF, NP
};

static inline const zvp_model *model(void) { return zvp_test_model("cms", NP); }

static inline void read_params(const char *path, double *p)
{
    zvp_test_read_params(path, "cms", p, NP);
}

#endif
