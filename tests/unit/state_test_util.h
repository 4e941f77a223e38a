/* Shared fixture and helpers of the state-file unit tests (test_state.c, test_state_mech.c): a
 * temporary directory per test group, paths in it, the number of values of a header, and a
 * capture of what the code under test prints to stderr. Include after <cmocka.h>. */
#ifndef HEXDG_TEST_STATE_UTIL_H
#define HEXDG_TEST_STATE_UTIL_H

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/state.h"

typedef struct {
  char dir[256];
} Fixture;

static void path_in(const Fixture *fx, const char *name, char *buf, size_t len) {
  snprintf(buf, len, "%s/%s", fx->dir, name);
}

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static size_t n_values(const StateHeader *h) {
  size_t np1 = (size_t)h->N + 1;
  return (size_t)h->n_elems * (size_t)h->n_var * np1 * np1 * np1;
}

/* Capture what the code under test prints to stderr. */
typedef struct {
  int saved_fd;
  char path[300];
} StderrCapture;

static void capture_begin(StderrCapture *c, const Fixture *fx) {
  path_in(fx, "stderr.txt", c->path, sizeof c->path);
  fflush(stderr);
  c->saved_fd = dup(2);
  int fd = open(c->path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  assert_true(fd >= 0 && c->saved_fd >= 0);
  dup2(fd, 2);
  close(fd);
}

static char *capture_end(StderrCapture *c) {
  fflush(stderr);
  dup2(c->saved_fd, 2);
  close(c->saved_fd);
  FILE *f = fopen(c->path, "rb");
  assert_non_null(f);
  char *text = calloc(8192, 1);
  assert_non_null(text);
  size_t got = fread(text, 1, 8191, f);
  text[got] = '\0';
  fclose(f);
  remove(c->path);
  fprintf(stderr, "%s", text); /* keep it visible in the test log */
  return text;
}

static void assert_contains(const char *text, const char *part) {
  if (!strstr(text, part)) fail_msg("message \"%s\" does not contain \"%s\"", text, part);
}

/* A fresh directory $TMPDIR/<prefix>_XXXXXX as the group's state (cmocka group setup). */
static int state_fixture_setup(void **state, const char *prefix) {
  Fixture *fx = calloc(1, sizeof *fx);
  if (!fx) return -1;
  const char *tmp = getenv("TMPDIR");
  snprintf(fx->dir, sizeof fx->dir, "%s/%s_XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
  if (!mkdtemp(fx->dir)) return -1;
  *state = fx;
  return 0;
}

/* Remove the files in dir (the tests create no subdirectories that outlive a test). */
static void empty_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *entry;
  while ((entry = readdir(d))) {
    if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
    char p[600];
    snprintf(p, sizeof p, "%s/%s", dir, entry->d_name);
    remove(p);
  }
  closedir(d);
}

static int teardown(void **state) {
  Fixture *fx = *state;
  empty_dir(fx->dir);
  rmdir(fx->dir);
  free(fx);
  return 0;
}

#endif
