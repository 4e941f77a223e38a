/* FV switching on Gauss nodes on the device (air), the twin of src/dg/fv_gauss.c and,
 * with Navier-Stokes, src/dg/fv_gauss_visc.c (FLEXI's FV = SWITCH build with NODETYPE = GAUSS,
 * PARABOLIC = ON; docs/fv.md): the pointwise parts are dg/fv_gauss_pointwise.h, the same code as
 * the CPU's. Not a performance path: simple kernels, one thread per face subcell, per element face
 * subcell or per subcell line, one block per FV element or per element of a side (the face
 * gradients). A stage on the side stream, in the CPU's order (dg/operator.c):
 *   launch_fvg_face_states  for the sides with an FV element both face states at the face
 *                           subcells and what each element's reconstruction sees of the other
 *                           (fv_gauss_prolong_start); the FV elements' ghosts and reconstructed
 *                           face states (fv_gauss_reconstruct_start);
 *   launch_fvg_lifting      Navier-Stokes, after the DG face lifting: the lifting face values of
 *                           the sides with an FV element at the face subcells, their DG form in
 *                           lift_flux (fv_gauss_face_lifting);
 *   launch_fvg_gradients    Navier-Stokes, after the lifting: the FV elements' slopes, the face
 *                           gradients at the face subcells in fvg_grad, FV elements' from their
 *                           slopes, DG elements' the face subcell means of their lifted ones
 *                           (fv_gauss_viscous_gradients);
 *   launch_fvg_face_fluxes  after the DG face fluxes: the face subcell fluxes (Navier-Stokes: with
 *                           the viscous part) and their DG form in d->flux for a DG neighbour
 *                           (fill_flux_fv_range);
 *   launch_fvg_volume       after VolInt, once the side stream's work is there: the FV elements'
 *                           subcell operator replaces their Ut (fv_gauss_subcell_volume, with
 *                           fv_gauss_viscous_volume);
 * the surface term of the FV elements (fv_gauss_surface_end) and their subcell Jacobians are the
 * update kernel's (update_node.cuh, FVG; it leaves the DG lifting's viscous volume term out
 * there, as lifting.c), the switch the indicator kernels'. Several ranks (gpu_mpi_fv.cu): the
 * same kernels; an MPI side's remote element is known by its FV_Elems in fvg_side_fv and by the
 * halves of the face arrays that its rank computed ([master | slave][side] blocks, exchanged
 * between the launches); the face launchers leave out the "yours" sides (their master's rank
 * computes them). */
#include "gpu/gpu_internal.cuh"

extern "C" {
#include "dg/faceops.h"
#include "dg/fv_gauss.h"
#include "dg/fv_gauss_pointwise.h"
#include "parallel/parallel.h"
#include "physics/eos.h"
}

#define FVG_THREADS 128

/* The element of slot (0: master, 1: slave) of side is FV: its FV_Elems here, the one its rank
 * sent on an MPI side (fvg_side_fv); a boundary side's slave is none. */
__device__ static inline bool fvg_slot_fv(const DevData &d, const int *info, int side, int slot) {
  const int e = info[2 * slot];
  if (e >= 0) return d.fv_elems[e];
  return info[5] < 0 && d.fvg_side_fv && d.fvg_side_fv[(size_t)slot * d.n_sides + side] != 0.0;
}

/* An FV element touches the side (FLEXI's FV_Elems_Sum > 0). */
__device__ static inline bool fvg_side_fv(const DevData &d, const int *info, int side) {
  return fvg_slot_fv(d, info, side, 0) || fvg_slot_fv(d, info, side, 1);
}

/* The block of side's slot in a [master | slave][side][nv][n2] face array. */
__device__ static inline size_t fvg_face_block(const DevData &d, int side, int slot, int nv) {
  return ((size_t)slot * d.n_sides + side) * nv * d.n2;
}

/* Element e's state at face subcell f of its local side ls (flip: its orientation on the side),
 * uf, and what the other element's reconstruction sees, mp (primitive): an FV element's boundary
 * subcell mean; for a DG element the subcell means of its face polynomial and of its first node
 * layer's primitive values (face_state and multi_state of fv_gauss.c). */
