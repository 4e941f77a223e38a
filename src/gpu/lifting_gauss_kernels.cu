/* BR1 lifting on Gauss nodes, strong non-conservative form (FLEXI's default), N = 1..7: the line
 * kernel of Gauss-Lobatto nodes (lifting_kernels.cu; shared layout and phases in
 * gpu/lifting_line.cuh) plus what differs on Gauss nodes, where no node lies on a face:
 *   - the surface term of the lifting reaches every node of a line, Lhat_minus(i) and
 *     Lhat_plus(i) times the face values w* n s at the line's two ends: each line thread
 *     gathers these 2 x 12 values once, instead of every node gathering 6 x 12;
 *   - the gradients at the face points are interpolations along the normal lines,
 *     sum_i l_i(-1) q_i and sum_i l_i(+1) q_i: the line threads form them from the nodes'
 *     gradients in shared memory and write them into grad_face, so that the face kernel reads
 *     12 values per side and face point instead of prolonging 12 x NP from the volume.
 * Phases, separated by barriers:
 *   0. node: w = (u, v, w, T) into slots 0..3;
 *   1. line: D w along each direction into slots 4..15, and the line's lifting face values at
 *      both ends into the face region [dir][end][12][line];
 *   2. node: q = 1/J (sum_d Ja^d D_d w + sum over the six sides of Lhat(i) w* n s), in the
 *      order of the sides as in src/dg/surfint.c; into slots 0..11 (and grad: volume_grad, or
 *      no grad_face);
 *   3. line (grad_face set): q interpolated to both ends of the line, into grad_face;
 *   4. node: the contravariant viscous fluxes from q, the state and the metrics into slots 0..14
 *      (d.lift_volume: minus the advective ones, F(u) . Ja^dir);
 *   5. line: the 1-D viscous volume integral (Dvol = Dhat), in place;
 *   6. node: Ut_visc = -(sum of the three directions) (d.lift_volume: the weak form's whole volume
 *      term, Dhat being linear; the weak line update then adds the surface terms only).
 * Same arithmetic as src/dg/lifting.c up to round-off (FMA contraction, order of the sums). */
#include "gpu/lifting_line.cuh"

extern "C" {
#include "dg/faceops.h"
}

/* Face region per element: [dir][end][fv][NP^2], fv values per face point and end: the 12
 * products w* n s, or where d.lift_compact w* (4) and n s (3) */
#define GAUSS_COMPACT_VALUES (HX_NLIFT + 3)
__host__ __device__ static inline int gauss_face_values(int compact) {
  return compact ? GAUSS_COMPACT_VALUES : HX_NGRAD;
}

template <int NP> struct GaussLineMats {
  double D[NP * NP];     /* strong-form derivative */
  double Dv[NP * NP];    /* volume operator Dvol (= Dhat: weak form) */
  double Lm[NP], Lp[NP]; /* l_i(-1), l_i(+1): interpolation to the faces */
};

/* Doubles of shared memory per block: slots and face region per element, then Lhat_minus and
 * Lhat_plus (read with a per-thread index, so not from the parameter space). The compact face
 * region lets three blocks of np = 4 share an SM (63 KB each instead of 78). */
static size_t gauss_line_shared_bytes(int np, int compact) {
  const size_t n2 = (size_t)np * np;
  return sizeof(double) *
         (line_elems_per_block(np * np * np) *
              (LINE_SLOTS * line_slot_size(np) + 6 * gauss_face_values(compact) * n2) +
          2 * np);
}

/* Bank-grouped task orders (d.gauss_line_perm): a warp's 64-bit shared accesses take one
 * wavefront per half-warp only where its 16 addresses fall into 16 different banks (mod 16
 * doubles). Consecutive nodes of the padded slots do not (np = 6: nodes 0..15 at 0..5, 7..12,
 * 14..17, so 16, 17 meet 0, 1), nor do some of the lines of directions 1 and 2, which makes most
 * of the kernel's shared accesses take two wavefronts per half-warp. The node phases 2 and 4
 * and the line phase 5 instead take their tasks in an order that puts 16 tasks of distinct banks
 * into each half-warp (lines of one direction, whose strides then shift every address alike):
 * node task slot s of the block holds task gauss_node_order[NP][s] (le N3 + n, -1: idle), line
 * task slot s gauss_line_order[NP][s] (le 3 NP^2 + dir NP^2 + line). Built at set-up; used by the
 * three-block instance with w in the slots (phase 4 then loads no state per node), where the node
 * groups fit into the passes of the natural order, the line groups where they fit.
 * tools/line_banks.py, wavefronts per access of the whole block (line_pad's layouts), natural ->
 * grouped: nodes np = 4 16 -> 16, 5 17 -> 16, 6 27 -> 14, 7 22 -> 22; lines np = 4 64 -> 64,
 * 5 83 -> 70, 6 66 -> 54, 7 118 -> 105. */
