/* CUDA backend on several MPI ranks, one GPU per rank. Per RK stage (GALAEXI, Kurz et al. 2025,
 * Fig. 4): the MPI sides are computed first on the high-priority stream; their data go to the
 * neighbours while the inner sides (mid priority) and the volume work (low priority) run on the
 * GPU; the kernels that need the received data follow on the MPI-side stream; the surface update
 * waits for both.
 *
 *   exchange    sent (device)                  received (device)
 *   EXCH_U      slave states of "yours" sides  mpi_U_recv ("mine" sides, slave side)
 *   EXCH_LIFT   lift_flux of "mine" sides      lift_flux of "yours" sides
 *   EXCH_GRAD   slave gradients of "yours"     mpi_grad_recv ("mine" sides)
 *   EXCH_FLUX   flux of "mine" sides           flux of "yours" sides
 *
 * Euler runs exchange U and FLUX only. FLEXI's indicators and FV switching add exchanges of
 * other per-side arrays (gpu_mpi_fv.cu) through gpu_mpi_exchange, one slot per direction.
 * Two transports (MPITransport):
 *   host: through pinned host memory: device -> host copy, wait, MPI messages, host -> device
 *     copy (no CUDA-aware MPI needed, works across nodes);
 *   ipc: when every neighbour is on this node and its GPU is reachable (peer access or the same
 *     GPU), the sender copies its block straight into the neighbour's device receive buffer
 *     (CUDA IPC) and raises a flag in the neighbour's memory; the receiver's stream waits for
 *     that flag on the device. No host call orders an exchange, so the RK stages of a step (all
 *     but its dt reduction) can be captured in a CUDA graph.
 * The host transport calls MPI from this thread inside a stage (MPI_THREAD_FUNNELED), so its
 * stages cannot be captured. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu/gpu.h"
#include "gpu/gpu_internal.cuh"
#include "gpu/ipc_sync.cuh"
#include "gpu/rank_max.cuh"
#include "gpu/stage_trace.cuh"

extern "C" {
#include "parallel/exchange.h"
#include "parallel/parallel.h"
}

/* Slots of the GPU exchanges (EXCH_U..EXCH_FLUX, then the blending factors' spreading and
 * gpu_mpi_exchange, one slot per direction each) and the direction of each. */
enum {
  IPC_ALPHA_TO_MASTER = 4,
  IPC_ALPHA_TO_SLAVE = 5,
  IPC_SIDES_TO_MASTER = 6,
  IPC_SIDES_TO_SLAVE = 7,
  IPC_SLOTS = 8
};
static const int SLOT_DIRECTION[IPC_SLOTS] = {EXCH_TO_MASTER, EXCH_TO_SLAVE, EXCH_TO_MASTER,
                                              EXCH_TO_SLAVE,  EXCH_TO_MASTER, EXCH_TO_SLAVE,
                                              EXCH_TO_MASTER, EXCH_TO_SLAVE};

/* The IPC flags of a rank ([slot][kind][neighbour], device memory, 0 or 1): FLAG_SENT[k] is
 * raised by neighbour k once its block is in our receive buffer, FLAG_DONE[k] by neighbour k once
 * it has copied our previous block out of its buffer (1 at the start: the buffers are free). */
enum { FLAG_SENT = 0, FLAG_DONE = 1, FLAG_KINDS = 2 };
/* The points of the stage timeline (HEXDG_STAGE_TRACE, stage_trace.cuh), on the stream named. */
enum {
  TP_START,
  TP_INNER_LIFT,
  TP_U_PACKED,
  TP_U_RECV,
  TP_MPI_LIFT,
  TP_LIFT_RECV,
  TP_LIFTING,
  TP_GRAD_PACKED,
  TP_INNER_FLUX,
  TP_VOLINT,
  TP_GRAD_RECV,
  TP_MPI_FLUX,
  TP_FLUX_EXCH,
  TP_END,
  TP_COUNT
};
static const char *const TRACE_NAMES[TP_COUNT] = {
    "start",
    "side: inner face lifting done",
    "mpi: U packed",
    "mpi: U received",
    "mpi: MPI face lifting done",
    "mpi: BR1 face values exchanged",
    "elem: lifting kernel done",
    "mpi: gradients packed",
    "side: inner face fluxes done",
    "elem: VolInt done",
    "mpi: U/gradients received",
    "mpi: MPI face fluxes done",
    "mpi: fluxes exchanged",
    "elem: surface update done (end)"};

/* An exchange's two parts: what this rank sends, what it receives. */
enum { ROLE_SEND = 0, ROLE_RECV = 1 };

/* What a rank tells each neighbour at set-up (fixed size, sent as bytes). */
typedef struct {
  int ok;            /* the sender's own IPC set-up succeeded */
  int offset[2];     /* [direction]: first side of the receiver's block from this neighbour,
                        counted in the receiver's received block ("mine" or "yours" sides) */
  int n_nbr;         /* the sender's neighbour count (the row length of its flags) */
  int index;         /* the receiver's position in the sender's neighbour list */
  IpcWhere where;    /* node and PCI bus id of the sender's GPU */
  cudaIpcMemHandle_t buf[IPC_SLOTS];
  int base[IPC_SLOTS]; /* first side of the receiver's block in buf (0, or the first "yours"
                          side where buf is the receiver's own side array: direct_slot) */
  cudaIpcMemHandle_t flags;
} IpcHello;

/* A neighbour's receive buffers and flags, opened in this process. */
typedef struct {
  double *buf[IPC_SLOTS];
  unsigned *flags;
  int base[IPC_SLOTS];
  int offset[2];
  int n_nbr, my_index; /* its neighbour count, this rank's position in its list */
} IpcPeer;

/* The flags one part of an exchange waits for (and lowers) and those it raises, one pair per
 * neighbour involved (device arrays of device pointers). */
typedef struct {
  int n;
  unsigned **wait, **raise;
} IpcFlagList;

struct GpuMpi {
  SideExchange *x; /* the solver's exchange (NULL: this rank has no MPI sides) */
  const Mesh *mesh;
  int first_mpi, first_yours, n_sides, n_mine, n_yours;
  cudaStream_t s_elem, s_side, s_mpi; /* without overlap all three are s_elem */
  cudaEvent_t ev_stage, ev_inner, ev_remote, ev_grad, ev_consumed;
  double *d_send_U, *d_send_grad, *d_recv_U, *d_recv_grad;
  double *h_send[EXCH_NSLOTS], *h_recv[EXCH_NSLOTS]; /* pinned staging, one pair per slot */
  size_t bytes;
  int transport; /* GPU_TRANSPORT_HOST or GPU_TRANSPORT_IPC */
  /* IPC: a receive buffer per slot, the flags, the flag lists of each slot's two parts */
  double *ipc_recv[IPC_SLOTS];
  unsigned *ipc_flags;  /* [slot][kind][n_nbr] */
  unsigned **ipc_ptrs;  /* backing store of the lists' pointer arrays */
  unsigned *ipc_count;  /* [slot][n_nbr + 1]: blocks of a fused exchange kernel that are done */
  int ipc_fused;        /* one kernel per exchange direction (ipc_setup says when) */
  int ipc_direct;       /* received blocks read where they arrive (direct_slot) */
  IpcFlagList list[IPC_SLOTS][2];
  IpcPeer *peer; /* [n_nbr] */
  int n_nbr;
  int shares_gpu; /* a neighbour runs on this rank's GPU */
  double *h_alpha;    /* pinned mirror of alpha_side (shock capturing with spreading) */
  cudaEvent_t ev_hop; /* gpu_mpi_hop: recorded on one stream and waited for at once by another */
  long sides_dps;     /* gpu_mpi_exchange: the most doubles per side its buffers take */
  StageTrace *trace;  /* HEXDG_STAGE_TRACE: the air stage's timeline (NULL: off) */
  int pack_send;      /* IPC: U and the gradients packed straight into the masters' buffers */
  RankMax *dt_max;    /* IPC: the dt's eigenvalue maxima reduced on the device (NULL: host) */
  cudaStream_t s_dt;  /* gpu_mpi_timestep_beside: the step's dt beside its first stage */
  cudaEvent_t ev_dt_fork, ev_dt;
  int dt_pending;     /* the next stage's update waits for ev_dt (host state while enqueuing) */
};

