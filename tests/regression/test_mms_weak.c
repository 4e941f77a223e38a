/* Manufactured-solution convergence of the weak form on Gauss nodes (see mms.h). */
#include "mms.h"

static void test_mms_weak(void **state) {
  (void)state;
  convergence("GAUSS", NULL);
}

int main(void) {
  harness_scratch_dir("mms_weak");
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_mms_weak)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
