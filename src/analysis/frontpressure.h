/* The front-pressure record of a detonation in the shock-attached frame (RecordFrontPressure = n):
 * the largest pressure over each of n bins across the global y extent of the nodes (the maximum
 * over x and z), and over the steps of each FrontPressure_dt. A front that stays in the mesh
 * leaves no tracks in RecordMaxPressure (every node near it sees every triple point); this record,
 * rows in time, is the soot foil of the lab frame with x = D t (tools/soot_foil.py --front).
 * <ProjectName>_FrontPressure_<start time>.h5: Time [rows], Y [bins] (bin centres), FrontPressure
 * [rows][bins] (C order), rewritten with every state file. */
#ifndef HEXDG_FRONTPRESSURE_H
#define HEXDG_FRONTPRESSURE_H

#include "core/params.h"
#include "dg/solver.h"

typedef struct {
  int n_bins;       /* RecordFrontPressure; 0: off */
  double dt;        /* FrontPressure_dt: the time a row gathers */
  double y0, y1;    /* the global y extent of the nodes */
  int *bin;         /* [dof] each node's bin */
  double *row;      /* [n_bins] the open row (0: no pressure yet) */
  double t_row_end; /* the open row closes after the first step that reaches this */
  double *rows, *t; /* closed rows [n_rows][n_bins] and their end times */
  long n_rows, cap;
  long folded; /* steps folded into the open row */
  char path[512];
} FrontPressure;

int frontpressure_define_params(Params *p);
/* Reads the keys; when on: the bins of the nodes (y extent reduced over the ranks), the file
 * name from the project and the start time t. */
int frontpressure_init(const Params *p, const Solver *s, const char *project, double t,
                       FrontPressure *fp);
/* The open row = max(row, p) of every node's bin (CPU backend; the GPU's folds count with
 * frontpressure_count_fold). */
void frontpressure_fold(FrontPressure *fp, const Solver *s);
static inline void frontpressure_count_fold(FrontPressure *fp) {
  fp->folded++;
}
/* After a step ending at t: whether the open row is due to close. */
int frontpressure_row_due(const FrontPressure *fp, double t);
/* Closes the open row at t: maximum over the ranks, appended; a new open row of zeros. */
int frontpressure_close_row(FrontPressure *fp, double t);
/* The file of the closed rows, written by the root rank (a temporary file renamed, so a reader
 * never sees half). */
int frontpressure_write(const FrontPressure *fp);
void frontpressure_free(FrontPressure *fp);

#endif
