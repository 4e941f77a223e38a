/* `hexdg regress DIR...`: a runner for FLEXI's reggie checks (builds.ini, excludeBuild.ini,
 * parameter.ini value lists, command_line.ini, analyze.ini), see docs/regress.md.
 *
 * The pieces: regress_ini.c reads reggie's key files, regress_combos.c expands value lists into
 * combinations, regress_builds.c maps FLEXI's CMake options to hexdg parameters,
 * regress_run.c prepares a run directory and starts hexdg, regress_jobs.c keeps up to --jobs
 * cores' worth of runs going, regress_analyze.c evaluates analyze.ini, regress_report.c prints the
 * table; regress.c drives them. */
#ifndef HEXDG_REGRESS_H
#define HEXDG_REGRESS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Entry point; argv[0] is the first argument after "regress". Returns the exit status. */
int regress_command(int argc, char **argv);

/* ---- reggie key files (regress_ini.c) ---- */
typedef struct {
  char *key;
  char *value;
} RgPair;

typedef struct {
  RgPair *pairs;
  int n;
} RgDict;

/* One `key = v1, v2, ...` line: values split at commas outside (/ ... /) brackets. */
typedef struct {
  char *name;
  char **values;
  int n_values;
  int line; /* 1-based line of the file */
} RgOption;

typedef struct {
  RgOption *opts; /* in file order, a repeated key (RefState) is one option per line */
  int n_opts;
  RgDict *excludes; /* EXCLUDE:k=v,k=v lines */
  int n_excludes;
  RgDict *nocross; /* nocrosscombination:k1,k2 lines (keys only) */
  int n_nocross;
} RgKeyFile;

/* Reads a reggie key file as reggie does: whitespace removed, `\s` is a space, `!` starts a
 * comment. HX_ERR_IO (quiet) when the file does not exist. */
