/* ChemMech storage: the one-block allocator, lookup by name, the device rebase, composition
 * strings and the file hash. The YAML reader (mech_yaml.c) fills what this file allocates. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chem/mech.h"
#include "chem/thermo.h"
#include "core/error.h"

/* Arrays start on 64-byte boundaries: whole cache lines / GPU memory transactions. */
enum { CHEM_BLOCK_ALIGN = 64 };

/* Internal to src/chem: mech_yaml.c declares these two as well (no public header). */
int chem_mech_alloc(ChemMech *m, int ns, int ne, int nr, int n_reac, int n_prod, int n_ord,
                    int n_tb, int n_plog);
void chem_fnv1a64_hex(const unsigned char *bytes, size_t n, char hex[17]);

static size_t block_place(size_t *offset, size_t bytes) {
  size_t start = (*offset + CHEM_BLOCK_ALIGN - 1) / CHEM_BLOCK_ALIGN * CHEM_BLOCK_ALIGN;
  *offset = start + bytes;
  return start;
}

/* Lays the numeric arrays out in the block at base (NULL: only measure); returns the size. */
static size_t block_layout(ChemMech *m, char *base, int n_reac, int n_prod, int n_ord, int n_tb,
                           int n_plog) {
  size_t off = 0;
  size_t ns = (size_t)m->n_species, ne = (size_t)m->n_elements, nr = (size_t)m->n_reactions;
#define PLACE(field, count)                                                                        \
  do {                                                                                             \
    size_t at_ = block_place(&off, (size_t)(count) * sizeof(*m->field));                           \
    if (base) m->field = (void *)(base + at_);                                                     \
  } while (0)
  PLACE(mw, ns);
  PLACE(nasa, ns * 15);
  PLACE(t_range, ns * 2);
  PLACE(nasa_ext, ns * 7);
  PLACE(elem_comp, ns * ne);
  PLACE(elem_mw, ne);
  PLACE(rxn_type, nr);
  PLACE(reversible, nr);
  PLACE(rate, nr * 3);
  PLACE(rate_low, nr * 3);
  PLACE(falloff_kind, nr);
  PLACE(falloff_par, nr * 5);
  PLACE(dnu, nr);
  PLACE(reac_ptr, nr + 1);
  PLACE(reac_sp, n_reac);
  PLACE(reac_nu, n_reac);
  PLACE(prod_ptr, nr + 1);
  PLACE(prod_sp, n_prod);
  PLACE(prod_nu, n_prod);
  PLACE(ord_ptr, nr + 1);
  PLACE(ord_sp, n_ord);
  PLACE(ord_val, n_ord);
  PLACE(tb_ptr, nr + 1);
  PLACE(tb_sp, n_tb);
  PLACE(tb_eff, n_tb);
  PLACE(tb_default, nr);
  PLACE(plog_ptr, nr + 1);
  PLACE(plog, (size_t)n_plog * 4);
#undef PLACE
  return block_place(&off, 0);
}

/* Allocates the zeroed numeric block and the host-only name arrays of m (counts set here). */
int chem_mech_alloc(ChemMech *m, int ns, int ne, int nr, int n_reac, int n_prod, int n_ord,
                    int n_tb, int n_plog) {
  m->n_species = ns;
  m->n_elements = ne;
  m->n_reactions = nr;
  size_t bytes = block_layout(m, NULL, n_reac, n_prod, n_ord, n_tb, n_plog);
  if (bytes == 0) bytes = CHEM_BLOCK_ALIGN;
  m->block = aligned_alloc(CHEM_BLOCK_ALIGN, bytes);
  if (!m->block)
    return HX_ERROR(HX_ERR_MEM, "out of host memory allocating %zu bytes for the mechanism %s",
                    bytes, m->path);
  memset(m->block, 0, bytes);
  m->block_bytes = bytes;
  block_layout(m, m->block, n_reac, n_prod, n_ord, n_tb, n_plog);
  m->species_names = hx_calloc((size_t)ns, sizeof *m->species_names, "species names");
  m->element_names = hx_calloc((size_t)ne, sizeof *m->element_names, "element names");
  m->equations = hx_calloc((size_t)nr, sizeof *m->equations, "reaction equations");
  m->equation_line = hx_calloc((size_t)nr, sizeof *m->equation_line, "reaction lines");
  if (!m->species_names || !m->element_names || !m->equations || !m->equation_line)
    return HX_ERR_MEM;
  return HX_OK;
}

