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
    if (zvp_test_register_status() || zvp_test_register_queue() || zvp_test_register_queue2() || zvp_test_register_model() ||
        zvp_test_register_sweep() || zvp_test_register_calibrate() ||
        zvp_test_register_calibrated() || zvp_test_register_paging() || zvp_test_register_dump() ||
        zvp_test_register_apache() || zvp_test_register_cms() || zvp_test_register_overcommit() ||
        zvp_test_register_fsio()) {
        fprintf(stderr, "test registration failed: %s\n", CU_get_error_msg());
        CU_cleanup_registry();
        return 1;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    failed = CU_get_number_of_tests_failed() + CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
