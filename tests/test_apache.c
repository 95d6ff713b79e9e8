/* placeholder: replaced by the apache model's tests */
#include "tests.h"
int zvp_test_register_apache(void) { return 0; }