__device__ static void face_state_point(const DevData &d, const PhysParams &pp, int e, int ls,
                                        int flip, int f, double *uf, double *mp) {
  const int np = d.np, n2 = d.n2, n3 = d.n3;
  const int *map = d.s2v + (flip * 6 + ls) * n2;
  const double *Ue = d.U + (size_t)e * d.nvar * n3;
  if (d.fv_elems[e]) {
    for (int v = 0; v < HX_NVAR; v++)
      uf[v] = Ue[v * n3 + map[f]];
    cons_to_prim(&pp, uf, mp);
    return;
  }
  const int p = f % np, q = f / np;
  double buf[HX_NPMAX * HX_NPMAX];
  for (int v = 0; v < HX_NVAR; v++) {
    for (int g = 0; g < n2; g++)
      buf[g] = prolong_to_face_point(d.disc, Ue + v * n3, map[g], ls);
    uf[v] = fvg_face_mean(np, d.fv_to_fv, buf, 1, p, q);
  }
  for (int v = 0; v < HX_NVAR; v++) { /* the first node layer, primitive, one variable at a time */
    for (int g = 0; g < n2; g++) {
      double u[HX_NVAR], pr[HX_NPRIM];
      for (int w = 0; w < HX_NVAR; w++)
        u[w] = Ue[w * n3 + map[g]];
      cons_to_prim(&pp, u, pr);
      buf[g] = pr[v];
    }
    mp[v] = fvg_face_mean(np, d.fv_to_fv, buf, 1, p, q);
  }
}

/* One thread per face subcell of the sides with an FV element: both elements' face states
 * (fvg_U_face) and reconstruction neighbours (fvg_multi), slot 0 the master's, 1 the slave's. */
__global__ static void face_states_kernel(DevData d, DevPhysics ph) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= d.n_sides * d.n2 || !(d.sc->dt > 0.0)) return;
  const int side = gid / d.n2, f = gid % d.n2;
  const int *info = d.side_info + 6 * side;
  if (!fvg_side_fv(d, info, side)) return;
  for (int slot = 0; slot < 2; slot++) {
    const int e = info[2 * slot], ls = info[2 * slot + 1], flip = slot ? info[4] : 0;
    if (e < 0) continue; /* a boundary side's slave, an MPI side's remote element */
    double uf[HX_NVAR], mp[HX_NPRIM];
    face_state_point(d, ph.pp, e, ls, flip, f, uf, mp);
    double *U = d.fvg_U_face + fvg_face_block(d, side, slot, HX_NVAR) + f;
    double *M = d.fvg_multi + fvg_face_block(d, side, slot, HX_NVAR) + f;
    for (int v = 0; v < HX_NVAR; v++) {
      U[v * d.n2] = uf[v];
      M[v * d.n2] = mp[v];
    }
  }
}

/* One thread per face subcell f of local side ls of an FV element e (gather_ghosts and
 * reconstruct_faces of fv_gauss.c): the ghost beyond the face and its distance, kept for the
 * volume kernel, then the element's face state reconstructed into its slot of fvg_U_face (each
 * thread writes its own subcell: no two threads write one value). */
