/* The RK update of one node (SurfInt + ApplyJac + source + sponge + low-storage update) from its
 * volume term, shared by the update kernels (surfint_kernels.cu) and the fused weak-form volume
 * kernel (volint_kernels.cu). */
#ifndef HEXDG_GPU_UPDATE_NODE_CUH
#define HEXDG_GPU_UPDATE_NODE_CUH

#include "gpu/gpu_internal.cuh"

extern "C" {
#include "dg/faceops.h"
#include "dg/fv_gauss_pointwise.h"
#include "physics/eos.h"
#include "physics/mixture.h"
}

/* FV_PositivityLimiter: the minima of rho, p, -rho, -rho E of the updated nodes per element
 * (d.fv_minima) for the post-update kernel, which then reads U again only where a node may be
 * inadmissible. A warp reduces the nodes of each of its elements (consecutive lanes: butterfly
 * steps between lanes of the same element), the first lane of each element adds the result by
 * atomicMin. e < 0: a lane without node. Every lane of the warp must call it. */
__device__ static __forceinline__ void update_minima(const DevData &d, const PhysParams &pp,
                                                     int e, const double *u) {
  unsigned long long k[4] = {FV_KEY_NONE, FV_KEY_NONE, FV_KEY_NONE, FV_KEY_NONE};
  if (e >= 0) {
    k[0] = fv_key(u[DENS]);
    k[1] = fv_key(pressure_from_cons(&pp, u));
    k[2] = fv_key(-u[DENS]);
    k[3] = fv_key(-u[ENER]);
  }
  const int lane = threadIdx.x % 32;
  for (int off = 16; off > 0; off >>= 1) {
    const int e_other = __shfl_down_sync(0xffffffffu, e, off);
    for (int r = 0; r < 4; r++) {
      const unsigned long long o = __shfl_down_sync(0xffffffffu, k[r], off);
      if (lane + off < 32 && e_other == e && o < k[r]) k[r] = o;
    }
  }
  const int e_prev = __shfl_up_sync(0xffffffffu, e, 1);
  if (e >= 0 && (lane == 0 || e_prev != e))
    for (int r = 0; r < 4; r++) atomicMin(&d.fv_minima[4 * (size_t)e + r], k[r]);
}

/* FV switching on Gauss nodes: the surface term of node q of FV element e (fv_gauss_surface_end),
 * added to acc: on each element face it touches, the face subcell's flux over the subcell width
 * (the face subcell f whose boundary subcell is q: the CPU's map, searched). */
__device__ static __forceinline__ void fvg_surface_node(const DevData &d, int e, int q,
                                                        const int ijk[3], double *acc) {
  for (int ls = 0; ls < 6; ls++) {
    if (ijk[side_normal_dir(ls)] != (side_is_plus(ls) ? d.N : 0)) continue;
    const int side = d.elem_sides[2 * (6 * e + ls)], flip = d.elem_sides[2 * (6 * e + ls) + 1];
    const int *map = d.s2v + (flip * 6 + ls) * d.n2;
    int f = 0;
    while (f < d.n2 - 1 && map[f] != q)
      f++;
    const double *F = d.fvg_flux + (size_t)side * d.nvar * d.n2 + f;
    for (int v = 0; v < HX_NVAR; v++)
      acc[v] += fvg_surface_term(flip, d.fvg_s_h, F[v * d.n2]);
  }
}

/* The fused update kernels' PRE instance serves d (update_node_from below). */
static inline bool update_preload(const DevData *d) {
  return d->update_preload && !d->has_source;
}

/* One node's update; returns its new state in u_new. NV: the number of variables (HX_NVAR for
 * air; 0: d.nvar, the mixture's 5 + species). backup: first stage of a step whose state
 * passed the check (dt > 0): the state before the update goes to U_good (shock capturing).
 * FVG: FV switching on Gauss nodes (d.fvg_sJ set): an FV element's node is a subcell, with the
 * face subcell fluxes and the subcell's Jacobian. */
template <int NV, bool FVG = false, bool SURF = true, bool PRE = false>
__device__ static __forceinline__ void
update_node_from(const DevData &d, const DevPhysics &ph, double a, double b, double c_stage,
                 double dt, bool backup, size_t gid, int e, double *acc, double *u_new,
                 const double *faces = nullptr);