#define GAUSS_ORDER_SLOTS 512
__device__ short gauss_node_order[LINE_NP_MAX + 1][GAUSS_ORDER_SLOTS];
__device__ short gauss_line_order[LINE_NP_MAX + 1][GAUSS_ORDER_SLOTS];

/* Task of pass p of the thread in a node or line phase: the natural order, or where PERM the
 * bank-grouped order (-1: none). */
template <bool PERM> __device__ static __forceinline__ int phase_task(const short *order, int p) {
  const int s = threadIdx.x + p * LINE_THREADS;
  return PERM ? order[s] : s;
}

/* Groups of up to 16 tasks of distinct banks, one class (direction) per group, into slots
 * (nslots, -1 where idle): task t has bank bank[t] and class cls[t]. False if they need more. */
static bool bank_groups(int ntask, const int *bank, const int *cls, int nslots, short *slots) {
  int used = 0;
  for (int s = 0; s < nslots; s++)
    slots[s] = -1;
  for (int c = 0; c < 3; c++) {
    int count[16] = {0}, groups = 0;
    for (int t = 0; t < ntask; t++) /* task t of class c: the count[bank]-th of its bank */
      if (cls[t] == c) {
        const int g = count[bank[t]]++;
        if (g + 1 > groups) groups = g + 1;
        if (used + 16 * (g + 1) > nslots) return false;
        slots[used + 16 * g + bank[t]] = (short)t;
      }
    used += 16 * groups;
  }
  return true;
}

/* Wavefronts of one shared access by every task of a block taken in order (nslots, -1 where
 * idle; the natural order where order is NULL, ntask tasks): per half-warp of 16 slots, the
 * largest number of its tasks whose address bank(t, step) shares a bank, summed over the steps
 * (along a line; 1 for nodes). The model of tools/line_banks.py. */
static int order_wavefronts(const short *order, int ntask, int nslots, int nsteps,
                            int (*bank)(int t, int step, int np), int np) {
  int total = 0;
  for (int step = 0; step < nsteps; step++)
    for (int h = 0; h < nslots; h += 16) {
      int count[16] = {0}, most = 0;
      for (int s = h; s < h + 16; s++) {
        const int t = order ? order[s] : (s < ntask ? s : -1);
        if (t < 0) continue;
        const int c = ++count[bank(t, step, np)];
        if (c > most) most = c;
      }
      total += most;
    }
  return total;
}

static int node_bank(int t, int step, int np) {
  (void)step; /* the element's slots lie 16 S apart: the same banks */
  return line_pad_np(np, t % (np * np * np)) % 16;
}

static int line_bank(int t, int step, int np) {
  const int n2 = np * np, r = t % (3 * n2);
  int base, stride;
  line_start_np(np, r / n2, r % n2, &base, &stride);
  return (base + step * stride) % 16;
}

/* The two orders of np = NP: false where they do not fit the natural order's passes, or where by
 * the model they save less than a quarter of the wavefronts in the kernel's mix (63 node and 10
 * line accesses per node and step in the phases that take them), which does not pay for reading
 * the orders: np = 4 (plane-padded slots, conflict-free for consecutive nodes and lines already:
 * 0 %) and np = 7 (5 %) each ran 1.2 % faster in the natural order (N = 3 and 6, H200,
 * docs/performance.md); np = 6 (40 %) takes them (−0.6 %), np = 5 (10 %) does not. */
template <int NP> static bool gauss_orders(short *node, short *line) {
  constexpr int N2 = NP * NP, N3 = NP * N2;
  constexpr int EPB = line_elems_per_block(N3);
  constexpr int NT = EPB * N3, LT = EPB * 3 * N2;
  constexpr int NSLOTS = (NT + LINE_THREADS - 1) / LINE_THREADS * LINE_THREADS;
  constexpr int LSLOTS = (LT + LINE_THREADS - 1) / LINE_THREADS * LINE_THREADS;
  static_assert(NSLOTS <= GAUSS_ORDER_SLOTS && LSLOTS <= GAUSS_ORDER_SLOTS, "order slots");
  static int bank[NT > LT ? NT : LT], cls[NT > LT ? NT : LT];
  for (int t = 0; t < NT; t++) {
    bank[t] = node_bank(t, 0, NP);
    cls[t] = 0;
  }
  if (!bank_groups(NT, bank, cls, NSLOTS, node)) return false;
  for (int t = 0; t < LT; t++) { /* a line's first node: its others lie a stride on, alike */
    bank[t] = line_bank(t, 0, NP);
    cls[t] = t % (3 * N2) / N2;
  }
  if (!bank_groups(LT, bank, cls, LSLOTS, line)) /* where they do not fit: the natural line order */
    for (int s = 0; s < LSLOTS; s++)
      line[s] = (short)(s < LT ? s : -1);
  const int natural = 63 * order_wavefronts(NULL, NT, NSLOTS, 1, node_bank, NP) +
                      10 * order_wavefronts(NULL, LT, LSLOTS, NP, line_bank, NP);
  const int grouped = 63 * order_wavefronts(node, NT, NSLOTS, 1, node_bank, NP) +
                      10 * order_wavefronts(line, LT, LSLOTS, NP, line_bank, NP);
  return 4 * grouped <= 3 * natural;
}

