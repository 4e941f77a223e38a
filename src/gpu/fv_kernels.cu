/* FV subcell shock capturing on the device, the twin of src/dg/indicator.c and src/dg/fv.c
 * (Hennemann, Rueda-Ramirez, Hindenlang & Gassner 2021, JCP 426): the pointwise parts (indicator
 * quantity, sigmoid, reconstruction, interface frame, Riemann flux, admissible fraction) are the
 * shared functions of src/physics/fvblend.h and riemann.h.
 *
 *   indicator  one block per element: rho p at the nodes, three passes of the nodal -> modal
 *              transform in shared memory, the modal energies by a block reduction, alpha;
 *   spreading  alpha to the side arrays, then each element takes the scaled max of its
 *              neighbours' values (two kernels, so that an MPI exchange fits in between);
 *   volume     one block per blended element (alpha > 0): states and primitive variables in
 *              shared memory; per direction every thread computes interface fluxes of the
 *              subcells (N np^2 per direction) into shared memory, then every node adds the
 *              difference of its two interface fluxes; Ut += alpha R_FV at the end (VolInt has
 *              already written (1 - alpha) R_DG);
 *   positivity one block per element after each stage's update (Zhang & Shu 2010);
 *   backup     U_good = U at the start of every step whose state passed the check. */
#include "gpu/gpu_internal.cuh"

extern "C" {
#include "dg/indicator.h"
#include "physics/eos.h"
#include "physics/fvblend.h"
#include "physics/riemann.h"
}

#define FV_THREADS 256

/* Deterministic tree reduction of nr values per thread over the block (red: nr * FV_THREADS). */
template <bool MIN>
__device__ static void block_reduce(double *red, int nr, double *vals) {
  for (int r = 0; r < nr; r++) red[r * FV_THREADS + threadIdx.x] = vals[r];
  __syncthreads();
  for (int s = FV_THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      for (int r = 0; r < nr; r++) {
        double a = red[r * FV_THREADS + threadIdx.x], b = red[r * FV_THREADS + threadIdx.x + s];
        red[r * FV_THREADS + threadIdx.x] = MIN ? fmin(a, b) : a + b;
      }
    __syncthreads();
  }
  for (int r = 0; r < nr; r++) vals[r] = red[r * FV_THREADS];
  __syncthreads(); /* red may be reused right after */
}

__device__ static void modal_pass(int np, int n3, const double *Vinv, int d, const double *in,
                                  double *out) {
  int stride = d == 0 ? 1 : d == 1 ? np : np * np;
  for (int q = threadIdx.x; q < n3; q += FV_THREADS) {
    int idx = d == 0 ? q % np : d == 1 ? (q / np) % np : q / (np * np), base = q - idx * stride;
    double acc = 0.0;
    for (int l = 0; l < np; l++) acc += Vinv[idx * np + l] * in[base + l * stride];
    out[q] = acc;
  }
}

__global__ static void __launch_bounds__(FV_THREADS) indicator_kernel(DevData d, DevPhysics ph) {
  extern __shared__ double smem[];
  __shared__ double red[3 * FV_THREADS];
  const int np = d.np, n3 = d.n3, N = d.N, e = blockIdx.x;
  if (d.fv_indicator == FV_INDICATOR_FIXED) {
    if (threadIdx.x == 0) d.alpha[e] = d.fv_alpha_fix;
    return;
  }
  double *a = smem, *b = smem + n3, *Vinv = smem + 2 * n3;
  for (int t = threadIdx.x; t < np * np; t += FV_THREADS) Vinv[t] = d.fv_vinv[t];
  const double *Ue = d.U + (size_t)e * d.nvar * n3;
  for (int q = threadIdx.x; q < n3; q += FV_THREADS) {
    double u[HX_NVAR];
    for (int v = 0; v < HX_NVAR; v++) u[v] = Ue[v * n3 + q];
    a[q] = fv_indicator_quantity(d.fv_ind_var, ph.pp.kappa_m1, u);
  }
  __syncthreads();
  modal_pass(np, n3, Vinv, 0, a, b);
  __syncthreads();
  modal_pass(np, n3, Vinv, 1, b, a);
  __syncthreads();
  modal_pass(np, n3, Vinv, 2, a, b);
  __syncthreads();
  double sums[3] = {0.0, 0.0, 0.0}; /* all modes, degree <= N-1, degree <= N-2 */
  for (int q = threadIdx.x; q < n3; q += FV_THREADS) {
    int i = q % np, j = (q / np) % np, k = q / (np * np);
    int deg = i > j ? i : j;
    deg = deg > k ? deg : k;
    double m2 = b[q] * b[q];
    sums[0] += m2;
    if (deg <= N - 1) sums[1] += m2;
    if (deg <= N - 2) sums[2] += m2;
  }
  block_reduce<false>(red, 3, sums);
  if (threadIdx.x == 0) {
    double E = fv_modal_energy(N, sums[0], sums[1], sums[2]);
    d.alpha[e] = fv_alpha_from_energy(E, N, d.fv_alpha_min, d.fv_alpha_max);
  }
}