int rg_keyfile_read(const char *path, RgKeyFile *kf);
void rg_keyfile_free(RgKeyFile *kf);
/* dir/name read into kf: true; absent or unreadable: false (kf empty). */
bool rg_keyfile_read_optional(const char *dir, const char *name, RgKeyFile *kf);
/* The option named key (case-insensitive), or NULL. */
const RgOption *rg_keyfile_find(const RgKeyFile *kf, const char *key);
/* Split s at commas that are not inside round brackets; *out is a NULL-free array of n copies. */
int rg_split_values(const char *s, char ***out, int *n);
void rg_free_strings(char **v, int n);
/* snprintf that cuts silently (table cells, labels). */
void rg_fmt(char *dst, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Removes all whitespace, turns `\s` into a space and cuts a `!` comment; returns s. */
char *rg_clean_line(char *s);

/* ---- combinations (regress_combos.c) ---- */
/* All valid combinations of kf's value lists in reggie's order (the option with the most values
 * varies fastest), without the EXCLUDE: matches and the nocrosscombination mismatches.
 * *digits: n_combos x kf->n_opts value indices (malloc'd). */
int rg_combinations(const RgKeyFile *kf, int **digits, int *n_combos);
/* The value of option `key` in combination `digits` (NULL if absent). */
const char *rg_combo_value(const RgKeyFile *kf, const int *digits, const char *key);
/* "k=v k=v" of the options with more than one value (empty when none). */
void rg_combo_label(const RgKeyFile *kf, const int *digits, char *out, size_t n);
/* Whether any single key=value of excl (excludeBuild.ini) matches the build combination. */
bool rg_build_excluded(const RgKeyFile *excl, const RgKeyFile *builds, const int *digits, char *why,
                       size_t n);

/* ---- builds (regress_builds.c) ---- */
#define RG_MAX_OVERRIDES 24
typedef struct {
  char key[64];
  char value[96];
  bool file_wins; /* a run-time key FLEXI also reads from the parameter file (SplitDG) */
} RgOverride;

typedef struct {
  RgOverride ov[RG_MAX_OVERRIDES];
  int n;
  char unsupported[384]; /* non-empty: the build cannot be honoured, and why */
  char label[256];       /* the varying options, for the table */
} RgBuild;

/* Map one combination of builds.ini (or none: kf NULL) to hexdg parameters. */
int rg_build_map(const RgKeyFile *kf, const int *digits, RgBuild *b);
/* Whether this hexdg defines parameter key (registry of `hexdg --help`); key "`name`" (in
 * backticks): whether some parameter has the choice name. */
bool rg_hexdg_knows(const char *key);

/* ---- runs (regress_run.c) ---- */
typedef struct {
  const char *hexdg;   /* executable */
  const char *mpiexec; /* NULL: none found */
  int timeout_s;
  bool one_thread; /* --jobs > 1: OMP_NUM_THREADS=1 unless the environment sets it */
} RgExec;

int rg_mkdir_p(const char *path);
/* Copies the regular files of src into dst (created), except parameter.ini. */
int rg_copy_example(const char *src, const char *dst);
/* Writes the expanded parameter file: value-list lines get the run's value, reggie's
 * EXCLUDE:/nocrosscombination: lines are commented out, the build's overrides appended. */
int rg_write_parameter_file(const char *src, const RgKeyFile *kf, const int *digits,
                            const RgBuild *b, const char *dst);
/* Starts hexdg in dir (std.out / std.err there) in a process group of its own, on `ranks` ranks
 * through ex->mpiexec when ranks > 1. Returns HX_OK unless the run could not be started. */
int rg_spawn(const RgExec *ex, const char *dir, int ranks, const char *restart, const char *suffix,
             pid_t *pid);
/* Judges a finished run from its wait status: *ok: exit status 0 within the time limit; err: why
 * not (the first error line of the run, the time limit, the signal), empty when ok. */
void rg_judge(const RgExec *ex, const char *dir, int ranks, int status, bool timed_out, bool *ok,
              char *err, size_t n_err);

/* ---- runs under way at once (regress_jobs.c) ---- */
typedef struct {
  char dir[1024]; /* run directory */
  int ranks;      /* slots it takes */
  void *owner;    /* the caller's: whose run this is */
  int index;      /* the caller's: which run of the owner */
  int number;     /* the caller's: place in start order (progress lines) */
  pid_t pid;
  double t0; /* start, monotonic seconds */
  bool timed_out;
} RgJob;

typedef struct {
  int slots; /* --jobs K: cores' worth of runs at once */
  int used;  /* slots taken by the runs under way */
  RgJob *jobs;
  int n, cap;
} RgPool;

typedef struct {
  RgJob job;
  bool ok; /* as rg_judge */
  double wall_s;
  char err[400];
} RgDone;

/* Whether a run on `ranks` ranks may start now: it fits into the free slots, or nothing runs (a
 * run wider than the pool runs alone). */
bool rg_pool_fits(const RgPool *p, int ranks);
/* Starts job (dir, ranks and the caller's fields set) with rg_spawn. */
int rg_pool_start(RgPool *p, const RgExec *ex, const RgJob *job, const char *restart,
                  const char *suffix);
/* Waits for a run to finish, stopping runs past the time limit meanwhile: true with *done, or
 * false when none is under way. */
bool rg_pool_wait(RgPool *p, const RgExec *ex, RgDone *done);
void rg_pool_free(RgPool *p);
/* From now on SIGINT, SIGTERM and SIGHUP kill the runs under way (rg_pool_wait) and keep new
 * ones from starting; rg_pool_interrupted: the signal, or 0. */
void rg_pool_catch_signals(void);
int rg_pool_interrupted(void);

/* ---- analyzers (regress_analyze.c) ---- */
enum { RG_PASS = 0, RG_FAIL, RG_UNSUPPORTED, RG_SKIPPED, RG_DRY };

typedef struct {
  char check[96];
  char build[160];
  char run[160];
  char analyzer[48];
  char measured[64];
  char tolerance[48];
  int status;
  char reason[400];
  int block, pos; /* place in the table: runs finish out of order under --jobs (regress.c) */
} RgRow;

typedef struct {
  RgRow *rows;
  int n, cap;
} RgTable;

int rg_table_add(RgTable *t, const RgRow *r);
void rg_table_free(RgTable *t);

/* One finished run of a command line. */
typedef struct {
  char dir[1024];
  char label[160];
  bool ok;
  int N; /* polynomial degree of the run (-1 unknown) */
} RgRunResult;

/* Evaluates analyze.ini (may be absent: kf NULL) for the runs of one command line; adds rows to t
 * with proto's check/build fields. */
int rg_analyze(const RgKeyFile *kf, const RgRunResult *runs, int n_runs, const RgRow *proto,
               RgTable *t);
/* Last L2 line of a run's std.out ("L_2 :" of FLEXI, "L2 :" of hexdg); n values or -1. */
int rg_read_l2(const char *dir, double *l2, int max);
/* Largest difference of dataset `set` of file against `set_ref` of ref (absolute, or relative to
 * the reference where it is not zero) and the number of entries above tol. */
int rg_h5_compare(const char *file, const char *set, const char *ref, const char *set_ref,
                  bool relative, double tol, double *max_diff, long *n_above, char *why,
                  size_t n_why);

/* ---- report (regress_report.c) ---- */
void rg_report_text(const RgTable *t, FILE *f);
void rg_report_markdown(const RgTable *t, FILE *f, const char *title);
const char *rg_status_name(int status);

#endif
