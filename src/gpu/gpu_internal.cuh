/* Device-side data of the CUDA backend and the launchers of its kernels (one .cu per step). */
#ifndef HEXDG_GPU_INTERNAL_CUH
#define HEXDG_GPU_INTERNAL_CUH

#include <cuda_runtime.h>
#include <stdlib.h>

extern "C" {
#include "core/error.h"
#include "basis/disc.h"
#include "dg/faceops.h"
#include "dg/solver.h"
#include "gpu/gpu.h"
#include "mesh/constmetrics.h"
#include "physics/exactfunc.h"
#include "physics/physics.h"
}

/* A yes/no switch from the environment (T/t/1 or F/f/0; anything else or unset: dflt), for the
 * HEXDG_* variables that select an older kernel path to measure both with one build. */
static inline bool gpu_env_flag(const char *name, bool dflt) {
  const char *v = getenv(name);
  if (!v) return dflt;
  if (v[0] == 'T' || v[0] == 't' || v[0] == '1') return true;
  if (v[0] == 'F' || v[0] == 'f' || v[0] == '0') return false;
  return dflt;
}

/* Blocks of 256 threads for a grid-stride loop over n nodes (at most 65535). */
static inline int node_blocks(size_t n) {
  return (int)((n + 255) / 256 < 65535 ? (n + 255) / 256 : 65535);
}

/* Programmatic dependent launch (PDL, sm_90): a kernel launched with dependent = true may start
 * while the stream's previous kernel still runs, once every block of that one has called
 * pdl_trigger() (or exited). It must call pdl_wait() before it reads what the previous kernel
 * writes, and write nothing that kernel reads before that; pdl_wait() returns once the previous
 * kernel has completed and its memory is visible. Both are no-ops in a kernel launched without
 * it. Only the single-GPU stage chain uses it: face lifting -> lifting -> face flux -> fused
 * VolInt + update, each doing its independent part (staging, volume sums) before the wait. */
__device__ __forceinline__ void pdl_wait(void) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
#endif
}

__device__ __forceinline__ void pdl_trigger(void) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

template <typename... P, typename... A>
static inline cudaError_t launch_kernel(bool dependent, void (*kernel)(P...), dim3 grid,
                                        dim3 block, size_t shared, cudaStream_t s, A &&...args) {
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = shared;
  cfg.stream = s;
  cfg.attrs = attr;
  cfg.numAttrs = dependent ? 1 : 0;
  return cudaLaunchKernelEx(&cfg, kernel, static_cast<P>(args)...);
}

/* One check for every CUDA runtime call: report the call, the error and where, return. */
#define CU_CHECK(call)                                                                             \
  do {                                                                                             \
    cudaError_t cu_err_ = (call);                                                                  \
    if (cu_err_ != cudaSuccess)                                                                    \
      return hx_error_at(__FILE__, __LINE__, HX_ERR_DEVICE, "CUDA error in %s: %s", #call,        \
                         cudaGetErrorString(cu_err_));                                             \
  } while (0)

/* Scalars of the time loop, kept on the device so that a captured step needs no host input. */
typedef struct {
  double t, dt, t_analyze;
  unsigned long long lmax_bits;  /* max of the CFL eigenvalue sum (non-negative: bits are ordered) */
  unsigned long long lvmax_bits; /* max of the viscous (DFL) eigenvalue sum */
  int landed, bad;
  int bad_elem; /* 1 + the largest local element with an inadmissible node, 0: none (message) */
  double t_good; /* shock capturing: time of U_good, the last state that passed the check */
} StepScalars;

#define FACE_INNER_FLUX 1 /* the face flux, with the Riemann solver and split flux fixed */
#define FACE_INNER_LIFT 2 /* the BR1 face lifting */
/* DevData.visc_face: where the Gauss lifting kernel forms the viscous face fluxes, per line thread
 * (both ends) or per line end */
#define VISC_FACE_LINE 1
#define VISC_FACE_ENDS 2

