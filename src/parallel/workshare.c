/* Sharing pointwise work among the ranks (workshare.h). */
#include "parallel/workshare.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "parallel/parallel.h"

#ifdef HEXDG_HAVE_MPI
#include <mpi.h>
#endif

void workshare_free(WorkShare *w) {
  free(w->send_count);
  free(w->recv_count);
  memset(w, 0, sizeof *w);
}

/* Nothing moves: every item stays with its rank. */
static void keep_all(WorkShare *w) {
  w->keep_first = 0, w->n_keep = w->n;
  w->n_send = w->n_recv = 0;
  w->active = 0;
}

#define WORKSHARE_BUCKETS 4096

static long bucket(double cost) {
  return cost < 0.0 ? 0 : cost > WORKSHARE_BUCKETS ? WORKSHARE_BUCKETS : (long)cost;
}

int workshare_order(const double *cost, long n, int *order) {
  long *count = hx_calloc(WORKSHARE_BUCKETS + 1, sizeof(long), "work order");
  if (!count) return HX_ERR_MEM;
  for (long i = 0; i < n; i++) {
    count[WORKSHARE_BUCKETS - bucket(cost[i])]++; /* descending */
  }
  for (long b = 0, at = 0; b <= WORKSHARE_BUCKETS; b++) { /* bucket starts */
    const long c = count[b];
    count[b] = at, at += c;
  }
  int *sorted = hx_malloc(sizeof(int) * (size_t)(n > 0 ? n : 1), "work order");
  if (!sorted) {
    free(count);
    return HX_ERR_MEM;
  }
  for (long i = 0; i < n; i++) {
    sorted[count[WORKSHARE_BUCKETS - bucket(cost[i])]++] = (int)i;
  }
  for (long k = 0, front = 0, back = n - 1; k < n; k++) /* dealt to both ends */
    order[k % 2 ? back-- : front++] = sorted[k];
  free(sorted), free(count);
  return HX_OK;
}

int workshare_plan(WorkShare *w, const double *cost, long n, int *order) {
  workshare_free(w);
  w->n_ranks = par_size(), w->me = par_rank(), w->n = n;
  keep_all(w);
  if (w->n_ranks == 1) return HX_OK;
#ifdef HEXDG_HAVE_MPI
  const int nr = w->n_ranks;
  double *load = hx_calloc((size_t)nr, sizeof(double), "work shares");
  w->send_count = hx_calloc((size_t)nr, sizeof(int), "work shares");
  w->recv_count = hx_calloc((size_t)nr, sizeof(int), "work shares");
  int rc = load && w->send_count && w->recv_count ? HX_OK : HX_ERR_MEM;
  if (rc == HX_OK && order) rc = workshare_order(cost, n, order);
  if (par_any(rc != HX_OK)) { /* every rank leaves before the collectives */
    free(load);
    return rc != HX_OK ? rc : HX_ERR_MEM;
  }
  for (long i = 0; i < n; i++)
    load[w->me] += cost[i];
  MPI_Allgather(MPI_IN_PLACE, 1, MPI_DOUBLE, load, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  double total = 0.0, before = 0.0;
  for (int r = 0; r < nr; r++) {
    if (r < w->me) before += load[r];
    total += load[r];
  }
  free(load);
  if (total > 0.0) {
    const double share = total / nr;
    double at = before;
    for (long i = 0; i < n; i++) { /* the share of the item's midpoint; monotone in i */
      const double ci = order ? cost[order[i]] : cost[i];
      int k = (int)((at + 0.5 * ci) / share);
      k = k < 0 ? 0 : k >= nr ? nr - 1 : k;
      w->send_count[k]++;
      at += ci;
    }
  } else {
    w->send_count[w->me] = (int)n;
  }
  for (int r = 0; r < w->me; r++)
    w->keep_first += w->send_count[r];
  w->n_keep = w->send_count[w->me];
  w->send_count[w->me] = 0;
  w->n_send = n - w->n_keep;
  MPI_Alltoall(w->send_count, 1, MPI_INT, w->recv_count, 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < nr; r++)
    w->n_recv += w->recv_count[r];
  w->active = par_any(w->n_send > 0);
#else
  (void)cost, (void)order;
#endif
  return HX_OK;
}

int workshare_offsets(const WorkShare *w, int back, long *at) {
  const int nr = w->n_ranks;
  for (int r = 0; at && r < nr; r++)
    at[r] = 0;
  if (!w->active) return at ? HX_OK : HX_ERR_MEM;
  int *sent = hx_calloc((size_t)nr * nr, sizeof(int), "work shares"); /* [from][to] */
  if (par_any(!sent)) { /* answered on every rank before the collective */
    free(sent);
    return HX_ERR_MEM;
  }
  for (int r = 0; r < nr; r++)
    sent[w->me * nr + r] = w->send_count[r];
  par_allgather_bytes(sent, (int)(sizeof(int) * nr));
  for (int r = 0; at && r < nr; r++) /* forward: what lower ranks send r; back: what r sent them */
    for (int s = 0; s < w->me; s++)
      at[r] += back ? sent[r * nr + s] : sent[s * nr + r];
  free(sent);
  return at ? HX_OK : HX_ERR_MEM;
}

int workshare_move(const WorkShare *w, int width, int back, const double *out, double *in) {
  if (!w->active) return HX_OK;
#ifdef HEXDG_HAVE_MPI
  const int nr = w->n_ranks;
  int *counts = hx_malloc(sizeof(int) * 4 * (size_t)nr, "work shares");
  if (!counts) return HX_ERR_MEM;
  int *sc = counts, *sd = counts + nr, *rc = counts + 2 * nr, *rd = counts + 3 * nr;
  const int *to = back ? w->recv_count : w->send_count,
            *from = back ? w->send_count : w->recv_count;
  for (int r = 0, so = 0, ro = 0; r < nr; r++) { /* rows in rank order on both sides */
    sc[r] = to[r] * width, sd[r] = so, so += sc[r];
    rc[r] = from[r] * width, rd[r] = ro, ro += rc[r];
  }
  int err = MPI_Alltoallv(out, sc, sd, MPI_DOUBLE, in, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD);
  free(counts);
  if (err != MPI_SUCCESS)
    return HX_ERROR(HX_ERR_INTERNAL, "MPI_Alltoallv of the shared chemistry work failed (%d)", err);
#else
  (void)width, (void)back, (void)out, (void)in;
#endif
  return HX_OK;
}