void chem_mech_free(ChemMech *m) {
  if (!m) return;
  free(m->block);
  free(m->species_names);
  free(m->element_names);
  if (m->equations)
    for (int r = 0; r < m->n_reactions; r++)
      free(m->equations[r]);
  free(m->equations);
  free(m->equation_line);
  free(m);
}

int chem_species_index(const ChemMech *m, const char *name) {
  for (int k = 0; k < m->n_species; k++)
    if (!strcmp(m->species_names[k], name)) return k;
  return -1;
}

int chem_element_index(const ChemMech *m, const char *name) {
  for (int e = 0; e < m->n_elements; e++)
    if (!strcmp(m->element_names[e], name)) return e;
  return -1;
}

/* The lowest T above each species' midpoint where its cp/R (the upper polynomial, extended beyond
 * the fit) drops to 1, i.e. cv <= 0, scanned in 10 K steps and kept 10 K below; CHEM_T_HIGH if
 * none does. */
double chem_mech_temperature_ceiling(const ChemMech *m) {
  double ceiling = CHEM_T_HIGH;
  for (int k = 0; k < m->n_species; k++)
    for (double T = m->nasa[15 * k]; T < ceiling; T += 10.0)
      if (chem_nasa_cp_R(chem_nasa_poly_coeffs(m, k, T), T) <= 1.0 + 1e-6) {
        ceiling = T - 10.0;
        break;
      }
  return ceiling;
}

/* Above T_hi: cp/R = a0 held at its value at T_hi; h/RT = a0 + a5/T and s/R = a0 ln T + a6
 * continue h and s at T_hi (a NASA-7 set with a1..a4 = 0). */
void chem_mech_set_ceiling(ChemMech *m) {
  const double T = chem_mech_temperature_ceiling(m);
  m->T_hi = T;
  for (int k = 0; k < m->n_species; k++) {
    const double *a = chem_nasa_poly_coeffs(m, k, T);
    double *x = m->nasa_ext + 7 * k;
    const double cp = chem_nasa_cp_R(a, T);
    x[0] = cp;
    x[1] = x[2] = x[3] = x[4] = 0.0;
    x[5] = (chem_nasa_h_RT(a, T, 1.0 / T) - cp) * T;
    x[6] = chem_nasa_s_R(a, T, log(T)) - cp * log(T);
  }
}

void chem_mech_rebase(const ChemMech *m, void *dev_block, ChemMech *dev) {
  *dev = *m;
#define REBASE(field)                                                                              \
  dev->field = (void *)((char *)dev_block + ((const char *)m->field - (const char *)m->block))
  REBASE(mw);
  REBASE(nasa);
  REBASE(nasa_ext);
  REBASE(t_range);
  REBASE(elem_comp);
  REBASE(elem_mw);
  REBASE(rxn_type);
  REBASE(reversible);
  REBASE(rate);
  REBASE(rate_low);
  REBASE(falloff_kind);
  REBASE(falloff_par);
  REBASE(dnu);
  REBASE(reac_ptr);
  REBASE(reac_sp);
  REBASE(reac_nu);
  REBASE(prod_ptr);
  REBASE(prod_sp);
  REBASE(prod_nu);
  REBASE(ord_ptr);
  REBASE(ord_sp);
  REBASE(ord_val);
  REBASE(tb_ptr);
  REBASE(tb_sp);
  REBASE(tb_eff);
  REBASE(tb_default);
  REBASE(plog_ptr);
  REBASE(plog);
#undef REBASE
  dev->block = dev_block;
  /* the host-only arrays have no device copy */
  dev->species_names = NULL;
  dev->element_names = NULL;
  dev->equations = NULL;
  dev->equation_line = NULL;
}