__global__ static void alpha_to_sides_kernel(DevData d) {
  int side = blockIdx.x * blockDim.x + threadIdx.x;
  if (side >= d.n_sides) return;
  int em = d.side_info[6 * side], es = d.side_info[6 * side + 2];
  d.alpha_side[side] = em >= 0 ? d.alpha[em] : 0.0;
  d.alpha_side[d.n_sides + side] = es >= 0 ? d.alpha[es] : 0.0;
}

/* alpha = min(max(alpha, FV_alpha_ExtScale * neighbours' alpha), FV_alpha_max); the side arrays
 * hold the values before this pass, as on the CPU. */
__global__ static void alpha_extend_kernel(DevData d) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= d.n_elems) return;
  double a = d.alpha[e];
  for (int ls = 0; ls < 6; ls++) {
    int side = d.elem_sides[2 * (6 * e + ls)], flip = d.elem_sides[2 * (6 * e + ls) + 1];
    double other = flip == 0 ? d.alpha_side[d.n_sides + side] : d.alpha_side[side];
    if (d.fv_ext_scale * other > a) a = d.fv_ext_scale * other;
  }
  d.alpha[e] = a < d.fv_alpha_max ? a : d.fv_alpha_max;
}

/* Transverse indices (a, b) of the line of direction dir through node q, as line_base of fv.c
 * numbers them: dir 0: (j, k), dir 1: (i, k), dir 2: (i, j). */
__device__ static void line_of_node(int np, int dir, int q, int *idx, int *a, int *b) {
  int i = q % np, j = (q / np) % np, k = q / (np * np);
  *idx = dir == 0 ? i : dir == 1 ? j : k;
  *a = dir == 0 ? j : i;
  *b = dir == 2 ? j : k;
}

__device__ static int line_base(int d, int np, int a, int b) {
  return d == 0 ? (b * np + a) * np : d == 1 ? b * np * np + a : b * np + a;
}

__global__ static void __launch_bounds__(FV_THREADS, 2) fv_volume_kernel(DevData d, DevPhysics ph) {
  extern __shared__ double smem[];
  const int e = blockIdx.x;
  const double alpha = d.alpha[e];
  if (!(alpha > 0.0) || !(d.sc->dt > 0.0)) return;
  const int np = d.np, N = d.N, n3 = d.n3, nI = N * np * np;
  double *su = smem, *sp = su + HX_NVAR * n3, *res = sp + HX_NVAR * n3, *sf = res + HX_NVAR * n3;
  const double *w = d.disc->w, *x = d.disc->x;
  const double *Ue = d.U + (size_t)e * d.nvar * n3;
  for (int q = threadIdx.x; q < n3; q += FV_THREADS) {
    double u[HX_NVAR], prim[HX_NPRIM];
    for (int v = 0; v < HX_NVAR; v++) u[v] = Ue[v * n3 + q];
    cons_to_prim(&ph.pp, u, prim);
    for (int v = 0; v < HX_NVAR; v++) {
      su[v * n3 + q] = u[v];
      sp[v * n3 + q] = prim[v]; /* PDENS..PRES: what the reconstruction and prim_to_cons use */
      res[v * n3 + q] = 0.0;
    }
  }
  __syncthreads();
  for (int dir = 0; dir < 3; dir++) {
    const int stride = dir == 0 ? 1 : dir == 1 ? np : np * np;
    const double *mvec = d.fv_metrics + ((size_t)e * 3 + dir) * nI * 3;
    for (int t = threadIdx.x; t < nI; t += FV_THREADS) {
      int ab = t / N, m = t - ab * N, base = line_base(dir, np, ab / np, ab % np);
      double uL[HX_NVAR], uR[HX_NVAR], n[3], t1[3], t2[3], F[HX_NVAR];
      fv_interface_states(d.fv_limiter, &ph.pp, np, x, d.fv_xface[m + 1], su + base, sp + base,
                          n3, stride, m, uL, uR);
      double area = fv_interface_frame(&mvec[3 * t], n, t1, t2);
      riemann_flux(d.riemann, d.split, &ph.pp, uL, uR, n, t1, t2, F);
      for (int v = 0; v < HX_NVAR; v++) sf[v * nI + t] = F[v] * area;
    }
    __syncthreads();
    /* node i of a line: - F_{i-1/2} / w_i + F_{i+1/2} / w_i, in the CPU's order */
    for (int q = threadIdx.x; q < n3; q += FV_THREADS) {
      int idx, a, b;
      line_of_node(np, dir, q, &idx, &a, &b);
      int t = (a * np + b) * N + idx;
      for (int v = 0; v < HX_NVAR; v++) {
        double r = res[v * n3 + q];
        if (idx > 0) r -= sf[v * nI + t - 1] / w[idx];
        if (idx < N) r += sf[v * nI + t] / w[idx];
        res[v * n3 + q] = r;
      }
    }
    __syncthreads();
  }
  double *ut = d.Ut + (size_t)e * d.nvar * n3;
  for (int q = threadIdx.x; q < n3; q += FV_THREADS)
    for (int v = 0; v < HX_NVAR; v++) ut[v * n3 + q] += alpha * res[v * n3 + q];
}

