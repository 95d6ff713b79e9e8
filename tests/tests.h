/* tests/tests.h - the CUnit suites and shared test helpers. */
#ifndef ZVP_TESTS_H
#define ZVP_TESTS_H
#include <CUnit/CUnit.h>
#include <math.h>

/* Each test module registers its suite; returns 0 on success (CUnit error otherwise). */
int zvp_test_register_status(void);
int zvp_test_register_queue(void);
int zvp_test_register_queue2(void);
int zvp_test_register_model(void);
int zvp_test_register_sweep(void);
int zvp_test_register_calibrate(void);
int zvp_test_register_calibrated(void);
int zvp_test_register_paging(void);
int zvp_test_register_dump(void);
int zvp_test_register_apache(void);
int zvp_test_register_cms(void);
int zvp_test_register_overcommit(void);
int zvp_test_register_fsio(void);

/* Relative-tolerance assertion (CUnit's DOUBLE_EQUAL is absolute). */
#define ZVP_ASSERT_REL(actual, expected, rel)                                              \
    CU_ASSERT(fabs((actual) - (expected)) <= (rel) * fabs(expected))

/* Tests run with the working directory tests/; scratch files go to tmp/ there. */
#define ZVP_TEST_TMPDIR "tmp"
#endif
