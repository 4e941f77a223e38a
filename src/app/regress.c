/* `hexdg regress DIR...`: builds x examples x command lines x runs, as reggie loops them, then
 * the analyzers of each command line; prints the table (docs/regress.md). Runs start in that
 * order, up to --jobs cores' worth at once; a command line's analyzers run when its last run has
 * finished, and every row keeps its place in the table whatever order the runs finish in. */
#define _DEFAULT_SOURCE /* realpath */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/regress.h"
#include "core/error.h"

typedef struct {
  const char *out_dir;
  const char *markdown;
  bool dry_run;
  RgExec ex;
  RgPool pool; /* runs under way */
  RgTable table;
  int n_started;
  int n_blocks; /* places handed out in the table: a row, or the rows of a command line */
} Regress;

/* A command line's runs; its analyzers run when the last one has finished */
typedef struct {
  RgRow proto;
  char example_dir[1024]; /* analyze.ini is read from there */
  RgRunResult *runs;
  int n_runs;
  int open;    /* runs under way, plus one while its runs are being started */
  int block;   /* its place in the table */
  bool broken; /* the runner stopped on it: no analyzers */
} CmdLine;

/* FLEXI's implicit time discretizations: hexdg steps explicitly only */
static const char *const IMPLICIT[] = {"eulerimplicit", "cranknicolson2-2", "esdirk2-3",
                                       "esdirk3-4",     "esdirk4-6",        "rosenbrock"};

static void usage(FILE *f) {
  fputs("usage: hexdg regress DIR... [--out DIR] [--markdown FILE] [--dry-run] [--timeout S]\n"
        "                            [--jobs K] [--mpiexec PATH] [--hexdg PATH]\n"
        "  Runs FLEXI's reggie checks: DIR is a check group (with builds.ini), one example of\n"
        "  a group (with parameter.ini), or a folder of groups. Every builds.ini combination not\n"
        "  excluded by an example's excludeBuild.ini is a build (a set of hexdg parameters);\n"
        "  parameter.ini's value lists (N = 2,3,4) and command_line.ini (MPI = 1,2) expand into\n"
        "  runs in OUT/<group>/build_NNNN/<example>/cmd_NNNN/run_NNNN; analyze.ini judges them.\n"
        "  --out DIR        output folder (default ./regress_out)\n"
        "  --markdown FILE  also write the table as Markdown\n"
        "  --dry-run        list builds and runs, run nothing\n"
        "  --timeout S      stop a run after S seconds (default 600)\n"
        "  --jobs K         run up to K cores' worth of runs at once (default 1): a run with\n"
        "                   MPI = k takes k, one wider than K runs alone; runs start and rows\n"
        "                   come out in the order of --jobs 1. With K > 1 every run gets\n"
        "                   OMP_NUM_THREADS=1 unless the environment sets it\n"
        "  --mpiexec PATH   launcher for MPI = k > 1 (default: $HEXDG_MPIEXEC, else mpiexec in\n"
        "                   PATH)\n"
        "  --hexdg PATH     solver executable (default: this hexdg)\n"
        "  Exit status 1 if any run or analyzer failed; 'not supported' rows are not failures.\n",
        f);
}

static bool exists(const char *dir, const char *name) {
  char path[2048];
  rg_fmt(path, sizeof path, "%s/%s", dir, name);
  return access(path, F_OK) == 0;
}

static const char *base_name(const char *path) {
  size_t len = strlen(path);
  while (len > 1 && path[len - 1] == '/')
    len--;
  static char buf[1024];
  rg_fmt(buf, sizeof buf, "%.*s", (int)len, path);
  char *slash = strrchr(buf, '/');
  return slash ? slash + 1 : buf;
}

