/* CUDA backend: the whole time step on the device (dt reduction, every RK stage of the DG operator,
 * the RK update), with three prioritized streams and the step captured in a CUDA graph. The host
 * sees the solution only when it asks for it (analysis and output). */
#ifndef HEXDG_GPU_H
#define HEXDG_GPU_H

#include <stddef.h>

#include "analysis/timeavg_pointwise.h"
#include "chem/radau5.h"
#include "dg/solver.h"
#include "time/rk_tables.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct GpuSolver GpuSolver;

/* How several ranks move face data between their GPUs (MPITransport): device to device with CUDA
 * IPC when every neighbour is on the node and reachable, else host (auto); always IPC (an error
 * when impossible); always through pinned host memory and MPI. */
enum { GPU_TRANSPORT_AUTO = 0, GPU_TRANSPORT_IPC = 1, GPU_TRANSPORT_HOST = 2 };

typedef struct {
  const LowStorageRK *rk;
  double cfl_scale, dfl_scale;
  int dims;          /* Dimension: 3, or 2 (zeta left out of the time step, FLEXI's 2-D build) */
  int check_admissible; /* CheckAdmissibility (TimeDisc.check_admissible) */
  int use_graphs;    /* capture a whole step in a CUDA graph (1) or launch kernel by kernel (0);
                        several MPI ranks: the stages, where their exchanges need no host call */
  int overlap_mpi;   /* several ranks: MPI sides first on the high-priority stream, messages in
                        flight during the inner sides and volume work (1); one stream, each
                        exchange waited for at once (0) */
  int mpi_transport; /* GPU_TRANSPORT_* */
  int chem_split;    /* reacting flow with a chemistry stage: gpu_step_dt, gpu_step_flow and
                        gpu_chem_advance instead of gpu_step */
  const double *alpha_dt; /* FV blending (air): [elem] the blending factors of the first step's
                             dt (TimeDisc.alpha_dt; then the last stage's); NULL: none */
  double dt_blend_scale;  /* factor on a blended element's spectral radius (timedisc_blend_scale) */
} GpuOptions;

/* Number of usable CUDA devices (0 without a GPU or in a build without CUDA). */
int gpu_device_count(void);
/* Select the device for this process (CUDA_VISIBLE_DEVICES is honoured by the runtime; with several
 * visible devices the local MPI rank picks one) and describe it in name. */
int gpu_select_device(char *name, size_t len);

/* Test of the reduction over the ranks on the device (rank_max.cu), collective: `rounds`
 * reductions of rank-dependent words (a different rank holds each maximum, one rank raises the
 * flag), launched directly (graph 0) or replayed from one CUDA graph (graph 1); *mismatches counts
 * this rank's wrong results. HX_ERR_DEVICE (why) where the ranks cannot map each other's GPUs. */
int gpu_rank_max_selftest(int rounds, int graph, long *mismatches, char *why, size_t len);

/* Copy mesh, geometry and the current solution s->U to the device. */
int gpu_solver_create(const Solver *s, const GpuOptions *opt, double t, GpuSolver **out);
void gpu_solver_destroy(GpuSolver *g);

/* One time step, the device's twin of the CPU loop: dt from the CFL condition, shortened to land
 * exactly on t_analyze. Returns the new time, the dt taken and whether it landed. If the state is
 * not admissible (rho or p <= 0, NaN) nothing is advanced and HX_ERR_NUMERIC is returned. */
int gpu_step(GpuSolver *g, double t_analyze, double *t, double *dt, int *landed);

int gpu_download_state(GpuSolver *g, double *U);
/* FV_Mode = switching: the device's FV_Elems (which elements hold subcell means) into fv_elems
 * ([elem]); nothing without switching. */
int gpu_download_fv_elems(GpuSolver *g, int *fv_elems);
/* U: the new solution (NULL: keep the device's), t: its time. */
int gpu_upload_state(GpuSolver *g, const double *U, double t);
/* Shock capturing keeps a copy of the state at the start of each step that passed the
 * admissibility check: make it the current solution again and return its time. HX_ERR_INPUT
 * (without a message) when there is no such copy (IndicatorType = none). */
int gpu_restore_good_state(GpuSolver *g, double *t);

/* Taylor-Green vortex integrals of the current solution, reduced on the device (gradients lifted
 * from the current state first when the run is viscous): sums[HX_TGV_NSUMS], max |omega| of this
 * rank's elements (the caller reduces over the ranks). */
int gpu_tgv_sums(GpuSolver *g, double *sums, double *max_vort);
/* LES (eddyViscType != none): mu_t of the current state at every volume node, [elem][k][j][i]
 * (FLEXI's muSGS), lifted and evaluated on the device, copied to mu_t on the host. */
