/* The CPU-GPU comparison the GPU tests share: one run on each backend, the relative L2 difference
 * of the final states. Include after cmocka.h and regression/harness.h. */
#ifndef HEXDG_TEST_GPU_AGREEMENT_H
#define HEXDG_TEST_GPU_AGREEMENT_H

/* base + extra (NULL-terminated, may be NULL) with Backend = cpu and with Backend = cuda. */
static inline double gpu_cpu_difference(const char *const *base, const char *const *extra) {
  const char *cpu[32], *gpu[32];
  int n = 0;
  for (; extra && extra[n]; n++)
    cpu[n] = gpu[n] = extra[n];
  cpu[n] = "Backend = cpu";
  gpu[n] = "Backend = cuda";
  cpu[n + 1] = gpu[n + 1] = NULL;
  long nc, ng;
  double *uc = harness_run_copy(base, cpu, &nc), *ug = harness_run_copy(base, gpu, &ng);
  assert_non_null(uc);
  assert_non_null(ug);
  assert_int_equal(nc, ng);
  double d = harness_rel_l2_diff(ug, uc, nc);
  free(uc);
  free(ug);
  return d;
}

#endif
