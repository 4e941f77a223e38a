/* Species transport on the device: the viscous terms of the multicomponent Navier-Stokes
 * equations (reacting flow with mu0 > 0), the twin of the CPU's mixture path in
 * src/dg/lifting.c (face_lifting_point_mix, lifting_variables_element_mix,
 * viscous_volume_element_mix), src/dg/fillflux.c (subtract_viscous_flux_mix) and
 * src/time/timedisc.c (the viscous time-step coefficient). Every formula is a shared HD function
 * of physics/navierstokes_mix.h (mixture viscosity, Fourier flux with cp_mix / Pr, Fick diffusion
 * with SpeciesLewis / SpeciesSchmidt, correction velocity, enthalpy flux), navierstokes.h (BR1
 * face values, stress) and mixture_bc.h (boundary states); the node states come from P
 * (mix_kernels.cu: rho, u, v, w, p, Y_k, T, c of every node, current after every change of U).
 *
 * BR1 of the n_lift = 4 + ns variables w = (u, v, w, T, Y_0 .. Y_ns-1), per RK stage on the side
 * stream before and after the advective face fluxes:
 *   face lifting  one thread per face point: w of both sides (Gauss-Lobatto: the nodes' P; Gauss
 *                 nodes and boundaries: the prolonged U, the Newton iteration for T from the
 *                 master's adjacent node), the boundary's lifting value (mix_bc_lifting_value),
 *                 br1_face_value_n into lift_flux [side][n_lift][n2] (the lifting kernel
 *                 multiplies by n_c s, as the CPU stores it: a third of the traffic);
 *   lifting       one block per element, one thread per node: w of the element's nodes (from P)
 *                 in shared memory, the gradients (weak, strong or strong conservative volume
 *                 term + the gathered face values, times 1/J) into grad [elem][3][n_lift][n3];
 *                 then per direction the contravariant viscous fluxes Fv . Ja^d of every node in
 *                 shared memory and their divergence (weak form, or the mean (g_i + g_l)/2 of
 *                 the split form's standard-DG part) into Ut_visc, which the surface update adds
 *                 to VolInt's Ut (unblended, as the CPU keeps it out of the FV blending). On
 *                 Gauss-Lobatto nodes the face points are nodes: a node on a face also writes
 *                 its viscous flux Fv . n through it (the side's normal, the master's or the
 *                 slave's half of mix_face_visc), so that the face kernel needs neither the
 *                 gradients nor a second evaluation of the transport coefficients there, and the
 *                 gradients go to grad only where a face kernel reads them (boundary faces);
 *   viscous face  one thread per face point, after the advective face flux: the mean of both
 *                 sides' viscous fluxes (Gauss-Lobatto: from mix_face_visc; Gauss nodes: with
 *                 each side's gradients prolonged from grad), on boundaries mix_bc_viscous_flux
 *                 of the outer state with the inner gradients, subtracted from d.flux (times the
 *                 surface element);
 *   time step     the DFL maximum from P (mix_viscous_spectral_coeff) beside the CFL maximum.
 * One GPU rank (several ranks are refused at set-up). */
#include "gpu/gpu_internal.cuh"

extern "C" {
#include "dg/faceops.h"
#include "physics/mixture_bc.h"
#include "physics/navierstokes_mix.h"
}

#define MV_THREADS 128

/* The primitive state (rho, u, v, w, p, T) and the mass fractions of node q of element e, as P
 * holds them. */
__device__ static inline void mv_node_prim(const DevData &d, int ns, int e, int q, double *pr,
                                           double *Y) {
  const size_t n3 = d.n3;
  const double *p = d.P + (size_t)e * MIX_NP(ns) * n3 + q;
  for (int v = 0; v < 5; v++) pr[v] = p[v * n3];
  pr[TEMP] = p[MIX_T(ns) * n3];
  for (int k = 0; k < ns; k++) Y[k] = p[(5 + k) * n3];
}

