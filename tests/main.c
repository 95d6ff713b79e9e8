/* tests/main.c - the single CUnit runner; exits with the number of failures. */
#include <stdio.h>
#include <sys/stat.h>
#include <CUnit/Basic.h>
#include "tests.h"
#include "zvmperf/zvmperf.h"

int main(void)
{
    unsigned failed;
    zvp_init();
    mkdir(ZVP_TEST_TMPDIR, 0755);
    if (CU_initialize_registry() != CUE_SUCCESS)
        return (int)CU_get_error();
#define ZVP_TEST_SUITE(name)                                                                 \
    if (zvp_test_register_##name()) {                                                        \
        fprintf(stderr, "test registration failed (%s): %s\n", #name, CU_get_error_msg());   \
        CU_cleanup_registry();                                                               \
        return 1;                                                                            \
    }
#include "suites.def"
#undef ZVP_TEST_SUITE
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    failed = CU_get_number_of_tests_failed() + CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
