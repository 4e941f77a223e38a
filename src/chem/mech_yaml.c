/* Reader of Cantera YAML mechanisms (https://cantera.org/stable/yaml/general.html, phases.html,
 * species.html, reactions.html) into a ChemMech. libyaml loads the file into its document tree
 * (every node carries its line); this file walks that tree: units, phase, elements, species
 * with NASA-7 thermo, reactions. Every value is converted to SI-kmol units on the way in. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "chem/mech.h"
#include "core/error.h"

/* mech.c */
int chem_mech_alloc(ChemMech *m, int ns, int ne, int nr, int n_reac, int n_prod, int n_ord,
                    int n_tb, int n_plog);
void chem_fnv1a64_hex(const unsigned char *bytes, size_t n, char hex[17]);

#define SUPPORTED_TYPES                                                                            \
  "hexdg supports elementary, three-body, falloff (Lindemann, Troe, SRI) and "                     \
  "pressure-dependent-Arrhenius reactions"
#define CK2YAML_HINT                                                                               \
  "convert Chemkin files with Cantera's ck2yaml, e.g. `ck2yaml --input=chem.inp "                  \
  "--thermo=therm.dat`, and give the .yaml file"

enum { MAX_SIDE = 32 };

/* ---------------------------------------------------------------------------------------------
 * Units: a unit is a factor to SI-kmol and the exponents of 6 base dimensions. */
enum { DIM_L, DIM_Q, DIM_T, DIM_E, DIM_M, DIM_K, N_DIM };
typedef struct {
  double factor;
  double dim[N_DIM];
} Unit;

typedef struct {
  const char *name;
  Unit unit;
} BaseUnit;

/* Cantera YAML format, "units" (general.html): the names a unit string may use */
static const BaseUnit base_units[] = {
    {"m", {1.0, {1, 0, 0, 0, 0, 0}}},
    {"cm", {1e-2, {1, 0, 0, 0, 0, 0}}},
    {"mm", {1e-3, {1, 0, 0, 0, 0, 0}}},
    {"km", {1e3, {1, 0, 0, 0, 0, 0}}},
    {"kmol", {1.0, {0, 1, 0, 0, 0, 0}}},
    {"mol", {1e-3, {0, 1, 0, 0, 0, 0}}},
    {"molec", {1.0 / CHEM_AVOGADRO, {0, 1, 0, 0, 0, 0}}},
    {"molecule", {1.0 / CHEM_AVOGADRO, {0, 1, 0, 0, 0, 0}}},
    {"mole", {1e-3, {0, 1, 0, 0, 0, 0}}},
    {"gmol", {1e-3, {0, 1, 0, 0, 0, 0}}},
    {"kmole", {1.0, {0, 1, 0, 0, 0, 0}}},
    {"s", {1.0, {0, 0, 1, 0, 0, 0}}},
    {"ms", {1e-3, {0, 0, 1, 0, 0, 0}}},
    {"us", {1e-6, {0, 0, 1, 0, 0, 0}}},
    {"min", {60.0, {0, 0, 1, 0, 0, 0}}},
    {"hr", {3600.0, {0, 0, 1, 0, 0, 0}}},
    {"J", {1.0, {0, 0, 0, 1, 0, 0}}},
    {"kJ", {1e3, {0, 0, 0, 1, 0, 0}}},
    {"cal", {CHEM_CAL, {0, 0, 0, 1, 0, 0}}},
    {"kcal", {1e3 * CHEM_CAL, {0, 0, 0, 1, 0, 0}}},
    {"eV", {1.602176634e-19, {0, 0, 0, 1, 0, 0}}}, /* CODATA 2018, exact */
    {"erg", {1e-7, {0, 0, 0, 1, 0, 0}}},
    {"kg", {1.0, {0, 0, 0, 0, 1, 0}}},
    {"g", {1e-3, {0, 0, 0, 0, 1, 0}}},
    {"K", {1.0, {0, 0, 0, 0, 0, 1}}},
    {"Pa", {1.0, {-3, 0, 0, 1, 0, 0}}},
    {"kPa", {1e3, {-3, 0, 0, 1, 0, 0}}},
    {"MPa", {1e6, {-3, 0, 0, 1, 0, 0}}},
    {"bar", {1e5, {-3, 0, 0, 1, 0, 0}}},
    {"atm", {CHEM_P_ATM, {-3, 0, 0, 1, 0, 0}}},
    {"dyn", {1e-5, {-1, 0, 0, 1, 0, 0}}},
    {"N", {1.0, {-1, 0, 0, 1, 0, 0}}},
};

static const double dim_pressure[N_DIM] = {-3, 0, 0, 1, 0, 0};

/* The file's default units (the top-level `units` block; Cantera's defaults without it). */
typedef struct {
  double base[N_DIM]; /* factor of the default unit of each base dimension */
  int has_act_energy; /* activation-energy given explicitly */
  Unit act_energy;    /* its unit */
  int has_pressure;
  double pressure; /* factor of the default pressure unit */
} UnitSystem;

/* ---------------------------------------------------------------------------------------------
 * Reader state */
typedef struct {
  int type, reversible, falloff_kind;
  double rate[3], rate_low[3], falloff_par[5], dnu, tb_default;
  int n_reac, n_prod, n_ord, n_tb, n_plog;
  char *equation;
  int line;
} RxnRec;

typedef struct {
  int *v;
  size_t n, cap;
} IVec;
typedef struct {
  double *v;
  size_t n, cap;
} DVec;

typedef struct {
  const char *path;
  yaml_document_t doc;
  UnitSystem units;
  yaml_node_t *phase;
  const char *phase_name;
  int skip_undeclared_tb;
  char warn[512]; /* species whose NASA-7 ranges disagree at T_mid */
  int n_warn;
  /* species and elements */
  int ns, ne;
  char (*sp_names)[CHEM_NAME_LEN];
  char el_names[CHEM_MAX_ELEMENTS][CHEM_NAME_LEN];
  double el_mw[CHEM_MAX_ELEMENTS];
  double *mw, *nasa, *t_range, *comp;
  /* reactions */
  int nr, cap_r;
  RxnRec *rx;
  IVec reac_sp, prod_sp, ord_sp, tb_sp;
  DVec reac_nu, prod_nu, ord_val, tb_eff, plog;
} Reader;

static int ivec_push(IVec *a, int x) {
  if (a->n == a->cap) {
    size_t cap = a->cap ? 2 * a->cap : 64;
    int *v = realloc(a->v, cap * sizeof *v);
    if (!v) return HX_ERROR(HX_ERR_MEM, "out of host memory reading a mechanism");
    a->v = v;
    a->cap = cap;
  }
  a->v[a->n++] = x;
  return HX_OK;
}

static int dvec_push(DVec *a, double x) {
  if (a->n == a->cap) {
    size_t cap = a->cap ? 2 * a->cap : 64;
    double *v = realloc(a->v, cap * sizeof *v);
    if (!v) return HX_ERROR(HX_ERR_MEM, "out of host memory reading a mechanism");
    a->v = v;
    a->cap = cap;
  }
  a->v[a->n++] = x;
  return HX_OK;
}

static void reader_free(Reader *rd) {
  yaml_document_delete(&rd->doc);
  free(rd->sp_names);
  free(rd->mw);
  free(rd->nasa);
  free(rd->t_range);
  free(rd->comp);
  for (int r = 0; r < rd->nr; r++)
    free(rd->rx[r].equation);
  free(rd->rx);
  free(rd->reac_sp.v);
  free(rd->prod_sp.v);
  free(rd->ord_sp.v);
  free(rd->tb_sp.v);
  free(rd->reac_nu.v);
  free(rd->prod_nu.v);
  free(rd->ord_val.v);
  free(rd->tb_eff.v);
  free(rd->plog.v);
}

static char *dup_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

/* Every input error: "FILE, line N: message" */
__attribute__((format(printf, 3, 4))) static int fail(const Reader *rd, int line, const char *fmt,
                                                      ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return HX_ERROR(HX_ERR_INPUT, "%s, line %d: %s", rd->path, line, msg);
}

/* ---------------------------------------------------------------------------------------------
 * Node access */
static int line_of(const yaml_node_t *n) {
  return n ? (int)n->start_mark.line + 1 : 0;
}

static yaml_node_t *node_at(Reader *rd, int id) {
  return yaml_document_get_node(&rd->doc, id);
}

static const char *scalar(const yaml_node_t *n) {
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static yaml_node_t *map_get(Reader *rd, const yaml_node_t *map, const char *key) {
  if (!map || map->type != YAML_MAPPING_NODE) return NULL;
  for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
    const char *k = scalar(node_at(rd, p->key));
    if (k && !strcmp(k, key)) return node_at(rd, p->value);
  }
  return NULL;
}

static int seq_len(const yaml_node_t *n) {
  return n && n->type == YAML_SEQUENCE_NODE
             ? (int)(n->data.sequence.items.top - n->data.sequence.items.start)
             : 0;
}

static yaml_node_t *seq_at(Reader *rd, const yaml_node_t *n, int i) {
  return node_at(rd, n->data.sequence.items.start[i]);
}

static int is_seq(const yaml_node_t *n) {
  return n && n->type == YAML_SEQUENCE_NODE;
}
static int is_map(const yaml_node_t *n) {
  return n && n->type == YAML_MAPPING_NODE;
}