/* The last temperature of node q of element e: the Newton guess of its face points. */
__device__ static inline double mv_node_T(const DevData &d, int ns, int e, int q) {
  return d.P[((size_t)e * MIX_NP(ns) + MIX_T(ns)) * d.n3 + q];
}

/* U of element elem (nvar values) at the face point of locside whose adjacent node is node0. */
__device__ static inline void mv_prolong_U(const DevData &d, int elem, int locside, int node0,
                                           double *u) {
  const double *Ue = d.U + (size_t)elem * d.nvar * d.n3;
  for (int v = 0; v < d.nvar; v++)
    u[v] = prolong_to_face_point(d.disc, Ue + (size_t)v * d.n3, node0, locside);
}

/* The state (prim, Y) of element elem at a face point: the node's P on Gauss-Lobatto nodes, else
 * the prolonged U with the Newton iteration from T_guess (mix_transport_state, as the CPU). */
__device__ static inline void mv_face_state(const DevData &d, int ns, int elem, int locside,
                                            int node0, double T_guess, double *pr, double *Y) {
  if (d.node_type == NODE_GAUSS_LOBATTO) {
    mv_node_prim(d, ns, elem, node0, pr, Y);
    return;
  }
  double u[HX_NVAR_MAX];
  mv_prolong_U(d, elem, locside, node0, u);
  pr[TEMP] = T_guess;
  mix_transport_state(d.mech, u, pr, Y);
}

/* Gradients g[3][n_lift] of element elem at a face point (the volume gradients prolonged). */
template <int NLA>
__device__ static inline void mv_face_grad(const DevData &d, int nl, int elem, int locside,
                                           int node0, double g[3][NLA]) {
  const double *q = d.grad + (size_t)elem * 3 * nl * d.n3;
  for (int c = 0; c < 3; c++)
    for (int v = 0; v < nl; v++)
      g[c][v] = prolong_to_face_point(d.disc, q + (size_t)(c * nl + v) * d.n3, node0, locside);
}

/* ------------------------------------------------------------------ face lifting */

/* FAST: the inner sides on Gauss-Lobatto nodes alone (both states from P: a light kernel);
 * otherwise every other side (boundaries, Gauss nodes: the Newton iterations, the outer states). */
template <int NS, bool FAST>
__global__ static void mix_face_lifting_kernel(DevData d, DevPhysics ph, double c_stage,
                                               int first, int last) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (last - first) * d.n2 || d.sc->dt < 0.0) return;
  constexpr int NSA = NS ? NS : HX_MAX_SPECIES, NLA = HX_NLIFT + NSA;
  const int side = first + gid / d.n2, f = gid % d.n2, ns = NS ? NS : d.n_species;
  const int nl = HX_NLIFT + ns;
  const int *info = d.side_info + 6 * side;
  const int node0 = d.s2v[info[1] * d.n2 + f], bc = info[5];
  if (FAST != (d.node_type == NODE_GAUSS_LOBATTO && bc < 0)) return;
  const double T_guess = FAST ? 0.0 : mv_node_T(d, ns, info[0], node0);
  double pL[HX_NPRIM], pR[HX_NPRIM], YL[NSA], YR[NSA], wL[NLA], wR[NLA], wf[NLA];
  const int node1 = bc < 0 ? d.s2v[(info[4] * 6 + info[3]) * d.n2 + f] : -1;
  if (FAST) {
    mv_node_prim(d, ns, info[0], node0, pL, YL);
    mv_node_prim(d, ns, info[2], node1, pR, YR);
  } else {
    mv_face_state(d, ns, info[0], info[1], node0, T_guess, pL, YL);
  }
  mix_lifting_variables(ns, pL, YL, wL);
  if (FAST) {
    mix_lifting_variables(ns, pR, YR, wR);
  } else if (bc < 0) {
    mv_face_state(d, ns, info[2], info[3], node1, T_guess, pR, YR);
    mix_lifting_variables(ns, pR, YR, wR);
  } else {
    double uL[HX_NVAR + NSA], uR[HX_NVAR + NSA], x[3], n[3], wo[NLA];
    for (int c = 0; c < 3; c++) {
      x[c] = d.face_x[((size_t)side * 3 + c) * d.n2 + f];
      n[c] = d.face_nvec[((size_t)side * 3 + c) * d.n2 + f];
    }
    mv_prolong_U(d, info[0], info[1], node0, uL);
    mix_bc_outer_state(d.mech, &ph.ef, d.ref_U, d.bc_info[2 * bc], d.bc_info[2 * bc + 1], T_guess,
                       uL, n, x, d.sc->t + c_stage * d.sc->dt, uR);
    pR[TEMP] = T_guess;
    mix_transport_state(d.mech, uR, pR, YR);
    mix_lifting_variables(ns, pR, YR, wo);
    mix_bc_lifting_value(d.bc_info[2 * bc], nl, wL, wo, wR);
  }
  br1_face_value_n(d.lifting_form, bc >= 0, nl, wL, wR, wf);
  double *out = d.lift_flux + (size_t)side * nl * d.n2 + f;
  for (int v = 0; v < nl; v++) out[(size_t)v * d.n2] = wf[v];
}