/* Everything a kernel needs, passed by value (pointers are device pointers). */
typedef struct {
  int N, np, n2, n3, nvar;
  int n_elems, n_sides;
  int node_type, split, riemann, riemann_bc, has_source;
  double dt_factor;      /* CFLscale * alpha(N) / (2N+1) * 2 */
  int dims;              /* directions summed in the time step: 3, or 2 (Dimension = 2) */
  int check_admissible;  /* CheckAdmissibility: 0 = only a NaN density stops (GALAEXI) */
  double dt_factor_visc; /* viscous counterpart (DFLscale), 0 for Euler */
  int viscous;           /* Navier-Stokes: BR1 lifting and viscous fluxes */
  int lifting_form;      /* LIFT_WEAK, LIFT_STRONG, LIFT_STRONG_CONS (physics/navierstokes.h) */
  const Disc *disc;
  const Disc *disc_host; /* the same on the host (launchers read 1-D matrices from it) */
  double *U, *Ut, *k, *flux;
  double *grad, *lift_flux; /* [elem][3][4][n3], [side][3][4][n2] (Navier-Stokes only) */
  int lift_compact; /* lift_flux holds the face values w* [side][4][n2], without n s: Gauss nodes,
                     * one rank, no FV (lifting_face_states; HEXDG_LIFT_COMPACT = F: [3][4]) */
  int gauss_line_3blocks; /* the Gauss lifting line kernel at 80 registers, 3 blocks per SM,
                           * where their shared memory fits (HEXDG_GAUSS_LINE_3BLOCKS = F: 128
                           * registers, 2 blocks) */
  int gauss_line_wslot;   /* its viscous flux phase reads the lifting variables from shared
                           * memory instead of loading the state again (HEXDG_GAUSS_LINE_WSLOT) */
  int gauss_line_perm;    /* its node phases 2 and 4 and line phase 5 in bank-grouped task
                           * orders (HEXDG_GAUSS_LINE_PERM; where they fit) */
  int lambda_elem_const;  /* the time step's spectral radii from an element's constant metric
                           * terms formed once per element (HEXDG_LAMBDA_ELEM_CONST) */
  int update_preload;     /* the fused updates (KG/PI, weak line) load a node's state and register
                           * together up front (HEXDG_UPDATE_PRELOAD; F: variable by variable) */
  int weak_line_4blocks;  /* the weak line update, loading up front, at 64 registers: 4 blocks per
                           * SM instead of 3 (HEXDG_WEAK_LINE_4BLOCKS; default at np = 6 only) */
  int visc_face;          /* the Gauss lifting line kernel forms the inner sides' BR1 viscous
                           * fluxes Fv(u, q) . n at the face points into grad_face (4 values per
                           * side and point instead of 12 gradients), the face flux kernel
                           * subtracts their mean: Gauss nodes, one rank (U_face), the weak form,
                           * no FV or LES, the inner face flux kernel (HEXDG_VISC_FACE): 0
                           * none, VISC_FACE_LINE or (HEXDG_VISC_FACE_ENDS) VISC_FACE_ENDS */
  int face_weak_minb;     /* blocks of 128 per SM of the weak form's inner face flux kernel: 4
                           * or 5 (128 or 96 registers; HEXDG_FACE_WEAK_MINB; 5 with
                           * visc_face) */
  double *Ut_visc;        /* viscous volume term [elem][var][n3] (the lifting kernel writes it
                           * beside VolInt's Ut; the surface update adds both); with lift_volume
                           * the weak form's whole volume term */
  double *grad_face; /* [side][master | slave][3][4][n2]: the lifted gradients at the face points
                      * in the master's orientation, written by the lifting kernel for the face
                      * kernel (lifting_face_gradients); NULL: the face kernel prolongs grad */
  double *U_face; /* [side][master | slave][var][n2]: the states the face lifting kernel prolonged
                   * (Gauss nodes), read by the face flux kernel of the same stage instead of
                   * prolonging again (lifting_face_states); NULL: it prolongs U */
  int u_face_update; /* U_face is kept current by the weak line update, which interpolates each
                      * new state to its element's face points (and gpu_upload_state after a
                      * host write of U): the face lifting kernel reads it instead of prolonging
                      * (weak_line_update_face_states; HEXDG_UFACE_UPDATE = F: it prolongs) */
  int lift_volume;   /* the Gauss lifting line kernel forms the weak form's whole volume term,
                      * Dhat applied once per direction to the advective minus the viscous
                      * contravariant fluxes, into Ut_visc; the weak line update then adds only
                      * the surface terms (weak_lift_volume_possible; HEXDG_LIFT_VOLUME) */
  int weak_surf_3blocks; /* that update, loading up front, at 3 blocks per SM instead of 4
                          * (HEXDG_WEAK_SURF_3BLOCKS, default) */
  const double *metrics, *sJ, *elem_x;
  const double *face_nvec, *face_t1, *face_t2, *face_surf, *face_x;
  /* Constant metric terms (mesh/constmetrics.h; NULL: none, or HEXDG_CONST_METRICS = F): per
   * element J a and 1/J [elem][10] (1/J = 0: a curved element, read the nodal arrays), per side
   * n, t1, t2 and the surface element [side][10] (0: a curved side). node_metrics and friends
   * below choose. */
  const double *elem_const, *side_const;
  const int *side_info;  /* [side][6]: master elem, master locside, slave elem, slave locside, flip, bc */
  const int *elem_sides; /* [elem][6][2]: side, flip */
  const int *s2v;        /* [flip][locside][q][p] -> volume node */
  const int *bc_info;    /* [bc][2]: type, state (physics/bc.h) */
  const double *sponge;  /* [elem][n3] damping * ramp, NULL without sponge zone */
  const int *sponge_elem; /* [elem]: base block or -1; NULL for SpongeBaseFlow = 1 (dg/sponge.h) */
  double *sponge_base_U;  /* [sponge elem][var][n3]; NULL: the constant sponge_base */
  int n_sponge_elems;
  double sponge_filter_width; /* tempFilterWidthSponge (SpongeBaseFlow = 4) */
  /* MPI: on "mine" sides [first_mpi, first_yours) the slave element is on another rank; its face
   * states and lifted gradients arrive packed, [side - first_mpi][var][n2] and [..][12][n2] */
  int first_mpi;
  const double *mpi_U_recv, *mpi_grad_recv;
  double sponge_base[HX_NVAR];
  /* FV subcell shock capturing (IndicatorType != none; fv_kernels.cu, src/dg/fv.c): alpha NULL
   * when off. fv_metrics: [elem][dir][interface N][line np^2][3] (fv_device_metrics);
   * fv_vinv: nodal -> modal (np^2); fv_line: constants of the line sweep (fvblend.h);
   * alpha_side: [master n_sides | slave n_sides]. */
  double *alpha, *alpha_side;
  const double *fv_metrics, *fv_vinv;
  const FVLine *fv_line;
  int fv_indicator, fv_ind_var, fv_limiter, fv_positivity, fv_extend, fv_n_extend;
  double fv_alpha_min, fv_alpha_max, fv_alpha_fix, fv_ext_scale;
  double *U_good; /* copy of U at the start of each step whose state passed the check */
  /* FV blending of air: [elem] the blending factors the dt kernel reads (the host's initial
   * ones, then each step's last stage's: TimeDisc.alpha_dt of the CPU) and the factor on a
   * blended element's spectral radius (fv_blend_dt_lambda); alpha_dt NULL otherwise */
  double *alpha_dt;
  double dt_blend_scale;
  /* FLEXI's indicators and FV switching (indicator_kernels.cu; dg/indicator.h): ind_value NULL
   * when hennemann/fixed blend; ind_static: [elem] IndValue of fv/halfhalf/checkerboard */
  int fv_mode, ind_code, n_modes, to_dg_indicator, to_dg_in_rk, switch_conservative;
  double ind_start_time, ind_upper, ind_lower, to_dg_limit;
  double *ind_value, *ind_scratch;
  const double *ind_static, *fv_to_fv, *fv_to_dg;
  int *fv_elems;
  int *fv_elems_good;      /* switching: the FV_Elems of U_good (restored with it) */
  const int *ind_boundary; /* [elem] FVBoundaries flags; NULL when off */
  double *ind_ghost; /* several ranks, jameson and DucrosTimesJST: IndVar at the face points of
                      * the MPI sides, [master | slave][side][n2], each rank its element's half,
                      * the other rank's exchanged (the CPU's ghost_master/_slave); NULL else */
  /* FV switching on Gauss nodes (fv_gauss_kernels.cu, dg/fv_gauss.h; fvg_sJ NULL otherwise), as
   * struct FVGauss: an FV element's U holds the means of equidistant subcells, fvg_sJ [elem][n3]
   * and fvg_Ja [elem][9][n3] their Jacobians and metric terms (ApplyJac, the time step);
   * fvg_face_mv, fvg_face_x [side][3][n2] the face subcells' mean n dS and positions; fvg_dx_l,
   * fvg_dx_r [elem][3][line][np]; fvg_dist_master/_slave [side][2][n2]. Work arrays of a stage:
   * fvg_U_face, fvg_multi [master | slave][side][5][n2] (face states, the reconstruction's
   * neighbours), fvg_flux [side][nvar][n2] (flux . n dS of the face subcells), fvg_ghost
   * [elem][6][5][n2], fvg_ghost_dx [elem][6][n2], fvg_prim [elem][6][n3] (rho, u, v, w, p, T).
   * Navier-Stokes (NULL for Euler; dg/fv_gauss_visc.c): fvg_slope [elem][dir 3][lift 4][line]
   * [np + 1] (FVGauss.slope), fvg_grad [master | slave][side][12][n2] (the face gradients at the
   * face subcells: the CPU's grad_master/grad_slave of the sides with an FV element), fvg_lift
   * [side][12][n2] (w* n dS of the face subcells). fvg_h = h, fvg_s_h = 1 / h, fvg_h3 = h^3 (h the
   * subcell width in reference space). Several ranks: fvg_side_fv [master | slave][side] the
   * FV_Elems of the MPI sides' elements, the other rank's exchanged at each stage (NULL on one
   * rank); the halves of fvg_U_face, fvg_multi and fvg_grad are side arrays that gpu_mpi_fv.cu
   * exchanges as they are. */
  const double *fvg_sJ, *fvg_Ja, *fvg_face_mv, *fvg_face_x, *fvg_dx_l, *fvg_dx_r;
  const double *fvg_dist_master, *fvg_dist_slave;
  double *fvg_U_face, *fvg_multi, *fvg_flux, *fvg_ghost, *fvg_ghost_dx, *fvg_prim;
  double *fvg_slope, *fvg_grad, *fvg_lift, *fvg_side_fv;
  double fvg_h, fvg_s_h, fvg_h3;
  double fvg_dt_scale; /* an FV element's spectral radius times this (timedisc_gauss_fv_scale) */
  /* FV_PositivityLimiter: per element [4] the minima of rho, p, -rho, -rho E of the state after
   * the stage's update, as ordered keys (fv_key; the update kernel reduces, the post-update
   * kernel reads and resets them to FV_KEY_NONE); NULL without the limiter */
  unsigned long long *fv_minima;
  /* Reacting flow (mix_kernels.cu; mech NULL for air): nvar = 5 + n_species. P holds every
   * node's state of the mixture's equation of state, [elem][MIX_NP(ns)][n3] with the slots
   * rho, u, v, w, p, Y_0..Y_ns-1 (the FV reconstruction variables, in fvblend_mix.h's order), T
   * (also the next Newton guess), c; it is refreshed after every change of U. */
  const struct ChemMech *mech; /* device copy */
  int n_species;
  const double *ref_U; /* [RefState][nvar] */
  double *P;
  double *fv_res; /* [elem][nvar][n3]: the mixture's FV subcell residual (alpha > 0 elements) */
  int *elem_bad;  /* [elem]: a node failed the positivity check (FV_PositivityLimiter) */
  /* The side ranges of the mesh (boundary sides first, then inner, then MPI sides): the mixture's
   * face fluxes take the inner sides on Gauss-Lobatto nodes in a kernel of their own. */
  int n_bc_sides, n_inner_sides;
  int face_inner; /* FACE_INNER_* bits: the inner and MPI sides in the face kernels without the
                   * boundary paths (face_kernels.cu); HEXDG_FACE_INNER_FLUX / _LIFT = F clear
                   * them */
  int weak_line_surf; /* the weak fused update gathers the face fluxes per element line
                       * (volint_kernels.cu); HEXDG_WEAK_LINE_SURF = F: per node */
  int weak_line_vol;  /* Gauss nodes: weak_update_line_kernel where np allows it
                       * (HEXDG_WEAK_LINE_VOL = F: weak_update_kernel) */
  /* Species transport (mix_visc.cu, mu0 > 0): the diffusivities (device copy); grad then holds
   * [elem][3][n_lift][n3] (n_lift = 4 + ns), lift_flux the face values w* [side][n_lift][n2];
   * Gauss-Lobatto nodes: each side's viscous flux Fv . n [side][master | slave][nvar][n2] */
  const struct MixTransport *mix_tr;
  double *mix_face_visc;
  /* LES eddy viscosity (gpu/eddyvisc.cuh): model SGS_* (0: none), cp / PrSGS, (C Delta damp)^2
   * per volume node [elem][n3] and per face point of each side [side][n2] */
  int sgs_model;
  double sgs_lambda_factor;
  const double *sgs_coef, *sgs_coef_master, *sgs_coef_slave;
  unsigned long long *sgs_mu_max; /* [elem] largest volume mu_t since the last dt, as bits
                                     (non-negative doubles order like their bits) */
  StepScalars *sc;
} DevData;