/* Line phase: the lifting face values at both ends of the line into the element's face region
 * (out: at [dir][end 0][0][line], gauss_face_values slots per end): the 12 products w* n s of
 * lift_flux, or where d.lift_compact its 4 values w* in slots 0..3 and n s in slots 4..6,
 * multiplied in the node phase (gauss_node_gradient): 7 shared values per face point written and
 * 42 read per node instead of 12 and 72. */
template <int NP>
__device__ static __forceinline__ void line_gather_lift_flux(const DevData &d, int e, int dir,
                                                             int line, double *out) {
  constexpr int N2 = NP * NP;
  double F[2][HX_NGRAD];
#pragma unroll
  for (int end = 0; end < 2; end++) {
    int side, flip, f;
    line_end_face_point<NP>(d, e, dir, line, end, &side, &flip, &f);
    const double *L = d.lift_flux + (size_t)side * HX_NGRAD * N2 + f;
    if (d.lift_compact) {
      double n[3];
#pragma unroll
      for (int v = 0; v < HX_NLIFT; v++)
        F[end][v] = L[v * N2];
      face_frame(d, side, f, n, nullptr, nullptr);
      const double sf = face_surf(d, side, f);
#pragma unroll
      for (int c = 0; c < 3; c++)
        F[end][HX_NLIFT + c] = n[c] * sf; /* nc of face_lifting_kernel */
      continue;
    }
#pragma unroll
    for (int c = 0; c < HX_NGRAD; c++)
      F[end][c] = L[c * N2];
  }
  const int nv = gauss_face_values(d.lift_compact);
#pragma unroll
  for (int end = 0; end < 2; end++)
#pragma unroll
    for (int c = 0; c < HX_NGRAD; c++)
      if (c < nv) out[(end * nv + c) * N2] = F[end][c];
}

/* Node phase: gradients q of node task t (volume term, surface term of the six sides, 1/J)
 * into its slots 0..11; also into the volume array grad when asked. Ja: the node's metrics,
 * loaded here. WSLOT: the node's lifting variables w (slots 0..3) move to slots 12..15 (free once
 * its derivatives are read), where phase 4 finds them. */
template <int NP, bool WSLOT>
__device__ static __forceinline__ void
gauss_node_gradient(const DevData &d, int e0, int t, double *slots, const double *faces,
                    const double *Lhat, int volume_grad, double Ja[9]) {
  constexpr int N2 = NP * NP, N3 = NP * N2, S = line_slot_size(NP);
  const int le = t / N3, n = t - le * N3, e = e0 + le;
  const int idx[3] = {n % NP, (n / NP) % NP, n / N2};
  double *sl = slots + (size_t)le * LINE_SLOTS * S + line_pad<NP>(n);
  const int fv = gauss_face_values(d.lift_compact);
  const double *fe = faces + (size_t)le * 6 * fv * N2;
  double q[3][HX_NLIFT];
  node_metrics<N3>(d, e, n, Ja);
  const double sJ = node_sJ<N3>(d, e, n);
  node_gradient_from_slots<NP>(Ja, sl, q);
  /* the node's line along dir: its two other indices */
  const int line[3] = {idx[1] + NP * idx[2], idx[0] + NP * idx[2], idx[0] + NP * idx[1]};
#pragma unroll
  for (int ls = 0; ls < 6; ls++) { /* strong form: the same sign on master and slave */
    const int dir = side_normal_dir(ls), end = side_is_plus(ls);
    const double w = Lhat[end * NP + idx[dir]];
    const double *F = fe + ((dir * 2 + end) * fv) * N2 + line[dir];
    if (d.lift_compact) { /* the products of face_lifting_kernel's 12-value layout */
      double wf[HX_NLIFT], nc[3];
#pragma unroll
      for (int v = 0; v < HX_NLIFT; v++)
        wf[v] = F[v * N2];
#pragma unroll
      for (int c = 0; c < 3; c++)
        nc[c] = F[(HX_NLIFT + c) * N2];
#pragma unroll
      for (int c = 0; c < 3; c++)
#pragma unroll
        for (int v = 0; v < HX_NLIFT; v++)
          q[c][v] += w * (wf[v] * nc[c]);
      continue;
    }
#pragma unroll
    for (int c = 0; c < 3; c++)
#pragma unroll
      for (int v = 0; v < HX_NLIFT; v++)
        q[c][v] += w * F[(c * HX_NLIFT + v) * N2];
  }
#pragma unroll
  for (int c = 0; c < 3; c++)
#pragma unroll
    for (int v = 0; v < HX_NLIFT; v++)
      q[c][v] *= sJ;
  if (!d.grad_face || volume_grad) {
    double *qg = d.grad + (size_t)e * HX_NGRAD * N3 + n;
#pragma unroll
    for (int c = 0; c < 3; c++)
#pragma unroll
      for (int v = 0; v < HX_NLIFT; v++)
        qg[(c * HX_NLIFT + v) * N3] = q[c][v];
  }
  double w[HX_NLIFT];
  if (WSLOT)
#pragma unroll
    for (int v = 0; v < HX_NLIFT; v++)
      w[v] = sl[v * S];
#pragma unroll
  for (int c = 0; c < 3; c++)
#pragma unroll
    for (int v = 0; v < HX_NLIFT; v++)
      sl[(c * HX_NLIFT + v) * S] = q[c][v];
  if (WSLOT)
#pragma unroll
    for (int v = 0; v < HX_NLIFT; v++)
      sl[(3 * HX_NLIFT + v) * S] = w[v];
}

