/* FLEXI's indicators and FV switching of the CUDA backend on several MPI ranks, the twin of the
 * exchanges of src/dg/indicator.c, src/dg/fv_gauss.c and src/dg/fv_gauss_visc.c: the kernels of
 * one rank (indicator_kernels.cu, fv_gauss_kernels.cu) with the other ranks' halves of their
 * per-side arrays exchanged between the launches (gpu_mpi_exchange: CUDA IPC or pinned host
 * memory, as the stage's own exchanges; with ipc no host call, so the stages stay capturable).
 *   indicator   jameson and DucrosTimesJST read the neighbours' IndVar at the faces: this rank's
 *               face values of the MPI sides (ind_ghost) go to the other rank before the
 *               indicator kernel, at each stage's switch or after each stage's update (blending);
 *   switching   per element, as on one rank; on LGL nodes the stage is gpu_mpi_stage's;
 *   Gauss nodes gpu_mpi_fvg_stage, on the side stream beside VolInt, in dg/operator.c's order:
 *               FV_Elems of the MPI sides' elements; the face states and the reconstruction's
 *               neighbours (fvg_multi); the FV elements' reconstructed face states, whose slave
 *               half goes to the master's rank; Navier-Stokes: the DG face lifting with the
 *               face subcells' lifting values (lift_flux to the slave's rank), the lifting, the
 *               face gradients at the face subcells (slave half to the master's rank); the face
 *               fluxes with the face subcells' (flux and fvg_flux to the slave's rank); then
 *               the FV elements' subcell operator and the update on the element stream.
 * Not a performance path: each exchange is waited for on the side stream where its data are
 * used (only VolInt overlaps the side work). */
#include "gpu/gpu_internal.cuh"

extern "C" {
#include "dg/indicator.h"
#include "parallel/exchange.h"
}

long gpu_mpi_fv_doubles_per_side(const DevData *d) {
  if (d->fvg_sJ) /* fvg_grad (Navier-Stokes) or flux, fvg_flux, fvg_multi, fvg_U_face */
    return (long)(d->viscous ? HX_NGRAD : d->nvar) * d->n2;
  return d->ind_ghost ? d->n2 : 0;
}

/* Both halves of a [master | slave][side][dps] array: the slave's to the master's rank and the
 * master's to the slave's (what the CPU's exchange pair of an array does). */
static int exchange_halves(GpuMpi *m, double *halves, long dps, cudaStream_t s) {
  const GpuMpiParts p = gpu_mpi_parts(m);
  HX_CHECK(gpu_mpi_exchange_sides(m, halves + (size_t)dps * p.n_sides, dps, EXCH_TO_MASTER, s));
  return gpu_mpi_exchange_sides(m, halves, dps, EXCH_TO_SLAVE, s);
}

/* The indicator's face values of the MPI sides, on s (fill_ghost_faces of indicator.c). */
static int ind_ghosts(GpuMpi *m, const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  HX_CHECK(launch_ind_ghost_faces(d, ph, s));
  return exchange_halves(m, d->ind_ghost, d->n2, s);
}

int gpu_mpi_ind_alpha(GpuMpi *m, const DevData *d, const DevPhysics *ph) {
  if (!d->ind_ghost || d->fv_mode == FV_MODE_SWITCHING) return HX_OK;
  const cudaStream_t s = gpu_mpi_parts(m).s_elem;
  HX_CHECK(ind_ghosts(m, d, ph, s));
  return launch_ind_alpha(d, ph, s, true);
}

int gpu_mpi_fv_switch(GpuMpi *m, const DevData *d, const DevPhysics *ph, double c_stage,
                      bool first_stage) {
  if (!d->fv_elems) return HX_OK;
  const cudaStream_t s = gpu_mpi_parts(m).s_elem;
  if (d->ind_ghost) HX_CHECK(ind_ghosts(m, d, ph, s));
  return launch_fv_switch(d, ph, c_stage, first_stage, s);
}

/* The face subcells' states of the stage (fv_gauss_prolong_start, fv_gauss_reconstruct_start):
 * the sides' FV_Elems, both elements' face states and reconstruction neighbours, the FV
 * elements' reconstructed face states; the master's rank gets the slave's. */