/* Launch KERNEL(NS) with the compile-time species count of the mechanism sizes in use (Li 2004:
 * 9, H2/O2 with AR and N2: 10, Burke 2012: 13), or KERNEL(0) (run-time count) for others;
 * MIX_DISPATCH_FIXED: the instantiated sizes alone (nothing for others, MIX_FIXED_SPECIES). */
#define MIX_DISPATCH_FIXED(ns, KERNEL)                                                             \
  case 9: KERNEL(9); break;                                                                        \
  case 10: KERNEL(10); break;                                                                      \
  case 13: KERNEL(13); break;
#define MIX_FIXED_SPECIES(ns) ((ns) == 9 || (ns) == 10 || (ns) == 13)
#define MIX_DISPATCH(ns, KERNEL)                                                                   \
  switch (ns) {                                                                                    \
  MIX_DISPATCH_FIXED(ns, KERNEL)                                                                   \
  default: KERNEL(0); break;                                                                       \
  }

#define MIX_T(ns) (5 + (ns))
#define MIX_C(ns) (6 + (ns))
#define MIX_NP(ns) (7 + (ns))

/* Ordered 64-bit keys of doubles: key(a) < key(b) iff a < b, NaN as the smallest key (so that a
 * NaN state counts as inadmissible); FV_KEY_NONE is the identity of the minimum. */
