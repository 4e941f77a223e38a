/* The time step on the device: CFL reduction (max over nodes of the contravariant spectral radii),
 * dt shortened to land on the analysis time exactly as the CPU loop does, the time update, and the
 * register work of the 3S* Runge-Kutta schemes. */
#include "gpu/gpu_internal.cuh"

extern "C" {
#include "dg/fv.h"
#include "physics/eddyvisc.h"
#include "physics/eos.h"
#include "physics/navierstokes.h"
#include "time/rk_tables.h"
}

/* An element's constant metric terms for node_lambdas (elem_const_of): Ja^dir, |Ja^dir| and 1/J,
 * formed once per element instead of per node (three square roots per node); the same values, so
 * the same spectral radii. */
typedef struct {
  double m[3][3], mn[3], sJ;
} ElemLambdaConst;

__device__ static __forceinline__ void elem_lambda_const(const double *c, ElemLambdaConst *k) {
  k->sJ = c[CM_ELEM_SJ];
  for (int dir = 0; dir < 3; dir++) {
    for (int i = 0; i < 3; i++)
      k->m[dir][i] = __ldg(&c[3 * dir + i]);
    const double m0 = k->m[dir][0], m1 = k->m[dir][1], m2 = k->m[dir][2];
    k->mn[dir] = sqrt(m0 * m0 + m1 * m1 + m2 * m2);
  }
}

/* Spectral radii of node q per direction: convective lam[d] and viscous lamv[d]; false if the
 * state is not admissible. Same arithmetic as src/time/timedisc.c; with CheckAdmissibility = F
 * an inadmissible node without NaN density contributes zeros (GALAEXI). */
__device__ static bool node_lambdas(const DevData &d, const PhysParams &pp, int e, int q,
                                    double mu_t, double *lam, double *lamv,
                                    const ElemLambdaConst *ec = nullptr) {
  const double *Ue = d.U + (size_t)e * d.nvar * d.n3;
  double u[HX_NVAR], pr[HX_NPRIM];
  for (int v = 0; v < HX_NVAR; v++)
    u[v] = Ue[v * d.n3 + q];
  cons_to_prim(&pp, u, pr);
  const int status = timestep_node_status(d.check_admissible, pr[PDENS], pr[PRES]);
  if (status <= 0) {
    for (int dir = 0; dir < 3; dir++) lam[dir] = lamv[dir] = 0.0;
    return status == 0;
  }
  /* an FV element of Gauss-node switching: its subcells' Jacobians and metrics (timedisc.c) */
  const bool sub = !ec && d.fvg_sJ && d.fv_elems[e];
  double c = speed_of_sound(&pp, pr);
  double coeff = !d.viscous ? 0.0
                 : d.sgs_mu_max
                     ? viscous_spectral_coeff_les(&pp, pr, mu_t, d.sgs_lambda_factor * mu_t)
                     : viscous_spectral_coeff(&pp, pr);
  double sJ = ec ? ec->sJ : sub ? d.fvg_sJ[(size_t)e * d.n3 + q] : node_sJ(d, e, q);
  for (int dir = 0; dir < 3; dir++) {
    double m[3];
    if (ec)
      for (int c = 0; c < 3; c++)
        m[c] = ec->m[dir][c];
    else if (sub)
      for (int c = 0; c < 3; c++) m[c] = d.fvg_Ja[((size_t)e * 9 + dir * 3 + c) * d.n3 + q];
    else
      node_metric_dir(d, e, dir, q, m);
    double m0 = m[0], m1 = m[1], m2 = m[2];
    double vn = pr[VEL1] * m0 + pr[VEL2] * m1 + pr[VEL3] * m2;
    double mn = ec ? ec->mn[dir] : sqrt(m0 * m0 + m1 * m1 + m2 * m2);
    lam[dir] = sJ * (fabs(vn) + c * mn);
    lamv[dir] = coeff * (sJ * mn) * (sJ * mn);
  }
  return lam[0] == lam[0] && lamv[0] + lamv[1] + lamv[2] == lamv[0] + lamv[1] + lamv[2];
}

#define LAMBDA_THREADS 128
#define LAMBDA_WARPS (LAMBDA_THREADS / 32)

