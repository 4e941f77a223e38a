/* VolInt on the device. A block holds one or a few elements: their states, per-node flux
 * quantities and metrics (split form) or contravariant fluxes (weak form) are staged in shared
 * memory once, then every thread sums the contributions of the three lines through its node
 * (GALAEXI-style volume kernel). For degrees whose element data do not fit in shared memory,
 * partner data are recomputed from global memory. */
#include "gpu/gpu_internal.cuh"
#include "gpu/lifting_line.cuh"
#include "gpu/update_node.cuh"
#include "gpu/volint_kep.cuh"

extern "C" {
#include "physics/eos.h"
#include "physics/euler.h"
#include "physics/splitflux.h"
}

#define VOLINT_MAX_SHARED (200 * 1024)
/* <= 128 registers per thread: two blocks of 256 threads per SM */
#define VOLINT_THREADS 256
#define VOLINT_MIN_BLOCKS 2

/* The weak fused update at <= 80 registers: at 82 (constant metrics, line surface) N = 3 lost
 * one of 6 blocks of 128 threads per SM and N = 5 one of 3 blocks of 216, and the kernel took
 * 10 % (N = 3) and 26 % (N = 5) longer on the H200 */
#define WEAK_UPDATE_MIN_BLOCKS 3

/* per-node doubles in shared memory: weak: contravariant fluxes ft[dir][var];
 * split: u[var], prim[p], aux, metrics Ja[dir][comp] */
#define SPLIT_U 0
#define SPLIT_PRIM HX_NVAR
#define SPLIT_AUX (HX_NVAR + HX_NPRIM)
#define SPLIT_JA (HX_NVAR + HX_NPRIM + 1)
#define SPLIT_CACHE (SPLIT_JA + 9)
#define WEAK_CACHE (3 * HX_NVAR)

/* Contravariant flux F(U) . Ja^dir at node q of element e. */
__device__ static void contravariant_flux(const DevData &d, int e, int q, int dir, const double *u,
                                          const double *prim, double *ft) {
  double f[3][HX_NVAR], m[3];
  euler_fluxes_xyz(u, prim, f[0], f[1], f[2]);
  node_metric_dir(d, e, dir, q, m);
  for (int v = 0; v < HX_NVAR; v++) ft[v] = f[0][v] * m[0] + f[1][v] * m[1] + f[2][v] * m[2];
}

/* Node q's data for the split form, from shared memory or recomputed from global memory. */
template <bool SHARED>
__device__ static void split_node(const DevData &d, const PhysParams &pp, const double *cache,
                                  int e, int q, int dir, double *u, double *prim, double *aux,
                                  double *m) {
  if (SHARED) {
    for (int v = 0; v < HX_NVAR; v++) u[v] = cache[(SPLIT_U + v) * d.n3 + q];
    for (int v = 0; v < HX_NPRIM; v++) prim[v] = cache[(SPLIT_PRIM + v) * d.n3 + q];
    *aux = cache[SPLIT_AUX * d.n3 + q];
    for (int c = 0; c < 3; c++) m[c] = cache[(SPLIT_JA + 3 * dir + c) * d.n3 + q];
  } else {
    load_node(d, pp, e, q, u, prim);
    *aux = split_node_aux(d.split, u, prim);
    node_metric_dir(d, e, dir, q, m);
  }
}

template <bool WEAK>
__device__ static void stage_node(const DevData &d, const PhysParams &pp, int e, int q,
                                  double *cache) {
  double u[HX_NVAR], prim[HX_NPRIM];
  load_node(d, pp, e, q, u, prim);
  if (WEAK) {
    for (int dir = 0; dir < 3; dir++) {
      double ft[HX_NVAR];
      contravariant_flux(d, e, q, dir, u, prim, ft);
      for (int v = 0; v < HX_NVAR; v++) cache[(dir * HX_NVAR + v) * d.n3 + q] = ft[v];
    }
  } else {
    for (int v = 0; v < HX_NVAR; v++) cache[(SPLIT_U + v) * d.n3 + q] = u[v];
    for (int v = 0; v < HX_NPRIM; v++) cache[(SPLIT_PRIM + v) * d.n3 + q] = prim[v];
    cache[SPLIT_AUX * d.n3 + q] = split_node_aux(d.split, u, prim);
    double Ja[9];
    node_metrics(d, e, q, Ja);
    for (int c = 0; c < 9; c++) cache[(SPLIT_JA + c) * d.n3 + q] = Ja[c];
  }
}

