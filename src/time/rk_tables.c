/* Coefficient tables of the low-storage (Williamson 2N) Runge-Kutta schemes known by FLEXI's
 * TimeDiscMethod names.
 *
 * Sign convention: the header's update is k = A[s]*k + dt*R, so A here is the negative of FLEXI's
 * RKA (FLEXI computes Ut_tmp = Ut - RKA*Ut_tmp) and equals the A of the original papers.
 *
 * Time-step factors: cfl_alpha[N] is FLEXI's CFLScaleAlpha(N) (src/timedisc/timedisc_vars.f90,
 * from the stability study of Gassner & Kopriva, SIAM J. Sci. Comput. 33 (2011) 2560-2579);
 * FLEXI then divides CFLScale*alpha by (2N+1). The Gauss-Lobatto table is FLEXI's PP_NodeType=2
 * table without overintegration. dfl_alpha[N] is FLEXI's DFLScaleAlpha(min(N,10)) * RelativeDFL:
 * FLEXI tabulates the viscous factor only up to N = 10 and uses the N = 10 value beyond; FLEXI then
 * divides DFLScale*alpha by (2N+1)^2. Index 0 repeats index 1.
 *
 * ketchesonrk4-20 and ketchesonrk4-18 are not offered: FLEXI implements them in Ketcheson's 3S*
 * three-register form (Ketcheson, J. Comput. Phys. 229 (2010) 1763-1773), and their Butcher
 * tableaux do not have the structure a_{i+1,j} = sum_{m=j}^{i} B_m prod_{l=j+1}^{m} A_l that every
 * 2N scheme has (checked numerically: the 2N fit from the subdiagonals misses the other entries by
 * O(100)), so they cannot be written as (A, B, c) here. */
#include "time/rk_tables.h"

#include <ctype.h>
#include <stddef.h>

/* FLEXI DFLScaleAlpha(1:10) for Gauss (NodeType 1) and Gauss-Lobatto (NodeType 2), extended to
 * N = 0 and N = 11..15 as FLEXI evaluates it, times the scheme's RelativeDFL r. */
#define DFL_ALPHA_GAUSS(r)                                                                         \
  {                                                                                                \
    1.12 * (r), 1.12 * (r), 0.76 * (r), 0.55 * (r), 0.41 * (r), 0.32 * (r), 0.25 * (r),            \
        0.20 * (r), 0.17 * (r), 0.14 * (r), 0.12 * (r), 0.12 * (r), 0.12 * (r), 0.12 * (r),        \
        0.12 * (r), 0.12 * (r)                                                                     \
  }
#define DFL_ALPHA_LOBATTO(r)                                                                       \
  {                                                                                                \
    4.50 * (r), 4.50 * (r), 1.95 * (r), 1.18 * (r), 0.79 * (r), 0.56 * (r), 0.42 * (r),            \
        0.32 * (r), 0.25 * (r), 0.20 * (r), 0.17 * (r), 0.17 * (r), 0.17 * (r), 0.17 * (r),        \
        0.17 * (r), 0.17 * (r)                                                                     \
  }

/* ---- standardrk3-3: Williamson, J. Comput. Phys. 35 (1980) 48-56, 3-stage 3rd-order scheme
 *      (Kopriva 2009, Alg. 42) ---- */
static const double rk3_3_A[3] = {0.0, -5.0 / 9.0, -153.0 / 128.0};
static const double rk3_3_B[3] = {1.0 / 3.0, 15.0 / 16.0, 8.0 / 15.0};
static const double rk3_3_c[3] = {0.0, 1.0 / 3.0, 3.0 / 4.0};
/* FLEXI CFLScaleAlpha, standardrk3-3 */
static const double rk3_3_cfl_gauss[HX_NMAX + 1] = {1.2285, 1.2285, 1.0485, 0.9101, 0.8066, 0.7268,
                                                    0.6626, 0.6109, 0.5670, 0.5299, 0.4973, 0.4703,
                                                    0.4455, 0.4230, 0.4039, 0.3859};
static const double rk3_3_cfl_lobatto[HX_NMAX + 1] = {
    3.1871, 3.1871, 2.2444, 1.7797, 1.5075, 1.3230, 1.1857, 1.0800,
    0.9945, 0.9247, 0.8651, 0.8134, 0.7695, 0.7301, 0.6952, 0.6649};
