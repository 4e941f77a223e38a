/* The line kernels of the BR1 lifting, strong non-conservative form (FLEXI's default): one thread
 * per element line for the 1-D operators, one thread per node for the pointwise work, the element
 * in shared memory. Gauss-Lobatto nodes: lifting_line_kernel (lifting_kernels.cu); Gauss nodes:
 * lifting_gauss_line_kernel (lifting_gauss_kernels.cu). This header holds what both share: the
 * slot layout, the line tasks and the phases that are the same on both node types.
 *
 * A slot holds one value per node of an element in the layout of line_pad (see there). The 1-D
 * matrices come from the kernel's parameter space (uniform operands of the FMAs). */
#ifndef HEXDG_GPU_LIFTING_LINE_CUH
#define HEXDG_GPU_LIFTING_LINE_CUH

#include "gpu/eddyvisc.cuh"
#include "gpu/gpu_internal.cuh"

extern "C" {
#include "physics/eos.h"
#include "physics/euler.h"
#include "physics/navierstokes.h"
}

#define LINE_THREADS 256
#ifndef HEXDG_LINE_MIN_BLOCKS
#define HEXDG_LINE_MIN_BLOCKS 2 /* blocks per SM: <= 128 registers (3: <= 80, spills; slower) */
#endif
#define LINE_SLOTS 16
#define LINE_NP_MIN 2
#define LINE_NP_MAX 8

__host__ __device__ constexpr int line_elems_per_block(int n3) {
  return n3 >= LINE_THREADS / 2 ? 1 : LINE_THREADS / n3;
}

/* Slot layout: node (i, j, k) at i + R j + P k, rows of R = line_row(np) and planes of
 * P = line_plane(np) values. A warp's 64-bit shared accesses take one wavefront per half-warp
 * where its 16 addresses fall into 16 different banks (mod 16 doubles), two or more where some
 * share one. tools/line_banks.py counts the wavefronts per access of a block (consecutive nodes,
 * consecutive lines of each direction, and the Gauss lifting kernel's mix of the two, in the
 * natural and the bank-grouped task orders of lifting_gauss_kernels.cu); the layouts taken:
 *   np = 4: R = 4, P = 19 (planes padded): nodes and the lines of directions 0 and 2
 *           conflict-free, mix 3232 (rows of 5: 4544, grouped 3536);
 *   np = 6, 8: R = np + 1, P = R np (rows padded): np = 6 with the grouped orders 3255 (4194
 *           natural; unpadded 3508), np = 8 9088 (unpadded 13184; its two-block instance takes
 *           no grouped orders);
 *   np = 2, 3, 5, 7: unpadded: np = 5 3884 (padded rows 5722), np = 7 5344 (11296: rows of 8 put
 *           the lines of direction 0 into 2 banks). */
__host__ __device__ constexpr int line_row(int np) {
  return np == 6 || np == 8 ? np + 1 : np;
}
__host__ __device__ constexpr int line_plane(int np) {
  return np == 4 ? 19 : line_row(np) * np;
}
__host__ __device__ constexpr int line_slot_size(int np) {
  return line_plane(np) * np;
}

/* Index of node n (0 .. np^3 - 1) in a slot. */
__host__ __device__ static inline int line_pad_np(int np, int n) {
  return n % np + line_row(np) * (n / np % np) + line_plane(np) * (n / (np * np));
}
template <int NP> __device__ static inline int line_pad(int n) {
  return line_pad_np(NP, n);
}

/* First index in a slot and stride of line `line` (0 .. np^2 - 1) along direction dir. */
__host__ __device__ static inline void line_start_np(int np, int dir, int line, int *base,
                                                     int *stride) {
  const int a = line % np, b = line / np; /* the indices across the line */
  const int r = line_row(np), p = line_plane(np);
  if (dir == 0) {
    *base = r * a + p * b;
    *stride = 1;
  } else if (dir == 1) {
    *base = a + p * b;
    *stride = r;
  } else {
    *base = a + r * b;
    *stride = p;
  }
}
template <int NP>
__device__ static inline void line_start(int dir, int line, int *base, int *stride) {
  line_start_np(NP, dir, line, base, stride);
}

