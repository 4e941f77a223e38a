/* Rank layout and global reductions. Every function works without MPI (a build with
 * HEXDG_MPI=OFF, or MPI not initialized as in the unit tests): one rank, reductions are no-ops.
 * All reductions are collective: every rank calls them in the same order. */
#ifndef HEXDG_PARALLEL_H
#define HEXDG_PARALLEL_H

/* MPI_Init (funneled: only the master thread of each rank calls MPI). */
int par_init(int *argc, char ***argv);
void par_finalize(void);
/* Stop every rank after an error on some of them (a rank blocked in a collective call would wait
 * forever otherwise). */
void par_abort(int code);

int par_rank(void);
int par_size(void);
/* Rank among the ranks of this node (MPI_COMM_TYPE_SHARED) and their number: picks the GPU. */
int par_local_rank(void);
int par_local_size(void);
/* Rank 0 prints the progress and writes the CSV series. */
int par_is_root(void);

void par_sum(double *v, int n);
void par_max(double *v, int n);
/* Logical or of a flag over the ranks. */
int par_any(int flag);
void par_bcast_int(int *v, long n, int root);
/* Every rank's block of `bytes` bytes at buf + rank * bytes, gathered to every rank in place. */
void par_allgather_bytes(void *buf, int bytes);
void par_barrier(void);

#endif
