/* The work shares of parallel/workshare.c on several ranks (run under mpiexec -n 2..4): every
 * item is worked on exactly once; each rank's work is within one item of the mean; the rows that
 * workshare_move delivers sit where workshare_offsets says their senders write them (the layout
 * the GPUs' CUDA IPC moves rely on), forward and back; and the results come back to their owners
 * in the order of the items they sent. Each rank gets a different item count and costs of very
 * different size (a few dear ones), with and without workshare_order. Exit 0: passed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "parallel/parallel.h"
#include "parallel/workshare.h"

enum { WIDTH = 3 }; /* a row: owner rank, item index, cost */

static int fails = 0;

static void check(int ok, const char *what, int rank, long i) {
  if (ok) return;
  if (fails < 20) fprintf(stderr, "FAIL (rank %d): %s (at %ld)\n", rank, what, i);
  fails++;
}

/* Item costs of this rank: 1..20, every 7th item 200..400 (a burning cell among cold ones). */
static void make_costs(int rank, int round, long n, double *cost) {
  unsigned s = 2654435761u * (unsigned)(rank + 1) + 40503u * (unsigned)round;
  for (long i = 0; i < n; i++) {
    s = s * 1103515245u + 12345u;
    cost[i] = 1.0 + (double)((s >> 16) % 20u);
    if (i % 7 == 3) cost[i] = 200.0 + (double)((s >> 8) % 201u);
  }
}

/* The sent items of this rank in the order workshare_move takes them: positions [0, keep_first)
 * (to lower ranks) and [keep_first + n_keep, n) (to higher ones); pos holds the item at each
 * position (the identity without an order). */
static long sent_item(const WorkShare *w, const int *pos, long j) {
  long p = j < w->keep_first ? j : j + w->n_keep;
  return pos ? pos[p] : p;
}

static void run_round(int round, int use_order) {
  const int nr = par_size(), me = par_rank();
  const long n = 10 + 13 * me + 5 * round; /* uneven item counts */
  double *cost = malloc(sizeof(double) * (size_t)n);
  int *order = malloc(sizeof(int) * (size_t)n);
  make_costs(me, round, n, cost);
  WorkShare w = {0};
  check(workshare_plan(&w, cost, n, use_order ? order : NULL) == 0, "workshare_plan", me, 0);
  const int *pos = use_order ? order : NULL;

  /* every item once: kept + sent = n here; the received rows sum to the sent ones overall */
  check(w.n_keep + w.n_send == n, "kept + sent = items", me, n);
  long sums[2] = {w.n_send, w.n_recv};
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  check(sums[0] == sums[1], "items sent overall = items received overall", me, sums[0]);

  /* forward: rows of the sent items */
  double *out = malloc(sizeof(double) * WIDTH * (size_t)(w.n_send + 1));
  double *in = malloc(sizeof(double) * WIDTH * (size_t)(w.n_recv + 1));
  for (long j = 0; j < w.n_send; j++) {
    long i = sent_item(&w, pos, j);
    out[WIDTH * j] = me, out[WIDTH * j + 1] = (double)i, out[WIDTH * j + 2] = cost[i];
  }
  check(workshare_move(&w, WIDTH, 0, out, in) == 0, "workshare_move forward", me, 0);

  /* each rank's work within one item of the mean */
  double work = 0.0, total, dearest = 0.0;
  for (long p = w.keep_first; p < w.keep_first + w.n_keep; p++) work += cost[pos ? pos[p] : p];
  for (long r = 0; r < w.n_recv; r++) work += in[WIDTH * r + 2];
  for (long i = 0; i < n; i++) dearest = fmax(dearest, cost[i]);
  MPI_Allreduce(&work, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &dearest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  check(fabs(work - total / nr) <= dearest, "the work within one item of the mean", me,
        (long)work);

  /* the offsets: where each sender writes at each destination, gathered ([sender][dest]) */
  long *at = calloc((size_t)nr * nr, sizeof(long));
  check(workshare_offsets(&w, 0, at + (size_t)me * nr) == 0, "workshare_offsets", me, 0);
  MPI_Allgather(MPI_IN_PLACE, nr, MPI_LONG, at, nr, MPI_LONG, MPI_COMM_WORLD);
  long row = 0;
  for (int s = 0; s < nr; s++) { /* the received rows: sender by sender, in rank order */
    if (w.recv_count && w.recv_count[s] > 0)
      check(at[(size_t)s * nr + me] == row, "forward offset = workshare_move's row", me, row);
    for (int k = 0; w.recv_count && k < w.recv_count[s]; k++, row++)
      check((int)in[WIDTH * row] == s, "forward row from the sender the offsets name", me, row);
  }
  check(row == w.n_recv, "received rows", me, row);

  /* back: the results (cost doubled) to the owners, in the order of the items they sent */
  for (long r = 0; r < w.n_recv; r++) in[WIDTH * r + 2] *= 2.0;
  double *back = malloc(sizeof(double) * WIDTH * (size_t)(w.n_send + 1));
  check(workshare_move(&w, WIDTH, 1, in, back) == 0, "workshare_move back", me, 0);
  for (long j = 0; j < w.n_send; j++) {
    long i = sent_item(&w, pos, j);
    check((int)back[WIDTH * j] == me && (long)back[WIDTH * j + 1] == i &&
              back[WIDTH * j + 2] == 2.0 * cost[i],
          "a result back at its owner, at its item's place", me, j);
  }
  for (long k = 0; k < (long)nr * nr; k++) at[k] = 0;
  check(workshare_offsets(&w, 1, at + (size_t)me * nr) == 0, "workshare_offsets back", me, 0);
  MPI_Allgather(MPI_IN_PLACE, nr, MPI_LONG, at, nr, MPI_LONG, MPI_COMM_WORLD);
  row = 0;
  for (int s = 0; s < nr; s++) { /* the owner's sent rows: destination by destination */
    if (w.send_count && w.send_count[s] > 0)
      check(at[(size_t)s * nr + me] == row, "back offset = the owner's row", me, row);
    row += w.send_count ? w.send_count[s] : 0;
  }
  workshare_free(&w);
  free(cost), free(order), free(out), free(in), free(back), free(at);
}

int main(int argc, char **argv) {
  par_init(&argc, &argv);
  for (int round = 0; round < 3; round++)
    for (int use_order = 0; use_order < 2; use_order++) run_round(round, use_order);
  int all = fails;
  MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (par_rank() == 0)
    printf("%s - work shares on %d ranks (%d failed checks)\n", all ? "FAIL" : "ok  ", par_size(),
           all);
  par_finalize();
  return all ? 1 : 0;
}