/* One warp per element, its lanes striding over the nodes: per-direction maxima, summed (FLEXI's
 * estimate); then an order-independent max over the elements, one atomic pair per block. (One
 * block of 128 per element left half of each block idle at N = 3 and reduced through shared
 * memory with 7 barriers.) Maxima are exact, so dt is the same to the last bit. */
/* 6 blocks per SM: 80 registers without spills at sm_90 (98 unbounded, 8 blocks spill) */
__global__ static void __launch_bounds__(LAMBDA_THREADS, 6) lambda_max_kernel(DevData d,
                                                                            DevPhysics ph) {
  __shared__ double red[2][LAMBDA_WARPS];
  const int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int e = blockIdx.x * LAMBDA_WARPS + w;
  double lsum = 0.0, lvsum = 0.0;
  if (e < d.n_elems) { /* the same for the whole warp */
    double m[6] = {0, 0, 0, 0, 0, 0};
    /* LES: the element's largest mu_t since the last step (FLEXI's muSGSMax), reset below */
    const double mu_t = d.sgs_mu_max ? __longlong_as_double((long long)d.sgs_mu_max[e]) : 0.0;
    /* constant metric terms (not an FV element's subcells): formed once for the element */
    const double *ce = elem_const_of(d, e);
    ElemLambdaConst ec;
    const bool use_ec = ce && !(d.fvg_sJ && d.fv_elems[e]) && d.lambda_elem_const;
    if (use_ec) elem_lambda_const(ce, &ec);
    for (int q = lane; q < d.n3; q += 32) {
      double lam[3], lamv[3];
      if (!node_lambdas(d, ph.pp, e, q, mu_t, lam, lamv, use_ec ? &ec : nullptr)) {
        atomicOr(&d.sc->bad, 1);
        atomicMax(&d.sc->bad_elem, e + 1);
        continue;
      }
      for (int k = 0; k < 3; k++) {
        m[k] = fmax(m[k], lam[k]);
        m[3 + k] = fmax(m[3 + k], lamv[k]);
      }
    }
    for (int k = 0; k < 6; k++)
      for (int o = 16; o > 0; o >>= 1) m[k] = fmax(m[k], __shfl_xor_sync(0xffffffffu, m[k], o));
    __syncwarp(); /* every lane read sgs_mu_max before lane 0 resets it */
    if (lane == 0) {
      if (d.sgs_mu_max) d.sgs_mu_max[e] = 0ull;
      lsum = m[0] + m[1];
      lvsum = m[3] + m[4];
      if (d.dims == 3) { /* Dimension = 2: zeta left out, as FLEXI's 2-D build */
        lsum += m[2];
        lvsum += m[5];
      }
      /* FLEXI's dtElem = CFLScale(FVE) 2 / lambda: an FV element's radius, scaled to DG */
      if (d.fvg_sJ && d.fv_elems[e]) lsum *= d.fvg_dt_scale;
      /* blending: the smaller of the DG and the FV limit where alpha > FV_alpha_min (as the CPU) */
      if (d.alpha_dt)
        lsum = fv_blend_dt_lambda(lsum, d.alpha_dt[e], d.fv_alpha_min, d.dt_blend_scale);
    }
  }
  if (lane == 0) {
    red[0][w] = lsum;
    red[1][w] = lvsum;
  }
  __syncthreads();
  /* max of non-negative doubles: the bit patterns are ordered like the values, so the result
   * does not depend on the order of the atomics */
  if (threadIdx.x == 0) {
    for (int k = 1; k < LAMBDA_WARPS; k++) {
      lsum = fmax(lsum, red[0][k]);
      lvsum = fmax(lvsum, red[1][k]);
    }
    atomicMax(&d.sc->lmax_bits, (unsigned long long)__double_as_longlong(lsum));
    atomicMax(&d.sc->lvmax_bits, (unsigned long long)__double_as_longlong(lvsum));
  }
}

