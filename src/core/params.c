/* Parameter registry and FLEXI-syntax parameter-file reader (see params.h for the syntax).
 *
 * Values are kept as the trimmed text the user wrote, together with where it came from
 * ("file:line" or the params_set source). Every value is checked against its definition when it
 * is stored, so that errors name the line; getters parse the text again, which cannot fail then
 * except for a length or type that the calling code gets wrong. */
#define _POSIX_C_SOURCE 200809L /* getline, open_memstream */
#include "core/params.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/flexi_keys.h"

typedef struct {
  char *text;   /* trimmed value as written */
  char *source; /* "file:line", or the source given to params_set */
  bool from_file;
} ParamValue;

typedef struct {
  char *section, *name, *help;
  char *default_text; /* NULL: mandatory; "": optional without default */
  ParamType type;
  int array_len; /* entries of an array type; -1: any length */
  bool multiple;
  int n_choices;
  char **choice_names;
  int *choice_ids;
  ParamValue *values;
  int n_values, cap_values;
} ParamDef;

struct Params {
  ParamDef *defs;
  int n_defs, cap_defs;
  char *file_path; /* the file read, named in messages; NULL before params_read_file */
  FILE *notices;   /* where "has no effect" notices go (stdout; NULL: silent, e.g. MPI rank > 0) */
  char **noticed;  /* FLEXI keys already noticed: one notice per key */
  int n_noticed, cap_noticed;
};

/* Which part of a value failed to parse, for the error message. */
typedef struct {
  bool bracketed; /* arrays: written as (/ ... /) */
  int n_entries;
  int bad_entry; /* index of the first entry that does not parse, or -1 */
} ValueCheck;

/* ---------------------------------------------------------------------------------------------
 * Small string helpers */

static char *dup_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *copy = hx_malloc(n, "parameter text");
  if (copy) memcpy(copy, s, n);
  return copy;
}

static bool str_ieq(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
  return *a == *b;
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s))
    s++;
  char *end = s + strlen(s);
  while (end > s && isspace((unsigned char)end[-1]))
    end--;
  *end = '\0';
  return s;
}

/* Returns array grown to hold at least `needed` elements (doubling), or NULL after reporting. */
static void *grow_array(void *array, int *cap, int needed, size_t elem_size, const char *what) {
  if (needed <= *cap) return array;
  int new_cap = *cap > 0 ? 2 * *cap : 8;
  while (new_cap < needed)
    new_cap *= 2;
  void *grown = realloc(array, (size_t)new_cap * elem_size);
  if (!grown) {
    HX_ERROR(HX_ERR_MEM, "out of host memory growing the %s to %d entries", what, new_cap);
    return NULL;
  }
  *cap = new_cap;
  return grown;
}

/* Case-insensitive Levenshtein distance, used to suggest the intended key. */
static size_t edit_distance(const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b);
  size_t *row = malloc((nb + 1) * sizeof *row);
  if (!row) return SIZE_MAX;
  for (size_t j = 0; j <= nb; j++)
    row[j] = j;
  for (size_t i = 1; i <= na; i++) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= nb; j++) {
      size_t above = row[j];
      size_t substitute =
          diagonal + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
      size_t insert_delete = (above < row[j - 1] ? above : row[j - 1]) + 1;
      row[j] = substitute < insert_delete ? substitute : insert_delete;
      diagonal = above;
    }
  }
  size_t distance = row[nb];
  free(row);
  return distance;
}

/* ---------------------------------------------------------------------------------------------
 * Value parsing */

static bool is_array(ParamType t) {
  return t == PARAM_INT_ARRAY || t == PARAM_REAL_ARRAY || t == PARAM_LOGICAL_ARRAY;
}

static ParamType element_type(ParamType t) {
  if (t == PARAM_INT_ARRAY) return PARAM_INT;
  if (t == PARAM_REAL_ARRAY) return PARAM_REAL;
  if (t == PARAM_LOGICAL_ARRAY) return PARAM_LOGICAL;
  return t;
}

static bool parse_int(const char *text, int *out) {
  char *end;
  errno = 0;
  long value = strtol(text, &end, 10);
  if (end == text || *end || errno == ERANGE || value < INT_MIN || value > INT_MAX) return false;
  *out = (int)value;
  return true;
}

