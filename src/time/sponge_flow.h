/* The sponge base flow's files and its time filter in the time loop (docs/sponge.md). */
#ifndef HEXDG_SPONGE_FLOW_H
#define HEXDG_SPONGE_FLOW_H

#include "core/params.h"
#include "time/simulation.h"

/* SpongeBaseFlow = file | pruett: fill the base flow once U holds the initial or restart state
 * (before the device mirror is made). */
int sponge_flow_load(const Params *p, Simulation *sim, const char *restart_file);
/* SpongeBaseFlow = pruett: advance the filter over the step of length dt just taken. */
int sponge_flow_step(Simulation *sim, double dt);
/* SpongeBaseFlow = pruett: <ProjectName>_BaseFlow_<t>.h5 beside the state file of t. */
int sponge_flow_write(Simulation *sim);

#endif
