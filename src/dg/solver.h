/* The solver state: mesh, discretization, geometry, physics and the solution arrays.
 * Volume arrays are element-major and variable-blocked: U[elem][var][k][j][i].
 * Face arrays are side-major in the master's face coordinates: U_master[side][var][q][p]. */
#ifndef HEXDG_SOLVER_H
#define HEXDG_SOLVER_H

#include "core/params.h"
#include "basis/disc.h"
#include "mesh/mesh.h"
#include "mesh/metrics.h"
#include "physics/exactfunc.h"
#include "physics/fvblend.h"
#include "physics/physics.h"

#define HX_ZND_POCKETS_MAX 16 /* IniZNDPocket boxes */

/* FV subcell shock capturing (IndicatorType != none; src/dg/indicator.c, src/dg/fv.c): the
 * volume operator of element e is (1 - alpha[e]) R_DG + alpha[e] R_FV on the LGL subcells. */
typedef struct {
  int enabled;          /* IndicatorType != none */
  int indicator;        /* FV_INDICATOR_* (dg/indicator.h) */
  int ind_var;          /* FV_INDVAR_*: quantity of the modal indicator */
  double alpha_min, alpha_max, alpha_fix;
  int extend, n_extend; /* FV_doExtendAlpha, FV_nExtendAlpha */
  double ext_scale;     /* FV_alpha_ExtScale */
  int limiter;          /* FV_LIM_* (physics/fvblend.h) */
  int positivity;       /* FV_PositivityLimiter */
  double *alpha;        /* [elem] blending factor of the last operator call */
  double *alpha_master, *alpha_slave; /* [side]: neighbour values for the extension */
  double *metrics;      /* [elem][dir 3][line np^2][interface N][comp 3]: subcell interface
                           vectors (contravariant metric at x_{m+1/2}) */
  double Vinv[HX_NPMAX * HX_NPMAX]; /* nodal -> orthonormal Legendre modes */
  FVLine line;                      /* constants of the subcell sweep along a line */
  /* FLEXI's indicators and FV switching (dg/indicator.h, physics/indicators.h) */
  int mode;                 /* FV_MODE_* (FV_Mode) */
  int ind_code, n_modes;    /* IndVar as FLEXI's code, nModes */
  double ind_start_time, ind_upper, ind_lower, to_dg_limit; /* IndStartTime, FV_Ind*Threshold */
  int to_dg_indicator, to_dg_in_rk, switch_conservative;    /* FV_toDG*, FV_SwitchConservative */
  int ini_supersample; /* FV_IniSupersample: initial FV elements from the exact function */
  double *ind_value;        /* [elem] IndValue of the last evaluation */
  int *fv_elems;            /* [elem] switching: 1 where the element holds FV subcell means */
  int *fv_boundary;         /* [elem] FVBoundaries: 1 where a side is an FVBoundaryType BC */
  double *ghost_master, *ghost_slave; /* [side][np^2] jameson: IndVar at the face points */
  double to_fv[HX_NPMAX * HX_NPMAX], to_dg[HX_NPMAX * HX_NPMAX]; /* 1D switch matrices */
  struct FVGauss *gauss;    /* switching on Gauss nodes (dg/fv_gauss.h); NULL on LGL nodes */
} FVBlend;

typedef struct {
  Mesh *mesh;
  Disc disc;
  Geometry geo;
  PhysParams phys;
  ExactFuncParams exact;
  int riemann;      /* RIEMANN_* */
  int riemann_bc;   /* Riemann solver at boundaries */
  int n_var, np, n_dof_elem, n_dof_face;
  long n_dof;
  int *s2v;         /* [flip 5][locside 6][q][p] -> volume node of the face point */
  int *bc_info;     /* [bc][2]: BC type and its state as physics/bc.h takes it */
  double *U, *Ut;
  double *U_master, *U_slave, *flux; /* [side][var][q][p] */
  /* Navier-Stokes (mu0 > 0): BR1-lifted gradients of (u, v, w, T), for the mixture also of
   * Y_0 .. Y_{ns-1} (physics/navierstokes_mix.h) */
  int viscous;
  int lifting_form;                /* LIFT_WEAK, LIFT_STRONG, LIFT_STRONG_CONS (navierstokes.h) */
  int n_lift;                      /* lifted variables: HX_NLIFT (air), HX_NLIFT + n_species */
  double *grad;                    /* [elem][dir 3][lift n_lift][k][j][i] */
  double *grad_master, *grad_slave; /* [side][dir 3][lift n_lift][q][p] */
  double *lift_flux;               /* [side][dir 3][lift n_lift][q][p]: w* n_dir s (weak lifting)
                                      or (w* - w^-) n_dir s (strong) */
  /* Sponge zone (SpongeLayer = T): Ut += -sponge (U - sponge_base); NULL when off */
  double *sponge;                  /* [elem][k][j][i]: damping * ramp */
  double sponge_base[HX_NVAR];     /* SpongeBaseFlow = 1 (constant) */
  int sponge_base_flow;            /* SpongeBaseFlow (dg/sponge.h); 2-4 use sponge_base_U */
  int *sponge_elem;                /* [elem]: index of its base block, -1 outside the zone */
  int n_sponge_elems;
  double *sponge_base_U;           /* [sponge elem][var][k][j][i]; NULL for SpongeBaseFlow = 1 */
  double sponge_filter_width;      /* tempFilterWidthSponge (SpongeBaseFlow = 4) */
  FVBlend fv;
  /* Reacting flow (Mechanism set; dg/mixture.h): nVar = 5 + n_species, U[5 + k] = rho Y_k */
  struct ChemMech *mech;           /* NULL: air */
  int n_species;
  double *T_guess;                 /* [elem][k][j][i]: the last temperature of each node, the
                                      Newton guess of the mixture's equation of state */
  double *ref_U;                   /* [RefState][var]: the conservative RefStates */
  char (*var_names)[64];           /* [var]: FLEXI's names, then PartialDensity_<species> */
  struct MixTransport *mix_transport; /* species diffusivities of a viscous mixture, else NULL */
  struct ZndProfile *znd;          /* IniZND: the initial detonation's ZND profile (host), else NULL */
  double znd_axis[3];              /* its direction of travel (IniAxis, normalised) */
  double znd_pocket[HX_ZND_POCKETS_MAX][6]; /* IniZNDPocket: x, y, z min then max of each
                                                unreacted box */
  int n_znd_pockets;
  /* LES eddy viscosity (eddyViscType != none, dg/eddyvisc.h); NULL without */
  struct EddyVisc *sgs;
  /* MPI: non-blocking exchange over the MPI sides (parallel/exchange.h); NULL on one rank */
  struct SideExchange *exchange;
} Solver;