__global__ static void elem_faces_kernel(DevData d, DevPhysics ph, double c_stage) {
  const int np = d.np, N = d.N, n2 = d.n2, n3 = d.n3;
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= d.n_elems * 6 * n2 || !(d.sc->dt > 0.0)) return;
  const int e = gid / (6 * n2), ls = (gid / n2) % 6, f = gid % n2;
  if (!d.fv_elems[e]) return;
  const int side = d.elem_sides[2 * (6 * e + ls)], flip = d.elem_sides[2 * (6 * e + ls) + 1];
  const int *info = d.side_info + 6 * side, bc = info[5];
  const int slot = flip == 0 ? 0 : 1, dir = side_normal_dir(ls), plus = side_is_plus(ls);
  const int q0 = d.s2v[(flip * 6 + ls) * n2 + f], line = fvg_line_of(np, dir, q0);
  const double *own = (slot ? d.fvg_dist_slave : d.fvg_dist_master) + 2 * (size_t)n2 * side;
  const double *other_dist = (slot ? d.fvg_dist_master : d.fvg_dist_slave) + 2 * (size_t)n2 * side;
  const int other_dg = !fvg_slot_fv(d, info, side, 1 - slot);
  const double *Ue = d.U + (size_t)e * d.nvar * n3;
  double u0[HX_NVAR], pr[HX_NPRIM];
  for (int v = 0; v < HX_NVAR; v++)
    u0[v] = Ue[v * n3 + q0];
  if (bc >= 0) {
    double mv[3], x[3];
    for (int c = 0; c < 3; c++) {
      mv[c] = d.fvg_face_mv[((size_t)side * 3 + c) * n2 + f];
      x[c] = d.fvg_face_x[((size_t)side * 3 + c) * n2 + f];
    }
    fvg_boundary_ghost(d.bc_info[2 * bc], d.bc_info[2 * bc + 1], &ph.ef, &ph.pp, u0, mv, x,
                       d.sc->t + c_stage * d.sc->dt, pr);
  } else {
    const double *M = d.fvg_multi + fvg_face_block(d, side, 1 - slot, HX_NVAR) + f;
    for (int v = 0; v < HX_NVAR; v++)
      pr[v] = M[v * n2];
  }
  const double gd = fvg_ghost_distance(bc >= 0, own[f], other_dist[other_dg * n2 + f]);
  double *gh = d.fvg_ghost + ((size_t)e * 6 + ls) * HX_NVAR * n2 + line;
  for (int v = 0; v < HX_NVAR; v++)
    gh[v * n2] = pr[v];
  d.fvg_ghost_dx[((size_t)e * 6 + ls) * n2 + line] = gd;
  /* the face state: the boundary subcell reconstructed to the face */
  const int inward = (plus ? -1 : 1) * (dir == 0 ? 1 : dir == 1 ? np : np * np);
  const size_t at = ((size_t)e * 3 + dir) * n3 + (size_t)line * np;
  const double d1 =
      plus ? d.fvg_dx_l[at + N] + d.fvg_dx_r[at + N - 1] : d.fvg_dx_r[at] + d.fvg_dx_l[at + 1];
  const double dface = plus ? d.fvg_dx_r[at + N] : d.fvg_dx_l[at];
  double u1[HX_NVAR], uf[HX_NVAR];
  for (int v = 0; v < HX_NVAR; v++)
    u1[v] = Ue[v * n3 + q0 + inward];
  if (!fvg_reconstruct_face(&ph.pp, d.fv_limiter, d.fv_line->sweby_beta, u0, u1, pr, 1, gd, d1,
                            dface, uf))
    return; /* keep the mean */
  double *U = d.fvg_U_face + fvg_face_block(d, side, slot, HX_NVAR) + f;
  for (int v = 0; v < HX_NVAR; v++)
    U[v * n2] = uf[v];
}

/* Face subcell f of side: its vector mv and position x, the two face subcell states (uR = 0 at a
 * boundary, bc >= 0). */
__device__ static __forceinline__ void face_subcell_load(const DevData &d, int side, int f, int bc,
                                                         double *uL, double *uR, double mv[3],
                                                         double x[3]) {
  const int n2 = d.n2;
  for (int c = 0; c < 3; c++) {
    mv[c] = d.fvg_face_mv[((size_t)side * 3 + c) * n2 + f];
    x[c] = d.fvg_face_x[((size_t)side * 3 + c) * n2 + f];
  }
  const double *UL = d.fvg_U_face + fvg_face_block(d, side, 0, HX_NVAR) + f;
  const double *UR = d.fvg_U_face + fvg_face_block(d, side, 1, HX_NVAR) + f;
  for (int v = 0; v < HX_NVAR; v++) {
    uL[v] = UL[v * n2];
    uR[v] = bc < 0 ? UR[v * n2] : 0.0;
  }
}

/* One thread per face subcell of the sides in [first, last) with an FV element: flux . n dS
 * (fvg_flux). */
__global__ static void subcell_flux_kernel(DevData d, DevPhysics ph, double c_stage, int first,
                                           int last) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (last - first) * d.n2 || !(d.sc->dt > 0.0)) return;
  const int side = first + gid / d.n2, f = gid % d.n2, n2 = d.n2;
  const int *info = d.side_info + 6 * side, bc = info[5];
  if (!fvg_side_fv(d, info, side)) return;
  double uL[HX_NVAR], uR[HX_NVAR], mv[3], x[3], F[HX_NVAR];
  face_subcell_load(d, side, f, bc, uL, uR, mv, x);
  const int bc_type = bc < 0 ? -1 : d.bc_info[2 * bc],
            bc_state = bc < 0 ? 0 : d.bc_info[2 * bc + 1];
  const double t = d.sc->t + c_stage * d.sc->dt;
  fvg_face_subcell_flux(d.riemann, d.riemann_bc, d.split, &ph.pp, &ph.ef, bc_type, bc_state, uL, uR,
                        mv, x, t, F);
  if (d.fvg_grad) { /* Navier-Stokes: fv_gauss_face_viscous_flux */
    const double *gm = d.fvg_grad + fvg_face_block(d, side, 0, HX_NGRAD) + f;
    const double *gs = d.fvg_grad + fvg_face_block(d, side, 1, HX_NGRAD) + f;
    double g[3][HX_NLIFT];
    fvg_face_gradient_mean(bc >= 0, gm, gs, n2, g);
    fvg_face_subcell_viscous(bc_type, bc_state, &ph.pp, &ph.ef, uL, uR, g, mv, x, t, F);
  }
  double *out = d.fvg_flux + (size_t)side * d.nvar * n2 + f;
  for (int v = 0; v < HX_NVAR; v++)
    out[v * n2] = F[v];
}