/* FNV-1a, 64 bit (Fowler, Noll, Vo; offset basis 14695981039346656037, prime 2^40 + 435) */
void chem_fnv1a64_hex(const unsigned char *bytes, size_t n, char hex[17]) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) {
    h ^= bytes[i];
    h *= 0x100000001b3ull;
  }
  snprintf(hex, 17, "%016llx", (unsigned long long)h);
}

static const char *skip_space(const char *s) {
  while (isspace((unsigned char)*s))
    s++;
  return s;
}

/* One "name[:amount]" item of a composition string (name and amount trimmed). */
static int parse_composition_item(const ChemMech *m, const char *item, const char *what,
                                  const char *spec, double *x) {
  char name[CHEM_NAME_LEN + 1];
  const char *colon = strchr(item, ':');
  const char *end = colon ? colon : item + strlen(item);
  while (end > item && isspace((unsigned char)end[-1]))
    end--;
  size_t len = (size_t)(end - item);
  if (len == 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "%s \"%s\": an empty species name; write NAME:AMOUNT pairs "
                    "separated by commas, e.g. \"H2:2,O2:1,N2:3.76\"",
                    what, spec);
  if (len > CHEM_NAME_LEN) len = CHEM_NAME_LEN;
  memcpy(name, item, len);
  name[len] = '\0';
  int k = chem_species_index(m, name);
  if (k < 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "%s \"%s\": species '%s' is not in the mechanism %s (%d species, "
                    "e.g. %s); names are case-sensitive",
                    what, spec, name, m->path, m->n_species,
                    m->n_species ? m->species_names[0] : "none");
  double amount = 1.0;
  if (colon) {
    const char *num = skip_space(colon + 1);
    char *stop;
    errno = 0;
    amount = strtod(num, &stop);
    if (stop == num || *skip_space(stop) != '\0' || errno || !isfinite(amount))
      return HX_ERROR(HX_ERR_INPUT,
                      "%s \"%s\": the amount of '%s' is not a number; write "
                      "NAME:AMOUNT, e.g. \"%s:1\"",
                      what, spec, name, name);
  }
  if (amount < 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "%s \"%s\": the amount of '%s' is negative (%g); amounts must be "
                    ">= 0",
                    what, spec, name, amount);
  if (x[k] != 0)
    return HX_ERROR(HX_ERR_INPUT, "%s \"%s\": species '%s' appears twice; give each species once",
                    what, spec, name);
  x[k] = amount;
  return HX_OK;
}

int chem_parse_composition(const ChemMech *m, const char *spec, const char *what, double *x) {
  for (int k = 0; k < m->n_species; k++)
    x[k] = 0;
  if (!spec || !*skip_space(spec))
    return HX_ERROR(HX_ERR_INPUT,
                    "%s is empty; give the composition as NAME:AMOUNT pairs, e.g. "
                    "\"H2:2,O2:1,N2:3.76\"",
                    what);
  size_t len = strlen(spec);
  char *copy = hx_malloc(len + 1, "composition string");
  HX_ALLOC_CHECK(copy);
  memcpy(copy, spec, len + 1);
  int rc = HX_OK;
  for (char *item = copy; item && rc == HX_OK;) {
    char *comma = strchr(item, ',');
    if (comma) *comma = '\0';
    rc = parse_composition_item(m, skip_space(item), what, spec, x);
    item = comma ? comma + 1 : NULL;
  }
  free(copy);
  if (rc != HX_OK) return rc;
  double sum = 0;
  for (int k = 0; k < m->n_species; k++)
    sum += x[k];
  if (!(sum > 0))
    return HX_ERROR(HX_ERR_INPUT,
                    "%s \"%s\": all amounts are zero; give at least one species a "
                    "positive amount",
                    what, spec);
  for (int k = 0; k < m->n_species; k++)
    x[k] /= sum;
  return HX_OK;
}