static bool parse_logical(const char *text, bool *out) {
  static const char *const true_words[] = {"T", "true", ".true.", ".T."};
  static const char *const false_words[] = {"F", "false", ".false.", ".F."};
  for (size_t i = 0; i < sizeof true_words / sizeof true_words[0]; i++) {
    if (str_ieq(text, true_words[i]) || str_ieq(text, false_words[i])) {
      *out = str_ieq(text, true_words[i]);
      return true;
    }
  }
  return false;
}

static bool parse_choice(const ParamDef *d, const char *text, int *id) {
  for (int i = 0; i < d->n_choices; i++) {
    if (str_ieq(text, d->choice_names[i])) {
      *id = d->choice_ids[i];
      return true;
    }
  }
  int number;
  if (!parse_int(text, &number)) return false;
  for (int i = 0; i < d->n_choices; i++) {
    if (d->choice_ids[i] == number) {
      *id = number;
      return true;
    }
  }
  return false;
}

/* Parses one scalar of type t into out[index]; out may be NULL to only check the text. */
static bool parse_scalar(const ParamDef *d, ParamType t, const char *text, void *out, int index) {
  int int_value = 0;
  double real_value = 0.0;
  bool logical_value = false;
  switch (t) {
  case PARAM_INT:
  case PARAM_CHOICE:
    if (!(t == PARAM_INT ? parse_int(text, &int_value) : parse_choice(d, text, &int_value)))
      return false;
    if (out) ((int *)out)[index] = int_value;
    return true;
  case PARAM_REAL:
    if (!params_eval_real_quiet(text, &real_value, NULL)) return false;
    if (out) ((double *)out)[index] = real_value;
    return true;
  case PARAM_LOGICAL:
    if (!parse_logical(text, &logical_value)) return false;
    if (out) ((bool *)out)[index] = logical_value;
    return true;
  default:
    return true; /* strings: any text */
  }
}

/* Parses a value of d into out (at most n_out entries are written; out may be NULL). */
static bool parse_value(const ParamDef *d, const char *text, void *out, int n_out,
                        ValueCheck *check) {
  *check = (ValueCheck){true, 1, -1};
  if (!is_array(d->type)) {
    if (parse_scalar(d, d->type, text, out, 0)) return true;
    check->bad_entry = 0;
    return false;
  }
  size_t len = strlen(text);
  if (len < 4 || strncmp(text, "(/", 2) != 0 || strcmp(text + len - 2, "/)") != 0) {
    check->bracketed = false;
    return false;
  }
  char *inner = malloc(len - 3);
  if (!inner) return false;
  memcpy(inner, text + 2, len - 4);
  inner[len - 4] = '\0';
  char *entry = trim(inner);
  check->n_entries = 0;
  for (char *next = *entry ? entry : NULL; next;) { /* "(/ /)" is an empty array */
    char *comma = strchr(next, ',');
    if (comma) *comma = '\0';
    int i = check->n_entries++;
    if (check->bad_entry < 0 &&
        !parse_scalar(d, element_type(d->type), trim(next), i < n_out ? out : NULL, i))
      check->bad_entry = i; /* also catches the empty entry of "1,,2" or a trailing comma */
    next = comma ? comma + 1 : NULL;
  }
  free(inner);
  return check->bad_entry < 0 && (d->array_len < 0 || check->n_entries == d->array_len);
}

/* ---------------------------------------------------------------------------------------------
 * Descriptions for messages, help and docs */

static const char *type_name(ParamType t) {
  static const char *const names[] = {"int",    "real",      "logical",    "string",
                                      "choice", "int array", "real array", "logical array"};
  return names[t];
}

static void write_type(FILE *f, const ParamDef *d) {
  fputs(type_name(element_type(d->type)), f);
  if (d->array_len < 0) fputs("[]", f);
  if (d->array_len > 0) fprintf(f, "[%d]", d->array_len);
}

static void write_choices(FILE *f, const ParamDef *d, const char *quote) {
  for (int i = 0; i < d->n_choices; i++)
    fprintf(f, "%s%s%s%s (%d)", i ? ", " : "", quote, d->choice_names[i], quote, d->choice_ids[i]);
}