/* The volume term of node q of element e: the lines through it in the three directions. */
template <bool WEAK, bool SHARED>
__device__ static void volume_node(const DevData &d, const DevPhysics &ph, const double *Dv,
                                   const double *cache, int e, int q, double *acc) {
  const int np = d.np, n3 = d.n3;
  int idx3[3] = {q % np, (q / np) % np, q / (np * np)};
  for (int v = 0; v < HX_NVAR; v++) acc[v] = 0.0;
  for (int dir = 0; dir < 3; dir++) {
    int stride = dir == 0 ? 1 : dir == 1 ? np : np * np, idx = idx3[dir];
    int base = q - idx * stride;
    double uq[HX_NVAR], pq[HX_NPRIM], aq = 0.0, mq[3];
    if (!WEAK) split_node<SHARED>(d, ph.pp, cache, e, q, dir, uq, pq, &aq, mq);
    for (int l = 0; l < np; l++) {
      double w = Dv[idx * np + l];
      if (w == 0.0) continue;
      int ql = base + l * stride;
      double F[HX_NVAR];
      if (WEAK) {
        if (SHARED) {
          for (int v = 0; v < HX_NVAR; v++) F[v] = cache[(dir * HX_NVAR + v) * n3 + ql];
        } else {
          double ul[HX_NVAR], pl[HX_NPRIM];
          load_node(d, ph.pp, e, ql, ul, pl);
          contravariant_flux(d, e, ql, dir, ul, pl, F);
        }
      } else {
        double ul[HX_NVAR], pl[HX_NPRIM], al, ml[3];
        split_node<SHARED>(d, ph.pp, cache, e, ql, dir, ul, pl, &al, ml);
        split_volume_flux_aux(d.split, &ph.pp, uq, pq, aq, ul, pl, al, mq, ml, F);
      }
      for (int v = 0; v < HX_NVAR; v++) acc[v] += w * F[v];
    }
  }
}

template <bool WEAK, bool SHARED>
__global__ static void __launch_bounds__(VOLINT_THREADS, VOLINT_MIN_BLOCKS)
    volint_kernel(DevData d, DevPhysics ph, int elems_per_block, int threads_per_elem) {
  extern __shared__ double smem[];
  const int np = d.np, n3 = d.n3;
  double *Dv = smem;
  int le = threadIdx.x / threads_per_elem, lt = threadIdx.x - le * threads_per_elem;
  int e = blockIdx.x * elems_per_block + le;
  bool active = le < elems_per_block && e < d.n_elems && !(d.sc->dt < 0.0); /* as face_flux_kernel */
  double *cache = smem + np * np + (size_t)le * (WEAK ? WEAK_CACHE : SPLIT_CACHE) * n3;
  for (int t = threadIdx.x; t < np * np; t += blockDim.x) Dv[t] = d.disc->Dvol[t];
  if (SHARED && active)
    for (int q = lt; q < n3; q += threads_per_elem) stage_node<WEAK>(d, ph.pp, e, q, cache);
  __syncthreads();
  if (!active) return;
  for (int q = lt; q < n3; q += threads_per_elem) {
    double acc[HX_NVAR];
    volume_node<WEAK, SHARED>(d, ph, Dv, cache, e, q, acc);
    double *ut = d.Ut + (size_t)e * d.nvar * n3;
    if (d.alpha) { /* shock capturing: (1 - alpha) R_DG; launch_fv_volume adds alpha R_FV */
      double keep = 1.0 - d.alpha[e];
      for (int v = 0; v < HX_NVAR; v++) acc[v] *= keep;
    }
    for (int v = 0; v < HX_NVAR; v++) ut[v * n3 + q] = acc[v]; /* viscous part: Ut_visc */
  }
}

/* Weak form + SurfInt + update in one kernel (one GPU, air, no FV), the weak-form twin of the
 * KG/PI volint_update_kernel (surfint_kernels.cu): the contravariant fluxes staged, the volume
 * sums of a thread's nodes (at most FUSED_UPDATE_PASSES) before the wait of a dependent launch,
 * the surface terms (face fluxes, Ut_visc) and the update after it; no Ut round trip. Its
 * wait-and-update tail repeats the KG/PI kernel's on purpose: one shared device function for both
 * (with the volume terms passed as an array) made this kernel 10 % slower on the H100 (NS N = 5
 * 5.42 -> 5.99e-10), the KG/PI one unchanged. */
