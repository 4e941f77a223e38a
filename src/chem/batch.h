/* Host drivers of the reactor integrators (chem/radau5.h, chem/rodas.h): many independent cells
 * over one flow step (OpenMP over cells), and one homogeneous reactor with its time history and
 * ignition delay (the `hexdg reactor` command). */
#ifndef HEXDG_CHEM_BATCH_H
#define HEXDG_CHEM_BATCH_H

#include "chem/mech.h"
#include "chem/radau5.h"
#include "chem/rodas.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the stiff integrators: Radau IIA order 5 (chem/radau5.h), Rosenbrock RODAS (chem/rodas.h) */
enum { CHEM_INTEGRATOR_RADAU5 = 0, CHEM_INTEGRATOR_RODAS = 1 };

/* Integrates n_cells independent reactors from t = 0 to dt. y: species-major state,
 * y[i*n_cells + c] with i over the n = ns + 1 unknowns (T, Y_0..Y_{ns-1}); overwritten with the
 * state at dt (or, for a failed cell, the last accepted state). par[c]: density (CV) or pressure
 * (CP). status[c] (CHEM_DONE or a CHEM_FAIL_*), steps[c] (step attempts) and t_reached[c] may be
 * NULL. Each OpenMP thread integrates its cells in its own contiguous workspace (stride 1).
 * Returns HX_OK, or HX_ERR_NUMERIC after an HX_ERROR naming the first failing cell (index, T, the
 * largest species, the time reached, the status) and how many failed. */
int chem_batch_integrate(const ChemMech *m, int mode, long n_cells, double *y, const double *par,
                         double dt, const ChemIntegratorOptions *o, int *status, int *steps,
                         double *t_reached);
/* The same with the integrator chosen (CHEM_INTEGRATOR_*; chem_batch_integrate uses Radau5).
 * An unknown integrator: HX_ERR_INPUT. */
int chem_batch_integrate_with(const ChemMech *m, int integrator, int mode, long n_cells, double *y,
                              const double *par, double dt, const ChemIntegratorOptions *o,
                              int *status, int *steps, double *t_reached);

/* Time history of one adiabatic homogeneous reactor: a row per accepted step (row 0 = t0). */
typedef struct ChemHistory {
  int ns;                /* species per row */
  long n, cap;           /* rows stored, rows allocated */
  double *t, *T, *p;     /* [n] s, K, Pa */
  double *dTdt;          /* [n] K/s at the row's state */
  double *Y;             /* [n*ns] mass fractions, row-major */
  double ignition_delay; /* time of the maximum of dT/dt (s), parabola through the samples */
  double T_end;          /* T at tend */
  int status;            /* CHEM_DONE or a CHEM_FAIL_* */
  long steps, accepted, rejected, jacobians;
} ChemHistory;

/* Integrates one reactor (mode CHEM_MODE_CV or CHEM_MODE_CP) from T0, p0, Y0[ns] (mass fractions)
 * to tend, recording every accepted step. The ignition delay is the vertex of the parabola
 * through the largest dT/dt sample and its neighbours (the samples are the integrator's accepted
 * steps). Returns HX_OK, HX_ERR_MEM, or HX_ERR_NUMERIC (integration failed: h->status says why,
 * the history up to the failure is kept). Free with chem_history_free. */
int chem_reactor_history(const ChemMech *m, int mode, double T0, double p0, const double *Y0,
                         double tend, const ChemIntegratorOptions *o, ChemHistory *h);
/* The same with the integrator chosen (CHEM_INTEGRATOR_*; chem_reactor_history uses Radau5). */
int chem_reactor_history_with(const ChemMech *m, int integrator, int mode, double T0, double p0,
                              const double *Y0, double tend, const ChemIntegratorOptions *o,
                              ChemHistory *h);
void chem_history_free(ChemHistory *h);

/* Time of the maximum of the parabola through (t[i-1..i+1], d[i-1..i+1]); t[i] at an end. */
double chem_parabola_peak(const double *t, const double *d, long n, long i);

#ifdef __cplusplus
}
#endif
#endif
