/* A whole run: parameters -> solver -> time loop with analysis and state output. */
#ifndef HEXDG_SIMULATION_H
#define HEXDG_SIMULATION_H

#include "analysis/analyze.h"
#include "analysis/frontpressure.h"
#include "analysis/maxpressure.h"
#include "analysis/recordpoints.h"
#include "analysis/tgv.h"
#include "analysis/timeavg.h"
#include "dg/solver.h"
#include "gpu/gpu.h"
#include "gpu/power.h"
#include "time/chemstage.h"
#include "time/timedisc.h"

enum { BACKEND_AUTO = -1, BACKEND_CPU = 0, BACKEND_CUDA = 1 };

typedef struct {
  Solver *solver;
  int backend;    /* BACKEND_CPU or BACKEND_CUDA */
  GpuSolver *gpu; /* device mirror when backend == BACKEND_CUDA */
  char device_name[256];
  TimeDisc td;
  Analyze ana;
  char project[256];
  double t; /* current time */
  double t_start;
  long iter;      /* time steps taken in this run */
  int n_analyses; /* analyses since the start of this run */
  int quiet;      /* no progress output (tests) */
  char last_state[1100];
  int tgv; /* TestCase = taylorgreenvortex: write <project>_TGVAnalysis.csv */
  TgvAnalysis tgva;
  int restarted;
  int output_format, n_visu; /* OutputFormat (ParaView: a .vtu beside each state), NVisu */
  bool body_forces;          /* CalcBodyForces */
  /* Shock capturing, CPU backend: the state at the start of the last step whose state passed
   * the admissibility check (the CUDA backend keeps its own copy on the device) */
  double *U_good, t_good;
  double chem_owed_good; /* the chemistry U_good owes (ChemMergeHalfSteps) */
  int *fv_elems_good;    /* FV switching: the FV_Elems of U_good */
  /* Reacting flow: the chemistry stage, the element costs written as ElemCost, the wall time of
   * the flow part (for the costs and the chemistry share) */
  ChemStage chem;
  double *elem_cost;
  double wall_flow;
  long flow_elem_steps; /* element-steps of the flow part: elements x time steps */
  MaxPressure maxp;     /* RecordMaxPressure: the numerical soot foil */
  FrontPressure frontp; /* RecordFrontPressure: the soot foil of a front held in place */
  TimeAvg tavg;         /* CalcTimeAverage (sums on the device with the CUDA backend) */
  GpuTimeAvg *gpu_tavg;
  RecordPoints rp;         /* RP_inUse: record points (docs/record_points.md) */
  bool calc_epid;          /* CalcEPID (CUDA backend only) */
  int wall_velocity;       /* CalcWallVelocity, WriteWallVelocity: WALLVEL_* */
  int mean_flux;           /* CalcMeanFlux, WriteMeanFlux: MEANFLUX_* */
  long face_data_analysis; /* n_analyses when the host face data were last computed, else -1 */
  PowerMeter *power;       /* the GPU's energy during simulation_run (EPID) */
} Simulation;

/* Register every parameter of every module (the one registry behind --help). */
int simulation_define_params(Params *p);
/* Set up; restart_file may be NULL (start from IniExactFunc at t = 0). */
int simulation_create(const Params *p, const char *restart_file, Simulation **out);
/* Run to tend (or maxIter). */
int simulation_run(Simulation *sim);
/* Bring the device solution to solver->U (no-op on the CPU backend). */
int simulation_sync_host(Simulation *sim);
/* Write the current state to <project>_State_<t>.h5. */
int simulation_write_state(Simulation *sim);
/* The header every file of the run shares (project, mesh, node type, N, nVar, elements, time). */
void simulation_base_header(const Simulation *sim, StateHeader *h);
void simulation_destroy(Simulation *sim);

#endif
