/* ProlongToFace + FillFlux fused: one thread per face point prolongs the master and slave states
 * (a gather through the precomputed face maps, no atomics) and computes the numerical flux. */
#include "gpu/eddyvisc.cuh"
#include "gpu/gpu_internal.cuh"
#include "gpu/ipc_sync.cuh"

extern "C" {
#include "dg/faceops.h"
#include "physics/bc.h"
#include "physics/eos.h"
#include "physics/navierstokes.h"
#include "physics/riemann.h"
}

/* State of volume element elem at the face point whose face-adjacent node is node0. */
__device__ static void prolong_point(const DevData &d, int elem, int locside, int node0,
                                     double *u) {
  const double *Ue = d.U + (size_t)elem * d.nvar * d.n3;
  for (int v = 0; v < HX_NVAR; v++)
    u[v] = prolong_to_face_point(d.disc, Ue + v * d.n3, node0, locside);
}

/* Lifted gradients [3][4] of element elem at a face point (same prolongation as the state). */
__device__ static void prolong_grad_point(const DevData &d, int elem, int locside, int node0,
                                          double g[3][HX_NLIFT]) {
  const double *q = d.grad + (size_t)elem * HX_NGRAD * d.n3;
#pragma unroll
  for (int c = 0; c < 3; c++)
#pragma unroll
    for (int v = 0; v < HX_NLIFT; v++)
      g[c][v] = prolong_to_face_point(d.disc, q + (c * HX_NLIFT + v) * d.n3, node0, locside);
}

/* Gradients [3][4] of a face point from a side-ordered block [3][4][n2] (q: the block at the
 * point): the lifting kernel's grad_face, or the received gradients of an MPI "mine" side. */
__device__ static void side_grad_point(const double *q, int n2, double g[3][HX_NLIFT]) {
#pragma unroll
  for (int c = 0; c < 3; c++)
#pragma unroll
    for (int v = 0; v < HX_NLIFT; v++) g[c][v] = q[(c * HX_NLIFT + v) * n2];
}

/* Gradients at face point f of side from grad_face (slot 0: master, 1: slave). */
__device__ static void face_grad_point(const DevData &d, int side, int slot, int f,
                                       double g[3][HX_NLIFT]) {
  side_grad_point(d.grad_face + ((size_t)side * 2 + slot) * HX_NGRAD * d.n2 + f, d.n2, g);
}

/* Received gradients of the remote slave element of "mine" side side at face point f. */
__device__ static void received_grad_point(const DevData &d, int side, int f,
                                           double g[3][HX_NLIFT]) {
  side_grad_point(d.mpi_grad_recv + (size_t)(side - d.first_mpi) * HX_NGRAD * d.n2 + f, d.n2, g);
}

/* Slave state at face point f: prolonged from the slave element, or received (MPI "mine" side,
 * slave element -1). */
__device__ static void slave_point(const DevData &d, const int *info, int side, int f, double *u) {
  if (info[2] >= 0) {
    prolong_point(d, info[2], info[3], d.s2v[(info[4] * 6 + info[3]) * d.n2 + f], u);
    return;
  }
  const double *r = d.mpi_U_recv + (size_t)(side - d.first_mpi) * d.nvar * d.n2 + f;
  for (int v = 0; v < HX_NVAR; v++) u[v] = r[v * d.n2];
}

/* Gauss nodes, one rank (U_face set): the face lifting kernel keeps the states it prolonged, slot
 * 0 the master's, 1 the slave's (inner sides), and the face flux kernel of the same stage reads
 * them: the same values, without a second pass over the element lines. */
__device__ static void store_face_state(const DevData &d, int side, int slot, int f,
                                        const double *u) {
  double *o = d.U_face + ((size_t)side * 2 + slot) * HX_NVAR * d.n2 + f;
  for (int v = 0; v < HX_NVAR; v++) o[v * d.n2] = u[v];
}

/* The states at face point f of side prolonged from U, into U_face where it is kept: the master's
 * (uL) and, unless bc, the slave's (uR). */
