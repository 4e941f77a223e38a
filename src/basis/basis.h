/* One-dimensional nodal bases on [-1,1]: Gauss and Gauss-Lobatto nodes and weights,
 * barycentric Lagrange interpolation, differentiation matrices, Legendre modal transforms. */
#ifndef HEXDG_BASIS_H
#define HEXDG_BASIS_H

#define HX_NMAX 15 /* highest polynomial degree */
#define HX_NPMAX (HX_NMAX + 1)

typedef enum { NODE_GAUSS = 0, NODE_GAUSS_LOBATTO = 1 } NodeType;

/* Legendre polynomial L_n(x) and its derivative (unnormalised, L_n(1) = 1). */
void basis_legendre(int n, double x, double *L, double *dL);

/* N+1 nodes x[0..N] ascending and quadrature weights w (sum 2). Gauss-Lobatto needs N >= 1.
 * Newton iteration on Legendre polynomials to machine precision. Returns HX_OK or error. */
int basis_nodes_weights(int N, NodeType type, double *x, double *w);

/* N+1 equidistant points including both ends (N = 0: the single point 0). */
void basis_equidistant_nodes(int N, double *x);

/* Barycentric weights of nodes x[0..N] (Berrut & Trefethen 2004). */
void basis_barycentric_weights(int N, const double *x, double *wb);

/* l[j] = l_j(xi), j = 0..N, the Lagrange basis of nodes x evaluated at xi (exact at nodes). */
void basis_lagrange_eval(int N, const double *x, const double *wb, double xi, double *l);

/* D[i*(N+1)+j] = l_j'(x_i) (Kopriva 2009, Alg. 37, with the negative-sum trick on the diagonal). */
void basis_diff_matrix(int N, const double *x, const double *wb, double *D);

/* V[o*(Nin+1)+i] = l_i(xout[o]) for the Lagrange basis on xin (o = 0..Nout). */
void basis_interp_matrix(int Nin, const double *xin, const double *wbin, int Nout, const double *xout,
                         double *V);

/* Vandermonde of orthonormal Legendre polynomials: V[i*(N+1)+m] = sqrt(m+1/2) L_m(x_i), and its
 * inverse (nodal -> modal). */
void basis_legendre_vandermonde(int N, const double *x, double *V, double *Vinv);

/* M[o*(Nin+1)+i], (Nout+1) x (Nin+1): nodal values of degree Nin on nodes `tin` to degree Nout on
 * nodes `tout`. Nout >= Nin: Lagrange interpolation (exact); Nout < Nin: the L2 projection onto the
 * Legendre modes 0..Nout (modal cut-off), evaluated at the new nodes. Applied per direction, the
 * tensor product is the interpolation / L2 projection in the reference element. */
int basis_change_degree_matrix(int Nin, NodeType tin, int Nout, NodeType tout, double *M);

/* Eigen-decomposition of the symmetric n x n matrix A (row-major, destroyed): A = U diag(lam) U^T,
 * U[i*n+k] the k-th orthonormal eigenvector (cyclic Jacobi rotations, Golub & Van Loan 2013,
 * Sec. 8.5; for the small matrices of one direction, n <= HX_NPMAX). */
void basis_sym_eigen(int n, double *A, double *lam, double *U);

#endif