static int fvg_face_states(GpuMpi *m, const DevData *d, const DevPhysics *ph, double c,
                           cudaStream_t s) {
  const long n5 = (long)HX_NVAR * d->n2;
  HX_CHECK(launch_fvg_side_flags(d, s));
  HX_CHECK(exchange_halves(m, d->fvg_side_fv, 1, s));
  HX_CHECK(launch_fvg_side_states(d, ph, s));
  if (d->np > 1) HX_CHECK(exchange_halves(m, d->fvg_multi, n5, s)); /* as fv_gauss.c */
  HX_CHECK(launch_fvg_reconstruct(d, ph, c, s));
  return gpu_mpi_exchange_sides(m, d->fvg_U_face + (size_t)n5 * d->n_sides, n5, EXCH_TO_MASTER, s);
}

/* The DG elements' slave states of the "yours" sides to the master's rank (d->mpi_U_recv). */
static int fvg_slave_states(GpuMpi *m, const DevData *d, cudaStream_t s) {
  const GpuMpiParts p = gpu_mpi_parts(m);
  HX_CHECK(launch_pack_slave(d, d->U, d->nvar, p.first_yours, p.n_sides, p.send_U, s));
  return gpu_mpi_exchange(m, p.send_U, p.recv_U, (long)d->nvar * d->n2, EXCH_TO_MASTER, s);
}

/* Navier-Stokes (lifting of lifting.c with fv_gauss_face_lifting, fv_gauss_viscous_gradients):
 * the BR1 face values, those of the sides with an FV element at the face subcells, the slave's
 * rank gets them; the lifting; the FV elements' slopes and every element's face gradients at the
 * face subcells (the master's rank gets the slave's); the DG slave gradients (mpi_grad_recv). */
static int fvg_lifting(GpuMpi *m, const DevData *d, const DevPhysics *ph, double c,
                       cudaStream_t s) {
  const GpuMpiParts p = gpu_mpi_parts(m);
  const long ng = (long)HX_NGRAD * d->n2;
  HX_CHECK(fvg_slave_states(m, d, s));
  HX_CHECK(launch_face_lifting(d, ph, c, 0, p.first_yours, s));
  HX_CHECK(launch_fvg_lifting(d, ph, c, 0, p.first_yours, s));
  HX_CHECK(gpu_mpi_exchange_sides(m, d->lift_flux, ng, EXCH_TO_SLAVE, s));
  HX_CHECK(launch_lifting(d, ph, 1, s));
  HX_CHECK(launch_fvg_gradients(d, ph, s));
  HX_CHECK(gpu_mpi_exchange_sides(m, d->fvg_grad + (size_t)ng * d->n_sides, ng, EXCH_TO_MASTER, s));
  HX_CHECK(launch_pack_slave(d, d->grad, HX_NGRAD, p.first_yours, p.n_sides, p.send_grad, s));
  return gpu_mpi_exchange(m, p.send_grad, p.recv_grad, ng, EXCH_TO_MASTER, s);
}

int gpu_mpi_fvg_stage(GpuMpi *m, const DevData *d, const DevPhysics *ph, double a, double b,
                      double c, bool first_stage) {
  const GpuMpiParts p = gpu_mpi_parts(m);
  const long nv = (long)d->nvar * d->n2;
  const cudaStream_t s = p.s_side;
  HX_CHECK(gpu_mpi_hop(m, p.s_elem, s));             /* the stage's U and FV_Elems (the switch) */
  HX_CHECK(launch_volume_integral(d, ph, p.s_elem)); /* beside the side work */
  HX_CHECK(fvg_face_states(m, d, ph, c, s));
  HX_CHECK(d->viscous ? fvg_lifting(m, d, ph, c, s) : fvg_slave_states(m, d, s));
  HX_CHECK(launch_face_flux(d, ph, c, 0, p.first_yours, s));
  HX_CHECK(launch_fvg_face_fluxes(d, ph, c, 0, p.first_yours, s));
  HX_CHECK(gpu_mpi_exchange_sides(m, d->flux, nv, EXCH_TO_SLAVE, s));
  HX_CHECK(gpu_mpi_exchange_sides(m, d->fvg_flux, nv, EXCH_TO_SLAVE, s));
  HX_CHECK(gpu_mpi_hop(m, s, p.s_elem));
  HX_CHECK(launch_fvg_volume(d, ph, p.s_elem)); /* needs the ghosts of the face work */
  return launch_surface_update(d, ph, a, b, c, first_stage, p.s_elem);
}