__device__ static __forceinline__ void prolong_face_states(const DevData &d, const int *info,
                                                           int side, int f, bool bc, double *uL,
                                                           double *uR) {
  prolong_point(d, info[0], info[1], d.s2v[info[1] * d.n2 + f], uL);
  if (d.U_face) store_face_state(d, side, 0, f, uL);
  if (bc) return;
  slave_point(d, info, side, f, uR);
  if (d.U_face) store_face_state(d, side, 1, f, uR);
}

/* BR1 viscous flux (mean of both sides; boundary state with inner gradients on BC sides),
 * subtracted from the advective flux F. One side at a time keeps the gradients in registers. */
template <bool LES, bool MAY_BC>
__device__ static void subtract_viscous(const DevData &d, const PhysParams &pp, const int *info,
                                        int side, int f, const double *uL, const double *uR,
                                        const double *n, double *F) {
  double prim[HX_NPRIM], g[3][HX_NLIFT], Fv[HX_NVAR];
  int bc = MAY_BC && info[5] >= 0;
  if (d.grad_face)
    face_grad_point(d, side, 0, f, g);
  else
    prolong_grad_point(d, info[0], info[1], d.s2v[info[1] * d.n2 + f], g);
  double mu_t = LES ? sgs_face_mu_t(d, side, 0, f, uL, g) : 0.0; /* each side's own (fillflux.c) */
  if (bc) {
    bc_viscous_flux_sgs(d.bc_info[2 * info[5]], &pp, uL, uR, LES, mu_t, d.sgs_lambda_factor * mu_t,
                        g[0], g[1], g[2], n, Fv);
    for (int v = 0; v < HX_NVAR; v++) F[v] -= Fv[v];
    return;
  }
  cons_to_prim(&pp, uL, prim);
  if (LES)
    viscous_flux_normal_les(&pp, prim, mu_t, d.sgs_lambda_factor * mu_t, g[0], g[1], g[2], n, Fv);
  else
    viscous_flux_normal(&pp, prim, g[0], g[1], g[2], n, Fv);
  for (int v = 0; v < HX_NVAR; v++) F[v] -= 0.5 * Fv[v];
  if (d.grad_face && info[2] >= 0)
    face_grad_point(d, side, 1, f, g);
  else if (info[2] >= 0)
    prolong_grad_point(d, info[2], info[3], d.s2v[(info[4] * 6 + info[3]) * d.n2 + f], g);
  else
    received_grad_point(d, side, f, g);
  cons_to_prim(&pp, uR, prim);
  if (LES) {
    mu_t = sgs_face_mu_t(d, side, 1, f, uR, g);
    viscous_flux_normal_les(&pp, prim, mu_t, d.sgs_lambda_factor * mu_t, g[0], g[1], g[2], n, Fv);
  } else {
    viscous_flux_normal(&pp, prim, g[0], g[1], g[2], n, Fv);
  }
  for (int v = 0; v < HX_NVAR; v++) F[v] -= 0.5 * Fv[v];
}

/* The flux F . n per unit area, times the surface element, into the side's flux array. */
__device__ static void store_face_flux(const DevData &d, int side, int f, const double *F) {
  double sf = face_surf(d, side, f);
  double *out = d.flux + (size_t)side * d.nvar * d.n2 + f;
  for (int v = 0; v < HX_NVAR; v++)
    out[v * d.n2] = F[v] * sf;
}