static void write_expectation(FILE *f, const ParamDef *d, ParamType t) {
  static const char *const scalar_expectations[] = {
      "an integer", "a real number (digits, e/d exponent, pi, + - * / and parentheses)",
      "a logical (T or F)", "a string"};
  if (t == PARAM_CHOICE) {
    fputs("one of ", f);
    write_choices(f, d, "");
    fputs(" (name or id)", f);
  } else if (!is_array(t)) {
    fputs(scalar_expectations[t], f);
  } else {
    if (d->array_len >= 0)
      fprintf(f, "an array (/ a, b, ... /) of %d entries, each ", d->array_len);
    else
      fputs("an array (/ a, b, ... /) whose entries are each ", f);
    write_expectation(f, d, element_type(t));
  }
}

/* Reports a value that does not parse as one message built in memory. */
static int bad_value_error(int code, const ParamDef *d, const char *text, const char *source,
                           const ValueCheck *check) {
  char *message = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&message, &size);
  if (!f) return HX_ERROR(code, "%s: bad value '%s' for parameter '%s'", source, text, d->name);
  fprintf(f, "%s: bad value '%s' for parameter '%s': expected ", source, text, d->name);
  write_expectation(f, d, d->type);
  if (is_array(d->type) && check->bracketed && check->bad_entry >= 0)
    fprintf(f, "; entry %d is not valid", check->bad_entry + 1);
  else if (is_array(d->type) && check->bracketed)
    fprintf(f, "; got %d entries", check->n_entries);
  fclose(f);
  int rc = HX_ERROR(code, "%s", message);
  free(message);
  return rc;
}

/* ---------------------------------------------------------------------------------------------
 * Registry */

Params *params_create(void) {
  Params *p = hx_calloc(1, sizeof(Params), "parameter registry");
  if (p) p->notices = stdout;
  return p;
}

void params_set_notice_stream(Params *p, FILE *f) {
  p->notices = f;
}

int params_notice_count(const Params *p) {
  return p->n_noticed;
}

static void free_definition(ParamDef *d) {
  free(d->section);
  free(d->name);
  free(d->help);
  free(d->default_text);
  for (int i = 0; i < d->n_choices; i++)
    free(d->choice_names[i]);
  free(d->choice_names);
  free(d->choice_ids);
  for (int i = 0; i < d->n_values; i++) {
    free(d->values[i].text);
    free(d->values[i].source);
  }
  free(d->values);
}

void params_destroy(Params *p) {
  if (!p) return;
  for (int i = 0; i < p->n_defs; i++)
    free_definition(&p->defs[i]);
  free(p->defs);
  for (int i = 0; i < p->n_noticed; i++)
    free(p->noticed[i]);
  free(p->noticed);
  free(p->file_path);
  free(p);
}

static ParamDef *find_def(const Params *p, const char *name) {
  for (int i = 0; i < p->n_defs; i++)
    if (str_ieq(p->defs[i].name, name)) return &p->defs[i];
  return NULL;
}

/* What params_define / params_define_choice were given. */
typedef struct {
  const char *section, *name, *default_text, *help;
  ParamType type;
  int array_len;
  bool multiple;
  int n_choices;
  const char *const *choice_names;
  const int *choice_ids;
} ParamSpec;

