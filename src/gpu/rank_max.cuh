/* The maximum of a few 64-bit words over all ranks, on the device: every rank's one-block kernel
 * writes its words into every rank's GPU memory (CUDA IPC) and raises a sequence flag there, then
 * waits for all ranks' flags in its own memory and takes the maximum. No host call, so the dt
 * of a step (the ranks' largest CFL/DFL eigenvalues, gpu_mpi_timestep) is reduced inside the
 * step's CUDA graph instead of a host round trip per step (MPI_Allreduce). Needs every rank on
 * one node, each GPU reaching the others (peer access or the same GPU). */
#ifndef HEXDG_GPU_RANK_MAX_CUH
#define HEXDG_GPU_RANK_MAX_CUH

#include <cuda_runtime.h>

enum { RANK_MAX_WORDS = 4, RANK_MAX_RANKS = 64 };

typedef struct RankMax RankMax;

/* Collective over all ranks. *out is NULL on every rank (and HX_OK) where it cannot work on one
 * of them (ranks on several nodes, no peer access, more than RANK_MAX_RANKS ranks, an IPC or
 * memory failure: the reason in why); the caller then reduces on the host. */
int rank_max_create(RankMax **out, char *why, size_t len);
/* What one reduction replaces by its maximum over the ranks (device memory): n_words words
 * (n_words <= RANK_MAX_WORDS; non-negative doubles' bits are ordered as the doubles) and, unless
 * NULL, one int flag. */
typedef struct {
  unsigned long long *word[RANK_MAX_WORDS];
  int n_words;
  int *flag;
} RankMaxArgs;

/* The reduction of a, in stream order on s (capturable in a graph). Every rank must launch the
 * same sequence of reductions. */
int launch_rank_max(RankMax *r, const RankMaxArgs *a, cudaStream_t s);
/* Collective: every rank's device idle, then the peers' memory closed and ours freed. */
void rank_max_destroy(RankMax *r);

#endif
