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
 * ketchesonrk4-20 and ketchesonrk4-18 are Ketcheson's 3S* schemes (J. Comput. Phys. 229 (2010)
 * 1763-1773): their Butcher tableaux do not have the structure of a 2N scheme, so they keep their
 * own (gamma1, gamma2, gamma3, delta, beta, c) form; FLEXI has no stability study for them and uses
 * niegemannrk4-14's CFL and DFL factors, and so does hexdg (FLEXI's CFLscale means the same dt). */
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

/* ---- toulorgerk3-7c: Toulorge & Desmet, J. Comput. Phys. 231 (2012) 2067-2091, RKC73 ---- */
static const double rk3_7c_A[7] = {0.0,
                                   -0.808316387498383,
                                   -1.503407858773331,
                                   -1.053064525050744,
                                   -1.463149119280508,
                                   -0.659288128108783,
                                   -1.667891931891068};
static const double rk3_7c_B[7] = {0.0119705267309784, 0.8886897793820711, 0.4578382089261419,
                                   0.5790045253338471, 0.3160214638138484, 0.2483525368264122,
                                   0.0677123095940884};
static const double rk3_7c_c[7] = {0.0,
                                   0.0119705267309784,
                                   0.182317794036199,
                                   0.5082168062551849,
                                   0.653203122014859,
                                   0.853440138567825,
                                   0.998046608462379};
/* FLEXI CFLScaleAlpha, toulorgerk3-7c */
static const double rk3_7c_cfl_gauss[HX_NMAX + 1] = {3.7416, 3.7416, 3.2036, 2.8686, 2.6136, 2.4066,
                                                     2.2116, 2.0416, 1.8986, 1.7756, 1.6676, 1.5746,
                                                     1.4916, 1.4186, 1.3536, 1.2946};
static const double rk3_7c_cfl_lobatto[HX_NMAX + 1] = {
    8.1776, 8.1776, 5.6366, 4.7326, 4.2156, 3.8486, 3.5606, 3.3246,
    3.1246, 2.9526, 2.8026, 2.6696, 2.5516, 2.4336, 2.3216, 2.2196};
static const double rk3_7c_dfl_gauss[HX_NMAX + 1] = DFL_ALPHA_GAUSS(3.342);
static const double rk3_7c_dfl_lobatto[HX_NMAX + 1] = DFL_ALPHA_LOBATTO(3.342);

/* ---- toulorgerk4-8f: Toulorge & Desmet, J. Comput. Phys. 231 (2012) 2067-2091, RKF84 ---- */
static const double rk4_8f_A[8] = {0.0,
                                   -0.5534431294501569,
                                   0.0106598757020349,
                                   -0.5515812888932000,
                                   -1.885790377558741,
                                   -5.701295742793264,
                                   2.113903965664793,
                                   -0.5339578826675280};
static const double rk4_8f_B[8] = {0.0803793688273695, 0.5388497458569843, 0.0197497440903196,
                                   0.0991184129733997, 0.7466920411064123, 1.6795842456188940,
                                   0.2433728067008188, 0.1422730459001373};
static const double rk4_8f_c[8] = {0.0,
                                   0.0803793688273695,
                                   0.3210064250338430,
                                   0.3408501826604660,
                                   0.3850364824285470,
                                   0.5040052477534100,
                                   0.6578977561168540,
                                   0.9484087623348481};
/* FLEXI CFLScaleAlpha, toulorgerk4-8f */
static const double rk4_8f_cfl_gauss[HX_NMAX + 1] = {3.5856, 3.5856, 3.0966, 2.7566, 2.4856, 2.2666,
                                                     2.0756, 1.9116, 1.7746, 1.6586, 1.5586, 1.4716,
                                                     1.3946, 1.3266, 1.2656, 1.2106};
static const double rk4_8f_cfl_lobatto[HX_NMAX + 1] = {
    7.9706, 7.9706, 5.5346, 4.6486, 4.1376, 3.7686, 3.4726, 3.2246,
    3.0116, 2.8276, 2.6676, 2.5266, 2.4026, 2.2866, 2.1776, 2.0806};
static const double rk4_8f_dfl_gauss[HX_NMAX + 1] = DFL_ALPHA_GAUSS(3.142);
static const double rk4_8f_dfl_lobatto[HX_NMAX + 1] = DFL_ALPHA_LOBATTO(3.142);

/* ---- ketchesonrk4-20: Ketcheson, J. Comput. Phys. 229 (2010) 1763-1773, 3S* RK4()20[3S*]
 *      (coefficients as FLEXI's src/timedisc/timedisc_vars.f90 lists them: delta[s] is used at
 * stage s) ---- */
