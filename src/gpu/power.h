/* EPID: the energy the GPU draws per DOF and Runge-Kutta stage, the energy twin of PID (GALAEXI,
 * Kurz et al. 2025). A sampler thread reads NVML for the device this process runs on: the total
 * energy counter (mJ, Volta and newer) where the device has one, else the power draw (mW) every
 * POWER_SAMPLE_MS, integrated with the trapezoidal rule. NVML is opened at run time (dlopen), so
 * a machine without the driver runs as before and only reports "EPID n/a (why)". */
#ifndef HEXDG_POWER_H
#define HEXDG_POWER_H

#include <stdbool.h>
#include <stddef.h>

#include "core/params.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { POWER_SAMPLE_MS = 25 };

typedef struct PowerMeter PowerMeter;

int power_define_params(Params *p);
/* CalcEPID: whether to measure the GPU's energy during the time stepping. */
int power_enabled(const Params *p, bool *enabled);

/* Start measuring the energy of this process's device (selected before). Never fails the run:
 * when NVML or the device's counters cannot be used the meter says why (power_meter_reason)
 * and reports no energy. NULL only when out of memory. */
PowerMeter *power_meter_start(void);
/* Energy in J since the start (read now), or a negative number when not available. */
double power_meter_joules(PowerMeter *pm);
/* Why there is no energy ("" when there is), and how it is measured ("energy counter" or
 * "sampled power"). */
const char *power_meter_reason(const PowerMeter *pm);
const char *power_meter_method(const PowerMeter *pm);
/* Stop the thread, close NVML, free (NULL is fine). */
void power_meter_stop(PowerMeter *pm);

/* EPID of the whole run so far: the ranks' energies summed over the global DOF and RK stages
 * (collective: every rank calls it with its meter). Negative when some rank has no energy. */
double power_meter_epid(PowerMeter *pm, double global_dof, long stages);
/* "EPID 1.234e-06 J" or, once per meter, "EPID n/a (reason)"; "" otherwise. */
void power_meter_format(PowerMeter *pm, double epid, char *buf, size_t len);

/* Arithmetic (unit-tested): EPID = E / (DOF x stages), 0 when nothing was done. */
double power_epid(double joules, double dof, long stages);
/* Energy between two readings of NVML's 64-bit mJ counter, across a wrap of the counter. */
unsigned long long power_counter_delta_mj(unsigned long long start, unsigned long long now);
/* Trapezoidal integral of sampled power: add (t [s], P [W]) in time order. */
typedef struct {
  double t_last, watts_last, joules;
  long n;
} PowerIntegral;
void power_integral_add(PowerIntegral *pi, double t, double watts);

/* PCI bus id of the current CUDA device (power.cu; HX_ERR_DEVICE without CUDA). */
int gpu_pci_bus_id(char *bus_id, size_t len);

#ifdef __cplusplus
}
#endif
#endif