#define FV_KEY_NONE 0xffffffffffffffffull
__device__ static inline unsigned long long fv_key(double x) {
  if (x != x) return 0ull;
  const unsigned long long b = (unsigned long long)__double_as_longlong(x);
  return (b >> 63) ? ~b : b | 0x8000000000000000ull;
}
__device__ static inline double fv_key_value(unsigned long long k) {
  return __longlong_as_double((long long)((k >> 63) ? k & 0x7fffffffffffffffull : ~k));
}

typedef struct {
  PhysParams pp;
  ExactFuncParams ef;
} DevPhysics;

/* Local side at the minus (end 0) or plus (end 1) end of the lines of direction dir. */
__device__ static __forceinline__ int line_end_side(int dir, int end) {
  return end ? (dir == 0 ? 2 : dir == 1 ? 3 : 5) : (dir == 0 ? 4 : dir == 1 ? 1 : 0);
}

/* Side, flip and face point (in the master's orientation) of the end `end` of line `line`
 * (0 .. np^2 - 1, the two indices across it) along direction dir of element e. NP: np when known
 * at compile time (0: d.np). */
template <int NP = 0>
__device__ static __forceinline__ void line_end_face_point(const DevData &d, int e, int dir,
                                                           int line, int end, int *side, int *flip,
                                                           int *f) {
  const int np = NP ? NP : d.np;
  const int a = line % np, b = line / np, ls = line_end_side(dir, end);
  const int i = dir == 0 ? 0 : a, j = dir == 0 ? a : dir == 1 ? 0 : b, k = dir == 2 ? 0 : b;
  int ps, qs, p, q;
  *side = d.elem_sides[2 * (6 * e + ls)];
  *flip = d.elem_sides[2 * (6 * e + ls) + 1];
  volume_to_side(np - 1, ls, i, j, k, &ps, &qs); /* the index along dir does not matter */
  flip_master_to_slave(*flip, np - 1, ps, qs, &p, &q);
  *f = q * np + p;
}

/* Constant metric terms (DevData.elem_const, side_const): the element's or the side's one set
 * where it has one, else the nodal values. N3, N2: nodes per element, points per side when known
 * at compile time (0: d.n3, d.n2). */
__device__ static __forceinline__ const double *elem_const_of(const DevData &d, int e) {
  if (!d.elem_const) return nullptr;
  const double *m = d.elem_const + (size_t)CM_ELEM_VALUES * e;
  return __ldg(&m[CM_ELEM_SJ]) != 0.0 ? m : nullptr;
}

/* J a^dir_c at [dir * 3 + c] of node n of element e. */
template <int N3 = 0>
__device__ static __forceinline__ void node_metrics(const DevData &d, int e, int n, double Ja[9]) {
  const int n3 = N3 ? N3 : d.n3;
  const double *m = elem_const_of(d, e);
  const double *src = m ? m : d.metrics + (size_t)e * 9 * n3 + n;
  const int stride = m ? 1 : n3;
#pragma unroll
  for (int c = 0; c < 9; c++)
    Ja[c] = __ldg(&src[c * stride]);
}

/* The three components of J a^dir of node n of element e. */
template <int N3 = 0>
__device__ static __forceinline__ void node_metric_dir(const DevData &d, int e, int dir, int n,
                                                       double m3[3]) {
  const int n3 = N3 ? N3 : d.n3;
  const double *m = elem_const_of(d, e);
  const double *src = m ? m + 3 * dir : d.metrics + ((size_t)e * 9 + 3 * dir) * n3 + n;
  const int stride = m ? 1 : n3;
#pragma unroll
  for (int c = 0; c < 3; c++)
    m3[c] = __ldg(&src[c * stride]);
}

/* 1/J of node n of element e. */
template <int N3 = 0>
__device__ static __forceinline__ double node_sJ(const DevData &d, int e, int n) {
  const double *m = elem_const_of(d, e);
  return m ? m[CM_ELEM_SJ] : __ldg(&d.sJ[(size_t)e * (N3 ? N3 : d.n3) + n]);
}

__device__ static __forceinline__ const double *side_const_of(const DevData &d, int side) {
  if (!d.side_const) return nullptr;
  const double *m = d.side_const + (size_t)CM_SIDE_VALUES * side;
  return __ldg(&m[CM_SIDE_SURF]) != 0.0 ? m : nullptr;
}

