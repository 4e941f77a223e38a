/* A whole run: parameters -> solver -> time loop with analysis and state output. */
#ifndef HEXDG_SIMULATION_H
#define HEXDG_SIMULATION_H

#include "analysis/analyze.h"
#include "dg/solver.h"
#include "time/timedisc.h"

typedef struct {
  Solver *solver;
  TimeDisc td;
  Analyze ana;
  char project[256];
  double t;          /* current time */
  double t_start;
  long iter;         /* time steps taken in this run */
  int n_analyses;    /* analyses since the start of this run */
  int quiet;         /* no progress output (tests) */
  char last_state[1100];
} Simulation;

/* Register every parameter of every module (the one registry behind --help). */
int simulation_define_params(Params *p);
/* Set up; restart_file may be NULL (start from IniExactFunc at t = 0). */
int simulation_create(const Params *p, const char *restart_file, Simulation **out);
/* Run to tend (or maxIter). */
int simulation_run(Simulation *sim);
/* Write the current state to <project>_State_<t>.h5. */
int simulation_write_state(Simulation *sim);
void simulation_destroy(Simulation *sim);

#endif