static int add_definition(Params *p, const ParamSpec *spec) {
  if (!p || !spec->section || !spec->name || !*spec->name || !spec->help)
    return HX_ERROR(HX_ERR_INTERNAL,
                    "parameter definition needs a section, a name and a help text");
  const ParamDef *existing = find_def(p, spec->name);
  if (existing)
    return HX_ERROR(HX_ERR_INTERNAL, "parameter '%s' is defined twice (sections '%s' and '%s')",
                    spec->name, existing->section, spec->section);
  if (is_array(spec->type) ? (spec->array_len == 0 || spec->array_len < -1) : spec->array_len)
    return HX_ERROR(HX_ERR_INTERNAL, "parameter '%s': array_len %d does not fit type %s",
                    spec->name, spec->array_len, type_name(spec->type));
  ParamDef *defs = grow_array(p->defs, &p->cap_defs, p->n_defs + 1, sizeof *defs, "parameters");
  if (!defs) return HX_ERR_MEM;
  p->defs = defs;
  ParamDef *d = &defs[p->n_defs];
  *d = (ParamDef){.type = spec->type, .array_len = spec->array_len, .multiple = spec->multiple};
  d->section = dup_string(spec->section);
  d->name = dup_string(spec->name);
  d->help = dup_string(spec->help);
  d->default_text = spec->default_text ? dup_string(spec->default_text) : NULL;
  bool complete = d->section && d->name && d->help && (d->default_text || !spec->default_text);
  if (complete && spec->n_choices > 0) {
    d->choice_names = hx_calloc((size_t)spec->n_choices, sizeof(char *), "choice names");
    d->choice_ids = hx_calloc((size_t)spec->n_choices, sizeof(int), "choice ids");
    complete = d->choice_names && d->choice_ids;
    for (int i = 0; complete && i < spec->n_choices; i++) {
      d->choice_names[i] = dup_string(spec->choice_names[i]);
      d->choice_ids[i] = spec->choice_ids[i];
      d->n_choices = i + 1;
      complete = d->choice_names[i] != NULL;
    }
  }
  ValueCheck check;
  int rc = complete ? HX_OK : HX_ERR_MEM;
  if (rc == HX_OK && d->default_text && *d->default_text &&
      !parse_value(d, d->default_text, NULL, 0, &check))
    rc = bad_value_error(HX_ERR_INTERNAL, d, d->default_text, "default in the definition", &check);
  if (rc != HX_OK) {
    free_definition(d);
    return rc;
  }
  p->n_defs++;
  return HX_OK;
}

int params_define(Params *p, const char *section, const char *name, ParamType type, int array_len,
                  const char *default_text, bool multiple, const char *help) {
  if (type == PARAM_CHOICE)
    return HX_ERROR(HX_ERR_INTERNAL, "parameter '%s': use params_define_choice for choices",
                    name ? name : "?");
  ParamSpec spec = {.section = section,
                    .name = name,
                    .default_text = default_text,
                    .help = help,
                    .type = type,
                    .array_len = array_len,
                    .multiple = multiple};
  return add_definition(p, &spec);
}

int params_define_choice(Params *p, const char *section, const char *name, const char *default_text,
                         int n_choices, const char *const names[], const int ids[],
                         const char *help) {
  if (n_choices <= 0 || !names || !ids)
    return HX_ERROR(HX_ERR_INTERNAL, "choice parameter '%s' needs at least one choice",
                    name ? name : "?");
  ParamSpec spec = {.section = section,
                    .name = name,
                    .default_text = default_text,
                    .help = help,
                    .type = PARAM_CHOICE,
                    .n_choices = n_choices,
                    .choice_names = names,
                    .choice_ids = ids};
  return add_definition(p, &spec);
}

/* ---------------------------------------------------------------------------------------------
 * Setting values */

static int unknown_key_error(const Params *p, const char *source, const char *key) {
  if (str_ieq(key, "DEFVAR"))
    return HX_ERROR(HX_ERR_INPUT, "%s: DEFVAR is not supported; write the values directly", source);
  const char *best = NULL;
  size_t best_distance = SIZE_MAX;
  for (int i = 0; i < p->n_defs + flexi_key_count(); i++) { /* hexdg's keys, then FLEXI's */
    const char *name = i < p->n_defs ? p->defs[i].name : flexi_key_at(i - p->n_defs)->name;
    size_t distance = edit_distance(key, name);
    if (distance < best_distance) {
      best_distance = distance;
      best = name;
    }
  }
  size_t key_len = strlen(key);
  if (best && best_distance <= (key_len / 2 > 2 ? key_len / 2 : 2))
    return HX_ERROR(HX_ERR_INPUT, "%s: unknown parameter '%s'; did you mean '%s'?", source, key,
                    best);
  return HX_ERROR(HX_ERR_INPUT, "%s: unknown parameter '%s' (--help lists all parameters)", source,
                  key);
}

