/* CUDA backend on several MPI ranks, one GPU per rank. Per RK stage (GALAEXI, Kurz et al. 2025,
 * Fig. 4): the MPI sides are computed first on the high-priority stream; their data go to pinned
 * host memory, the host starts the messages and waits for them while the inner sides (mid
 * priority) and the volume work (low priority) run on the GPU; the received data are uploaded and
 * the kernels that need them follow on the MPI-side stream; the surface update waits for both.
 *
 *   exchange    sent (device)                  received (device)
 *   EXCH_U      slave states of "yours" sides  mpi_U_recv ("mine" sides, slave side)
 *   EXCH_LIFT   lift_flux of "mine" sides      lift_flux of "yours" sides
 *   EXCH_GRAD   slave gradients of "yours"     mpi_grad_recv ("mine" sides)
 *   EXCH_FLUX   flux of "mine" sides           flux of "yours" sides
 *
 * Euler runs exchange U and FLUX only. The host calls MPI only from this thread (MPI_THREAD_
 * FUNNELED), between stream synchronizations, so a stage cannot be captured in a CUDA graph.
 * The messages go through host memory (no CUDA-aware MPI needed). */
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_internal.cuh"

extern "C" {
#include "parallel/exchange.h"
#include "parallel/parallel.h"
}

struct GpuMpi {
  SideExchange *x; /* the solver's exchange (NULL: this rank has no MPI sides) */
  int first_mpi, first_yours, n_sides, n_mine, n_yours;
  cudaStream_t s_elem, s_side, s_mpi; /* without overlap all three are s_elem */
  cudaEvent_t ev_stage, ev_inner, ev_remote, ev_grad;
  double *d_send_U, *d_send_grad, *d_recv_U, *d_recv_grad;
  double *h_send[EXCH_NSLOTS], *h_recv[EXCH_NSLOTS]; /* pinned staging, one pair per slot */
  size_t bytes;
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
  size_t most = (d->viscous ? ng : nv) * (m->n_mine > m->n_yours ? m->n_mine : m->n_yours);
  for (int k = 0; k < EXCH_NSLOTS; k++) {
    HX_CHECK(mpi_host_alloc(&m->h_send[k], most));
    HX_CHECK(mpi_host_alloc(&m->h_recv[k], most));
  }
  return HX_OK;
}

int gpu_mpi_create(const Solver *s, DevData *d, cudaStream_t s_elem, cudaStream_t s_side,
                   cudaStream_t s_mpi, int overlap, GpuMpi **out) {
  const Mesh *mesh = s->mesh;
  GpuMpi *m = (GpuMpi *)calloc(1, sizeof(GpuMpi));
  if (!m) return HX_ERROR(HX_ERR_MEM, "out of host memory (GPU MPI set-up)");
  m->x = s->exchange;
  m->first_mpi = mesh_first_mpi_side(mesh);
  m->first_yours = mesh_first_yours_side(mesh);
  m->n_sides = mesh->n_sides;
  m->n_mine = m->first_yours - m->first_mpi;
  m->n_yours = m->n_sides - m->first_yours;
  m->s_elem = s_elem;
  m->s_side = overlap ? s_side : s_elem;
  m->s_mpi = overlap ? s_mpi : s_elem;
  int rc = create_buffers(m, d);
  cudaEvent_t *ev[4] = {&m->ev_stage, &m->ev_inner, &m->ev_remote, &m->ev_grad};
  for (int k = 0; k < 4 && rc == HX_OK; k++)
    if (cudaEventCreateWithFlags(ev[k], cudaEventDisableTiming) != cudaSuccess)
      rc = HX_ERROR(HX_ERR_DEVICE, "cudaEventCreate failed (GPU MPI set-up)");
  if (rc != HX_OK) {
    gpu_mpi_destroy(m);
    return rc;
  }
  d->first_mpi = m->first_mpi;
  d->mpi_U_recv = m->d_recv_U;
  d->mpi_grad_recv = m->d_recv_grad;
  *out = m;
  return HX_OK;
}

