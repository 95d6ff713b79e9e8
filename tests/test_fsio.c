/* placeholder: replaced by the fsio model's tests */
#include "tests.h"
int zvp_test_register_fsio(void) { return 0; }