static const double rk3_3_dfl_gauss[HX_NMAX + 1] = DFL_ALPHA_GAUSS(1.0);
static const double rk3_3_dfl_lobatto[HX_NMAX + 1] = DFL_ALPHA_LOBATTO(1.0);

/* ---- carpenterrk4-5: Carpenter & Kennedy, "Fourth-order 2N-storage Runge-Kutta schemes",
 *      NASA TM-109112 (1994), solution 3 ---- */
static const double rk4_5_A[5] = {
    0.0, -567301805773.0 / 1357537059087.0, -2404267990393.0 / 2016746695238.0,
    -3550918686646.0 / 2091501179385.0, -1275806237668.0 / 842570457699.0};
static const double rk4_5_B[5] = {
    1432997174477.0 / 9575080441755.0, 5161836677717.0 / 13612068292357.0,
    1720146321549.0 / 2090206949498.0, 3134564353537.0 / 4481467310338.0,
    2277821191437.0 / 14882151754819.0};
static const double rk4_5_c[5] = {
    0.0, 1432997174477.0 / 9575080441755.0, 2526269341429.0 / 6820363962896.0,
    2006345519317.0 / 3224310063776.0, 2802321613138.0 / 2924317926251.0};
/* FLEXI CFLScaleAlpha, carpenterrk4-5 */
static const double rk4_5_cfl_gauss[HX_NMAX + 1] = {2.0351, 2.0351, 1.7595, 1.5401, 1.3702, 1.2375,
                                                    1.1318, 1.0440, 0.9709, 0.9079, 0.8539, 0.8066,
                                                    0.7650, 0.7290, 0.6952, 0.6660};
static const double rk4_5_cfl_lobatto[HX_NMAX + 1] = {
    4.7497, 4.7497, 3.4144, 2.8451, 2.4739, 2.2027, 1.9912, 1.8225,
    1.6830, 1.5682, 1.4692, 1.3849, 1.3106, 1.2454, 1.1880, 1.1362};
static const double rk4_5_dfl_gauss[HX_NMAX + 1] = DFL_ALPHA_GAUSS(1.853);
static const double rk4_5_dfl_lobatto[HX_NMAX + 1] = DFL_ALPHA_LOBATTO(1.853);

/* ---- niegemannrk4-14: Niegemann, Diehl & Busch, J. Comput. Phys. 231 (2012) 364-372,
 *      14-stage 4th-order scheme (LSRK14-4) ---- */
static const double rk4_14_A[14] = {0.0,
                                    -0.7188012108672410,
                                    -0.7785331173421570,
                                    -0.0053282796654044,
                                    -0.8552979934029281,
                                    -3.9564138245774565,
                                    -1.5780575380587385,
                                    -2.0837094552574054,
                                    -0.7483334182761610,
                                    -0.7032861106563359,
                                    0.0013917096117681,
                                    -0.0932075369637460,
                                    -0.9514200470875948,
                                    -7.1151571693922548};
static const double rk4_14_B[14] = {0.0367762454319673, 0.3136296607553959, 0.1531848691869027,
                                    0.0030097086818182, 0.3326293790646110, 0.2440251405350864,
                                    0.3718879239592277, 0.6204126221582444, 0.1524043173028741,
                                    0.0760894927419266, 0.0077604214040978, 0.0024647284755382,
                                    0.0780348340049386, 5.5059777270269628};
static const double rk4_14_c[14] = {0.0,
                                    0.0367762454319673,
                                    0.1249685262725025,
                                    0.2446177702277698,
                                    0.2476149531070420,
                                    0.2969311120382472,
                                    0.3978149645802642,
                                    0.5270854589440328,
                                    0.6981269994175695,
                                    0.8190890835352128,
                                    0.8527059887098624,
                                    0.8604711817462826,
                                    0.8627060376969976,
                                    0.8734213127600976};
/* FLEXI CFLScaleAlpha, niegemannrk4-14 */
static const double rk4_14_cfl_gauss[HX_NMAX + 1] = {6.9716, 6.9716, 5.7724, 5.1863, 4.7880, 4.4741,
                                                     4.2120, 3.9836, 3.7811, 3.5617, 3.3705, 3.1995,
                                                     3.0488, 2.9137, 2.7900, 2.6786};
static const double rk4_14_cfl_lobatto[HX_NMAX + 1] = {
    14.7882, 14.7882, 9.5906, 7.9447, 7.0965, 6.5486, 6.1436, 5.8185,
    5.5440,  5.3055,  5.0940, 4.9028, 4.7295, 4.5697, 4.4235, 4.2885};