static int mpi_dev_alloc(GpuMpi *m, double **p, size_t n, const char *what) {
  cudaError_t err = cudaMalloc((void **)p, sizeof(double) * (n ? n : 1));
  if (err != cudaSuccess) {
    cudaGetLastError();
    return HX_ERROR(HX_ERR_DEVICE,
                    "out of device memory allocating %zu bytes for %s (MPI "
                    "buffers): use a smaller mesh or more GPUs",
                    sizeof(double) * n, what);
  }
  m->bytes += sizeof(double) * n;
  return HX_OK;
}

static int mpi_host_alloc(double **p, size_t n) {
  CU_CHECK(cudaMallocHost((void **)p, sizeof(double) * (n ? n : 1)));
  return HX_OK;
}

static int create_buffers(GpuMpi *m, const DevData *d) {
  size_t nv = (size_t)d->nvar * d->n2, ng = (size_t)HX_NGRAD * d->n2;
  HX_CHECK(mpi_dev_alloc(m, &m->d_send_U, nv * m->n_yours, "slave states sent"));
  HX_CHECK(mpi_dev_alloc(m, &m->d_recv_U, nv * m->n_mine, "slave states received"));
  if (d->viscous) {
    HX_CHECK(mpi_dev_alloc(m, &m->d_send_grad, ng * m->n_yours, "slave gradients sent"));
    HX_CHECK(mpi_dev_alloc(m, &m->d_recv_grad, ng * m->n_mine, "slave gradients received"));
  }
  return HX_OK;
}

static int create_host_buffers(GpuMpi *m, const DevData *d) {
  size_t nv = (size_t)d->nvar * d->n2, ng = (size_t)HX_NGRAD * d->n2;
  size_t most = (d->viscous ? ng : nv) * (m->n_mine > m->n_yours ? m->n_mine : m->n_yours);
  for (int k = 0; k < EXCH_NSLOTS; k++) {
    HX_CHECK(mpi_host_alloc(&m->h_send[k], most));
    HX_CHECK(mpi_host_alloc(&m->h_recv[k], most));
  }
  return HX_OK;
}

/* ---- CUDA IPC transport ------------------------------------------------------------------ */

/* Doubles per side of a slot (0: the slot is not used by this run). */
static long slot_doubles_per_side(const DevData *d, int slot) {
  if (slot == EXCH_U || slot == EXCH_FLUX) return (long)d->nvar * d->n2;
  if (slot >= IPC_SIDES_TO_MASTER) return gpu_mpi_fv_doubles_per_side(d);
  if (slot >= IPC_ALPHA_TO_MASTER) return d->alpha && d->fv_extend ? 1 : 0;
  return d->viscous ? (long)HX_NGRAD * d->n2 : 0;
}

static int recv_sides(const GpuMpi *m, int direction) {
  return direction == EXCH_TO_MASTER ? m->n_mine : m->n_yours;
}

/* Where in neighbour k's memory our block of a slot goes. */
static double *peer_block(const IpcPeer *pr, int slot, size_t dps, int direction) {
  return pr->buf[slot] + dps * (size_t)(pr->base[slot] + pr->offset[direction]);
}

/* Slots read where they arrive (MPI sides' blocks that kernels read in place, so no copy out of
 * the receive buffer and the senders' FLAG_DONE raised once the consumers ran: release_direct):
 * U and gradients of "mine" sides (the face kernels read d->mpi_U_recv / mpi_grad_recv, pointed
 * at the receive buffers), the lifted face values and the fluxes of "yours" sides (the neighbours
 * write straight into d->lift_flux / d->flux). */
static bool direct_slot(const GpuMpi *m, int slot) {
  return m->ipc_direct && slot <= EXCH_FLUX;
}

/* The side array a direct slot's neighbours write into (NULL: the slot's receive buffer). */
static double *side_array_of(const GpuMpi *m, const DevData *d, int slot) {
  if (!direct_slot(m, slot)) return NULL;
  if (slot == EXCH_FLUX) return d->flux;
  return slot == EXCH_LIFT && d->viscous ? d->lift_flux : NULL;
}

/* First side and side count of neighbour k's block that this rank sends (send 1) or receives
 * (send 0) in the given direction; first is counted from the start of the packed block. */
static void nbr_block(const GpuMpi *m, int k, int direction, int send, int *first, int *count) {
  const Mesh *mesh = m->mesh;
  int yours = (direction == EXCH_TO_MASTER) == (send != 0); /* to master: send "yours" sides */
  *first = yours ? mesh->nbr_yours_first[k] - m->first_yours : mesh->nbr_mine_first[k] - m->first_mpi;
  *count = yours ? mesh->nbr_yours_count[k] : mesh->nbr_mine_count[k];
}

static size_t flag_count(const GpuMpi *m) {
  return (size_t)IPC_SLOTS * FLAG_KINDS * (m->n_nbr ? m->n_nbr : 1);
}

/* Our flags: none raised but DONE (the receive buffers of our neighbours are free). Set before
 * the hello, so no neighbour can write them before. */
static int ipc_flags_init(GpuMpi *m, char *why, size_t len) {
  size_t n = flag_count(m);
  unsigned *host = (unsigned *)calloc(n, sizeof(unsigned));
  if (!host) {
    snprintf(why, len, "out of host memory");
    return 0;
  }
  for (int slot = 0; slot < IPC_SLOTS; slot++)
    for (int k = 0; k < m->n_nbr; k++)
      host[((size_t)slot * FLAG_KINDS + FLAG_DONE) * m->n_nbr + k] = 1u;
  cudaError_t err = cudaMemcpy(m->ipc_flags, host, n * sizeof(unsigned), cudaMemcpyHostToDevice);
  free(host);
  IPC_TRY(err, "cudaMemcpy of the IPC flags failed");
  return 1;
}

static int ipc_export(GpuMpi *m, const DevData *d, IpcHello *hello, char *why, size_t len) {
  memset(hello, 0, sizeof *hello);
  if (!ipc_where(&hello->where, why, len)) return 0;
  for (int slot = 0; slot < IPC_SLOTS; slot++) {
    double *into = side_array_of(m, d, slot);
    if (into) { /* the neighbours write into our side array (direct_slot) */
      hello->base[slot] = m->first_yours;
      IPC_TRY(cudaIpcGetMemHandle(&hello->buf[slot], into), "cudaIpcGetMemHandle failed");
      continue;
    }
    size_t n = (size_t)slot_doubles_per_side(d, slot) * recv_sides(m, SLOT_DIRECTION[slot]);
    if (mpi_dev_alloc(m, &m->ipc_recv[slot], n, "IPC receive buffers") != HX_OK) {
      snprintf(why, len, "out of device memory for the IPC receive buffers");
      return 0;
    }
    IPC_TRY(cudaIpcGetMemHandle(&hello->buf[slot], m->ipc_recv[slot]),
            "cudaIpcGetMemHandle failed");
  }
  IPC_TRY(cudaMalloc((void **)&m->ipc_flags, flag_count(m) * sizeof(unsigned)),
          "out of device memory for the IPC flags");
  m->bytes += flag_count(m) * sizeof(unsigned);
  if (!ipc_flags_init(m, why, len)) return 0;
  IPC_TRY(cudaIpcGetMemHandle(&hello->flags, m->ipc_flags), "cudaIpcGetMemHandle failed");
  hello->n_nbr = m->n_nbr;
  hello->ok = 1;
  return 1;
}