/* One notice per FLEXI key that changes nothing in hexdg. */
static int notice_no_effect(Params *p, const FlexiKey *k) {
  for (int i = 0; i < p->n_noticed; i++)
    if (str_ieq(p->noticed[i], k->name)) return HX_OK;
  char **noticed =
      grow_array(p->noticed, &p->cap_noticed, p->n_noticed + 1, sizeof *noticed, "notices");
  if (!noticed) return HX_ERR_MEM;
  p->noticed = noticed;
  if (!(noticed[p->n_noticed] = dup_string(k->name))) return HX_ERR_MEM;
  p->n_noticed++;
  if (p->notices)
    fprintf(p->notices, "hexdg: notice: %s has no effect in hexdg (%s)\n", k->name, k->why);
  return HX_OK;
}

/* A key hexdg does not register but FLEXI knows: its disposition (core/flexi_keys.c). */
static int flexi_key_value(Params *p, const FlexiKey *k, const char *text, const char *source) {
  switch (k->disposition) {
  case FLEXI_KEY_NOEFFECT:
    return notice_no_effect(p, k);
  case FLEXI_KEY_OFF_ONLY:
    if (flexi_key_value_is_off(k, text)) return HX_OK;
    return HX_ERROR(HX_ERR_INPUT,
                    "%s: FLEXI parameter '%s = %s' is not supported: %s (hexdg accepts only '%s "
                    "= %s', which changes nothing)",
                    source, k->name, text, k->why, k->name, k->off_values);
  case FLEXI_KEY_REFUSED:
    return HX_ERROR(HX_ERR_INPUT, "%s: FLEXI parameter '%s' (FLEXI module %s) is not supported: %s",
                    source, k->name, k->module, k->why);
  default:
    return HX_ERROR(HX_ERR_INPUT,
                    "%s: FLEXI parameter '%s' is not read by this hexdg command (it is read by "
                    "hexdg run)",
                    source, k->name);
  }
}

static int store_value(Params *p, const char *key, const char *text, const char *source,
                       bool from_file) {
  ParamDef *d = find_def(p, key);
  if (!d) {
    const FlexiKey *k = flexi_key_find(key);
    return k ? flexi_key_value(p, k, text, source) : unknown_key_error(p, source, key);
  }
  ValueCheck check;
  if (!parse_value(d, text, NULL, 0, &check))
    return bad_value_error(HX_ERR_INPUT, d, text, source, &check);
  if (!d->multiple && d->n_values > 0) {
    const ParamValue *old = &d->values[0];
    if (from_file && old->from_file)
      return HX_ERROR(HX_ERR_INPUT,
                      "%s: parameter '%s' is given again (first at %s); keep only one", source,
                      d->name, old->source);
    if (from_file) return HX_OK; /* a value set from code or the command line wins */
    free(d->values[0].text);
    free(d->values[0].source);
    d->n_values = 0;
  }
  ParamValue *values =
      grow_array(d->values, &d->cap_values, d->n_values + 1, sizeof *values, "parameter values");
  if (!values) return HX_ERR_MEM;
  d->values = values;
  ParamValue value = {dup_string(text), dup_string(source), from_file};
  if (!value.text || !value.source) {
    free(value.text);
    free(value.source);
    return HX_ERR_MEM;
  }
  values[d->n_values++] = value;
  return HX_OK;
}

int params_set(Params *p, const char *name, const char *value, const char *source) {
  char *copy = dup_string(value);
  if (!copy) return HX_ERR_MEM;
  int rc = store_value(p, name, trim(copy), source ? source : "params_set", false);
  free(copy);
  return rc;
}

static int read_line(Params *p, const char *path, int line_no, char *line) {
  if (line_no == 1 && strncmp(line, "\xEF\xBB\xBF", 3) == 0) line += 3; /* UTF-8 byte order mark */
  char *comment = strchr(line, '!');
  if (comment) *comment = '\0';
  char *content = trim(line);
  if (!*content) return HX_OK;
  char *equals = strchr(content, '=');
  if (!equals)
    return HX_ERROR(HX_ERR_INPUT, "%s:%d: expected 'Key = value', got '%s'", path, line_no,
                    content);
  *equals = '\0';
  char *key = trim(content), *value = trim(equals + 1);
  if (!*key)
    return HX_ERROR(HX_ERR_INPUT, "%s:%d: parameter name missing before '='", path, line_no);
  int len = snprintf(NULL, 0, "%s:%d", path, line_no);
  char *source = hx_malloc((size_t)len + 1, "parameter source");
  if (!source) return HX_ERR_MEM;
  snprintf(source, (size_t)len + 1, "%s:%d", path, line_no);
  int rc = store_value(p, key, value, source, true);
  free(source);
  return rc;
}

