/* Record points as in FLEXI (RP_inUse): the conservative state at fixed points, sampled every
 * RP_SamplingOffset time steps, buffered (RP_MaxMemory) and written as <ProjectName>_RP_<time>.h5
 * in FLEXI's layout. The points come from FLEXI's RP_DefFile (posti preparerecordpoints: element
 * and reference coordinates xi of each point) or from hexdg's shortcut keys RP_Point, RP_Line and
 * RP_Plane (physical coordinates, located by inverting the curved element mapping with Newton;
 * hexdg then writes <ProjectName>_RPSet.h5 in the layout of preparerecordpoints). Each rank
 * samples the points in its elements; the root writes. docs/record_points.md. */
#ifndef HEXDG_RECORDPOINTS_H
#define HEXDG_RECORDPOINTS_H

#include <stdbool.h>

#include "basis/basis.h"
#include "core/hd.h"
#include "core/params.h"
#include "dg/solver.h"

typedef struct RecordPoints {
  bool on;
  char def_file[1024]; /* the definition file the output names (RP_DefFile or the written RPSet) */
  char project[256];
  char mesh_file[1024];
  const char (*var_names)[64]; /* the solver's */
  int sampling_offset; /* RP_SamplingOffset: every this many steps since the last state output */
  int n_global;        /* points of the whole run, in FLEXI's order (by element, then given) */
  int n_local;         /* points in this rank's elements */
  int *local_elem;     /* [n_local] local element */
  int *local_id;       /* [n_local] global point index (0-based) */
  double *weights;     /* [n_local][3][np] Lagrange weights in xi, eta, zeta */
  int n_var, np;
  int cap;                     /* buffer capacity in samples (RP_MaxMemory) */
  int n_buffered;              /* samples in the buffer */
  double *buf;                 /* [cap][n_global][1 + n_var]: t, U; other ranks' points hold -0.0 */
  long steps;                  /* time steps since the last state output */
  double t_last;               /* time of the last sample (valid when n_buffered > 0) */
  long n_in_file;              /* samples already in the open output file (root) */
  struct GpuRecordPoints *gpu; /* the device buffer (CUDA backend), else NULL */
} RecordPoints;

int recordpoints_define_params(Params *p);
/* Reads RP_inUse and, when on, the points (RP_DefFile or the shortcut keys): their elements,
 * weights and the buffer. Errors name the key or file, e.g. a point outside the mesh. */
int recordpoints_init(const Params *p, const Solver *s, const char *project, RecordPoints *rp);
void recordpoints_free(RecordPoints *rp);

/* Whether to sample now: after a step (force false) every RP_SamplingOffset-th step since the last
 * state output; forced (start, state output) when the buffer holds no sample at t yet. */
bool recordpoints_due(RecordPoints *rp, double t, bool force);
/* CPU backend: the sample of the current s->U into the buffer slot n_buffered. */
void recordpoints_sample(RecordPoints *rp, const Solver *s, double t);
/* After a sample (either backend): count it; true when the buffer is full (flush it). */
bool recordpoints_commit(RecordPoints *rp, double t);
/* Append the buffered samples to the open output file (collective; the root writes);
 * close: then give the file its time t (attribute Time) and its name <project>_RP_<t>.h5. */
int recordpoints_flush(RecordPoints *rp, double t, bool close);

/* Pieces exposed for tests. The element mapping of a mesh element (node_coords on NGeo+1
 * equidistant nodes per direction): x(xi), and its inverse by Newton; returns 0 when xi was found
 * inside [-1,1]^3 (within tol), else 1. */
void recordpoints_map(int NGeo, const double *nodes, const double xi[3], double x[3]);
int recordpoints_invert(int NGeo, const double *nodes, const double x[3], double xi[3]);
/* Local element containing x (the lowest global id among those that do) and its xi; -1 if none. */
int recordpoints_locate(const Mesh *m, const double x[3], double xi[3]);

/* The interpolated value at a point of one variable of one element, sum_kji lz_k ly_j lx_i u_kji,
 * the tensor product of the 1-D Lagrange weights w = [lx | ly | lz] (FLEXI's RecordPoints); the
 * CPU loop and the GPU kernel share it, so they sum in the same order. */
HD static inline double recordpoints_interpolate(int np, const double *w, const double *u) {
  double sum = 0.0;
  for (int k = 0; k < np; k++) {
    double sj = 0.0;
    for (int j = 0; j < np; j++) {
      double si = 0.0;
      for (int i = 0; i < np; i++)
        si += w[i] * u[(k * np + j) * np + i];
      sj += w[np + j] * si;
    }
    sum += w[2 * np + k] * sj;
  }
  return sum;
}

#endif
