/* Tensor-product application of 1-D matrices to fields stored [k][j][i] (i fastest). */
#ifndef HEXDG_TENSOR_H
#define HEXDG_TENSOR_H

/* out (nout^3) = (V x V x V) in (nin^3), V is nout x nin row-major. */
void tensor_interp_3d(int nin, int nout, const double *V, const double *in, double *out);
/* out = derivative of in along direction dir (0 i, 1 j, 2 k) with D (n x n, D[a*n+b] = l_b'(x_a)).
 */
void tensor_deriv_3d(int n, const double *D, int dir, const double *in, double *out);

/* out (nc x nb x na, [k][j][i]) = (Vc x Vb x Va) in (nin^3): a different nout x nin matrix per
 * direction, e.g. a single row to evaluate on a face. */
void tensor_apply_3d(int nin, const double *Va, int na, const double *Vb, int nb, const double *Vc,
                     int nc, const double *in, double *out);

/* Determinant of the Jacobian dX_a/dxi_b stored as dX[(a*3+b)*stride + q] at point q. */
static inline double jacobian_determinant(const double *dX, long stride, long q) {
#define DX(a, b) dX[((a)*3 + (b)) * stride + q]
  return DX(0, 0) * (DX(1, 1) * DX(2, 2) - DX(1, 2) * DX(2, 1)) -
         DX(0, 1) * (DX(1, 0) * DX(2, 2) - DX(1, 2) * DX(2, 0)) +
         DX(0, 2) * (DX(1, 0) * DX(2, 1) - DX(1, 1) * DX(2, 0));
#undef DX
}

#endif
