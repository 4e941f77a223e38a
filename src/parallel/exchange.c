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
  int *token;                    /* IPC tokens: [slot][kind][parity][n_nbr] send buffers */
  MPI_Request *token_req;        /* and their requests */
};

#define TOKEN_TAG0 32 /* above the slot tags of the face messages */

static long token_index(const SideExchange *x, int slot, int kind, int parity, int k) {
  return (((long)slot * 2 + kind) * 2 + parity) * x->n_nbr + k;
}

int exchange_create(const Mesh *m, SideExchange **out) {
  *out = NULL;
  if (m->n_nbr_ranks == 0) return HX_OK;
  SideExchange *x = hx_calloc(1, sizeof(SideExchange), "side exchange");
  HX_ALLOC_CHECK(x);
  x->mesh = m;
  x->n_nbr = m->n_nbr_ranks;
  x->status = hx_malloc(sizeof(MPI_Status) * 2 * x->n_nbr, "MPI statuses");
  long n_tok = token_index(x, EXCH_NSLOTS, 0, 0, 0);
  x->token = hx_calloc((size_t)n_tok, sizeof(int), "IPC tokens");
  x->token_req = hx_malloc(sizeof(MPI_Request) * (size_t)n_tok, "IPC token requests");
  if (!x->status || !x->token || !x->token_req) {
    free(x->status);
    free(x->token);
    free(x->token_req);
    free(x);
    return HX_ERR_MEM;
  }
  for (long i = 0; i < n_tok; i++) x->token_req[i] = MPI_REQUEST_NULL;
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
  for (long i = 0; x->token_req && i < token_index(x, EXCH_NSLOTS, 0, 0, 0); i++)
    MPI_Wait(&x->token_req[i], MPI_STATUS_IGNORE);
  free(x->token);
  free(x->token_req);
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
                 TOKEN_TAG0 - 1, (char *)recv + (size_t)bytes * k, bytes, MPI_BYTE,
                 x->mesh->nbr_rank[k], TOKEN_TAG0 - 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

void exchange_token_send(SideExchange *x, int slot, int kind, int k, int seq) {
  long i = token_index(x, slot, kind, seq & 1, k);
  MPI_Wait(&x->token_req[i], MPI_STATUS_IGNORE);
  x->token[i] = seq;
  MPI_Isend(&x->token[i], 1, MPI_INT, x->mesh->nbr_rank[k], TOKEN_TAG0 + 2 * slot + kind,
            MPI_COMM_WORLD, &x->token_req[i]);
}

int exchange_token_recv(SideExchange *x, int slot, int kind, int k) {
  int seq = -1;
  MPI_Recv(&seq, 1, MPI_INT, x->mesh->nbr_rank[k], TOKEN_TAG0 + 2 * slot + kind, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  return seq;
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
void exchange_token_send(SideExchange *x, int slot, int kind, int k, int seq) {
  (void)x, (void)slot, (void)kind, (void)k, (void)seq;
}
int exchange_token_recv(SideExchange *x, int slot, int kind, int k) {
  (void)x, (void)slot, (void)kind, (void)k;
  return -1;
}

#endif