/* One thread per face point of the sides in [first, last) with an FV element: the DG form (the
 * polynomial with these subcell means) of nc per-side components of face subcell values sub
 * replaces those of dg there: the face fluxes (fvg_flux into d->flux) and the lifting values
 * (fvg_lift into lift_flux, fv_gauss_face_lifting's second loop). */
__global__ static void subcell_to_dg_kernel(DevData d, const double *sub, double *dg, int nc,
                                            int first, int last) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (last - first) * d.n2 || !(d.sc->dt > 0.0)) return;
  const int side = first + gid / d.n2, f = gid % d.n2, np = d.np;
  if (!fvg_side_fv(d, d.side_info + 6 * side, side)) return;
  const double *F = sub + (size_t)side * nc * d.n2;
  double *out = dg + (size_t)side * nc * d.n2 + f;
  for (int v = 0; v < nc; v++)
    out[v * d.n2] = fvg_face_mean(np, d.fv_to_dg, F + v * d.n2, 1, f % np, f / np);
}

/* One thread per face subcell of the sides in [first, last) with an FV element (Navier-Stokes):
 * the BR1 lifting face values w* n dS of the face subcell states into fvg_lift
 * (fv_gauss_face_lifting's first loop). */
__global__ static void lifting_subcell_kernel(DevData d, DevPhysics ph, double c_stage, int first,
                                              int last) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (last - first) * d.n2 || !(d.sc->dt > 0.0)) return;
  const int side = first + gid / d.n2, f = gid % d.n2, n2 = d.n2;
  const int *info = d.side_info + 6 * side, bc = info[5];
  if (!fvg_side_fv(d, info, side)) return;
  double uL[HX_NVAR], uR[HX_NVAR], mv[3], x[3], wn[HX_NGRAD];
  face_subcell_load(d, side, f, bc, uL, uR, mv, x);
  fvg_face_subcell_lifting(d.lifting_form, bc < 0 ? -1 : d.bc_info[2 * bc],
                           bc < 0 ? 0 : d.bc_info[2 * bc + 1], &ph.ef, &ph.pp, uL, uR, mv, x,
                           d.sc->t + c_stage * d.sc->dt, wn);
  double *out = d.fvg_lift + (size_t)side * HX_NGRAD * n2 + f;
  for (int k = 0; k < HX_NGRAD; k++)
    out[k * n2] = wn[k];
}

/* One thread per line of a direction of an FV element (Navier-Stokes, after the ghosts): the
 * slopes of the lifting variables at its np + 1 interfaces into fvg_slope (element_slopes of
 * fv_gauss_visc.c). */
__global__ static void slopes_kernel(DevData d, DevPhysics ph) {
  const int np = d.np, n2 = d.n2, n3 = d.n3;
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= d.n_elems * 3 * n2 || !(d.sc->dt > 0.0)) return;
  const int e = gid / (3 * n2), dir = (gid / n2) % 3, line = gid % n2;
  if (!d.fv_elems[e]) return;
  const int a = line / np, b = line % np; /* line = a np + b, fvg_line_of's numbering */
  const int base = dir == 0 ? (b * np + a) * np : dir == 1 ? b * n2 + a : b * np + a;
  const int stride = dir == 0 ? 1 : dir == 1 ? np : n2;
  const int lm = fvg_local_side(dir, 0), lp = fvg_local_side(dir, 1);
  const double *gh = d.fvg_ghost + (size_t)e * 6 * HX_NVAR * n2;
  const double *gd = d.fvg_ghost_dx + (size_t)e * 6 * n2;
  const size_t at = ((size_t)e * 3 + dir) * n3 + (size_t)line * np;
  double *sl = d.fvg_slope + (((size_t)e * 3 + dir) * HX_NLIFT * n2 + line) * (np + 1);
  fvg_line_lifting_slopes(&ph.pp, np, d.fvg_h, d.U + (size_t)e * d.nvar * n3, n3, base, stride,
                          gh + lm * HX_NVAR * n2 + line, gh + lp * HX_NVAR * n2 + line, n2,
                          gd[lm * n2 + line], gd[lp * n2 + line], d.fvg_dx_l[at],
                          d.fvg_dx_r[at + np - 1], sl, n2 * (np + 1));
}