int params_read_file(Params *p, const char *path) {
  if (p->file_path)
    return HX_ERROR(HX_ERR_INTERNAL, "params_read_file('%s') after '%s' was read already", path,
                    p->file_path);
  FILE *f = fopen(path, "r");
  if (!f)
    return HX_ERROR(HX_ERR_INPUT, "cannot open parameter file '%s': %s", path, strerror(errno));
  p->file_path = dup_string(path);
  int rc = p->file_path ? HX_OK : HX_ERR_MEM;
  char *line = NULL;
  size_t cap = 0;
  for (int line_no = 1; rc == HX_OK && getline(&line, &cap, f) != -1; line_no++)
    rc = read_line(p, path, line_no, line);
  if (rc == HX_OK && ferror(f))
    rc = HX_ERROR(HX_ERR_INPUT, "cannot read parameter file '%s': %s", path, strerror(errno));
  free(line);
  fclose(f);
  return rc;
}

/* ---------------------------------------------------------------------------------------------
 * Getters */

static int missing_mandatory_error(const Params *p, const ParamDef *d) {
  if (p->file_path)
    return HX_ERROR(HX_ERR_INPUT,
                    "missing mandatory parameter '%s' (%s) in parameter file '%s'; add a "
                    "line '%s = ...'",
                    d->name, d->help, p->file_path, d->name);
  return HX_ERROR(HX_ERR_INPUT,
                  "missing mandatory parameter '%s' (%s): no parameter file was read "
                  "and it was not set",
                  d->name, d->help);
}

enum { CURRENT_VALUE = INT_MIN }; /* idx of lookup: the last value given, else the default */

/* Text and source of the idx-th value of name, or of its CURRENT_VALUE. */
static int lookup(const Params *p, const char *name, ParamType type, int idx, const ParamDef **def,
                  const char **text, const char **source) {
  const ParamDef *d = find_def(p, name);
  if (!d) return HX_ERROR(HX_ERR_INTERNAL, "parameter '%s' is read but was never defined", name);
  if (d->type != type)
    return HX_ERROR(HX_ERR_INTERNAL, "parameter '%s' is of type %s but is read as %s", d->name,
                    type_name(d->type), type_name(type));
  *def = d;
  if (idx == CURRENT_VALUE && d->n_values > 0) idx = d->n_values - 1;
  if (idx >= 0 && idx < d->n_values) {
    *text = d->values[idx].text;
    *source = d->values[idx].source;
    return HX_OK;
  }
  if (d->n_values == 0 && !d->default_text) return missing_mandatory_error(p, d);
  if (idx != CURRENT_VALUE)
    return HX_ERROR(HX_ERR_INTERNAL, "parameter '%s' has %d values; value %d was requested",
                    d->name, d->n_values, idx);
  if (!*d->default_text && type != PARAM_STRING)
    return HX_ERROR(HX_ERR_INTERNAL,
                    "parameter '%s' has no default and was not set; check params_is_set first",
                    d->name);
  *text = d->default_text;
  *source = "default";
  return HX_OK;
}

static int get_value(const Params *p, const char *name, ParamType type, int idx, int n, void *out) {
  const ParamDef *d;
  const char *text, *source;
  HX_CHECK(lookup(p, name, type, idx, &d, &text, &source));
  if (is_array(type) && d->array_len >= 0 && n != d->array_len)
    return HX_ERROR(HX_ERR_INTERNAL, "parameter '%s' has %d entries but %d were requested", d->name,
                    d->array_len, n);
  ValueCheck check;
  if (!parse_value(d, text, out, n, &check))
    return bad_value_error(HX_ERR_INTERNAL, d, text, source, &check);
  if (is_array(type) && check.n_entries != n)
    return HX_ERROR(HX_ERR_INPUT, "%s: parameter '%s' has %d entries, but %d are needed", source,
                    d->name, check.n_entries, n);
  return HX_OK;
}