/* Checks that neighbour k (its hello h) can be reached and opens its buffers and flags. */
static int ipc_import(GpuMpi *m, int k, const IpcHello *h, const IpcHello *own, char *why,
                      size_t len) {
  int rank = m->mesh->nbr_rank[k];
  if (!h->ok) {
    snprintf(why, len, "the CUDA IPC set-up failed on rank %d", rank);
    return 0;
  }
  if (!ipc_reachable(&h->where, &own->where, rank, &m->shares_gpu, why, len)) return 0;
  IpcPeer *pr = &m->peer[k];
  pr->offset[0] = h->offset[0];
  pr->offset[1] = h->offset[1];
  memcpy(pr->base, h->base, sizeof pr->base);
  pr->n_nbr = h->n_nbr;
  pr->my_index = h->index;
  for (int slot = 0; slot < IPC_SLOTS; slot++)
    IPC_TRY(cudaIpcOpenMemHandle((void **)&pr->buf[slot], h->buf[slot],
                                 cudaIpcMemLazyEnablePeerAccess),
            "cudaIpcOpenMemHandle of rank %d's receive buffer failed", rank);
  IPC_TRY(cudaIpcOpenMemHandle((void **)&pr->flags, h->flags, cudaIpcMemLazyEnablePeerAccess),
          "cudaIpcOpenMemHandle of rank %d's flags failed", rank);
  return 1;
}

/* The flag lists of every slot: sending to neighbour k waits for our FLAG_DONE[k] and raises
 * k's FLAG_SENT at our position; receiving from k waits for our FLAG_SENT[k] and raises k's
 * FLAG_DONE at our position. */
static int ipc_flag_lists(GpuMpi *m, char *why, size_t len) {
  size_t n_ptr = (size_t)IPC_SLOTS * 2 * 2 * (m->n_nbr ? m->n_nbr : 1);
  unsigned **host = (unsigned **)calloc(n_ptr, sizeof(unsigned *));
  if (!host) {
    snprintf(why, len, "out of host memory");
    return 0;
  }
  cudaError_t err = cudaMalloc((void **)&m->ipc_ptrs, n_ptr * sizeof(unsigned *));
  if (err != cudaSuccess) free(host);
  IPC_TRY(err, "out of device memory for the IPC flag lists");
  m->bytes += n_ptr * sizeof(unsigned *);
  for (int slot = 0; slot < IPC_SLOTS; slot++)
    for (int role = 0; role < 2; role++) {
      size_t at = ((size_t)slot * 2 + role) * 2 * m->n_nbr;
      unsigned **wait = host + at, **raise = host + at + m->n_nbr;
      int wait_kind = role == ROLE_SEND ? FLAG_DONE : FLAG_SENT;
      int raise_kind = role == ROLE_SEND ? FLAG_SENT : FLAG_DONE, n = 0;
      for (int k = 0; k < m->n_nbr; k++) {
        int first, count;
        nbr_block(m, k, SLOT_DIRECTION[slot], role == ROLE_SEND, &first, &count);
        if (count == 0) continue;
        const IpcPeer *pr = &m->peer[k];
        wait[n] = m->ipc_flags + ((size_t)slot * FLAG_KINDS + wait_kind) * m->n_nbr + k;
        raise[n] = pr->flags + ((size_t)slot * FLAG_KINDS + raise_kind) * pr->n_nbr + pr->my_index;
        n++;
      }
      m->list[slot][role].n = n;
      m->list[slot][role].wait = m->ipc_ptrs + at;
      m->list[slot][role].raise = m->ipc_ptrs + at + m->n_nbr;
    }
  err = cudaMemcpy(m->ipc_ptrs, host, n_ptr * sizeof(unsigned *), cudaMemcpyHostToDevice);
  free(host);
  IPC_TRY(err, "cudaMemcpy of the IPC flag lists failed");
  const size_t n_count = (size_t)IPC_SLOTS * (m->n_nbr + 1);
  IPC_TRY(cudaMalloc((void **)&m->ipc_count, n_count * sizeof(unsigned)),
          "out of device memory for the IPC block counters");
  IPC_TRY(cudaMemset(m->ipc_count, 0, n_count * sizeof(unsigned)), "cudaMemset failed");
  m->bytes += n_count * sizeof(unsigned);
  return 1;
}

/* Closes the neighbours' buffers and flags and frees our own. Collective: every rank's device
 * is idle first, so no neighbour writes into what is freed. */
static void ipc_release(GpuMpi *m) {
  cudaDeviceSynchronize();
  par_barrier();
  for (int k = 0; m->peer && k < m->n_nbr; k++) {
    IpcPeer *pr = &m->peer[k];
    for (int slot = 0; slot < IPC_SLOTS; slot++)
      if (pr->buf[slot]) cudaIpcCloseMemHandle(pr->buf[slot]);
    if (pr->flags) cudaIpcCloseMemHandle(pr->flags);
  }
  free(m->peer);
  m->peer = NULL;
  for (int slot = 0; slot < IPC_SLOTS; slot++) {
    if (m->ipc_recv[slot]) cudaFree(m->ipc_recv[slot]);
    m->ipc_recv[slot] = NULL;
  }
  if (m->ipc_flags) cudaFree(m->ipc_flags);
  if (m->ipc_ptrs) cudaFree(m->ipc_ptrs);
  if (m->ipc_count) cudaFree(m->ipc_count);
  m->ipc_flags = NULL;
  m->ipc_ptrs = NULL;
  m->ipc_count = NULL;
  memset(m->list, 0, sizeof m->list);
  cudaGetLastError();
}

/* Collective: every rank exports its receive buffers and flags to its neighbours and opens
 * theirs. Returns whether it worked on this rank (the reason in why otherwise). Every rank with
 * MPI sides takes part in the hello exchange even when its own part failed. */
static int ipc_setup(GpuMpi *m, const DevData *d, char *why, size_t len) {
  /* the fused exchange kernels from 2e6 DOF per rank: 4 H200, TGV N = 7 (docs/performance.md):
   * 3-5 % faster at 4.2e6 and 8.4e6 DOF per GPU, 6-17 % slower at 8.8e5 (their blocks spin on
   * the flags, holding SMs the inner work could use); HEXDG_IPC_FUSED = T|F forces it */
  m->ipc_fused = getenv("HEXDG_IPC_FUSED") ? gpu_env_flag("HEXDG_IPC_FUSED", true)
                                            : (double)d->n_elems * d->n3 >= 2e6;
  /* blocks read where they arrive (direct_slot): 2 H200, TGV N = 7 at 8.8e5 DOF per GPU
   * 5.2-5.6e-10 -> 4.95-4.99e-10 (docs/performance.md); HEXDG_IPC_DIRECT = F copies them out.
   * Not with switching on Gauss nodes: gpu_mpi_fvg_stage's exchanges copy into d_recv_U etc. */
  m->ipc_direct = !m->ipc_fused && !d->fvg_sJ && gpu_env_flag("HEXDG_IPC_DIRECT", true);
  m->n_nbr = exchange_n_nbr(m->x);
  if (m->n_nbr == 0) return 1;
  IpcHello own, *out = (IpcHello *)calloc((size_t)m->n_nbr, sizeof(IpcHello));
  IpcHello *in = (IpcHello *)calloc((size_t)m->n_nbr, sizeof(IpcHello));
  m->peer = (IpcPeer *)calloc((size_t)m->n_nbr, sizeof(IpcPeer));
  if (!out || !in || !m->peer) {
    free(out);
    free(in);
    snprintf(why, len, "out of host memory");
    return 0;
  }
  int ok = ipc_export(m, d, &own, why, len);
  for (int k = 0; k < m->n_nbr; k++) {
    out[k] = own;
    out[k].ok = ok;
    out[k].index = k;
    int first, count;
    nbr_block(m, k, EXCH_TO_MASTER, 0, &first, &count);
    out[k].offset[EXCH_TO_MASTER] = first;
    nbr_block(m, k, EXCH_TO_SLAVE, 0, &first, &count);
    out[k].offset[EXCH_TO_SLAVE] = first;
  }
  exchange_swap_bytes(m->x, out, in, (int)sizeof(IpcHello));
  for (int k = 0; k < m->n_nbr && ok; k++) ok = ipc_import(m, k, &in[k], &own, why, len);
  if (ok) ok = ipc_flag_lists(m, why, len);
  free(out);
  free(in);
  return ok;
}

/* The transport every rank uses: ipc needs it to work on all ranks (an error otherwise); auto
 * falls back to host on all ranks when it fails on one. */