/* A node's gradients q[c][v] from its slots 0..11 (sl: its first slot). */
template <int NP>
__device__ static __forceinline__ void slot_gradients(const double *sl, double q[3][HX_NLIFT]) {
  constexpr int S = line_slot_size(NP);
#pragma unroll
  for (int c = 0; c < 3; c++)
#pragma unroll
    for (int v = 0; v < HX_NLIFT; v++)
      q[c][v] = sl[(c * HX_NLIFT + v) * S];
}

/* Node phase: the contravariant viscous fluxes of node task t from its gradients (slots 0..11),
 * state u and metrics Ja (LOAD: loaded here; else kept from the earlier phases), into its slots
 * 0..14. ADV (d.lift_volume): minus the advective fluxes (node_store_viscous_fluxes_prim). */
template <int NP, bool LES, bool LOAD, bool ADV = false>
__device__ static __forceinline__ void
gauss_node_viscous_fluxes(const DevData &d, const PhysParams &pp, int e0, int t, double *slots,
                          double u[HX_NVAR], double Ja[9]) {
  constexpr int N2 = NP * NP, N3 = NP * N2, S = line_slot_size(NP);
  const int le = t / N3, n = t - le * N3, e = e0 + le;
  double *sl = slots + (size_t)le * LINE_SLOTS * S + line_pad<NP>(n);
  double q[3][HX_NLIFT];
  if (LOAD) {
    const double *Ue = d.U + (size_t)e * d.nvar * N3 + n;
    node_metrics<N3>(d, e, n, Ja);
#pragma unroll
    for (int v = 0; v < HX_NVAR; v++)
      u[v] = Ue[v * N3];
  }
  slot_gradients<NP>(sl, q);
  node_store_viscous_fluxes<NP, LES, ADV>(d, pp, e, n, u, Ja, q, sl);
}

/* The same without LES from the lifting variables that gauss_node_gradient<NP, true> left in
 * slots 12..15: the velocity and temperature of cons_to_prim, which is all the viscous fluxes
 * read, so no state is loaded again. */
template <int NP>
__device__ static __forceinline__ void
gauss_node_viscous_fluxes_w(const DevData &d, const PhysParams &pp, int e0, int t, double *slots) {
  constexpr int N2 = NP * NP, N3 = NP * N2, S = line_slot_size(NP);
  const int le = t / N3, n = t - le * N3, e = e0 + le;
  double *sl = slots + (size_t)le * LINE_SLOTS * S + line_pad<NP>(n);
  double q[3][HX_NLIFT], prim[HX_NPRIM], Ja[9];
  node_metrics<N3>(d, e, n, Ja);
  slot_gradients<NP>(sl, q);
  prim[DENS] = prim[PRES] = 0.0; /* not read */
  prim[VEL1] = sl[(3 * HX_NLIFT + LIFT_VEL1) * S];
  prim[VEL2] = sl[(3 * HX_NLIFT + LIFT_VEL2) * S];
  prim[VEL3] = sl[(3 * HX_NLIFT + LIFT_VEL3) * S];
  prim[TEMP] = sl[(3 * HX_NLIFT + LIFT_TEMP) * S];
  node_store_viscous_fluxes_prim<NP, false>(d, pp, e, n, prim, Ja, q, sl);
}

