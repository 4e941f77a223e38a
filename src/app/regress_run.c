/* One run of a reggie check: the run directory (a copy of the example folder with the expanded
 * parameter file) and hexdg started in it, on k ranks through mpiexec; the judgement of its end. */
#define _GNU_SOURCE /* strcasestr */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/regress.h"
#include "core/error.h"

extern char **environ;

int rg_mkdir_p(const char *path) {
  char buf[2048];
  rg_fmt(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1;; p++) {
    if (*p == '/' || *p == '\0') {
      char c = *p;
      *p = '\0';
      if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        return HX_ERROR(HX_ERR_IO, "cannot create directory %s: %s", buf, strerror(errno));
      *p = c;
      if (c == '\0') break;
    }
  }
  return HX_OK;
}

static int copy_file(const char *src, const char *dst) {
  FILE *in = fopen(src, "rb");
  if (!in) return HX_ERROR(HX_ERR_IO, "cannot read %s: %s", src, strerror(errno));
  FILE *out = fopen(dst, "wb");
  if (!out) {
    fclose(in);
    return HX_ERROR(HX_ERR_IO, "cannot write %s: %s", dst, strerror(errno));
  }
  char buf[1 << 16];
  size_t n;
  int rc = HX_OK;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    if (fwrite(buf, 1, n, out) != n) rc = HX_ERROR(HX_ERR_IO, "cannot write %s (disk full?)", dst);
  fclose(in);
  if (fclose(out) != 0 && rc == HX_OK) rc = HX_ERROR(HX_ERR_IO, "cannot write %s", dst);
  return rc;
}