/* Sorted sub-folders of dir */
static int subdirs(const char *dir, char ***out, int *n) {
  *out = NULL;
  *n = 0;
  DIR *d = opendir(dir);
  if (!d) return HX_ERROR(HX_ERR_IO, "hexdg regress: cannot read folder %s", dir);
  struct dirent *e;
  while ((e = readdir(d))) {
    char path[2048];
    struct stat st;
    rg_fmt(path, sizeof path, "%s/%s", dir, e->d_name);
    if (e->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    char **grown = realloc(*out, (size_t)(*n + 1) * sizeof *grown);
    HX_ALLOC_CHECK(grown);
    *out = grown;
    (*out)[(*n)++] = strdup(path);
  }
  closedir(d);
  for (int i = 1; i < *n; i++)
    for (int j = i; j > 0 && strcmp((*out)[j], (*out)[j - 1]) < 0; j--) {
      char *t = (*out)[j];
      (*out)[j] = (*out)[j - 1];
      (*out)[j - 1] = t;
    }
  return HX_OK;
}

/* A row at place (block, pos) of the table */
static int add_row_at(Regress *g, const RgRow *proto, int block, int pos, const char *run,
                      const char *analyzer, int status, const char *measured, const char *reason) {
  RgRow row = *proto;
  row.block = block;
  row.pos = pos;
  rg_fmt(row.run, sizeof row.run, "%s", run);
  rg_fmt(row.analyzer, sizeof row.analyzer, "%s", analyzer);
  rg_fmt(row.measured, sizeof row.measured, "%s", measured ? measured : "");
  rg_fmt(row.reason, sizeof row.reason, "%s", reason ? reason : "");
  row.status = status;
  return rg_table_add(&g->table, &row);
}

/* A row at the next place of the table */
static int add_row(Regress *g, const RgRow *proto, const char *run, const char *analyzer,
                   int status, const char *measured, const char *reason) {
  return add_row_at(g, proto, g->n_blocks++, 0, run, analyzer, status, measured, reason);
}

static int row_order(const void *a, const void *b) {
  const RgRow *x = a, *y = b;
  if (x->block != y->block) return x->block < y->block ? -1 : 1;
  return (x->pos > y->pos) - (x->pos < y->pos);
}

/* analyze.ini of the command line over its runs; the rows follow its run rows */
static int analyze_command_line(Regress *g, const CmdLine *c) {
  RgKeyFile kf;
  bool has = rg_keyfile_read_optional(c->example_dir, "analyze.ini", &kf);
  RgTable t = {0};
  int rc = rg_analyze(has ? &kf : NULL, c->runs, c->n_runs, &c->proto, &t);
  for (int i = 0; i < t.n; i++) {
    t.rows[i].block = c->block;
    t.rows[i].pos = c->n_runs + i;
    int add = rg_table_add(&g->table, &t.rows[i]);
    if (rc == HX_OK) rc = add;
  }
  rg_table_free(&t);
  if (has) rg_keyfile_free(&kf);
  return rc;
}

/* One of c's holds is gone (a run finished, or all its runs were started): the last analyzes */
static int release_command_line(Regress *g, CmdLine *c) {
  int rc = HX_OK;
  if (--c->open > 0) return rc;
  if (!c->broken && !g->dry_run) rc = analyze_command_line(g, c);
  free(c->runs);
  free(c);
  return rc;
}

/* Waits for one run to finish (if one is under way) and enters its row */
static int reap_run(Regress *g) {
  RgDone d;
  if (!rg_pool_wait(&g->pool, &g->ex, &d)) return HX_OK;
  CmdLine *c = d.job.owner;
  RgRunResult *r = &c->runs[d.job.index];
  r->ok = d.ok;
  if (g->pool.slots > 1) printf("[%3d] %s %s ... ", d.job.number, c->proto.check, r->label);
  printf("%s (%.1f s)%s%s\n", r->ok ? "ok" : "FAILED", d.wall_s, r->ok ? "" : ": ", d.err);
  fflush(stdout);
  char wall[48];
  rg_fmt(wall, sizeof wall, "%.1f s", d.wall_s);
  int rc = add_row_at(g, &c->proto, c->block, d.job.index, r->label, "run",
                      r->ok ? RG_PASS : RG_FAIL, wall, r->ok ? r->dir : d.err);
  int rel = release_command_line(g, c);
  return rc != HX_OK ? rc : rel;
}

/* Until every run has finished; the first error is returned */
static int finish_runs(Regress *g) {
  int rc = HX_OK;
  while (g->pool.n > 0) {
    int e = reap_run(g);
    if (rc == HX_OK) rc = e;
  }
  return rc;
}

/* A parameter value this hexdg cannot run (implicit time stepping), else NULL */
static const char *run_unsupported(const RgKeyFile *params, const int *digits, char *why,
                                   size_t n) {
  const char *td = rg_combo_value(params, digits, "TimeDiscMethod");
  for (size_t i = 0; td && i < sizeof IMPLICIT / sizeof *IMPLICIT; i++) {
    char choice[64];
    rg_fmt(choice, sizeof choice, "`%s`", td);
    if (!strncasecmp(td, IMPLICIT[i], strlen(IMPLICIT[i])) && !rg_hexdg_knows(choice)) {
      rg_fmt(why, n, "implicit time stepping (TimeDiscMethod = %s) is not in hexdg", td);
      return why;
    }
  }
  return NULL;
}

static int run_degree(const RgKeyFile *params, const int *digits, const RgBuild *b) {
  for (int i = 0; i < b->n; i++)
    if (!strcasecmp(b->ov[i].key, "N")) return atoi(b->ov[i].value);
  const char *n = rg_combo_value(params, digits, "N");
  return n ? atoi(n) : -1;
}

typedef struct {
  const char *example_dir;
  const char *path; /* group/build_NNNN/example */
  const RgKeyFile *params;
  const RgBuild *b;
} Example;

/* Run ir of c: its row now (not supported, dry run), or started once the slots are free; its
 * row is entered when it finishes (reap_run). */
static int one_run(Regress *g, const Example *x, CmdLine *c, int ir, const int *pd, int ranks,
                   const char *restart, const char *suffix) {
  RgRunResult *r = &c->runs[ir];
  char why[256];
  r->ok = false;
  r->N = run_degree(x->params, pd, x->b);
  if (run_unsupported(x->params, pd, why, sizeof why))
    return add_row_at(g, &c->proto, c->block, ir, r->label, "run", RG_UNSUPPORTED, NULL, why);
  if (g->dry_run)
    return add_row_at(g, &c->proto, c->block, ir, r->label, "run", RG_DRY, NULL, r->dir);
  while (!rg_pool_fits(&g->pool, ranks))
    HX_CHECK(reap_run(g));
  char src[2048], dst[2048];
  rg_fmt(src, sizeof src, "%s/parameter.ini", x->example_dir);
  rg_fmt(dst, sizeof dst, "%s/parameter.ini", r->dir);
  HX_CHECK(rg_copy_example(x->example_dir, r->dir));
  HX_CHECK(rg_write_parameter_file(src, x->params, pd, x->b, dst));
  RgJob job = {.ranks = ranks, .owner = c, .index = ir, .number = ++g->n_started};
  rg_fmt(job.dir, sizeof job.dir, "%s", r->dir);
  if (g->pool.slots == 1) { /* one run at a time: its line is finished when it ends */
    printf("[%3d] %s %s ... ", job.number, c->proto.check, r->label);
    fflush(stdout);
  }
  HX_CHECK(rg_pool_start(&g->pool, &g->ex, &job, restart, suffix));
  c->open++;
  return HX_OK;
}

static CmdLine *new_command_line(Regress *g, const Example *x, const RgRow *proto, int n_runs) {
  CmdLine *c = calloc(1, sizeof *c);
  RgRunResult *runs = calloc((size_t)(n_runs > 0 ? n_runs : 1), sizeof *runs);
  if (!c || !runs) {
    free(c);
    free(runs);
    return NULL;
  }
  *c = (CmdLine){.proto = *proto, .runs = runs, .n_runs = n_runs, .open = 1};
  c->block = g->n_blocks++;
  rg_fmt(c->example_dir, sizeof c->example_dir, "%s", x->example_dir);
  return c;
}

static int command_line(Regress *g, const Example *x, const RgKeyFile *cmd, const int *cd, int ic,
                        const RgRow *proto) {
  const char *mpi = cmd ? rg_combo_value(cmd, cd, "MPI") : NULL;
  int ranks = mpi ? atoi(mpi) : 1;
  char clabel[64];
  rg_fmt(clabel, sizeof clabel, "cmd%d MPI=%d", ic + 1, ranks);
  if (ranks > 1 && !g->ex.mpiexec)
    return add_row(g, proto, clabel, "run", RG_UNSUPPORTED, NULL,
                   "MPI > 1 needs an mpiexec (--mpiexec) and a hexdg built with MPI");
#ifndef HEXDG_HAVE_MPI
  if (ranks > 1)
    return add_row(g, proto, clabel, "run", RG_UNSUPPORTED, NULL, "hexdg was built without MPI");
#endif
  int *pd, n_runs;
  HX_CHECK(rg_combinations(x->params, &pd, &n_runs));
  CmdLine *c = new_command_line(g, x, proto, n_runs);
  if (!c) {
    free(pd);
    return HX_ERROR(HX_ERR_MEM, "hexdg regress: out of memory for the %d runs of %s", n_runs,
                    proto->check);
  }
  int rc = HX_OK;
  for (int ir = 0; rc == HX_OK && ir < n_runs; ir++) {
    RgRunResult *r = &c->runs[ir];
    const int *d = pd + (size_t)ir * (size_t)x->params->n_opts;
    char plabel[128];
    rg_combo_label(x->params, d, plabel, sizeof plabel);
    rg_fmt(r->label, sizeof r->label, "%s run%d%s%s", clabel, ir + 1, plabel[0] ? " " : "", plabel);
    rg_fmt(r->dir, sizeof r->dir, "%s/%s/cmd_%04d/run_%04d", g->out_dir, x->path, ic + 1, ir + 1);
    rc = one_run(g, x, c, ir, d, ranks, cmd ? rg_combo_value(cmd, cd, "restart_file") : NULL,
                 cmd ? rg_combo_value(cmd, cd, "cmd_suffix") : NULL);
  }
  c->broken = rc != HX_OK;
  int rel = release_command_line(g, c);
  free(pd);
  return rc != HX_OK ? rc : rel;
}

static int example(Regress *g, const char *group, const char *dir, const RgKeyFile *builds,
                   const int *bd, int ib, const RgBuild *b) {
  RgKeyFile excl, cmd, params;
  bool has_excl = rg_keyfile_read_optional(dir, "excludeBuild.ini", &excl);
  char why[160];
  bool skip = has_excl && rg_build_excluded(&excl, builds, bd, why, sizeof why);
  if (has_excl) rg_keyfile_free(&excl);
  RgRow proto = {0};
  rg_fmt(proto.check, sizeof proto.check, "%s/%s", group, base_name(dir));
  rg_fmt(proto.build, sizeof proto.build, "b%d%s%s", ib + 1, b->label[0] ? " " : "", b->label);
  if (skip) {
    if (g->dry_run) return add_row(g, &proto, "", "build", RG_SKIPPED, NULL, why);
    return HX_OK; /* reggie skips excluded examples silently */
  }
  if (b->unsupported[0])
    return add_row(g, &proto, "", "build", RG_UNSUPPORTED, NULL, b->unsupported);
  char path[2048];
  rg_fmt(path, sizeof path, "%s/parameter.ini", dir);
  int rc = rg_keyfile_read(path, &params);
  if (rc != HX_OK) return add_row(g, &proto, "", "parameter.ini", RG_FAIL, NULL, "cannot read");
  bool has_cmd = rg_keyfile_read_optional(dir, "command_line.ini", &cmd);
  char xpath[1024];
  rg_fmt(xpath, sizeof xpath, "%s/build_%04d/%s", group, ib + 1, base_name(dir));
  Example x = {dir, xpath, &params, b};
  int *cd = NULL, n_cmd = 1;
  if (has_cmd) rc = rg_combinations(&cmd, &cd, &n_cmd);
  for (int ic = 0; rc == HX_OK && ic < n_cmd; ic++)
    rc = command_line(g, &x, has_cmd ? &cmd : NULL,
                      cd ? cd + (size_t)ic * (size_t)cmd.n_opts : NULL, ic, &proto);
  free(cd);
  rg_keyfile_free(&params);
  if (has_cmd) rg_keyfile_free(&cmd);
  return rc;
}

/* A group: builds.ini (optional) and its examples (or the one example given) */
static int group(Regress *g, const char *group_dir, const char *only_example) {
  RgKeyFile builds;
  bool has_builds = rg_keyfile_read_optional(group_dir, "builds.ini", &builds);
  int *bd = NULL, n_builds = 1, rc = HX_OK;
  if (has_builds) rc = rg_combinations(&builds, &bd, &n_builds);
  char **ex = NULL;
  int n_ex = 0;
  if (rc == HX_OK && !only_example) rc = subdirs(group_dir, &ex, &n_ex);
  char name[256];
  rg_fmt(name, sizeof name, "%s", base_name(group_dir));
  for (int ib = 0; rc == HX_OK && ib < n_builds; ib++) {
    const int *d = bd ? bd + (size_t)ib * (size_t)builds.n_opts : NULL;
    RgBuild b;
    rc = rg_build_map(has_builds ? &builds : NULL, d, &b);
    if (only_example && rc == HX_OK)
      rc = example(g, name, only_example, has_builds ? &builds : NULL, d, ib, &b);
    for (int ie = 0; rc == HX_OK && ie < n_ex; ie++)
      if (exists(ex[ie], "parameter.ini"))
        rc = example(g, name, ex[ie], has_builds ? &builds : NULL, d, ib, &b);
  }
  rg_free_strings(ex, n_ex);
  free(bd);
  if (has_builds) rg_keyfile_free(&builds);
  return rc;
}

static int walk(Regress *g, const char *dir, int depth) {
  if (exists(dir, "builds.ini")) return group(g, dir, NULL);
  if (exists(dir, "parameter.ini")) { /* one example: its group is the parent folder */
    char *full = realpath(dir, NULL);
    HX_ALLOC_CHECK(full);
    char *slash = strrchr(full, '/');
    if (slash && slash != full) *slash = '\0';
    int rc = group(g, full, dir);
    free(full);
    return rc;
  }
  if (depth > 2) return HX_OK;
  char **sub;
  int n;
  HX_CHECK(subdirs(dir, &sub, &n));
  int rc = HX_OK;
  for (int i = 0; rc == HX_OK && i < n; i++)
    rc = walk(g, sub[i], depth + 1);
  rg_free_strings(sub, n);
  return rc;
}

static const char *find_mpiexec(const char *option) {
  if (option) return option;
  const char *env = getenv("HEXDG_MPIEXEC");
  if (env && env[0]) return env;
  const char *path = getenv("PATH");
  static char found[1024];
  while (path && *path) {
    size_t len = strcspn(path, ":");
    rg_fmt(found, sizeof found, "%.*s/mpiexec", (int)len, path);
    if (access(found, X_OK) == 0) return found;
    path += len + (path[len] == ':');
  }
  return NULL;
}

static int parse_jobs(const char *s, int *jobs) {
  char *end;
  long k = strtol(s, &end, 10);
  if (end == s || *end != '\0' || k < 1 || k > 4096)
    return HX_ERROR(HX_ERR_INPUT,
                    "hexdg regress: --jobs %s: give the number of cores to fill, 1 to 4096", s);
  *jobs = (int)k;
  return HX_OK;
}

static int parse_args(int argc, char **argv, Regress *g, const char **dirs, int *n_dirs) {
  static char self[1024];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  self[len > 0 ? len : 0] = '\0';
  const char *mpiexec = NULL;
  *g = (Regress){
      .out_dir = "regress_out", .ex = {.hexdg = self, .timeout_s = 600}, .pool = {.slots = 1}};
  *n_dirs = 0;
  for (int a = 0; a < argc; a++) {
    const char *s = argv[a];
    bool has_value = a + 1 < argc;
    if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
      usage(stdout);
      return -1;
    } else if (!strcmp(s, "--dry-run")) {
      g->dry_run = true;
    } else if (!strcmp(s, "--out") && has_value) {
      g->out_dir = argv[++a];
    } else if (!strcmp(s, "--markdown") && has_value) {
      g->markdown = argv[++a];
    } else if (!strcmp(s, "--timeout") && has_value) {
      g->ex.timeout_s = atoi(argv[++a]);
    } else if (!strcmp(s, "--jobs") && has_value) {
      HX_CHECK(parse_jobs(argv[++a], &g->pool.slots));
    } else if (!strcmp(s, "--mpiexec") && has_value) {
      mpiexec = argv[++a];
    } else if (!strcmp(s, "--hexdg") && has_value) {
      g->ex.hexdg = argv[++a];
    } else if (s[0] == '-') {
      usage(stderr);
      return HX_ERROR(HX_ERR_INPUT, "hexdg regress: unknown option or missing value: %s", s);
    } else {
      dirs[(*n_dirs)++] = s;
    }
  }
  if (*n_dirs == 0) {
    usage(stderr);
    return HX_ERROR(HX_ERR_INPUT, "hexdg regress: give at least one check folder");
  }
  g->ex.mpiexec = find_mpiexec(mpiexec);
  g->ex.one_thread = g->pool.slots > 1;
  return HX_OK;
}