template <bool LES>
__global__ static void face_flux_kernel(DevData d, DevPhysics ph, double c_stage, int first,
                                        int last) {
  pdl_trigger(); /* the fused update may stage its elements meanwhile */
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  /* dt < 0: a failed step. Not dt = 0: the dt of a step may be computed beside its first stage
     (gpu_mpi_timestep_beside), so the value read here can be the last step's or, before the
     first step, 0; the update kernels alone skip at dt = 0 */
  if (gid >= (last - first) * d.n2 || d.sc->dt < 0.0) return;
  int side = first + gid / d.n2, f = gid % d.n2;
  const int *info = d.side_info + 6 * side;
  double uL[HX_NVAR], uR[HX_NVAR], F[HX_NVAR], n[3], t1[3], t2[3];
  face_frame(d, side, f, n, t1, t2);
  if (d.U_face)
    load_face_state(d, side, 0, f, uL);
  else
    prolong_point(d, info[0], info[1], d.s2v[info[1] * d.n2 + f], uL);
  int bc = info[5];
  if (bc < 0) {
    if (d.U_face)
      load_face_state(d, side, 1, f, uR);
    else
      slave_point(d, info, side, f, uR);
    riemann_flux(d.riemann, d.split, &ph.pp, uL, uR, n, t1, t2, F);
  } else {
    double x[3];
    for (int c = 0; c < 3; c++) x[c] = d.face_x[((size_t)side * 3 + c) * d.n2 + f];
    bc_outer_state(d.bc_info[2 * bc], d.bc_info[2 * bc + 1], &ph.ef, &ph.pp, uL, n, x,
                   d.sc->t + c_stage * d.sc->dt, uR);
    bc_advective_flux(d.bc_info[2 * bc], d.riemann_bc, d.split, &ph.pp, uL, uR, n, t1, t2, F);
  }
  pdl_wait(); /* the gradients of the lifting kernel (dependent launch) */
  if (d.viscous) subtract_viscous<LES, true>(d, ph.pp, info, side, f, uL, uR, n, F);
  store_face_flux(d, side, f, F);
}

/* d.visc_face: the Gauss lifting kernel formed each side's BR1 viscous flux Fv(u, q) . n at the
 * face points (end_store: momentum and energy in rows 0..3 of the side's half of grad_face);
 * their mean subtracted from F in subtract_viscous's order (master, then slave; Fv's density
 * component is 0), so the same flux to the bit. 8 values read per face point instead of 24. */
__device__ static __forceinline__ void subtract_side_viscous(const DevData &d, int side, int f,
                                                             double *F) {
  const double *m = d.grad_face + (size_t)side * 2 * HX_NGRAD * d.n2 + f;
  const double *s = m + HX_NGRAD * d.n2;
  double a[4], b[4];
#pragma unroll
  for (int v = 0; v < 4; v++) {
    a[v] = m[v * d.n2];
    b[v] = s[v * d.n2];
  }
#pragma unroll
  for (int v = 0; v < 4; v++)
    F[MOM1 + v] -= 0.5 * a[v];
#pragma unroll
  for (int v = 0; v < 4; v++)
    F[MOM1 + v] -= 0.5 * b[v];
}

/* Inner and MPI sides without LES: face_flux_kernel without the boundary paths, with the Riemann
 * solver RS and the split flux SPLIT (SPLIT_NONE: the weak form) fixed at compile time. The
 * generic kernel holds the registers of every solver, split flux and boundary condition (164 at
 * sm_90, 3 blocks of 128 per SM); this one 128 (4 blocks; HLLEM and RoeEntropyFix with KG spill
 * 80 and 32 bytes to stay there). The same functions, so the same flux to the last bit. VF: the
 * viscous fluxes of the lifting kernel (d.visc_face, subtract_side_viscous); MINB blocks of 128
 * per SM (the weak form's: d.face_weak_minb, 4 or 5: 128 or 96 registers). */
template <int RS, int SPLIT, bool VF = false, int MINB = 4>
__global__ static void __launch_bounds__(128, MINB)
    face_flux_inner_kernel(DevData d, DevPhysics ph, int first, int last) {
  pdl_trigger(); /* the fused update may stage its elements meanwhile */
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (last - first) * d.n2 || d.sc->dt < 0.0) return; /* as face_flux_kernel */
  int side = first + gid / d.n2, f = gid % d.n2;
  const int *info = d.side_info + 6 * side;
  double uL[HX_NVAR], uR[HX_NVAR], F[HX_NVAR], n[3], t1[3], t2[3];
  face_frame(d, side, f, n, t1, t2);
  if (d.U_face) {
    load_face_state(d, side, 0, f, uL);
    load_face_state(d, side, 1, f, uR);
  } else {
    prolong_point(d, info[0], info[1], d.s2v[info[1] * d.n2 + f], uL);
    slave_point(d, info, side, f, uR);
  }
  riemann_flux(RS, SPLIT, &ph.pp, uL, uR, n, t1, t2, F);
  pdl_wait(); /* the gradients of the lifting kernel (dependent launch) */
  if (VF)
    subtract_side_viscous(d, side, f, F);
  else if (d.viscous)
    subtract_viscous<false, false>(d, ph.pp, info, side, f, uL, uR, n, F);
  store_face_flux(d, side, f, F);
}