/* Gradient components per node of air (the mixture has 3 * n_lift). */
#define HX_NGRAD (3 * HX_NLIFT)

int solver_define_params(Params *p);
/* Sponge zone (src/dg/sponge.c) */
int sponge_define_params(Params *p);
int sponge_init(const Params *p, Solver *s);
int solver_create(const Params *p, Solver **out);
/* With element weights for the partition (global element order; NULL: uniform). */
int solver_create_weighted(const Params *p, const double *elem_weights, Solver **out);
void solver_destroy(Solver *s);

/* Host memory held by the solution, face and geometry arrays (for the bytes/DOF report). */
size_t solver_host_bytes(const Solver *s);

/* Fill U with the exact function at time t. */
void solver_set_exact(Solver *s, double t);
/* The primitive state pr (rho, u, v, w, p, T), the mass fractions Y (mixture only) and the speed
 * of sound of the conservative state u of DOF dof, for air or the mixture; the mixture's Newton
 * iteration starts from the DOF's last temperature T_guess[dof]. Returns 0, or 1 for a mixture
 * state without a temperature (p = -1 then). */
int solver_node_prim(const Solver *s, long dof, const double *u, double *pr, double *Y, double *c);
/* The pressure of node dof of s->U (as solver_node_prim: nonzero when a mixture state has no
 * temperature, and then *p is not set). */
int solver_node_pressure(const Solver *s, long dof, double *p);

/* For the non-physical-state error, on the rank that holds element gid (CPU and GPU backend):
 * prints the first node of its state Ue ([var][k][j][i]) without a positive density, pressure or
 * (mixture) temperature, with its values and why, and how many of its nodes fail; nothing when
 * every node is admissible. */
void solver_report_bad_node(const Solver *s, long gid, const double *Ue);
/* The exact function (air or mixture) at one point: n_var values. */
void solver_exact_state(const Solver *s, const double x[3], double t, double *U);

/* The DG operator of the CPU backend: Ut = R(U, t) (Galaexi Table 1 steps). */
void dg_time_derivative(Solver *s, const double *U, double *Ut, double t);

/* Steps of the operator, exposed for tests and for the GPU backend's reference. */
void prolong_to_face(const Solver *s, const double *U);
void fill_flux(const Solver *s, double t);
/* accumulate: add to Ut (it holds the viscous volume term) instead of overwriting it */
void volume_integral(const Solver *s, const double *U, double *Ut, int accumulate);
void surface_integral(const Solver *s, double *Ut);
/* BR1 lifting: gradients of the lifting variables into s->grad, their face values into
 * s->grad_master/slave, and Ut = minus the viscous volume integral (needs prolong_to_face first,
 * or prolong_to_face_start; leaves the exchange of grad_slave in flight on MPI sides). */
void lifting(const Solver *s, const double *U, double *Ut, double t);
/* Generic forms over nv variables per node/face point. */
void prolong_vars_to_face(const Solver *s, const double *U, int nv, double *master, double *slave);
void surface_integral_vars(const Solver *s, const double *flux, int nv, double *Ut);
/* slave_negated = 0: the slave takes the face value with sign +1 (strong-form lifting) */
void surface_integral_vars_signed(const Solver *s, const double *flux, int nv, int slave_negated,
                                  double *Ut);
void apply_jacobian_and_source(const Solver *s, const double *U, double *Ut, double t);

/* Steps on the side range [first, last) (mesh_first_mpi_side etc.), so that the MPI sides are
 * computed first and their messages fly while the rest is computed. On MPI sides only the local
 * element is prolonged and only the master's rank computes fluxes ("mine" sides).
 * prolong_to_face_start: every side's face states, the exchange of U_slave left in flight
 * (finished by lifting() or fill_flux_start()); prolong_to_face = start + finish. */
void prolong_vars_to_face_range(const Solver *s, const double *U, int nv, double *master,
                                double *slave, int first, int last);
void prolong_to_face_start(const Solver *s, const double *U);
void fill_flux_range(const Solver *s, double t, int first, int last);
/* Fluxes of the sides this rank computes, the exchange of the MPI fluxes left in flight. */
void fill_flux_start(const Solver *s, double t);

#endif