/* Line task t of a block (3 NP^2 per element): its element le in the block, direction dir and
 * the line's first padded index and stride. */
template <int NP>
__device__ static inline int line_task(int t, int *dir, int *base, int *stride) {
  constexpr int N2 = NP * NP;
  int le = t / (3 * N2), r = t - le * 3 * N2;
  *dir = r / N2;
  line_start<NP>(*dir, r - *dir * N2, base, stride);
  return le;
}

/* The NP values of a line (src[i stride]) interpolated to its two ends: *m = sum_i Lm[i] src_i,
 * *p = sum_i Lp[i] src_i, summed in the order of i. */
template <int NP>
__device__ static __forceinline__ void line_end_values(const double *src, int stride,
                                                       const double *Lm, const double *Lp,
                                                       double *m, double *p) {
  double in[NP], a = 0.0, b = 0.0;
#pragma unroll
  for (int i = 0; i < NP; i++)
    in[i] = src[i * stride];
#pragma unroll
  for (int i = 0; i < NP; i++) {
    a += Lm[i] * in[i];
    b += Lp[i] * in[i];
  }
  *m = a;
  *p = b;
}

/* End `end` of line `line` of element e along dir: its side, flip and face point f
 * (line_end_face_point), and there the element's half of a face array arr[side][master |
 * slave][NV][NP^2] (master: flip 0). */
template <int NP, int NV>
__device__ static __forceinline__ double *line_end_half(const DevData &d, int e, int dir, int line,
                                                        int end, double *arr, int *side, int *flip,
                                                        int *f) {
  line_end_face_point<NP>(d, e, dir, line, end, side, flip, f);
  return arr + ((size_t)*side * 2 + (*flip != 0)) * NV * NP * NP + *f;
}

/* Gauss nodes: NV rows of a line's values (row v at sl[v * row], node i at i * stride)
 * interpolated to both of its ends, l_i(-1) (Lm) and l_i(+1) (Lp), in prolong_to_face_point's
 * order, into the element's half of a face array arr[side][master | slave][NV][NP^2] in the
 * master's orientation (line_end_face_point). */
template <int NP, int NV>
__device__ static __forceinline__ void
line_to_face_halves(const DevData &d, int e, int dir, int line, const double *sl, int row,
                    int stride, const double *Lm, const double *Lp, double *arr) {
  constexpr int N2 = NP * NP;
  double *out[2];
#pragma unroll
  for (int end = 0; end < 2; end++) {
    int side, flip, f;
    out[end] = line_end_half<NP, NV>(d, e, dir, line, end, arr, &side, &flip, &f);
  }
#pragma unroll
  for (int v = 0; v < NV; v++) {
    double m, p;
    line_end_values<NP>(sl + v * row, stride, Lm, Lp, &m, &p);
    out[0][v * N2] = m;
    out[1][v * N2] = p;
  }
}

/* The NP values of a line (src[l stride]) into in, and out[i] = sum_l A[i][l] in[l]. */
template <int NP>
__device__ static inline void line_apply(const double *A, const double *src, int stride,
                                         double in[NP], double out[NP]) {
#pragma unroll
  for (int l = 0; l < NP; l++) in[l] = src[l * stride];
#pragma unroll
  for (int i = 0; i < NP; i++) {
    double acc = 0.0;
#pragma unroll
    for (int l = 0; l < NP; l++) acc += A[i * NP + l] * in[l];
    out[i] = acc;
  }
}

/* Node phase: w = (u, v, w, T) of the ne elements from e0 into slots 0..3 of slots (LINE_SLOTS
 * per element). The states of all of a thread's nodes are loaded before any is used (loads in
 * flight). u_first (may be NULL): the state of the thread's first node, for a later phase. */
