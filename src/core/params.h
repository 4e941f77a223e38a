/* Parameter registry and FLEXI-syntax parameter-file reader.
 *
 * Every option is defined once (section, name, type, default, help); `hexdg --help` and
 * docs/parameters.md are generated from the same table. Files use FLEXI's syntax:
 *   Key = value        keys case-insensitive, '!' starts a comment, blank lines ignored
 *   T/F (also .true./.false., true/false) for logicals
 *   (/ a, b, c /) for arrays, numbers may contain pi and + - * / ( ) (e.g. 2*pi, -pi/2)
 *   a key defined as `multiple` may be repeated (RefState, BoundaryName, ...)
 * Keys hexdg does not register but FLEXI does are handled by their disposition in
 * core/flexi_keys.h (no effect: one notice; refused: an error naming the missing feature).
 * Unknown keys, bad values and missing mandatory keys are errors that name the file,
 * line, key and (for unknown keys) the closest valid key. */
#ifndef HEXDG_PARAMS_H
#define HEXDG_PARAMS_H
#include <stdbool.h>
#include <stdio.h>

typedef enum {
  PARAM_INT,
  PARAM_REAL,
  PARAM_LOGICAL,
  PARAM_STRING,
  PARAM_CHOICE, /* a named option with an integer id; the file may give the name or the id */
  PARAM_INT_ARRAY,
  PARAM_REAL_ARRAY,
  PARAM_LOGICAL_ARRAY
} ParamType;

typedef struct Params Params;

Params *params_create(void);
void params_destroy(Params *p);

/* Define an option. default_text: the default as it would be written in a file, or NULL for a
 * mandatory option (an error if absent when read), or "" for an optional option without
 * default (params_is_set tells whether it was given). array_len: number of entries of an
 * array type (0 for scalars; -1 for any length). multiple: the key may appear several times.
 * Returns HX_OK, or an error for a duplicate name. */
int params_define(Params *p, const char *section, const char *name, ParamType type, int array_len,
                  const char *default_text, bool multiple, const char *help);

/* Define a PARAM_CHOICE option: names[i] <-> ids[i]. default_text is one of the names. */
int params_define_choice(Params *p, const char *section, const char *name, const char *default_text,
                         int n_choices, const char *const names[], const int ids[],
                         const char *help);

/* Added: where the notices "<key> has no effect in hexdg (why)" of FLEXI keys go (stdout by
 * default; NULL: none, e.g. on MPI ranks other than 0), and how many distinct keys were noticed. */
void params_set_notice_stream(Params *p, FILE *f);
int params_notice_count(const Params *p);

/* Read a parameter file; all errors name the file and line. May be called once per Params. */
int params_read_file(Params *p, const char *path);

/* Set a value from code or the command line (source is shown in errors, e.g. "--backend").
 * Overrides a value from a file (for `multiple` keys it appends), also when the file is read
 * afterwards. The value is checked at once; errors name the source. */
int params_set(Params *p, const char *name, const char *value, const char *source);

/* Getters: names are case-insensitive. They return HX_OK or an error that names the key (and the
 * file/line where it was set): missing mandatory key, wrong array length, type mismatch. The value
 * is the file's (last occurrence for non-multiple) or the default. */
int params_get_int(const Params *p, const char *name, int *out);
int params_get_real(const Params *p, const char *name, double *out);
int params_get_logical(const Params *p, const char *name, bool *out);
int params_get_string(const Params *p, const char *name, const char **out);
int params_get_choice(const Params *p, const char *name, int *id_out);
int params_get_int_array(const Params *p, const char *name, int n, int *out);
int params_get_real_array(const Params *p, const char *name, int n, double *out);
int params_get_logical_array(const Params *p, const char *name, int n, bool *out);

/* Multiple-valued options: number of occurrences (file + params_set), and the idx-th value. */
int params_count(const Params *p, const char *name);
int params_get_string_at(const Params *p, const char *name, int idx, const char **out);
int params_get_int_at(const Params *p, const char *name, int idx, int *out);
int params_get_real_at(const Params *p, const char *name, int idx, double *out);
int params_get_real_array_at(const Params *p, const char *name, int idx, int n, double *out);
/* Added for FLEXI's repeated integer pairs such as BoundaryType = (/ 2, 0 /). */
int params_get_int_array_at(const Params *p, const char *name, int idx, int n, int *out);

/* Added: number of entries of the current value of an array option (needed for array_len -1),
 * or -1 after printing an error. */
int params_array_len(const Params *p, const char *name);
/* Added: the same for the idx-th value of a multiple array option (RefState). */
int params_array_len_at(const Params *p, const char *name, int idx);

/* Added: HX_OK if every mandatory option has a value, else one error listing all missing ones
 * (key and help) and the file; call it after the file and the command line were applied. */
int params_check_mandatory(const Params *p);

/* Added: whether the key is registered (defined); FLEXI keys outside the registry are not. */
bool params_is_defined(const Params *p, const char *name);

/* Whether the key was given (in the file or by params_set), not defaulted. */
bool params_is_set(const Params *p, const char *name);

/* Name of the choice with this id (for printing), or "?" */
const char *params_choice_name(const Params *p, const char *name, int id);

/* Evaluate a number with pi and + - * / ( ) and e-notation; HX_OK or HX_ERR_INPUT. */
int params_eval_real(const char *text, double *out);
/* Added: the same without printing; on failure *why (if why is not NULL) says what is wrong.
 * The reader uses it and reports the error itself with file, line and key. */
bool params_eval_real_quiet(const char *text, double *out, const char **why);

/* Help: every option with type, default and help, grouped by section. */
void params_print_help(const Params *p, FILE *f);
void params_write_markdown(const Params *p, FILE *f);

#endif
