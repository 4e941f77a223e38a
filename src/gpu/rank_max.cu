/* The maximum of a few 64-bit words over all ranks on the device (rank_max.cuh). Each rank owns
 * one block of device memory that every rank maps (CUDA IPC):
 *   flag[r]            the sequence number of the last reduction whose words rank r wrote here;
 *   slot[q][r][w]      rank r's words of reduction seq, q = seq & 1;
 *   seq                this rank's count of reductions (only it uses its own).
 * Reduction seq: thread r writes this rank's words into rank r's slot[q][me], a system-scope fence,
 * then rank r's flag[me] = seq; it waits until our flag[r] >= seq and reads our slot[q][r].
 * Two slots suffice: a rank writes slot[q] again only at seq + 2, after its reduction seq + 1,
 * which needed our flag for seq + 1, which we raise after we read slot[q] for seq. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/gpu_internal.cuh"
#include "gpu/ipc_sync.cuh"
#include "gpu/rank_max.cuh"

extern "C" {
#include "parallel/parallel.h"
}

enum { SLOT_WORDS = RANK_MAX_WORDS + 1 }; /* the words and the flag */

typedef struct {
  unsigned long long flag[RANK_MAX_RANKS];
  unsigned long long slot[2][RANK_MAX_RANKS][SLOT_WORDS];
  unsigned long long seq;
} RankMaxBuf;

typedef struct {
  RankMaxBuf *peer[RANK_MAX_RANKS]; /* every rank's block, mapped here ([me]: our own) */
  int me, n;
} RankMaxDev;

struct RankMax {
  RankMaxDev dev;
  RankMaxBuf *own;
};

/* What a rank tells the others at set-up (fixed size, gathered as bytes). */
typedef struct {
  int ok;
  char host[64];
  char bus_id[32];
  cudaIpcMemHandle_t handle;
} RankMaxHello;

__global__ void rank_max_kernel(RankMaxDev dev, RankMaxArgs a) {
  __shared__ unsigned long long seq;
  __shared__ unsigned long long got[RANK_MAX_RANKS][SLOT_WORDS];
  const int r = threadIdx.x;
  RankMaxBuf *own = dev.peer[dev.me];
  if (r == 0) seq = ++own->seq;
  __syncthreads();
  const int q = (int)(seq & 1ull);
  if (r < dev.n) {
    unsigned long long mine[SLOT_WORDS];
    for (int w = 0; w < a.n_words; w++) mine[w] = *a.word[w];
    mine[RANK_MAX_WORDS] = a.flag ? (unsigned long long)(*a.flag != 0) : 0ull;
    volatile unsigned long long *to = dev.peer[r]->slot[q][dev.me];
    for (int w = 0; w < a.n_words; w++) to[w] = mine[w];
    to[RANK_MAX_WORDS] = mine[RANK_MAX_WORDS];
    __threadfence_system();
    *(volatile unsigned long long *)&dev.peer[r]->flag[dev.me] = seq;
    volatile unsigned long long *f = &own->flag[r];
    while (*f < seq) __nanosleep(32);
    __threadfence();
    volatile const unsigned long long *from = own->slot[q][r];
    for (int w = 0; w < SLOT_WORDS; w++) got[r][w] = from[w];
  }
  __syncthreads();
  if (r == 0) {
    for (int w = 0; w < SLOT_WORDS; w++) {
      unsigned long long v = got[0][w];
      for (int k = 1; k < dev.n; k++) v = got[k][w] > v ? got[k][w] : v;
      if (w < a.n_words) *a.word[w] = v;
      if (w == RANK_MAX_WORDS && a.flag) *a.flag = v != 0ull;
    }
  }
}

