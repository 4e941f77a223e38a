/* `hexdg convert`: a state file to a ParaView .vtu (docs/output.md). It lives above the solver
 * layers: it builds the solver from the run's parameter file, with every key of a run registered
 * (time/simulation.h), and writes through io/vtu.h. */
#ifndef HEXDG_APP_CONVERT_H
#define HEXDG_APP_CONVERT_H

/* n_visu > 0 overrides the parameter file's NVisu (<= 0: the file's NVisu, or N). mechanism: the
 * mechanism file of a reacting-flow state (NULL: the state's Mechanism attribute, else the
 * parameter file's Mechanism, the first that can be read). */
typedef struct {
  int n_visu;
  const char *mechanism;
} ConvertOptions;

/* Build the solver (mesh, discretization, mechanism) from ini_path, read state_path into it and
 * write out_path (binary) at the state's time. N, NodeType, the number of elements and the
 * mechanism's hash must be the state's; opt may be NULL (defaults). */
int convert_state(const char *state_path, const char *ini_path, const char *out_path,
                  const ConvertOptions *opt);

/* hexdg convert case.ini state.h5 -o out.vtu [--NVisu n] [--mechanism FILE]: the exit code. */
int convert_command(int argc, char **argv);

#endif