/* ------------------------------------------------------------------ lifting + viscous volume */

/* One block per element, one thread per node (n3 <= 512). Shared memory: n3 (5 + ns) doubles,
 * first the lifting variables [n_lift][n3], then the contravariant viscous fluxes of one
 * direction [nvar][n3]. Same arithmetic as lifting_volume_gradients, surface_integral_vars_signed
 * and viscous_volume_divergence of src/dg/lifting.c. */
template <int NS>
__global__ static void __launch_bounds__(512) mix_lifting_kernel(DevData d, DevPhysics ph) {
  extern __shared__ double smem[];
  constexpr int NSA = NS ? NS : HX_MAX_SPECIES, NLA = HX_NLIFT + NSA, NVA = HX_NVAR + NSA;
  const int ns = NS ? NS : d.n_species, nl = HX_NLIFT + ns, nv = HX_NVAR + ns;
  const int e = blockIdx.x, n = threadIdx.x, np = d.np, n3 = d.n3;
  const bool node = n < n3 && !(d.sc->dt < 0.0); /* dt < 0: inadmissible state */
  const int idx[3] = {n % np, (n / np) % np, n / (np * np)};
  double pr[HX_NPRIM], Y[NSA];
  if (node) {
    double w[NLA];
    mv_node_prim(d, ns, e, n, pr, Y);
    mix_lifting_variables(ns, pr, Y, w);
    for (int v = 0; v < nl; v++) smem[v * n3 + n] = w[v];
  }
  __syncthreads();
  double q[3][NLA];
  const double *Ja = d.metrics + (size_t)e * 9 * n3;
  if (node) {
    const int form = d.lifting_form;
    const double *Dm = form == LIFT_WEAK ? d.disc->Dhat : d.disc->D;
    if (form == LIFT_STRONG) {
      for (int c = 0; c < 3; c++)
        for (int v = 0; v < nl; v++) q[c][v] = 0.0;
      for (int dir = 0; dir < 3; dir++) { /* reference derivative, then the node's metrics */
        const int stride = dir == 0 ? 1 : dir == 1 ? np : np * np, base = n - idx[dir] * stride;
        const double jc[3] = {Ja[(dir * 3) * n3 + n], Ja[(dir * 3 + 1) * n3 + n],
                              Ja[(dir * 3 + 2) * n3 + n]};
        for (int v = 0; v < nl; v++) {
          double dw = 0.0;
          for (int l = 0; l < np; l++) dw += Dm[idx[dir] * np + l] * smem[v * n3 + base + l * stride];
          for (int c = 0; c < 3; c++) q[c][v] += jc[c] * dw;
        }
      }
    } else {
      for (int c = 0; c < 3; c++)
        for (int v = 0; v < nl; v++) {
          const double w0 = form == LIFT_STRONG_CONS ? smem[v * n3 + n] : 0.0;
          double acc = 0.0;
          for (int dir = 0; dir < 3; dir++) {
            const int stride = dir == 0 ? 1 : dir == 1 ? np : np * np, base = n - idx[dir] * stride;
            const double *Jdc = Ja + (dir * 3 + c) * n3;
            for (int l = 0; l < np; l++) {
              const int nl_ = base + l * stride;
              acc += Dm[idx[dir] * np + l] * Jdc[nl_] * (smem[v * n3 + nl_] - w0);
            }
          }
          q[c][v] = acc;
        }
    }
    /* surface part: the face values w* times n_c s of the six sides (strong forms: the same
     * sign on both sides), then 1/J */
    for (int ls = 0; ls < 6; ls++) {
      const double w = surface_weight(d.disc, ls, idx[side_normal_dir(ls)]);
      if (w == 0.0) continue;
      const int side = d.elem_sides[2 * (6 * e + ls)], flip = d.elem_sides[2 * (6 * e + ls) + 1];
      int ps, qs, p, qq;
      volume_to_side(d.N, ls, idx[0], idx[1], idx[2], &ps, &qs);
      flip_master_to_slave(flip, d.N, ps, qs, &p, &qq);
      const double sign = flip == 0 || form != LIFT_WEAK ? 1.0 : -1.0;
      const int fp = qq * np + p;
      const double *L = d.lift_flux + (size_t)side * nl * d.n2 + fp;
      const double sf = d.face_surf[(size_t)side * d.n2 + fp];
      for (int c = 0; c < 3; c++) {
        const double nc = d.face_nvec[((size_t)side * 3 + c) * d.n2 + fp] * sf;
        for (int v = 0; v < nl; v++) q[c][v] += w * (sign * (L[(size_t)v * d.n2] * nc));
      }
    }
    const double sJ = d.sJ[(size_t)e * n3 + n];
    for (int c = 0; c < 3; c++)
      for (int v = 0; v < nl; v++) q[c][v] *= sJ;
  }
  /* the node's transport coefficients and stress */
  double h[NSA], tau[9], cond[3], lambda = 0.0, mu = 0.0;
  if (node) {
    mu = mix_transport_point(&ph.pp, d.mech, pr, Y, &lambda, h);
    viscous_stress_with(mu, lambda, q[0], q[1], q[2], tau, cond);
    bool store_grad = d.mix_face_visc == NULL; /* Gauss nodes: the face kernel prolongs grad */
    if (d.mix_face_visc) /* Gauss-Lobatto: Fv . n at the node's face points */
      for (int ls = 0; ls < 6; ls++) {
        if (idx[side_normal_dir(ls)] != (side_is_plus(ls) ? d.N : 0)) continue;
        const int side = d.elem_sides[2 * (6 * e + ls)], flip = d.elem_sides[2 * (6 * e + ls) + 1];
        int ps, qs, p, qq;
        volume_to_side(d.N, ls, idx[0], idx[1], idx[2], &ps, &qs);
        flip_master_to_slave(flip, d.N, ps, qs, &p, &qq);
        const int fp = qq * np + p;
        double nf[3], F[NVA];
        for (int c = 0; c < 3; c++) nf[c] = d.face_nvec[((size_t)side * 3 + c) * d.n2 + fp];
        mix_viscous_flux_from_stress(ns, d.mix_tr, mu, pr, Y, h, tau, cond, q[0], q[1], q[2], nf,
                                     F);
        double *o = d.mix_face_visc + ((size_t)side * 2 + (flip != 0)) * nv * d.n2 + fp;
        for (int v = 0; v < nv; v++) o[(size_t)v * d.n2] = F[v];
        store_grad |= d.side_info[6 * side + 5] >= 0;
      }
    if (store_grad) {
      double *qg = d.grad + (size_t)e * 3 * nl * n3 + n;
      for (int c = 0; c < 3; c++)
        for (int v = 0; v < nl; v++) qg[(size_t)(c * nl + v) * n3] = q[c][v];
    }
  }
  __syncthreads(); /* every gradient is done: the shared region now takes the viscous fluxes */
  const double *Dv = d.disc->Dvol;
  const bool split = d.split != SPLIT_NONE;
  double acc[NVA];
  for (int v = 0; v < nv; v++) acc[v] = 0.0;
  for (int dir = 0; dir < 3; dir++) {
    if (node) {
      const double Jad[3] = {Ja[(dir * 3) * n3 + n], Ja[(dir * 3 + 1) * n3 + n],
                             Ja[(dir * 3 + 2) * n3 + n]};
      double F[NVA];
      mix_viscous_flux_from_stress(ns, d.mix_tr, mu, pr, Y, h, tau, cond, q[0], q[1], q[2], Jad,
                                   F);
      for (int v = 0; v < nv; v++) smem[v * n3 + n] = F[v];
    }
    __syncthreads();
    if (node) {
      const int stride = dir == 0 ? 1 : dir == 1 ? np : np * np, base = n - idx[dir] * stride;
      for (int v = 0; v < nv; v++) {
        const double *g = smem + v * n3;
        for (int l = 0; l < np; l++) {
          const double G = split ? 0.5 * (g[n] + g[base + l * stride]) : g[base + l * stride];
          acc[v] += Dv[idx[dir] * np + l] * G;
        }
      }
    }
    __syncthreads();
  }
  if (!node) return;
  double *ut = d.Ut_visc + (size_t)e * nv * n3 + n;
  for (int v = 0; v < nv; v++) ut[(size_t)v * n3] = -acc[v];
}

