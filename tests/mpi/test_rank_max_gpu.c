/* The reduction over the ranks on the device (src/gpu/rank_max.cu, the time step of a run on
 * several GPUs), under mpiexec -n 2..4 with one GPU per rank: 300 reductions of rank-dependent
 * words (the maximum on a different rank from round to round, so the two slots alternate under
 * every pattern of who is late), the flag raised by one rank each round, launched directly and
 * replayed from a CUDA graph; every rank must get the exact maxima. Exit 0: passed; 77: fewer
 * GPUs than ranks (skipped); 1: failed. */
#include <stdio.h>

#include <mpi.h>

#include "gpu/gpu.h"
#include "parallel/parallel.h"

int main(int argc, char **argv) {
  par_init(&argc, &argv);
  const int n = par_size(), gpus = gpu_device_count();
  if (gpus < n) { /* the same count on every rank of one node */
    if (par_is_root()) printf("SKIP: %d CUDA device(s) visible, the test needs %d\n", gpus, n);
    par_finalize();
    return 77;
  }
  long bad[2] = {0, 0}, total[2];
  int rc = 0;
  for (int graph = 0; graph < 2 && rc == 0; graph++) {
    char why[256] = "";
    if (gpu_rank_max_selftest(300, graph, &bad[graph], why, sizeof why) != 0) rc = 1;
  }
  MPI_Allreduce(bad, total, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  int any = par_any(rc != 0);
  if (par_is_root())
    printf("%d ranks: wrong maxima %ld (direct launches), %ld (graph replays) of 300 rounds each "
           "per rank%s\n", n, total[0], total[1], any ? "; a rank failed (see above)" : "");
  par_finalize();
  return any || total[0] || total[1] ? 1 : 0;
}