static const double rk4_14_dfl_gauss[HX_NMAX + 1] = DFL_ALPHA_GAUSS(7.379);
static const double rk4_14_dfl_lobatto[HX_NMAX + 1] = DFL_ALPHA_LOBATTO(7.379);

/* ---- toulorgerk4-8c: Toulorge & Desmet, J. Comput. Phys. 231 (2012) 2067-2091, RKC84
 *      (Table A.21) ---- */
static const double rk4_8c_A[8] = {0.0,
                                   -0.7212962482279240,
                                   -0.0107733657161298,
                                   -0.5162584698930970,
                                   -1.7301002866322010,
                                   -5.2001293044030760,
                                   0.7837058945416420,
                                   -0.5445836094332190};
static const double rk4_8c_B[8] = {0.2165936736758085, 0.1773950826411583, 0.0180253861162329,
                                   0.0847347637254149, 0.8129106974622483, 1.9034160304227600,
                                   0.1314841743399048, 0.2082583170674149};
static const double rk4_8c_c[8] = {0.0,
                                   0.2165936736758085,
                                   0.2660343487538170,
                                   0.2840056122522720,
                                   0.3251266843788570,
                                   0.4555149599187530,
                                   0.7713219317101170,
                                   0.9199028964538660};
/* FLEXI CFLScaleAlpha, toulorgerk4-8c */
static const double rk4_8c_cfl_gauss[HX_NMAX + 1] = {3.7726, 3.7726, 3.2306, 2.8926, 2.6346, 2.3946,
                                                     2.1886, 2.0196, 1.8776, 1.7576, 1.6536, 1.5626,
                                                     1.4816, 1.4106, 1.3466, 1.2886};
static const double rk4_8c_cfl_lobatto[HX_NMAX + 1] = {
    8.2506, 8.2506, 5.7006, 4.7876, 4.2616, 3.8866, 3.5946, 3.3536,
    3.1516, 2.9766, 2.8246, 2.6786, 2.5356, 2.4096, 2.2976, 2.1966};
static const double rk4_8c_dfl_gauss[HX_NMAX + 1] = DFL_ALPHA_GAUSS(3.328);
static const double rk4_8c_dfl_lobatto[HX_NMAX + 1] = DFL_ALPHA_LOBATTO(3.328);

static const LowStorageRK schemes[] = {
    {"standardrk3-3", "Williamson, J. Comput. Phys. 35 (1980) 48-56", 3, 3, rk3_3_A, rk3_3_B,
     rk3_3_c, rk3_3_cfl_gauss, rk3_3_cfl_lobatto, rk3_3_dfl_gauss, rk3_3_dfl_lobatto},
    {"carpenterrk4-5", "Carpenter & Kennedy, NASA TM-109112 (1994), solution 3", 4, 5, rk4_5_A,
     rk4_5_B, rk4_5_c, rk4_5_cfl_gauss, rk4_5_cfl_lobatto, rk4_5_dfl_gauss, rk4_5_dfl_lobatto},
    {"niegemannrk4-14", "Niegemann, Diehl & Busch, J. Comput. Phys. 231 (2012) 364-372", 4, 14,
     rk4_14_A, rk4_14_B, rk4_14_c, rk4_14_cfl_gauss, rk4_14_cfl_lobatto, rk4_14_dfl_gauss,
     rk4_14_dfl_lobatto},
    {"toulorgerk4-8c", "Toulorge & Desmet, J. Comput. Phys. 231 (2012) 2067-2091, RKC84", 4, 8,
     rk4_8c_A, rk4_8c_B, rk4_8c_c, rk4_8c_cfl_gauss, rk4_8c_cfl_lobatto, rk4_8c_dfl_gauss,
     rk4_8c_dfl_lobatto},
};

#define N_SCHEMES ((int)(sizeof(schemes) / sizeof(schemes[0])))

static int equal_ignoring_case(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

const LowStorageRK *rk_find(const char *name) {
  if (!name) return NULL;
  for (int i = 0; i < N_SCHEMES; i++)
    if (equal_ignoring_case(name, schemes[i].name)) return &schemes[i];
  return NULL;
}

int rk_count(void) {
  return N_SCHEMES;
}

const LowStorageRK *rk_at(int i) {
  return (i >= 0 && i < N_SCHEMES) ? &schemes[i] : NULL;
}
