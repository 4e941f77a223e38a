/* A reaction mechanism in flat arrays, ready for host loops and for one copy to the device.
 *
 * Units inside hexdg are Cantera's internal SI units: kmol, m^3, s, K, J, kg/kmol; activation
 * energies are stored as Ea/R in K. The YAML reader converts from the file's `units` block.
 *
 * Every numeric array lives in one contiguous block (m->block, m->block_bytes) so that the device
 * copy is a single cudaMemcpy followed by chem_mech_rebase(). Index conventions:
 *   species k = 0..ns-1, element e = 0..ne-1, reaction r = 0..nr-1;
 *   CSR lists per reaction: entries ptr[r] .. ptr[r+1]-1. */
#ifndef HEXDG_CHEM_MECH_H
#define HEXDG_CHEM_MECH_H

#include <stddef.h>
#include <stdint.h>

#include "core/hd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CODATA 2018 exact values, as Cantera uses them (ct::GasConstant, ct::OneAtm) */
#define CHEM_AVOGADRO 6.02214076e26             /* 1/kmol */
#define CHEM_BOLTZMANN 1.380649e-23             /* J/K */
#define CHEM_R (CHEM_AVOGADRO * CHEM_BOLTZMANN) /* 8314.46261815324 J/(kmol K) */
#define CHEM_P_ATM 101325.0                     /* Pa: standard pressure of Kc */
#define CHEM_CAL 4.184                          /* J per thermochemical calorie */

/* Strided arrays: chemistry functions take every array with a stride so that one code serves a
 * contiguous host array (stride 1), a species-major batch (stride = number of cells: consecutive
 * GPU threads read consecutive addresses) and the DG state (stride = DOFs per element). */
#define CHEM_AT(a, i, s) ((a)[(size_t)(i) * (size_t)(s)])

#define CHEM_NAME_LEN 32
#define CHEM_MAX_ELEMENTS 16

enum { CHEM_RXN_ELEMENTARY = 0, CHEM_RXN_THREE_BODY = 1, CHEM_RXN_FALLOFF = 2, CHEM_RXN_PLOG = 3 };
enum { CHEM_FALLOFF_LINDEMANN = 0, CHEM_FALLOFF_TROE = 1, CHEM_FALLOFF_SRI = 2 };

typedef struct ChemMech {
  int n_species, n_elements, n_reactions;
  /* Ceiling of the NASA-7 polynomials: CHEM_T_HIGH, or lower where a species' polynomial,
   * extended above its fit, would give cv <= 0 (e(T) would stop increasing;
   * chem_mech_temperature_ceiling). Above it each species keeps its cp(T_hi) (nasa_ext), so that
   * e(T) increases up to CHEM_T_HIGH and a shock-heated node keeps a temperature. */
  double T_hi;

  /* species */
  double *mw;        /* [ns] molar mass, kg/kmol */
  double *nasa;      /* [ns*15]: T_mid, a_low[0..6] (T < T_mid), a_high[0..6] (T >= T_mid) */
  double *t_range;   /* [ns*2]: T_min, T_max of the fit (host checks only) */
  double *nasa_ext;  /* [ns*7]: NASA-7 coefficients for T >= T_hi: cp/R = cp/R(T_hi) constant,
                      * h and s continuous at T_hi (chem_mech_set_ceiling) */
  double *elem_comp; /* [ns*ne]: atoms of element e in species k at k*ne + e */
  double *elem_mw;   /* [ne] atomic mass, kg/kmol */

  /* reactions */
  int *rxn_type;       /* [nr] CHEM_RXN_* */
  int *reversible;     /* [nr] 1: reverse rate from the equilibrium constant */
  double *rate;        /* [nr*3] A (SI-kmol), b, Ea/R (K); the high-pressure limit of falloff */
  double *rate_low;    /* [nr*3] low-pressure limit (falloff only, else zeros) */
  int *falloff_kind;   /* [nr] CHEM_FALLOFF_* (falloff only) */
  double *falloff_par; /* [nr*5] Troe: A, T3, T1, T2, has_T2 (1/0); SRI: a, b, c, d, e */
  double *dnu;         /* [nr] sum of product minus reactant stoichiometric coefficients */

  int *reac_ptr, *reac_sp; /* reactants: ptr [nr+1]; species [n_reac_entries] */
  double *reac_nu;         /* stoichiometric coefficients of the reactants (> 0) */
  int *prod_ptr, *prod_sp; /* products, likewise */
  double *prod_nu;
  int *ord_ptr, *ord_sp; /* forward reaction orders: every species with a non-zero order (the
                            reactants with order = nu unless `orders` overrides) */
  double *ord_val;
  int *tb_ptr, *tb_sp; /* third-body efficiencies that differ from the default (three-body and
                          falloff reactions); [M] = default * C_total + sum (eff - default) C_k */
  double *tb_eff;
  double *tb_default; /* [nr] default efficiency (1; 0 for an explicit collision partner) */
  int *plog_ptr;      /* [nr+1] PLOG rates (empty for other types) */
  double *plog;       /* [n_plog*4]: ln(p / Pa), A, b, Ea/R, sorted by pressure */

  /* the one block holding every array above */
  void *block;
  size_t block_bytes;

  /* host only */
  char (*species_names)[CHEM_NAME_LEN];
  char (*element_names)[CHEM_NAME_LEN];
  char **equations;   /* [nr] the reaction equation as written in the file */
  int *equation_line; /* [nr] 1-based line in the file */
  char path[4096];    /* the file it was read from */
  char hash[17];      /* FNV-1a 64 of the file's bytes, hex */
} ChemMech;

/* Read a Cantera YAML mechanism (the first ideal-gas phase, or `phase_name` when not NULL).
 * Errors name the file, the line, the species/reaction and what to do. */
int chem_mech_load(const char *path, const char *phase_name, ChemMech **out);
void chem_mech_free(ChemMech *m);

/* Species index by name (case-sensitive as in Cantera), -1 if absent. */
int chem_species_index(const ChemMech *m, const char *name);
int chem_element_index(const ChemMech *m, const char *name);

/* The temperature ceiling T_hi of m's polynomials (set by chem_mech_load). */
double chem_mech_temperature_ceiling(const ChemMech *m);

/* Sets T_hi and the constant-cp continuation above it (nasa_ext); chem_mech_load calls it. */
void chem_mech_set_ceiling(ChemMech *m);

/* A struct whose array pointers point into dev_block (a device copy of m->block). */
void chem_mech_rebase(const ChemMech *m, void *dev_block, ChemMech *dev);

/* Parse "H2:2,O2:1,N2:3.76" into mole (or mass) fractions x[ns], normalised to sum 1. Unknown
 * species, negative or all-zero amounts are errors naming the species and `what` (e.g. "--X"). */
int chem_parse_composition(const ChemMech *m, const char *spec, const char *what, double *x);

#ifdef __cplusplus
}
#endif
#endif