typedef void (*FaceInnerKernel)(DevData, DevPhysics, int, int);

/* The end of the boundary sides within [first, last) (they come first: mesh.h). */
static int bc_sides_end(const DevData *d, int first, int last) {
  return d->n_bc_sides < first ? first : d->n_bc_sides > last ? last : d->n_bc_sides;
}

/* The weak form's (SPLIT_NONE) inner kernel of solver RS at minb blocks per SM; VF: with the
 * lifting kernel's viscous fluxes. */
template <int RS, bool VF> static FaceInnerKernel face_inner_weak(int minb) {
  return minb == 5 ? face_flux_inner_kernel<RS, SPLIT_NONE, VF, 5>
                   : face_flux_inner_kernel<RS, SPLIT_NONE, VF, 4>;
}

/* The inner kernel of solver RS: the weak form's where not central (HLLC, HLL, HLLE and HLLEM
 * ignore the split flux, so it serves every form), in the weak form or with d.visc_face; else that
 * of the split flux, which replaces the central part (riemann.h: LF, the Roe family, CH): KG and
 * PI. */
template <int RS> static FaceInnerKernel face_inner_of(const DevData *d, bool central) {
  if (d->visc_face) return face_inner_weak<RS, true>(d->face_weak_minb);
  if (!central || d->split == SPLIT_NONE) return face_inner_weak<RS, false>(d->face_weak_minb);
  switch (d->split) {
  case SPLIT_KG: return face_flux_inner_kernel<RS, SPLIT_KG>;
  case SPLIT_PI: return face_flux_inner_kernel<RS, SPLIT_PI>;
  default: return NULL;
  }
}

/* The inner kernel of the case's solver and split flux; NULL where the generic kernel serves
 * (LES, the split forms SD, MO, DU and CH, HEXDG_FACE_INNER_FLUX = F). */
static FaceInnerKernel face_inner_kernel(const DevData *d) {
  if (!(d->face_inner & FACE_INNER_FLUX) || d->sgs_model != SGS_NONE) return NULL;
  switch (d->riemann) {
  case RIEMANN_LF:
    return face_inner_of<RIEMANN_LF>(d, true);
  case RIEMANN_ROE:
    return face_inner_of<RIEMANN_ROE>(d, true);
  case RIEMANN_ROEL2:
    return face_inner_of<RIEMANN_ROEL2>(d, true);
  case RIEMANN_ROE_ENTROPYFIX:
    return face_inner_of<RIEMANN_ROE_ENTROPYFIX>(d, true);
  case RIEMANN_CH:
    return face_inner_of<RIEMANN_CH>(d, true);
  case RIEMANN_HLLC:
    return face_inner_of<RIEMANN_HLLC>(d, false);
  case RIEMANN_HLL:
    return face_inner_of<RIEMANN_HLL>(d, false);
  case RIEMANN_HLLE:
    return face_inner_of<RIEMANN_HLLE>(d, false);
  case RIEMANN_HLLEM:
    return face_inner_of<RIEMANN_HLLEM>(d, false);
  default: return NULL;
  }
}

bool face_inner_flux_serves(const DevData *d) {
  return face_inner_kernel(d) != NULL;
}

/* The boundary sides of [first, last) in the generic kernel, the others in the inner kernel where
 * there is one. Two dependent launches keep the chain: the second's wait covers the first. */
int launch_face_flux(const DevData *d, const DevPhysics *ph, double c_stage, int first, int last,
                     cudaStream_t s, bool dependent) {
  const int threads = 128;
  if (last <= first) return HX_OK;
  FaceInnerKernel inner = face_inner_kernel(d);
  int split_at = inner ? bc_sides_end(d, first, last) : last;
  int n = (split_at - first) * d->n2;
  if (n > 0) {
    void (*k)(DevData, DevPhysics, double, int, int) =
        d->sgs_model != SGS_NONE ? face_flux_kernel<true> : face_flux_kernel<false>;
    CU_CHECK(launch_kernel(dependent, k, dim3((n + threads - 1) / threads), dim3(threads), 0, s,
                           *d, *ph, c_stage, first, split_at));
  }
  n = (last - split_at) * d->n2;
  if (n > 0)
    CU_CHECK(launch_kernel(dependent, inner, dim3((n + threads - 1) / threads), dim3(threads), 0,
                           s, *d, *ph, split_at, last));
  return HX_OK;
}