static int is_true(const yaml_node_t *n) {
  const char *s = scalar(n);
  return s && (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE") || !strcmp(s, "yes"));
}

/* ---------------------------------------------------------------------------------------------
 * Numbers and units */

/* "cm^3/mol/s", "kJ/mol", "dyn/cm^2", "1/s": factors joined by '*' or '/' ('/' inverts the next
 * factor only, as in Cantera's unit strings). Returns 0 if a name is unknown (copied to bad). */
static int parse_unit(const char *text, Unit *u, char *bad, size_t bad_len) {
  *u = (Unit){1.0, {0}};
  const char *s = text;
  int sign = 1;
  while (*s) {
    while (isspace((unsigned char)*s))
      s++;
    char name[32];
    size_t n = 0;
    while (*s && isalpha((unsigned char)*s) && n < sizeof name - 1)
      name[n++] = *s++;
    name[n] = '\0';
    double power = 1.0;
    if (n == 0) {
      /* a bare number: only "1" as in "1/s" */
      char *stop;
      double one = strtod(s, &stop);
      if (stop == s || one != 1.0) {
        snprintf(bad, bad_len, "%s", text);
        return 0;
      }
      s = stop;
      power = 0.0;
    } else if (*s == '^') {
      char *stop;
      power = strtod(s + 1, &stop);
      if (stop == s + 1) {
        snprintf(bad, bad_len, "%s", text);
        return 0;
      }
      s = stop;
    }
    if (n > 0) {
      const BaseUnit *b = NULL;
      for (size_t i = 0; i < sizeof base_units / sizeof base_units[0]; i++)
        if (!strcmp(base_units[i].name, name)) b = &base_units[i];
      if (!b) {
        snprintf(bad, bad_len, "%s", name);
        return 0;
      }
      u->factor *= pow(b->unit.factor, sign * power);
      for (int d = 0; d < N_DIM; d++)
        u->dim[d] += sign * power * b->unit.dim[d];
    }
    while (isspace((unsigned char)*s))
      s++;
    if (*s == '*')
      sign = 1, s++;
    else if (*s == '/')
      sign = -1, s++;
    else if (*s) {
      snprintf(bad, bad_len, "%s", text);
      return 0;
    }
  }
  return 1;
}

static int same_dim(const double *a, const double *b) {
  for (int d = 0; d < N_DIM; d++)
    if (fabs(a[d] - b[d]) > 1e-9) return 0;
  return 1;
}

static void dim_string(const double *dim, char *buf, size_t len) {
  static const char *names[N_DIM] = {"length", "quantity", "time", "energy", "mass", "temperature"};
  size_t used = 0;
  buf[0] = '\0';
  for (int d = 0; d < N_DIM; d++)
    if (fabs(dim[d]) > 1e-12 && used < len)
      used +=
          (size_t)snprintf(buf + used, len - used, "%s%s^%g", used ? " " : "", names[d], dim[d]);
  if (!used) snprintf(buf, len, "dimensionless");
}

/* A plain number (no unit) at node n; `what` names it in the error. */
static int get_number(Reader *rd, const yaml_node_t *n, const char *what, const char *context,
                      double *v) {
  const char *s = scalar(n);
  if (!s) return fail(rd, line_of(n), "%s: %s must be a number", context, what);
  char *stop;
  errno = 0;
  *v = strtod(s, &stop);
  while (isspace((unsigned char)*stop))
    stop++;
  if (stop == s || *stop || errno == ERANGE)
    return fail(rd, line_of(n), "%s: %s = '%s' is not a number", context, what, s);
  return HX_OK;
}

/* A number with an optional unit string ("2.16e8 cm^3/mol/s"), in the dimension dim; without a
 * unit the file's default units apply (default_factor). Result in SI-kmol units. */
static int get_quantity(Reader *rd, const yaml_node_t *n, const char *what, const char *context,
                        const double *dim, double default_factor, double *v) {
  const char *s = scalar(n);
  if (!s)
    return fail(rd, line_of(n), "%s: %s must be a number (with optional units)", context, what);
  char *stop;
  errno = 0;
  double x = strtod(s, &stop);
  if (stop == s || errno == ERANGE)
    return fail(rd, line_of(n), "%s: %s = '%s' is not a number", context, what, s);
  while (isspace((unsigned char)*stop))
    stop++;
  if (!*stop) {
    *v = x * default_factor;
    return HX_OK;
  }
  Unit u;
  char bad[64];
  if (!parse_unit(stop, &u, bad, sizeof bad))
    return fail(rd, line_of(n),
                "%s: unknown unit '%s' in %s = '%s'; known units: m cm mm kmol "
                "mol molec s ms min J kJ cal kcal eV erg kg g K Pa bar atm dyn",
                context, bad, what, s);
  if (!same_dim(u.dim, dim)) {
    char want[128], got[128];
    dim_string(dim, want, sizeof want);
    dim_string(u.dim, got, sizeof got);
    return fail(rd, line_of(n), "%s: unit '%s' of %s has dimensions [%s], expected [%s]", context,
                stop, what, got, want);
  }
  *v = x * u.factor;
  return HX_OK;
}

static double default_factor(const UnitSystem *us, const double *dim) {
  if (us->has_pressure && same_dim(dim, dim_pressure)) return us->pressure;
  double f = 1.0;
  for (int d = 0; d < N_DIM; d++)
    if (dim[d] != 0) f *= pow(us->base[d], dim[d]);
  return f;
}

/* Ea/R in K from a unit of energy per quantity, energy per particle or temperature */
static int act_energy_to_K(const Unit *u, double value, double *ea_R) {
  static const double per_quantity[N_DIM] = {0, -1, 0, 1, 0, 0};
  static const double per_particle[N_DIM] = {0, 0, 0, 1, 0, 0};
  static const double temperature[N_DIM] = {0, 0, 0, 0, 0, 1};
  if (same_dim(u->dim, temperature))
    *ea_R = value * u->factor;
  else if (same_dim(u->dim, per_quantity))
    *ea_R = value * u->factor / CHEM_R;
  else if (same_dim(u->dim, per_particle))
    *ea_R = value * u->factor / CHEM_BOLTZMANN;
  else
    return 0;
  return 1;
}

static int get_act_energy(Reader *rd, const yaml_node_t *n, const char *context, double *ea_R) {
  const char *s = scalar(n);
  if (!s) return fail(rd, line_of(n), "%s: Ea must be a number (with optional units)", context);
  char *stop;
  errno = 0;
  double x = strtod(s, &stop);
  if (stop == s || errno == ERANGE)
    return fail(rd, line_of(n), "%s: Ea = '%s' is not a number", context, s);
  while (isspace((unsigned char)*stop))
    stop++;
  Unit u;
  if (!*stop) {
    if (rd->units.has_act_energy)
      u = rd->units.act_energy;
    else
      u = (Unit){rd->units.base[DIM_E] / rd->units.base[DIM_Q], {0, -1, 0, 1, 0, 0}};
  } else {
    char bad[64];
    if (!parse_unit(stop, &u, bad, sizeof bad))
      return fail(rd, line_of(n),
                  "%s: unknown unit '%s' in Ea = '%s'; use e.g. J/kmol, J/mol, "
                  "kJ/mol, cal/mol, kcal/mol, K or eV",
                  context, bad, s);
  }
  if (!act_energy_to_K(&u, x, ea_R))
    return fail(rd, line_of(n),
                "%s: Ea = '%s' is not an energy per quantity, an energy or a "
                "temperature",
                context, s);
  return HX_OK;
}

/* The top-level `units` block (Cantera YAML format, general.html "units") */
static int read_units(Reader *rd, const yaml_node_t *root) {
  UnitSystem *us = &rd->units;
  for (int d = 0; d < N_DIM; d++)
    us->base[d] = 1.0; /* m, kmol, s, J, kg, K */
  const yaml_node_t *block = map_get(rd, root, "units");
  if (!block) return HX_OK;
  if (!is_map(block))
    return fail(rd, line_of(block),
                "`units` must be a mapping, e.g. {length: cm, quantity: mol, "
                "activation-energy: cal/mol}");
  static const struct {
    const char *key;
    int dim;
  } keys[] = {{"length", DIM_L},         {"quantity", DIM_Q}, {"time", DIM_T},
              {"energy", DIM_E},         {"mass", DIM_M},     {"temperature", DIM_K},
              {"activation-energy", -1}, {"pressure", -2}};
  for (yaml_node_pair_t *p = block->data.mapping.pairs.start; p < block->data.mapping.pairs.top;
       p++) {
    const yaml_node_t *kn = node_at(rd, p->key), *vn = node_at(rd, p->value);
    const char *key = scalar(kn), *val = scalar(vn);
    int which = -3;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
      if (key && !strcmp(key, keys[i].key)) which = keys[i].dim;
    if (which == -3)
      return fail(rd, line_of(kn),
                  "unknown key '%s' in `units`; known: length, quantity, time, "
                  "energy, mass, temperature, activation-energy, pressure",
                  key ? key : "?");
    Unit u;
    char bad[64];
    if (!val || !parse_unit(val, &u, bad, sizeof bad))
      return fail(rd, line_of(vn), "unknown unit '%s' for `%s` in `units`", val ? bad : "?", key);
    double want[N_DIM] = {0};
    if (which >= 0) want[which] = 1;
    if (which == -2) memcpy(want, dim_pressure, sizeof want);
    double ea;
    if (which == -1 ? !act_energy_to_K(&u, 1.0, &ea) : !same_dim(u.dim, want))
      return fail(rd, line_of(vn), "unit '%s' does not fit `%s` in `units`", val, key);
    if (which >= 0)
      us->base[which] = u.factor;
    else if (which == -1)
      us->has_act_energy = 1, us->act_energy = u;
    else
      us->has_pressure = 1, us->pressure = u.factor;
  }
  return HX_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Elements */

/* IUPAC standard atomic weights (abridged, as Cantera's element table), kg/kmol; D: 2H mass;
 * E: the electron, CODATA 2018 mass times N_A. */
static const struct {
  const char *symbol;
  double weight;
} atomic_weights[] = {
    {"H", 1.008},        {"D", 2.0141017781},
    {"Tr", 3.016049282}, {"He", 4.002602},
    {"Li", 6.94},        {"Be", 9.0121831},
    {"B", 10.81},        {"C", 12.011},
    {"N", 14.007},       {"O", 15.999},
    {"F", 18.998403163}, {"Ne", 20.1797},
    {"Na", 22.98976928}, {"Mg", 24.305},
    {"Al", 26.9815384},  {"Si", 28.085},
    {"P", 30.973761998}, {"S", 32.06},
    {"Cl", 35.45},       {"Ar", 39.95},
    {"K", 39.0983},      {"Ca", 40.078},
    {"Fe", 55.845},      {"Br", 79.904},
    {"Kr", 83.798},      {"I", 126.90447},
    {"Xe", 131.293},     {"E", 9.1093837015e-31 * CHEM_AVOGADRO},
};

/* The weight of element `symbol`: a top-level `elements` section entry, else the table
 * (case-insensitive, as Cantera accepts "AR" for Ar). */
static int element_weight(Reader *rd, const yaml_node_t *root, const char *symbol, int line,
                          double *w) {
  const yaml_node_t *custom = map_get(rd, root, "elements");
  for (int i = 0; i < seq_len(custom); i++) {
    const yaml_node_t *el = seq_at(rd, custom, i);
    const char *s = scalar(map_get(rd, el, "symbol"));
    if (s && !strcmp(s, symbol)) {
      char ctx[96];
      snprintf(ctx, sizeof ctx, "element '%s'", symbol);
      return get_number(rd, map_get(rd, el, "atomic-weight"), "atomic-weight", ctx, w);
    }
  }
  for (size_t i = 0; i < sizeof atomic_weights / sizeof atomic_weights[0]; i++) {
    const char *a = atomic_weights[i].symbol, *b = symbol;
    while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b))
      a++, b++;
    if (!*a && !*b) {
      *w = atomic_weights[i].weight;
      return HX_OK;
    }
  }
  return fail(rd, line,
              "element '%s' has no atomic weight in hexdg's table; define it in a "
              "top-level `elements` section (- symbol: %s, atomic-weight: ...)",
              symbol, symbol);
}