/* Component k of a DG element's lifted gradient on its side at face point g (slot 0: master, 1:
 * slave): the lifting kernel's grad_face, else prolonged from the volume gradients (as the face
 * flux kernel reads them). */
__device__ static double dg_face_grad(const DevData &d, int side, int slot, int e, int ls, int flip,
                                      int k, int g) {
  if (d.grad_face) return d.grad_face[(((size_t)side * 2 + slot) * HX_NGRAD + k) * d.n2 + g];
  const double *q = d.grad + ((size_t)e * HX_NGRAD + k) * d.n3;
  return prolong_to_face_point(d.disc, q, d.s2v[(flip * 6 + ls) * d.n2 + g], ls);
}

/* FV element e's face gradients at the face subcells of its local side ls (flip: its orientation
 * on the side) into out, from its boundary subcells (face_gradients of fv_gauss_visc.c); the
 * block's threads over the face subcells. */
__device__ static void fv_face_gradients(const DevData &d, int e, int ls, int flip, double *out) {
  const int np = d.np, n2 = d.n2, n3 = d.n3;
  const double *es = d.fvg_slope + (size_t)e * 3 * HX_NLIFT * n2 * (np + 1);
  const double *sJ = d.fvg_sJ + (size_t)e * n3, *Ja = d.fvg_Ja + (size_t)e * 9 * n3;
  for (int f = threadIdx.x; f < n2; f += blockDim.x) {
    const int q = d.s2v[(flip * 6 + ls) * n2 + f];
    double g[3][HX_NLIFT];
    fvg_subcell_gradient(np, es, sJ, Ja, side_normal_dir(ls), q, q, side_is_plus(ls) ? np : 0, g);
    for (int c = 0; c < 3; c++)
      for (int v = 0; v < HX_NLIFT; v++)
        out[(c * HX_NLIFT + v) * n2 + f] = g[c][v];
  }
}

/* A DG element's face gradients into out: the face subcell means (fvg_face_mean's two passes) of
 * its lifted ones (dg_face_gradients of fv_gauss_visc.c). Each face value is read once: a thread
 * per component k and face line l (the np points q = l) takes the first pass along p into
 * rows[k n2 + l np + p] (shared), then a thread per output the second along q; each mean is
 * fvg_face_mean's sums in its order. */
__device__ static void dg_face_gradients(const DevData &d, int side, int slot, int e, int ls,
                                         int flip, double *rows, double *out) {
  const int np = d.np, n2 = d.n2;
  for (int i = threadIdx.x; i < HX_NGRAD * np; i += blockDim.x) {
    const int k = i / np, l = i % np;
    double line[HX_NPMAX];
    for (int m = 0; m < np; m++)
      line[m] = dg_face_grad(d, side, slot, e, ls, flip, k, l * np + m);
    for (int p = 0; p < np; p++)
      rows[k * n2 + l * np + p] = fvg_mean_pass(np, d.fv_to_fv, line, 1, p);
  }
  __syncthreads(); /* the second pass reads every line's */
  for (int i = threadIdx.x; i < HX_NGRAD * n2; i += blockDim.x) {
    const int k = i / n2, f = i % n2;
    out[i] = fvg_mean_pass(np, d.fv_to_fv, rows + k * n2 + f % np, np, f / np);
  }
}

/* One block per element slot of a side (slot 0: master, 1: slave) with an FV element
 * (Navier-Stokes, after the slopes and the lifting): the element's face gradients into its slot
 * of fvg_grad, an FV element's from its boundary subcells, a DG element's the face subcell means
 * of its lifted ones. Dynamic shared memory: HX_NGRAD n2 doubles. */