__global__ static void __launch_bounds__(VOLINT_THREADS, WEAK_UPDATE_MIN_BLOCKS)
    weak_update_kernel(DevData d, DevPhysics ph, double a, double b, double c_stage, bool backup,
                       int elems_per_block, int threads_per_elem, bool line_surf) {
  extern __shared__ double smem[];
  const int np = d.np, n3 = d.n3;
  const double dt = d.sc->dt;
  if (!(dt > 0.0)) return; /* the whole grid */
  double *Dv = smem;
  const int le = threadIdx.x / threads_per_elem, lt = threadIdx.x - le * threads_per_elem;
  const int e = blockIdx.x * elems_per_block + le;
  const bool active = le < elems_per_block && e < d.n_elems;
  double *cache = smem + np * np + (size_t)le * WEAK_CACHE * n3;
  for (int t = threadIdx.x; t < np * np; t += blockDim.x) Dv[t] = d.disc->Dvol[t];
  if (active)
    for (int q = lt; q < n3; q += threads_per_elem) stage_node<true>(d, ph.pp, e, q, cache);
  __syncthreads();
  double acc[FUSED_UPDATE_PASSES][HX_NVAR];
#pragma unroll
  for (int p = 0; p < FUSED_UPDATE_PASSES; p++)
    if (active && lt + p * threads_per_elem < n3)
      volume_node<true, true>(d, ph, Dv, cache, e, lt + p * threads_per_elem, acc[p]);
  pdl_wait(); /* the face fluxes and Ut_visc of the kernels before (dependent launch) */
  if (backup && blockIdx.x == 0 && threadIdx.x == 0) d.sc->t_good = d.sc->t;
  /* line_surf: the face fluxes of the element's lines into its cache, which the volume sums of
     every thread have finished reading (30 np^2 <= 15 np^3 values) */
  if (line_surf) {
    __syncthreads();
    if (active)
      for (int t = lt; t < 3 * d.n2; t += threads_per_elem)
        gather_line_face_fluxes(d, e, t, cache);
    __syncthreads();
  }
  if (!active) return;
#pragma unroll
  for (int p = 0; p < FUSED_UPDATE_PASSES; p++) {
    const int q = lt + p * threads_per_elem;
    double u_new[HX_NVAR];
    if (q < n3)
      update_node_from<HX_NVAR>(d, ph, a, b, c_stage, dt, backup, (size_t)e * n3 + q, e, acc[p],
                                u_new, line_surf ? cache : nullptr);
  }
}

/* The weak fused update on Gauss nodes with line operators (HEXDG_WEAK_LINE_VOL, np = 2..8): the
 * contravariant fluxes staged per node (rows padded as in lifting_line.cuh); then one thread per
 * element line applies Dhat to its direction's fluxes and adds the surface terms Lhat_minus(i) F-
 * and Lhat_plus(i) F+ of the line's two face points, in place (each value has one reader and
 * writer); each node then sums its three directions and updates. Shared accesses per node: 15
 * written, 15 read and written by the lines, 15 read (45), against 15 written and 3 np x 5 + np x 3
 * + 30 + 30 of weak_update_kernel's node-wise sums and line-gathered faces (np = 4: 147). The sums
 * run in another order than the CPU's: equal to round-off. */
template <int NP> struct WeakLineMats {
  double Dv[NP * NP];    /* Dvol = Dhat */
  double Lm[NP], Lp[NP]; /* Lhat_minus, Lhat_plus */
  double Im[NP], Ip[NP]; /* l_i(-1), l_i(+1): interpolation to the faces */
};

template <int NP>
__device__ static __forceinline__ void weak_line_stage_node(const DevData &d, const PhysParams &pp,
                                                            int e, int q, double *cache) {
  constexpr int N2 = NP * NP, N3 = NP * N2, S = line_slot_size(NP);
  double u[HX_NVAR], prim[HX_NPRIM], f[3][HX_NVAR], Ja[9];
  load_node(d, pp, e, q, u, prim);
  euler_fluxes_xyz(u, prim, f[0], f[1], f[2]);
  node_metrics<N3>(d, e, q, Ja);
  double *c = cache + line_pad<NP>(q);
#pragma unroll
  for (int dir = 0; dir < 3; dir++)
#pragma unroll
    for (int v = 0; v < HX_NVAR; v++) /* contravariant_flux's order */
      c[(dir * HX_NVAR + v) * S] =
          f[0][v] * Ja[3 * dir] + f[1][v] * Ja[3 * dir + 1] + f[2][v] * Ja[3 * dir + 2];
}

