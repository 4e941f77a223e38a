/* EPID arithmetic (src/gpu/power.c): energy / (DOF x RK stages), NVML's 64-bit mJ counter across
 * a wrap, the trapezoidal integral of sampled power (exact for power linear in time), and a meter
 * that cannot read a GPU says "EPID n/a (why)" once and reports no energy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "gpu/power.h"

static void test_epid_is_energy_per_dof_and_stage(void **state) {
  (void)state;
  /* 2 kJ over 1e6 DOF and 4000 stages (800 steps of a 5-stage scheme) */
  assert_true(fabs(power_epid(2000.0, 1e6, 4000) - 5e-7) < 1e-22);
  assert_true(power_epid(2000.0, 1e6, 0) == 0.0); /* no stage yet */
  assert_true(power_epid(5.0, 0.0, 10) == 0.0);
}

static void test_counter_delta_across_wrap(void **state) {
  (void)state;
  assert_true(power_counter_delta_mj(1000ULL, 4500ULL) == 3500ULL);
  /* 499 mJ before the wrap, the wrap itself (1 mJ) and 500 after */
  assert_true(power_counter_delta_mj(ULLONG_MAX - 499ULL, 500ULL) == 1000ULL);
}

static void test_trapezoid_is_exact_for_linear_power(void **state) {
  (void)state;
  PowerIntegral pi = {0};
  const double t[] = {0.0, 0.013, 0.05, 0.051, 0.2, 0.35, 1.0};
  for (int i = 0; i < 7; i++)
    power_integral_add(&pi, t[i], 120.0 + 300.0 * t[i]);
  const double exact = 120.0 * 1.0 + 150.0 * 1.0 * 1.0; /* int_0^1 (120 + 300 t) dt */
  printf("  trapezoid %.15f J, exact %.15f J, %ld samples\n", pi.joules, exact, pi.n);
  assert_true(fabs(pi.joules - exact) < 1e-12 * exact);
  assert_int_equal(pi.n, 7);
}

/* Without a usable GPU (no driver, no device): no energy, one "n/a (why)". With one (the device
 * machine) the meter reads a non-negative energy instead. */
static void test_meter_without_gpu_says_why_once(void **state) {
  (void)state;
  PowerMeter *pm = power_meter_start();
  assert_non_null(pm);
  double j = power_meter_joules(pm);
  char buf[256];
  if (power_meter_reason(pm)[0]) {
    printf("  no meter here: %s\n", power_meter_reason(pm));
    assert_true(j < 0.0);
    double epid = power_meter_epid(pm, 1e6, 100);
    assert_true(epid < 0.0);
    power_meter_format(pm, epid, buf, sizeof buf);
    assert_non_null(strstr(buf, "EPID n/a ("));
    assert_non_null(strstr(buf, power_meter_reason(pm)));
    power_meter_format(pm, epid, buf, sizeof buf);
    assert_string_equal(buf, ""); /* said once */
  } else {
    printf("  a GPU is visible: %.3f J read through the %s\n", j, power_meter_method(pm));
    assert_true(j >= 0.0);
  }
  power_meter_format(pm, 1.5e-6, buf, sizeof buf);
  assert_string_equal(buf, "EPID 1.500e-06 J");
  power_meter_stop(pm);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_epid_is_energy_per_dof_and_stage),
      cmocka_unit_test(test_counter_delta_across_wrap),
      cmocka_unit_test(test_trapezoid_is_exact_for_linear_power),
      cmocka_unit_test(test_meter_without_gpu_says_why_once),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