static int choose_transport(GpuMpi *m, const DevData *d, int requested) {
  char why[256] = "";
  m->transport = GPU_TRANSPORT_HOST;
  if (requested == GPU_TRANSPORT_HOST) return HX_OK;
  const size_t bytes_before = m->bytes; /* the IPC buffers leave the count if not used */
  int ok = ipc_setup(m, d, why, sizeof why);
  int failed_somewhere = par_any(!ok);
  /* ranks that share a GPU time-slice it: a device-side wait keeps its context busy until the
   * slice ends, while the host transport's waits leave the GPU to the other ranks (2 ranks on one
   * H100, Navier-Stokes MMS: 10x faster) */
  int shared = par_any(m->shares_gpu);
  if (!failed_somewhere && (!shared || requested == GPU_TRANSPORT_IPC)) {
    m->transport = GPU_TRANSPORT_IPC;
    return HX_OK;
  }
  ipc_release(m);
  m->bytes = bytes_before;
  if (!failed_somewhere) {
    if (par_is_root())
      printf("GPU MPI transport: host (ranks share a GPU; MPITransport = ipc forces CUDA IPC)\n");
    return HX_OK;
  }
  if (requested == GPU_TRANSPORT_IPC)
    return HX_ERROR(HX_ERR_INPUT,
                    "MPITransport = ipc: GPU to GPU copies over CUDA IPC are impossible: %s. "
                    "It needs all neighbouring ranks on one node with peer access between their "
                    "GPUs; use MPITransport = host (or auto)",
                    ok ? "they failed on another rank" : why);
  if (par_is_root())
    printf("GPU MPI transport: host (CUDA IPC not possible: %s)\n",
           ok ? "see the other ranks" : why);
  return HX_OK;
}

#undef IPC_TRY

static int ipc_pack_send_possible(const GpuMpi *m);

/* With IPC (collective: every rank has the same transport) the dt's maxima are reduced on the
 * device, so the whole step is one graph: 4 H200, TGV N = 7 (docs/performance.md).
 * HEXDG_DT_ON_DEVICE = F reduces on the host (MPI_Allreduce after a stream sync per step). */
static int create_dt_max(GpuMpi *m) {
  if (m->transport != GPU_TRANSPORT_IPC || !gpu_env_flag("HEXDG_DT_ON_DEVICE", true)) return HX_OK;
  char why[256] = "";
  HX_CHECK(rank_max_create(&m->dt_max, why, sizeof why));
  if (m->dt_max) {
    int least, greatest;
    CU_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    CU_CHECK(cudaStreamCreateWithPriority(&m->s_dt, cudaStreamNonBlocking, least));
    CU_CHECK(cudaEventCreateWithFlags(&m->ev_dt_fork, cudaEventDisableTiming));
    CU_CHECK(cudaEventCreateWithFlags(&m->ev_dt, cudaEventDisableTiming));
  }
  if (!m->dt_max && par_is_root())
    fprintf(stderr, "hexdg: the time step is reduced over the ranks on the host: the device "
                    "reduction is not possible (%s)\n", why);
  return HX_OK;
}

int gpu_mpi_create(const Solver *s, DevData *d, cudaStream_t s_elem, cudaStream_t s_side,
                   cudaStream_t s_mpi, int overlap, int transport, GpuMpi **out) {
  const Mesh *mesh = s->mesh;
  GpuMpi *m = (GpuMpi *)calloc(1, sizeof(GpuMpi));
  if (!m) return HX_ERROR(HX_ERR_MEM, "out of host memory (GPU MPI set-up)");
  m->x = s->exchange;
  m->mesh = mesh;
  m->first_mpi = mesh_first_mpi_side(mesh);
  m->first_yours = mesh_first_yours_side(mesh);
  m->n_sides = mesh->n_sides;
  m->n_mine = m->first_yours - m->first_mpi;
  m->n_yours = m->n_sides - m->first_yours;
  m->s_elem = s_elem;
  m->s_side = overlap ? s_side : s_elem;
  m->s_mpi = overlap ? s_mpi : s_elem;
  m->sides_dps = gpu_mpi_fv_doubles_per_side(d);
  int rc = create_buffers(m, d);
  cudaEvent_t *ev[6] = {&m->ev_stage,  &m->ev_inner, &m->ev_remote,
                        &m->ev_grad,   &m->ev_hop,   &m->ev_consumed};
  for (int k = 0; k < 6 && rc == HX_OK; k++)
    if (cudaEventCreateWithFlags(ev[k], cudaEventDisableTiming) != cudaSuccess)
      rc = HX_ERROR(HX_ERR_DEVICE, "cudaEventCreate failed (GPU MPI set-up)");
  /* collective: every rank takes part, whatever its own rc */
  if (par_any(rc != HX_OK) && rc == HX_OK)
    rc = HX_ERROR(HX_ERR_DEVICE, "GPU MPI set-up failed on another rank");
  if (rc == HX_OK) rc = choose_transport(m, d, transport);
  if (rc == HX_OK) m->pack_send = ipc_pack_send_possible(m);
  if (rc == HX_OK) rc = create_dt_max(m);
  if (rc == HX_OK && !d->mech)
    rc = stage_trace_create(TP_COUNT, TRACE_NAMES, "air stage on several ranks", &m->trace);
  if (rc == HX_OK && m->transport == GPU_TRANSPORT_HOST) rc = create_host_buffers(m, d);
  if (rc != HX_OK) {
    gpu_mpi_destroy(m);
    return rc;
  }
  d->first_mpi = m->first_mpi;
  d->mpi_U_recv = m->d_recv_U;
  d->mpi_grad_recv = m->d_recv_grad;
  if (m->transport != GPU_TRANSPORT_IPC) m->ipc_direct = 0;
  if (m->ipc_direct) { /* the face kernels read the received blocks where they arrive */
    d->mpi_U_recv = m->ipc_recv[EXCH_U];
    if (d->viscous) d->mpi_grad_recv = m->ipc_recv[EXCH_GRAD];
  }
  *out = m;
  return HX_OK;
}

void gpu_mpi_destroy(GpuMpi *m) {
  if (!m) return;
  stage_trace_finish(m->trace, par_rank());
  rank_max_destroy(m->dt_max);
  if (m->ev_dt_fork) cudaEventDestroy(m->ev_dt_fork);
  if (m->ev_dt) cudaEventDestroy(m->ev_dt);
  if (m->s_dt) cudaStreamDestroy(m->s_dt);
  if (m->transport == GPU_TRANSPORT_IPC) ipc_release(m);
  cudaEvent_t ev[6] = {m->ev_stage, m->ev_inner, m->ev_remote,
                       m->ev_grad,  m->ev_hop,   m->ev_consumed};
  for (int k = 0; k < 6; k++)
    if (ev[k]) cudaEventDestroy(ev[k]);
  double *dev[4] = {m->d_send_U, m->d_send_grad, m->d_recv_U, m->d_recv_grad};
  for (int k = 0; k < 4; k++)
    if (dev[k]) cudaFree(dev[k]);
  for (int k = 0; k < EXCH_NSLOTS; k++) {
    if (m->h_send[k]) cudaFreeHost(m->h_send[k]);
    if (m->h_recv[k]) cudaFreeHost(m->h_recv[k]);
  }
  if (m->h_alpha) cudaFreeHost(m->h_alpha);
  free(m);
}

int gpu_mpi_dt_on_device(const GpuMpi *m) {
  return m->dt_max != NULL;
}

int gpu_mpi_capturable(const GpuMpi *m, const DevData *d) {
  /* the host transport calls MPI inside a stage. The mixture's flow stages call no host either:
   * the graph holds the stages alone, and the chemistry stage, which reads counts on the host,
   * runs outside it (as on one rank) */
  (void)d;
  return m->transport == GPU_TRANSPORT_IPC;
}

const char *gpu_mpi_transport(const GpuMpi *m) {
  return m->transport == GPU_TRANSPORT_IPC ? "ipc" : "host";
}

size_t gpu_mpi_bytes(const GpuMpi *m) {
  return m ? m->bytes : 0;
}

/* Sent block: device -> pinned host on the MPI-side stream; wait for it; messages; received
 * block: pinned host -> device on the same stream. Kernels already queued on the other streams
 * run meanwhile. */
