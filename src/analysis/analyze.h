/* Analysis: L2/Linf errors against the exact function on NAnalyze Gauss points, conserved
 * totals, and the <ProjectName>_ErrorNorms.csv series. */
#ifndef HEXDG_ANALYZE_H
#define HEXDG_ANALYZE_H

#include <stdbool.h>

#include "dg/solver.h"

typedef struct {
  bool calc_error_norms;
  int n_ana;        /* number of analysis points per direction (NAnalyze + 1) */
  double *V;        /* solution nodes -> analysis points, n_ana x np */
  double w[HX_NPMAX * 2 + 2];
  double *x, *J;    /* per element: [3][n_ana^3], [n_ana^3] */
  double volume;
  char csv_path[1100];
  int n_var;                   /* columns of the norms: the solver's variables */
  char (*var_names)[64];       /* the solver's names (not owned) */
} Analyze;

int analyze_define_params(Params *p);
int analyze_init(const Params *p, const Solver *s, const char *project, Analyze *a);
void analyze_free(Analyze *a);

/* Relative to the domain volume: L2 = sqrt(int (U - Uex)^2 dV / V). */
void analyze_error_norms(const Analyze *a, const Solver *s, double t, double *L2, double *Linf);
/* Integrals of the conserved variables with the solution quadrature (the discrete totals that
 * the scheme conserves exactly). */
void analyze_totals(const Solver *s, double *totals);
/* The mixture's temperature over the solution nodes of every rank: its smallest and largest
 * value, the positions of those nodes, and how many nodes have none (the analysis line
 * `temperature:`). Shows where a reacting run heats or cools beyond the physical range before it
 * stops (e.g. a pocket at an outflow). Collective; s->mech must be set. HX_ERR_MEM or HX_OK. */
typedef struct {
  double T_min, T_max;
  double x_min[3], x_max[3];
  long n_without;
} TemperatureRange;
int analyze_temperature_range(const Solver *s, TemperatureRange *r);
/* Append a line to the ErrorNorms CSV (creating it with a header when `fresh`). */
int analyze_write_csv(const Analyze *a, double t, const double *L2, const double *Linf, bool fresh);

#endif