template <int NP>
__device__ static __forceinline__ void line_stage_lifting_variables(const DevData &d,
                                                                    const PhysParams &pp, int e0,
                                                                    int ne, double *slots,
                                                                    double *u_first = nullptr) {
  constexpr int N2 = NP * NP, N3 = NP * N2, S = line_slot_size(NP);
  constexpr int EPB = line_elems_per_block(N3);
  constexpr int NODE_PASSES = (EPB * N3 + LINE_THREADS - 1) / LINE_THREADS;
  double u[NODE_PASSES][HX_NVAR];
#pragma unroll
  for (int p = 0; p < NODE_PASSES; p++) {
    int t = threadIdx.x + p * LINE_THREADS, le = t / N3, n = t - le * N3;
    if (t < ne * N3) {
      const double *Ue = d.U + (size_t)(e0 + le) * d.nvar * N3 + n;
#pragma unroll
      for (int v = 0; v < HX_NVAR; v++) u[p][v] = Ue[v * N3];
    }
  }
  if (u_first && threadIdx.x < ne * N3)
#pragma unroll
    for (int v = 0; v < HX_NVAR; v++) u_first[v] = u[0][v];
#pragma unroll
  for (int p = 0; p < NODE_PASSES; p++) {
    int t = threadIdx.x + p * LINE_THREADS, le = t / N3, n = t - le * N3;
    if (t >= ne * N3) break;
    double prim[HX_NPRIM], w[HX_NLIFT];
    cons_to_prim(&pp, u[p], prim);
    lifting_variables(prim, w);
    double *sl = slots + (size_t)le * LINE_SLOTS * S + line_pad<NP>(n);
#pragma unroll
    for (int v = 0; v < HX_NLIFT; v++) sl[v * S] = w[v];
  }
}

/* Line phase: the reference derivatives D w of one line (sl: its first node's slots, stride
 * along it) into slots 4 + 4 dir + v. */
template <int NP>
__device__ static __forceinline__ void line_derive_lifting_variables(const double *D, double *sl,
                                                                     int dir, int stride) {
  constexpr int S = line_slot_size(NP);
#pragma unroll
  for (int v = 0; v < HX_NLIFT; v++) {
    double in[NP], out[NP];
    line_apply<NP>(D, sl + v * S, stride, in, out);
#pragma unroll
    for (int i = 0; i < NP; i++) sl[(HX_NLIFT + dir * HX_NLIFT + v) * S + i * stride] = out[i];
  }
}

/* Node phase: the physical gradients of the strong form at a node, q[c][v] = sum_dir Ja^dir_c
 * (D w_v)_dir, from the line derivatives in its slots (sl: the node's first slot). */
template <int NP>
__device__ static __forceinline__ void node_gradient_from_slots(const double *Ja,
                                                                const double *sl,
                                                                double q[3][HX_NLIFT]) {
  constexpr int S = line_slot_size(NP);
#pragma unroll
  for (int c = 0; c < 3; c++)
#pragma unroll
    for (int v = 0; v < HX_NLIFT; v++) {
      double acc = 0.0;
#pragma unroll
      for (int dir = 0; dir < 3; dir++)
        acc += Ja[dir * 3 + c] * sl[(HX_NLIFT + dir * HX_NLIFT + v) * S];
      q[c][v] = acc;
    }
}

/* Node phase: the contravariant viscous fluxes g[dir][var] = Fv . Ja^dir of node n of element e
 * (primitive state prim, metrics Ja, gradients q) into its slots 0..14 (sl: the node's first
 * slot; only its owner reads and writes them in this phase). Without LES only prim's velocity and
 * temperature are read. ADV (d.lift_volume): g minus the advective flux F(u) . Ja^dir of the
 * conservative state u (prim then complete), so that the volume integral of the slots is the
 * weak form's whole volume term. */
