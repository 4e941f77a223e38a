#include "basis/tensor.h"

#include <stdlib.h>

void tensor_interp_3d(int nin, int nout, const double *V, const double *in, double *out) {
  tensor_apply_3d(nin, V, nout, V, nout, V, nout, in, out);
}

void tensor_deriv_3d(int n, const double *D, int dir, const double *in, double *out) {
  int stride = dir == 0 ? 1 : dir == 1 ? n : n * n;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) {
        int idx[3] = {i, j, k};
        int a = idx[dir];
        int base = (k * n + j) * n + i - a * stride;
        double s = 0.0;
        for (int b = 0; b < n; b++) s += D[a * n + b] * in[base + b * stride];
        out[(k * n + j) * n + i] = s;
      }
}

/* three sweeps, i then j then k, through two scratch buffers of at most max(nin,na,nb)^3 */
void tensor_apply_3d(int nin, const double *Va, int na, const double *Vb, int nb, const double *Vc,
                     int nc, const double *in, double *out) {
  int nm = nin > na ? nin : na;
  nm = nm > nb ? nm : nb;
  double *a = malloc(sizeof(double) * nm * nm * nm), *b = malloc(sizeof(double) * nm * nm * nm);
  for (int k = 0; k < nin; k++)
    for (int j = 0; j < nin; j++)
      for (int o = 0; o < na; o++) {
        double s = 0.0;
        for (int i = 0; i < nin; i++) s += Va[o * nin + i] * in[(k * nin + j) * nin + i];
        a[(k * nin + j) * na + o] = s;
      }
  for (int k = 0; k < nin; k++)
    for (int o = 0; o < nb; o++)
      for (int i = 0; i < na; i++) {
        double s = 0.0;
        for (int j = 0; j < nin; j++) s += Vb[o * nin + j] * a[(k * nin + j) * na + i];
        b[(k * nb + o) * na + i] = s;
      }
  for (int o = 0; o < nc; o++)
    for (int j = 0; j < nb; j++)
      for (int i = 0; i < na; i++) {
        double s = 0.0;
        for (int k = 0; k < nin; k++) s += Vc[o * nin + k] * b[(k * nb + j) * na + i];
        out[(o * nb + j) * na + i] = s;
      }
  free(a);
  free(b);
}
