/* FV subcell shock capturing on the device, the twin of src/dg/indicator.c and src/dg/fv.c
 * (Hennemann, Rueda-Ramirez, Hindenlang & Gassner 2021, JCP 426): the pointwise parts (indicator
 * quantity, sigmoid, reconstruction, interface frame, Riemann flux, admissible fraction) are the
 * shared functions of src/physics/fvblend.h and riemann.h.
 *
 * Every element kernel works on a segment of TPE threads per element (TPE = the power of two
 * >= (N+1)^3, at most 256; several elements per block of 256 threads for low N).
 *   post-update  after each stage's update, one pass over U per element: the Zhang-Shu positivity
 *              limiter (when FV_PositivityLimiter; the element's minima come from the update
 *              kernel, U is read only where a node may not be admissible), then the indicator
 *              of the (limited) state for the next operator call: rho p at the nodes, three
 *              passes of the nodal -> modal transform in shared memory, the modal energies by
 *              a segment reduction, alpha.
 *              The state does not change between the last stage of a step and the first of the
 *              next, so one indicator pass per stage suffices; uploads compute it afresh;
 *   spreading  alpha to the side arrays, then each element takes the scaled max of its
 *              neighbours' values (two kernels, so that an MPI exchange fits in between);
 *   volume     the blended elements (alpha > 0): primitive states in shared memory (fv_node);
 *              per direction one thread per line sweeps it with fv_line_residual (fvblend.h:
 *              each node's slope limited once, each interface flux computed once and added to
 *              both of its nodes) into R_FV in shared memory; Ut += alpha R_FV at the end (VolInt
 *              has already written (1 - alpha) R_DG). The kernel is instantiated per Riemann
 *              solver so that each instance holds only its solver's registers;
 *   U_good = U at the start of every step whose state passed the check is written by the first
 *   stage's update kernel (surfint_kernels.cu). */
#include "gpu/gpu_internal.cuh"

extern "C" {
#include "dg/indicator.h"
#include "physics/eos.h"
#include "physics/fvblend.h"
#include "physics/riemann.h"
}

#define FV_THREADS 256

/* Threads per element: the power of two >= n3, at most FV_THREADS (then threads loop). */
static int fv_tpe(int n3) {
  int t = 1;
  while (t < n3 && t < FV_THREADS) t *= 2;
  return t;
}

/* Deterministic tree reduction of NR values per thread over the tpe threads of an element's
 * segment (lt: thread index in the segment; red: NR * FV_THREADS doubles of the block). Every
 * thread of the block must call it. */
template <int NR, bool MIN>
__device__ static void segment_reduce(double *red, int tpe, int lt, double *vals) {
  const int seg = threadIdx.x - lt;
  for (int r = 0; r < NR; r++) red[r * FV_THREADS + threadIdx.x] = vals[r];
  __syncthreads();
  for (int s = tpe / 2; s > 0; s >>= 1) {
    if (lt < s)
      for (int r = 0; r < NR; r++) {
        double a = red[r * FV_THREADS + threadIdx.x], b = red[r * FV_THREADS + threadIdx.x + s];
        red[r * FV_THREADS + threadIdx.x] = MIN ? fmin(a, b) : a + b;
      }
    __syncthreads();
  }
  for (int r = 0; r < NR; r++) vals[r] = red[r * FV_THREADS + seg];
  __syncthreads(); /* red may be reused right after */
}

__device__ static void modal_pass(int np, int n3, int tpe, int lt, const double *Vinv, int d,
                                  const double *in, double *out) {
  for (int q = lt; q < n3; q += tpe) out[q] = fv_modal_pass_node(np, Vinv, d, in, q);
}

/* Zhang-Shu limiter of element e (Zhang & Shu 2010, JCP 229, Sec. 2.3, as fv_positivity_limit):
 * nodes pulled towards the element mean until density and pressure are >= 1e-10 of the mean's. */
