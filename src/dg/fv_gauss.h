/* FV switching on Gauss nodes (FLEXI's FV = SWITCH build with NODETYPE = GAUSS): an FV element
 * holds the means of N+1 equidistant subcells per direction (FLEXI's fv_basis: independent of the
 * DG nodes) in its U slots; DG -> FV takes the subcell integral means of the DG polynomial, FV ->
 * DG their inverse (fv->to_fv, fv->to_dg). Second-order subcell FV (fv_limited_slope,
 * fv_interface_flux of physics/fvblend.h) in physical distances, the boundary subcells limited
 * against the other element's state beyond the face (FLEXI's extended stencil: an FV neighbour's
 * boundary subcell, a DG neighbour's first node layer, a boundary state). On a side with an FV
 * element both face states are given at the N+1 x N+1 face subcells (the FV element's boundary
 * subcells reconstructed to the face, the DG element's face polynomial averaged over the face
 * subcells), the flux is computed there with the subcell-mean face normals, and a DG neighbour
 * takes the DG polynomial with those subcell means (conservative: both sides integrate the same
 * flux).
 * Navier-Stokes (dg/fv_gauss_visc.c): FLEXI's viscous fluxes at the subcell interfaces from the
 * subcells' difference quotients, the DG neighbours' lifting and fluxes through the face subcells.
 * docs/fv.md. CPU backend (OpenMP, MPI) and CUDA backend (gpu/fv_gauss_kernels.cu, several
 * ranks: gpu/gpu_mpi_fv.cu; the pointwise parts shared: dg/fv_gauss_pointwise.h), air without
 * LES: the set-up refuses the rest. */
#ifndef HEXDG_FV_GAUSS_H
#define HEXDG_FV_GAUSS_H

#include "dg/solver.h"

struct FVGauss {
  double h;        /* subcell width in reference coordinates, 2/(N+1) */
  double *sJ;      /* [elem][k][j][i]: 1/J of the subcells (J: the subcell mean of J) */
  double *Ja;      /* [elem][dir 3][comp 3][k][j][i]: subcell means of the metric terms (the
                      FV time step; FLEXI evaluates them at the subcell centres, the same for
                      affine elements) */
  double *face_mv; /* [side][3][q][p]: the face subcells' mean n dS (master orientation) */
  double *face_x;  /* [side][3][q][p]: the face subcells' mean positions (boundary states) */
  double *flux_fv; /* [side][var][q][p]: flux . n dS at the face subcells */
  double *ut_save; /* [elem][var][k][j][i]: FV elements' volume residual across SurfInt */
  int *side_fv;    /* [side]: 1 when an FV element touches the side */
  double *fv_master, *fv_slave; /* [side]: FV_Elems of both elements (exchanged over MPI) */
  double *dx_l, *dx_r; /* [elem][dir 3][line a np + b][i]: physical distance from the centre of
                          subcell i to its face towards -xi_d / +xi_d (FLEXI's FV_dx_XI_L/_R) */
  double *dist_master, *dist_slave;   /* [side][2][q][p]: distance from the face to the element's
                                         first subcell centre (0) and first Gauss node (1) */
  double *multi_master, *multi_slave; /* [side][prim 5][q][p]: what the other element's
                                         reconstruction sees beyond the face (FLEXI's FV_multi):
                                         an FV element's boundary subcell means, a DG element's
                                         first node layer, both primitive, at the face subcells */
  double *ghost;    /* [elem][locside 6][prim 5][line]: the neighbour's state beyond each boundary
                       subcell (FLEXI's extended reconstruction stencil) */
  double *ghost_dx; /* [elem][locside 6][line]: the distance from the boundary subcell's centre
                       to its ghost (FLEXI's FV_sdx_Face inverted) */
  double *slope;    /* Navier-Stokes: [elem][dir 3][lift 4][line][interface np + 1]: d w / d xi of
                       the lifting variables at an FV element's subcell interfaces in direction
                       dir (0 and np: across the element faces, to the ghosts) */
  const double *U;  /* the state of the operator call (fv_gauss_prolong_start sets it): the
                       reconstruction waits for FillFlux, where the boundary states' time is known */
};

/* The Gauss-node part of s->fv (solver_create calls it once the solver is complete; fv_init has
 * set the switch matrices and line constants for the equidistant subcells): the face subcell
 * geometry, the subcell metrics corrected so that every subcell is closed (free stream to
 * round-off) and the subcell Jacobians. */
int fv_gauss_init(Solver *s);
void fv_gauss_free(Solver *s);

