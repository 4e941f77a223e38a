/* The numerical soot foil of a detonation: the maximum pressure every node has seen over the run
 * (RecordMaxPressure = T). The triple points of a cellular detonation leave the tracks of the
 * cells in it, as on the smoked foils of experiments (e.g. Deiterding 2011, J. Combust.
 * 738969). Written with every state file as FLEXI's FieldData "MaxPressure", read back at a
 * restart so that the record spans the restarts. tools/soot_foil.py draws it. */
#ifndef HEXDG_MAXPRESSURE_H
#define HEXDG_MAXPRESSURE_H

#include <stdbool.h>

#include "core/params.h"
#include "dg/solver.h"

typedef struct {
  bool on;
  double *p_max; /* [elem][k][j][i] of the local elements (host copy) */
} MaxPressure;

int maxpressure_define_params(Params *p);
/* Reads RecordMaxPressure; when on: p_max from the restart file's FieldData MaxPressure, or the
 * pressure of the current U (a fresh start, or a restart file without it). */
int maxpressure_init(const Params *p, const Solver *s, const char *restart_file, MaxPressure *mp);
/* p_max = max(p_max, p(U)) at every node (CPU backend). */
int maxpressure_update(MaxPressure *mp, const Solver *s);
void maxpressure_free(MaxPressure *mp);

#endif