static const double k4_20_gamma1[20] = {0.0,
                                        -1.168247970322938,
                                        -2.5112155037089772,
                                        -0.55259960154735988,
                                        0.002924303350951174,
                                        -4.7948973385386493,
                                        -5.3095533497183016,
                                        -2.3624194456630736,
                                        0.20068995756589547,
                                        -1.498580866159771,
                                        0.48941228502377687,
                                        -0.10387512755259576,
                                        -0.13287664273288191,
                                        0.75858678822837511,
                                        -4.3321586294096939,
                                        0.48199700138402146,
                                        -0.0070924756614960671,
                                        -0.88422252029506054,
                                        -0.89129367099545231,
                                        1.5297157134040762};
static const double k4_20_gamma2[20] = {1,
                                        0.88952052154583572,
                                        0.88988129100385194,
                                        0.35701564494677057,
                                        0.24232462479216824,
                                        1.2727083024258155,
                                        1.1126977210342681,
                                        0.51360709645409097,
                                        0.11181089682044856,
                                        0.27881272382085232,
                                        0.049032886260666715,
                                        0.04187105106589787,
                                        0.044602463796686219,
                                        0.01489727125115475,
                                        0.26244269699436817,
                                        -0.0047486056986590294,
                                        0.023219312682036197,
                                        0.062852588972458059,
                                        0.054473719351268962,
                                        0.024345446089014514};
static const double k4_20_gamma3[20] = {0.0,
                                        0.0,
                                        0.0,
                                        0.19595487007932735,
                                        -6.9871675039100595e-05,
                                        0.1059223116981005,
                                        1.0730426871909635,
                                        0.89257826744389124,
                                        -0.14078912484894415,
                                        -0.26869890558434262,
                                        -0.065175753568318007,
                                        0.49177812903108553,
                                        0.46017684776493678,
                                        -0.0064689512947008251,
                                        0.44034728024115377,
                                        0.61086885767527943,
                                        0.50546454457410162,
                                        0.54668509293072887,
                                        0.71414182420995431,
                                        -1.0558095282893749};
static const double k4_20_delta[20] = {1,
                                       1.4375468781258596,
                                       1.5081653637261594,
                                       -0.14575347066062688,
                                       0.31495761082838158,
                                       0.35505919368536931,
                                       0.2361638937456696,
                                       0.10267488547302055,
                                       3.5991243524519438,
                                       1.5172890003890782,
                                       1.8171662741779953,
                                       2.8762263521436831,
                                       0.46350154228218754,
                                       1.557312211072722,
                                       2.0001066778080254,
                                       0.91690694855534305,
                                       2.0474618401365854,
                                       -0.32336329115436924,
                                       0.32899060754742177,
                                       0.0};
static const double k4_20_B[20] = {
    0.17342385375780556,    0.28569004728564801,  0.68727044379779589,  0.12812121060977319,
    0.00049137180740403122, 0.047033584446956857, 0.44539998128170821,  1.225982488734372,
    0.020616463985024421,   0.15941162575324802,  1.2953803678226099,   0.0017287352967302603,
    0.11660483420536467,    0.077997036621815521, 0.32563250234418012,  1.0611520488333197,
    0.00065891625628040993, 0.083534647700054046, 0.098972579458252483, 0.04301011614509704};
static const double k4_20_c[20] = {0.0,
                                   0.17342385375780556,
                                   0.30484982420032158,
                                   0.55271395645729193,
                                   0.047079204549750037,
                                   0.15652540451324129,
                                   0.18602224049074517,
                                   0.28426620035751449,
                                   0.95094727548792268,
                                   0.6804650107009601,
                                   0.59705366562360063,
                                   1.8970821645077285,
                                   0.29742664004529606,
                                   0.6081346370013494,
                                   0.73080004188477765,
                                   0.91656999044951792,
                                   1.430968755461453,
                                   0.41043824968249148,
                                   0.84898255952298962,
                                   0.33543896258348421};

/* ---- ketchesonrk4-18: Ketcheson, J. Comput. Phys. 229 (2010) 1763-1773, 3S* RK4()18[3S*] ---- */
static const double k4_18_gamma1[18] = {0.0,
                                        1.1750819811951678,
                                        0.30909017892654811,
                                        1.4409117788115862,
                                        -0.43563049445694069,
                                        0.20341503014683893,
                                        0.49828356971917692,
                                        3.5307737157745489,
                                        -0.79318790975894626,
                                        0.89120513355345166,
                                        0.57091009196320974,
                                        0.016912188575015419,
                                        1.0077912519329719,
                                        -0.68532953752099512,
                                        1.0488165551884063,
                                        0.83647761371829943,
                                        1.308790983044571,
                                        0.90419681700177323};