/* The unit normal (and, where t1 is not NULL, the tangents) of face point f of side. */
__device__ static __forceinline__ void face_frame(const DevData &d, int side, int f, double *n,
                                                  double *t1, double *t2) {
  const double *m = side_const_of(d, side);
  if (m) {
    for (int c = 0; c < 3; c++) {
      n[c] = m[c];
      if (t1) {
        t1[c] = m[3 + c];
        t2[c] = m[6 + c];
      }
    }
    return;
  }
  for (int c = 0; c < 3; c++) {
    const size_t at = ((size_t)side * 3 + c) * d.n2 + f;
    n[c] = d.face_nvec[at];
    if (t1) {
      t1[c] = d.face_t1[at];
      t2[c] = d.face_t2[at];
    }
  }
}

/* The surface element of face point f of side. */
__device__ static __forceinline__ double face_surf(const DevData &d, int side, int f) {
  const double *m = side_const_of(d, side);
  return m ? m[CM_SIDE_SURF] : d.face_surf[(size_t)side * d.n2 + f];
}

/* The state at face point f of side kept in U_face (slot 0: the master's, 1: the slave's). */
__device__ static __forceinline__ void load_face_state(const DevData &d, int side, int slot, int f,
                                                       double *u) {
  const double *o = d.U_face + ((size_t)side * 2 + slot) * HX_NVAR * d.n2 + f;
  for (int v = 0; v < HX_NVAR; v++)
    u[v] = o[v * d.n2];
}

/* Launchers (stream-ordered, capturable). c_stage, a, b: RK coefficients of the stage. The face
 * launchers work on the sides [first, last): all sides on one rank; with MPI the boundary and
 * inner sides and the "mine" sides separately, never the "yours" sides (their master is remote). */
/* dependent: launched as a dependent of the lifting kernel (PDL, see launch_kernel). */
int launch_face_flux(const DevData *d, const DevPhysics *ph, double c_stage, int first, int last,
                     cudaStream_t s, bool dependent = false);
/* Whether the face flux kernel without boundary paths serves d's inner sides (its solver, split
 * flux and no LES; d.visc_face needs it). */
bool face_inner_flux_serves(const DevData *d);
int launch_volume_integral(const DevData *d, const DevPhysics *ph, cudaStream_t s);
/* dependent: launched as a dependent of the previous stage's update kernel (PDL; the kernel
 * waits for it before it reads anything). */
int launch_face_lifting(const DevData *d, const DevPhysics *ph, double c_stage, int first, int last,
                        cudaStream_t s, bool dependent = false);
/* U_face of every side prolonged from U (d.u_face_update: after a host write of U). */
int launch_face_states(const DevData *d, cudaStream_t s);
/* Slave-side face values of the sides [first, last) ("yours" sides), prolonged from the volume
 * array vol with nv variables ([elem][nv][n3]: U or the gradients) in the master's face
 * orientation, packed into out[side - first][nv][n2]: what the master's rank needs. */
int launch_pack_slave(const DevData *d, const double *vol, int nv, int first, int last,
                      double *out, cudaStream_t s);
/* Gradients, face gradients (grad_face) and the viscous volume term, after launch_face_lifting.
 * volume_grad: also write the volume gradients d->grad when grad_face is set (the TGV analysis
 * needs them); without grad_face they are always written. dependent: a dependent launch after
 * the face lifting kernel (the line kernels; the node kernel launches normally). */
int launch_lifting(const DevData *d, const DevPhysics *ph, int volume_grad, cudaStream_t s,
                   bool dependent = false);
int lifting_configure(const DevData *d);
/* Whether the lifting kernel can write the face gradients (grad_face): Gauss-Lobatto nodes (the
 * face points are nodes) or Gauss nodes (the line kernel interpolates them), the line kernels,
 * one rank. */
bool lifting_face_gradients(const DevData *d, int n_ranks);
/* Whether the face lifting kernel keeps its prolonged states in U_face for the face flux kernel:
 * Gauss nodes with face gradients. */
bool lifting_face_states(const DevData *d, int n_ranks);
/* Whether three blocks of the Gauss lifting line kernel fit on an SM with d's face values (the
 * 80-register instance, d.gauss_line_3blocks). */
bool gauss_line_three_blocks_fit(const DevData *d);
/* TGV analysis: per-element sums (HX_TGV_NSUMS integrals + max vorticity) and their total. */
int launch_tgv_sums(const DevData *d, const DevPhysics *ph, double *elem_sums, double *total,
                    cudaStream_t s);
/* The device data, physics and element stream of a solver, for kernels kept outside
 * gpu_solver.cu (record points, time averages, sponge base flow). */
const DevData *gpu_dev_data(const GpuSolver *g);
const DevPhysics *gpu_dev_physics(const GpuSolver *g);
cudaStream_t gpu_elem_stream(const GpuSolver *g);
/* The lifted gradients of the current state at its time (volume gradients d->grad written),
 * enqueued on the element stream (air Navier-Stokes). */
int gpu_lift_state(GpuSolver *g);
/* LES: gpu_lift_state and sgs_mu_max of the current state alone (reset first), the CPU's
 * eddyvisc_refresh; nothing without a model. */
int gpu_sgs_refresh(GpuSolver *g);
/* p_max = max(p_max, p) at every node ([elem][n3]): the numerical soot foil. */
int launch_max_pressure(const DevData *d, const DevPhysics *ph, double *p_max, cudaStream_t s);
/* The front-pressure record: row[bin[node]] = max(row, p) over the nodes (row as the bits of
 * non-negative doubles, so the atomic max of the bits is that of the values). */
int launch_front_pressure(const DevData *d, const DevPhysics *ph, const int *bin,
                          unsigned long long *row, cudaStream_t s);
int volume_integral_configure(const DevData *d);
/* The KG/PI volume kernel serves d (split form KG or PI, degree 3..7, element data in shared
 * memory), with this launch configuration. */
