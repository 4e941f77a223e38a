/* Solver set-up: discretization parameters, mesh, metrics, face maps and solution arrays. */
#include "dg/solver.h"
#include "dg/sponge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "dg/eddyvisc.h"
#include "dg/fv.h"
#include "dg/fv_gauss.h"
#include "dg/mixture.h"
#include "mesh/facemap.h"
#include "mesh/partition.h"
#include "parallel/exchange.h"
#include "physics/bc.h"
#include "physics/mixture.h"
#include "physics/navierstokes.h"
#include "physics/noise.h"

static const char *const NODE_NAMES[] = {"GAUSS", "GAUSS-LOBATTO"};
static const int NODE_IDS[] = {NODE_GAUSS, NODE_GAUSS_LOBATTO};
static const char *const SPLIT_NAMES[] = {"none", "SD", "MO", "DU", "KG", "PI", "CH"};
static const int SPLIT_IDS[] = {SPLIT_NONE, SPLIT_SD, SPLIT_MO, SPLIT_DU,
                                SPLIT_KG,   SPLIT_PI, SPLIT_CH};
static const char *const RIEMANN_NAMES[] = {"LF",  "HLLC", "Roe",   "RoeL2", "RoeEntropyFix",
                                            "HLL", "HLLE", "HLLEM", "CH",    "Same"};
static const int RIEMANN_IDS[] = {
    RIEMANN_LF,  RIEMANN_HLLC, RIEMANN_ROE,   RIEMANN_ROEL2, RIEMANN_ROE_ENTROPYFIX,
    RIEMANN_HLL, RIEMANN_HLLE, RIEMANN_HLLEM, RIEMANN_CH,    -1};

int solver_define_params(Params *p) {
  const char *s = "Discretization";
  HX_CHECK(params_define(p, s, "N", PARAM_INT, 0, NULL, false,
                         "Polynomial degree of the solution (1..15)."));
  HX_CHECK(params_define_choice(p, s, "NodeType", "GAUSS", 2, NODE_NAMES, NODE_IDS,
                                "Interpolation/quadrature nodes. GAUSS: weak-form DG. "
                                "GAUSS-LOBATTO: split-form DG (SplitDG) or, with SplitDG = none, "
                                "weak-form DG."));
  HX_CHECK(params_define_choice(p, s, "SplitDG", "PI", 7, SPLIT_NAMES, SPLIT_IDS,
                                "Two-point volume flux of the split form (GAUSS-LOBATTO only): "
                                "SD standard DG, MO Morinishi, DU Ducros, KG Kennedy-Gruber, PI "
                                "Pirozzoli, CH Chandrashekar; none: weak form."));
  HX_CHECK(params_define_choice(p, s, "Riemann", "RoeEntropyFix", 9, RIEMANN_NAMES, RIEMANN_IDS,
                                "Riemann solver at inner sides."));
  HX_CHECK(params_define_choice(p, s, "RiemannBC", "Same", 10, RIEMANN_NAMES, RIEMANN_IDS,
                                "Riemann solver at boundary sides (Same: as Riemann)."));
  HX_CHECK(params_define(p, "Lifting", "doWeakLifting", PARAM_LOGICAL, 0, "F", false,
                         "BR1 lifting of the gradients in weak form (conservative: the metrics "
                         "inside the derivative); F: strong form (FLEXI's default on both node "
                         "types). On GAUSS nodes the conservative variables are prolonged to the "
                         "faces (as FLEXI), so the strong form's face term w* - w^- is not the "
                         "trace of the derived polynomial and loses some order (NS MMS, N = 4: "
                         "EOC 4.4 strong, 5.1 weak): set T there for the higher order."));
  HX_CHECK(params_define(p, "Lifting", "doConservativeLifting", PARAM_LOGICAL, 0, "F", false,
                         "Strong-form lifting only: derive the solution times the metrics "
                         "(conservative form) instead of deriving the solution and multiplying "
                         "by the metrics."));
  HX_CHECK(fv_define_params(p));
  HX_CHECK(mixture_define_params(p));
  HX_CHECK(eddyvisc_define_params(p));
  return sponge_define_params(p);
}

