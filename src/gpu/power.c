#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep */
#include "gpu/power.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "parallel/parallel.h"

/* The few NVML entry points used, with the signatures of NVML's API reference (nvml.h). */
typedef struct nvmlDevice_st *nvmlDevice_t;
typedef int (*nvml_void_fn)(void);
typedef const char *(*nvml_error_string_fn)(int);
typedef int (*nvml_handle_by_bus_id_fn)(const char *, nvmlDevice_t *);
typedef int (*nvml_power_usage_fn)(nvmlDevice_t, unsigned int *);
typedef int (*nvml_total_energy_fn)(nvmlDevice_t, unsigned long long *);
enum { NVML_SUCCESS = 0 };

struct PowerMeter {
  void *lib;
  nvml_void_fn shutdown;
  nvml_error_string_fn error_string;
  nvml_power_usage_fn power_usage;
  nvml_total_energy_fn total_energy;
  nvmlDevice_t dev;
  int nvml_up, has_counter, has_power, thread_up, stop, told;
  unsigned long long counter_start_mj;
  double t0;
  PowerIntegral integral;
  pthread_t thread;
  pthread_mutex_t lock;
  char reason[200];
};

int power_define_params(Params *p) {
  return params_define(p, "Analyze", "CalcEPID", PARAM_LOGICAL, 0, "T", false,
                       "CUDA backend: measure the GPU's energy through NVML during the time "
                       "stepping (energy counter, else sampled power draw) and print EPID, the "
                       "energy per DOF and RK stage summed over the ranks' GPUs, beside PID. "
                       "Without NVML the run goes on and says 'EPID n/a (why)'.");
}

int power_enabled(const Params *p, bool *enabled) {
  return params_get_logical(p, "CalcEPID", enabled);
}

double power_epid(double joules, double dof, long stages) {
  return dof > 0.0 && stages > 0 ? joules / (dof * (double)stages) : 0.0;
}

unsigned long long power_counter_delta_mj(unsigned long long start, unsigned long long now) {
  return now - start; /* unsigned arithmetic is modulo 2^64: right across one wrap */
}

void power_integral_add(PowerIntegral *pi, double t, double watts) {
  if (pi->n > 0) pi->joules += 0.5 * (watts + pi->watts_last) * (t - pi->t_last);
  pi->t_last = t;
  pi->watts_last = watts;
  pi->n++;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void sample_power(PowerMeter *pm) {
  unsigned int mw = 0;
  if (!pm->has_power || pm->power_usage(pm->dev, &mw) != NVML_SUCCESS) return;
  pthread_mutex_lock(&pm->lock);
  power_integral_add(&pm->integral, now_seconds() - pm->t0, 1e-3 * mw);
  pthread_mutex_unlock(&pm->lock);
}

static void *sampler(void *arg) {
  PowerMeter *pm = arg;
  const struct timespec pause = {0, POWER_SAMPLE_MS * 1000000L};
  for (;;) {
    pthread_mutex_lock(&pm->lock);
    int stop = pm->stop;
    pthread_mutex_unlock(&pm->lock);
    if (stop) return NULL;
    sample_power(pm);
    nanosleep(&pause, NULL);
  }
}

static void *nvml_symbol(PowerMeter *pm, const char *name) {
  void *f = dlsym(pm->lib, name);
  if (!f) snprintf(pm->reason, sizeof pm->reason, "%s missing in libnvidia-ml.so.1", name);
  return f;
}

/* Open NVML and find this process's device; fills pm->reason on failure. */
static int open_nvml(PowerMeter *pm) {
  pm->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!pm->lib) {
    snprintf(pm->reason, sizeof pm->reason, "libnvidia-ml.so.1 not found: no NVIDIA driver");
    return 0;
  }
  nvml_void_fn init;
  nvml_handle_by_bus_id_fn by_bus_id;
  *(void **)&init = nvml_symbol(pm, "nvmlInit_v2");
  *(void **)&pm->shutdown = nvml_symbol(pm, "nvmlShutdown");
  *(void **)&pm->error_string = nvml_symbol(pm, "nvmlErrorString");
  *(void **)&by_bus_id = nvml_symbol(pm, "nvmlDeviceGetHandleByPciBusId_v2");
  *(void **)&pm->power_usage = nvml_symbol(pm, "nvmlDeviceGetPowerUsage");
  *(void **)&pm->total_energy = nvml_symbol(pm, "nvmlDeviceGetTotalEnergyConsumption");
  if (!init || !pm->shutdown || !pm->error_string || !by_bus_id || !pm->power_usage ||
      !pm->total_energy)
    return 0;
  int rc = init();
  if (rc != NVML_SUCCESS) {
    snprintf(pm->reason, sizeof pm->reason, "nvmlInit: %s", pm->error_string(rc));
    return 0;
  }
  pm->nvml_up = 1;
  char bus_id[64];
  if (gpu_pci_bus_id(bus_id, sizeof bus_id) != HX_OK) {
    snprintf(pm->reason, sizeof pm->reason, "no CUDA device selected");
    return 0;
  }
  rc = by_bus_id(bus_id, &pm->dev);
  if (rc != NVML_SUCCESS) {
    snprintf(pm->reason, sizeof pm->reason, "NVML has no device %s: %s", bus_id,
             pm->error_string(rc));
    return 0;
  }
  return 1;
}