/* Line t (0 .. 3 np^2 - 1) of element e: Dhat along it and the surface terms of its two ends. */
template <int NP>
__device__ static __forceinline__ void weak_line_volume_surface(const DevData &d,
                                                                const WeakLineMats<NP> &M, int e,
                                                                int t, double *cache) {
  constexpr int N2 = NP * NP, S = line_slot_size(NP);
  const int dir = t / N2, line = t - dir * N2;
  int base, stride;
  line_start<NP>(dir, line, &base, &stride);
  const double *F[2];
  double sign[2];
#pragma unroll
  for (int end = 0; end < 2; end++) {
    int side, flip, f;
    line_end_face_point<NP>(d, e, dir, line, end, &side, &flip, &f);
    sign[end] = flip == 0 ? 1.0 : -1.0;
    F[end] = d.flux + (size_t)side * d.nvar * N2 + f;
  }
#pragma unroll
  for (int v = 0; v < HX_NVAR; v++) {
    double in[NP], out[NP];
    const double fm = sign[0] * F[0][v * N2], fp = sign[1] * F[1][v * N2];
    double *sl = cache + (dir * HX_NVAR + v) * S + base;
    line_apply<NP>(M.Dv, sl, stride, in, out);
#pragma unroll
    for (int i = 0; i < NP; i++)
      sl[i * stride] = out[i] + M.Lm[i] * fm + M.Lp[i] * fp;
  }
}

/* The new states of element e (slots 0..4 of its slot region sl) interpolated to its face
 * points, into U_face, one thread per line (lt: the thread's place in the element). */
template <int NP>
__device__ static __forceinline__ void new_states_to_faces(const DevData &d,
                                                           const WeakLineMats<NP> &M, int e, int lt,
                                                           int threads_per_elem, const double *sl) {
  constexpr int N2 = NP * NP, S = line_slot_size(NP);
  for (int t = lt; t < 3 * N2; t += threads_per_elem) {
    const int dir = t / N2, line = t - dir * N2;
    int base, stride;
    line_start<NP>(dir, line, &base, &stride);
    line_to_face_halves<NP, HX_NVAR>(d, e, dir, line, sl + base, S, stride, M.Im, M.Ip, d.U_face);
  }
}

/* MINB blocks per SM: 3 (80 registers), or 4 (64 registers, 32..60 B of spill; more warps to
 * hide the phases' latency, d.weak_line_4blocks) */
template <int NP, bool PRE, int MINB = WEAK_UPDATE_MIN_BLOCKS>
__global__ static void __launch_bounds__(VOLINT_THREADS, MINB)
    weak_update_line_kernel(DevData d, DevPhysics ph, WeakLineMats<NP> M, double a, double b,
                            double c_stage, bool backup, int elems_per_block,
                            int threads_per_elem) {
  constexpr int N2 = NP * NP, N3 = NP * N2, S = line_slot_size(NP);
  extern __shared__ double smem[];
  const double dt = d.sc->dt;
  if (!(dt > 0.0)) return; /* the whole grid */
  int le, lt, e;
  const bool active = elem_thread(d, elems_per_block, threads_per_elem, &le, &lt, &e);
  double *cache = smem + (size_t)le * WEAK_CACHE * S;
  if (active)
    for (int q = lt; q < N3; q += threads_per_elem) weak_line_stage_node<NP>(d, ph.pp, e, q, cache);
  __syncthreads();
  pdl_wait(); /* the face fluxes and Ut_visc of the kernels before (dependent launch) */
  if (backup && blockIdx.x == 0 && threadIdx.x == 0) d.sc->t_good = d.sc->t;
  if (active)
    for (int t = lt; t < 3 * N2; t += threads_per_elem)
      weak_line_volume_surface<NP>(d, M, e, t, cache);
  __syncthreads();
  if (active) {
#pragma unroll 1
    for (int p = 0; p < FUSED_UPDATE_PASSES; p++) {
      const int q = lt + p * threads_per_elem;
      if (q >= N3) break;
      double *c = cache + line_pad<NP>(q);
      double acc[HX_NVAR], u_new[HX_NVAR];
#pragma unroll
      for (int v = 0; v < HX_NVAR; v++)
        acc[v] = c[v * S] + c[(HX_NVAR + v) * S] + c[(2 * HX_NVAR + v) * S];
      update_node_from<HX_NVAR, false, false, PRE>(d, ph, a, b, c_stage, dt, backup,
                                                   (size_t)e * N3 + q, e, acc, u_new);
      if (d.u_face_update) /* the node's own slots, read above */
#pragma unroll
        for (int v = 0; v < HX_NVAR; v++)
          c[v * S] = u_new[v];
    }
  }
  if (!d.u_face_update) return; /* the same for the whole grid */
  __syncthreads();
  if (active) /* the face lifting and face flux kernels of the next stage read what they would
                 have prolonged */
    new_states_to_faces<NP>(d, M, e, lt, threads_per_elem, cache);
}