__global__ static void __launch_bounds__(FV_THREADS) positivity_kernel(DevData d, DevPhysics ph) {
  __shared__ double red[7 * FV_THREADS];
  if (!(d.sc->dt > 0.0)) return;
  const int np = d.np, n3 = d.n3, e = blockIdx.x;
  const double *w = d.disc->w, *sJ = d.sJ + (size_t)e * n3;
  double *ue = d.U + (size_t)e * d.nvar * n3;
  double sums[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0}, mins[2] = {1e300, 1e300};
  for (int q = threadIdx.x; q < n3; q += FV_THREADS) {
    double u[HX_NVAR];
    for (int v = 0; v < HX_NVAR; v++) u[v] = ue[v * n3 + q];
    double p = pressure_from_cons(&ph.pp, u);
    mins[0] = fmin(mins[0], u[DENS]);
    mins[1] = fmin(mins[1], p);
    double wq = w[q % np] * w[(q / np) % np] * w[q / (np * np)] / sJ[q];
    sums[5] += wq;
    for (int v = 0; v < HX_NVAR; v++) sums[v] += wq * u[v];
  }
  block_reduce<false>(red, 6, sums);
  block_reduce<true>(red, 2, mins);
  double mean[HX_NVAR];
  for (int v = 0; v < HX_NVAR; v++) mean[v] = sums[v] / sums[5];
  double p_mean = pressure_from_cons(&ph.pp, mean);
  double eps_rho = FV_POSITIVITY_EPS * mean[DENS], eps_p = FV_POSITIVITY_EPS * p_mean;
  if (mins[0] >= eps_rho && mins[1] >= eps_p) return;
  if (!(mean[DENS] > 0.0 && p_mean > 0.0)) return; /* the next dt check stops the run */
  double theta[1] = {1.0};
  for (int q = threadIdx.x; q < n3; q += FV_THREADS) {
    double u[HX_NVAR];
    for (int v = 0; v < HX_NVAR; v++) u[v] = ue[v * n3 + q];
    theta[0] = fmin(theta[0], fv_admissible_fraction(&ph.pp, mean, u, eps_rho, eps_p));
  }
  block_reduce<true>(red, 1, theta);
  for (int q = threadIdx.x; q < n3; q += FV_THREADS)
    for (int v = 0; v < HX_NVAR; v++)
      ue[v * n3 + q] = mean[v] + theta[0] * (ue[v * n3 + q] - mean[v]);
}

__global__ static void backup_kernel(DevData d) {
  size_t gid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (!(d.sc->dt > 0.0)) return;
  if (gid == 0) d.sc->t_good = d.sc->t;
  if (gid < (size_t)d.nvar * d.n3 * d.n_elems) d.U_good[gid] = d.U[gid];
}

static size_t indicator_shared(const DevData *d) {
  return sizeof(double) * (2 * d->n3 + d->np * d->np);
}

static size_t volume_shared(const DevData *d) {
  return sizeof(double) * (3 * HX_NVAR * d->n3 + HX_NVAR * d->N * d->np * d->np);
}

int fv_configure(const DevData *d) {
  size_t bytes = volume_shared(d);
  if (bytes > 200 * 1024)
    return HX_ERROR(HX_ERR_INPUT, "FV shock capturing on the GPU: N = %d needs %zu bytes of "
                                  "shared memory per element (at most 200 KiB); use a lower N "
                                  "or Backend = cpu", d->N, bytes);
  CU_CHECK(cudaFuncSetAttribute(fv_volume_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                (int)bytes));
  CU_CHECK(cudaFuncSetAttribute(indicator_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                (int)indicator_shared(d)));
  return HX_OK;
}

int launch_fv_indicator(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  if (d->n_elems > 0)
    indicator_kernel<<<d->n_elems, FV_THREADS, indicator_shared(d), s>>>(*d, *ph);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_fv_alpha_to_sides(const DevData *d, cudaStream_t s) {
  if (d->n_sides > 0) alpha_to_sides_kernel<<<(d->n_sides + 255) / 256, 256, 0, s>>>(*d);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_fv_alpha_extend(const DevData *d, cudaStream_t s) {
  if (d->n_elems > 0) alpha_extend_kernel<<<(d->n_elems + 255) / 256, 256, 0, s>>>(*d);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_fv_volume(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  if (d->n_elems > 0)
    fv_volume_kernel<<<d->n_elems, FV_THREADS, volume_shared(d), s>>>(*d, *ph);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_fv_positivity(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  if (d->n_elems > 0) positivity_kernel<<<d->n_elems, FV_THREADS, 0, s>>>(*d, *ph);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_fv_backup(const DevData *d, cudaStream_t s) {
  size_t n = (size_t)d->nvar * d->n3 * d->n_elems;
  if (n > 0) backup_kernel<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(*d);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}
