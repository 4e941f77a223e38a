/* Runs of `hexdg regress --jobs K` under way at once: a run on k ranks takes k of the K slots
 * (a run wider than K runs alone), each is stopped (its process group) after the time limit, and
 * all of them when hexdg regress is interrupted (their own process groups miss the terminal's
 * SIGINT, and would run on without the time limit). */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "app/regress.h"
#include "core/error.h"

/* The signal that interrupted hexdg regress, 0 if none: a handler can only set a flag */
static volatile sig_atomic_t stop_signal = 0;

static void on_stop(int sig) {
  stop_signal = sig;
}

void rg_pool_catch_signals(void) {
  struct sigaction sa = {.sa_handler = on_stop};
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
}

int rg_pool_interrupted(void) {
  return stop_signal;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

bool rg_pool_fits(const RgPool *p, int ranks) {
  return p->used == 0 || p->used + ranks <= p->slots;
}

int rg_pool_start(RgPool *p, const RgExec *ex, const RgJob *job, const char *restart,
                  const char *suffix) {
  if (stop_signal)
    return HX_ERROR(HX_ERR_INPUT, "hexdg regress: stopped by signal %d before the run in %s",
                    (int)stop_signal, job->dir);
  if (p->n == p->cap) {
    int cap = p->cap ? 2 * p->cap : 8;
    RgJob *jobs = realloc(p->jobs, (size_t)cap * sizeof *jobs);
    HX_ALLOC_CHECK(jobs);
    p->jobs = jobs;
    p->cap = cap;
  }
  RgJob *j = &p->jobs[p->n];
  *j = *job;
  j->t0 = now_s();
  j->timed_out = false;
  HX_CHECK(rg_spawn(ex, j->dir, j->ranks, restart, suffix, &j->pid));
  p->used += j->ranks;
  p->n++;
  return HX_OK;
}

/* Job i has finished with wait status `status`: judged into done, taken off the list */
static void finish(RgPool *p, const RgExec *ex, int i, int status, RgDone *done) {
  RgJob *j = &p->jobs[i];
  done->job = *j;
  done->wall_s = now_s() - j->t0;
  rg_judge(ex, j->dir, j->ranks, status, j->timed_out, &done->ok, done->err, sizeof done->err);
  p->used -= j->ranks;
  memmove(j, j + 1, (size_t)(p->n - i - 1) * sizeof *j);
  p->n--;
}

/* Kills the process group (mpiexec and its ranks) of every job past the time limit, or of every
 * job once hexdg regress was interrupted */
static void stop_late(RgPool *p, const RgExec *ex) {
  double t = now_s();
  for (int i = 0; i < p->n; i++) {
    RgJob *j = &p->jobs[i];
    bool late = !j->timed_out && ex->timeout_s > 0 && t - j->t0 > ex->timeout_s;
    if (late) j->timed_out = true;
    if (late || stop_signal) kill(-j->pid, SIGKILL);
  }
}

bool rg_pool_wait(RgPool *p, const RgExec *ex, RgDone *done) {
  while (p->n > 0) {
    for (int i = 0; i < p->n; i++) {
      int status = 0;
      if (waitpid(p->jobs[i].pid, &status, WNOHANG) == p->jobs[i].pid) {
        finish(p, ex, i, status, done);
        return true;
      }
    }
    stop_late(p, ex);
    struct timespec pause = {0, 20000000};
    nanosleep(&pause, NULL);
  }
  return false;
}

void rg_pool_free(RgPool *p) {
  free(p->jobs);
  p->jobs = NULL;
  p->n = p->cap = p->used = 0;
}