static int exchange_via_host(GpuMpi *m, int slot, const double *send, double *recv,
                             long doubles_per_side, int direction) {
  int to_master = direction == EXCH_TO_MASTER;
  size_t n_send = (size_t)doubles_per_side * (to_master ? m->n_yours : m->n_mine);
  size_t n_recv = (size_t)doubles_per_side * (to_master ? m->n_mine : m->n_yours);
  if (n_send)
    CU_CHECK(cudaMemcpyAsync(m->h_send[slot], send, sizeof(double) * n_send, cudaMemcpyDeviceToHost,
                             m->s_mpi));
  CU_CHECK(cudaStreamSynchronize(m->s_mpi));
  exchange_start_packed(m->x, slot, m->h_send[slot], m->h_recv[slot], doubles_per_side, direction);
  exchange_finish(m->x, slot);
  if (n_recv)
    CU_CHECK(cudaMemcpyAsync(recv, m->h_recv[slot], sizeof(double) * n_recv, cudaMemcpyHostToDevice,
                             m->s_mpi));
  return HX_OK;
}

/* An IPC exchange of a slot, on s_mpi. Sender, per receiving neighbour k: wait for our
 * FLAG_DONE[k] (k has copied our previous block of this slot out of its buffer) and lower it;
 * copy the block into k's receive buffer; raise k's FLAG_SENT at our position. Receiver: wait
 * for FLAG_SENT of every sending neighbour and lower it; copy the received block out of our
 * buffer into its place (local); raise the senders' FLAG_DONE. A flag is lowered only by the
 * rank that owns it and raised only by the other after that rank raised its counterpart, so
 * each is raised once per exchange; every rank queues its sends before its receives, in the
 * same order of exchanges, so no wait can close a cycle. The host takes no part: the stage's
 * launches can be captured in a CUDA graph. Waits spin on the device (one thread per flag,
 * with __nanosleep), the copies' stores are fenced at system scope before a flag is raised. */
__global__ void ipc_wait_kernel(unsigned *const *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  volatile unsigned *f = flags[i];
  while (*f == 0u) __nanosleep(128);
  *f = 0u;
  __threadfence_system();
}

__global__ void ipc_raise_kernel(unsigned *const *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __threadfence_system();
  *(volatile unsigned *)flags[i] = 1u;
}

/* dst[i] = src[i] for i = first, first + stride, ... < n (a thread's share of a strided copy) */
__device__ static void copy_strided(const double *__restrict__ src, double *dst, size_t n,
                                    size_t first, size_t stride) {
  for (size_t i = first; i < n; i += stride)
    dst[i] = src[i];
}

__global__ void ipc_copy_kernel(const double *__restrict__ src, double *dst, size_t n) {
  copy_strided(src, dst, n, (size_t)blockIdx.x * blockDim.x + threadIdx.x,
               (size_t)gridDim.x * blockDim.x);
  __threadfence_system();
}

/* The fused exchange (from 2e6 DOF per rank, ipc_setup): one kernel sends to every neighbour
 * of a slot, one receives, instead of the chain wait / copy per neighbour / raise on each side
 * (5-6 dependent graph nodes per exchange, a few microseconds each: the unhidden part of the
 * multi-GPU stage, docs/performance.md). The last block to finish a neighbour's block (a counter
 * after a system-scope fence, the "last block" pattern of the CUDA threadFenceReduction sample)
 * lowers the flag it waited for and raises the other rank's; the flags keep their meaning. */
enum { IPC_FUSED_MAX_NBR = 32, IPC_FUSED_BLOCKS = 16 };

typedef struct {
  int n;                             /* neighbours with data in this direction */
  int first_block[IPC_FUSED_MAX_NBR + 1];
  const double *src[IPC_FUSED_MAX_NBR];
  double *dst[IPC_FUSED_MAX_NBR];
  size_t count[IPC_FUSED_MAX_NBR];
} IpcSendPlan;

__global__ void ipc_send_kernel(IpcSendPlan plan, unsigned *const *wait, unsigned *const *raise,
                                unsigned *count) {
  int j = 0;
  while (j + 1 < plan.n && (int)blockIdx.x >= plan.first_block[j + 1]) j++;
  const unsigned blocks = (unsigned)(plan.first_block[j + 1] - plan.first_block[j]);
  block_wait_flag(wait[j]); /* the neighbour's buffer is free */
  copy_strided(plan.src[j], plan.dst[j], plan.count[j],
               (size_t)(blockIdx.x - plan.first_block[j]) * blockDim.x + threadIdx.x,
               (size_t)blocks * blockDim.x);
  if (block_is_last(count + j, blocks) && threadIdx.x == 0) {
    *(volatile unsigned *)wait[j] = 0u;
    __threadfence_system();
    *(volatile unsigned *)raise[j] = 1u; /* the data are in the neighbour's buffer */
  }
}

__global__ void ipc_recv_kernel(const double *__restrict__ src, double *dst, size_t n,
                                unsigned *const *wait, unsigned *const *raise, int n_flags,
                                unsigned *count) {
  for (int k = 0; k < n_flags; k++)
    block_wait_flag(wait[k]); /* every sender's block has arrived */
  copy_strided(src, dst, n, (size_t)blockIdx.x * blockDim.x + threadIdx.x,
               (size_t)gridDim.x * blockDim.x);
  if (block_is_last(count, gridDim.x) && threadIdx.x == 0) {
    for (int k = 0; k < n_flags; k++)
      *(volatile unsigned *)wait[k] = 0u;
    __threadfence_system();
    for (int k = 0; k < n_flags; k++)
      *(volatile unsigned *)raise[k] = 1u; /* the senders may write their next block */
  }
}

/* Blocks for n doubles: up to IPC_FUSED_BLOCKS of 256 threads (the blocks of a send kernel wait
 * on a flag first; few of them keep the SMs free for the stage's other streams). */
static int fused_blocks(size_t n) {
  size_t b = (n + 1023) / 1024;
  const size_t most = IPC_FUSED_BLOCKS;
  return (int)(b < 1 ? 1 : b > most ? most : b);
}

