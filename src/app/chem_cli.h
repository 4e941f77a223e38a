/* Chemistry commands of the hexdg executable (docs/chemistry.md):
 *   hexdg reactor [case.ini] [MECH] --T0 K --p0 Pa --X "H2:2,O2:1,N2:3.76" [--mode cv|cp]
 *                 [--tend s] [--sweep T1:T2:n] [-o file.csv] [--rtol r] [--atol a]
 *   hexdg equilibrate MECH --T K --p Pa --X ... [--mode hp|uv|tp]
 *   hexdg bench chem MECH --cells n [--dt s] [--backend cpu|cuda] [--schedule bulk-sparse|single]
 * They live above the solver layers (they use src/chem and, for the GPU, src/gpu). */
#ifndef HEXDG_APP_CHEM_CLI_H
#define HEXDG_APP_CHEM_CLI_H

int reactor_command(int argc, char **argv);
int equilibrate_command(int argc, char **argv);
/* hexdg znd MECH --T K --p Pa --X ... [--D m/s] [--xend m] [-o znd.csv]: the ZND profile */
int znd_command(int argc, char **argv);
int bench_chem_command(int argc, char **argv);

#endif