/* Shared doubles per element of weak_surface_update_line_kernel: the face fluxes of its lines
 * [dir][end][var][np^2], then the new states in HX_NVAR slots. */
__host__ __device__ constexpr int weak_surf_cache(int np) {
  return 6 * HX_NVAR * np * np + HX_NVAR * line_slot_size(np);
}

/* The weak line update where the lifting kernel formed the whole volume term (d.lift_volume; in
 * Ut_visc): one thread per element line gathers the face fluxes of its two ends (with the
 * master-to-slave sign), each node sums the surface terms Lhat_minus(i) F- + Lhat_plus(i) F+ of
 * its three lines from there, adds Ut_visc and updates, and the new states go to U_face as in
 * weak_update_line_kernel. No metrics, no fluxes, no Dhat here: they moved into the lifting
 * kernel's volume integral, which had them at hand. Lhat sits in shared memory (node-indexed). */
template <int NP, bool PRE, int MINB>
__global__ static void __launch_bounds__(VOLINT_THREADS, MINB)
    weak_surface_update_line_kernel(DevData d, DevPhysics ph, WeakLineMats<NP> M, double a,
                                    double b, double c_stage, bool backup, int elems_per_block,
                                    int threads_per_elem) {
  constexpr int N2 = NP * NP, N3 = NP * N2, S = line_slot_size(NP);
  extern __shared__ double smem[];
  const double dt = d.sc->dt;
  if (!(dt > 0.0)) return; /* the whole grid */
  int le, lt, e;
  const bool active = elem_thread(d, elems_per_block, threads_per_elem, &le, &lt, &e);
  double *Lhat = smem, *faces = smem + 2 * NP + (size_t)le * weak_surf_cache(NP);
  double *slots = faces + 6 * HX_NVAR * N2;
  if (threadIdx.x < 2 * NP)
    Lhat[threadIdx.x] = threadIdx.x < NP ? M.Lm[threadIdx.x] : M.Lp[threadIdx.x - NP];
  pdl_wait(); /* the face fluxes and the volume term of the kernels before (dependent launch) */
  if (backup && blockIdx.x == 0 && threadIdx.x == 0) d.sc->t_good = d.sc->t;
  if (active)
    for (int t = lt; t < 3 * N2; t += threads_per_elem)
      gather_line_face_fluxes(d, e, t, faces);
  __syncthreads();
  if (active) {
#pragma unroll 1
    for (int p = 0; p < FUSED_UPDATE_PASSES; p++) {
      const int q = lt + p * threads_per_elem;
      if (q >= N3) break;
      const int idx[3] = {q % NP, q / NP % NP, q / N2};
      const int line[3] = {idx[1] + NP * idx[2], idx[0] + NP * idx[2], idx[0] + NP * idx[1]};
      double acc[HX_NVAR] = {0.0, 0.0, 0.0, 0.0, 0.0}, u_new[HX_NVAR];
#pragma unroll
      for (int dir = 0; dir < 3; dir++) {
        const double wm = Lhat[idx[dir]], wp = Lhat[NP + idx[dir]];
        const double *Fm = faces + dir * 2 * HX_NVAR * N2 + line[dir], *Fp = Fm + HX_NVAR * N2;
#pragma unroll
        for (int v = 0; v < HX_NVAR; v++)
          acc[v] += wm * Fm[v * N2] + wp * Fp[v * N2];
      }
      update_node_from<HX_NVAR, false, false, PRE>(d, ph, a, b, c_stage, dt, backup,
                                                   (size_t)e * N3 + q, e, acc, u_new);
      if (d.u_face_update)
#pragma unroll
        for (int v = 0; v < HX_NVAR; v++)
          slots[v * S + line_pad<NP>(q)] = u_new[v];
    }
  }
  if (!d.u_face_update) return; /* the same for the whole grid */
  __syncthreads();
  if (active) new_states_to_faces<NP>(d, M, e, lt, threads_per_elem, slots);
}