int launch_rank_max(RankMax *r, const RankMaxArgs *a, cudaStream_t s) {
  if (a->n_words < 0 || a->n_words > RANK_MAX_WORDS)
    return HX_ERROR(HX_ERR_INTERNAL, "launch_rank_max: %d words (at most %d)", a->n_words,
                    RANK_MAX_WORDS);
  rank_max_kernel<<<1, (r->dev.n + 31) / 32 * 32, 0, s>>>(r->dev, *a);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

/* Closes what is open of the others' blocks and frees ours (no collective). */
static void rank_max_free(RankMax *r) {
  if (!r) return;
  for (int k = 0; k < r->dev.n; k++)
    if (k != r->dev.me && r->dev.peer[k]) cudaIpcCloseMemHandle(r->dev.peer[k]);
  if (r->own) cudaFree(r->own);
  cudaGetLastError();
  free(r);
}

/* Our block, zeroed, and the hello that exports it. */
static int rank_max_export(RankMax *r, RankMaxHello *h, char *why, size_t len) {
  int dev = 0;
  if (gethostname(h->host, sizeof h->host - 1) != 0) {
    snprintf(why, len, "gethostname failed");
    return 0;
  }
  IPC_TRY(cudaGetDevice(&dev), "cudaGetDevice failed");
  IPC_TRY(cudaDeviceGetPCIBusId(h->bus_id, sizeof h->bus_id, dev), "cudaDeviceGetPCIBusId failed");
  IPC_TRY(cudaMalloc((void **)&r->own, sizeof(RankMaxBuf)), "out of device memory");
  IPC_TRY(cudaMemset(r->own, 0, sizeof(RankMaxBuf)), "cudaMemset failed");
  IPC_TRY(cudaDeviceSynchronize(), "cudaDeviceSynchronize failed");
  IPC_TRY(cudaIpcGetMemHandle(&h->handle, r->own), "cudaIpcGetMemHandle failed");
  return 1;
}

/* Opens the block of rank k (hello h). */
static int rank_max_import(RankMax *r, int k, const RankMaxHello *h, const RankMaxHello *own,
                           char *why, size_t len) {
  if (!h->ok) {
    snprintf(why, len, "its set-up failed on rank %d", k);
    return 0;
  }
  if (strncmp(h->host, own->host, sizeof h->host) != 0) {
    snprintf(why, len, "rank %d runs on another node (%.63s, this rank on %.63s)", k, h->host,
             own->host);
    return 0;
  }
  int dev = 0, peer_dev = 0, can = 1;
  IPC_TRY(cudaGetDevice(&dev), "cudaGetDevice failed");
  IPC_TRY(cudaDeviceGetByPCIBusId(&peer_dev, h->bus_id),
         "the GPU of rank %d (PCI %.31s) is not visible to this rank", k, h->bus_id);
  if (peer_dev != dev) IPC_TRY(cudaDeviceCanAccessPeer(&can, dev, peer_dev), "peer query failed");
  if (!can) {
    snprintf(why, len, "no peer access to the GPU of rank %d", k);
    return 0;
  }
  IPC_TRY(cudaIpcOpenMemHandle((void **)&r->dev.peer[k], h->handle,
                              cudaIpcMemLazyEnablePeerAccess),
         "cudaIpcOpenMemHandle of rank %d's block failed", k);
  return 1;
}

int rank_max_create(RankMax **out, char *why, size_t len) {
  *out = NULL;
  const int n = par_size(), me = par_rank();
  if (n > RANK_MAX_RANKS) { /* the same answer on every rank: no collective needed */
    snprintf(why, len, "%d ranks (at most %d)", n, RANK_MAX_RANKS);
    return HX_OK;
  }
  static RankMaxHello all[RANK_MAX_RANKS];
  memset(all, 0, sizeof all);
  RankMax *r = (RankMax *)calloc(1, sizeof(RankMax));
  int ok = r != NULL;
  if (!ok) snprintf(why, len, "out of host memory");
  if (ok) {
    r->dev.me = me;
    r->dev.n = n;
    ok = rank_max_export(r, &all[me], why, len);
    r->dev.peer[me] = r->own;
  }
  all[me].ok = ok;
  const RankMaxHello mine = all[me];
  par_allgather_bytes(all, (int)sizeof(RankMaxHello)); /* collective whatever happened here */
  for (int k = 0; ok && k < n; k++)
    if (k != me) ok = rank_max_import(r, k, &all[k], &mine, why, len);
  if (par_any(!ok)) {
    if (ok) snprintf(why, len, "it failed on another rank");
    par_barrier(); /* every rank closes after all have opened what they could */
    rank_max_free(r);
    return HX_OK;
  }
  *out = r;
  return HX_OK;
}

void rank_max_destroy(RankMax *r) {
  if (!r) return;
  cudaDeviceSynchronize();
  par_barrier();
  rank_max_free(r);
}