/* BR1 lifting face values w* n_c s (weak) or (w* - w^-) n_c s (strong): one thread per face point
 * (d.lift_compact: w* or w* - w^- alone). */
template <bool MAY_BC>
__global__ static void face_lifting_kernel(DevData d, DevPhysics ph, double c_stage, int first,
                                           int last) {
  pdl_wait(); /* U of the update before (dependent launch) */
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (last - first) * d.n2 || d.sc->dt < 0.0) return;
  int side = first + gid / d.n2, f = gid % d.n2;
  const int *info = d.side_info + 6 * side;
  double uL[HX_NVAR], uR[HX_NVAR], pL[HX_NPRIM], pR[HX_NPRIM], wL[HX_NLIFT], wR[HX_NLIFT], n[3];
  const int bc = MAY_BC && info[5] >= 0;
  if (d.u_face_update) { /* the update kernel before interpolated them (the same sums); both
                            sides' loads in flight together */
    load_face_state(d, side, 0, f, uL);
    if (!bc) load_face_state(d, side, 1, f, uR);
  } else {
    prolong_face_states(d, info, side, f, bc, uL, uR);
  }
  cons_to_prim(&ph.pp, uL, pL);
  lifting_variables(pL, wL);
  if (!bc) {
    cons_to_prim(&ph.pp, uR, pR);
    lifting_variables(pR, wR);
  } else {
    double x[3];
    for (int c = 0; c < 3; c++) x[c] = d.face_x[((size_t)side * 3 + c) * d.n2 + f];
    face_frame(d, side, f, n, nullptr, nullptr);
    bc_outer_state(d.bc_info[2 * info[5]], d.bc_info[2 * info[5] + 1], &ph.ef, &ph.pp, uL, n, x,
                   d.sc->t + c_stage * d.sc->dt, uR);
    bc_lifting_value(d.bc_info[2 * info[5]], &ph.pp, uL, uR, wR);
  }
  double wf[HX_NLIFT];
  br1_face_value(d.lifting_form, bc, wL, wR, wf);
  double *out = d.lift_flux + (size_t)side * HX_NGRAD * d.n2 + f;
  if (d.lift_compact) { /* the Gauss line kernel multiplies by n s (line_gather_lift_flux) */
    for (int v = 0; v < HX_NLIFT; v++) out[v * d.n2] = wf[v];
    return;
  }
  if (!bc) face_frame(d, side, f, n, nullptr, nullptr);
  double sf = face_surf(d, side, f);
  for (int c = 0; c < 3; c++) {
    double nc = n[c] * sf;
    for (int v = 0; v < HX_NLIFT; v++) out[(c * HX_NLIFT + v) * d.n2] = wf[v] * nc;
  }
}

/* The boundary sides of [first, last) in face_lifting_kernel<true>, the others without the
 * boundary path (56 registers instead of 96 at sm_90) unless HEXDG_FACE_INNER_LIFT = F. */
int launch_face_lifting(const DevData *d, const DevPhysics *ph, double c_stage, int first, int last,
                        cudaStream_t s, bool dependent) {
  const int threads = 128;
  int split_at = d->face_inner & FACE_INNER_LIFT ? bc_sides_end(d, first, last) : last;
  int n = (split_at - first) * d->n2;
  if (n > 0)
    CU_CHECK(launch_kernel(dependent, face_lifting_kernel<true>, dim3((n + threads - 1) / threads),
                           dim3(threads), 0, s, *d, *ph, c_stage, first, split_at));
  n = (last - split_at) * d->n2;
  if (n > 0)
    CU_CHECK(launch_kernel(dependent, face_lifting_kernel<false>, dim3((n + threads - 1) / threads),
                           dim3(threads), 0, s, *d, *ph, c_stage, split_at, last));
  return HX_OK;
}