int regress_command(int argc, char **argv) {
  Regress g;
  const char **dirs = calloc((size_t)(argc > 0 ? argc : 1), sizeof *dirs);
  if (!dirs) return 1;
  int n_dirs, rc = parse_args(argc, argv, &g, dirs, &n_dirs);
  if (rc != HX_OK) {
    free(dirs);
    return rc < 0 ? 0 : 2;
  }
  rg_pool_catch_signals();
  for (int i = 0; rc == HX_OK && i < n_dirs; i++) {
    if (access(dirs[i], R_OK) != 0)
      rc = HX_ERROR(HX_ERR_INPUT, "hexdg regress: %s does not exist", dirs[i]);
    else
      rc = walk(&g, dirs[i], 0);
  }
  int finished = finish_runs(&g); /* also after an error: no run is left behind */
  if (rc == HX_OK) rc = finished;
  if (rg_pool_interrupted() && rc == HX_OK) /* stopped while no run was starting */
    rc = HX_ERROR(HX_ERR_INPUT,
                  "hexdg regress: stopped by signal %d; the runs under way were "
                  "killed",
                  rg_pool_interrupted());
  rg_pool_free(&g.pool);
  if (g.table.n > 1) qsort(g.table.rows, (size_t)g.table.n, sizeof *g.table.rows, row_order);
  int fails = 0;
  for (int i = 0; i < g.table.n; i++)
    fails += g.table.rows[i].status == RG_FAIL;
  printf("\n");
  rg_report_text(&g.table, stdout);
  printf("\nhexdg regress: %d rows, %d failed\n", g.table.n, fails);
  if (g.markdown) {
    FILE *f = fopen(g.markdown, "w");
    if (!f)
      rc = HX_ERROR(HX_ERR_IO, "hexdg regress: cannot write %s", g.markdown);
    else {
      rg_report_markdown(&g.table, f, NULL);
      fclose(f);
    }
  }
  rg_table_free(&g.table);
  free(dirs);
  return rc != HX_OK ? 2 : fails > 0 ? 1 : 0;
}