/* The sending part as one kernel (wait, copy to every neighbour, raise). */
static int ipc_send_fused(GpuMpi *m, int slot, const double *send, size_t dps, int direction) {
  const IpcFlagList *out = &m->list[slot][ROLE_SEND];
  if (!out->n) return HX_OK;
  IpcSendPlan plan;
  plan.n = 0;
  plan.first_block[0] = 0;
  for (int k = 0; k < m->n_nbr; k++) {
    int first, cnt;
    nbr_block(m, k, direction, 1, &first, &cnt);
    if (cnt == 0) continue;
    const int j = plan.n++;
    plan.src[j] = send + dps * first;
    plan.dst[j] = peer_block(&m->peer[k], slot, dps, direction);
    plan.count[j] = dps * cnt;
    plan.first_block[j + 1] = plan.first_block[j] + fused_blocks(plan.count[j]);
  }
  ipc_send_kernel<<<plan.first_block[plan.n], 256, 0, m->s_mpi>>>(
      plan, out->wait, out->raise, m->ipc_count + (size_t)slot * (m->n_nbr + 1));
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

static int exchange_via_ipc_fused(GpuMpi *m, int slot, const double *send, double *recv,
                                  size_t dps, int direction) {
  const IpcFlagList *in = &m->list[slot][ROLE_RECV];
  unsigned *count = m->ipc_count + (size_t)slot * (m->n_nbr + 1);
  HX_CHECK(ipc_send_fused(m, slot, send, dps, direction));
  if (in->n) {
    const size_t n = dps * recv_sides(m, direction);
    ipc_recv_kernel<<<fused_blocks(n), 256, 0, m->s_mpi>>>(m->ipc_recv[slot], recv, n, in->wait,
                                                           in->raise, in->n, count + m->n_nbr);
    CU_CHECK(cudaGetLastError());
  }
  return HX_OK;
}

static int ipc_flags_launch(void (*kernel)(unsigned *const *, int), unsigned *const *flags, int n,
                            cudaStream_t s) {
  kernel<<<(n + 63) / 64, 64, 0, s>>>(flags, n);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

/* The sending part of an IPC exchange (not fused): wait, copy per neighbour, raise. */
static int ipc_send(GpuMpi *m, int slot, const double *send, size_t dps, int direction) {
  const IpcFlagList *out = &m->list[slot][ROLE_SEND];
  if (out->n) {
    HX_CHECK(ipc_flags_launch(ipc_wait_kernel, out->wait, out->n, m->s_mpi));
    for (int k = 0; k < m->n_nbr; k++) {
      int first, count;
      nbr_block(m, k, direction, 1, &first, &count);
      if (count == 0) continue;
      size_t n = dps * count;
      int blocks = (int)((n + 255) / 256 < 1024 ? (n + 255) / 256 : 1024);
      ipc_copy_kernel<<<blocks, 256, 0, m->s_mpi>>>(
          send + dps * first, peer_block(&m->peer[k], slot, dps, direction), n);
      CU_CHECK(cudaGetLastError());
    }
    HX_CHECK(ipc_flags_launch(ipc_raise_kernel, out->raise, out->n, m->s_mpi));
  }
  return HX_OK;
}

/* The receiving part: wait; unless the slot is read in place, copy out and raise. */
static int ipc_recv(GpuMpi *m, int slot, double *recv, size_t dps, int direction) {
  const IpcFlagList *in = &m->list[slot][ROLE_RECV];
  if (!in->n) return HX_OK;
  HX_CHECK(ipc_flags_launch(ipc_wait_kernel, in->wait, in->n, m->s_mpi));
  if (direct_slot(m, slot)) return HX_OK;
  const size_t bytes = sizeof(double) * dps * recv_sides(m, direction);
  CU_CHECK(cudaMemcpyAsync(recv, m->ipc_recv[slot], bytes, cudaMemcpyDeviceToDevice, m->s_mpi));
  return ipc_flags_launch(ipc_raise_kernel, in->raise, in->n, m->s_mpi);
}

/* A slot read in place: its consumers (on s_mpi, queued before) are done with the buffer. */
static int release_direct(GpuMpi *m, int slot, cudaStream_t s) {
  const IpcFlagList *in = &m->list[slot][ROLE_RECV];
  if (m->transport != GPU_TRANSPORT_IPC || !direct_slot(m, slot) || !in->n) return HX_OK;
  return ipc_flags_launch(ipc_raise_kernel, in->raise, in->n, s);
}

static int exchange_via_ipc(GpuMpi *m, int slot, const double *send, double *recv,
                            long doubles_per_side, int direction) {
  size_t dps = (size_t)doubles_per_side;
  if (m->ipc_fused && m->list[slot][ROLE_SEND].n <= IPC_FUSED_MAX_NBR)
    return exchange_via_ipc_fused(m, slot, send, recv, dps, direction);
  HX_CHECK(ipc_send(m, slot, send, dps, direction));
  return ipc_recv(m, slot, recv, dps, direction);
}

/* One exchange of a slot with the run's transport; the received data are on the device, in
 * stream order on s_mpi, when it returns. */
static int exchange_slot(GpuMpi *m, int slot, const double *send, double *recv,
                         long doubles_per_side, int direction) {
  if (m->transport == GPU_TRANSPORT_IPC)
    return exchange_via_ipc(m, slot, send, recv, doubles_per_side, direction);
  return exchange_via_host(m, slot, send, recv, doubles_per_side, direction);
}

/* The side streams start from the element stream's state (U of the stage). */
static int begin_stage(GpuMpi *m) {
  CU_CHECK(cudaEventRecord(m->ev_stage, m->s_elem));
  CU_CHECK(cudaStreamWaitEvent(m->s_side, m->ev_stage, 0));
  CU_CHECK(cudaStreamWaitEvent(m->s_mpi, m->ev_stage, 0));
  /* the lifted face values and fluxes of the stage before were read (lifting, surface update,
     on s_elem before ev_stage): their senders may write the next ones (off the MPI stream) */
  HX_CHECK(release_direct(m, EXCH_LIFT, m->s_side));
  return release_direct(m, EXCH_FLUX, m->s_side);
}

/* The element stream waits for the inner sides (ev_inner) and the MPI sides (ev_remote). */
static int join_sides(GpuMpi *m) {
  CU_CHECK(cudaEventRecord(m->ev_remote, m->s_mpi));
  CU_CHECK(cudaStreamWaitEvent(m->s_elem, m->ev_inner, 0));
  CU_CHECK(cudaStreamWaitEvent(m->s_elem, m->ev_remote, 0));
  return HX_OK;
}

/* The exchange of the fluxes of "mine" sides. The slots read in place (U, gradients) are
 * released beside it on the side stream: their consumers, the face kernels of the "mine" sides,
 * ran before on s_mpi (ev_consumed); the raises stay off the MPI stream's chain, which at small
 * loads is the stage's critical path. */
static int exchange_fluxes(GpuMpi *m, const DevData *d) {
  long nv = (long)d->nvar * d->n2;
  double *mine = d->flux + nv * m->first_mpi, *yours = d->flux + nv * m->first_yours;
  if (m->transport != GPU_TRANSPORT_IPC || !m->ipc_direct)
    return exchange_slot(m, EXCH_FLUX, mine, yours, nv, EXCH_TO_SLAVE);
  CU_CHECK(cudaEventRecord(m->ev_consumed, m->s_mpi));
  CU_CHECK(cudaStreamWaitEvent(m->s_side, m->ev_consumed, 0));
  HX_CHECK(release_direct(m, EXCH_U, m->s_side));
  HX_CHECK(release_direct(m, EXCH_GRAD, m->s_side));
  CU_CHECK(cudaEventRecord(m->ev_inner, m->s_side)); /* join_sides waits for the raises too */
  HX_CHECK(ipc_send(m, EXCH_FLUX, mine, (size_t)nv, EXCH_TO_SLAVE));
  return ipc_recv(m, EXCH_FLUX, yours, (size_t)nv, EXCH_TO_SLAVE);
}

/* pack_send: the plan of a slot's sends to the masters (the "yours" sides of each neighbour are
 * one block, in neighbour order: ipc_pack_send_possible checks it). */
static void pack_plan(GpuMpi *m, const DevData *d, int nv, int slot, IpcPackPlan *plan) {
  const IpcFlagList *out = &m->list[slot][ROLE_SEND];
  const size_t dps = (size_t)nv * d->n2;
  plan->n = 0;
  for (int k = 0; k < m->n_nbr; k++) {
    int first, count;
    nbr_block(m, k, EXCH_TO_MASTER, 1, &first, &count);
    if (count == 0) continue;
    plan->side_first[plan->n] = m->first_yours + first;
    plan->dst[plan->n] = peer_block(&m->peer[k], slot, dps, EXCH_TO_MASTER);
    plan->n++;
  }
  plan->wait = out->wait;
  plan->raise = out->raise;
  plan->n_flags = out->n;
  plan->count = m->ipc_count + (size_t)slot * (m->n_nbr + 1);
}

/* Whether the sends to the masters can be packed straight into their buffers: IPC, at most
 * IPC_PACK_MAX_NBR neighbours, their "yours" blocks ascending (HEXDG_IPC_PACK_SEND = F: the pack
 * kernel, then the send's wait / copy / raise chain, as before). */
static int ipc_pack_send_possible(const GpuMpi *m) {
  if (m->transport != GPU_TRANSPORT_IPC || !gpu_env_flag("HEXDG_IPC_PACK_SEND", true) ||
      m->n_nbr > IPC_PACK_MAX_NBR)
    return 0;
  int last = -1;
  for (int k = 0; k < m->n_nbr; k++) {
    int first, count;
    nbr_block(m, k, EXCH_TO_MASTER, 1, &first, &count);
    if (count == 0) continue;
    if (first <= last) return 0;
    last = first;
  }
  return 1;
}

/* The slave values of the "yours" sides, U (EXCH_U) or the gradients (EXCH_GRAD), for their
 * masters' ranks: into the send buffer, or (pack_send) straight into the masters' receive
 * buffers, one kernel for the pack and the send's wait, copy and raise. */
static int pack_to_masters(GpuMpi *m, const DevData *d, int slot) {
  const bool u = slot == EXCH_U;
  const double *vol = u ? d->U : (d->grad_face ? NULL : d->grad); /* NULL: from grad_face */
  const int nv = u ? d->nvar : HX_NGRAD;
  if (m->pack_send) {
    IpcPackPlan plan;
    pack_plan(m, d, nv, slot, &plan);
    return launch_pack_send(d, vol, nv, m->first_yours, m->n_sides, &plan, m->s_mpi);
  }
  return launch_pack_slave(d, vol, nv, m->first_yours, m->n_sides,
                           u ? m->d_send_U : m->d_send_grad, m->s_mpi);
}

/* The rest of that exchange: the receiving part where pack_to_masters has sent already. */
static int exchange_to_masters(GpuMpi *m, const DevData *d, int slot) {
  const bool u = slot == EXCH_U;
  const long dps = (long)(u ? d->nvar : HX_NGRAD) * d->n2;
  double *recv = u ? m->d_recv_U : m->d_recv_grad;
  if (m->pack_send) return ipc_recv(m, slot, recv, (size_t)dps, EXCH_TO_MASTER);
  return exchange_slot(m, slot, u ? m->d_send_U : m->d_send_grad, recv, dps, EXCH_TO_MASTER);
}

/* BR1 face values: "mine" sides after the slave states arrive, inner sides meanwhile; the
 * "yours" sides' values come from their master's rank; then the lifting kernel. alone: the
 * lifting of an analysis (the U exchange released at once, the volume gradients written also
 * where the stage's face kernels read grad_face). */
static int lifting_faces_and_volume(GpuMpi *m, const DevData *d, const DevPhysics *ph, double c,
                                    bool alone, StageTrace *tr) {
  const long ng = (long)HX_NGRAD * d->n2;
  HX_CHECK(pack_to_masters(m, d, EXCH_U));
  HX_CHECK(stage_trace_mark(tr, TP_U_PACKED, m->s_mpi));
  HX_CHECK(launch_face_lifting(d, ph, c, 0, m->first_mpi, m->s_side));
  HX_CHECK(stage_trace_mark(tr, TP_INNER_LIFT, m->s_side));
  CU_CHECK(cudaEventRecord(m->ev_inner, m->s_side));
  HX_CHECK(exchange_to_masters(m, d, EXCH_U));
  HX_CHECK(stage_trace_mark(tr, TP_U_RECV, m->s_mpi));
  HX_CHECK(launch_face_lifting(d, ph, c, m->first_mpi, m->first_yours, m->s_mpi));
  HX_CHECK(stage_trace_mark(tr, TP_MPI_LIFT, m->s_mpi));
  if (alone) HX_CHECK(release_direct(m, EXCH_U, m->s_mpi));
  HX_CHECK(exchange_slot(m, EXCH_LIFT, d->lift_flux + ng * m->first_mpi,
                             d->lift_flux + ng * m->first_yours, ng, EXCH_TO_SLAVE));
  HX_CHECK(stage_trace_mark(tr, TP_LIFT_RECV, m->s_mpi));
  HX_CHECK(join_sides(m));
  HX_CHECK(launch_lifting(d, ph, alone, m->s_elem));
  return stage_trace_mark(tr, TP_LIFTING, m->s_elem);
}

int gpu_mpi_lifting(GpuMpi *m, const DevData *d, const DevPhysics *ph, double c) {
  HX_CHECK(begin_stage(m));
  return lifting_faces_and_volume(m, d, ph, c, true, NULL);
}

int gpu_mpi_stage(GpuMpi *m, const DevData *d, const DevPhysics *ph, double a, double b, double c,
                  bool first_stage) {
  StageTrace *tr = m->trace; /* NULL unless HEXDG_STAGE_TRACE (air only) */
  HX_CHECK(stage_trace_begin(tr, m->s_elem));
  HX_CHECK(begin_stage(m));
  if (d->viscous) {
    HX_CHECK(lifting_faces_and_volume(m, d, ph, c, false, tr));
    CU_CHECK(cudaEventRecord(m->ev_grad, m->s_elem));
    CU_CHECK(cudaStreamWaitEvent(m->s_mpi, m->ev_grad, 0));
    CU_CHECK(cudaStreamWaitEvent(m->s_side, m->ev_grad, 0));
    HX_CHECK(pack_to_masters(m, d, EXCH_GRAD));
    HX_CHECK(stage_trace_mark(tr, TP_GRAD_PACKED, m->s_mpi));
  } else {
    HX_CHECK(pack_to_masters(m, d, EXCH_U));
    HX_CHECK(stage_trace_mark(tr, TP_U_PACKED, m->s_mpi));
  }
  if (d->mech) { /* reacting flow: the mixture's launches (mix_kernels.cu) */
    /* as on one rank, the fused VolInt + SurfInt + update kernel after the faces where it exists
       (it saves Ut's round trip and the separate P pass; VolInt then no longer hides the
       exchange); otherwise VolInt beside the exchange */
    const bool fused = mix_stage_fused(d) && gpu_env_flag("HEXDG_MPI_MIX_FUSED", true);
    HX_CHECK(launch_mix_face_flux(d, ph, c, 0, m->first_mpi, m->s_side));
    CU_CHECK(cudaEventRecord(m->ev_inner, m->s_side));
    if (d->alpha) HX_CHECK(launch_mix_fv_volume(d, ph, m->s_elem));
    if (!fused) HX_CHECK(launch_mix_volume_integral(d, ph, m->s_elem));
    HX_CHECK(exchange_to_masters(m, d, EXCH_U));
    HX_CHECK(launch_mix_face_flux(d, ph, c, m->first_mpi, m->first_yours, m->s_mpi));
    HX_CHECK(exchange_fluxes(m, d));
    HX_CHECK(join_sides(m));
    if (fused)
      return launch_mix_stage_update(d, ph, a, b, c, first_stage, m->ev_remote, m->s_elem);
    return launch_surface_update(d, ph, a, b, c, first_stage, m->s_elem);
  }
  HX_CHECK(launch_face_flux(d, ph, c, 0, m->first_mpi, m->s_side));
  HX_CHECK(stage_trace_mark(tr, TP_INNER_FLUX, m->s_side));
  CU_CHECK(cudaEventRecord(m->ev_inner, m->s_side));
  HX_CHECK(launch_volume_integral(d, ph, m->s_elem));
  HX_CHECK(stage_trace_mark(tr, TP_VOLINT, m->s_elem));
  HX_CHECK(exchange_to_masters(m, d, d->viscous ? EXCH_GRAD : EXCH_U));
  HX_CHECK(stage_trace_mark(tr, TP_GRAD_RECV, m->s_mpi));
  HX_CHECK(launch_face_flux(d, ph, c, m->first_mpi, m->first_yours, m->s_mpi));
  HX_CHECK(stage_trace_mark(tr, TP_MPI_FLUX, m->s_mpi));
  HX_CHECK(exchange_fluxes(m, d));
  HX_CHECK(stage_trace_mark(tr, TP_FLUX_EXCH, m->s_mpi));
  HX_CHECK(join_sides(m));
  if (m->dt_pending) { /* the step's dt, reduced beside this stage (gpu_mpi_timestep_beside) */
    CU_CHECK(cudaStreamWaitEvent(m->s_elem, m->ev_dt, 0));
    m->dt_pending = 0;
  }
  HX_CHECK(launch_surface_update(d, ph, a, b, c, first_stage, m->s_elem));
  return stage_trace_mark(tr, TP_END, m->s_elem);
}

/* IPC: the remote halves of alpha_side GPU to GPU (one double per side; the blocks of the MPI
 * sides are contiguous in both halves), on s_mpi between two events, no host call. */
static int fv_alpha_via_ipc(GpuMpi *m, const DevData *d) {
  const size_t ns = d->n_sides;
  double *master = d->alpha_side, *slave = d->alpha_side + ns;
  for (int pass = 0; pass < d->fv_n_extend; pass++) {
    HX_CHECK(launch_fv_alpha_to_sides(d, m->s_elem));
    CU_CHECK(cudaEventRecord(m->ev_stage, m->s_elem));
    CU_CHECK(cudaStreamWaitEvent(m->s_mpi, m->ev_stage, 0));
    HX_CHECK(exchange_slot(m, IPC_ALPHA_TO_MASTER, slave + m->first_yours, slave + m->first_mpi, 1,
                           EXCH_TO_MASTER));
    HX_CHECK(exchange_slot(m, IPC_ALPHA_TO_SLAVE, master + m->first_mpi, master + m->first_yours,
                           1, EXCH_TO_SLAVE));
    CU_CHECK(cudaEventRecord(m->ev_remote, m->s_mpi));
    CU_CHECK(cudaStreamWaitEvent(m->s_elem, m->ev_remote, 0));
    HX_CHECK(launch_fv_alpha_extend(d, m->s_elem));
  }
  return HX_OK;
}

/* The spreading needs the neighbours' alpha across rank boundaries. IPC transport: on the
 * devices (fv_alpha_via_ipc). Host transport: per pass the side arrays go to the host, the CPU
 * exchange (slot EXCH_ALPHA, as src/dg/indicator.c) fills in the remote halves, and they come
 * back. A few doubles per MPI side, on the element stream. */
int gpu_mpi_fv_alpha(GpuMpi *m, const DevData *d) {
  if (!d->fv_extend) return HX_OK;
  if (m->transport == GPU_TRANSPORT_IPC) return fv_alpha_via_ipc(m, d);
  size_t ns = d->n_sides, bytes = sizeof(double) * 2 * (ns ? ns : 1);
  if (!m->h_alpha) CU_CHECK(cudaMallocHost((void **)&m->h_alpha, bytes));
  for (int pass = 0; pass < d->fv_n_extend; pass++) {
    HX_CHECK(launch_fv_alpha_to_sides(d, m->s_elem));
    CU_CHECK(cudaMemcpyAsync(m->h_alpha, d->alpha_side, bytes, cudaMemcpyDeviceToHost, m->s_elem));
    CU_CHECK(cudaStreamSynchronize(m->s_elem));
    exchange_start(m->x, EXCH_ALPHA, m->h_alpha + ns, 1, EXCH_TO_MASTER);
    exchange_finish(m->x, EXCH_ALPHA);
    exchange_start(m->x, EXCH_ALPHA, m->h_alpha, 1, EXCH_TO_SLAVE);
    exchange_finish(m->x, EXCH_ALPHA);
    CU_CHECK(cudaMemcpyAsync(d->alpha_side, m->h_alpha, bytes, cudaMemcpyHostToDevice, m->s_elem));
    HX_CHECK(launch_fv_alpha_extend(d, m->s_elem));
  }
  return HX_OK;
}

/* The step's eigenvalue maxima, reduced over the ranks on the device (no host call, capturable),
 * and dt, on stream s. */
static int timestep_on_device(GpuMpi *m, const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  HX_CHECK(d->mech ? launch_mix_lambda_max(d, s) : launch_lambda_max(d, ph, s));
  RankMaxArgs a = {{&d->sc->lmax_bits, &d->sc->lvmax_bits}, 2, &d->sc->bad};
  HX_CHECK(launch_rank_max(m->dt_max, &a, s));
  return launch_dt_finalize(d, s);
}

/* The eigenvalue maxima are non-negative doubles: their max over the ranks is exact (on the device
 * or through MPI_Allreduce), so every rank gets the dt of one rank holding the whole mesh. */
int gpu_mpi_timestep(GpuMpi *m, const DevData *d, const DevPhysics *ph, StepScalars *sc_host) {
  if (m->dt_max) return timestep_on_device(m, d, ph, m->s_elem);
  HX_CHECK(d->mech ? launch_mix_lambda_max(d, m->s_elem) : launch_lambda_max(d, ph, m->s_elem));
  CU_CHECK(cudaMemcpyAsync(sc_host, d->sc, sizeof(StepScalars), cudaMemcpyDeviceToHost, m->s_elem));
  CU_CHECK(cudaStreamSynchronize(m->s_elem));
  double v[3] = {bits_to_double(sc_host->lmax_bits), bits_to_double(sc_host->lvmax_bits),
                 (double)sc_host->bad};
  par_max(v, 3);
  sc_host->lmax_bits = double_to_bits(v[0]);
  sc_host->lvmax_bits = double_to_bits(v[1]);
  sc_host->bad = v[2] > 0.0;
  CU_CHECK(cudaMemcpyAsync(d->sc, sc_host, sizeof(StepScalars), cudaMemcpyHostToDevice, m->s_elem));
  return launch_dt_finalize(d, m->s_elem);
}

int gpu_mpi_dt_beside_possible(const GpuMpi *m, const DevData *d) {
  return m->dt_max && !d->mech && !d->alpha && !d->fv_elems && !d->fvg_sJ && !d->ind_ghost &&
         !d->sgs_mu_max && gpu_env_flag("HEXDG_DT_BESIDE", true);
}

/* The dt of the step on its own low-priority stream beside the first stage, whose update alone
 * needs it: the eigenvalue maxima read U, which only that update changes; the first stage's
 * kernels before it read dt only to skip a failed step (c = 0, so the boundary time is t), and
 * a failed step is skipped by the update all the same. The device reduction waits for the
 * slowest rank; beside the stage that wait hides behind the first stage's work. */
int gpu_mpi_timestep_beside(GpuMpi *m, const DevData *d, const DevPhysics *ph) {
  CU_CHECK(cudaEventRecord(m->ev_dt_fork, m->s_elem));
  CU_CHECK(cudaStreamWaitEvent(m->s_dt, m->ev_dt_fork, 0));
  HX_CHECK(timestep_on_device(m, d, ph, m->s_dt));
  CU_CHECK(cudaEventRecord(m->ev_dt, m->s_dt));
  m->dt_pending = 1;
  return HX_OK;
}

/* ---- per-side arrays of shock capturing (gpu_mpi_fv.cu) ---------------------------------- */

GpuMpiParts gpu_mpi_parts(const GpuMpi *m) {
  GpuMpiParts p = {m->first_mpi, m->first_yours, m->n_sides, m->s_elem,      m->s_side,
                   m->s_mpi,     m->d_send_U,    m->d_recv_U, m->d_send_grad, m->d_recv_grad};
  return p;
}

int gpu_mpi_hop(GpuMpi *m, cudaStream_t from, cudaStream_t to) {
  if (from == to) return HX_OK;
  CU_CHECK(cudaEventRecord(m->ev_hop, from));
  CU_CHECK(cudaStreamWaitEvent(to, m->ev_hop, 0));
  return HX_OK;
}

/* On s_mpi between two hops from and back to s. IPC: the slot of the direction, whose receive
 * buffer holds sides_dps doubles per side; host: the staging pair and the CPU exchange's slot of
 * the blending factors (EXCH_ALPHA: sized for the largest of the stage's exchanges, used by no
 * other exchange in flight; exchange_via_host finishes before it returns). */
int gpu_mpi_exchange(GpuMpi *m, const double *send, double *recv, long doubles_per_side,
                     int direction, cudaStream_t s) {
  if (doubles_per_side > m->sides_dps)
    return HX_ERROR(HX_ERR_INTERNAL,
                    "gpu_mpi_exchange: %ld doubles per side, its buffers hold %ld (extend "
                    "gpu_mpi_fv_doubles_per_side)",
                    doubles_per_side, m->sides_dps);
  HX_CHECK(gpu_mpi_hop(m, s, m->s_mpi));
  if (m->transport == GPU_TRANSPORT_IPC)
    HX_CHECK(exchange_via_ipc(m,
                              direction == EXCH_TO_MASTER ? IPC_SIDES_TO_MASTER : IPC_SIDES_TO_SLAVE,
                              send, recv, doubles_per_side, direction));
  else
    HX_CHECK(exchange_via_host(m, EXCH_ALPHA, send, recv, doubles_per_side, direction));
  return gpu_mpi_hop(m, m->s_mpi, s);
}

int gpu_mpi_exchange_sides(GpuMpi *m, double *face, long doubles_per_side, int direction,
                           cudaStream_t s) {
  const size_t mine = (size_t)doubles_per_side * m->first_mpi;
  const size_t yours = (size_t)doubles_per_side * m->first_yours;
  if (direction == EXCH_TO_MASTER)
    return gpu_mpi_exchange(m, face + yours, face + mine, doubles_per_side, direction, s);
  return gpu_mpi_exchange(m, face + mine, face + yours, doubles_per_side, direction, s);
}