/* Whether element e is an FV element of Gauss-node switching (its U holds subcell means). */
static inline int fv_elem_is_gauss_fv(const Solver *s, int e) {
  return s->fv.gauss && s->fv.fv_elems && s->fv.fv_elems[e];
}

/* 1/J of element e's nodes: the subcells' for an FV element on Gauss nodes, else the DG nodes'. */
const double *fv_elem_sJ(const Solver *s, int e);
/* Metric terms of element e's nodes ([dir 3][comp 3][k][j][i], as geo.metrics): the subcells' for
 * an FV element on Gauss nodes, else the DG nodes'. */
const double *fv_elem_metrics(const Solver *s, int e);

/* ProlongToFace (replaces prolong_to_face_start): both elements' FV_Elems on every side (over
 * MPI sides too), the face states, those of every side with an FV element at the face subcells
 * (first order), and what each element's reconstruction needs of the other (exchanged). */
void fv_gauss_prolong_start(const Solver *s, const double *U);
/* The FV elements' ghosts and face states reconstructed (the boundary states need t); U_slave's
 * exchange started. Navier-Stokes: the operator calls it before the lifting (whose face values
 * are the reconstructed states, as FLEXI's FV_ProlongToDGFace before Lifting), else FillFlux. */
void fv_gauss_reconstruct_start(const Solver *s, double t);
/* FillFlux (replaces fill_flux_start): the reconstruction (Euler), U_slave exchanged, the
 * FV elements' gradients (Navier-Stokes), the DG fluxes, then those of the sides with an FV
 * element at the face subcells (flux_fv) with their DG form (s->flux) for DG neighbours; the
 * exchanges of both to the slaves' ranks left in flight (fv_gauss_surface_end finishes
 * flux_fv's). */
void fv_gauss_fill_flux_start(const Solver *s, double t);
/* Around SurfInt: keep the FV elements' volume residual, then replace what SurfInt added by the
 * face subcell fluxes / h of the boundary subcells. */
void fv_gauss_surface_begin(const Solver *s, const double *Ut);
void fv_gauss_surface_end(const Solver *s, double *Ut);

/* The FV volume operator of FV element e on Gauss nodes (fv_subcell_volume's convention): the
 * limited reconstruction of every subcell, the boundary subcells limited against the ghost values
 * beyond the element face (the same slopes as the element's face states). */
void fv_gauss_subcell_volume(const Solver *s, int e, const double *prim, double *Ut);

/* Whether a side has an FV element of Gauss-node switching (its face data at the face subcells). */
static inline int fv_side_is_gauss(const Solver *s, int side) {
  return s->fv.gauss && s->fv.gauss->side_fv[side];
}

/* M applied in both directions of an np x np face array (M = to_fv: the subcell means, to_dg:
 * their inverse; out may not alias in). */
void fv_gauss_face_means(int np, const double *M, const double *in, double *out);

/* One face subcell of a side with an FV element: its mean n dS and position, the face states
 * (uR = 0 on boundaries) and the boundary condition (bc_type -1 on inner sides). */
typedef struct {
  double mv[3], x[3], uL[HX_NVAR], uR[HX_NVAR];
  int bc_type, bc_state;
} FVGaussFacePoint;
FVGaussFacePoint fv_gauss_face_point(const Solver *s, int side, int f);

/* Navier-Stokes (dg/fv_gauss_visc.c). Lifting of a side with an FV element (replaces its
 * lift_flux): the BR1 face values at the face subcells, the DG polynomial with their means of w* n
 * dS. */
void fv_gauss_face_lifting(const Solver *s, int side, double t);
/* The FV elements' gradients (after gather_ghosts): the reference slopes of every subcell
 * interface, the face gradients of their sides into grad_master/grad_slave at the face subcells,
 * the DG neighbours' face gradients there as face subcell means; grad_slave exchanged again. */
void fv_gauss_viscous_gradients(const Solver *s, const double *U);
/* Ut -= the viscous fluxes through the inner subcell interfaces of FV element e (prim: the
 * primitive subcell means, HX_NPRIM rows). */
void fv_gauss_viscous_volume(const Solver *s, int e, const double *prim, double *Ut);
/* The viscous part of face subcell f's flux (subtracted from F, flux . n dS; fp its states). */
void fv_gauss_face_viscous_flux(const Solver *s, int side, int f, const FVGaussFacePoint *fp,
                                double t, double *F);

/* U of an element converted (FLEXI's FV_InterpolateDG2FV / FV2DG): to_fv = 1 DG -> FV, 0 back;
 * conservative: J U converted, so sum w J U = sum h^3 J_FV U_FV. tmp: 2 n3 doubles. */
void fv_gauss_switch_element(const Solver *s, int e, int to_fv, double *u, double *tmp);

#endif