int params_get_int(const Params *p, const char *name, int *out) {
  return get_value(p, name, PARAM_INT, CURRENT_VALUE, 1, out);
}
int params_get_real(const Params *p, const char *name, double *out) {
  return get_value(p, name, PARAM_REAL, CURRENT_VALUE, 1, out);
}
int params_get_logical(const Params *p, const char *name, bool *out) {
  return get_value(p, name, PARAM_LOGICAL, CURRENT_VALUE, 1, out);
}
int params_get_choice(const Params *p, const char *name, int *id_out) {
  return get_value(p, name, PARAM_CHOICE, CURRENT_VALUE, 1, id_out);
}
int params_get_int_array(const Params *p, const char *name, int n, int *out) {
  return get_value(p, name, PARAM_INT_ARRAY, CURRENT_VALUE, n, out);
}
int params_get_real_array(const Params *p, const char *name, int n, double *out) {
  return get_value(p, name, PARAM_REAL_ARRAY, CURRENT_VALUE, n, out);
}
int params_get_logical_array(const Params *p, const char *name, int n, bool *out) {
  return get_value(p, name, PARAM_LOGICAL_ARRAY, CURRENT_VALUE, n, out);
}
int params_get_int_at(const Params *p, const char *name, int idx, int *out) {
  return get_value(p, name, PARAM_INT, idx, 1, out);
}
int params_get_real_at(const Params *p, const char *name, int idx, double *out) {
  return get_value(p, name, PARAM_REAL, idx, 1, out);
}
int params_get_int_array_at(const Params *p, const char *name, int idx, int n, int *out) {
  return get_value(p, name, PARAM_INT_ARRAY, idx, n, out);
}
int params_get_real_array_at(const Params *p, const char *name, int idx, int n, double *out) {
  return get_value(p, name, PARAM_REAL_ARRAY, idx, n, out);
}

static int get_string(const Params *p, const char *name, int idx, const char **out) {
  const ParamDef *d;
  const char *source;
  return lookup(p, name, PARAM_STRING, idx, &d, out, &source);
}
int params_get_string(const Params *p, const char *name, const char **out) {
  return get_string(p, name, CURRENT_VALUE, out);
}
int params_get_string_at(const Params *p, const char *name, int idx, const char **out) {
  return get_string(p, name, idx, out);
}

int params_array_len(const Params *p, const char *name) {
  const ParamDef *d = find_def(p, name);
  if (!d || !is_array(d->type)) {
    HX_ERROR(HX_ERR_INTERNAL, "params_array_len: '%s' is not a defined array parameter", name);
    return -1;
  }
  const char *text, *source;
  ValueCheck check;
  if (lookup(p, name, d->type, CURRENT_VALUE, &d, &text, &source) != HX_OK) return -1;
  parse_value(d, text, NULL, 0, &check);
  return check.n_entries;
}

int params_array_len_at(const Params *p, const char *name, int idx) {
  const ParamDef *d = find_def(p, name);
  if (!d || !is_array(d->type) || idx < 0 || idx >= d->n_values) {
    HX_ERROR(HX_ERR_INTERNAL, "params_array_len_at: '%s' has no array value %d", name, idx);
    return -1;
  }
  ValueCheck check;
  parse_value(d, d->values[idx].text, NULL, 0, &check);
  return check.n_entries;
}

int params_count(const Params *p, const char *name) {
  const ParamDef *d = find_def(p, name);
  if (!d) HX_ERROR(HX_ERR_INTERNAL, "params_count: parameter '%s' was never defined", name);
  return d ? d->n_values : 0;
}

bool params_is_defined(const Params *p, const char *name) {
  return find_def(p, name) != NULL;
}

bool params_is_set(const Params *p, const char *name) {
  const ParamDef *d = find_def(p, name);
  return d && d->n_values > 0;
}

const char *params_choice_name(const Params *p, const char *name, int id) {
  const ParamDef *d = find_def(p, name);
  for (int i = 0; d && i < d->n_choices; i++)
    if (d->choice_ids[i] == id) return d->choice_names[i];
  return "?";
}

