/* `hexdg convergence`: the h- or p-convergence study of one parameter file (docs/convergence.md).
 * It lives above the solver layers: every run is a whole simulation (time/simulation.h). */
#ifndef HEXDG_APP_CONVERGENCE_H
#define HEXDG_APP_CONVERGENCE_H

/* hexdg convergence case.ini --elems 2,4,8 | --N 1..9 | --mesh-list a,b,c [--N n]
 * [--backend cpu|cuda] [-o table.csv]: the exit code. */
int convergence_command(int argc, char **argv);

#endif