int gpu_sgs_field(GpuSolver *g, double *mu_t);
/* Maximum pressure per node over the run (RecordMaxPressure): set the device copy from p_max
 * (n_elems*(N+1)^3 doubles, [elem][node]), fold in the current state after a step, read it back. */
int gpu_max_pressure_set(GpuSolver *g, const double *p_max);
int gpu_max_pressure_update(GpuSolver *g);
int gpu_max_pressure_get(GpuSolver *g, double *p_max);
/* The front-pressure record (analysis/frontpressure.h): set each node's bin (n_elems*(N+1)^3 ints)
 * and the number of bins, fold the current state into the open row after a step, take the open
 * row (n_bins doubles, 0 where no pressure) and start a new one. */
int gpu_front_pressure_set(GpuSolver *g, const int *bin, int n_bins);
int gpu_front_pressure_update(GpuSolver *g);
int gpu_front_pressure_take(GpuSolver *g, double *row);
/* SpongeBaseFlow = pruett (dg/sponge.h): advance the filter over a step of dt; the base flow of
 * the sponge elements to the host (Solver.sponge_base_U's layout). */
int gpu_sponge_pruett_update(GpuSolver *g, double dt);
int gpu_sponge_base_get(GpuSolver *g, double *base);
/* Time averages (CalcTimeAverage, analysis/timeavg.c) on the device: the window's sums and the
 * newest values ([elem][entry][node], last: the host's first sample) stay there; each step folds
 * in the new state (trapezoidal rule over dt); the sums come to the host only for a file. */
typedef struct GpuTimeAvg GpuTimeAvg;
int gpu_timeavg_create(GpuSolver *g, const TimeAvgMap *map, const double *last, GpuTimeAvg **out);
int gpu_timeavg_update(GpuTimeAvg *ta, double dt);
int gpu_timeavg_get(GpuTimeAvg *ta, double *sums);
int gpu_timeavg_reset(GpuTimeAvg *ta);
void gpu_timeavg_destroy(GpuTimeAvg *ta);

/* Record points (analysis/recordpoints.c, RP_inUse): the points' elements and Lagrange weights on
 * the device and a device buffer of rp->cap samples; gpu_rp_sample interpolates the current state
 * into sample slot `slot` (no host copy); gpu_rp_download copies slots [0, n) to the host buffer in
 * its layout ([slot][n_global][1 + nVar], other ranks' points -0.0). */
struct RecordPoints;
typedef struct GpuRecordPoints GpuRecordPoints;
int gpu_rp_create(GpuSolver *g, const struct RecordPoints *rp, GpuRecordPoints **out);
int gpu_rp_sample(GpuSolver *g, GpuRecordPoints *r, int slot, double t);
int gpu_rp_download(GpuSolver *g, GpuRecordPoints *r, int n, double *buf);
void gpu_rp_destroy(GpuRecordPoints *r);

/* Reacting flow with a chemistry stage (ChemistrySplitting = strang | lie): the step in parts.
 * gpu_step_dt: dt of the step (CFL, landing on t_analyze) without advancing; gpu_step_flow: every
 * RK stage with that dt, returns the new time; gpu_chem_advance: dt of chemistry on every DOF at
 * or above T_min (integrator: CHEM_INTEGRATOR_*; single_launch: one launch to the end instead of
 * the bulk-sparse schedule; share: on several ranks the reactors' work is shared among them,
 * parallel/workshare.h, a collective call then). */
int gpu_step_dt(GpuSolver *g, double t_analyze, double *dt, int *landed);
int gpu_step_flow(GpuSolver *g, double *t);
typedef struct {
  long cells;                     /* reactors integrated here (with share: the rank's work) */
  long steps;                     /* integrator steps over all of them */
  int max_steps;                  /* of the most expensive reactor */
  int launches;                   /* integrator kernel launches (bulk-sparse schedule) */
  double seconds, sparse_seconds; /* device time of the integration, of it in the sparse phase */
} GpuChemStats;
int gpu_chem_advance(GpuSolver *g, double dt, double T_min, int integrator, int single_launch,
                     int share, const ChemIntegratorOptions *opt, GpuChemStats *st);
/* Integrator steps of each local element in the current (last) step. */
int gpu_chem_elem_steps(GpuSolver *g, double *elem_steps);

/* The transport of the face data between ranks: "ipc", "host", or NULL on one rank. */
const char *gpu_mpi_transport_name(const GpuSolver *g);
/* Whether the steps are launched as CUDA graphs (UseCudaGraphs, and on several ranks the IPC
 * transport without host calls inside a stage). */
int gpu_uses_graphs(const GpuSolver *g);

/* Device memory held by the solver, in bytes. */
size_t gpu_bytes_allocated(const GpuSolver *g);
/* Run n_steps steps (no landing) timed with CUDA events; seconds of device time. */
int gpu_time_steps(GpuSolver *g, int n_steps, double *seconds);

#ifdef __cplusplus
}
#endif
#endif
