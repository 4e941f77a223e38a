/* The chemistry stage of reacting flow (ChemistrySplitting = strang | lie | none): every DOF
 * is an adiabatic constant-volume reactor at its density and internal energy over the split
 * step (momentum and total energy are unchanged; T follows from the new composition), DOFs below
 * ChemTmin are skipped. Strang: dt/2 of chemistry, the flow step (all Runge-Kutta stages), dt/2
 * of chemistry; Lie: the flow step, then dt of chemistry. The integrator steps of each element
 * are its chemistry cost (ElemCost in the state file, partition weights at restart). */
#ifndef HEXDG_CHEMSTAGE_H
#define HEXDG_CHEMSTAGE_H

#include "chem/radau5.h"
#include "core/params.h"
#include "dg/solver.h"

enum { CHEM_SPLIT_NONE = 0, CHEM_SPLIT_LIE = 1, CHEM_SPLIT_STRANG = 2 };

/* The per-rank window of ChemStage.slow/fast, per time step (max steps: of the window; stage:
 * the wall time of the whole chemistry stage, with gathering, the shares' exchanges and waits) */
enum {
  CHEM_RANK_WALL,
  CHEM_RANK_REACTORS,
  CHEM_RANK_STEPS,
  CHEM_RANK_MAX_STEPS,
  CHEM_RANK_SPARSE,
  CHEM_RANK_STAGE,
  CHEM_RANK_N
};

typedef struct {
  int splitting;         /* CHEM_SPLIT_*; CHEM_SPLIT_NONE without a mechanism */
  int integrator;        /* CHEM_INTEGRATOR_* (chem/batch.h) */
  int gpu_single_launch; /* ChemGpuSchedule = single: one launch runs every reactor to the end
                            (the reference of the bulk-sparse schedule) */
  double gpu_seconds;    /* device time of the GPU integrations since the start */
  long gpu_launches;     /* integrator launches of the GPU batch since the start */
  double T_min;          /* ChemTmin: DOFs below it are frozen */
  int merge_half_steps;  /* ChemMergeHalfSteps: Strang's closing dt/2 joins the next opening */
  int share;   /* ChemLoadBalance: several ranks share the reactors (parallel/workshare.h) */
  double owed; /* chemistry time the current state still owes (the closing dt/2 of
                  the last Strang step while merged; 0 at analyses and outputs) */
  ChemIntegratorOptions opt;
  /* host work arrays over the DOFs (species-major reactor states) */
  double *y, *rho;
  long *dof; /* [active] the DOF of each reactor */
  int *steps;
  int *dof_steps; /* [DOF] integrator steps of its last chemistry interval: its predicted cost */
  /* ChemLoadBalance's work arrays (costs, order, moved rows, the rank's batch), kept between
     steps and grown when a step needs more */
  void *share_buf[6];
  size_t share_cap[6];
  double *elem_steps; /* [elem] integrator steps of the last time step's stages */
  /* wall time of the chemistry since the start and since the last analysis */
  double wall_chem;
  /* this rank's integration time since the last analysis (its work, whoever owns the reactors;
     without the waits of ChemLoadBalance's exchanges): the rank imbalance is measured on it */
  double work_window;
  long steps_total;
  long intervals;   /* chemistry intervals integrated since the start (calls of the stage) */
  double imbalance; /* max/mean over the ranks of work_window at the last analysis */
  double window_max, window_mean; /* per time step of that window: the slowest rank's and the
                                     ranks' mean chemistry wall time */
  long window_iter0;              /* the time step at the start of that window */
  double steps_global;            /* integrator steps of every rank, at the last analysis */
  /* this rank's work since the last analysis (what the rank imbalance is made of) */
  double win_reactors, win_steps, win_sparse_seconds, win_stage_seconds;
  int win_max_steps;
  /* at the last analysis on several ranks: the slowest and the fastest rank's window
     (CHEM_RANK_* per time step), for the progress report */
  int rank_slow, rank_fast;
  double slow[CHEM_RANK_N], fast[CHEM_RANK_N];
} ChemStage;

int chemstage_define_params(Params *p);
/* Read the keys (nothing to do and splitting = none without a mechanism). */
int chemstage_init(const Params *p, const Solver *s, ChemStage *cs);
void chemstage_free(ChemStage *cs);

/* One chemistry step of length dt on the host state s->U; adds to elem_steps. */
int chemstage_advance(ChemStage *cs, Solver *s, double dt);

/* The same on the CUDA backend's state (gpu/gpu.h); elem_steps are kept on the device
 * (gpu_chem_elem_steps) and reset at each step's gpu_step_dt. */
struct GpuSolver;
int chemstage_advance_gpu(ChemStage *cs, struct GpuSolver *g, double dt);
/* ChemGpuSchedule values */
enum { CHEM_GPU_BULK_SPARSE = 0, CHEM_GPU_SINGLE = 1 };

/* ElemCost of each local element: the wall time of its last time step in units of one element's
 * flow step, 1 + (chemistry time per integrator step x its steps) / (flow time per element);
 * 1 everywhere before any chemistry. */
void chemstage_elem_cost(const ChemStage *cs, const Solver *s, double flow_wall_per_elem,
                         double *cost);

#endif