/* What a line end writes into its side's half of grad_face (out): on an inner side the BR1 viscous
 * flux Fv(u, q) . n (state u, the master's normal n, gradients g) in rows 0..3, momentum and
 * energy, as subtract_viscous forms it (the face flux kernel subtracts the mean of the halves);
 * on a boundary side the 12 gradients. */
__device__ static __forceinline__ void end_store(const PhysParams &pp, bool inner, const double *u,
                                                 const double *n, const double *g, double *out,
                                                 int n2) {
  if (!inner) {
#pragma unroll
    for (int v = 0; v < HX_NGRAD; v++)
      out[v * n2] = g[v];
    return;
  }
  double prim[HX_NPRIM], Fv[HX_NVAR];
  cons_to_prim(&pp, u, prim);
  viscous_flux_normal(&pp, prim, g, g + HX_NLIFT, g + 2 * HX_NLIFT, n, Fv);
#pragma unroll
  for (int v = 0; v < 4; v++)
    out[v * n2] = Fv[MOM1 + v];
}

/* Line phase with d.visc_face: the gradients of the line's nodes (sl: its first node's slot 0,
 * row apart, stride along it) interpolated to both ends with line_to_face_halves' sums; at an
 * end on an inner side that side's viscous flux (end_store; the state kept in U_face), at
 * a boundary side's end the 12 gradients as before. The plus end's 12 values wait in the face
 * region (stash, pitch apart: dead after phase 2) while the minus end's are in registers; each
 * end's state and normal are loaded before the work that precedes their use. */
template <int NP>
__device__ static __forceinline__ void
line_ends_visc(const DevData &d, const PhysParams &pp, int e, int dir, int line, const double *sl,
               int row, int stride, const double *Lm, const double *Lp, double *stash, int pitch) {
  constexpr int N2 = NP * NP;
  int side[2], flip[2], f[2];
  double *out[2];
#pragma unroll
  for (int end = 0; end < 2; end++)
    out[end] = line_end_half<NP, HX_NGRAD>(d, e, dir, line, end, d.grad_face, &side[end],
                                           &flip[end], &f[end]);
  const bool inner0 = side[0] >= d.n_bc_sides, inner1 = side[1] >= d.n_bc_sides;
  double u[HX_NVAR], n[3], g[HX_NGRAD];
  if (inner0) { /* in flight during the sums */
    load_face_state(d, side[0], flip[0] != 0, f[0], u);
    face_frame(d, side[0], f[0], n, nullptr, nullptr);
  }
#pragma unroll
  for (int v = 0; v < HX_NGRAD; v++) {
    double m, p;
    line_end_values<NP>(sl + v * row, stride, Lm, Lp, &m, &p);
    g[v] = m;
    stash[v * pitch] = p;
  }
  end_store(pp, inner0, u, n, g, out[0], N2);
  if (inner1) {
    load_face_state(d, side[1], flip[1] != 0, f[1], u);
    face_frame(d, side[1], f[1], n, nullptr, nullptr);
  }
#pragma unroll
  for (int v = 0; v < HX_NGRAD; v++)
    g[v] = stash[v * pitch];
  end_store(pp, inner1, u, n, g, out[1], N2);
}

/* The same with one thread per line end (VISC_FACE_ENDS: twice the threads of a line phase, where
 * they fit into one pass at np = 6; each reads the line's gradients, L: l_i at its end): end `end`
 * of the line. The empty asm after each sum keeps the compiler from hoisting the next sums'
 * shared loads; the state and normal are loaded first, in flight during the sums. */
template <int NP>
__device__ static __forceinline__ void line_end_visc(const DevData &d, const PhysParams &pp, int e,
                                                     int dir, int line, int end, const double *sl,
                                                     int row, int stride, const double *L) {
  constexpr int N2 = NP * NP;
  int side, flip, f;
  double *out = line_end_half<NP, HX_NGRAD>(d, e, dir, line, end, d.grad_face, &side, &flip, &f);
  const bool inner = side >= d.n_bc_sides;
  double u[HX_NVAR], n[3], g[HX_NGRAD];
  if (inner) {
    load_face_state(d, side, flip != 0, f, u);
    face_frame(d, side, f, n, nullptr, nullptr);
  }
#pragma unroll
  for (int v = 0; v < HX_NGRAD; v++) {
    double acc = 0.0;
#pragma unroll
    for (int i = 0; i < NP; i++)
      acc += L[i] * sl[v * row + i * stride];
    g[v] = acc;
    asm volatile("" ::: "memory");
  }
  end_store(pp, inner, u, n, g, out, N2);
}