template <int NP, bool PI>
__global__ static void __launch_bounds__(VOLINT_THREADS, VOLINT_MIN_BLOCKS)
    volint_kep_kernel(DevData d, DevPhysics ph, int elems_per_block, int threads_per_elem) {
  constexpr int N3 = NP * NP * NP;
  extern __shared__ double smem[];
  const int le = threadIdx.x / threads_per_elem, lt = threadIdx.x - le * threads_per_elem;
  const int e = blockIdx.x * elems_per_block + le;
  const bool active = le < elems_per_block && e < d.n_elems && !(d.sc->dt < 0.0); /* as face_flux_kernel */
  const double *cache = kep_stage<NP>(d, ph.pp, smem, le, lt, e, active, threads_per_elem);
  if (!active) return;
  for (int q = lt; q < N3; q += threads_per_elem) {
    double acc[HX_NVAR];
    kep_volume_node<NP, PI>(smem, cache, q, acc);
    double *ut = d.Ut + (size_t)e * d.nvar * N3;
    if (d.alpha) {
      double keep = 1.0 - d.alpha[e];
      for (int v = 0; v < HX_NVAR; v++) acc[v] *= keep;
    }
    for (int v = 0; v < HX_NVAR; v++) ut[v * N3 + q] = acc[v];
  }
}

typedef struct {
  int elems_per_block, threads_per_elem;
  size_t shared_bytes;
  bool use_shared;
} VolintConfig;

/* The KG/PI kernel (degree as a template parameter) serves degrees 3..7 (HEXDG_VOLINT_GENERIC=T:
 * the generic kernel, for comparison). The same templating of the weak form was slower on the
 * H100 (NS N = 5 5.63e-10 -> 5.68e-10, N = 7 4.43e-10 -> 4.51e-10) and was not kept. */
static bool volint_templated(const DevData *d) {
  return !gpu_env_flag("HEXDG_VOLINT_GENERIC", false) && d->np >= KEP_NP_MIN &&
         d->np <= KEP_NP_MAX;
}

/* the KG/PI kernel serves d */
static bool volint_use_kep(const DevData *d) {
  return volint_templated(d) && (d->split == SPLIT_KG || d->split == SPLIT_PI);
}

static VolintConfig volint_config(const DevData *d) {
  VolintConfig c;
  bool weak = d->split == SPLIT_NONE;
  int n3 = d->n3;
  c.elems_per_block = n3 >= 128 ? 1 : 128 / n3;
  int per_node = weak ? WEAK_CACHE : volint_use_kep(d) ? KEP_CACHE : SPLIT_CACHE;
  size_t per_elem = sizeof(double) * per_node * n3;
  size_t dmat = sizeof(double) * d->np * d->np;
  c.use_shared = dmat + per_elem * c.elems_per_block <= VOLINT_MAX_SHARED;
  c.shared_bytes = dmat + (c.use_shared ? per_elem * c.elems_per_block : 0);
  /* threads loop over the nodes of their element when an element has more nodes than fit */
  int max_threads = VOLINT_THREADS / c.elems_per_block;
  int passes = (n3 + max_threads - 1) / max_threads;
  c.threads_per_elem = (n3 + passes - 1) / passes;
  if (passes > 1) c.threads_per_elem = (c.threads_per_elem + 31) / 32 * 32;
  return c;
}

typedef void (*VolintKepFn)(DevData, DevPhysics, int, int);

static VolintKepFn volint_kep_instance(int np, bool pi) {
  switch (np) {
  case 4: return pi ? volint_kep_kernel<4, true> : volint_kep_kernel<4, false>;
  case 5: return pi ? volint_kep_kernel<5, true> : volint_kep_kernel<5, false>;
  case 6: return pi ? volint_kep_kernel<6, true> : volint_kep_kernel<6, false>;
  case 7: return pi ? volint_kep_kernel<7, true> : volint_kep_kernel<7, false>;
  default: return pi ? volint_kep_kernel<8, true> : volint_kep_kernel<8, false>;
  }
}