static int read_disc_params(const Params *p, Solver *s, int *N, int *node, int *split) {
  HX_CHECK(params_get_int(p, "N", N));
  HX_CHECK(params_get_choice(p, "NodeType", node));
  HX_CHECK(params_get_choice(p, "SplitDG", split));
  HX_CHECK(params_get_choice(p, "Riemann", &s->riemann));
  HX_CHECK(params_get_choice(p, "RiemannBC", &s->riemann_bc));
  if (s->riemann < 0) return HX_ERROR(HX_ERR_INPUT, "Riemann = Same is only valid for RiemannBC");
  if (s->riemann_bc < 0) s->riemann_bc = s->riemann;
  if (*node == NODE_GAUSS) {
    if (params_is_set(p, "SplitDG") && *split != SPLIT_NONE)
      return HX_ERROR(HX_ERR_INPUT,
                      "SplitDG = %s needs NodeType = GAUSS-LOBATTO (the split form relies on "
                      "summation-by-parts operators); remove SplitDG for the weak form on GAUSS",
                      params_choice_name(p, "SplitDG", *split));
    *split = SPLIT_NONE;
  }
  return HX_OK;
}

/* The BC state of a Dirichlet condition (2, 22, 121) for physics/bc.h: type 2 a 0-based RefState
 * index or -1 (IniExactFunc), 22 and 121 FLEXI's exact-function number. */
static int dirichlet_state(const Solver *s, const Mesh *m, int b, int *out) {
  int type = m->bcs[b].type, state = m->bcs[b].state;
  const char *name = m->bcs[b].name;
  if (type == BC_EXACT) {
    if (state < 0 || state > s->exact.n_ref_states)
      return HX_ERROR(HX_ERR_INPUT,
                      "boundary '%s' (BC type 2) has state %d, but %d RefState entries are "
                      "given: type 2 takes IniExactFunc (state 0) or RefState k (state k); for "
                      "an exact function by number use type 22, BoundaryType = (/22, id/)",
                      name, state, s->exact.n_ref_states);
    *out = state - 1;
    return HX_OK;
  }
  if (!exact_func_known(state))
    return HX_ERROR(HX_ERR_INPUT,
                    "boundary '%s' (BC type %d) names exact function %d, which hexdg does not "
                    "have; give one of the IniExactFunc ids (hexdg --help IniExactFunc lists "
                    "them)",
                    name, type, state);
  *out = state;
  return HX_OK;
}

/* Check every boundary condition and convert its state for physics/bc.h (dirichlet_state for
 * 2, 22, 121; the 0-based RefState index for the walls and outflows that use one). */
static int setup_boundaries(Solver *s) {
  const Mesh *m = s->mesh;
  s->bc_info = hx_malloc(sizeof(int) * 2 * (m->n_bcs ? m->n_bcs : 1), "boundary conditions");
  HX_ALLOC_CHECK(s->bc_info);
  for (int b = 0; b < m->n_bcs; b++) {
    int type = m->bcs[b].type, state = m->bcs[b].state;
    if (!bc_supported(type))
      return HX_ERROR(HX_ERR_INPUT,
                      "boundary '%s' of mesh %s has BC type %d; supported on boundary faces: 2 "
                      "(IniExactFunc or a RefState), 22 (exact function by id), 121 (exact "
                      "function at t = 0), 3 (adiabatic wall), 4 (isothermal wall), 9 (slip "
                      "wall), 23 (Mach outflow), 24 (pressure outflow), 25 (subsonic outflow), 27 "
                      "(total-pressure inflow); type 1 needs a periodic partner. Override with "
                      "BoundaryName/BoundaryType",
                      m->bcs[b].name, m->source, type);
    s->bc_info[2 * b] = type;
    if (bc_is_dirichlet(type)) {
      HX_CHECK(dirichlet_state(s, m, b, &s->bc_info[2 * b + 1]));
      continue;
    }
    int uses_refstate = bc_uses_refstate(type);
    if (uses_refstate && (state < 1 || state > s->exact.n_ref_states))
      return HX_ERROR(HX_ERR_INPUT,
                      "boundary '%s' (BC type %d) needs a RefState for its %s: its state is %d "
                      "but %d RefState entries are given; set BoundaryType = (/%d, k/)",
                      m->bcs[b].name, type, bc_refstate_meaning(type), state, s->exact.n_ref_states,
                      type);
    s->bc_info[2 * b + 1] = uses_refstate ? state - 1 : state;
  }
  return HX_OK;
}