__device__ static void positivity_element(const DevData &d, const PhysParams &pp, double *red,
                                          int tpe, int lt, bool active, int e) {
  const int np = d.np, n3 = d.n3;
  double *ue = d.U + (size_t)e * d.nvar * n3;
  /* min rho, min p, -max rho, -max E of the update kernel (then reset for the next stage): the
   * mean's density is at most max rho and its pressure at most (kappa - 1) max E, so nodes above
   * 1e-10 of these bounds pass the CPU's test against the mean too, and the mean is needed only
   * where a node does not */
  double mins[4] = {1e300, 1e300, 1e300, 1e300};
  if (active)
    for (int r = 0; r < 4; r++) mins[r] = fv_key_value(d.fv_minima[4 * (size_t)e + r]);
  __syncthreads();
  if (active && lt < 4) d.fv_minima[4 * (size_t)e + lt] = FV_KEY_NONE;
  int need = active && !(mins[0] >= FV_POSITIVITY_EPS * -mins[2] &&
                         mins[1] >= FV_POSITIVITY_EPS * pp.kappa_m1 * -mins[3]);
  if (!__syncthreads_or(need)) return;
  const double *w = d.disc->w, *sJ = d.sJ + (size_t)e * n3;
  /* an FV element of Gauss-node switching: the equidistant subcells (node_volume_weight of fv.c) */
  const bool subcells = active && d.fvg_sJ && d.fv_elems[e];
  double sums[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  if (active)
    for (int q = lt; q < n3; q += tpe) {
      double wq = subcells ? d.fvg_h3 / d.fvg_sJ[(size_t)e * n3 + q]
                           : w[q % np] * w[(q / np) % np] * w[q / (np * np)] / sJ[q];
      sums[5] += wq;
      for (int v = 0; v < HX_NVAR; v++) sums[v] += wq * ue[v * n3 + q];
    }
  segment_reduce<6, false>(red, tpe, lt, sums);
  double mean[HX_NVAR];
  for (int v = 0; v < HX_NVAR; v++) mean[v] = sums[v] / sums[5];
  double p_mean = pressure_from_cons(&pp, mean);
  double eps_rho = FV_POSITIVITY_EPS * mean[DENS], eps_p = FV_POSITIVITY_EPS * p_mean;
  bool limit = active && !(mins[0] >= eps_rho && mins[1] >= eps_p) && mean[DENS] > 0.0 &&
               p_mean > 0.0; /* an inadmissible mean: the next dt check stops the run */
  double theta[1] = {1.0};
  if (limit)
    for (int q = lt; q < n3; q += tpe) {
      double u[HX_NVAR];
      for (int v = 0; v < HX_NVAR; v++) u[v] = ue[v * n3 + q];
      theta[0] = fmin(theta[0], fv_admissible_fraction(&pp, mean, u, eps_rho, eps_p));
    }
  segment_reduce<1, true>(red, tpe, lt, theta);
  if (limit)
    for (int q = lt; q < n3; q += tpe)
      for (int v = 0; v < HX_NVAR; v++)
        ue[v * n3 + q] = mean[v] + theta[0] * (ue[v * n3 + q] - mean[v]);
  __syncthreads(); /* the indicator below reads other threads' nodes */
}

/* Blending factor of element e from U (Hennemann et al. 2021, Sec. 4; as fv_element_energy). */
__device__ static void indicator_element(const DevData &d, const PhysParams &pp, double *red,
                                         double *a, double *b, const double *Vinv, int tpe,
                                         int lt, bool active, int e) {
  const int np = d.np, n3 = d.n3, N = d.N;
  const double *Ue = d.U + (size_t)e * d.nvar * n3;
  if (active)
    for (int q = lt; q < n3; q += tpe) {
      double u[HX_NVAR];
      for (int v = 0; v < HX_NVAR; v++) u[v] = Ue[v * n3 + q];
      a[q] = fv_indicator_quantity(d.fv_ind_var, pp.kappa_m1, u);
    }
  __syncthreads();
  if (active) modal_pass(np, n3, tpe, lt, Vinv, 0, a, b);
  __syncthreads();
  if (active) modal_pass(np, n3, tpe, lt, Vinv, 1, b, a);
  __syncthreads();
  if (active) modal_pass(np, n3, tpe, lt, Vinv, 2, a, b);
  __syncthreads();
  double sums[3] = {0.0, 0.0, 0.0}; /* all modes, degree <= N-1, degree <= N-2 */
  if (active)
    for (int q = lt; q < n3; q += tpe) fv_modal_energy_add(np, q, b[q], sums);
  segment_reduce<3, false>(red, tpe, lt, sums);
  if (active && lt == 0) {
    double E = fv_modal_energy(N, sums[0], sums[1], sums[2]);
    d.alpha[e] = fv_alpha_from_energy(E, N, d.fv_alpha_min, d.fv_alpha_max);
  }
}

/* LIMIT: the positivity limiter first (after a stage's update); then alpha of the state. */
template <bool LIMIT>
__global__ static void __launch_bounds__(FV_THREADS) post_update_kernel(DevData d, DevPhysics ph,
                                                                        int tpe) {
  extern __shared__ double smem[];
  __shared__ double red[6 * FV_THREADS];
  const int n3 = d.n3, np = d.np, le = threadIdx.x / tpe, lt = threadIdx.x - le * tpe;
  const int e = blockIdx.x * (FV_THREADS / tpe) + le;
  const bool active = e < d.n_elems;
  if (LIMIT) {
    if (!(d.sc->dt > 0.0)) return; /* the whole grid: nothing was updated */
    positivity_element(d, ph.pp, red, tpe, lt, active, e);
  }
  if (d.ind_value) return; /* FLEXI's indicators, switching: indicator_kernels.cu */
  if (d.fv_indicator == FV_INDICATOR_FIXED) {
    if (active && lt == 0) d.alpha[e] = d.fv_alpha_fix;
    return;
  }
  double *Vinv = smem, *a = smem + np * np + (size_t)le * 2 * n3, *b = a + n3;
  for (int t = threadIdx.x; t < np * np; t += FV_THREADS) Vinv[t] = d.fv_vinv[t];
  indicator_element(d, ph.pp, red, a, b, Vinv, tpe, lt, active, e);
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

/* Threads of the volume kernel per block at most, for NP = N + 1 (0: any N). */
__host__ __device__ constexpr int fv_volume_max_threads(int NP) {
  return NP == 8 ? 64 : 128;
}

/* Threads of the volume kernel per element: one per line of a direction (np^2), at most
 * max_threads (then threads take several lines). */
__host__ __device__ constexpr int fv_line_threads(int np, int max_threads) {
  return np * np < max_threads ? np * np : max_threads;
}

/* Shared-memory layout of an element's nodes: rows along i of np values, unpadded (rows of
 * np + 1 would take 46 instead of 41 KB per element at N = 7: four elements per SM instead of
 * five). The lines of direction 0 (one per thread) then share banks; at N = 7 the columns are
 * swizzled against that (fv_swizzle); at the other N the conflicts cost less than padding. */
__device__ static inline int fv_swz(int np) {
  return np == 8;
}
/* Index of node (i, j, k) before the swizzle, and after it. */
__device__ static inline int fv_raw(int np, int i, int j, int k) {
  return (k * np + j) * np + i;
}
__device__ static inline int fv_node(int np, int i, int j, int k) {
  return fv_swizzle(fv_swz(np), fv_raw(np, i, j, k));
}

/* NP = N + 1 as a compile-time constant (0: d.np at run time): constant strides and loop bounds.
 * LIM, SPLIT: the limiter and the split form as constants (-1: d.fv_limiter, d.split). One thread
 * per line: direction 0 stores each node's part of R_FV, direction 1 adds, direction 2 adds, then
 * every node adds alpha R_FV to Ut (VolInt has written (1 - alpha) R_DG). Subcell metrics on the
 * device: [elem][dir][interface m][line][3] (fv_device_metrics), so that the threads of
 * neighbouring lines read neighbouring words. Launch bounds: N = 3 runs 8 elements (128
 * threads) per block, three blocks per SM (at most 168 registers, 12 warps: measured faster than
 * 16 warps at 128 registers, which spill, and 8 warps without spills); N = 7 one element (64
 * threads) per block, five per SM (shared memory), at most 168 registers so that three warps fit
 * an SM partition (with 170 registers: two); other N as N = 3. */
template <int RIEMANN, int NP, int LIM, int SPLIT>
__global__ static void __launch_bounds__(fv_volume_max_threads(NP), NP == 8 ? 6 : 3)
    fv_volume_kernel(DevData d, DevPhysics ph) {
  extern __shared__ double smem[];
  const int np = NP ? NP : d.np, N = np - 1, n3 = np * np * np, n2 = np * np;
  const int tpe = fv_line_threads(np, fv_volume_max_threads(NP)), epb = blockDim.x / tpe;
  const int le = threadIdx.x / tpe, lt = threadIdx.x - le * tpe;
  const int e = blockIdx.x * epb + le;
  const double alpha = e < d.n_elems && le < epb ? d.alpha[e] : 0.0;
  const bool active = alpha > 0.0 && d.sc->dt > 0.0;
  if (!__syncthreads_or(active)) return; /* no blended element in this block */
  FVLine *line = (FVLine *)smem;
  for (int t = threadIdx.x; t < (int)(sizeof(FVLine) / sizeof(double)); t += blockDim.x)
    smem[t] = ((const double *)d.fv_line)[t];
  double *sp = smem + sizeof(FVLine) / sizeof(double) + (size_t)le * 2 * HX_NVAR * n3;
  double *res = sp + HX_NVAR * n3;
  const double *Ue = d.U + (size_t)e * d.nvar * n3;
  if constexpr (NP > 0) {
    if (active) { /* thread lt holds the column (i, j) = lt: all its loads first (latency) */
      double u[NP][HX_NVAR];
#pragma unroll
      for (int k = 0; k < NP; k++)
        for (int v = 0; v < HX_NVAR; v++) u[k][v] = __ldg(&Ue[v * n3 + k * n2 + lt]);
#pragma unroll
      for (int k = 0; k < NP; k++) {
        double prim[HX_NPRIM];
        cons_to_prim(&ph.pp, u[k], prim);
        const int qp = fv_node(np, lt % np, lt / np, k);
        for (int v = 0; v < HX_NVAR; v++) sp[v * n3 + qp] = prim[v];
      }
    }
  } else if (active) {
    for (int q = lt; q < n3; q += tpe) {
      double u[HX_NVAR], prim[HX_NPRIM];
      for (int v = 0; v < HX_NVAR; v++) u[v] = Ue[v * n3 + q];
      cons_to_prim(&ph.pp, u, prim);
      const int qp = fv_node(np, q % np, (q / np) % np, q / n2);
      for (int v = 0; v < HX_NVAR; v++) sp[v * n3 + qp] = prim[v];
    }
  }
  __syncthreads();
#pragma unroll 1
  for (int dir = 0; dir < 3; dir++) {
    const double *mvec = d.fv_metrics + ((size_t)e * 3 + dir) * N * n2 * 3;
    const int stride = dir == 0 ? 1 : dir == 1 ? np : n2;
    if (active)
      for (int l = lt; l < n2; l += tpe) {
        const int a = l % np, b = l / np; /* (j, k), (i, k), (i, j) */
        const int base = dir == 0 ? fv_raw(np, 0, a, b) : dir == 1 ? fv_raw(np, a, 0, b)
                                                                    : fv_raw(np, a, b, 0);
        fv_line_residual(RIEMANN, SPLIT >= 0 ? SPLIT : d.split, LIM >= 0 ? LIM : d.fv_limiter,
                         &ph.pp, np, line, sp, n3, res, n3, base, stride, fv_swz(np),
                         mvec + 3 * l, 3 * n2, dir > 0);
      }
    __syncthreads();
  }
  if (!active) return;
  double *ut = d.Ut + (size_t)e * d.nvar * n3;
  if constexpr (NP > 0) {
    double r[NP][HX_NVAR];
#pragma unroll
    for (int k = 0; k < NP; k++)
      for (int v = 0; v < HX_NVAR; v++) r[k][v] = ut[v * n3 + k * n2 + lt];
#pragma unroll
    for (int k = 0; k < NP; k++) {
      const int qp = fv_node(np, lt % np, lt / np, k);
      for (int v = 0; v < HX_NVAR; v++)
        ut[v * n3 + k * n2 + lt] = r[k][v] + alpha * res[v * n3 + qp];
    }
  } else {
    for (int q = lt; q < n3; q += tpe) {
      const int qp = fv_node(np, q % np, (q / np) % np, q / n2);
      for (int v = 0; v < HX_NVAR; v++) ut[v * n3 + q] += alpha * res[v * n3 + qp];
    }
  }
}

static int elems_per_block(const DevData *d) {
  return FV_THREADS / fv_tpe(d->n3);
}

static size_t post_update_shared(const DevData *d) {
  return sizeof(double) * (d->np * d->np + 2 * (size_t)d->n3 * elems_per_block(d));
}

/* Shared memory of the volume kernel per element: primitive states and R_FV. */
static size_t volume_elem_shared(int np) {
  return sizeof(double) * 2 * HX_NVAR * (size_t)np * np * np;
}

/* Elements per block of the volume kernel: a power of two, as many as max_threads threads hold
 * but at most 64 KiB of shared memory per block, so that an SM holds several blocks and few
 * bytes go unused. */
static int volume_elems_per_block(int np, int max_threads) {
  int epb = 1;
  while (2 * epb * fv_line_threads(np, max_threads) <= max_threads &&
         2 * epb * volume_elem_shared(np) <= 64 * 1024)
    epb *= 2;
  return epb;
}

static size_t volume_shared(const DevData *d, int max_threads) {
  return sizeof(FVLine) + volume_elem_shared(d->np) * volume_elems_per_block(d->np, max_threads);
}

/* The subcell metrics of src/dg/fv.c ([elem][dir][a np + b][m][3], line_base of fv.c) in the
 * device order [elem][dir][m][b np + a][3] of fv_volume_kernel. */
extern "C" void fv_device_metrics(int np, long n_elems, const double *host, double *out) {
  int N = np - 1, n2 = np * np;
  for (long e = 0; e < n_elems; e++)
    for (int dir = 0; dir < 3; dir++)
      for (int a = 0; a < np; a++)
        for (int b = 0; b < np; b++)
          for (int m = 0; m < N; m++) {
            const double *src = host + (((e * 3 + dir) * n2 + a * np + b) * N + m) * 3;
            double *dst = out + (((e * 3 + dir) * N + m) * n2 + b * np + a) * 3;
            for (int c = 0; c < 3; c++) dst[c] = src[c];
          }
}

/* One instance of the volume kernel: its shared-memory attribute (launch false) or its launch. */
template <int R, int NP, int LIM, int SPLIT>
static cudaError_t volume_instance(const DevData *d, const DevPhysics *ph, bool launch,
                                   cudaStream_t s) {
  const int max_threads = fv_volume_max_threads(NP);
  const size_t bytes = volume_shared(d, max_threads);
  if (!launch) {
    cudaError_t err = cudaFuncSetAttribute(fv_volume_kernel<R, NP, LIM, SPLIT>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    if (err != cudaSuccess) return err;
    return cudaFuncSetAttribute(fv_volume_kernel<R, NP, LIM, SPLIT>,
                                cudaFuncAttributePreferredSharedMemoryCarveout,
                                cudaSharedmemCarveoutMaxShared);
  }
  const int epb = volume_elems_per_block(d->np, max_threads);
  const unsigned blocks = (unsigned)((d->n_elems + epb - 1) / epb);
  const unsigned threads = (unsigned)(epb * fv_line_threads(d->np, max_threads));
  fv_volume_kernel<R, NP, LIM, SPLIT><<<blocks, threads, bytes, s>>>(*d, *ph);
  return cudaGetLastError();
}

/* N as a constant; with the defaults FV_LimiterType = MinMod and SplitDG = PI these as
 * constants too (their branches folded: 4 % at N = 7, fewer registers). */
template <int R, int NP>
static cudaError_t volume_fixed_n(const DevData *d, const DevPhysics *ph, bool launch,
                                  cudaStream_t s) {
  if (d->fv_limiter == FV_LIM_MINMOD && d->split == SPLIT_PI)
    return volume_instance<R, NP, FV_LIM_MINMOD, SPLIT_PI>(d, ph, launch, s);
  return volume_instance<R, NP, -1, -1>(d, ph, launch, s);
}

/* N = 1..7 (NP = 2..8) as constants for the common solvers, any N at run time otherwise. */
template <int R, int NP = 2>
static cudaError_t volume_common(const DevData *d, const DevPhysics *ph, bool launch,
                                 cudaStream_t s) {
  if constexpr (NP <= 8) {
    if (d->np == NP) return volume_fixed_n<R, NP>(d, ph, launch, s);
    return volume_common<R, NP + 1>(d, ph, launch, s);
  } else {
    return volume_instance<R, 0, -1, -1>(d, ph, launch, s);
  }
}

/* The instance for d's Riemann solver, N and limiter (LIM -1: the limiter at run time). */
static cudaError_t volume_dispatch(const DevData *d, const DevPhysics *ph, bool launch,
                                   cudaStream_t s) {
  switch (d->riemann) {
  case RIEMANN_LF:
    return volume_common<RIEMANN_LF>(d, ph, launch, s);
  case RIEMANN_HLLC:
    return volume_common<RIEMANN_HLLC>(d, ph, launch, s);
  case RIEMANN_ROE_ENTROPYFIX:
    return volume_common<RIEMANN_ROE_ENTROPYFIX>(d, ph, launch, s);
  case RIEMANN_HLLE:
    return volume_common<RIEMANN_HLLE>(d, ph, launch, s);
  case RIEMANN_ROE:
    return volume_instance<RIEMANN_ROE, 0, -1, -1>(d, ph, launch, s);
  case RIEMANN_ROEL2:
    return volume_instance<RIEMANN_ROEL2, 0, -1, -1>(d, ph, launch, s);
  case RIEMANN_HLL:
    return volume_instance<RIEMANN_HLL, 0, -1, -1>(d, ph, launch, s);
  case RIEMANN_HLLEM:
    return volume_instance<RIEMANN_HLLEM, 0, -1, -1>(d, ph, launch, s);
  case RIEMANN_CH:
    return volume_instance<RIEMANN_CH, 0, -1, -1>(d, ph, launch, s);
  default:
    return cudaErrorInvalidValue;
  }
}

int fv_configure(const DevData *d) {
  size_t bytes = sizeof(FVLine) + volume_elem_shared(d->np);
  if (bytes > 227 * 1024)
    return HX_ERROR(HX_ERR_INPUT, "FV shock capturing on the GPU: N = %d needs %zu bytes of "
                                  "shared memory per element (at most 227 KiB); use a lower N "
                                  "or Backend = cpu", d->N, bytes);
  cudaError_t err = volume_dispatch(d, NULL, false, 0);
  if (err == cudaErrorInvalidValue)
    return HX_ERROR(HX_ERR_INTERNAL, "FV volume kernel: Riemann solver id %d", d->riemann);
  CU_CHECK(err);
  CU_CHECK(cudaFuncSetAttribute(post_update_kernel<true>,
                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                (int)post_update_shared(d)));
  CU_CHECK(cudaFuncSetAttribute(post_update_kernel<false>,
                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                (int)post_update_shared(d)));
  return HX_OK;
}

static unsigned fv_blocks(const DevData *d) {
  int epb = elems_per_block(d);
  return (unsigned)((d->n_elems + epb - 1) / epb);
}

int launch_fv_indicator(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  if (d->n_elems > 0)
    post_update_kernel<false><<<fv_blocks(d), FV_THREADS, post_update_shared(d), s>>>(
        *d, *ph, fv_tpe(d->n3));
  CU_CHECK(cudaGetLastError());
  return launch_ind_alpha(d, ph, s);
}

int launch_fv_post_update(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  if (d->n_elems > 0) {
    if (d->fv_positivity)
      post_update_kernel<true><<<fv_blocks(d), FV_THREADS, post_update_shared(d), s>>>(
          *d, *ph, fv_tpe(d->n3));
    else
      post_update_kernel<false><<<fv_blocks(d), FV_THREADS, post_update_shared(d), s>>>(
          *d, *ph, fv_tpe(d->n3));
  }
  CU_CHECK(cudaGetLastError());
  return launch_ind_alpha(d, ph, s);
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
  /* Gauss-node switching: launch_fvg_volume, once the ghosts of the face work are there */
  if (d->n_elems == 0 || d->fvg_sJ) return HX_OK;
  CU_CHECK(volume_dispatch(d, ph, true, s));
  return HX_OK;
}