int rg_copy_example(const char *src, const char *dst) {
  HX_CHECK(rg_mkdir_p(dst));
  DIR *d = opendir(src);
  if (!d) return HX_ERROR(HX_ERR_IO, "cannot read the example folder %s", src);
  struct dirent *e;
  int rc = HX_OK;
  while (rc == HX_OK && (e = readdir(d))) {
    char from[2048], to[2048];
    rg_fmt(from, sizeof from, "%s/%s", src, e->d_name);
    rg_fmt(to, sizeof to, "%s/%s", dst, e->d_name);
    struct stat st;
    if (e->d_name[0] == '.' || stat(from, &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (!strcmp(e->d_name, "parameter.ini")) continue;
    rc = copy_file(from, to);
  }
  closedir(d);
  return rc;
}

/* The key of a raw parameter-file line (before '=', outside a comment), ":" for reggie's
 * EXCLUDE:/nocrosscombination: lines, or "" */
static void line_key(const char *line, char *key, size_t n) {
  char tmp[512];
  rg_fmt(tmp, sizeof tmp, "%s", line);
  rg_clean_line(tmp);
  char *eq = strchr(tmp, '=');
  if (!strncasecmp(tmp, "EXCLUDE:", 8) || !strncasecmp(tmp, "nocrosscombination:", 19)) {
    rg_fmt(key, n, ":");
    return;
  }
  if (eq) *eq = '\0';
  rg_fmt(key, n, "%s", eq ? tmp : "");
}

static const RgOverride *build_sets(const RgBuild *b, const char *key) {
  for (int i = 0; b && i < b->n; i++)
    if (!strcasecmp(b->ov[i].key, key)) return &b->ov[i];
  return NULL;
}

static const char *chosen(const RgKeyFile *kf, const int *digits, int opt) {
  const char *v = kf->opts[opt].values[digits[opt]];
  if (!strcasecmp(v, "crosscombinations")) { /* reggie: one list shared by several keys */
    const char *c = rg_combo_value(kf, digits, "crosscombinations");
    if (c) return c;
  }
  return v;
}

int rg_write_parameter_file(const char *src, const RgKeyFile *kf, const int *digits,
                            const RgBuild *b, const char *dst) {
  FILE *in = fopen(src, "r");
  if (!in) return HX_ERROR(HX_ERR_IO, "cannot read %s", src);
  FILE *out = fopen(dst, "w");
  if (!out) {
    fclose(in);
    return HX_ERROR(HX_ERR_IO, "cannot write %s", dst);
  }
  char *line = NULL;
  size_t cap = 0;
  int lineno = 0, opt = 0;
  while (getline(&line, &cap, in) >= 0) {
    lineno++;
    while (opt < kf->n_opts && kf->opts[opt].line < lineno)
      opt++;
    bool is_opt = opt < kf->n_opts && kf->opts[opt].line == lineno;
    char key[256];
    line_key(line, key, sizeof key);
    const RgOverride *o = key[0] ? build_sets(b, key) : NULL;
    if (!strcmp(key, ":") || !strcasecmp(key, "crosscombinations")) {
      fprintf(out, "! [hexdg regress: reggie directive] %s", line);
    } else if (o && !o->file_wins) {
      fprintf(out, "! [hexdg regress: the build sets %s = %s] %s", o->key, o->value, line);
    } else if (is_opt && (kf->opts[opt].n_values > 1 ||
                          !strcasecmp(kf->opts[opt].values[0], "crosscombinations"))) {
      fprintf(out, "%s = %s  ! [hexdg regress: value of this run]\n", kf->opts[opt].name,
              chosen(kf, digits, opt));
    } else {
      fputs(line, out);
      if (line[0] && line[strlen(line) - 1] != '\n') fputc('\n', out);
    }
  }
  free(line);
  fclose(in);
  if (b && b->n > 0) fprintf(out, "\n! [hexdg regress: FLEXI build options: %s]\n", b->label);
  for (int i = 0; b && i < b->n; i++)
    if (!(b->ov[i].file_wins && rg_keyfile_find(kf, b->ov[i].key)))
      fprintf(out, "%s = %s\n", b->ov[i].key, b->ov[i].value);
  return fclose(out) == 0 ? HX_OK : HX_ERROR(HX_ERR_IO, "cannot write %s", dst);
}

/* MPI variables of an enclosing mpiexec would make the child join that job */
static void clean_mpi_environment(void) {
  static const char *const PREFIXES[] = {"PMI_", "PMIX_", "OMPI_", "HYDRA_", "MPIR_"};
  for (int again = 1; again;) {
    again = 0;
    for (char **e = environ; e && *e; e++)
      for (size_t p = 0; p < sizeof PREFIXES / sizeof *PREFIXES; p++)
        if (!strncmp(*e, PREFIXES[p], strlen(PREFIXES[p]))) {
          char name[256];
          size_t len = strcspn(*e, "=");
          rg_fmt(name, sizeof name, "%.*s", (int)(len < 255 ? len : 255), *e);
          unsetenv(name);
          again = 1;
          break;
        }
  }
}

static void child(const RgExec *ex, const char *dir, int ranks, const char *restart,
                  const char *suffix) {
  if (chdir(dir) != 0) _exit(126);
  int fo = open("std.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  int fe = open("std.err", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fo < 0 || fe < 0) _exit(126);
  dup2(fo, 1);
  dup2(fe, 2);
  setpgid(0, 0);
  clean_mpi_environment();
  if (ex->one_thread) setenv("OMP_NUM_THREADS", "1", 0); /* K runs on K cores */
  char nbuf[16];
  rg_fmt(nbuf, sizeof nbuf, "%d", ranks);
  const char *argv[10];
  int a = 0;
  if (ranks > 1) {
    argv[a++] = ex->mpiexec;
    argv[a++] = "-n";
    argv[a++] = nbuf;
  }
  argv[a++] = ex->hexdg;
  argv[a++] = "parameter.ini";
  if (restart && restart[0]) argv[a++] = restart;
  if (suffix && suffix[0]) argv[a++] = suffix;
  argv[a] = NULL;
  execv(argv[0], (char *const *)argv);
  fprintf(stderr, "hexdg regress: cannot start %s: %s\n", argv[0], strerror(errno));
  _exit(127);
}

/* First line with "error" of the run's std.err, else of std.out, else std.err's last line. */
static void first_error(const char *dir, char *err, size_t n) {
  err[0] = '\0';
  const char *names[2] = {"std.err", "std.out"};
  char last[512] = "";
  for (int k = 0; k < 2 && !err[0]; k++) {
    char path[2048];
    rg_fmt(path, sizeof path, "%s/%s", dir, names[k]);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    char buf[1024];
    while (fgets(buf, sizeof buf, f)) {
      buf[strcspn(buf, "\n")] = '\0';
      if (k == 0 && buf[0]) rg_fmt(last, sizeof last, "%s", buf);
      const char *c = strcasestr(buf, "error");
      if (c && strlen(c) > 8) { /* a message, not a bare "hexdg error: " cut by MPI_Abort */
        rg_fmt(err, n, "%s", buf);
        break;
      }
    }
    fclose(f);
  }
  if (!err[0]) rg_fmt(err, n, "%s", last);
}

int rg_spawn(const RgExec *ex, const char *dir, int ranks, const char *restart, const char *suffix,
             pid_t *pid) {
  fflush(NULL);
  *pid = fork();
  if (*pid < 0) return HX_ERROR(HX_ERR_IO, "cannot fork the run in %s: %s", dir, strerror(errno));
  if (*pid == 0) child(ex, dir, ranks, restart, suffix);
  setpgid(*pid, *pid); /* as the child does: a kill of the group cannot come before it exists */
  return HX_OK;
}

void rg_judge(const RgExec *ex, const char *dir, int ranks, int status, bool timed_out, bool *ok,
              char *err, size_t n_err) {
  *ok = !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (timed_out)
    rg_fmt(err, n_err, "stopped after the time limit of %d s (--timeout)", ex->timeout_s);
  else if (!*ok)
    first_error(dir, err, n_err);
  else
    err[0] = '\0';
  if (!*ok && !timed_out && !err[0]) {
    if (WIFSIGNALED(status))
      rg_fmt(err, n_err, "killed by signal %d, no error message", WTERMSIG(status));
    else
      rg_fmt(err, n_err, "exit status %d on %d rank(s), no error message in std.err/std.out",
             WEXITSTATUS(status), ranks);
  }
}
