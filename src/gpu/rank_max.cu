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
  IpcWhere where;
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
  if (!ipc_where(&h->where, why, len)) return 0;
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
  int same_gpu = 0;
  if (!ipc_reachable(&h->where, &own->where, k, &same_gpu, why, len)) return 0;
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

/* ---- self-test (tests/mpi/test_rank_max_gpu.c) -------------------------------------------- */

/* A positive value of rank k in round r, different on every rank and round (a hash). */
static double selftest_value(int k, int r) {
  unsigned s = 2654435761u * (unsigned)(k + 1) ^ 40503u * (unsigned)(r + 7);
  s ^= s >> 13;
  s *= 1274126177u;
  return 1.0 + (double)(s % 1000003u) * 1e-3;
}

typedef struct {
  unsigned long long w[2];
  int flag;
} SelftestWords;

/* One round's words of this rank into host; the expected maxima into want. */
static void selftest_round(int r, int me, int n, SelftestWords *host, SelftestWords *want) {
  double a = selftest_value(me, r), b = selftest_value(me, r + 1000), wa = 0.0, wb = 0.0;
  for (int k = 0; k < n; k++) {
    wa = fmax(wa, selftest_value(k, r));
    wb = fmax(wb, selftest_value(k, r + 1000));
  }
  host->w[0] = double_to_bits(a);
  host->w[1] = double_to_bits(b);
  host->flag = me == r % n; /* one rank raises the flag each round */
  want->w[0] = double_to_bits(wa);
  want->w[1] = double_to_bits(wb);
  want->flag = 1;
}

/* The round on stream s: the words up, the reduction, the result down. */
static int selftest_enqueue(RankMax *r, SelftestWords *dev, SelftestWords *host, cudaStream_t s) {
  RankMaxArgs a = {{&dev->w[0], &dev->w[1]}, 2, &dev->flag};
  CU_CHECK(cudaMemcpyAsync(dev, host, sizeof *dev, cudaMemcpyHostToDevice, s));
  HX_CHECK(launch_rank_max(r, &a, s));
  CU_CHECK(cudaMemcpyAsync(host, dev, sizeof *dev, cudaMemcpyDeviceToHost, s));
  return HX_OK;
}

static int selftest_rounds(RankMax *r, int rounds, int graph, SelftestWords *dev,
                           SelftestWords *host, cudaStream_t s, long *mismatches) {
  const int me = par_rank(), n = par_size();
  cudaGraphExec_t exec = NULL;
  if (graph) {
    cudaGraph_t g;
    CU_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    int rc = selftest_enqueue(r, dev, host, s);
    cudaError_t end = cudaStreamEndCapture(s, &g);
    if (rc != HX_OK) return rc;
    CU_CHECK(end);
    CU_CHECK(cudaGraphInstantiate(&exec, g, 0));
    CU_CHECK(cudaGraphDestroy(g));
  }
  int rc = HX_OK;
  for (int k = 0; k < rounds && rc == HX_OK; k++) {
    SelftestWords want;
    selftest_round(k, me, n, host, &want);
    if (exec)
      rc = cudaGraphLaunch(exec, s) == cudaSuccess ? HX_OK
                                                    : HX_ERROR(HX_ERR_DEVICE, "cudaGraphLaunch failed");
    else
      rc = selftest_enqueue(r, dev, host, s);
    if (rc == HX_OK && cudaStreamSynchronize(s) != cudaSuccess)
      rc = HX_ERROR(HX_ERR_DEVICE, "the reduction failed: %s", cudaGetErrorString(cudaGetLastError()));
    if (rc == HX_OK && (host->w[0] != want.w[0] || host->w[1] != want.w[1] || host->flag != 1))
      (*mismatches)++;
  }
  if (exec) cudaGraphExecDestroy(exec);
  return rc;
}

extern "C" int gpu_rank_max_selftest(int rounds, int graph, long *mismatches, char *why,
                                     size_t len) {
  *mismatches = 0;
  HX_CHECK(gpu_select_device(NULL, 0));
  RankMax *r = NULL;
  HX_CHECK(rank_max_create(&r, why, len));
  if (!r) return HX_ERROR(HX_ERR_DEVICE, "the device reduction over the ranks: %s", why);
  SelftestWords *dev = NULL, *host = NULL;
  cudaStream_t s = NULL;
  int rc = cudaMalloc((void **)&dev, sizeof *dev) == cudaSuccess &&
                   cudaMallocHost((void **)&host, sizeof *host) == cudaSuccess &&
                   cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess
               ? HX_OK
               : HX_ERROR(HX_ERR_DEVICE, "rank_max self-test: out of memory");
  /* a failure on one rank leaves the others waiting in their reductions: the test program's
     time limit ends it */
  if (rc == HX_OK) rc = selftest_rounds(r, rounds, graph, dev, host, s, mismatches);
  if (s) cudaStreamDestroy(s);
  if (host) cudaFreeHost(host);
  if (dev) cudaFree(dev);
  rank_max_destroy(r);
  return rc;
}