/* s2v[flip][locside][q][p]: volume node that touches face point (p,q) of the master frame. */
static int build_face_maps(Solver *s) {
  int np = s->np, N = np - 1, n2 = np * np;
  s->s2v = hx_malloc(sizeof(int) * 5 * 6 * n2, "face maps");
  HX_ALLOC_CHECK(s->s2v);
  for (int flip = 0; flip < 5; flip++)
    for (int ls = 0; ls < 6; ls++)
      for (int q = 0; q < np; q++)
        for (int p = 0; p < np; p++) {
          int ps, qs, i, j, k;
          flip_master_to_slave(flip, N, p, q, &ps, &qs);
          side_to_volume(N, ls, ps, qs, &i, &j, &k);
          s->s2v[(flip * 6 + ls) * n2 + q * np + p] = (k * np + j) * np + i;
        }
  return HX_OK;
}

static int alloc_state(Solver *s) {
  long nvol = (long)s->n_var * s->n_dof_elem * s->mesh->n_elems;
  long nface = (long)s->n_var * s->n_dof_face * s->mesh->n_sides;
  s->U = hx_calloc(nvol, sizeof(double), "solution U");
  s->Ut = hx_calloc(nvol, sizeof(double), "time derivative Ut");
  s->U_master = hx_calloc(nface, sizeof(double), "master face states");
  s->U_slave = hx_calloc(nface, sizeof(double), "slave face states");
  s->flux = hx_calloc(nface, sizeof(double), "face fluxes");
  if (!s->U || !s->Ut || !s->U_master || !s->U_slave || !s->flux) return HX_ERR_MEM;
  if (!s->viscous) return HX_OK;
  long ngrad = 3L * s->n_lift * s->n_dof_elem * s->mesh->n_elems;
  long nface_grad = 3L * s->n_lift * s->n_dof_face * s->mesh->n_sides;
  s->grad = hx_calloc(ngrad, sizeof(double), "lifted gradients");
  s->grad_master = hx_calloc(nface_grad, sizeof(double), "master face gradients");
  s->grad_slave = hx_calloc(nface_grad, sizeof(double), "slave face gradients");
  s->lift_flux = hx_calloc(nface_grad, sizeof(double), "lifting face values");
  if (!s->grad || !s->grad_master || !s->grad_slave || !s->lift_flux) return HX_ERR_MEM;
  return HX_OK;
}

/* FLEXI's names of the conservative variables, then one partial density per species. */
static int set_var_names(Solver *s) {
  static const char *const flow[HX_NVAR] = {"Density", "MomentumX", "MomentumY", "MomentumZ",
                                            "EnergyStagnationDensity"};
  s->var_names = hx_calloc(s->n_var, sizeof *s->var_names, "variable names");
  HX_ALLOC_CHECK(s->var_names);
  for (int v = 0; v < HX_NVAR; v++)
    snprintf(s->var_names[v], sizeof s->var_names[v], "%s", flow[v]);
  for (int k = 0; k < s->n_species; k++)
    snprintf(s->var_names[HX_SPEC0 + k], sizeof s->var_names[0], "PartialDensity_%s",
             s->mech->species_names[k]);
  return HX_OK;
}

static int solver_setup(const Params *p, const double *weights, Solver *s) {
  int N, node, split;
  HX_CHECK(exactfunc_init(p, &s->phys, &s->exact));
  HX_CHECK(read_disc_params(p, s, &N, &node, &split));
  HX_CHECK(disc_init(&s->disc, N, (NodeType)node, split));
  HX_CHECK(mesh_create_from_params(p, &s->mesh));
  HX_CHECK(mesh_partition_from_params(p, weights, &s->mesh));
  HX_CHECK(setup_boundaries(s));
  s->n_var = HX_NVAR;
  s->n_lift = HX_NLIFT; /* the mixture adds its mass fractions (mixture_init) */
  s->np = N + 1;
  s->n_dof_elem = s->np * s->np * s->np;
  s->n_dof_face = s->np * s->np;
  s->n_dof = (long)s->n_dof_elem * s->mesh->n_elems;
  s->viscous = s->phys.mu0 > 0.0;
  bool weak_lifting, conservative_lifting;
  HX_CHECK(params_get_logical(p, "doWeakLifting", &weak_lifting));
  HX_CHECK(params_get_logical(p, "doConservativeLifting", &conservative_lifting));
  if (weak_lifting && params_is_set(p, "doConservativeLifting") && !conservative_lifting)
    return HX_ERROR(HX_ERR_INPUT, "doWeakLifting = T is always conservative; remove "
                                  "doConservativeLifting = F or set doWeakLifting = F");
  s->lifting_form = weak_lifting           ? LIFT_WEAK
                    : conservative_lifting ? LIFT_STRONG_CONS
                                           : LIFT_STRONG;
  HX_CHECK(metrics_compute(s->mesh, &s->disc, &s->geo));
  HX_CHECK(build_face_maps(s));
  HX_CHECK(fv_init(p, s));
  HX_CHECK(mixture_init(p, s));
  HX_CHECK(sponge_init(p, s)); /* after the mixture: its nVar, RefStates and IniZND profile */
  HX_CHECK(set_var_names(s));
  HX_CHECK(alloc_state(s));
  HX_CHECK(exchange_create(s->mesh, &s->exchange));
  HX_CHECK(eddyvisc_init(p, s)); /* its face coefficients cross the MPI sides */
  if (s->fv.enabled && node == NODE_GAUSS) HX_CHECK(fv_gauss_init(s)); /* needs all of the above */
  return HX_OK;
}