/* U_face of the sides [first, last) from U: the face lifting kernel's prolongation. */
__global__ static void face_states_kernel(DevData d, int first, int last) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (last - first) * d.n2) return;
  int side = first + gid / d.n2, f = gid % d.n2;
  const int *info = d.side_info + 6 * side;
  double uL[HX_NVAR], uR[HX_NVAR]; /* boundary side: master only (U_face: one rank, no MPI sides) */
  prolong_face_states(d, info, side, f, info[5] >= 0 || info[2] < 0, uL, uR);
}

int launch_face_states(const DevData *d, cudaStream_t s) {
  int n = d->n_sides * d->n2, threads = 128;
  if (n <= 0 || !d->U_face) return HX_OK;
  face_states_kernel<<<(n + threads - 1) / threads, threads, 0, s>>>(*d, 0, d->n_sides);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

/* Face point f of a "yours" side: the slave element's nv values, in the master's orientation (the
 * same gather as slave_point), to o[v * n2]: the message to the master's rank. vol NULL: the
 * gradients (nv = HX_NGRAD) from grad_face's slave half, where the lifting kernel put them. */
__device__ static __forceinline__ void pack_slave_point(const DevData &d, const double *vol, int nv,
                                                        int side, int f, double *o) {
  if (!vol) {
    const double *q = d.grad_face + ((size_t)side * 2 + 1) * HX_NGRAD * d.n2 + f;
    for (int v = 0; v < HX_NGRAD; v++) o[v * d.n2] = q[v * d.n2];
    return;
  }
  const int *info = d.side_info + 6 * side;
  int node0 = d.s2v[(info[4] * 6 + info[3]) * d.n2 + f];
  const double *ve = vol + (size_t)info[2] * nv * d.n3;
  for (int v = 0; v < nv; v++) o[v * d.n2] = prolong_to_face_point(d.disc, ve + v * d.n3, node0, info[3]);
}

/* One thread per face point of a "yours" side. */
__global__ static void pack_slave_kernel(DevData d, const double *vol, int nv, int first, int last,
                                         double *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (last - first) * d.n2) return;
  int side = first + gid / d.n2, f = gid % d.n2;
  pack_slave_point(d, vol, nv, side, f, out + (size_t)(side - first) * nv * d.n2 + f);
}

/* The same into the neighbours' receive buffers, between the flags of plan (ipc_sync.cuh). */
__global__ static void pack_send_kernel(DevData d, const double *vol, int nv, int first, int last,
                                        IpcPackPlan plan) {
  for (int k = 0; k < plan.n_flags; k++) block_wait_flag(plan.wait[k]); /* buffers free */
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < (last - first) * d.n2) {
    int side = first + gid / d.n2, f = gid % d.n2, j = 0;
    while (j + 1 < plan.n && side >= plan.side_first[j + 1]) j++;
    pack_slave_point(d, vol, nv, side, f,
                     plan.dst[j] + (size_t)(side - plan.side_first[j]) * nv * d.n2 + f);
  }
  if (block_is_last(plan.count, gridDim.x) && threadIdx.x == 0) {
    for (int k = 0; k < plan.n_flags; k++) *(volatile unsigned *)plan.wait[k] = 0u;
    __threadfence_system();
    for (int k = 0; k < plan.n_flags; k++) *(volatile unsigned *)plan.raise[k] = 1u;
  }
}

int launch_pack_send(const DevData *d, const double *vol, int nv, int first, int last,
                     const IpcPackPlan *plan, cudaStream_t s) {
  int n = (last - first) * d->n2, threads = 128;
  if (n <= 0) return HX_OK;
  pack_send_kernel<<<(n + threads - 1) / threads, threads, 0, s>>>(*d, vol, nv, first, last,
                                                                   *plan);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_pack_slave(const DevData *d, const double *vol, int nv, int first, int last,
                      double *out, cudaStream_t s) {
  int n = (last - first) * d->n2, threads = 128;
  if (n <= 0) return HX_OK;
  pack_slave_kernel<<<(n + threads - 1) / threads, threads, 0, s>>>(*d, vol, nv, first, last, out);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}