bool volint_kep_launch_config(const DevData *d, int *elems_per_block, int *threads_per_elem,
                              size_t *shared_bytes) {
  VolintConfig c = volint_config(d);
  *elems_per_block = c.elems_per_block;
  *threads_per_elem = c.threads_per_elem;
  *shared_bytes = c.shared_bytes;
  return c.use_shared && volint_use_kep(d);
}

/* HEXDG_WEAK_FUSED = F: the weak form keeps VolInt and the update apart (to measure both). */
bool weak_update_possible(const DevData *d) {
  VolintConfig c = volint_config(d);
  return d->split == SPLIT_NONE && c.use_shared &&
         c.threads_per_elem * FUSED_UPDATE_PASSES >= d->n3 &&
         gpu_env_flag("HEXDG_WEAK_FUSED", true);
}

/* Gauss nodes, np in the line kernels' range: weak_update_line_kernel (HEXDG_WEAK_LINE_VOL = F:
 * weak_update_kernel) */
static bool weak_line_kernel_serves(const DevData *d) {
  return d->node_type == NODE_GAUSS && d->np >= LINE_NP_MIN && d->np <= LINE_NP_MAX &&
         d->weak_line_vol;
}

bool weak_line_update_face_states(const DevData *d) {
  return d->U_face && d->split == SPLIT_NONE && volint_update_fused(d) &&
         weak_line_kernel_serves(d) && !d->fvg_sJ && gpu_env_flag("HEXDG_UFACE_UPDATE", true);
}

static size_t weak_line_shared_bytes(const DevData *d, int elems_per_block) {
  if (d->lift_volume)
    return sizeof(double) * (2 * d->np + (size_t)weak_surf_cache(d->np) * elems_per_block);
  return sizeof(double) * WEAK_CACHE * (size_t)line_slot_size(d->np) * elems_per_block;
}

/* The lifting kernel forms the whole volume term (d.lift_volume) where every stage's update is the
 * weak line update (one GPU: the caller's; Gauss nodes, the fused stage, no FV, air: no other
 * path adds a volume term) and the Gauss lifting line kernel serves with its instance with w in the
 * slots (three blocks, no LES), the one with that phase. */
bool weak_lift_volume_possible(const DevData *d) {
  return d->viscous && !d->mech && d->split == SPLIT_NONE && volint_update_fused(d) &&
         weak_line_kernel_serves(d) && !d->fvg_sJ && lifting_face_gradients(d, 1) &&
         d->gauss_line_3blocks && d->gauss_line_wslot && d->sgs_model == SGS_NONE &&
         gpu_env_flag("HEXDG_LIFT_VOLUME", true);
}

template <int NP>
using WeakLineKernel = void (*)(DevData, DevPhysics, WeakLineMats<NP>, double, double, double, bool,
                                int, int);

/* The instance of d (its flags are fixed at set-up): loading up front (update_preload) at 3 or
 * (d.weak_line_4blocks) 4 blocks per SM, or variable by variable; with d.lift_volume the surface
 * kernel, loading up front at 3 blocks per SM (80 registers; HEXDG_WEAK_SURF_3BLOCKS = F: 4, 64
 * registers and 80 B of spill, 4-9 % slower on the H200), else at 4. Configured and launched alike.
 */
template <int NP> static WeakLineKernel<NP> weak_line_instance(const DevData *d) {
  if (d->lift_volume) {
    if (!update_preload(d)) return weak_surface_update_line_kernel<NP, false, 4>;
    return d->weak_surf_3blocks ? weak_surface_update_line_kernel<NP, true, 3>
                                : weak_surface_update_line_kernel<NP, true, 4>;
  }
  if (!update_preload(d)) return weak_update_line_kernel<NP, false>;
  return d->weak_line_4blocks ? weak_update_line_kernel<NP, true, 4>
                              : weak_update_line_kernel<NP, true>;
}