/* ------------------------------------------------------------------ viscous face flux */

/* BR1: flux -= s (Fv(L) + Fv(R)) / 2 with each side's gradients; boundaries: flux -= s Fv_bc of
 * the outer state with the inner gradients (subtract_viscous_flux_mix of src/dg/fillflux.c). */
/* FAST: the inner sides on Gauss-Lobatto nodes alone (mix_face_visc); otherwise the others. */
template <int NS, bool FAST>
__global__ static void mix_visc_face_kernel(DevData d, DevPhysics ph, double c_stage, int first,
                                            int last) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= (last - first) * d.n2 || !(d.sc->dt > 0.0)) return;
  constexpr int NSA = NS ? NS : HX_MAX_SPECIES, NLA = HX_NLIFT + NSA, NVA = HX_NVAR + NSA;
  const int side = first + gid / d.n2, f = gid % d.n2, ns = NS ? NS : d.n_species;
  const int nl = HX_NLIFT + ns, nv = HX_NVAR + ns;
  const int *info = d.side_info + 6 * side;
  const int node0 = d.s2v[info[1] * d.n2 + f], bc = info[5];
  if (FAST != (d.mix_face_visc && bc < 0)) return;
  const double sf = d.face_surf[(size_t)side * d.n2 + f];
  double *out = d.flux + (size_t)side * nv * d.n2 + f;
  if (FAST) { /* both sides' Fv . n from the lifting kernel */
    const double *L = d.mix_face_visc + (size_t)side * 2 * nv * d.n2 + f, *R = L + nv * d.n2;
    for (int v = 0; v < nv; v++)
      out[(size_t)v * d.n2] -= (0.5 * L[(size_t)v * d.n2] + 0.5 * R[(size_t)v * d.n2]) * sf;
    return;
  }
  const double T_guess = mv_node_T(d, ns, info[0], node0);
  double n[3], g[3][NLA], pr[HX_NPRIM], Y[NSA], Fv[NVA], F[NVA];
  for (int c = 0; c < 3; c++) n[c] = d.face_nvec[((size_t)side * 3 + c) * d.n2 + f];
  mv_face_grad<NLA>(d, nl, info[0], info[1], node0, g);
  if (bc >= 0) {
    double uL[HX_NVAR + NSA], uR[HX_NVAR + NSA], x[3];
    for (int c = 0; c < 3; c++) x[c] = d.face_x[((size_t)side * 3 + c) * d.n2 + f];
    mv_prolong_U(d, info[0], info[1], node0, uL);
    mix_bc_outer_state(d.mech, &ph.ef, d.ref_U, d.bc_info[2 * bc], d.bc_info[2 * bc + 1], T_guess,
                       uL, n, x, d.sc->t + c_stage * d.sc->dt, uR);
    double prL[HX_NPRIM], YL[NSA];
    pr[TEMP] = prL[TEMP] = T_guess;
    mix_transport_state(d.mech, uR, pr, Y);
    mix_transport_state(d.mech, uL, prL, YL);
    mix_bc_viscous_flux(d.bc_info[2 * bc], &ph.pp, d.mech, d.mix_tr, prL, YL, pr, Y, g[0], g[1],
                        g[2], n, Fv);
    for (int v = 0; v < nv; v++) F[v] = Fv[v];
  } else {
    mv_face_state(d, ns, info[0], info[1], node0, T_guess, pr, Y);
    mix_viscous_flux_normal(&ph.pp, d.mech, d.mix_tr, pr, Y, g[0], g[1], g[2], n, Fv);
    for (int v = 0; v < nv; v++) F[v] = 0.5 * Fv[v];
    const int node1 = d.s2v[(info[4] * 6 + info[3]) * d.n2 + f];
    mv_face_grad<NLA>(d, nl, info[2], info[3], node1, g);
    mv_face_state(d, ns, info[2], info[3], node1, T_guess, pr, Y);
    mix_viscous_flux_normal(&ph.pp, d.mech, d.mix_tr, pr, Y, g[0], g[1], g[2], n, Fv);
    for (int v = 0; v < nv; v++) F[v] += 0.5 * Fv[v];
  }
  for (int v = 0; v < nv; v++) out[(size_t)v * d.n2] -= F[v] * sf;
}