/* dt and landing, the same arithmetic as simulation.c; resets the reduction for the next step. */
__global__ static void dt_finalize_kernel(DevData d) {
  StepScalars *sc = d.sc;
  double lmax = __longlong_as_double((long long)sc->lmax_bits);
  double lvmax = __longlong_as_double((long long)sc->lvmax_bits);
  sc->lmax_bits = 0ull;
  sc->lvmax_bits = 0ull;
  if (sc->bad || !(lmax > 0.0)) {
    sc->dt = -1.0;
    sc->landed = 0;
    return;
  }
  double dt = __ddiv_rn(d.dt_factor, lmax);
  if (d.viscous && lvmax > 0.0) {
    double dtv = __ddiv_rn(d.dt_factor_visc, lvmax);
    if (dtv < dt) dt = dtv;
  }
  int land = __dsub_rn(sc->t_analyze, sc->t) <= __dmul_rn(dt, 1.0 + 1e-9);
  sc->dt = land ? __dsub_rn(sc->t_analyze, sc->t) : dt;
  sc->landed = land;
}

__global__ static void time_advance_kernel(DevData d, StepScalars *mirror) {
  pdl_wait(); /* the last update (dependent launch) */
  StepScalars *sc = d.sc;
  if (sc->dt > 0.0) sc->t = sc->landed ? sc->t_analyze : __dadd_rn(sc->t, sc->dt);
  if (!mirror) return;
  mirror->t = sc->t; /* the host reads them after the step's stream synchronizes */
  mirror->dt = sc->dt;
  mirror->landed = sc->landed;
  mirror->bad = sc->bad;
  mirror->bad_elem = sc->bad_elem;
}

int launch_lambda_max(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  if (d->n_elems > 0)
    lambda_max_kernel<<<(d->n_elems + LAMBDA_WARPS - 1) / LAMBDA_WARPS, LAMBDA_THREADS, 0, s>>>(
        *d, *ph);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_dt_finalize(const DevData *d, cudaStream_t s) {
  dt_finalize_kernel<<<1, 1, 0, s>>>(*d);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}

int launch_timestep(const DevData *d, const DevPhysics *ph, cudaStream_t s) {
  HX_CHECK(launch_lambda_max(d, ph, s));
  return launch_dt_finalize(d, s);
}

int launch_time_advance(const DevData *d, cudaStream_t s, StepScalars *mirror, bool dependent) {
  CU_CHECK(launch_kernel(dependent, time_advance_kernel, dim3(1), dim3(1), 0, s, *d, mirror));
  return HX_OK;
}

/* Ketcheson 3S* stage st on top of the fused 2N update of surfint/mix kernels (k = a k + dt R,
 * U += b k with rk_fused_coefs' a, b): stage 0 keeps U in S2 and S3, later stages put the register
 * combination into k (rk3s_prepare_node). Runs on the element stream before the update of the
 * stage; U is not written, so the stage's operator may read U beside it. */
struct Rk3sCoefs {
  double g[5];
};

__global__ static void rk3s_prepare_kernel(DevData d, Rk3sCoefs c, int first, double *s2,
                                           const double *s3_in, double *s3_out) {
  if (!(d.sc->dt > 0.0)) return; /* the step is not taken: keep the registers */
  const size_t n = (size_t)d.n_elems * d.nvar * d.n3;
  for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < n;
       q += (size_t)gridDim.x * blockDim.x) {
    const double u = d.U[q];
    if (first) {
      s2[q] = u;
      s3_out[q] = u;
    } else {
      rk3s_prepare_node(c.g, u, &s2[q], s3_in[q], &d.k[q]);
    }
  }
}

int launch_rk3s_prepare(const DevData *d, const LowStorageRK *rk, int st, double *s2, double *s3,
                        cudaStream_t s) {
  Rk3sCoefs c = {{0.0, 0.0, 0.0, 0.0, 0.0}};
  if (st > 0) rk3s_stage_coefs(rk, st, c.g);
  const size_t n = (size_t)d->n_elems * d->nvar * d->n3;
  const int threads = 256;
  const unsigned blocks = (unsigned)((n + threads - 1) / threads);
  if (n > 0) rk3s_prepare_kernel<<<blocks, threads, 0, s>>>(*d, c, st == 0, s2, s3, s3);
  CU_CHECK(cudaGetLastError());
  return HX_OK;
}
