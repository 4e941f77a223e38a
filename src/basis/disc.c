#include "basis/disc.h"

#include <string.h>

#include "core/error.h"
#include "physics/physics.h"

int disc_init(Disc *d, int N, NodeType node_type, int split) {
  if (N < 1 || N > HX_NMAX)
    return HX_ERROR(HX_ERR_INPUT, "N=%d is out of range 1..%d", N, HX_NMAX);
  if (split != SPLIT_NONE && node_type != NODE_GAUSS_LOBATTO)
    return HX_ERROR(HX_ERR_INPUT, "the split form (SplitDG) needs NodeType = GAUSS-LOBATTO "
                                  "(summation-by-parts operators); use the weak form on GAUSS");
  memset(d, 0, sizeof *d);
  d->N = N;
  d->np = N + 1;
  d->node_type = node_type;
  d->split = split;
  int np = d->np;
  HX_CHECK(basis_nodes_weights(N, node_type, d->x, d->w));
  basis_barycentric_weights(N, d->x, d->wb);
  basis_diff_matrix(N, d->x, d->wb, d->D);
  basis_lagrange_eval(N, d->x, d->wb, -1.0, d->L_minus);
  basis_lagrange_eval(N, d->x, d->wb, 1.0, d->L_plus);
  for (int i = 0; i < np; i++) {
    d->Lhat_minus[i] = d->L_minus[i] / d->w[i];
    d->Lhat_plus[i] = d->L_plus[i] / d->w[i];
  }
  for (int i = 0; i < np; i++)
    for (int l = 0; l < np; l++) {
      d->Dhat[i * np + l] = -d->w[l] / d->w[i] * d->D[l * np + i];
      d->Dvol[i * np + l] = split == SPLIT_NONE ? d->Dhat[i * np + l] : 2.0 * d->D[i * np + l];
    }
  if (split != SPLIT_NONE) {
    d->Dvol[0] += 1.0 / d->w[0];
    d->Dvol[np * np - 1] -= 1.0 / d->w[N];
  }
  return HX_OK;
}