template <int NP>
static int weak_line_launch(const DevData *d, const DevPhysics *ph, double a, double b,
                            double c_stage, bool backup, VolintConfig c, cudaStream_t s,
                            bool dependent) {
  WeakLineMats<NP> M;
  const Disc *h = d->disc_host;
  for (int i = 0; i < NP; i++) {
    M.Lm[i] = h->Lhat_minus[i];
    M.Lp[i] = h->Lhat_plus[i];
    M.Im[i] = h->L_minus[i];
    M.Ip[i] = h->L_plus[i];
    for (int l = 0; l < NP; l++) M.Dv[i * NP + l] = h->Dvol[i * NP + l];
  }
  const int blocks = (d->n_elems + c.elems_per_block - 1) / c.elems_per_block;
  CU_CHECK(launch_kernel(dependent, weak_line_instance<NP>(d), dim3(blocks),
                         dim3(c.elems_per_block * c.threads_per_elem),
                         weak_line_shared_bytes(d, c.elems_per_block), s, *d, *ph, M, a, b, c_stage,
                         backup, c.elems_per_block, c.threads_per_elem));
  return HX_OK;
}

template <int NP> static int weak_line_configure(const DevData *d, int elems_per_block) {
  CU_CHECK(cudaFuncSetAttribute(weak_line_instance<NP>(d),
                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                (int)weak_line_shared_bytes(d, elems_per_block)));
  return HX_OK;
}

static int weak_line_configure_np(const DevData *d, int elems_per_block) {
  switch (d->np) { LINE_NP_CASES(weak_line_configure, (d, elems_per_block)); }
  return HX_ERROR(HX_ERR_INTERNAL, "weak line update: no instance for np = %d", d->np);
}

int launch_weak_update(const DevData *d, const DevPhysics *ph, double a, double b,
                       double c_stage, bool first_stage, cudaStream_t s, bool dependent) {
  VolintConfig c = volint_config(d);
  const bool backup = first_stage && d->U_good;
  if (weak_line_kernel_serves(d)) {
    switch (d->np) {
      LINE_NP_CASES(weak_line_launch, (d, ph, a, b, c_stage, backup, c, s, dependent));
    }
  }
  const int blocks = (d->n_elems + c.elems_per_block - 1) / c.elems_per_block;
  CU_CHECK(launch_kernel(dependent, weak_update_kernel, dim3(blocks),
                         dim3(c.elems_per_block * c.threads_per_elem), c.shared_bytes, s, *d, *ph,
                         a, b, c_stage, backup, c.elems_per_block, c.threads_per_elem,
                         d->weak_line_surf != 0));
  return HX_OK;
}

int volume_integral_configure(const DevData *d) {
  VolintConfig c = volint_config(d);
  int bytes = (int)c.shared_bytes;
  if (weak_line_kernel_serves(d)) HX_CHECK(weak_line_configure_np(d, c.elems_per_block));
  CU_CHECK(cudaFuncSetAttribute(weak_update_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                bytes));
  if (c.use_shared && volint_use_kep(d)) HX_CHECK(volint_update_configure(d, bytes));
  CU_CHECK(cudaFuncSetAttribute(volint_kernel<true, true>,
                                cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  CU_CHECK(cudaFuncSetAttribute(volint_kernel<false, true>,
                                cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  if (volint_use_kep(d)) {
    const void *k = (const void *)volint_kep_instance(d->np, d->split == SPLIT_PI);
    CU_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  }
  return HX_OK;
}

int launch_volume_integral(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  VolintConfig c = volint_config(d);
  int blocks = (d->n_elems + c.elems_per_block - 1) / c.elems_per_block;
  int threads = c.elems_per_block * c.threads_per_elem;
  bool weak = d->split == SPLIT_NONE;
  if (c.use_shared && volint_use_kep(d))
    volint_kep_instance(d->np, d->split == SPLIT_PI)<<<blocks, threads, c.shared_bytes, s>>>(
        *d, *ph, c.elems_per_block, c.threads_per_elem);
  else if (weak && c.use_shared)
    volint_kernel<true, true><<<blocks, threads, c.shared_bytes, s>>>(*d, *ph, c.elems_per_block,
                                                                      c.threads_per_elem);
  else if (weak)
    volint_kernel<true, false><<<blocks, threads, c.shared_bytes, s>>>(*d, *ph, c.elems_per_block,
                                                                       c.threads_per_elem);
  else if (c.use_shared)
    volint_kernel<false, true><<<blocks, threads, c.shared_bytes, s>>>(*d, *ph, c.elems_per_block,
                                                                       c.threads_per_elem);
  else
    volint_kernel<false, false><<<blocks, threads, c.shared_bytes, s>>>(*d, *ph, c.elems_per_block,
                                                                        c.threads_per_elem);
  CU_CHECK(cudaGetLastError());
  return d->alpha ? launch_fv_volume(d, ph, s) : HX_OK;
}