bool volint_kep_launch_config(const DevData *d, int *elems_per_block, int *threads_per_elem,
                              size_t *shared_bytes);
/* VolInt, SurfInt and the RK update of one stage in one kernel (KG/PI from N = 4 on, or the weak
 * form; no FV, air): saves the Ut round trip. volint_update_fused: d qualifies
 * (HEXDG_FUSED_UPDATE=F: never). dependent: a dependent launch after the face flux kernel (the
 * volume sums before the wait). */
bool volint_update_fused(const DevData *d);
/* The weak form's twin (volint_kernels.cu): whether d qualifies, and its launch. */
bool weak_update_possible(const DevData *d);
/* Whether every stage's update is weak_update_line_kernel with U_face set, so that it can keep
 * U_face current (d.u_face_update). */
bool weak_line_update_face_states(const DevData *d);
/* Whether the lifting kernel can form the weak form's whole volume term (d.lift_volume) on one
 * GPU. */
bool weak_lift_volume_possible(const DevData *d);
int launch_weak_update(const DevData *d, const DevPhysics *ph, double a, double b,
                       double c_stage, bool first_stage, cudaStream_t s, bool dependent);
int volint_update_configure(const DevData *d, int shared_bytes);
int launch_volint_update(const DevData *d, const DevPhysics *ph, double a, double b,
                         double c_stage, bool first_stage, cudaStream_t s, bool dependent = false);
/* SurfInt + RK update of one stage; first_stage: also U_good = U, t_good = t (shock capturing:
 * the state that passed the step's check) before the update. */
int launch_surface_update(const DevData *d, const DevPhysics *ph, double a, double b,
                          double c_stage, bool first_stage, cudaStream_t s);
int launch_timestep(const DevData *d, const DevPhysics *ph, cudaStream_t s);
/* The two halves of launch_timestep, for a reduction of the maxima over the ranks in between. */
int launch_lambda_max(const DevData *d, const DevPhysics *ph, cudaStream_t s);
int launch_dt_finalize(const DevData *d, cudaStream_t s);
/* t += dt (or t = t_analyze where the step landed); mirror != NULL: also the scalars the host
 * reads after a step (t, dt, landed, bad, bad_elem) into that mapped pinned mirror, instead of a
 * copy after the kernel. dependent: a dependent launch of the last update (PDL). */
int launch_time_advance(const DevData *d, cudaStream_t s, StepScalars *mirror = nullptr,
                        bool dependent = false);
/* 3S* RK schemes: the registers S2, S3 before stage st's fused update (timestep_kernels.cu). */
int launch_rk3s_prepare(const DevData *d, const LowStorageRK *rk, int st, double *s2, double *s3,
                        cudaStream_t s);

/* FV shock capturing (fv_kernels.cu). The indicator's blending factors of the current U (after
 * an upload; during the time loop launch_surface_update computes them with the positivity
 * limiter). FV_doExtendAlpha spreads them at the start of each stage (several ranks:
 * gpu_mpi_fv_alpha). */
int launch_fv_indicator(const DevData *d, const DevPhysics *ph, cudaStream_t s);
/* After a stage's update: positivity limiter (FV_PositivityLimiter), then the indicator. */
int launch_fv_post_update(const DevData *d, const DevPhysics *ph, cudaStream_t s);
/* One spreading pass, in two halves: the side arrays from the elements, then the elements from
 * the side arrays (an MPI exchange of alpha_side goes in between). */
int launch_fv_alpha_to_sides(const DevData *d, cudaStream_t s);
int launch_fv_alpha_extend(const DevData *d, cudaStream_t s);
/* Ut += alpha FV subcell operator, for the elements with alpha > 0 (after VolInt, which scaled
 * its DG part by 1 - alpha). */
int launch_fv_volume(const DevData *d, const DevPhysics *ph, cudaStream_t s);
/* FLEXI's indicators (indicator_kernels.cu): IndValue and, when blending, alpha of every element
 * (after fv_kernels.cu's post-update; nothing when ind_value is NULL). With ind_ghost (several
 * ranks) nothing unless ghosts_exchanged: gpu_mpi_ind_alpha calls it once the other ranks' face
 * values are there. */
int launch_ind_alpha(const DevData *d, const DevPhysics *ph, cudaStream_t s,
                     bool ghosts_exchanged = false);
/* Several ranks (ind_ghost set): IndVar of this rank's element at the face points of the MPI
 * sides into its half of ind_ghost, for the exchange. */
int launch_ind_ghost_faces(const DevData *d, const DevPhysics *ph, cudaStream_t s);
/* FV_Mode = switching, before stage c_stage: IndValue, switch with hysteresis, convert U and k of
 * the switched elements, alpha = FV_Elems (fv_switch of dg/indicator.c). */
int launch_fv_switch(const DevData *d, const DevPhysics *ph, double c_stage, bool first_stage,
                     cudaStream_t s);
/* Switching, after the first stage's switch: FV_Elems to fv_elems_good when the step goes ahead
 * (dt > 0), as the first stage's update keeps U in U_good. */
int launch_fv_keep_good(const DevData *d, cudaStream_t s);
/* Set-up of the above from s->fv (upload_fv of gpu_solver.cu passes its allocator, dev_alloc). */
typedef int (*IndAlloc)(void *ctx, void **ptr, size_t bytes, const void *host, const char *what);
int ind_upload(DevData *d, const Solver *s, IndAlloc alloc, void *ctx);
int fv_configure(const DevData *d);
/* FV switching on Gauss nodes (fv_gauss_kernels.cu; nothing unless d->fvg_sJ): the set-up data of
 * s->fv.gauss and the stage's work arrays (after ind_upload). A stage on the side stream:
 * launch_fvg_face_states (face subcell states, ghosts, reconstructed face states) first;
 * Navier-Stokes: launch_fvg_lifting after the DG face lifting (lift_flux of the sides with an FV
 * element) and launch_fvg_gradients after the lifting (the FV elements' slopes, the face
 * gradients at the face subcells); launch_fvg_face_fluxes after the DG face fluxes (face subcell
 * fluxes and their DG form in flux). The FV elements' subcell operator into Ut after VolInt and
 * the side stream's work (launch_fvg_volume). */