static int add_element(Reader *rd, const yaml_node_t *root, const char *name, int line) {
  if (rd->ne == CHEM_MAX_ELEMENTS)
    return fail(rd, line, "more than %d elements; hexdg's limit is CHEM_MAX_ELEMENTS = %d",
                CHEM_MAX_ELEMENTS, CHEM_MAX_ELEMENTS);
  if (strlen(name) >= CHEM_NAME_LEN)
    return fail(rd, line, "element name '%s' is longer than %d characters", name,
                CHEM_NAME_LEN - 1);
  for (int e = 0; e < rd->ne; e++)
    if (!strcmp(rd->el_names[e], name))
      return fail(rd, line, "element '%s' listed twice in phase '%s'", name, rd->phase_name);
  HX_CHECK(element_weight(rd, root, name, line, &rd->el_mw[rd->ne]));
  snprintf(rd->el_names[rd->ne], CHEM_NAME_LEN, "%s", name);
  rd->ne++;
  return HX_OK;
}

/* The phase's `elements` list, or (when absent) the elements of its species in order. */
static int read_elements(Reader *rd, const yaml_node_t *root, yaml_node_t **species, int ns) {
  const yaml_node_t *list = map_get(rd, rd->phase, "elements");
  if (list) {
    if (!is_seq(list))
      return fail(rd, line_of(list),
                  "`elements` of phase '%s' must be a list of symbols, e.g. "
                  "[O, H, N]",
                  rd->phase_name);
    for (int i = 0; i < seq_len(list); i++) {
      const yaml_node_t *el = seq_at(rd, list, i);
      if (!scalar(el))
        return fail(rd, line_of(el),
                    "`elements` of phase '%s': give element symbols (element "
                    "sections are not supported)",
                    rd->phase_name);
      HX_CHECK(add_element(rd, root, scalar(el), line_of(el)));
    }
    return HX_OK;
  }
  for (int k = 0; k < ns; k++) {
    const yaml_node_t *comp = map_get(rd, species[k], "composition");
    if (!is_map(comp)) continue;
    for (yaml_node_pair_t *p = comp->data.mapping.pairs.start; p < comp->data.mapping.pairs.top;
         p++) {
      const char *el = scalar(node_at(rd, p->key));
      int known = 0;
      for (int e = 0; e < rd->ne; e++)
        known |= el && !strcmp(rd->el_names[e], el);
      if (el && !known) HX_CHECK(add_element(rd, root, el, line_of(node_at(rd, p->key))));
    }
  }
  return HX_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Phase and species selection */

static int pick_phase(Reader *rd, const yaml_node_t *root, const char *phase_name) {
  const yaml_node_t *phases = map_get(rd, root, "phases");
  if (!is_seq(phases))
    return fail(rd, line_of(root), "no `phases` list: not a Cantera YAML mechanism; %s",
                CK2YAML_HINT);
  char seen[512] = "";
  size_t used = 0;
  for (int i = 0; i < seq_len(phases); i++) {
    yaml_node_t *ph = seq_at(rd, phases, i);
    const char *name = scalar(map_get(rd, ph, "name"));
    const char *thermo = scalar(map_get(rd, ph, "thermo"));
    if (used < sizeof seen)
      used += (size_t)snprintf(seen + used, sizeof seen - used, "%s'%s' (%s)", used ? ", " : "",
                               name ? name : "?", thermo ? thermo : "?");
    int match =
        phase_name ? name && !strcmp(name, phase_name) : thermo && !strcmp(thermo, "ideal-gas");
    if (!match) continue;
    if (phase_name && (!thermo || strcmp(thermo, "ideal-gas")))
      return fail(rd, line_of(ph), "phase '%s' has thermo '%s'; hexdg supports thermo: ideal-gas",
                  phase_name, thermo ? thermo : "(none)");
    rd->phase = ph;
    rd->phase_name = name ? name : "(unnamed)";
    return HX_OK;
  }
  if (phase_name)
    return fail(rd, line_of(phases), "no phase named '%s'; the phases are %s", phase_name, seen);
  return fail(rd, line_of(phases), "no phase with thermo: ideal-gas; the phases are %s", seen);
}

static yaml_node_t *find_named(Reader *rd, const yaml_node_t *section, const char *name) {
  for (int i = 0; i < seq_len(section); i++) {
    yaml_node_t *n = seq_at(rd, section, i);
    const char *s = scalar(map_get(rd, n, "name"));
    if (s && !strcmp(s, name)) return n;
  }
  return NULL;
}

/* A top-level section named in the phase (species or reactions); errors when it is missing. */
static int get_section(Reader *rd, const yaml_node_t *root, const char *name, int line,
                       const char *kind, yaml_node_t **out) {
  if (strchr(name, '/'))
    return fail(rd, line,
                "phase '%s' takes %s from '%s' in another file; hexdg reads one file: "
                "copy that section into %s",
                rd->phase_name, kind, name, rd->path);
  *out = map_get(rd, root, name);
  if (!*out)
    return fail(rd, line,
                "phase '%s' takes its %s from section '%s', which the file does not "
                "have",
                rd->phase_name, kind, name);
  if (!is_seq(*out))
    return fail(rd, line_of(*out), "section '%s' must be a list of %s", name, kind);
  return HX_OK;
}

/* Appends the species nodes of `section` selected by `which` (`all` or a list of names). */
static int select_species(Reader *rd, yaml_node_t *section, const char *section_name,
                          const yaml_node_t *which, yaml_node_t ***list, int *n, int *cap) {
  int all = scalar(which) && !strcmp(scalar(which), "all");
  if (!all && !is_seq(which))
    return fail(rd, line_of(which), "`species` of phase '%s' must be `all` or a list of names",
                rd->phase_name);
  int count = all ? seq_len(section) : seq_len(which);
  for (int i = 0; i < count; i++) {
    yaml_node_t *sp;
    if (all) {
      sp = seq_at(rd, section, i);
    } else {
      const yaml_node_t *nm = seq_at(rd, which, i);
      if (!scalar(nm))
        return fail(rd, line_of(nm), "`species` of phase '%s': expected a species name",
                    rd->phase_name);
      sp = find_named(rd, section, scalar(nm));
      if (!sp)
        return fail(rd, line_of(nm),
                    "species '%s' listed in phase '%s' is not defined in "
                    "section '%s'; add its definition (name, composition, thermo)",
                    scalar(nm), rd->phase_name, section_name);
    }
    if (*n == *cap) {
      *cap = *cap ? 2 * *cap : 64;
      yaml_node_t **grown = realloc(*list, (size_t)*cap * sizeof **list);
      if (!grown) return HX_ERROR(HX_ERR_MEM, "out of host memory reading %s", rd->path);
      *list = grown;
    }
    (*list)[(*n)++] = sp;
  }
  return HX_OK;
}

/* The species nodes of the phase, in phase order (Cantera YAML format, phases.html "species") */
static int phase_species(Reader *rd, yaml_node_t *root, yaml_node_t ***list, int *n) {
  int cap = 0;
  *list = NULL;
  *n = 0;
  const yaml_node_t *spec = map_get(rd, rd->phase, "species");
  int line = spec ? line_of(spec) : line_of(rd->phase);
  yaml_node_t *section;
  if (!spec || scalar(spec) || (is_seq(spec) && seq_len(spec) > 0 && scalar(seq_at(rd, spec, 0)))) {
    HX_CHECK(get_section(rd, root, "species", line, "species", &section));
    yaml_node_t all = {0};
    all.type = YAML_SCALAR_NODE;
    all.data.scalar.value = (yaml_char_t *)"all";
    return select_species(rd, section, "species", spec ? spec : &all, list, n, &cap);
  }
  if (!is_seq(spec))
    return fail(rd, line,
                "`species` of phase '%s' must be a list of names, `all`, or a list "
                "of {section: all or [names]}",
                rd->phase_name);
  for (int i = 0; i < seq_len(spec); i++) {
    const yaml_node_t *item = seq_at(rd, spec, i);
    if (!is_map(item))
      return fail(rd, line_of(item),
                  "`species` of phase '%s': expected {section: all or "
                  "[names]}",
                  rd->phase_name);
    for (yaml_node_pair_t *p = item->data.mapping.pairs.start; p < item->data.mapping.pairs.top;
         p++) {
      const char *name = scalar(node_at(rd, p->key));
      HX_CHECK(get_section(rd, root, name ? name : "?", line_of(item), "species", &section));
      HX_CHECK(select_species(rd, section, name, node_at(rd, p->value), list, n, &cap));
    }
  }
  return HX_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Species */

static int species_index(const Reader *rd, const char *name) {
  for (int k = 0; k < rd->ns; k++)
    if (!strcmp(rd->sp_names[k], name)) return k;
  return -1;
}

/* cp/R, h/RT, s/R of one NASA-7 range (McBride et al., NASA TM-4513, eqs. 4.9-4.11) */
static void nasa7_eval(const double *a, double T, double out[3]) {
  out[0] = a[0] + T * (a[1] + T * (a[2] + T * (a[3] + T * a[4])));
  out[1] = a[0] + T * (a[1] / 2 + T * (a[2] / 3 + T * (a[3] / 4 + T * a[4] / 5))) + a[5] / T;
  out[2] = a[0] * log(T) + T * (a[1] + T * (a[2] / 2 + T * (a[3] / 3 + T * a[4] / 4))) + a[6];
}

/* `thermo: {model: NASA7, temperature-ranges: [T0, T1(, T2)], data: [[7], ([7])]}`
 * (Cantera YAML format, species.html "NASA 7-coefficient polynomials") */
static int read_nasa7(Reader *rd, const yaml_node_t *sp, int k) {
  const char *name = rd->sp_names[k];
  const yaml_node_t *th = map_get(rd, sp, "thermo");
  if (!th)
    return fail(rd, line_of(sp),
                "species '%s' has no `thermo`; hexdg needs NASA-7 polynomials "
                "(thermo: {model: NASA7, temperature-ranges: [...], data: [...]})",
                name);
  const char *model = scalar(map_get(rd, th, "model"));
  if (!model || strcmp(model, "NASA7"))
    return fail(rd, line_of(th),
                "species '%s': thermo model '%s' is not supported; hexdg supports "
                "model: NASA7 (refit NASA9/Shomate/constant-cp data as NASA-7)",
                name, model ? model : "(none)");
  char ctx[96];
  snprintf(ctx, sizeof ctx, "species '%s'", name);
  const yaml_node_t *tr = map_get(rd, th, "temperature-ranges");
  const yaml_node_t *data = map_get(rd, th, "data");
  int nt = seq_len(tr);
  if (nt != 2 && nt != 3)
    return fail(rd, line_of(tr ? tr : th),
                "species '%s': temperature-ranges needs 2 or 3 "
                "temperatures [T_min, (T_mid,) T_max], found %d",
                name, nt);
  double T[3];
  for (int i = 0; i < nt; i++)
    HX_CHECK(get_number(rd, seq_at(rd, tr, i), "temperature-ranges", ctx, &T[i]));
  for (int i = 1; i < nt; i++)
    if (!(T[i] > T[i - 1]))
      return fail(rd, line_of(tr), "species '%s': temperature-ranges must increase (%g then %g)",
                  name, T[i - 1], T[i]);
  if (!(T[0] > 0))
    return fail(rd, line_of(tr), "species '%s': temperature-ranges must be positive", name);
  if (seq_len(data) != nt - 1)
    return fail(rd, line_of(data ? data : th),
                "species '%s': %d temperature ranges need %d data "
                "sets of 7 coefficients, found %d",
                name, nt - 1, nt - 1, seq_len(data));
  double *c = rd->nasa + 15 * k;
  for (int set = 0; set < nt - 1; set++) {
    const yaml_node_t *d = seq_at(rd, data, set);
    if (seq_len(d) != 7)
      return fail(rd, line_of(d), "species '%s': NASA-7 data set %d has %d coefficients, needs 7",
                  name, set + 1, seq_len(d));
    for (int j = 0; j < 7; j++)
      HX_CHECK(get_number(rd, seq_at(rd, d, j), "a NASA-7 coefficient", ctx, &c[1 + 7 * set + j]));
  }
  if (nt == 2) memcpy(c + 8, c + 1, 7 * sizeof *c); /* one range: same set on both sides */
  c[0] = T[1];                                      /* T_mid; T_max for one range */
  rd->t_range[2 * k] = T[0];
  rd->t_range[2 * k + 1] = T[nt - 1];
  if (nt == 3) {
    double lo[3], hi[3];
    nasa7_eval(c + 1, T[1], lo);
    nasa7_eval(c + 8, T[1], hi);
    double jump = fmax(fabs(lo[0] - hi[0]), fmax(fabs(lo[1] - hi[1]), fabs(lo[2] - hi[2])));
    size_t used = strlen(rd->warn);
    if (jump > 1e-4 && rd->n_warn++ < 12)
      snprintf(rd->warn + used, sizeof rd->warn - used, "%s%s (line %d, %.2g)",
               rd->n_warn > 1 ? ", " : "", name, line_of(th), jump);
  }
  return HX_OK;
}

static int read_species(Reader *rd, yaml_node_t **nodes) {
  int ns = rd->ns, ne = rd->ne;
  rd->sp_names = calloc((size_t)ns + 1, sizeof *rd->sp_names);
  rd->mw = calloc((size_t)ns + 1, sizeof *rd->mw);
  rd->nasa = calloc((size_t)ns * 15 + 1, sizeof *rd->nasa);
  rd->t_range = calloc((size_t)ns * 2 + 1, sizeof *rd->t_range);
  rd->comp = calloc((size_t)ns * ne + 1, sizeof *rd->comp);
  if (!rd->sp_names || !rd->mw || !rd->nasa || !rd->t_range || !rd->comp)
    return HX_ERROR(HX_ERR_MEM, "out of host memory reading %s", rd->path);
  for (int k = 0; k < ns; k++) {
    const yaml_node_t *sp = nodes[k];
    const char *name = scalar(map_get(rd, sp, "name"));
    if (!name) return fail(rd, line_of(sp), "a species without `name`");
    if (strlen(name) >= CHEM_NAME_LEN)
      return fail(rd, line_of(sp), "species name '%s' is longer than %d characters", name,
                  CHEM_NAME_LEN - 1);
    if (species_index(rd, name) >= 0)
      return fail(rd, line_of(sp), "species '%s' appears twice in phase '%s'", name,
                  rd->phase_name);
    snprintf(rd->sp_names[k], CHEM_NAME_LEN, "%s", name);
    const yaml_node_t *comp = map_get(rd, sp, "composition");
    if (!is_map(comp))
      return fail(rd, line_of(sp), "species '%s' has no `composition` mapping, e.g. {H: 2, O: 1}",
                  name);
    char ctx[96];
    snprintf(ctx, sizeof ctx, "species '%s'", name);
    for (yaml_node_pair_t *p = comp->data.mapping.pairs.start; p < comp->data.mapping.pairs.top;
         p++) {
      const yaml_node_t *kn = node_at(rd, p->key);
      const char *el = scalar(kn);
      int e = -1;
      for (int i = 0; i < ne; i++)
        if (el && !strcmp(rd->el_names[i], el)) e = i;
      if (e < 0)
        return fail(rd, line_of(kn),
                    "species '%s' contains element '%s', which phase '%s' does "
                    "not declare; add it to the phase's `elements`",
                    name, el ? el : "?", rd->phase_name);
      double count;
      HX_CHECK(get_number(rd, node_at(rd, p->value), "an atom count", ctx, &count));
      if (count < 0 && strcmp(el, "E"))
        return fail(rd, line_of(kn), "species '%s': negative count of element '%s'", name, el);
      rd->comp[(size_t)k * ne + e] = count;
    }
    double w = 0;
    for (int e = 0; e < ne; e++)
      w += rd->comp[(size_t)k * ne + e] * rd->el_mw[e];
    rd->mw[k] = w;
    HX_CHECK(read_nasa7(rd, sp, k));
  }
  /* a jump at T_mid is what the data say, not an input error: one line for the user */
  if (rd->n_warn)
    fprintf(stderr,
            "hexdg warning: %s: NASA-7 ranges of %d species disagree at T_mid by more "
            "than 1e-4 in cp/R, h/RT or s/R: %s%s\n",
            rd->path, rd->n_warn, rd->warn, rd->n_warn > 12 ? ", ..." : "");
  return HX_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Reaction equations: whitespace-separated tokens (Cantera YAML format, reactions.html) */
typedef struct {
  int n;
  int sp[MAX_SIDE];
  double nu[MAX_SIDE];
} Side;

typedef struct {
  Side side[2];
  int reversible;
  int has_M[2];   /* `+ M` on each side */
  int falloff[2]; /* a `(+X)` token on each side */
  int partner[2]; /* its species, -1 for M */
} Equation;

enum { EQ_OK = 0, EQ_UNKNOWN_SPECIES = -1 };

static int side_add(Reader *rd, int line, const char *eq, Side *s, int k, double nu) {
  for (int i = 0; i < s->n; i++)
    if (s->sp[i] == k) {
      s->nu[i] += nu;
      return HX_OK;
    }
  if (s->n == MAX_SIDE)
    return fail(rd, line, "reaction '%s' has more than %d species on one side", eq, MAX_SIDE);
  s->sp[s->n] = k;
  s->nu[s->n++] = nu;
  return HX_OK;
}

/* "(+M)" or "(+AR)": the partner into *partner (-1: M); 0 if tok is not such a token */
static int falloff_token(const Reader *rd, const char *tok, size_t len, int *partner, int *known) {
  if (len < 4 || tok[0] != '(' || tok[1] != '+' || tok[len - 1] != ')') return 0;
  char name[CHEM_NAME_LEN];
  size_t n = len - 3;
  if (n >= CHEM_NAME_LEN) return 0;
  memcpy(name, tok + 2, n);
  name[n] = '\0';
  *known = 1;
  if (!strcmp(name, "M"))
    *partner = -1;
  else {
    *partner = species_index(rd, name);
    *known = *partner >= 0;
  }
  return 1;
}

/* Writes eq with falloff markers in one token: "( + M )" and "OH(+M)" become "(+M)" and
 * "OH (+M)" (Cantera accepts the spaced forms). Returns 0 if it does not fit. */
static int normalise_falloff(const char *eq, char *out, size_t len) {
  size_t o = 0;
  for (const char *s = eq; *s;) {
    const char *t = s;
    if (*t == '(') {
      t++;
      while (*t == ' ')
        t++;
    }
    if (*s == '(' && *t == '+') {
      t++;
      while (*t == ' ')
        t++;
      const char *name = t;
      while (*t && *t != ')' && *t != ' ')
        t++;
      const char *name_end = t;
      while (*t == ' ')
        t++;
      if (*t == ')' && name_end > name) {
        size_t n = (size_t)(name_end - name);
        if (o + n + 5 >= len) return 0;
        if (o > 0 && out[o - 1] != ' ') out[o++] = ' ';
        out[o++] = '(';
        out[o++] = '+';
        memcpy(out + o, name, n);
        o += n;
        out[o++] = ')';
        s = t + 1;
        continue;
      }
    }
    if (o + 2 >= len) return 0;
    out[o++] = *s++;
  }
  out[o] = '\0';
  return 1;
}

/* Splits `eq` into species, coefficients, direction and third-body markers. Returns
 * EQ_UNKNOWN_SPECIES (name in unknown) without an error message when a species is not in the
 * phase, so that `declared-species` can skip the reaction. */
static int parse_equation(Reader *rd, const char *eq, int line, Equation *out, char *unknown) {
  memset(out, 0, sizeof *out);
  out->partner[0] = out->partner[1] = -2;
  char norm[1024];
  if (!normalise_falloff(eq, norm, sizeof norm))
    return fail(rd, line, "reaction equation '%.200s...' is too long", eq);
  int side = 0, have_dir = 0;
  double coef = 1.0;
  int want_species = 1, have_coef = 0;
  const char *s = norm;
  while (*s) {
    while (isspace((unsigned char)*s))
      s++;
    if (!*s) break;
    const char *t = s;
    while (*s && !isspace((unsigned char)*s))
      s++;
    size_t len = (size_t)(s - t);
    char tok[128];
    if (len >= sizeof tok) return fail(rd, line, "reaction '%s': token too long", eq);
    memcpy(tok, t, len);
    tok[len] = '\0';
    if (!strcmp(tok, "<=>") || !strcmp(tok, "=") || !strcmp(tok, "=>")) {
      if (have_dir || want_species) return fail(rd, line, "reaction '%s': misplaced '%s'", eq, tok);
      out->reversible = strcmp(tok, "=>") != 0;
      have_dir = 1;
      side = 1;
      want_species = 1;
      continue;
    }
    if (!strcmp(tok, "<="))
      return fail(rd, line, "reaction '%s': write '<=>' or '=>', not '<='", eq);
    if (!strcmp(tok, "+")) {
      if (want_species) return fail(rd, line, "reaction '%s': misplaced '+'", eq);
      want_species = 1;
      continue;
    }
    int partner, known;
    if (falloff_token(rd, tok, len, &partner, &known)) {
      if (!known) {
        snprintf(unknown, CHEM_NAME_LEN, "%.*s", (int)len - 3, tok + 2);
        return EQ_UNKNOWN_SPECIES;
      }
      if (out->falloff[side])
        return fail(rd, line, "reaction '%s': two (+M) tokens on one side", eq);
      out->falloff[side] = 1;
      out->partner[side] = partner;
      continue;
    }
    if (!want_species)
      return fail(rd, line, "reaction '%s': '%s' follows a species without '+' between them", eq,
                  tok);
    int k = species_index(rd, tok);
    char *name = tok;
    if (k < 0 && strcmp(tok, "M")) {
      /* a coefficient: a whole token ("2 O") or a prefix ("2O") */
      char *stop = tok;
      double x = (isdigit((unsigned char)tok[0]) || tok[0] == '.') ? strtod(tok, &stop) : 0;
      if (x > 0 && *stop == '\0' && !have_coef) {
        coef = x;
        have_coef = 1;
        continue;
      }
      if (x > 0 && *stop && !have_coef && (species_index(rd, stop) >= 0 || !strcmp(stop, "M"))) {
        coef = x;
        name = stop;
        k = species_index(rd, stop);
      }
    }
    if (!strcmp(name, "M")) {
      if (coef != 1.0 || out->has_M[side])
        return fail(rd, line, "reaction '%s': M must appear once per side without a coefficient",
                    eq);
      out->has_M[side] = 1;
    } else if (k < 0) {
      snprintf(unknown, CHEM_NAME_LEN, "%.31s", tok);
      return EQ_UNKNOWN_SPECIES;
    } else {
      HX_CHECK(side_add(rd, line, eq, &out->side[side], k, coef));
    }
    coef = 1.0;
    have_coef = 0;
    want_species = 0;
  }
  if (!have_dir) return fail(rd, line, "reaction '%s' has no '<=>', '=' or '=>'", eq);
  if (want_species || have_coef) return fail(rd, line, "reaction '%s' ends without a species", eq);
  if (out->side[0].n == 0 || out->side[1].n == 0)
    return fail(rd, line, "reaction '%s' needs reactants and products", eq);
  if (out->has_M[0] != out->has_M[1])
    return fail(rd, line, "reaction '%s': M must appear on both sides", eq);
  if (out->falloff[0] != out->falloff[1] || out->partner[0] != out->partner[1])
    return fail(rd, line, "reaction '%s': the same (+M) or (+species) must appear on both sides",
                eq);
  if (out->falloff[0] && out->has_M[0])
    return fail(rd, line, "reaction '%s': both (+M) and + M", eq);
  return EQ_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Reactions */

/* Arrhenius {A, b, Ea} (or [A, b, Ea]); A of a rate of total order `order` in concentration
 * (Cantera YAML format, reactions.html "Arrhenius"). */
static int read_arrhenius(Reader *rd, const yaml_node_t *n, double order, const char *key,
                          const char *eq, int negative_ok, double out[3]) {
  char ctx[256];
  snprintf(ctx, sizeof ctx, "reaction '%s', %s", eq, key);
  const yaml_node_t *A, *b, *Ea;
  if (is_map(n)) {
    A = map_get(rd, n, "A");
    b = map_get(rd, n, "b");
    Ea = map_get(rd, n, "Ea");
  } else if (seq_len(n) == 3) {
    A = seq_at(rd, n, 0);
    b = seq_at(rd, n, 1);
    Ea = seq_at(rd, n, 2);
  } else {
    return fail(rd, line_of(n), "%s must be {A: ..., b: ..., Ea: ...}", ctx);
  }
  if (!A || !b || !Ea)
    return fail(rd, line_of(n), "%s needs A, b and Ea (missing %s)", ctx,
                !A   ? "A"
                : !b ? "b"
                     : "Ea");
  double dim[N_DIM] = {3 * (order - 1), -(order - 1), -1, 0, 0, 0};
  HX_CHECK(get_quantity(rd, A, "A", ctx, dim, default_factor(&rd->units, dim), &out[0]));
  HX_CHECK(get_number(rd, b, "b", ctx, &out[1]));
  HX_CHECK(get_act_energy(rd, Ea, ctx, &out[2]));
  if (out[0] < 0 && !negative_ok)
    return fail(rd, line_of(A), "%s: negative A; add `negative-A: true` if that is intended", ctx);
  return HX_OK;
}

static int rxn_type_of(Reader *rd, const yaml_node_t *node, const Equation *e, const char *eq,
                       int line, int *type) {
  const yaml_node_t *tn = map_get(rd, node, "type");
  const char *t = scalar(tn);
  if (!tn) {
    *type = e->falloff[0] ? CHEM_RXN_FALLOFF
            : e->has_M[0] ? CHEM_RXN_THREE_BODY
                          : CHEM_RXN_ELEMENTARY;
    return HX_OK;
  }
  if (t && (!strcmp(t, "elementary") || !strcmp(t, "Arrhenius")))
    *type = CHEM_RXN_ELEMENTARY;
  else if (t && !strcmp(t, "three-body"))
    *type = CHEM_RXN_THREE_BODY;
  else if (t && !strcmp(t, "falloff"))
    *type = CHEM_RXN_FALLOFF;
  else if (t && !strcmp(t, "pressure-dependent-Arrhenius"))
    *type = CHEM_RXN_PLOG;
  else
    return fail(rd, line_of(tn),
                "reaction '%s' (line %d) has type '%s', which hexdg does not "
                "support; " SUPPORTED_TYPES,
                eq, line, t ? t : "?");
  if (*type == CHEM_RXN_FALLOFF && !e->falloff[0])
    return fail(rd, line, "falloff reaction '%s' needs (+M) or (+species) on both sides", eq);
  if (*type != CHEM_RXN_FALLOFF && e->falloff[0])
    return fail(rd, line, "reaction '%s' has (+M) but type '%s'; use type: falloff", eq, t);
  if (*type != CHEM_RXN_THREE_BODY && e->has_M[0])
    return fail(rd, line, "reaction '%s' has + M but type '%s'; use type: three-body", eq, t);
  return HX_OK;
}

/* `type: three-body` without M: the species on both sides is the collision partner; it leaves
 * the stoichiometry (Cantera YAML format, reactions.html "three-body"). */
static int explicit_partner(Reader *rd, Equation *e, const char *eq, int line, int *partner) {
  int found = -1, n_found = 0;
  for (int i = 0; i < e->side[0].n; i++)
    for (int j = 0; j < e->side[1].n; j++)
      if (e->side[0].sp[i] == e->side[1].sp[j] && e->side[0].nu[i] >= 1 && e->side[1].nu[j] >= 1)
        found = e->side[0].sp[i], n_found++;
  if (n_found != 1)
    return fail(rd, line,
                "three-body reaction '%s' has no M and %s collision partner; write + M "
                "(with efficiencies) or one species on both sides",
                eq, n_found ? "more than one" : "no");
  for (int s = 0; s < 2; s++) {
    Side *sd = &e->side[s];
    for (int i = 0; i < sd->n; i++)
      if (sd->sp[i] == found && (sd->nu[i] -= 1) == 0) {
        sd->sp[i] = sd->sp[sd->n - 1];
        sd->nu[i] = sd->nu[sd->n - 1];
        sd->n--;
        break;
      }
  }
  *partner = found;
  return HX_OK;
}

/* Efficiencies into the tb list (those that differ from the default) */
static int read_efficiencies(Reader *rd, const yaml_node_t *node, const char *eq, int partner,
                             RxnRec *rec) {
  const yaml_node_t *eff = map_get(rd, node, "efficiencies");
  const yaml_node_t *def = map_get(rd, node, "default-efficiency");
  char ctx[256];
  snprintf(ctx, sizeof ctx, "reaction '%s'", eq);
  if (partner >= 0) {
    if (eff || def)
      return fail(rd, line_of(eff ? eff : def),
                  "%s has the collision partner '%s'; efficiencies "
                  "need M",
                  ctx, rd->sp_names[partner]);
    rec->tb_default = 0.0;
    rec->n_tb = 1;
    HX_CHECK(ivec_push(&rd->tb_sp, partner));
    return dvec_push(&rd->tb_eff, 1.0);
  }
  rec->tb_default = 1.0;
  if (def) HX_CHECK(get_number(rd, def, "default-efficiency", ctx, &rec->tb_default));
  if (!eff) return HX_OK;
  if (!is_map(eff))
    return fail(rd, line_of(eff), "%s: efficiencies must be a mapping {species: value}", ctx);
  for (yaml_node_pair_t *p = eff->data.mapping.pairs.start; p < eff->data.mapping.pairs.top; p++) {
    const yaml_node_t *kn = node_at(rd, p->key);
    const char *name = scalar(kn);
    int k = name ? species_index(rd, name) : -1;
    double value;
    HX_CHECK(get_number(rd, node_at(rd, p->value), "an efficiency", ctx, &value));
    if (k < 0) {
      if (rd->skip_undeclared_tb) continue;
      return fail(rd, line_of(kn),
                  "%s: efficiency for species '%s', which phase '%s' does not "
                  "have; remove it or set skip-undeclared-third-bodies: true in the phase",
                  ctx, name ? name : "?", rd->phase_name);
    }
    if (value == rec->tb_default) continue;
    HX_CHECK(ivec_push(&rd->tb_sp, k));
    HX_CHECK(dvec_push(&rd->tb_eff, value));
    rec->n_tb++;
  }
  return HX_OK;
}

/* Forward orders: nu of each reactant, overridden by `orders` (Cantera YAML format,
 * reactions.html "orders", "nonreactant-orders", "negative-orders"). Returns their sum. */
static int read_orders(Reader *rd, const yaml_node_t *node, const Equation *e, const char *eq,
                       RxnRec *rec, double *total) {
  const yaml_node_t *orders = map_get(rd, node, "orders");
  double val[MAX_SIDE * 2];
  int sp[MAX_SIDE * 2], n = e->side[0].n;
  for (int i = 0; i < n; i++)
    sp[i] = e->side[0].sp[i], val[i] = e->side[0].nu[i];
  char ctx[256];
  snprintf(ctx, sizeof ctx, "reaction '%s'", eq);
  if (orders) {
    if (!is_map(orders))
      return fail(rd, line_of(orders), "%s: orders must be a mapping {species: order}", ctx);
    if (rec->reversible)
      return fail(rd, line_of(orders),
                  "%s: orders are only allowed for irreversible reactions "
                  "(write '=>')",
                  ctx);
    int nonreactant_ok = is_true(map_get(rd, node, "nonreactant-orders"));
    int negative_ok = is_true(map_get(rd, node, "negative-orders"));
    for (yaml_node_pair_t *p = orders->data.mapping.pairs.start; p < orders->data.mapping.pairs.top;
         p++) {
      const yaml_node_t *kn = node_at(rd, p->key);
      const char *name = scalar(kn);
      int k = name ? species_index(rd, name) : -1;
      if (k < 0)
        return fail(rd, line_of(kn), "%s: order for species '%s', which phase '%s' does not have",
                    ctx, name ? name : "?", rd->phase_name);
      double x;
      HX_CHECK(get_number(rd, node_at(rd, p->value), "an order", ctx, &x));
      if (x < 0 && !negative_ok)
        return fail(rd, line_of(kn),
                    "%s: negative order %g for '%s'; add `negative-orders: true` "
                    "if that is intended",
                    ctx, x, name);
      int i = 0;
      while (i < n && sp[i] != k)
        i++;
      if (i == n) {
        if (!nonreactant_ok)
          return fail(rd, line_of(kn),
                      "%s: order for '%s', which is not a reactant; add "
                      "`nonreactant-orders: true` if that is intended",
                      ctx, name);
        if (n == 2 * MAX_SIDE) return fail(rd, line_of(kn), "%s: too many orders", ctx);
        sp[n] = k;
        n++;
      }
      val[i] = x;
    }
  }
  *total = 0;
  for (int i = 0; i < n; i++) {
    if (val[i] == 0) continue;
    HX_CHECK(ivec_push(&rd->ord_sp, sp[i]));
    HX_CHECK(dvec_push(&rd->ord_val, val[i]));
    rec->n_ord++;
    *total += val[i];
  }
  return HX_OK;
}

static int read_troe_sri(Reader *rd, const yaml_node_t *node, const char *eq, RxnRec *rec) {
  const yaml_node_t *troe = map_get(rd, node, "Troe"), *sri = map_get(rd, node, "SRI");
  char ctx[256];
  snprintf(ctx, sizeof ctx, "reaction '%s'", eq);
  if (troe && sri) return fail(rd, line_of(sri), "%s has both Troe and SRI", ctx);
  if (map_get(rd, node, "Tsang"))
    return fail(rd, line_of(map_get(rd, node, "Tsang")),
                "%s: Tsang falloff is not supported; "
                "hexdg supports Lindemann, Troe and SRI falloff",
                ctx);
  double *par = rec->falloff_par;
  if (troe) {
    /* Troe: {A, T3, T1, T2 optional} (Gilbert, Luther, Troe 1983) */
    static const char *keys[] = {"A", "T3", "T1", "T2"};
    rec->falloff_kind = CHEM_FALLOFF_TROE;
    for (int i = 0; i < 4; i++) {
      const yaml_node_t *v = map_get(rd, troe, keys[i]);
      if (!v && i < 3)
        return fail(rd, line_of(troe), "%s: Troe needs A, T3, T1 (missing %s)", ctx, keys[i]);
      if (v) HX_CHECK(get_number(rd, v, keys[i], ctx, &par[i]));
      if (i == 3) par[4] = v ? 1.0 : 0.0;
    }
  } else if (sri) {
    /* SRI: {A, B, C, D = 1, E = 0} (Stewart, Larson, Golden 1989) */
    static const char *keys[] = {"A", "B", "C", "D", "E"};
    rec->falloff_kind = CHEM_FALLOFF_SRI;
    par[3] = 1.0;
    par[4] = 0.0;
    for (int i = 0; i < 5; i++) {
      const yaml_node_t *v = map_get(rd, sri, keys[i]);
      if (!v && i < 3)
        return fail(rd, line_of(sri), "%s: SRI needs A, B, C (missing %s)", ctx, keys[i]);
      if (v) HX_CHECK(get_number(rd, v, keys[i], ctx, &par[i]));
    }
  } else {
    rec->falloff_kind = CHEM_FALLOFF_LINDEMANN;
  }
  return HX_OK;
}

/* `rate-constants: [{P, A, b, Ea}, ...]`, stored sorted by pressure, equal pressures in file
 * order (Cantera YAML format, reactions.html "pressure-dependent-Arrhenius"). */
static int read_plog(Reader *rd, const yaml_node_t *node, const char *eq, int line, double order,
                     RxnRec *rec) {
  const yaml_node_t *list = map_get(rd, node, "rate-constants");
  int n = seq_len(list);
  if (n == 0)
    return fail(rd, line_of(list ? list : node),
                "PLOG reaction '%s' (line %d) needs "
                "rate-constants: [{P: ..., A: ..., b: ..., Ea: ...}, ...]",
                eq, line);
  size_t first = rd->plog.n;
  char ctx[256];
  snprintf(ctx, sizeof ctx, "reaction '%s'", eq);
  for (int i = 0; i < n; i++) {
    const yaml_node_t *item = seq_at(rd, list, i);
    const yaml_node_t *P = map_get(rd, item, "P");
    if (!P) return fail(rd, line_of(item), "%s: a rate-constants entry without P", ctx);
    double p, arr[3];
    HX_CHECK(
        get_quantity(rd, P, "P", ctx, dim_pressure, default_factor(&rd->units, dim_pressure), &p));
    if (!(p > 0)) return fail(rd, line_of(P), "%s: pressure %g must be positive", ctx, p);
    HX_CHECK(read_arrhenius(rd, item, order, "rate-constants", eq, 1, arr));
    /* insertion after the last entry with pressure <= p keeps equal pressures in file order */
    HX_CHECK(dvec_push(&rd->plog, 0));
    HX_CHECK(dvec_push(&rd->plog, 0));
    HX_CHECK(dvec_push(&rd->plog, 0));
    HX_CHECK(dvec_push(&rd->plog, 0));
    double *base = rd->plog.v + first;
    int j = i;
    while (j > 0 && base[4 * (j - 1)] > log(p)) {
      memcpy(base + 4 * j, base + 4 * (j - 1), 4 * sizeof *base);
      j--;
    }
    base[4 * j] = log(p);
    memcpy(base + 4 * j + 1, arr, 3 * sizeof *arr);
  }
  rec->n_plog = n;
  return HX_OK;
}

/* Element balance of the stoichiometry (explicit partners cancel) */
static int check_balance(Reader *rd, const Equation *e, const char *eq, int line) {
  for (int el = 0; el < rd->ne; el++) {
    double tot[2] = {0, 0};
    for (int s = 0; s < 2; s++)
      for (int i = 0; i < e->side[s].n; i++)
        tot[s] += e->side[s].nu[i] * rd->comp[(size_t)e->side[s].sp[i] * rd->ne + el];
    if (fabs(tot[0] - tot[1]) > 1e-6 * fmax(1.0, fabs(tot[0])))
      return fail(rd, line,
                  "reaction '%s' does not balance element '%s': %g atoms in the "
                  "reactants, %g in the products",
                  eq, rd->el_names[el], tot[0], tot[1]);
  }
  return HX_OK;
}

static int push_side(const Side *s, IVec *sp, DVec *nu, int *count) {
  for (int i = 0; i < s->n; i++) {
    HX_CHECK(ivec_push(sp, s->sp[i]));
    HX_CHECK(dvec_push(nu, s->nu[i]));
  }
  *count = s->n;
  return HX_OK;
}

/* One reaction; *skipped = 1 when `declared-species` drops it. */
static int read_reaction(Reader *rd, const yaml_node_t *node, int declared_only, int *skipped) {
  *skipped = 0;
  int line = line_of(node);
  const char *eq = scalar(map_get(rd, node, "equation"));
  if (!eq) return fail(rd, line, "a reaction without `equation`");
  Equation e;
  char unknown[CHEM_NAME_LEN] = "";
  int rc = parse_equation(rd, eq, line, &e, unknown);
  if (rc == EQ_UNKNOWN_SPECIES) {
    if (declared_only) {
      *skipped = 1;
      return HX_OK;
    }
    return fail(rd, line,
                "reaction '%s' uses species '%s', which is not in phase '%s'; add the "
                "species to the phase or use `reactions: declared-species`",
                eq, unknown, rd->phase_name);
  }
  if (rc != HX_OK) return rc;
  if (rd->nr == rd->cap_r) {
    int cap = rd->cap_r ? 2 * rd->cap_r : 64;
    RxnRec *grown = realloc(rd->rx, (size_t)cap * sizeof *grown);
    if (!grown) return HX_ERROR(HX_ERR_MEM, "out of host memory reading %s", rd->path);
    rd->rx = grown;
    rd->cap_r = cap;
  }
  RxnRec *rec = &rd->rx[rd->nr];
  memset(rec, 0, sizeof *rec);
  rec->equation = dup_string(eq);
  if (!rec->equation) return HX_ERROR(HX_ERR_MEM, "out of host memory reading %s", rd->path);
  rec->line = line;
  rd->nr++;
  rec->reversible = e.reversible;
  HX_CHECK(rxn_type_of(rd, node, &e, eq, line, &rec->type));
  int partner = -1; /* -1: M */
  if (rec->type == CHEM_RXN_THREE_BODY && !e.has_M[0])
    HX_CHECK(explicit_partner(rd, &e, eq, line, &partner));
  if (rec->type == CHEM_RXN_FALLOFF) partner = e.partner[0];
  HX_CHECK(check_balance(rd, &e, eq, line));
  HX_CHECK(push_side(&e.side[0], &rd->reac_sp, &rd->reac_nu, &rec->n_reac));
  HX_CHECK(push_side(&e.side[1], &rd->prod_sp, &rd->prod_nu, &rec->n_prod));
  rec->dnu = 0;
  for (int i = 0; i < e.side[1].n; i++)
    rec->dnu += e.side[1].nu[i];
  for (int i = 0; i < e.side[0].n; i++)
    rec->dnu -= e.side[0].nu[i];
  double order = 0;
  HX_CHECK(read_orders(rd, node, &e, eq, rec, &order));
  int negative_A = is_true(map_get(rd, node, "negative-A"));
  switch (rec->type) {
  case CHEM_RXN_ELEMENTARY:
  case CHEM_RXN_THREE_BODY: {
    const yaml_node_t *k = map_get(rd, node, "rate-constant");
    if (!k) return fail(rd, line, "reaction '%s' has no rate-constant", eq);
    int tb = rec->type == CHEM_RXN_THREE_BODY;
    HX_CHECK(read_arrhenius(rd, k, order + tb, "rate-constant", eq, negative_A, rec->rate));
    if (tb) HX_CHECK(read_efficiencies(rd, node, eq, partner, rec));
    break;
  }
  case CHEM_RXN_FALLOFF: {
    const yaml_node_t *hi = map_get(rd, node, "high-P-rate-constant");
    const yaml_node_t *lo = map_get(rd, node, "low-P-rate-constant");
    if (!hi || !lo)
      return fail(rd, line,
                  "falloff reaction '%s' needs low-P-rate-constant and "
                  "high-P-rate-constant",
                  eq);
    HX_CHECK(read_arrhenius(rd, hi, order, "high-P-rate-constant", eq, 0, rec->rate));
    HX_CHECK(read_arrhenius(rd, lo, order + 1, "low-P-rate-constant", eq, 0, rec->rate_low));
    HX_CHECK(read_troe_sri(rd, node, eq, rec));
    HX_CHECK(read_efficiencies(rd, node, eq, partner, rec));
    break;
  }
  case CHEM_RXN_PLOG:
    HX_CHECK(read_plog(rd, node, eq, line, order, rec));
    break;
  }
  return HX_OK;
}

/* The reactions of the phase: `reactions` absent (the `reactions` section), `all`, `none`,
 * `declared-species`, a list of section names or of {section: all | declared-species}
 * (Cantera YAML format, phases.html "reactions"). */
static int read_reactions(Reader *rd, const yaml_node_t *root) {
  const yaml_node_t *kin = map_get(rd, rd->phase, "kinetics");
  const yaml_node_t *spec = map_get(rd, rd->phase, "reactions");
  if (!kin) {
    if (spec && !(scalar(spec) && !strcmp(scalar(spec), "none")))
      return fail(rd, line_of(spec), "phase '%s' lists reactions but has no `kinetics: gas`",
                  rd->phase_name);
    return HX_OK;
  }
  const char *kname = scalar(kin);
  if (!kname || strcmp(kname, "gas"))
    return fail(rd, line_of(kin),
                "phase '%s' has kinetics '%s'; hexdg supports kinetics: gas "
                "(no surface or edge kinetics)",
                rd->phase_name, kname ? kname : "?");
  enum { MAX_SECTIONS = 64 };
  const char *sections[MAX_SECTIONS];
  int declared[MAX_SECTIONS], lines[MAX_SECTIONS], n = 0;
  const char *s = scalar(spec);
  if (!spec || (s && (!strcmp(s, "all") || !strcmp(s, "declared-species")))) {
    sections[0] = "reactions";
    declared[0] = s && !strcmp(s, "declared-species");
    lines[0] = line_of(spec ? spec : rd->phase);
    n = 1;
    if (!spec && !map_get(rd, root, "reactions")) return HX_OK;
  } else if (s && !strcmp(s, "none")) {
    return HX_OK;
  } else if (is_seq(spec)) {
    for (int i = 0; i < seq_len(spec) && n < MAX_SECTIONS; i++) {
      const yaml_node_t *item = seq_at(rd, spec, i);
      if (scalar(item)) {
        sections[n] = scalar(item);
        declared[n] = 0;
        lines[n++] = line_of(item);
        continue;
      }
      if (!is_map(item))
        return fail(rd, line_of(item), "`reactions` of phase '%s': expected a section name",
                    rd->phase_name);
      for (yaml_node_pair_t *p = item->data.mapping.pairs.start;
           p < item->data.mapping.pairs.top && n < MAX_SECTIONS; p++) {
        const char *mode = scalar(node_at(rd, p->value));
        if (!mode || (strcmp(mode, "all") && strcmp(mode, "declared-species")))
          return fail(rd, line_of(item),
                      "`reactions` of phase '%s': use {section: all} or "
                      "{section: declared-species}",
                      rd->phase_name);
        sections[n] = scalar(node_at(rd, p->key));
        declared[n] = !strcmp(mode, "declared-species");
        lines[n++] = line_of(item);
      }
    }
  } else {
    return fail(rd, line_of(spec),
                "`reactions` of phase '%s' must be all, none, "
                "declared-species or a list of section names",
                rd->phase_name);
  }
  for (int i = 0; i < n; i++) {
    yaml_node_t *section;
    HX_CHECK(
        get_section(rd, root, sections[i] ? sections[i] : "?", lines[i], "reactions", &section));
    for (int r = 0; r < seq_len(section); r++) {
      int skipped;
      HX_CHECK(read_reaction(rd, seq_at(rd, section, r), declared[i], &skipped));
    }
  }
  return HX_OK;
}

/* ---------------------------------------------------------------------------------------------
 * The file */

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  if (n < m) return 0;
  for (size_t i = 0; i < m; i++)
    if (tolower((unsigned char)s[n - m + i]) != suffix[i]) return 0;
  return 1;
}

/* Chemkin input: the extension or a first keyword line (ELEMENTS/ELEM, SPECIES, THERMO) */
static int looks_like_chemkin(const char *path, const char *text) {
  if (ends_with(path, ".inp") || ends_with(path, ".ck") || ends_with(path, ".dat") ||
      ends_with(path, ".ckt"))
    return 1;
  const char *s = text;
  for (;;) {
    while (isspace((unsigned char)*s))
      s++;
    if (*s != '!') break;
    while (*s && *s != '\n')
      s++;
  }
  char word[16];
  size_t n = 0;
  while (isalpha((unsigned char)s[n]) && n < sizeof word - 1)
    word[n] = (char)toupper((unsigned char)s[n]), n++;
  word[n] = '\0';
  if (s[n] && !isspace((unsigned char)s[n])) return 0; /* "reactions:" is YAML */
  static const char *keys[] = {"ELEM",   "ELEMENTS", "SPEC",     "SPECIES",
                               "THERMO", "REAC",     "REACTIONS"};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (!strcmp(word, keys[i])) return 1;
  return 0;
}

static int read_file(const char *path, unsigned char **bytes, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return HX_ERROR(HX_ERR_IO,
                    "cannot open the mechanism file '%s' (%s); check the path "
                    "(relative to the parameter file)",
                    path, strerror(errno));
  size_t cap = 1 << 16, len = 0;
  unsigned char *buf = malloc(cap + 1);
  while (buf) {
    len += fread(buf + len, 1, cap - len, f);
    if (len < cap) break;
    cap *= 2;
    unsigned char *grown = realloc(buf, cap + 1);
    if (!grown) free(buf);
    buf = grown;
  }
  int err = ferror(f);
  fclose(f);
  if (!buf) return HX_ERROR(HX_ERR_MEM, "out of host memory reading %s", path);
  if (err) {
    free(buf);
    return HX_ERROR(HX_ERR_IO, "error reading the mechanism file '%s'", path);
  }
  buf[len] = '\0';
  *bytes = buf;
  *n = len;
  return HX_OK;
}

static int load_yaml(Reader *rd, const unsigned char *bytes, size_t n) {
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser))
    return HX_ERROR(HX_ERR_MEM, "cannot initialise libyaml reading %s", rd->path);
  yaml_parser_set_input_string(&parser, bytes, n);
  int ok = yaml_parser_load(&parser, &rd->doc);
  int rc = HX_OK;
  if (!ok) {
    rc = fail(rd, (int)parser.problem_mark.line + 1,
              "not valid YAML (%s%s%s); fix the syntax "
              "there (a Chemkin file must be converted first: %s)",
              parser.problem ? parser.problem : "parse error", parser.context ? ", " : "",
              parser.context ? parser.context : "", CK2YAML_HINT);
    memset(&rd->doc, 0, sizeof rd->doc);
  }
  yaml_parser_delete(&parser);
  return rc;
}

/* Copies the reader's arrays into the one-block ChemMech */
static int build_mech(Reader *rd, ChemMech *m) {
  HX_CHECK(chem_mech_alloc(m, rd->ns, rd->ne, rd->nr, (int)rd->reac_sp.n, (int)rd->prod_sp.n,
                           (int)rd->ord_sp.n, (int)rd->tb_sp.n, (int)(rd->plog.n / 4)));
  int ns = rd->ns, ne = rd->ne, nr = rd->nr;
  memcpy(m->species_names, rd->sp_names, (size_t)ns * sizeof *m->species_names);
  memcpy(m->element_names, rd->el_names, (size_t)ne * sizeof *m->element_names);
  memcpy(m->mw, rd->mw, (size_t)ns * sizeof *m->mw);
  memcpy(m->nasa, rd->nasa, (size_t)ns * 15 * sizeof *m->nasa);
  memcpy(m->t_range, rd->t_range, (size_t)ns * 2 * sizeof *m->t_range);
  memcpy(m->elem_comp, rd->comp, (size_t)ns * ne * sizeof *m->elem_comp);
  memcpy(m->elem_mw, rd->el_mw, (size_t)ne * sizeof *m->elem_mw);
  int a = 0, b = 0, c = 0, d = 0, e = 0;
  for (int r = 0; r < nr; r++) {
    RxnRec *x = &rd->rx[r];
    m->rxn_type[r] = x->type;
    m->reversible[r] = x->reversible;
    memcpy(m->rate + 3 * r, x->rate, sizeof x->rate);
    memcpy(m->rate_low + 3 * r, x->rate_low, sizeof x->rate_low);
    m->falloff_kind[r] = x->falloff_kind;
    memcpy(m->falloff_par + 5 * r, x->falloff_par, sizeof x->falloff_par);
    m->dnu[r] = x->dnu;
    m->tb_default[r] =
        x->type == CHEM_RXN_THREE_BODY || x->type == CHEM_RXN_FALLOFF ? x->tb_default : 0;
    m->reac_ptr[r] = a;
    m->prod_ptr[r] = b;
    m->ord_ptr[r] = c;
    m->tb_ptr[r] = d;
    m->plog_ptr[r] = e;
    a += x->n_reac, b += x->n_prod, c += x->n_ord, d += x->n_tb, e += x->n_plog;
    m->equations[r] = x->equation;
    x->equation = NULL;
    m->equation_line[r] = x->line;
  }
  m->reac_ptr[nr] = a, m->prod_ptr[nr] = b, m->ord_ptr[nr] = c, m->tb_ptr[nr] = d;
  m->plog_ptr[nr] = e;
  for (int i = 0; i < a; i++)
    m->reac_sp[i] = rd->reac_sp.v[i], m->reac_nu[i] = rd->reac_nu.v[i];
  for (int i = 0; i < b; i++)
    m->prod_sp[i] = rd->prod_sp.v[i], m->prod_nu[i] = rd->prod_nu.v[i];
  for (int i = 0; i < c; i++)
    m->ord_sp[i] = rd->ord_sp.v[i], m->ord_val[i] = rd->ord_val.v[i];
  for (int i = 0; i < d; i++)
    m->tb_sp[i] = rd->tb_sp.v[i], m->tb_eff[i] = rd->tb_eff.v[i];
  if (e) memcpy(m->plog, rd->plog.v, (size_t)e * 4 * sizeof *m->plog);
  return HX_OK;
}

static int read_mechanism(Reader *rd, const char *phase_name) {
  yaml_node_t *root = yaml_document_get_root_node(&rd->doc);
  if (!is_map(root))
    return fail(rd, root ? line_of(root) : 1,
                "not a Cantera YAML mechanism (no top-level mapping with "
                "phases, species, reactions); %s",
                CK2YAML_HINT);
  HX_CHECK(read_units(rd, root));
  HX_CHECK(pick_phase(rd, root, phase_name));
  rd->skip_undeclared_tb = is_true(map_get(rd, rd->phase, "skip-undeclared-third-bodies"));
  yaml_node_t **nodes;
  int ns;
  int rc = phase_species(rd, root, &nodes, &ns);
  if (rc == HX_OK && ns == 0)
    rc = fail(rd, line_of(rd->phase), "phase '%s' has no species", rd->phase_name);
  if (rc == HX_OK) rc = read_elements(rd, root, nodes, ns);
  rd->ns = ns;
  if (rc == HX_OK) rc = read_species(rd, nodes);
  free(nodes);
  HX_CHECK(rc);
  return read_reactions(rd, root);
}

int chem_mech_load(const char *path, const char *phase_name, ChemMech **out) {
  *out = NULL;
  unsigned char *bytes = NULL;
  size_t n = 0;
  HX_CHECK(read_file(path, &bytes, &n));
  Reader rd = {0};
  rd.path = path;
  int rc = HX_OK;
  if (looks_like_chemkin(path, (const char *)bytes))
    rc = HX_ERROR(HX_ERR_INPUT,
                  "%s, line 1: this is a Chemkin file; hexdg reads Cantera YAML "
                  "mechanisms: %s",
                  path, CK2YAML_HINT);
  if (rc == HX_OK) rc = load_yaml(&rd, bytes, n);
  if (rc == HX_OK) rc = read_mechanism(&rd, phase_name);
  ChemMech *m = NULL;
  if (rc == HX_OK) {
    m = hx_calloc(1, sizeof *m, "mechanism");
    rc = m ? HX_OK : HX_ERR_MEM;
  }
  if (rc == HX_OK) {
    snprintf(m->path, sizeof m->path, "%s", path);
    chem_fnv1a64_hex(bytes, n, m->hash);
    rc = build_mech(&rd, m);
  }
  free(bytes);
  reader_free(&rd);
  if (rc != HX_OK) {
    chem_mech_free(m);
    return rc;
  }
  chem_mech_set_ceiling(m);
  *out = m;
  return HX_OK;
}