int params_check_mandatory(const Params *p) {
  int n_missing = 0;
  const ParamDef *first = NULL;
  for (int i = 0; i < p->n_defs; i++) {
    if (p->defs[i].default_text || p->defs[i].n_values > 0) continue;
    if (!first) first = &p->defs[i];
    n_missing++;
  }
  if (n_missing <= 1) return first ? missing_mandatory_error(p, first) : HX_OK;
  char *message = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&message, &size);
  if (!f) return HX_ERROR(HX_ERR_INPUT, "%d mandatory parameters are missing", n_missing);
  fprintf(f, "%d mandatory parameters are missing in parameter file '%s':", n_missing,
          p->file_path ? p->file_path : "(none read)");
  for (int i = 0; i < p->n_defs; i++)
    if (!p->defs[i].default_text && p->defs[i].n_values == 0)
      fprintf(f, "\n  %s (%s)", p->defs[i].name, p->defs[i].help);
  fclose(f);
  int rc = HX_ERROR(HX_ERR_INPUT, "%s", message);
  free(message);
  return rc;
}

/* ---------------------------------------------------------------------------------------------
 * Help text and markdown documentation */

/* True if definition i is the first of its section (sections are listed in definition order). */
static bool opens_section(const Params *p, int i) {
  for (int j = 0; j < i; j++)
    if (strcmp(p->defs[j].section, p->defs[i].section) == 0) return false;
  return true;
}

void params_print_help(const Params *p, FILE *f) {
  int width = 0;
  for (int i = 0; i < p->n_defs; i++) {
    int len = (int)strlen(p->defs[i].name);
    width = len > width ? len : width;
  }
  for (int i = 0; i < p->n_defs; i++) {
    if (!opens_section(p, i)) continue;
    fprintf(f, "%s%s\n", i ? "\n" : "", p->defs[i].section);
    for (int j = i; j < p->n_defs; j++) {
      const ParamDef *d = &p->defs[j];
      if (strcmp(d->section, p->defs[i].section) != 0) continue;
      fprintf(f, "  %-*s  [", width, d->name);
      write_type(f, d);
      if (!d->default_text)
        fputs(", mandatory", f);
      else if (!*d->default_text)
        fputs(", no default", f);
      else
        fprintf(f, ", default: %s", d->default_text);
      fprintf(f, "%s]  %s\n", d->multiple ? ", may repeat" : "", d->help);
      if (d->type != PARAM_CHOICE) continue;
      fprintf(f, "  %-*s  choices: ", width, "");
      write_choices(f, d, "");
      fputc('\n', f);
    }
  }
}

/* Markdown table cell text: '|' would end the cell, a newline the row. */
static void write_cell(FILE *f, const char *text) {
  for (; *text; text++) {
    if (*text == '|')
      fputs("\\|", f);
    else
      fputc(*text == '\n' ? ' ' : *text, f);
  }
}

void params_write_markdown(const Params *p, FILE *f) {
  fputs("# hexdg parameters\n\n"
        "Generated from the parameter definitions (`--help` prints the same list). Parameter "
        "files use FLEXI's syntax: `Key = value` with case-insensitive keys, `!` comments, "
        "`T`/`F` logicals, arrays `(/ a, b, c /)`, and numbers that may use `pi` and "
        "`+ - * / ( )`.\n",
        f);
  for (int i = 0; i < p->n_defs; i++) {
    if (!opens_section(p, i)) continue;
    fputs("\n## ", f);
    write_cell(f, p->defs[i].section);
    fputs("\n\n| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n", f);
    for (int j = i; j < p->n_defs; j++) {
      const ParamDef *d = &p->defs[j];
      if (strcmp(d->section, p->defs[i].section) != 0) continue;
      fprintf(f, "| `%s` | ", d->name);
      write_type(f, d);
      if (!d->default_text)
        fputs(" | *mandatory* | ", f);
      else if (!*d->default_text)
        fputs(" | (none) | ", f);
      else {
        fputs(" | `", f);
        write_cell(f, d->default_text);
        fputs("` | ", f);
      }
      write_cell(f, d->help);
      if (d->help[0] && d->help[strlen(d->help) - 1] != '.') fputc('.', f);
      if (d->type == PARAM_CHOICE) {
        fputs(" Choices: ", f);
        write_choices(f, d, "`");
        fputc('.', f);
      }
      fputs(d->multiple ? " May be given several times. |\n" : " |\n", f);
    }
  }
}