/* MINB blocks of LINE_THREADS per SM. MINB = 2: up to 128 registers, and with one node per
 * thread (N <= 5) its state (phase 0) and metrics (phase 2) stay in registers for phase 4; with
 * two (N = 6, 7) phase 4 loads them again (28 registers less). MINB = 3 (d.gauss_line_3blocks):
 * 80 registers, phase 4 always loads them again (from L2 and, with constant metric terms, one
 * set per element), and 24 warps per SM instead of 16 where the shared memory allows it: the
 * kernel is latency bound (Nsight Compute at N = 3: 20 % DRAM, 60 % L1, 25 % occupancy). */
template <int NP, bool LES, int MINB, bool WSLOT = false, bool PERM = false, int VF = 0,
          bool ADV = false>
__global__ static void __launch_bounds__(LINE_THREADS, MINB)
    lifting_gauss_line_kernel(DevData d, DevPhysics ph, GaussLineMats<NP> M, int volume_grad) {
  extern __shared__ double smem[];
  constexpr int N2 = NP * NP, N3 = NP * N2, S = line_slot_size(NP);
  constexpr int EPB = line_elems_per_block(N3);
  constexpr bool KEEP = MINB == 2 && EPB * N3 <= LINE_THREADS;
  constexpr int NPASS = (EPB * N3 + LINE_THREADS - 1) / LINE_THREADS;
  constexpr int LPASS = (EPB * 3 * N2 + LINE_THREADS - 1) / LINE_THREADS;
  static_assert(!WSLOT || (MINB == 3 && !LES), "WSLOT: the 80-register instance without LES");
  static_assert(!PERM || WSLOT, "PERM: the instance with w in the slots");
  static_assert(!VF || !LES, "VF: no LES (d.visc_face)");
  static_assert(!ADV || WSLOT, "ADV: the instance with w in the slots (d.lift_volume)");
  if (d.sc->dt < 0.0) return; /* inadmissible state; dt = 0: analysis before the first step */
  const int e0 = blockIdx.x * EPB;
  const int ne = min(EPB, d.n_elems - e0);
  const int fv = gauss_face_values(d.lift_compact);
  double *faces = smem + (size_t)EPB * LINE_SLOTS * S, *Lhat = faces + EPB * 6 * fv * N2;
  double u[HX_NVAR], Ja[9];
  for (int t = threadIdx.x; t < 2 * NP; t += blockDim.x)
    Lhat[t] = t < NP ? d.disc->Lhat_minus[t] : d.disc->Lhat_plus[t - NP];
  line_stage_lifting_variables<NP>(d, ph.pp, e0, ne, smem, KEEP ? u : nullptr);
  __syncthreads();
  pdl_wait(); /* the face values of the face lifting kernel (dependent launch) */
  pdl_trigger();
  for (int t = threadIdx.x; t < ne * 3 * N2; t += blockDim.x) {
    int dir, base, stride, le = line_task<NP>(t, &dir, &base, &stride);
    const int line = t - le * 3 * N2 - dir * N2;
    line_gather_lift_flux<NP>(d, e0 + le, dir, line,
                              faces + ((size_t)le * 6 + dir * 2) * fv * N2 + line);
    line_derive_lifting_variables<NP>(M.D, smem + (size_t)le * LINE_SLOTS * S + base, dir, stride);
  }
  __syncthreads();
#pragma unroll
  for (int p = 0; p < NPASS; p++) {
    const int t = phase_task<PERM>(gauss_node_order[NP], p);
    if (t >= 0 && t < ne * N3)
      gauss_node_gradient<NP, WSLOT && !ADV>(d, e0, t, smem, faces, Lhat, volume_grad, Ja);
  }
  __syncthreads();
  if (VF == VISC_FACE_ENDS) {
    for (int t = threadIdx.x; t < ne * 6 * N2; t += blockDim.x) {
      const int end = t >= ne * 3 * N2, tl = t - end * ne * 3 * N2; /* minus ends, plus ends */
      int dir, base, stride, le = line_task<NP>(tl, &dir, &base, &stride);
      double L[NP];
#pragma unroll
      for (int i = 0; i < NP; i++)
        L[i] = end ? M.Lp[i] : M.Lm[i];
      line_end_visc<NP>(d, ph.pp, e0 + le, dir, tl - le * 3 * N2 - dir * N2, end,
                        smem + (size_t)le * LINE_SLOTS * S + base, S, stride, L);
    }
    __syncthreads();
  } else if (d.grad_face) { /* the same for the whole block */
    for (int t = threadIdx.x; t < ne * 3 * N2; t += blockDim.x) {
      int dir, base, stride, le = line_task<NP>(t, &dir, &base, &stride);
      /* the gradients of the line's nodes (slots 0..11) at its ends, into grad_face (VF: the
         inner sides' viscous fluxes from them) */
      const int line = t - le * 3 * N2 - dir * N2;
      const double *sl = smem + (size_t)le * LINE_SLOTS * S + base;
      if (VF == VISC_FACE_LINE) /* the face region (6 fv >= 36 values per line) is dead
                                   after phase 2 */
        line_ends_visc<NP>(d, ph.pp, e0 + le, dir, line, sl, S, stride, M.Lm, M.Lp, faces + t,
                           EPB * 3 * N2);
      else
        line_to_face_halves<NP, HX_NGRAD>(d, e0 + le, dir, line, sl, S, stride, M.Lm, M.Lp,
                                          d.grad_face);
    }
    __syncthreads();
  }
#pragma unroll
  for (int p = 0; p < NPASS; p++) {
    const int t = phase_task<PERM>(gauss_node_order[NP], p);
    if (t < 0 || t >= ne * N3) continue;
    if (ADV) /* phase 4 with the advective fluxes, the state loaded again (from L2: phase 0
                read it) */
      gauss_node_viscous_fluxes<NP, false, true, true>(d, ph.pp, e0, t, smem, u, Ja);
    else if (WSLOT) /* phase 4 from w in the slots */
      gauss_node_viscous_fluxes_w<NP>(d, ph.pp, e0, t, smem);
    else
      gauss_node_viscous_fluxes<NP, LES, !KEEP>(d, ph.pp, e0, t, smem, u, Ja);
  }
  __syncthreads();
#pragma unroll
  for (int p = 0; p < LPASS; p++) {
    const int t = phase_task<PERM>(gauss_line_order[NP], p);
    if (t < 0 || t >= ne * 3 * N2) continue;
    int dir, base, stride, le = line_task<NP>(t, &dir, &base, &stride);
    line_viscous_volume<NP, false>(
        M.Dv, M.Dv, smem + (size_t)le * LINE_SLOTS * S + base + dir * HX_NVAR * S, stride);
  }
  __syncthreads();
  for (int t = threadIdx.x; t < ne * N3; t += blockDim.x)
    node_store_viscous_volume<NP>(d, e0, t, smem);
}