void gpu_mpi_destroy(GpuMpi *m) {
  if (!m) return;
  cudaEvent_t ev[4] = {m->ev_stage, m->ev_inner, m->ev_remote, m->ev_grad};
  for (int k = 0; k < 4; k++)
    if (ev[k]) cudaEventDestroy(ev[k]);
  double *dev[4] = {m->d_send_U, m->d_send_grad, m->d_recv_U, m->d_recv_grad};
  for (int k = 0; k < 4; k++)
    if (dev[k]) cudaFree(dev[k]);
  for (int k = 0; k < EXCH_NSLOTS; k++) {
    if (m->h_send[k]) cudaFreeHost(m->h_send[k]);
    if (m->h_recv[k]) cudaFreeHost(m->h_recv[k]);
  }
  free(m);
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

/* The side streams start from the element stream's state (U of the stage). */
static int begin_stage(GpuMpi *m) {
  CU_CHECK(cudaEventRecord(m->ev_stage, m->s_elem));
  CU_CHECK(cudaStreamWaitEvent(m->s_side, m->ev_stage, 0));
  CU_CHECK(cudaStreamWaitEvent(m->s_mpi, m->ev_stage, 0));
  return HX_OK;
}

/* The element stream waits for the inner sides (ev_inner) and the MPI sides (ev_remote). */
static int join_sides(GpuMpi *m) {
  CU_CHECK(cudaEventRecord(m->ev_remote, m->s_mpi));
  CU_CHECK(cudaStreamWaitEvent(m->s_elem, m->ev_inner, 0));
  CU_CHECK(cudaStreamWaitEvent(m->s_elem, m->ev_remote, 0));
  return HX_OK;
}

/* BR1 face values: "mine" sides after the slave states arrive, inner sides meanwhile; the
 * "yours" sides' values come from their master's rank; then the lifting kernel. */
static int lifting_faces_and_volume(GpuMpi *m, const DevData *d, const DevPhysics *ph, double c) {
  long nv = (long)d->nvar * d->n2, ng = (long)HX_NGRAD * d->n2;
  HX_CHECK(launch_pack_slave(d, d->U, d->nvar, m->first_yours, m->n_sides, m->d_send_U, m->s_mpi));
  HX_CHECK(launch_face_lifting(d, ph, c, 0, m->first_mpi, m->s_side));
  CU_CHECK(cudaEventRecord(m->ev_inner, m->s_side));
  HX_CHECK(exchange_via_host(m, EXCH_U, m->d_send_U, m->d_recv_U, nv, EXCH_TO_MASTER));
  HX_CHECK(launch_face_lifting(d, ph, c, m->first_mpi, m->first_yours, m->s_mpi));
  HX_CHECK(exchange_via_host(m, EXCH_LIFT, d->lift_flux + ng * m->first_mpi,
                             d->lift_flux + ng * m->first_yours, ng, EXCH_TO_SLAVE));
  HX_CHECK(join_sides(m));
  return launch_lifting(d, ph, m->s_elem);
}

int gpu_mpi_lifting(GpuMpi *m, const DevData *d, const DevPhysics *ph, double c) {
  HX_CHECK(begin_stage(m));
  return lifting_faces_and_volume(m, d, ph, c);
}

int gpu_mpi_stage(GpuMpi *m, const DevData *d, const DevPhysics *ph, double a, double b, double c) {
  long nv = (long)d->nvar * d->n2, ng = (long)HX_NGRAD * d->n2;
  HX_CHECK(begin_stage(m));
  if (d->viscous) {
    HX_CHECK(lifting_faces_and_volume(m, d, ph, c));
    CU_CHECK(cudaEventRecord(m->ev_grad, m->s_elem));
    CU_CHECK(cudaStreamWaitEvent(m->s_mpi, m->ev_grad, 0));
    CU_CHECK(cudaStreamWaitEvent(m->s_side, m->ev_grad, 0));
    HX_CHECK(launch_pack_slave(d, d->grad, HX_NGRAD, m->first_yours, m->n_sides, m->d_send_grad,
                               m->s_mpi));
  } else {
    HX_CHECK(
        launch_pack_slave(d, d->U, d->nvar, m->first_yours, m->n_sides, m->d_send_U, m->s_mpi));
  }
  HX_CHECK(launch_face_flux(d, ph, c, 0, m->first_mpi, m->s_side));
  CU_CHECK(cudaEventRecord(m->ev_inner, m->s_side));
  HX_CHECK(launch_volume_integral(d, ph, m->s_elem));
  if (d->viscous)
    HX_CHECK(exchange_via_host(m, EXCH_GRAD, m->d_send_grad, m->d_recv_grad, ng, EXCH_TO_MASTER));
  else
    HX_CHECK(exchange_via_host(m, EXCH_U, m->d_send_U, m->d_recv_U, nv, EXCH_TO_MASTER));
  HX_CHECK(launch_face_flux(d, ph, c, m->first_mpi, m->first_yours, m->s_mpi));
  HX_CHECK(exchange_via_host(m, EXCH_FLUX, d->flux + nv * m->first_mpi,
                             d->flux + nv * m->first_yours, nv, EXCH_TO_SLAVE));
  HX_CHECK(join_sides(m));
  return launch_surface_update(d, ph, a, b, c, m->s_elem);
}

static double bits_to_double(unsigned long long bits) {
  double v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

static unsigned long long double_to_bits(double v) {
  unsigned long long bits;
  memcpy(&bits, &v, sizeof bits);
  return bits;
}

/* The eigenvalue maxima are non-negative doubles: their max over the ranks is exact, so every
 * rank gets the dt of one rank holding the whole mesh. */
int gpu_mpi_timestep(GpuMpi *m, const DevData *d, const DevPhysics *ph, StepScalars *sc_host) {
  HX_CHECK(launch_lambda_max(d, ph, m->s_elem));
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
