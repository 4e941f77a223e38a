/* Block-level synchronisation of the CUDA IPC exchanges (gpu_mpi.cu, face_kernels.cu): a flag
 * that another rank raises in this GPU's memory, and the "last block" pattern (a counter after a
 * system-scope fence, as in the CUDA threadFenceReduction sample) by which the last block of a
 * kernel raises the flags that tell the other ranks its data are in place. */
#ifndef HEXDG_GPU_IPC_SYNC_CUH
#define HEXDG_GPU_IPC_SYNC_CUH

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gpu/gpu_internal.cuh"

enum { IPC_PACK_MAX_NBR = 32 };

/* In a set-up function that returns 1 (worked) or 0 with the reason in why[len]: a CUDA call
 * whose failure returns 0 with the message and the CUDA error. */
#define IPC_TRY(call, ...)                                                                        \
  do {                                                                                             \
    cudaError_t ipc_err_ = (call);                                                                 \
    if (ipc_err_ != cudaSuccess) {                                                                 \
      cudaGetLastError();                                                                          \
      int ipc_n_ = snprintf(why, len, __VA_ARGS__);                                                \
      if (ipc_n_ >= 0 && (size_t)ipc_n_ < len)                                                     \
        snprintf(why + ipc_n_, len - (size_t)ipc_n_, " (%s)", cudaGetErrorString(ipc_err_));       \
      return 0;                                                                                    \
    }                                                                                              \
  } while (0)

/* A double and its bits (host): the ranks' maxima of non-negative doubles travel as bits, which
 * order like the values. */
static inline double bits_to_double(unsigned long long bits) {
  double v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

static inline unsigned long long double_to_bits(double v) {
  unsigned long long bits;
  memcpy(&bits, &v, sizeof bits);
  return bits;
}

/* Where a process's GPU is, told to the other ranks at set-up: node name and PCI bus id. */
typedef struct {
  char host[64];
  char bus_id[32];
} IpcWhere;

/* This process's IpcWhere; 1, or 0 with the reason in why. */
static inline int ipc_where(IpcWhere *w, char *why, size_t len) {
  memset(w, 0, sizeof *w);
  if (gethostname(w->host, sizeof w->host - 1) != 0) {
    snprintf(why, len, "gethostname failed");
    return 0;
  }
  int dev = 0;
  IPC_TRY(cudaGetDevice(&dev), "cudaGetDevice failed");
  IPC_TRY(cudaDeviceGetPCIBusId(w->bus_id, sizeof w->bus_id, dev), "cudaDeviceGetPCIBusId failed");
  return 1;
}

/* Whether this process can map the GPU memory of rank `rank` (where: peer; own: ours): the same
 * node, its GPU visible here, and peer access or the same GPU (*same_gpu set to 1 then). 1, or 0
 * with the reason in why. */
static inline int ipc_reachable(const IpcWhere *peer, const IpcWhere *own, int rank, int *same_gpu,
                                char *why, size_t len) {
  if (strncmp(peer->host, own->host, sizeof peer->host) != 0) {
    snprintf(why, len, "rank %d runs on another node (%.63s, this rank on %.63s)", rank,
             peer->host, own->host);
    return 0;
  }
  int dev = 0, peer_dev = 0, can = 0;
  IPC_TRY(cudaGetDevice(&dev), "cudaGetDevice failed");
  IPC_TRY(cudaDeviceGetByPCIBusId(&peer_dev, peer->bus_id),
          "the GPU of rank %d (PCI %.31s) is not visible to this rank (CUDA_VISIBLE_DEVICES?)",
          rank, peer->bus_id);
  if (peer_dev == dev) {
    *same_gpu = 1;
    return 1;
  }
  IPC_TRY(cudaDeviceCanAccessPeer(&can, dev, peer_dev), "cudaDeviceCanAccessPeer failed");
  if (!can)
    snprintf(why, len, "no peer access from this rank's GPU (PCI %.31s) to that of rank %d "
             "(PCI %.31s)", own->bus_id, rank, peer->bus_id);
  return can;
}

/* Thread 0 of the block waits until *flag is raised (it does not lower it). */
__device__ static inline void block_wait_flag(unsigned *flag) {
  if (threadIdx.x == 0) {
    volatile unsigned *f = flag;
    while (*f == 0u) __nanosleep(64);
  }
  __syncthreads();
}

/* After the block's stores: whether it is the last of `blocks` blocks counted in *count. */
__device__ static inline bool block_is_last(unsigned *count, unsigned blocks) {
  __shared__ bool last;
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) {
    last = atomicAdd(count, 1u) == blocks - 1u;
    if (last) *count = 0u;
  }
  __syncthreads();
  return last;
}

/* Packing straight into the neighbours' receive buffers: the "yours" sides [first, last) of the
 * kernel are neighbour j's from side_first[j] on (ascending, j < n); its block starts at dst[j].
 * Every block waits for the n_flags flags wait[] (the neighbours' buffers are free); the last
 * block lowers them and raises raise[] (the data are there). count: the kernel's block counter. */
typedef struct {
  int n;
  int side_first[IPC_PACK_MAX_NBR];
  double *dst[IPC_PACK_MAX_NBR];
  unsigned *const *wait;
  unsigned *const *raise;
  int n_flags;
  unsigned *count;
} IpcPackPlan;

/* The slave-side values of the "yours" sides [first, last) (as launch_pack_slave) written into
 * the neighbours' receive buffers by plan, with the flags of plan: one kernel instead of the
 * pack kernel and the wait / copy / raise chain of the send. */
int launch_pack_send(const DevData *d, const double *vol, int nv, int first, int last,
                     const IpcPackPlan *plan, cudaStream_t s);

#endif
