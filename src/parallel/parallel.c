/* Rank layout and reductions over MPI_COMM_WORLD (one rank when MPI is absent or not started). */
#include "parallel/parallel.h"

#include <stdlib.h>

#include "core/error.h"

#ifdef HEXDG_HAVE_MPI
#include <mpi.h>

static int mpi_running(void) {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  return init && !fin;
}

/* Node-local rank layout, found once at start-up (the split is collective). */
static int local_rank = 0, local_size = 1;

int par_init(int *argc, char ***argv) {
  int provided = 0;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    return HX_ERROR(HX_ERR_INTERNAL, "MPI_Init_thread failed; check the MPI installation "
                                     "(mpiexec -n 1 hexdg --version)");
  MPI_Comm node;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) ==
      MPI_SUCCESS) {
    MPI_Comm_rank(node, &local_rank);
    MPI_Comm_size(node, &local_size);
    MPI_Comm_free(&node);
  }
  return HX_OK;
}

int par_local_rank(void) { return local_rank; }
int par_local_size(void) { return local_size; }

void par_finalize(void) {
  if (mpi_running()) MPI_Finalize();
}

void par_abort(int code) {
  if (par_size() > 1) MPI_Abort(MPI_COMM_WORLD, code);
}

int par_rank(void) {
  int r = 0;
  if (mpi_running()) MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int par_size(void) {
  int n = 1;
  if (mpi_running()) MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

void par_sum(double *v, int n) {
  if (par_size() > 1) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

void par_max(double *v, int n) {
  if (par_size() > 1) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}

int par_any(int flag) {
  if (par_size() > 1) MPI_Allreduce(MPI_IN_PLACE, &flag, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  return flag;
}

void par_bcast_int(int *v, long n, int root) {
  if (par_size() > 1) MPI_Bcast(v, (int)n, MPI_INT, root, MPI_COMM_WORLD);
}

void par_allgather_bytes(void *buf, int bytes) {
  if (par_size() > 1)
    MPI_Allgather(MPI_IN_PLACE, bytes, MPI_BYTE, buf, bytes, MPI_BYTE, MPI_COMM_WORLD);
}

void par_barrier(void) {
  if (par_size() > 1) MPI_Barrier(MPI_COMM_WORLD);
}

#else /* built without MPI: one rank */

int par_init(int *argc, char ***argv) {
  (void)argc, (void)argv;
  return HX_OK;
}
void par_finalize(void) {}
void par_abort(int code) { (void)code; }
int par_rank(void) { return 0; }
int par_size(void) { return 1; }
int par_local_rank(void) { return 0; }
int par_local_size(void) { return 1; }
void par_sum(double *v, int n) { (void)v, (void)n; }
void par_max(double *v, int n) { (void)v, (void)n; }
int par_any(int flag) { return flag; }
void par_bcast_int(int *v, long n, int root) { (void)v, (void)n, (void)root; }
void par_allgather_bytes(void *buf, int bytes) { (void)buf, (void)bytes; }
void par_barrier(void) {}

#endif

int par_is_root(void) { return par_rank() == 0; }