template <int NV, bool FVG = false>
__device__ static __forceinline__ void update_node(const DevData &d, const DevPhysics &ph, double a,
                                                   double b, double c_stage, double dt, bool backup,
                                                   size_t gid, int e, double *u_new) {
  const int q = (int)(gid - (size_t)e * d.n3);
  const double *ut = d.Ut + (size_t)e * d.nvar * d.n3 + q;
  const int nv = NV ? NV : d.nvar;
  double acc[NV ? NV : HX_NVAR_MAX];
  for (int v = 0; v < nv; v++) acc[v] = ut[v * d.n3];
  update_node_from<NV, FVG>(d, ph, a, b, c_stage, dt, backup, gid, e, acc, u_new);
}

/* An element kernel's thread: its element in the block (le) and in the mesh (e), its place in the
 * element (lt); whether it has an element (blocks of elems_per_block x threads_per_elem). */
__device__ static __forceinline__ bool elem_thread(const DevData &d, int elems_per_block,
                                                   int threads_per_elem, int *le, int *lt, int *e) {
  *le = threadIdx.x / threads_per_elem;
  *lt = threadIdx.x - *le * threads_per_elem;
  *e = blockIdx.x * elems_per_block + *le;
  return *le < elems_per_block && *e < d.n_elems;
}

/* The face fluxes at both ends of the lines of element e, with the master-to-slave sign, into
 * its face region faces [dir][end][var][np^2] (line_end_face_point; line: 0 .. 3 np^2 - 1, the
 * lines of direction dir = line / np^2): each line's thread gathers 2 x 5 values for the np nodes
 * of the line, which then read them from shared memory (update_node_from). */
__device__ static __forceinline__ void gather_line_face_fluxes(const DevData &d, int e, int line,
                                                               double *faces) {
  const int n2 = d.n2, dir = line / n2, l = line - dir * n2;
#pragma unroll
  for (int end = 0; end < 2; end++) {
    int side, flip, f;
    line_end_face_point(d, e, dir, l, end, &side, &flip, &f);
    const double sign = flip == 0 ? 1.0 : -1.0;
    const double *F = d.flux + (size_t)side * d.nvar * n2 + f;
    double *o = faces + (dir * 2 + end) * HX_NVAR * n2 + l;
#pragma unroll
    for (int v = 0; v < HX_NVAR; v++) o[v * n2] = sign * F[v * n2];
  }
}

/* The update of one node from its advective volume term acc (overwritten). faces: its element's
 * face fluxes from gather_line_face_fluxes (air only); NULL: each node gathers its own. SURF =
 * false: acc holds the surface terms already (the weak line updates). PRE (NV > 0, no source
 * term; update_preload): the node's state and RK register are loaded together before the update
 * loop, so that their latencies overlap; loaded in the update loop, each load follows the stores
 * of the variable before (U and k may alias for the compiler) and waits for them. (With the
 * source term's sines ptxas moved the loads above their calls and spilled.) */