int fvg_upload(DevData *d, const Solver *s, IndAlloc alloc, void *ctx);
int launch_fvg_face_states(const DevData *d, const DevPhysics *ph, double c_stage,
                           cudaStream_t s);
/* launch_fvg_face_states in two halves, for the exchange of fvg_multi in between (several ranks):
 * the sides' face states and reconstruction neighbours, then the FV elements' ghosts and
 * reconstructed face states. */
int launch_fvg_side_states(const DevData *d, const DevPhysics *ph, cudaStream_t s);
int launch_fvg_reconstruct(const DevData *d, const DevPhysics *ph, double c_stage, cudaStream_t s);
/* Several ranks: FV_Elems of this rank's element of every MPI side into its half of
 * fvg_side_fv, for the exchange. */
int launch_fvg_side_flags(const DevData *d, cudaStream_t s);
/* The face launchers work on the sides [first, last) (one rank: all; several: not the "yours"
 * sides, whose master is remote). */
int launch_fvg_lifting(const DevData *d, const DevPhysics *ph, double c_stage, int first, int last,
                       cudaStream_t s);
int launch_fvg_gradients(const DevData *d, const DevPhysics *ph, cudaStream_t s);
int launch_fvg_face_fluxes(const DevData *d, const DevPhysics *ph, double c_stage, int first,
                           int last, cudaStream_t s);
int launch_fvg_volume(const DevData *d, const DevPhysics *ph, cudaStream_t s);
/* The subcell metrics of src/dg/fv.c reordered for the volume kernel's interface numbering. */
extern "C" void fv_device_metrics(int np, long n_elems, const double *host, double *out);


/* Reacting flow (mix_kernels.cu): the mixture's counterparts of the launchers above. */
/* P of every node from U; flag_bad: mark the elements with an inadmissible node (elem_bad). */
int launch_mix_prim(const DevData *d, bool flag_bad, cudaStream_t s);
/* dt from P (CFL), then launch_dt_finalize; the first half alone for several ranks */
int launch_mix_timestep(const DevData *d, cudaStream_t s);
int launch_mix_lambda_max(const DevData *d, cudaStream_t s);
int launch_mix_face_flux(const DevData *d, const DevPhysics *ph, double c_stage, int first,
                         int last, cudaStream_t s);
/* The rest of a stage once the face fluxes are under way (after the FV residual): VolInt,
 * SurfInt, the RK update and launch_mix_post_update's work; faces: the event of the face fluxes,
 * waited for on s before SurfInt. For the instantiated species counts up to N = 5 one kernel per
 * element does all of it (mix_kernels.cu); otherwise launch_mix_volume_integral, then
 * launch_surface_update. */
int launch_mix_stage_update(const DevData *d, const DevPhysics *ph, double a, double b,
                            double c_stage, bool first_stage, cudaEvent_t faces, cudaStream_t s);
/* whether launch_mix_stage_update is the one fused kernel */
bool mix_stage_fused(const DevData *d);
/* FV subcell residual of the blended elements (fv_res), before launch_mix_volume_integral */
int launch_mix_fv_volume(const DevData *d, const DevPhysics *ph, cudaStream_t s);
/* Ut = (1 - alpha) R_DG + alpha R_FV */
int launch_mix_volume_integral(const DevData *d, const DevPhysics *ph, cudaStream_t s);
/* After a stage's update: P, the positivity limiter (FV_PositivityLimiter), the indicator. */
int launch_mix_post_update(const DevData *d, cudaStream_t s);
/* The indicator's alpha of every element from P. */
int launch_mix_indicator(const DevData *d, cudaStream_t s);
/* Shared-memory limits of the mixture's kernels (once at set-up). */
int mix_configure(const DevData *d);

/* The chemistry stage on the device (mix_chem.cu): gather, batch integration (chem_gpu.h),
 * scatter, per-element integrator steps. */
typedef struct MixChem MixChem;
extern "C" int mix_chem_create(const DevData *d, const struct ChemMech *host_mech, MixChem **out);
extern "C" void mix_chem_destroy(MixChem *c);
extern "C" size_t mix_chem_bytes(const MixChem *c, int n_species);
extern "C" int mix_chem_advance(MixChem *c, const DevData *d, cudaStream_t s, double dt,
                                double T_min, int integrator, int single_launch, int share,
                                const ChemIntegratorOptions *opt, GpuChemStats *st);
/* The integrator steps per element since the last reset (at the start of each step). */
extern "C" int mix_chem_elem_steps(MixChem *c, const DevData *d, double *elem_steps);
/* ChemLoadBalance: move the shared reactors GPU to GPU (CUDA IPC; every rank on one node). */
extern "C" void mix_chem_use_ipc(MixChem *c, int on);
extern "C" int mix_chem_reset_steps(MixChem *c, const DevData *d, cudaStream_t s);

/* CUDA backend on several MPI ranks (gpu_mpi.cu): the MPI sides on the high-priority stream,
 * their blocks copied GPU to GPU (CUDA IPC, device flags; stages can be captured in a graph) or
 * staged through pinned host memory (host MPI calls; no graph). */
typedef struct GpuMpi GpuMpi;
/* Allocates the MPI buffers and points d->mpi_U_recv, d->mpi_grad_recv at them. With overlap 0
 * everything runs on s_elem and each exchange is waited for right after it starts. transport:
 * GPU_TRANSPORT_* (gpu.h); collective over all ranks (they agree on the transport). */