static bool gauss_orders_ok[LINE_NP_MAX + 1];

template <int NP> using GaussLineKernel = void (*)(DevData, DevPhysics, GaussLineMats<NP>, int);

/* The instances without LES: 2 blocks per SM (128 registers), 3 (80), 3 with w in the slots, the
 * last in the bank-grouped orders where perm, and there with the advective volume term where adv
 * (d.lift_volume); VF: forming the inner sides' viscous fluxes. */
enum { GAUSS_2BLOCKS, GAUSS_3BLOCKS, GAUSS_3BLOCKS_WSLOT };
template <int NP, int VF>
static GaussLineKernel<NP> gauss_kernel(int kind, bool perm, bool adv = false) {
  switch (kind) {
  case GAUSS_3BLOCKS:
    return lifting_gauss_line_kernel<NP, false, 3, false, false, VF>;
  case GAUSS_3BLOCKS_WSLOT:
    if (adv)
      return perm ? lifting_gauss_line_kernel<NP, false, 3, true, true, VF, true>
                  : lifting_gauss_line_kernel<NP, false, 3, true, false, VF, true>;
    return perm ? lifting_gauss_line_kernel<NP, false, 3, true, true, VF>
                : lifting_gauss_line_kernel<NP, false, 3, true, false, VF>;
  default:
    return lifting_gauss_line_kernel<NP, false, 2, false, false, VF>;
  }
}