/* ------------------------------------------------------------------ viscous time step */

/* One block per element: per direction the maximum over the nodes of the viscous spectral radius
 * coeff (sJ |Ja^d|)^2 (element_max_lambda of src/time/timedisc.c), summed; order-independent max
 * over the elements. Inadmissible nodes are left to the CFL kernel (it flags them). */
__global__ static void mix_visc_lambda_kernel(DevData d, DevPhysics ph) {
  __shared__ double red[3][MV_THREADS];
  const int e = blockIdx.x, ns = d.n_species, n3 = d.n3;
  double m[3] = {0.0, 0.0, 0.0};
  const double *Pe = d.P + (size_t)e * MIX_NP(ns) * n3;
  for (int q = threadIdx.x; q < n3; q += blockDim.x) {
    double pr[HX_NPRIM];
    pr[PDENS] = Pe[q];
    pr[PRES] = Pe[(size_t)PRES * n3 + q];
    pr[TEMP] = Pe[(size_t)MIX_T(ns) * n3 + q];
    const double c = Pe[(size_t)MIX_C(ns) * n3 + q];
    if (!(pr[PDENS] > 0.0) || !(pr[PRES] > 0.0) || !(c > 0.0)) continue;
    const double coeff = mix_viscous_spectral_coeff(&ph.pp, d.mix_tr, pr, c);
    const double sJ = d.sJ[(size_t)e * n3 + q];
    for (int dir = 0; dir < 3; dir++) {
      const double *Ja = d.metrics + ((size_t)e * 9 + dir * 3) * n3 + q;
      const double m0 = Ja[0], m1 = Ja[n3], m2 = Ja[2 * n3];
      const double mn = sqrt(m0 * m0 + m1 * m1 + m2 * m2);
      const double lv = coeff * (sJ * mn) * (sJ * mn);
      if (lv != lv) {
        atomicOr(&d.sc->bad, 1);
        atomicMax(&d.sc->bad_elem, e + 1);
      } else
        m[dir] = fmax(m[dir], lv);
    }
  }
  for (int k = 0; k < 3; k++) red[k][threadIdx.x] = m[k];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      for (int k = 0; k < 3; k++) red[k][threadIdx.x] = fmax(red[k][threadIdx.x], red[k][threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    const double lvsum = red[0][0] + red[1][0] + (d.dims == 3 ? red[2][0] : 0.0); /* Dimension */
    atomicMax(&d.sc->lvmax_bits, (unsigned long long)__double_as_longlong(lvsum));
  }
}

/* ------------------------------------------------------------------ launchers */

int launch_mix_face_lifting(const DevData *d, const DevPhysics *ph, double c_stage, int first,
                            int last, cudaStream_t s) {
  const int n = (last - first) * d->n2;
  if (n <= 0) return HX_OK;
  const unsigned blocks = (n + MV_THREADS - 1) / MV_THREADS;
  const bool fast = d->node_type == NODE_GAUSS_LOBATTO;
#define MV_FACE_LIFT(NS)                                                                           \
  do {                                                                                             \
    if (fast)                                                                                      \
      mix_face_lifting_kernel<NS, true><<<blocks, MV_THREADS, 0, s>>>(*d, *ph, c_stage, first,    \
                                                                      last);                      \
    mix_face_lifting_kernel<NS, false><<<blocks, MV_THREADS, 0, s>>>(*d, *ph, c_stage, first,     \
                                                                     last);                       \
  } while (0)
  MIX_DISPATCH(d->n_species, MV_FACE_LIFT);
#undef MV_FACE_LIFT
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

static size_t mix_lifting_shared(const DevData *d) {
  return sizeof(double) * (size_t)(HX_NVAR + d->n_species) * d->n3;
}

int launch_mix_lifting(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  if (d->n_elems == 0) return HX_OK;
  const int threads = (d->n3 + 31) / 32 * 32;
  const size_t shared = mix_lifting_shared(d);
#define MV_LIFT(NS) mix_lifting_kernel<NS><<<d->n_elems, threads, shared, s>>>(*d, *ph)
  MIX_DISPATCH(d->n_species, MV_LIFT);
#undef MV_LIFT
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_mix_visc_face_flux(const DevData *d, const DevPhysics *ph, double c_stage, int first,
                              int last, cudaStream_t s) {
  const int n = (last - first) * d->n2;
  if (n <= 0) return HX_OK;
  const unsigned blocks = (n + MV_THREADS - 1) / MV_THREADS;
#define MV_FACE(NS)                                                                                \
  do {                                                                                             \
    if (d->mix_face_visc)                                                                          \
      mix_visc_face_kernel<NS, true><<<blocks, MV_THREADS, 0, s>>>(*d, *ph, c_stage, first, last); \
    mix_visc_face_kernel<NS, false><<<blocks, MV_THREADS, 0, s>>>(*d, *ph, c_stage, first, last);  \
  } while (0)
  MIX_DISPATCH(d->n_species, MV_FACE);
#undef MV_FACE
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_mix_visc_timestep(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  HX_CHECK(launch_mix_lambda_max(d, s));
  if (d->n_elems > 0) mix_visc_lambda_kernel<<<d->n_elems, MV_THREADS, 0, s>>>(*d, *ph);
  CU_CHECK(cudaGetLastError());
  return launch_dt_finalize(d, s);
}

int mix_visc_configure(const DevData *d) {
  const size_t shared = mix_lifting_shared(d);
  if (d->n3 > 512 || shared > 227 * 1024)
    return HX_ERROR(HX_ERR_INPUT, "species transport on the GPU: N = %d with %d species is not "
                                  "supported (one thread per node, at most 512 nodes and 227 KiB "
                                  "of shared memory per element); use a lower N or Backend = cpu",
                    d->N, d->n_species);
#define MV_ATTR(NS)                                                                                \
  CU_CHECK(cudaFuncSetAttribute(mix_lifting_kernel<NS>,                                            \
                                cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared))
  MIX_DISPATCH(d->n_species, MV_ATTR);
#undef MV_ATTR
  return HX_OK;
}