template <int NV, bool FVG, bool SURF, bool PRE>
__device__ static __forceinline__ void
update_node_from(const DevData &d, const DevPhysics &ph, double a, double b, double c_stage,
                 double dt, bool backup, size_t gid, int e, double *acc, double *u_new,
                 const double *faces) {
  const int q = (int)(gid - (size_t)e * d.n3);
  const int np = d.np, N = d.N;
  int ijk[3] = {q % np, (q / np) % np, q / (np * np)};
  const Disc *disc = d.disc;
  const int nv = NV ? NV : d.nvar;
  static_assert(!PRE || NV > 0, "PRE: the number of variables at compile time");
  constexpr int NR = PRE ? NV : 1;
  const bool fv_elem = FVG && d.fv_elems[e];
  /* the lifting kernel's viscous volume term; an FV element's viscous fluxes are its subcells'
     (fv_gauss_kernels.cu volume_kernel), as lifting.c leaves it out there */
  if (d.viscous && !fv_elem) {
    const double *uv = d.Ut_visc + (size_t)e * d.nvar * d.n3 + q;
    for (int v = 0; v < nv; v++) acc[v] = uv[v * d.n3] + acc[v];
  }
  if (fv_elem) fvg_surface_node(d, e, q, ijk, acc);
  if (SURF && faces) { /* the same terms in the same order as below */
    const int line[3] = {ijk[1] + np * ijk[2], ijk[0] + np * ijk[2], ijk[0] + np * ijk[1]};
    for (int ls = 0; ls < 6; ls++) {
      const int dir = side_normal_dir(ls);
      double w = surface_weight(disc, ls, ijk[dir]);
      if (w == 0.0) continue;
      const double *F = faces + (dir * 2 + side_is_plus(ls)) * HX_NVAR * d.n2 + line[dir];
      for (int v = 0; v < HX_NVAR; v++) acc[v] += w * F[v * d.n2];
    }
  }
  for (int ls = 0; ls < 6 && SURF && !fv_elem && !faces; ls++) {
    double w = surface_weight(disc, ls, ijk[side_normal_dir(ls)]);
    if (w == 0.0) continue;
    int side = d.elem_sides[2 * (6 * e + ls)], flip = d.elem_sides[2 * (6 * e + ls) + 1];
    int ps, qs, p, qq;
    volume_to_side(N, ls, ijk[0], ijk[1], ijk[2], &ps, &qs);
    flip_master_to_slave(flip, N, ps, qs, &p, &qq); /* flips are involutions */
    double sign = flip == 0 ? 1.0 : -1.0;
    const double *F = d.flux + (size_t)side * d.nvar * d.n2 + qq * np + p;
    for (int v = 0; v < nv; v++) {
      double fl = sign * F[v * d.n2];
      acc[v] += w * fl;
    }
  }
  double sJ = fv_elem ? d.fvg_sJ[gid] : node_sJ(d, e, q),
         S[NV ? NV : HX_NVAR_MAX] = {0.0, 0.0, 0.0, 0.0, 0.0};
  /* the manufactured solutions with a source are air cases (PRE: none) */
  if (!PRE && NV == HX_NVAR && d.has_source) {
    const double *x = d.elem_x + (size_t)e * 3 * d.n3 + q;
    double xq[3] = {x[0], x[d.n3], x[2 * d.n3]};
    exact_source(&ph.ef, &ph.pp, xq, d.sc->t + c_stage * dt, S);
  }
  double *U = d.U + (size_t)e * d.nvar * d.n3 + q, *k = d.k + (size_t)e * d.nvar * d.n3 + q;
  double u_old[NR], k_old[NR];
  if (PRE)
#pragma unroll
    for (int v = 0; v < NR; v++) {
      u_old[v] = U[v * d.n3];
      k_old[v] = k[v * d.n3];
    }
  double sig = d.sponge ? d.sponge[gid] : 0.0;
  const double *base = NULL; /* per-node base flow (SpongeBaseFlow 2-4); NULL: constant or none */
  if (d.sponge_base_U && d.sponge_elem[e] >= 0)
    base = d.sponge_base_U + (size_t)d.sponge_elem[e] * d.nvar * d.n3 + q;
  if (backup) {
    double *good = d.U_good + (size_t)e * d.nvar * d.n3 + q;
    for (int v = 0; v < nv; v++)
      good[v * d.n3] = PRE ? u_old[v < NR ? v : 0] : U[v * d.n3];
  }
  for (int v = 0; v < nv; v++) {
    const double uo = PRE ? u_old[v < NR ? v : 0] : U[v * d.n3];
    const double ko = PRE ? k_old[v < NR ? v : 0] : k[v * d.n3];
    double u_t = acc[v] * -sJ;
    /* sig = 0 outside the sponge elements, where a mixture has no base (sponge_base is air's) */
    if (d.sponge && sig != 0.0) u_t -= sig * (uo - (base ? base[v * d.n3] : d.sponge_base[v]));
    u_t += S[v];
    double kv = a * ko + dt * u_t;
    k[v * d.n3] = kv;
    u_new[v] = uo + b * kv;
    U[v * d.n3] = u_new[v];
  }
}

/* The fused VolInt + update kernels (KG/PI: surfint_kernels.cu, weak form: volint_kernels.cu)
 * hold the volume terms of at most this many nodes per thread across the wait of a dependent
 * launch; a degree whose elements need more passes is not fused. */
#define FUSED_UPDATE_PASSES 2

#endif