int gpu_mpi_create(const Solver *s, DevData *d, cudaStream_t s_elem, cudaStream_t s_side,
                   cudaStream_t s_mpi, int overlap, int transport, GpuMpi **out);
/* Whether the stages of this run can be captured in a CUDA graph (IPC transport, no host call
 * inside a stage). */
int gpu_mpi_capturable(const GpuMpi *m, const DevData *d);
/* Whether gpu_mpi_timestep reduces on the device (then a step's dt and stages are one graph). */
int gpu_mpi_dt_on_device(const GpuMpi *m);
/* Whether the step's dt can be computed beside its first stage (device reduction, air without
 * shock capturing or LES; HEXDG_DT_BESIDE=F: never), and that: the next gpu_mpi_stage's update
 * waits for it. */
int gpu_mpi_dt_beside_possible(const GpuMpi *m, const DevData *d);
int gpu_mpi_timestep_beside(GpuMpi *m, const DevData *d, const DevPhysics *ph);
/* "ipc" or "host" */
const char *gpu_mpi_transport(const GpuMpi *m);
void gpu_mpi_destroy(GpuMpi *m);
size_t gpu_mpi_bytes(const GpuMpi *m);
/* dt of the step: eigenvalue maxima on the device, reduced over the ranks on the device
 * (gpu_mpi_dt_on_device: rank_max.cuh; capturable) or on the host (a stream sync and
 * MPI_Allreduce). sc_host: pinned mirror of d->sc. */
int gpu_mpi_timestep(GpuMpi *m, const DevData *d, const DevPhysics *ph, StepScalars *sc_host);
/* One RK stage (a, b, c: its coefficients), ending with the surface update on s_elem. */
int gpu_mpi_stage(GpuMpi *m, const DevData *d, const DevPhysics *ph, double a, double b, double c,
                  bool first_stage);
/* Lifted gradients (and the viscous volume term in Ut) of the current state, on s_elem. */
int gpu_mpi_lifting(GpuMpi *m, const DevData *d, const DevPhysics *ph, double c);
/* Spreading of the blending factors on s_elem (FV_doExtendAlpha): the remote halves of
 * alpha_side GPU to GPU (IPC) or through the host (a few doubles per MPI side, once per pass). */
int gpu_mpi_fv_alpha(GpuMpi *m, const DevData *d);
/* The parts of a GpuMpi that gpu_mpi_fv.cu's stages are built from: the side ranges, the streams
 * (all s_elem without overlap) and the packed buffers of the slave states and gradients (the
 * received ones are d->mpi_U_recv, d->mpi_grad_recv). */
typedef struct {
  int first_mpi, first_yours, n_sides;
  cudaStream_t s_elem, s_side, s_mpi;
  double *send_U, *recv_U, *send_grad, *recv_grad;
} GpuMpiParts;
GpuMpiParts gpu_mpi_parts(const GpuMpi *m);
/* Stream `to` waits for the work queued on `from` so far. */
int gpu_mpi_hop(GpuMpi *m, cudaStream_t from, cudaStream_t to);
/* One exchange of per-side device data on both transports, in stream order on s (no host call
 * with ipc: capturable): send holds the sent sides' block ("yours" sides to the master, "mine"
 * sides to the slave), recv receives the other block, each packed from its first side with
 * doubles_per_side values per side (at most gpu_mpi_fv_doubles_per_side). Every rank calls the
 * same exchanges in the same order. */
int gpu_mpi_exchange(GpuMpi *m, const double *send, double *recv, long doubles_per_side,
                     int direction, cudaStream_t s);
/* The same in place on a side-major array face[n_sides][doubles_per_side]. */
int gpu_mpi_exchange_sides(GpuMpi *m, double *face, long doubles_per_side, int direction,
                           cudaStream_t s);

/* FLEXI's indicators and FV switching on several ranks (gpu_mpi_fv.cu). */
/* Doubles per side of the largest gpu_mpi_exchange of this run (0: none). */
long gpu_mpi_fv_doubles_per_side(const DevData *d);
/* Blending with a neighbour-reading indicator (ind_ghost): the face values exchanged, then
 * IndValue and alpha on s_elem (after a stage's update, after an upload); nothing otherwise. */
int gpu_mpi_ind_alpha(GpuMpi *m, const DevData *d, const DevPhysics *ph);
/* FV_Mode = switching, before stage c_stage: launch_fv_switch on s_elem, after the exchange of
 * the indicator's face values where it reads them; nothing without switching. */
int gpu_mpi_fv_switch(GpuMpi *m, const DevData *d, const DevPhysics *ph, double c_stage,
                      bool first_stage);
/* One RK stage with FV switching on Gauss nodes (d->fvg_sJ), the twin of gpu_mpi_stage: the face
 * subcells' states, neighbours, fluxes (and Navier-Stokes lifting values and gradients) cross
 * the rank boundaries; ends with the surface update on s_elem. */
int gpu_mpi_fvg_stage(GpuMpi *m, const DevData *d, const DevPhysics *ph, double a, double b,
                      double c, bool first_stage);

/* Species transport (mix_visc.cu; a viscous mixture on one rank): BR1 face values of
 * (u, v, w, T, Y_k), then the gradients and the viscous volume term (Ut_visc), both before the
 * advective face flux; the viscous face flux subtracted from d->flux after it; the step's dt
 * with the viscous (DFL) limit. */
int launch_mix_face_lifting(const DevData *d, const DevPhysics *ph, double c_stage, int first,
                            int last, cudaStream_t s);
int launch_mix_lifting(const DevData *d, const DevPhysics *ph, cudaStream_t s);
int launch_mix_visc_face_flux(const DevData *d, const DevPhysics *ph, double c_stage, int first,
                              int last, cudaStream_t s);
int launch_mix_visc_timestep(const DevData *d, const DevPhysics *ph, cudaStream_t s);
int mix_visc_configure(const DevData *d);

#endif
