/* compare_states ref.h5 other.h5 [rtol]: exit 0 when DG_Solution of both state files agrees to
 * max |U - U_ref| / max |U_ref| <= rtol (per variable, default 1e-12) and the times agree; prints
 * the difference. The three momentum components share one scale, the largest |rho u_i| of any
 * of them (a vector's size; a component that is zero in the exact solution, as rho v in a 1-D
 * tube, holds round-off only). Used by the MPI tests to compare runs on different rank counts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "io/state.h"

static double *load(const char *path, StateHeader *h) {
  if (state_read_header(path, h) != HX_OK) return NULL;
  long n = h->n_elems * h->n_var * (long)(h->N + 1) * (h->N + 1) * (h->N + 1);
  double *U = malloc(sizeof(double) * n);
  if (U && state_read(path, h, U) != HX_OK) {
    free(U);
    return NULL;
  }
  return U;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: compare_states ref.h5 other.h5 [rtol]\n");
    return 2;
  }
  double rtol = argc > 3 ? atof(argv[3]) : 1e-12;
  StateHeader ha, hb;
  double *a = load(argv[1], &ha), *b = load(argv[2], &hb);
  if (!a || !b) return 2;
  if (ha.n_elems != hb.n_elems || ha.N != hb.N || ha.n_var != hb.n_var) {
    fprintf(stderr, "%s and %s differ in shape\n", argv[1], argv[2]);
    return 1;
  }
  long n3 = (long)(ha.N + 1) * (ha.N + 1) * (ha.N + 1);
  double worst = 0.0, momentum_scale = 0.0;
  double *scale = calloc((size_t)ha.n_var, sizeof(double)),
         *diff = calloc((size_t)ha.n_var, sizeof(double));
  if (!scale || !diff) return 2;
  for (int v = 0; v < ha.n_var; v++)
    for (long e = 0; e < ha.n_elems; e++)
      for (long q = 0; q < n3; q++) {
        long i = (e * ha.n_var + v) * n3 + q;
        scale[v] = fmax(scale[v], fabs(a[i]));
        diff[v] = fmax(diff[v], fabs(a[i] - b[i]));
      }
  for (int v = 1; v <= 3 && v < ha.n_var; v++)
    momentum_scale = fmax(momentum_scale, scale[v]);
  for (int v = 0; v < ha.n_var; v++) {
    double s = v >= 1 && v <= 3 ? momentum_scale : scale[v];
    worst = fmax(worst, diff[v] / (s > 0.0 ? s : 1.0));
  }
  free(scale);
  free(diff);
  double dt = fabs(ha.time - hb.time) / fmax(fabs(ha.time), 1e-300);
  int ok = worst <= rtol && dt <= rtol;
  printf("%s %s vs %s: max relative difference %.3e, t = %.15g vs %.15g\n", ok ? "ok  " : "FAIL",
         argv[2], argv[1], worst, hb.time, ha.time);
  free(a);
  free(b);
  return ok ? 0 : 1;
}
