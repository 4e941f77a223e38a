/* Manufactured-solution convergence of the split form PI on Gauss-Lobatto nodes (see mms.h). */
#include "mms.h"

static void test_mms_split(void **state) {
  (void)state;
  convergence("GAUSS-LOBATTO", "PI");
}

int main(void) {
  harness_scratch_dir("mms_split");
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_mms_split)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