__global__ static void face_gradients_kernel(DevData d) {
  extern __shared__ double rows[];
  const int side = blockIdx.x / 2, slot = blockIdx.x % 2;
  if (!(d.sc->dt > 0.0)) return; /* each return: the whole block */
  const int *info = d.side_info + 6 * side;
  if (!fvg_side_fv(d, info, side)) return;
  const int e = info[2 * slot], ls = info[2 * slot + 1], flip = slot ? info[4] : 0;
  if (e < 0) return; /* a boundary side's slave, an MPI side's remote element */
  double *out = d.fvg_grad + fvg_face_block(d, side, slot, HX_NGRAD);
  if (d.fv_elems[e])
    fv_face_gradients(d, e, ls, flip, out);
  else
    dg_face_gradients(d, side, slot, e, ls, flip, rows, out);
}

/* One block per element, one thread per line of a direction: an FV element's Ut = its subcell
 * operator (fv_gauss_subcell_volume; VolInt left 0 R_DG there). The directions one after the
 * other, as on the CPU (each node's sum in the same order); the primitive subcell means in
 * fvg_prim. */
__global__ static void volume_kernel(DevData d, DevPhysics ph) {
  const int e = blockIdx.x, np = d.np, N = d.N, n2 = d.n2, n3 = d.n3;
  if (!d.fv_elems[e] || !(d.sc->dt > 0.0)) return; /* the whole block */
  const double *Ue = d.U + (size_t)e * d.nvar * n3;
  double *prim = d.fvg_prim + (size_t)e * HX_NPRIM * n3, *ut = d.Ut + (size_t)e * d.nvar * n3;
  for (int q = threadIdx.x; q < n3; q += blockDim.x) {
    double u[HX_NVAR], pr[HX_NPRIM];
    for (int v = 0; v < HX_NVAR; v++)
      u[v] = Ue[v * n3 + q];
    cons_to_prim(&ph.pp, u, pr);
    for (int v = 0; v < HX_NPRIM; v++)
      prim[v * n3 + q] = pr[v];
    for (int v = 0; v < HX_NVAR; v++)
      ut[v * n3 + q] = 0.0;
  }
  __syncthreads();
  const double *gh = d.fvg_ghost + (size_t)e * 6 * HX_NVAR * n2;
  const double *gd = d.fvg_ghost_dx + (size_t)e * 6 * n2;
  for (int dir = 0; dir < 3; dir++) {
    const int stride = dir == 0 ? 1 : dir == 1 ? np : n2;
    const int lm = fvg_local_side(dir, 0), lp = fvg_local_side(dir, 1);
    for (int l = threadIdx.x; l < n2; l += blockDim.x) {
      const int a = l / np, b = l % np, line = a * np + b;
      const int base = dir == 0 ? (b * np + a) * np : dir == 1 ? b * n2 + a : b * np + a;
      const size_t at = ((size_t)e * 3 + dir) * n3 + (size_t)line * np;
      /* the interfaces in fv_device_metrics' order: [elem][dir][m][b np + a][3] */
      const double *mv = d.fv_metrics + (((size_t)e * 3 + dir) * N * n2 + b * np + a) * 3;
      fvg_line_residual(d.riemann, d.split, d.fv_limiter, d.fv_line->sweby_beta, &ph.pp, np,
                        d.fv_line->inv_w, prim, n3, base, stride, gh + lm * HX_NVAR * n2 + line,
                        gh + lp * HX_NVAR * n2 + line, n2, gd[lm * n2 + line], gd[lp * n2 + line],
                        d.fvg_dx_l + at, d.fvg_dx_r + at, mv, 3 * n2, ut);
    }
    __syncthreads(); /* the next direction adds to the same nodes */
  }
  if (!d.fvg_slope) return; /* Navier-Stokes: fv_gauss_viscous_volume, after the advective part */
  const double *es = d.fvg_slope + (size_t)e * 3 * HX_NLIFT * n2 * (np + 1);
  const double *sJ = d.fvg_sJ + (size_t)e * n3, *Ja = d.fvg_Ja + (size_t)e * 9 * n3;
  for (int dir = 0; dir < 3; dir++) {
    const int stride = dir == 0 ? 1 : dir == 1 ? np : n2;
    for (int l = threadIdx.x; l < n2; l += blockDim.x) {
      const int a = l / np, b = l % np;
      const int base = dir == 0 ? (b * np + a) * np : dir == 1 ? b * n2 + a : b * np + a;
      const double *mv = d.fv_metrics + (((size_t)e * 3 + dir) * N * n2 + b * np + a) * 3;
      fvg_line_viscous(&ph.pp, np, es, sJ, Ja, d.fv_line->inv_w, prim, dir, base, stride, mv,
                       3 * n2, ut);
    }
    __syncthreads();
  }
}