static const double k4_18_gamma2[18] = {1,
                                        -0.12891068509748144,
                                        0.35609406666728954,
                                        -0.40648075226104241,
                                        0.60714786995207426,
                                        1.0253501186236846,
                                        0.24411240760769423,
                                        -1.2813606970134104,
                                        0.81625711892373898,
                                        0.10171269354643386,
                                        0.19379378662711269,
                                        0.74408643544851782,
                                        -0.12591764563430008,
                                        1.1996463179654226,
                                        0.045772068865370406,
                                        0.83622292077033844,
                                        -1.4179124272450148,
                                        0.13661459065331649};
static const double k4_18_gamma3[18] = {0.0,
                                        0.0,
                                        0.0,
                                        0.25583378537249163,
                                        0.52676794366988289,
                                        -0.25648375621792202,
                                        0.31932438003236391,
                                        -0.31106815010852862,
                                        0.47631196164025996,
                                        -0.098853727938895783,
                                        0.19274726276883622,
                                        0.032389860855971508,
                                        0.075923980038397509,
                                        0.20635456088664017,
                                        -0.089741032556032857,
                                        0.02689993250567619,
                                        0.041882069379552307,
                                        0.062016148912381761};
static const double k4_18_delta[18] = {1,
                                       0.35816500441970289,
                                       0.58208024465093577,
                                       -0.22615285894283538,
                                       -0.21715466578266213,
                                       -0.46990441450888265,
                                       -0.27986911594744995,
                                       0.98513926355272197,
                                       -0.11899324232814899,
                                       0.42821073124370562,
                                       -0.82196355299900403,
                                       0.058113997057675074,
                                       -0.61283024325436919,
                                       0.56800136190634054,
                                       -0.33874970570335106,
                                       -0.73071238125137772,
                                       0.083936016960374532,
                                       0.0};
static const double k4_18_B[18] = {
    0.12384169480626298,   1.0176262534280349,     -0.069732026387527429, 0.34239356067806476,
    0.018177707207807942,  -0.0061188746289480445, 0.078242308902580354,  -0.37642864750532951,
    -0.045078383666690258, -0.75734228201432585,   -0.27149222760935121,  0.0011833684341657344,
    0.028858319979308041,  0.46005267586974657,    0.018014887068775631,  -0.015508175395461857,
    -0.40095737929274988,  0.14949678367038011};
static const double k4_18_c[18] = {0.0,
                                   0.12384169480626298,
                                   1.1574324659554065,
                                   0.54372099141546926,
                                   0.88394666834280744,
                                   -0.12212042176605774,
                                   0.44125685133082082,
                                   0.38039092095473748,
                                   0.054591107347528367,
                                   0.48731855535356028,
                                   -0.23007964303896034,
                                   -0.18907656662915873,
                                   0.81059805668623763,
                                   0.77080875997868803,
                                   1.1712158507200179,
                                   1.2755351018003545,
                                   0.80422507946168564,
                                   0.97508680250761848};

