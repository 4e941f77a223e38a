/* Non-blocking side exchange with MPI_Isend/MPI_Irecv straight from and into the face arrays. */
#include "parallel/exchange.h"

#include <stdlib.h>

#include "core/error.h"

#ifdef HEXDG_HAVE_MPI
#include <mpi.h>

struct SideExchange {
  const Mesh *mesh;
  int n_nbr;
  int active[EXCH_NSLOTS];
  MPI_Request *req[EXCH_NSLOTS]; /* [2 * n_nbr]: receives, then sends */
  MPI_Status *status;            /* [2 * n_nbr] (GCC flags MPI_STATUSES_IGNORE as an overflow) */
};

#define SWAP_TAG 31 /* above the slot tags of the face messages */

int exchange_create(const Mesh *m, SideExchange **out) {
  *out = NULL;
  if (m->n_nbr_ranks == 0) return HX_OK;
  SideExchange *x = hx_calloc(1, sizeof(SideExchange), "side exchange");
  HX_ALLOC_CHECK(x);
  x->mesh = m;
  x->n_nbr = m->n_nbr_ranks;
  x->status = hx_malloc(sizeof(MPI_Status) * 2 * x->n_nbr, "MPI statuses");
  if (!x->status) {
    free(x);
    return HX_ERR_MEM;
  }
  for (int k = 0; k < EXCH_NSLOTS; k++) {
    x->req[k] = hx_malloc(sizeof(MPI_Request) * 2 * x->n_nbr, "MPI requests");
    if (!x->req[k]) {
      exchange_destroy(x);
      return HX_ERR_MEM;
    }
    for (int r = 0; r < 2 * x->n_nbr; r++) x->req[k][r] = MPI_REQUEST_NULL;
  }
  *out = x;
  return HX_OK;
}

void exchange_destroy(SideExchange *x) {
  if (!x) return;
  for (int k = 0; k < EXCH_NSLOTS; k++) {
    if (x->req[k]) exchange_finish(x, k);
    free(x->req[k]);
  }
  free(x->status);
  free(x);
}

/* Message k of a block is at base + doubles_per_side * (first[k] - offset). */
static void start_blocks(SideExchange *x, int slot, const double *send, int send_offset,
                         double *recv, int recv_offset, long doubles_per_side, int direction) {
  const Mesh *m = x->mesh;
  const int *send_first = direction == EXCH_TO_MASTER ? m->nbr_yours_first : m->nbr_mine_first;
  const int *send_count = direction == EXCH_TO_MASTER ? m->nbr_yours_count : m->nbr_mine_count;
  const int *recv_first = direction == EXCH_TO_MASTER ? m->nbr_mine_first : m->nbr_yours_first;
  const int *recv_count = direction == EXCH_TO_MASTER ? m->nbr_mine_count : m->nbr_yours_count;
  exchange_finish(x, slot); /* one exchange per slot in flight */
  MPI_Request *req = x->req[slot];
  for (int k = 0; k < x->n_nbr; k++) {
    req[k] = req[x->n_nbr + k] = MPI_REQUEST_NULL;
    if (recv_count[k] > 0)
      MPI_Irecv(&recv[doubles_per_side * (recv_first[k] - recv_offset)],
                (int)(doubles_per_side * recv_count[k]), MPI_DOUBLE, m->nbr_rank[k], slot,
                MPI_COMM_WORLD, &req[k]);
  }
  for (int k = 0; k < x->n_nbr; k++)
    if (send_count[k] > 0)
      MPI_Isend(&send[doubles_per_side * (send_first[k] - send_offset)],
                (int)(doubles_per_side * send_count[k]), MPI_DOUBLE, m->nbr_rank[k], slot,
                MPI_COMM_WORLD, &req[x->n_nbr + k]);
  x->active[slot] = 1;
}

void exchange_start(SideExchange *x, int slot, double *face, long doubles_per_side, int direction) {
  if (!x) return;
  start_blocks(x, slot, face, 0, face, 0, doubles_per_side, direction);
}

void exchange_start_packed(SideExchange *x, int slot, const double *send, double *recv,
                           long doubles_per_side, int direction) {
  if (!x) return;
  int mine = mesh_first_mpi_side(x->mesh), yours = mesh_first_yours_side(x->mesh);
  int to_master = direction == EXCH_TO_MASTER;
  start_blocks(x, slot, send, to_master ? yours : mine, recv, to_master ? mine : yours,
               doubles_per_side, direction);
}

void exchange_finish(SideExchange *x, int slot) {
  if (!x || !x->active[slot]) return;
  MPI_Waitall(2 * x->n_nbr, x->req[slot], x->status);
  x->active[slot] = 0;
}

int exchange_n_nbr(const SideExchange *x) { return x ? x->n_nbr : 0; }

void exchange_swap_bytes(SideExchange *x, const void *send, void *recv, int bytes) {
  if (!x) return;
  for (int k = 0; k < x->n_nbr; k++)
    MPI_Sendrecv((const char *)send + (size_t)bytes * k, bytes, MPI_BYTE, x->mesh->nbr_rank[k],
                 SWAP_TAG, (char *)recv + (size_t)bytes * k, bytes, MPI_BYTE,
                 x->mesh->nbr_rank[k], SWAP_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

#else /* without MPI there are no MPI sides */

int exchange_create(const Mesh *m, SideExchange **out) {
  *out = NULL;
  if (m->n_nbr_ranks != 0)
    return HX_ERROR(HX_ERR_INTERNAL, "mesh has MPI sides in a build without MPI");
  return HX_OK;
}
void exchange_destroy(SideExchange *x) { (void)x; }
void exchange_start(SideExchange *x, int slot, double *face, long doubles_per_side, int direction) {
  (void)x, (void)slot, (void)face, (void)doubles_per_side, (void)direction;
}
void exchange_finish(SideExchange *x, int slot) { (void)x, (void)slot; }
void exchange_start_packed(SideExchange *x, int slot, const double *send, double *recv,
                           long doubles_per_side, int direction) {
  (void)x, (void)slot, (void)send, (void)recv, (void)doubles_per_side, (void)direction;
}
int exchange_n_nbr(const SideExchange *x) {
  (void)x;
  return 0;
}
void exchange_swap_bytes(SideExchange *x, const void *send, void *recv, int bytes) {
  (void)x, (void)send, (void)recv, (void)bytes;
}

#endif