int solver_create(const Params *p, Solver **out) {
  return solver_create_weighted(p, NULL, out);
}

int solver_create_weighted(const Params *p, const double *elem_weights, Solver **out) {
  Solver *s = hx_calloc(1, sizeof(Solver), "solver");
  HX_ALLOC_CHECK(s);
  int rc = solver_setup(p, elem_weights, s);
  if (rc != HX_OK) {
    solver_destroy(s);
    return rc;
  }
  *out = s;
  return HX_OK;
}

void solver_destroy(Solver *s) {
  if (!s) return;
  exchange_destroy(s->exchange);
  mesh_destroy(s->mesh);
  geometry_free(&s->geo);
  free(s->s2v);
  free(s->bc_info);
  sponge_free(s);
  fv_free(s);
  mixture_free(s);
  eddyvisc_free(s);
  free(s->var_names);
  free(s->U);
  free(s->Ut);
  free(s->U_master);
  free(s->U_slave);
  free(s->flux);
  free(s->grad);
  free(s->grad_master);
  free(s->grad_slave);
  free(s->lift_flux);
  free(s);
}

int solver_node_prim(const Solver *s, long dof, const double *u, double *pr, double *Y, double *c) {
  if (!s->mech) {
    cons_to_prim(&s->phys, u, pr);
    *c = speed_of_sound(&s->phys, pr);
    return 0;
  }
  pr[TEMP] = s->T_guess[dof];
  return mix_cons_to_prim(s->mech, u, pr, Y, c);
}

int solver_node_pressure(const Solver *s, long dof, double *p) {
  const long e = dof / s->n_dof_elem, q = dof % s->n_dof_elem;
  double u[HX_NVAR_MAX], pr[HX_NPRIM], Y[HX_MAX_SPECIES], c;
  for (int v = 0; v < s->n_var; v++)
    u[v] = s->U[(e * s->n_var + v) * s->n_dof_elem + q];
  const int rc = solver_node_prim(s, dof, u, pr, Y, &c);
  if (rc == 0) *p = pr[PRES];
  return rc;
}

/* Why node u fails (""): NaN, rho <= 0, no temperature for e (mixture), p <= 0 */
static void node_failure(const Solver *s, const double *u, char *why, size_t len) {
  why[0] = '\0';
  for (int v = 0; v < s->n_var; v++)
    if (u[v] != u[v]) {
      snprintf(why, len, "%s is NaN", s->var_names[v]);
      return;
    }
  if (!(u[DENS] > 0.0)) {
    snprintf(why, len, "density %.6g", u[DENS]);
    return;
  }
  double pr[HX_NPRIM], Y[HX_MAX_SPECIES], c;
  if (!s->mech) {
    cons_to_prim(&s->phys, u, pr);
    if (!(pr[PRES] > 0.0)) snprintf(why, len, "density %.6g, pressure %.6g", u[DENS], pr[PRES]);
    return;
  }
  pr[TEMP] = 0.0; /* no guess: the bracketed search */
  if (mix_cons_to_prim(s->mech, u, pr, Y, &c) == 0) return;
  const double e = (u[ENER] - 0.5 * (u[MOM1] * u[MOM1] + u[MOM2] * u[MOM2] + u[MOM3] * u[MOM3]) /
                                  u[DENS]) / u[DENS];
  const double e_lo = chem_u_mass(s->mech, CHEM_T_LOW, Y, 1),
               e_hi = chem_u_mass(s->mech, CHEM_T_HIGH, Y, 1);
  snprintf(why, len, "density %.6g, no temperature: internal energy %.6g J/kg is %s e(%g K) = %.6g",
           u[DENS], e, e > e_hi ? "above" : "below", e > e_hi ? CHEM_T_HIGH : CHEM_T_LOW,
           e > e_hi ? e_hi : e_lo);
}