template <int NP, bool LES, bool ADV = false>
__device__ static __forceinline__ void
node_store_viscous_fluxes_prim(const DevData &d, const PhysParams &pp, int e, int n,
                               const double *prim, const double *Ja, const double q[3][HX_NLIFT],
                               double *sl, const double *u = nullptr) {
  constexpr int S = line_slot_size(NP);
  double tau[9], cond[3];
  sgs_node_stress<LES>(d, pp, e, n, prim, q, tau, cond);
#pragma unroll
  for (int dir = 0; dir < 3; dir++) {
    double F[HX_NVAR], Fa[HX_NVAR];
    viscous_flux_from_stress(prim, tau, cond, &Ja[3 * dir], F);
    if (ADV) euler_flux_normal(u, prim, &Ja[3 * dir], Fa);
#pragma unroll
    for (int v = 0; v < HX_NVAR; v++)
      sl[(dir * HX_NVAR + v) * S] = ADV ? F[v] - Fa[v] : F[v];
  }
}

/* The same from the conservative state u. */
template <int NP, bool LES, bool ADV = false>
__device__ static __forceinline__ void
node_store_viscous_fluxes(const DevData &d, const PhysParams &pp, int e, int n, const double *u,
                          const double *Ja, const double q[3][HX_NLIFT], double *sl) {
  double prim[HX_NPRIM];
  cons_to_prim(&pp, u, prim);
  node_store_viscous_fluxes_prim<NP, LES, ADV>(d, pp, e, n, prim, Ja, q, sl, u);
}

/* Line phase: the 1-D viscous volume integral of g[dir] along one dir-line, in place (sl: the
 * line's first node's slot of g[dir][0]; a dir-line's g[dir] values are read by that line only).
 * Dv: Dvol; Dvs: its row sums (split form: the node's own half of the two-point mean). */
template <int NP, bool SPLIT>
__device__ static __forceinline__ void line_viscous_volume(const double *Dv, const double *Dvs,
                                                           double *sl, int stride) {
  constexpr int S = line_slot_size(NP);
#pragma unroll
  for (int v = 0; v < HX_NVAR; v++) {
    double in[NP], out[NP];
    line_apply<NP>(Dv, sl + v * S, stride, in, out);
#pragma unroll
    for (int i = 0; i < NP; i++) /* split: sum_l Dvol[i][l] (g_i + g_l) / 2 */
      sl[v * S + i * stride] = SPLIT ? 0.5 * (out[i] + Dvs[i] * in[i]) : out[i];
  }
}

/* Node phase: Ut_visc = -(sum of the three directions' volume integrals) of node task t. */
template <int NP>
__device__ static __forceinline__ void node_store_viscous_volume(const DevData &d, int e0, int t,
                                                                 const double *slots) {
  constexpr int N2 = NP * NP, N3 = NP * N2, S = line_slot_size(NP);
  int le = t / N3, n = t - le * N3;
  const double *sl = slots + (size_t)le * LINE_SLOTS * S + line_pad<NP>(n);
  double *ut = d.Ut_visc + (size_t)(e0 + le) * d.nvar * N3 + n;
#pragma unroll
  for (int v = 0; v < HX_NVAR; v++)
    ut[v * N3] = -(sl[v * S] + sl[(HX_NVAR + v) * S] + sl[(2 * HX_NVAR + v) * S]);
}

/* case np: return F<np> ARGS; for the np of the line kernels */
#define LINE_NP_CASES(F, ARGS)                                                                     \
  case 2: return F<2> ARGS;                                                                        \
  case 3: return F<3> ARGS;                                                                        \
  case 4: return F<4> ARGS;                                                                        \
  case 5: return F<5> ARGS;                                                                        \
  case 6: return F<6> ARGS;                                                                        \
  case 7: return F<7> ARGS;                                                                        \
  case 8: return F<8> ARGS

/* Gauss nodes (lifting_gauss_kernels.cu): shared-memory limits (once at set-up) and the launch
 * of the line kernel for np = N + 1 in [LINE_NP_MIN, LINE_NP_MAX]. */
int gauss_line_configure(int np);
int gauss_line_launch(const DevData *d, const DevPhysics *ph, int volume_grad, cudaStream_t s,
                      bool dependent);

#endif
