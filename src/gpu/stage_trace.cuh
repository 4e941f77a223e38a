/* Timeline of an RK stage on the GPU, for measurements (HEXDG_STAGE_TRACE = T in the
 * environment): a one-thread kernel writes the GPU's global timer at named points of the stage
 * on the stream it is queued on, into a ring of rows, one row per stage. It works inside CUDA
 * graphs (the row comes from a counter in device memory that the stage's first mark advances).
 * At the end every rank prints, per point, the mean, min and max time after the stage's start
 * over the last stages, and the mean stage period. Each mark is a kernel node of its own, so the
 * marks cost about a microsecond each on their stream: compare the run's PID with and without. */
#ifndef HEXDG_GPU_STAGE_TRACE_CUH
#define HEXDG_GPU_STAGE_TRACE_CUH

#include <cuda_runtime.h>

typedef struct StageTrace StageTrace;

/* NULL in *out (and HX_OK) unless HEXDG_STAGE_TRACE is set; names[0] is the stage start. */
int stage_trace_create(int n_points, const char *const *names, const char *what,
                       StageTrace **out);
/* Prints the table (rank: this process's rank) and frees the trace. */
void stage_trace_finish(StageTrace *t, int rank);
/* The first mark of a stage: a new row, and point 0 (the start) on stream s. */
int stage_trace_begin(StageTrace *t, cudaStream_t s);
/* Point `point` of the current stage on stream s (after the work queued on s before it). */
int stage_trace_mark(StageTrace *t, int point, cudaStream_t s);

#endif
