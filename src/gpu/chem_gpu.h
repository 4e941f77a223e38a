/* Batched stiff chemistry on the GPU: one thread per cell runs the Radau IIA integrator of
 * src/chem/radau5.h, with the bulk-sparse schedule of Carreon et al. (AMReX compressible
 * combustion, Algorithm 3): a few bulk launches advance every cell by at most K steps, then the
 * still-active cells are compacted into a list and only they are launched, in rounds, until all are
 * done. The mechanism is copied to device memory once (chem_gpu_create).
 *
 * Cells are species-major: y[i * n_cells + c], i = 0 (T), 1..ns (Y_k), so consecutive threads read
 * consecutive addresses; the integrator's workspace has the same layout (stride = cells of the
 * chunk). Batches larger than the memory budget run in chunks. */
#ifndef HEXDG_GPU_CHEM_GPU_H
#define HEXDG_GPU_CHEM_GPU_H

#include <stddef.h>

#include "chem/batch.h"
#include "chem/mech.h"
#include "chem/radau5.h"
#include "chem/rodas.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ChemGpu ChemGpu;

typedef struct {
  int single_launch;       /* 1: one launch that runs every cell to the end (the reference) */
  int bulk_launches;       /* at most this many bulk launches over all cells */
  int bulk_steps;          /* K: integrator steps per cell in one bulk or sparse launch */
  double sparse_threshold; /* go sparse as soon as the active fraction drops below this */
  int min_blocks;          /* 1, 2 or 4 blocks of 128 threads per SM: the integrator kernel's
                              register budget (occupancy against spills); 0: 4 for mechanisms of
                              30 species or more, else 1 (measured, docs/performance.md) */
  int integrator;          /* CHEM_INTEGRATOR_RADAU5 | CHEM_INTEGRATOR_RODAS (chem/batch.h) */
} ChemSchedule;

typedef struct {
  double seconds;                           /* device time of the whole integration (events) */
  double sparse_seconds;                    /* of which in the sparse (compacted) phase */
  long total_steps;                         /* integrator steps over all cells */
  int max_steps;                            /* of the most expensive cell */
  int launches;                             /* kernel launches of the integrator */
  int n_failed, first_failed, first_status; /* failures: count, first cell, its status */
  size_t ws_bytes;                          /* device workspace bytes per cell */
  int chunk_cells;                          /* cells per chunk */
} ChemGpuStats;

/* The default schedule (chem_kernels.cu; measured in docs/performance.md) */
ChemSchedule chem_schedule_default(void);

int chem_gpu_create(const ChemMech *m, ChemGpu **out);
void chem_gpu_destroy(ChemGpu *g);

/* Integrate n_cells reactors from t = 0 to dt; d_y (in/out) and d_par are device arrays;
 * d_steps/d_status (device, may be NULL) receive per-cell step counts and CHEM_* statuses. */
int chem_gpu_integrate(ChemGpu *g, int mode, int n_cells, double *d_y, const double *d_par,
                       double dt, const ChemIntegratorOptions *opt, const ChemSchedule *sch,
                       int *d_steps, int *d_status, ChemGpuStats *st);

/* The same with host arrays (copied in and out; the copies are not in st->seconds). */
int chem_gpu_integrate_host(ChemGpu *g, int mode, int n_cells, double *y, const double *par,
                            double dt, const ChemIntegratorOptions *opt, const ChemSchedule *sch,
                            int *steps, int *status, ChemGpuStats *st);

#ifdef __cplusplus
}
#endif
#endif