PowerMeter *power_meter_start(void) {
  PowerMeter *pm = calloc(1, sizeof *pm);
  if (!pm) return NULL;
  pthread_mutex_init(&pm->lock, NULL);
  pm->t0 = now_seconds();
  if (!open_nvml(pm)) return pm;
  unsigned int mw;
  pm->has_counter = pm->total_energy(pm->dev, &pm->counter_start_mj) == NVML_SUCCESS;
  pm->has_power = pm->power_usage(pm->dev, &mw) == NVML_SUCCESS;
  if (!pm->has_counter && !pm->has_power) {
    snprintf(pm->reason, sizeof pm->reason, "the device reports neither energy nor power");
    return pm;
  }
  sample_power(pm);
  pm->thread_up = pthread_create(&pm->thread, NULL, sampler, pm) == 0;
  if (!pm->thread_up && !pm->has_counter)
    snprintf(pm->reason, sizeof pm->reason, "cannot start the power sampler thread");
  return pm;
}

double power_meter_joules(PowerMeter *pm) {
  if (!pm || pm->reason[0]) return -1.0;
  unsigned long long mj;
  if (pm->has_counter && pm->total_energy(pm->dev, &mj) == NVML_SUCCESS)
    return 1e-3 * (double)power_counter_delta_mj(pm->counter_start_mj, mj);
  sample_power(pm); /* the integral up to now */
  pthread_mutex_lock(&pm->lock);
  double j = pm->integral.n > 1 ? pm->integral.joules : -1.0;
  pthread_mutex_unlock(&pm->lock);
  return j;
}

const char *power_meter_reason(const PowerMeter *pm) {
  return pm ? pm->reason : "out of memory";
}

const char *power_meter_method(const PowerMeter *pm) {
  return pm && pm->has_counter ? "energy counter" : "sampled power";
}

void power_meter_stop(PowerMeter *pm) {
  if (!pm) return;
  if (pm->thread_up) {
    pthread_mutex_lock(&pm->lock);
    pm->stop = 1;
    pthread_mutex_unlock(&pm->lock);
    pthread_join(pm->thread, NULL);
  }
  if (pm->nvml_up) pm->shutdown();
  if (pm->lib) dlclose(pm->lib);
  pthread_mutex_destroy(&pm->lock);
  free(pm);
}

double power_meter_epid(PowerMeter *pm, double global_dof, long stages) {
  double j = power_meter_joules(pm), v[2] = {j >= 0.0 ? j : 0.0, j < 0.0 ? 1.0 : 0.0};
  par_sum(v, 2);
  return v[1] > 0.0 ? -1.0 : power_epid(v[0], global_dof, stages);
}

void power_meter_format(PowerMeter *pm, double epid, char *buf, size_t len) {
  buf[0] = 0;
  if (epid >= 0.0)
    snprintf(buf, len, "EPID %.3e J", epid);
  else if (pm && !pm->told) {
    snprintf(buf, len, "EPID n/a (%s)",
             pm->reason[0] ? pm->reason : "no energy reading on another rank");
    pm->told = 1;
  }
}