static unsigned fvg_blocks(long n) {
  return (unsigned)((n + FVG_THREADS - 1) / FVG_THREADS);
}

/* Threads of a block whose threads loop over n items: the power of two >= n, 32 to 256. */
static int fvg_block_threads(int n) {
  int threads = 32;
  while (threads < n && threads < 256)
    threads *= 2;
  return threads;
}

int launch_fvg_side_states(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  if (!d->fvg_sJ || d->n_sides == 0) return HX_OK;
  const long n_face = (long)d->n_sides * d->n2;
  face_states_kernel<<<fvg_blocks(n_face), FVG_THREADS, 0, s>>>(*d, *ph);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_fvg_reconstruct(const DevData *d, const DevPhysics *ph, double c_stage, cudaStream_t s) {
  const long n_elem = (long)d->n_elems * 6 * d->n2;
  if (!d->fvg_sJ || d->n_sides == 0 || n_elem == 0) return HX_OK;
  elem_faces_kernel<<<fvg_blocks(n_elem), FVG_THREADS, 0, s>>>(*d, *ph, c_stage);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_fvg_face_states(const DevData *d, const DevPhysics *ph, double c_stage, cudaStream_t s) {
  HX_CHECK(launch_fvg_side_states(d, ph, s));
  return launch_fvg_reconstruct(d, ph, c_stage, s);
}

/* One thread per MPI side: FV_Elems of this rank's element into its half of fvg_side_fv. */
__global__ static void side_flags_kernel(DevData d) {
  const int side = d.first_mpi + blockIdx.x * blockDim.x + threadIdx.x;
  if (side >= d.n_sides) return;
  const int *info = d.side_info + 6 * side, slot = info[0] < 0; /* "yours": the slave is here */
  d.fvg_side_fv[(size_t)slot * d.n_sides + side] = d.fv_elems[info[2 * slot]] ? 1.0 : 0.0;
}

int launch_fvg_side_flags(const DevData *d, cudaStream_t s) {
  const long n = (long)d->n_sides - d->first_mpi;
  if (!d->fvg_side_fv || n <= 0) return HX_OK;
  side_flags_kernel<<<fvg_blocks(n), FVG_THREADS, 0, s>>>(*d);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_fvg_lifting(const DevData *d, const DevPhysics *ph, double c_stage, int first, int last,
                       cudaStream_t s) {
  const long n_face = (long)(last - first) * d->n2;
  if (!d->fvg_lift || n_face <= 0) return HX_OK;
  lifting_subcell_kernel<<<fvg_blocks(n_face), FVG_THREADS, 0, s>>>(*d, *ph, c_stage, first, last);
  CU_CHECK(cudaGetLastError());
  subcell_to_dg_kernel<<<fvg_blocks(n_face), FVG_THREADS, 0, s>>>(*d, d->fvg_lift, d->lift_flux,
                                                                  HX_NGRAD, first, last);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_fvg_gradients(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  if (!d->fvg_slope || d->n_sides == 0) return HX_OK;
  const long n_line = (long)d->n_elems * 3 * d->n2;
  if (n_line > 0) {
    slopes_kernel<<<fvg_blocks(n_line), FVG_THREADS, 0, s>>>(*d, *ph);
    CU_CHECK(cudaGetLastError());
  }
  face_gradients_kernel<<<2 * d->n_sides, fvg_block_threads(d->n2),
                          sizeof(double) * HX_NGRAD * d->n2, s>>>(*d);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_fvg_face_fluxes(const DevData *d, const DevPhysics *ph, double c_stage, int first,
                           int last, cudaStream_t s) {
  const long n_face = (long)(last - first) * d->n2;
  if (!d->fvg_sJ || n_face <= 0) return HX_OK;
  subcell_flux_kernel<<<fvg_blocks(n_face), FVG_THREADS, 0, s>>>(*d, *ph, c_stage, first, last);
  CU_CHECK(cudaGetLastError());
  subcell_to_dg_kernel<<<fvg_blocks(n_face), FVG_THREADS, 0, s>>>(*d, d->fvg_flux, d->flux,
                                                                  d->nvar, first, last);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_fvg_volume(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  if (!d->fvg_sJ || d->n_elems == 0) return HX_OK;
  volume_kernel<<<d->n_elems, fvg_block_threads(d->n2), 0, s>>>(*d, *ph);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

/* One array of FVGauss to the device (alloc: gpu_solver.cu's dev_alloc, which counts the bytes
 * for the bytes/DOF report); host NULL: a work array, zeroed. */
static int fvg_array(IndAlloc alloc, void *ctx, double **dev, size_t n, const double *host,
                     const char *what) {
  HX_CHECK(alloc(ctx, (void **)dev, sizeof(double) * (n ? n : 1), host, what));
  if (!host) CU_CHECK(cudaMemset(*dev, 0, sizeof(double) * (n ? n : 1)));
  return HX_OK;
}

int fvg_upload(DevData *d, const Solver *s, IndAlloc alloc, void *ctx) {
  const struct FVGauss *g = s->fv.gauss;
  if (!g) return HX_OK;
  const size_t n3 = s->n_dof_elem, n2 = s->n_dof_face, ne = s->mesh->n_elems;
  const size_t ns = s->mesh->n_sides;
  d->fvg_h = g->h;
  d->fvg_s_h = 1.0 / g->h;
  d->fvg_h3 = pow(g->h, 3); /* the subcell volume in reference space (node_volume_weight) */
  double *p = NULL;
  HX_CHECK(fvg_array(alloc, ctx, &p, ne * n3, g->sJ, "FV subcell Jacobians"));
  d->fvg_sJ = p;
  HX_CHECK(fvg_array(alloc, ctx, &p, ne * 9 * n3, g->Ja, "FV subcell metrics"));
  d->fvg_Ja = p;
  HX_CHECK(fvg_array(alloc, ctx, &p, ns * 3 * n2, g->face_mv, "FV face subcell normals"));
  d->fvg_face_mv = p;
  HX_CHECK(fvg_array(alloc, ctx, &p, ns * 3 * n2, g->face_x, "FV face subcell positions"));
  d->fvg_face_x = p;
  HX_CHECK(fvg_array(alloc, ctx, &p, ne * 3 * n3, g->dx_l, "FV subcell distances"));
  d->fvg_dx_l = p;
  HX_CHECK(fvg_array(alloc, ctx, &p, ne * 3 * n3, g->dx_r, "FV subcell distances"));
  d->fvg_dx_r = p;
  HX_CHECK(fvg_array(alloc, ctx, &p, ns * 2 * n2, g->dist_master, "FV face distances"));
  d->fvg_dist_master = p;
  HX_CHECK(fvg_array(alloc, ctx, &p, ns * 2 * n2, g->dist_slave, "FV face distances"));
  d->fvg_dist_slave = p;
  HX_CHECK(
      fvg_array(alloc, ctx, &d->fvg_U_face, ns * 2 * HX_NVAR * n2, NULL, "FV face subcell states"));
  HX_CHECK(fvg_array(alloc, ctx, &d->fvg_multi, ns * 2 * HX_NVAR * n2, NULL,
                     "FV face neighbour states"));
  HX_CHECK(fvg_array(alloc, ctx, &d->fvg_flux, ns * s->n_var * n2, NULL, "FV face fluxes"));
  HX_CHECK(fvg_array(alloc, ctx, &d->fvg_ghost, ne * 6 * HX_NVAR * n2, NULL, "FV ghost states"));
  HX_CHECK(fvg_array(alloc, ctx, &d->fvg_ghost_dx, ne * 6 * n2, NULL, "FV ghost distances"));
  HX_CHECK(fvg_array(alloc, ctx, &d->fvg_prim, ne * HX_NPRIM * n3, NULL, "FV primitive states"));
  if (par_size() > 1) /* the other ranks' FV_Elems on the MPI sides (gpu_mpi_fv.cu) */
    HX_CHECK(fvg_array(alloc, ctx, &d->fvg_side_fv, 2 * ns, NULL, "FV_Elems of the MPI sides"));
  if (!s->viscous) return HX_OK;
  /* Navier-Stokes (fv_gauss_visc.c) */
  HX_CHECK(fvg_array(alloc, ctx, &d->fvg_slope, ne * 3 * HX_NLIFT * n2 * (s->np + 1), NULL,
                     "FV slopes"));
  HX_CHECK(fvg_array(alloc, ctx, &d->fvg_grad, ns * 2 * HX_NGRAD * n2, NULL,
                     "FV face subcell gradients"));
  return fvg_array(alloc, ctx, &d->fvg_lift, ns * HX_NGRAD * n2, NULL,
                   "FV face subcell lifting values");
}