template <int NP> static int gauss_configure(void) {
  int bytes = (int)gauss_line_shared_bytes(NP, 0);
  static short node[GAUSS_ORDER_SLOTS], line[GAUSS_ORDER_SLOTS];
  gauss_orders_ok[NP] = gauss_orders<NP>(node, line);
  if (gauss_orders_ok[NP]) {
    const size_t off = sizeof(short) * GAUSS_ORDER_SLOTS * NP;
    CU_CHECK(cudaMemcpyToSymbol(gauss_node_order, node, sizeof node, off));
    CU_CHECK(cudaMemcpyToSymbol(gauss_line_order, line, sizeof line, off));
  }
  const GaussLineKernel<NP> all[] = {
      gauss_kernel<NP, 0>(GAUSS_2BLOCKS, false),
      gauss_kernel<NP, 0>(GAUSS_3BLOCKS, false),
      gauss_kernel<NP, 0>(GAUSS_3BLOCKS_WSLOT, false),
      gauss_kernel<NP, 0>(GAUSS_3BLOCKS_WSLOT, true),
      gauss_kernel<NP, VISC_FACE_LINE>(GAUSS_2BLOCKS, false),
      gauss_kernel<NP, VISC_FACE_LINE>(GAUSS_3BLOCKS, false),
      gauss_kernel<NP, VISC_FACE_LINE>(GAUSS_3BLOCKS_WSLOT, false),
      gauss_kernel<NP, VISC_FACE_LINE>(GAUSS_3BLOCKS_WSLOT, true),
      gauss_kernel<NP, VISC_FACE_ENDS>(GAUSS_2BLOCKS, false),
      gauss_kernel<NP, VISC_FACE_ENDS>(GAUSS_3BLOCKS, false),
      gauss_kernel<NP, VISC_FACE_ENDS>(GAUSS_3BLOCKS_WSLOT, false),
      gauss_kernel<NP, VISC_FACE_ENDS>(GAUSS_3BLOCKS_WSLOT, true),
      gauss_kernel<NP, 0>(GAUSS_3BLOCKS_WSLOT, false, true),
      gauss_kernel<NP, 0>(GAUSS_3BLOCKS_WSLOT, true, true),
      gauss_kernel<NP, VISC_FACE_LINE>(GAUSS_3BLOCKS_WSLOT, false, true),
      gauss_kernel<NP, VISC_FACE_LINE>(GAUSS_3BLOCKS_WSLOT, true, true),
      gauss_kernel<NP, VISC_FACE_ENDS>(GAUSS_3BLOCKS_WSLOT, false, true),
      gauss_kernel<NP, VISC_FACE_ENDS>(GAUSS_3BLOCKS_WSLOT, true, true),
      lifting_gauss_line_kernel<NP, true, 2>};
  for (GaussLineKernel<NP> k : all)
    CU_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  return HX_OK;
}

/* Whether three blocks of the kernel's shared memory fit on an SM (not at N = 7 on an H100 or
 * H200: there 80 registers would only add spills). */
bool gauss_line_three_blocks_fit(const DevData *d) {
  const size_t bytes = gauss_line_shared_bytes(d->np, d->lift_compact);
  int dev = 0, per_sm = 0, reserved = 0;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev) !=
          cudaSuccess ||
      cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev) !=
          cudaSuccess)
    return false;
  return 3 * (bytes + (size_t)reserved) <= (size_t)per_sm;
}

template <int NP>
static int gauss_launch(const DevData *d, const DevPhysics *ph, int volume_grad, cudaStream_t s,
                        bool dependent) {
  GaussLineMats<NP> M;
  const Disc *h = d->disc_host;
  for (int i = 0; i < NP; i++) {
    M.Lm[i] = h->L_minus[i];
    M.Lp[i] = h->L_plus[i];
    for (int l = 0; l < NP; l++) {
      M.D[i * NP + l] = h->D[i * NP + l];
      M.Dv[i * NP + l] = h->Dvol[i * NP + l];
    }
  }
  int epb = line_elems_per_block(NP * NP * NP);
  int blocks = (d->n_elems + epb - 1) / epb;
  size_t bytes = gauss_line_shared_bytes(NP, d->lift_compact);
  /* bank-grouped orders: in the instance that reads velocity and temperature from the slots in
     phase 4 (another order there would scatter the loads of the state) */
  const bool perm = d->gauss_line_perm && gauss_orders_ok[NP];
  const int kind = !d->gauss_line_3blocks ? GAUSS_2BLOCKS
                   : d->gauss_line_wslot  ? GAUSS_3BLOCKS_WSLOT
                                          : GAUSS_3BLOCKS;
  const bool adv = d->lift_volume != 0; /* set only with the WSLOT kind */
  GaussLineKernel<NP> k =
      d->visc_face == VISC_FACE_ENDS   ? gauss_kernel<NP, VISC_FACE_ENDS>(kind, perm, adv)
      : d->visc_face == VISC_FACE_LINE ? gauss_kernel<NP, VISC_FACE_LINE>(kind, perm, adv)
                                       : gauss_kernel<NP, 0>(kind, perm, adv);
  if (d->sgs_model != SGS_NONE) k = lifting_gauss_line_kernel<NP, true, 2>;
  CU_CHECK(launch_kernel(dependent, k, dim3(blocks), dim3(LINE_THREADS), bytes, s, *d, *ph, M,
                         volume_grad));
  return HX_OK;
}

int gauss_line_configure(int np) {
  switch (np) { LINE_NP_CASES(gauss_configure, ()); }
  return HX_ERROR(HX_ERR_INTERNAL, "Gauss lifting line kernel: no instance for np = %d", np);
}

int gauss_line_launch(const DevData *d, const DevPhysics *ph, int volume_grad, cudaStream_t s,
                      bool dependent) {
  switch (d->np) { LINE_NP_CASES(gauss_launch, (d, ph, volume_grad, s, dependent)); }
  return HX_ERROR(HX_ERR_INTERNAL, "Gauss lifting line kernel: no instance for np = %d", d->np);
}