static const LowStorageRK schemes[] = {
    {.name = "standardrk3-3",
     .reference = "Williamson, J. Comput. Phys. 35 (1980) 48-56",
     .order = 3,
     .n_stages = 3,
     .form = RK_2N,
     .A = rk3_3_A,
     .B = rk3_3_B,
     .c = rk3_3_c,
     .cfl_alpha_gauss = rk3_3_cfl_gauss,
     .cfl_alpha_lobatto = rk3_3_cfl_lobatto,
     .dfl_alpha_gauss = rk3_3_dfl_gauss,
     .dfl_alpha_lobatto = rk3_3_dfl_lobatto},
    {.name = "carpenterrk4-5",
     .reference = "Carpenter & Kennedy, NASA TM-109112 (1994), solution 3",
     .order = 4,
     .n_stages = 5,
     .form = RK_2N,
     .A = rk4_5_A,
     .B = rk4_5_B,
     .c = rk4_5_c,
     .cfl_alpha_gauss = rk4_5_cfl_gauss,
     .cfl_alpha_lobatto = rk4_5_cfl_lobatto,
     .dfl_alpha_gauss = rk4_5_dfl_gauss,
     .dfl_alpha_lobatto = rk4_5_dfl_lobatto},
    {.name = "niegemannrk4-14",
     .reference = "Niegemann, Diehl & Busch, J. Comput. Phys. 231 (2012) 364-372",
     .order = 4,
     .n_stages = 14,
     .form = RK_2N,
     .A = rk4_14_A,
     .B = rk4_14_B,
     .c = rk4_14_c,
     .cfl_alpha_gauss = rk4_14_cfl_gauss,
     .cfl_alpha_lobatto = rk4_14_cfl_lobatto,
     .dfl_alpha_gauss = rk4_14_dfl_gauss,
     .dfl_alpha_lobatto = rk4_14_dfl_lobatto},
    {.name = "toulorgerk4-8c",
     .reference = "Toulorge & Desmet, J. Comput. Phys. 231 (2012) 2067-2091, RKC84",
     .order = 4,
     .n_stages = 8,
     .form = RK_2N,
     .A = rk4_8c_A,
     .B = rk4_8c_B,
     .c = rk4_8c_c,
     .cfl_alpha_gauss = rk4_8c_cfl_gauss,
     .cfl_alpha_lobatto = rk4_8c_cfl_lobatto,
     .dfl_alpha_gauss = rk4_8c_dfl_gauss,
     .dfl_alpha_lobatto = rk4_8c_dfl_lobatto},
    {.name = "toulorgerk3-7c",
     .reference = "Toulorge & Desmet, J. Comput. Phys. 231 (2012) 2067-2091, RKC73",
     .order = 3,
     .n_stages = 7,
     .form = RK_2N,
     .A = rk3_7c_A,
     .B = rk3_7c_B,
     .c = rk3_7c_c,
     .cfl_alpha_gauss = rk3_7c_cfl_gauss,
     .cfl_alpha_lobatto = rk3_7c_cfl_lobatto,
     .dfl_alpha_gauss = rk3_7c_dfl_gauss,
     .dfl_alpha_lobatto = rk3_7c_dfl_lobatto},
    {.name = "toulorgerk4-8f",
     .reference = "Toulorge & Desmet, J. Comput. Phys. 231 (2012) 2067-2091, RKF84",
     .order = 4,
     .n_stages = 8,
     .form = RK_2N,
     .A = rk4_8f_A,
     .B = rk4_8f_B,
     .c = rk4_8f_c,
     .cfl_alpha_gauss = rk4_8f_cfl_gauss,
     .cfl_alpha_lobatto = rk4_8f_cfl_lobatto,
     .dfl_alpha_gauss = rk4_8f_dfl_gauss,
     .dfl_alpha_lobatto = rk4_8f_dfl_lobatto},
    {.name = "ketchesonrk4-20",
     .reference = "Ketcheson, J. Comput. Phys. 229 (2010) 1763-1773, RK4()20[3S*]",
     .order = 4,
     .n_stages = 20,
     .form = RK_3SSTAR,
     .B = k4_20_B,
     .c = k4_20_c,
     .gamma1 = k4_20_gamma1,
     .gamma2 = k4_20_gamma2,
     .gamma3 = k4_20_gamma3,
     .delta = k4_20_delta,
     .cfl_alpha_gauss = rk4_14_cfl_gauss,
     .cfl_alpha_lobatto = rk4_14_cfl_lobatto,
     .dfl_alpha_gauss = rk4_14_dfl_gauss,
     .dfl_alpha_lobatto = rk4_14_dfl_lobatto},
    {.name = "ketchesonrk4-18",
     .reference = "Ketcheson, J. Comput. Phys. 229 (2010) 1763-1773, RK4()18[3S*]",
     .order = 4,
     .n_stages = 18,
     .form = RK_3SSTAR,
     .B = k4_18_B,
     .c = k4_18_c,
     .gamma1 = k4_18_gamma1,
     .gamma2 = k4_18_gamma2,
     .gamma3 = k4_18_gamma3,
     .delta = k4_18_delta,
     .cfl_alpha_gauss = rk4_14_cfl_gauss,
     .cfl_alpha_lobatto = rk4_14_cfl_lobatto,
     .dfl_alpha_gauss = rk4_14_dfl_gauss,
     .dfl_alpha_lobatto = rk4_14_dfl_lobatto},
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

void rk_fused_coefs(const LowStorageRK *rk, int st, double *a, double *b) {
  *b = rk->B[st];
  if (rk->form == RK_2N)
    *a = rk->A[st];
  else
    *a = st == 0 ? 0.0 : 1.0;
}

void rk3s_stage_coefs(const LowStorageRK *rk, int st, double g[5]) {
  g[0] = rk->gamma1[st];
  g[1] = rk->gamma2[st];
  g[2] = rk->gamma3[st];
  g[3] = rk->delta[st];
  g[4] = rk->B[st];
}
