/* Taylor-Green vortex analysis: the columns of FLEXI's <ProjectName>_TGVAnalysis.csv (flexi
 * src/testcase/taylorgreenvortex/testcase.f90, AnalyzeTestcase, the version with ED_S and ED_D),
 * integrated with the solution quadrature w_i w_j w_k J. Definitions and sources: docs/tgv.md.
 *
 * Use: per analysis, tgv_sums_cpu (or a GPU reduction of tgv_node_integrands) -> tgv_columns ->
 * tgv_write_csv. */
#ifndef HEXDG_TGV_H
#define HEXDG_TGV_H

#include <stdbool.h>

#include "analysis/tgv_pointwise.h"
#include "dg/solver.h"

#define HX_TGV_NCOLS 16
extern const char *const TGV_COLUMN_NAMES[HX_TGV_NCOLS];

/* Column indices, FLEXI's order (Time first). */
enum {
  TGV_COL_TIME = 0,
  TGV_COL_DR_INCOMP = 1, /* = DR_S */
  TGV_COL_DR_COMP = 2,   /* = DR_Sd + DR_p */
  TGV_COL_EKIN = 3,
  TGV_COL_EKIN_COMP = 4,
  TGV_COL_ENSTROPHY = 5,
  TGV_COL_DR_U = 6,
  TGV_COL_DR_S = 7,
  TGV_COL_DR_SD = 8,
  TGV_COL_DR_P = 9,
  TGV_COL_MAX_VORT = 10,
  TGV_COL_MEAN_TEMP = 11,
  TGV_COL_UPRIME = 12,
  TGV_COL_MEAN_ENTROPY = 13,
  TGV_COL_ED_S = 14,
  TGV_COL_ED_D = 15
};

/* FLEXI computes every rate from the instantaneous integrals (no time differences), so the state
 * is only the normalisation and the output path. */
typedef struct {
  double volume; /* domain volume with the same quadrature as the sums */
  double rho0;   /* reference density (FLEXI's TGV: 1) */
  double U0;     /* reference velocity (FLEXI's TGV: 1) */
  double mu0;    /* reference viscosity, PhysParams.mu0 (FLEXI: mu0 outside the DR_* integrals) */
  char csv_path[1100];
} TgvAnalysis;

/* sums[HX_TGV_NSUMS]: int f dV over the mesh for the integrands of tgv_node_integrands, with the
 * solution quadrature; *max_vort: max |omega| over all nodes. grad is the solver's lifted gradient
 * array [elem][dir 3][lift HX_NLIFT][k][j][i] of the current U: after a Runge-Kutta step it holds
 * the gradient of the last stage, so evaluate the lifting (dg_time_derivative) at the analysis
 * time first, as FLEXI does before its analysis. NULL (Euler runs) uses the element-local
 * derivative of the velocity instead (sJ sum_d Ja^d d/dxi^d, no lifting). The element sums are
 * added in element order, so the result does not depend on the number of threads.
 * Returns HX_OK or HX_ERR_MEM. */
int tgv_sums_cpu(const Solver *s, const double *grad, double *sums, double *max_vort);

/* Volume, reference values (rho0 = U0 = 1 as FLEXI's TGV, mu0 from s->phys) and the path
 * <project>_TGVAnalysis.csv. */
int tgv_init(TgvAnalysis *a, const Solver *s, const char *project);

/* cols[HX_TGV_NCOLS] at time t from the sums and the maximum vorticity. */
int tgv_columns(const TgvAnalysis *a, double t, const double *sums, double max_vort, double *cols);

/* Append one line (FLEXI's CSV number format E23.14E5, ", " separated); fresh: create the file
 * with the header line "Time,Dissipation Rate Incompressible,...". */
int tgv_write_csv(const TgvAnalysis *a, const double *cols, bool fresh);

/* On a restart at restart_time: keep the lines of an existing file with Time < restart_time
 * (FLEXI's InitOutputToFile) and append from there; a missing or headerless file is created
 * fresh. */
int tgv_csv_resume(const TgvAnalysis *a, double restart_time);

/* FLEXI's CSV number format, Fortran E23.14E5: "0.12500000000000E+00000" (23 characters; the
 * leading zero is dropped for negative numbers). out needs 32 bytes. */
void tgv_format_e23_14(double v, char *out);

#endif