void solver_report_bad_node(const Solver *s, long gid, const double *Ue) {
  const int n3 = s->n_dof_elem, np = s->np;
  int n_bad = 0, first = -1;
  char why[256] = "", first_why[256] = "";
  for (int q = 0; q < n3; q++) {
    double u[HX_NVAR_MAX];
    for (int v = 0; v < s->n_var; v++)
      u[v] = Ue[(size_t)v * n3 + q];
    node_failure(s, u, why, sizeof why);
    if (!why[0]) continue;
    if (n_bad++ == 0) {
      first = q;
      snprintf(first_why, sizeof first_why, "%s", why);
    }
  }
  if (first >= 0)
    fprintf(stderr,
            "hexdg: in element %ld %d of its %d nodes fail; node (i,j,k) = (%d,%d,%d): %s\n", gid,
            n_bad, n3, first % np, (first / np) % np, first / (np * np), first_why);
}

void solver_exact_state(const Solver *s, const double x[3], double t, double *U) {
  if (s->mech)
    mixture_exact(s, x, t, U);
  else
    exact_func(&s->exact, &s->phys, x, t, U);
}

/* IniNoiseAmplitude: the density of u times 1 + A n(x) (n clipped to +-3) at the same pressure,
 * velocity and composition (the mixture's T = p W / (rho R) follows the density). */
static void perturb_density(const Solver *s, const NoiseModes *nm, const double x[3], double *u) {
  const double n = noise_value(nm, x),
               f = 1.0 + s->exact.noise_amplitude * fmax(-3.0, fmin(3.0, n));
  double pr[HX_NPRIM], Y[HX_MAX_SPECIES], c;
  if (!s->mech) {
    cons_to_prim(&s->phys, u, pr);
    pr[PDENS] *= f;
    prim_to_cons(&s->phys, pr, u);
    return;
  }
  pr[TEMP] = 300.0; /* the Newton iteration's first guess */
  mix_cons_to_prim(s->mech, u, pr, Y, &c);
  const double rho = pr[PDENS] * f;
  mix_prim_to_cons(s->mech, rho, &pr[VEL1], mix_temperature(s->mech, rho, pr[PRES], Y), Y, u);
}

/* IniZNDPocket: whether x lies in one of the unreacted boxes. */
static bool in_znd_pocket(const Solver *s, const double x[3]) {
  for (int b = 0; b < s->n_znd_pockets; b++) {
    const double *box = s->znd_pocket[b];
    if (x[0] >= box[0] && x[0] <= box[3] && x[1] >= box[1] && x[1] <= box[4] && x[2] >= box[2] &&
        x[2] <= box[5])
      return true;
  }
  return false;
}

void solver_set_exact(Solver *s, double t) {
  int n3 = s->n_dof_elem, nv = s->n_var;
  NoiseModes modes, *nm = NULL; /* 32 kB */
  if (s->exact.noise_amplitude > 0.0) {
    nm = &modes;
    noise_modes_init(nm, (uint64_t)s->exact.noise_seed, s->exact.noise_modes,
                     s->exact.noise_wavelengths[0], s->exact.noise_wavelengths[1],
                     s->exact.noise_dims);
  }
#pragma omp parallel for schedule(static)
  for (int e = 0; e < s->mesh->n_elems; e++) {
    const double *x = &s->geo.elem_x[3L * n3 * e];
    for (int q = 0; q < n3; q++) {
      double xq[3] = {x[q], x[n3 + q], x[2 * n3 + q]}, u[HX_NVAR_MAX];
      solver_exact_state(s, xq, t, u);
      if (in_znd_pocket(s, xq)) memcpy(u, s->ref_U + nv, sizeof(double) * (size_t)nv);
      if (nm) perturb_density(s, nm, xq, u);
      for (int v = 0; v < nv; v++)
        s->U[((long)e * nv + v) * n3 + q] = u[v];
    }
  }
}

size_t solver_host_bytes(const Solver *s) {
  size_t n3 = s->n_dof_elem, n2 = s->n_dof_face, ne = s->mesh->n_elems, ns = s->mesh->n_sides;
  size_t vol = ne * n3 * (3 * s->n_var + 9 + 1 + 3);  /* U, Ut, RK register; metrics, 1/J, x */
  size_t face = ns * n2 * (3 * s->n_var + 9 + 1 + 3); /* states, flux; frame, surface, x */
  if (s->viscous) {
    vol += ne * n3 * 3 * s->n_lift;
    face += ns * n2 * 3 * 3 * s->n_lift;
  }
  return sizeof(double) * (vol + face);
}
