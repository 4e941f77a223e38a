/* hexdg command line:
 *   hexdg [run] case.ini [state.h5] [--backend cpu|cuda]   run a case (optionally restarting)
 *   hexdg bench [--N 7 --elems 32 --split PI --backend cuda --steps 50]
 *   hexdg --help [--markdown]         every parameter with type, default and help
 *   hexdg --version */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/chem_cli.h"
#include "app/convergence.h"
#include "app/convert.h"
#include "app/regress.h"
#include "core/error.h"
#include "core/flexi_keys.h"
#include "core/params.h"
#include "mesh/meshtool.h"
#include "parallel/parallel.h"
#include "time/bench.h"
#include "time/simulation.h"

static void usage(FILE *f) {
  fprintf(
      f,
      "hexdg %s - high-order DGSEM for compressible flows on curved hexahedral meshes\n\n"
      "usage:\n"
      "  hexdg [run] case.ini [state.h5] [--backend cpu|cuda] [--set KEY=VALUE ...]\n"
      "                                    run a case; with a state file: restart from it;\n"
      "                                    --set: a parameter over the file's value\n"
      "  hexdg bench [--N 7] [--elems 32|nx,ny,nz] [--split PI] [--node GAUSS-LOBATTO]\n"
      "              [--backend cuda] [--steps 50] [--graphs T] [--overlap T] [--curving 0]\n"
      "              [--mu0 0] [--fv none|hennemann|ALPHA] [--fv-limiter MinMod]\n"
      "                                    PID and bytes/DOF on a periodic box (under\n"
      "                                    mpiexec: each rank its share, one GPU per rank)\n"
      "  hexdg bench chem MECH.yaml --cells n [--dt 1e-6] [--backend cpu|cuda]\n"
      "              [--schedule bulk-sparse|single] [--K 16] [--bulk 2] [--threshold 0.5]\n"
      "                                    batched stiff chemistry: cells per second\n"
      "  hexdg reactor [case.ini] [MECH.yaml] --T0 K --p0 Pa --X \"H2:2,O2:1,N2:3.76\"\n"
      "              [--mode cv|cp] [--tend s] [--sweep T1:T2:n] [-o file.csv]\n"
      "                                    adiabatic homogeneous reactor, ignition delay\n"
      "  hexdg equilibrate MECH.yaml --T K --p Pa --X ... [--mode hp|uv|tp|cj]\n"
      "                                    chemical equilibrium (adiabatic flame T),\n"
      "                                    cj: Chapman-Jouguet detonation speed and state\n"
      "  hexdg znd MECH.yaml --T K --p Pa --X ... [--D m/s] [--xend m] [-o znd.csv]\n"
      "                                    ZND structure of a detonation (CJ speed unless\n"
      "                                    --D): von Neumann state, induction and\n"
      "                                    half-reaction lengths, the profile as CSV\n"
      "  hexdg --gpu-count                 number of visible CUDA devices\n"
      "  hexdg mesh box [--elems nx,ny,nz] [--lower x,y,z] [--upper x,y,z]\n"
      "                 [--periodic T,T,T] [--NGeo n] [--curving a]\n"
      "                 [--split 'BC_yminus,x,1/6,BC_new' ...] -o name_mesh.h5\n"
      "  hexdg mesh import file.msh [--refine L] -o name_mesh.h5\n"
      "  hexdg mesh refine in_mesh.h5|in.msh --levels L -o name_mesh.h5\n"
      "                                    write meshes in the HOPR format; refine:\n"
      "                                    uniform 2x2x2 refinement, L times\n"
      "  hexdg convert case.ini state.h5 -o out.vtu [--NVisu n] [--mechanism FILE]\n"
      "                                    ParaView file of a state (reacting flow: the\n"
      "                                    state's mechanism, or FILE)\n"
      "  hexdg convergence case.ini --elems 2,4,8 | --N 1..9 | --mesh-list a,b,c\n"
      "              [--N n] [--backend cpu|cuda] [-o table.csv]\n"
      "                                    h-/p-convergence study: errors and EOC per\n"
      "                                    variable (docs/convergence.md)\n"
      "  hexdg regress DIR... [--out DIR] [--markdown FILE] [--dry-run] [--timeout S] [--jobs K]\n"
      "                                    run FLEXI's reggie checks (docs/regress.md)\n"
      "  hexdg --help [--markdown]         list all parameters (Markdown: docs page)\n"
      "  hexdg --help --flexi-keys         FLEXI's keys and what hexdg does with each\n"
      "  hexdg SUBCOMMAND --help           the options of a subcommand\n"
      "  hexdg --version\n\n"
      "Parameter files use FLEXI's syntax (Key = value, ! comments, T/F, (/a,b,c/)).\n"
      "Documentation: docs/ (parameters.md, numerics.md, formats.md).\n",
      HEXDG_VERSION);
}

/* `hexdg SUBCOMMAND --help`: the options of each subcommand (longest prefix first). */
static const struct {
  const char *command, *help;
} SUBCOMMAND_HELP[] = {
    {"bench chem", "usage: hexdg bench chem MECH.yaml --cells n [options]\n"
                   "  batched stiff chemistry: cells per second\n"
                   "  --cells n             number of reactors (cells)\n"
                   "  --dt s                splitting step (default 1e-6)\n"
                   "  --T0 K --p0 Pa --X \"H2:2,O2:1\"   initial state of every cell\n"
                   "  --backend cpu|cuda    --schedule bulk-sparse|single   --integrator NAME\n"
                   "  --K n --bulk n --threshold f --minblocks n   bulk-sparse schedule settings\n"
                   "  --rtol r --atol a     integrator tolerances   --repeat n   --dump FILE\n"},
    {"bench",
     "usage: hexdg bench [options]   (hexdg bench chem --help: the chemistry benchmark)\n"
     "  PID (s per DOF per RK stage) and bytes/DOF on a periodic box; under mpiexec each rank\n"
     "  its share, one GPU per rank\n"
     "  --N 7                 polynomial degree\n"
     "  --elems 32|nx,ny,nz   elements per direction\n"
     "  --split PI            SplitDG (split form; --node GAUSS: weak form)\n"
     "  --node GAUSS-LOBATTO  NodeType\n"
     "  --backend cpu|cuda    --steps 50   --warmup n\n"
     "  --graphs T|F          CUDA graphs   --overlap T|F   MPI overlap   --transport "
     "auto|ipc|host\n"
     "  --curving 0           curved box amplitude\n"
     "  --mu0 0               viscosity (Navier-Stokes with BR1 lifting when > 0)\n"
     "  --fv none|hennemann|ALPHA   FV blending   --fv-limiter MinMod\n"
     "  --mechanism FILE      reacting flow with the species of FILE\n"},
    {"reactor",
     "usage: hexdg reactor [case.ini] [MECH.yaml] --T0 K --p0 Pa --X \"H2:2,O2:1,N2:3.76\" "
     "[options]\n"
     "  adiabatic homogeneous reactor and its ignition delay\n"
     "  --mech FILE           mechanism (or the case's Mechanism)\n"
     "  --mode cv|cp          constant volume or pressure   --tend s   end time\n"
     "  --sweep T1:T2:n       ignition delays over n initial temperatures\n"
     "  -o file.csv           history or sweep table\n"
     "  --rtol r --atol a --max-steps n   integrator settings\n"},
    {"equilibrate",
     "usage: hexdg equilibrate MECH.yaml --T K --p Pa --X \"H2:2,O2:1\" [--mode hp|uv|tp|cj]\n"
     "  chemical equilibrium: hp/uv adiabatic flame, tp fixed T and p, cj Chapman-Jouguet\n"
     "  detonation speed and state\n"},
    {"znd",
     "usage: hexdg znd MECH.yaml --T K --p Pa --X \"H2:2,O2:1,AR:7\" [--D m/s] [--xend m] "
     "[-o znd.csv]\n"
     "  the ZND structure of a steady detonation at D (default: the CJ speed): the von Neumann\n"
     "  state, the induction length (peak thermicity), the half-reaction length and the profile\n"},
    {"convert", "usage: hexdg convert case.ini state.h5 -o out.vtu [--NVisu n] [--mechanism FILE]\n"
                "  ParaView file of a state (reacting flow: the state's mechanism, or FILE)\n"},
    {"mesh",
     "usage:\n"
     "  hexdg mesh box [--elems nx,ny,nz] [--lower x,y,z] [--upper x,y,z] [--periodic T,T,T]\n"
     "                 [--NGeo n] [--curving a] [--split 'BC,x|y|z,position,newBC' ...]\n"
     "                 -o name_mesh.h5\n"
     "  hexdg mesh import file.msh [--refine L] -o name_mesh.h5\n"
     "  hexdg mesh refine in_mesh.h5|in.msh --levels L -o name_mesh.h5\n"
     "  meshes in the HOPR format; refine: uniform 2x2x2 refinement, L times\n"},
};

/* 1 if argv holds --help or -h after the subcommand words, having printed its help. */
static int subcommand_help(int argc, char **argv) {
  for (size_t c = 0; c < sizeof SUBCOMMAND_HELP / sizeof SUBCOMMAND_HELP[0]; c++) {
    const char *cmd = SUBCOMMAND_HELP[c].command, *space = strchr(cmd, ' ');
    int words = space ? 2 : 1;
    if (argc <= words || strncmp(argv[1], cmd, space ? (size_t)(space - cmd) : strlen(cmd)) ||
        strlen(argv[1]) != (space ? (size_t)(space - cmd) : strlen(cmd)) ||
        (space && strcmp(argv[2], space + 1)))
      continue;
    for (int a = 1 + words; a < argc; a++)
      if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
        fputs(SUBCOMMAND_HELP[c].help, stdout);
        return 1;
      }
    return 0;
  }
  return 0;
}

static int print_help(int markdown) {
  Params *p = params_create();
  if (!p) return HX_ERR_MEM;
  int rc = simulation_define_params(p);
  if (rc == HX_OK) {
    if (markdown) {
      params_write_markdown(p, stdout);
    } else {
      usage(stdout);
      printf("\nParameters:\n");
      params_print_help(p, stdout);
    }
  }
  params_destroy(p);
  return rc;
}

#define MAX_SETS 32

/* --set KEY=VALUE: a parameter over the file's value (a variant of a case without a copy of it) */
static int apply_sets(Params *p, int n_sets, char *const *sets) {
  for (int i = 0; i < n_sets; i++) {
    char *eq = strchr(sets[i], '=');
    if (!eq || eq == sets[i])
      return HX_ERROR(HX_ERR_INPUT, "--set %s: give KEY=VALUE, e.g. --set N=2", sets[i]);
    *eq = '\0';
    int rc = params_set(p, sets[i], eq + 1, "--set");
    *eq = '=';
    HX_CHECK(rc);
  }
  return HX_OK;
}

static int run_case(const char *ini, const char *restart, const char *backend, int n_sets,
                    char *const *sets) {
  Params *p = params_create();
  if (!p) return HX_ERR_MEM;
  Simulation *sim = NULL;
  int rc = simulation_define_params(p);
  params_set_notice_stream(p, par_is_root() ? stdout : NULL); /* one notice per key, not per rank */
  if (rc == HX_OK) rc = params_read_file(p, ini);
  if (rc == HX_OK && backend) rc = params_set(p, "Backend", backend, "--backend");
  if (rc == HX_OK) rc = apply_sets(p, n_sets, sets);
  if (rc == HX_OK) rc = params_check_mandatory(p);
  if (rc == HX_OK) rc = simulation_create(p, restart, &sim);
  if (rc == HX_OK) {
    const Solver *s = sim->solver;
    if (par_is_root()) {
      printf("hexdg %s: %s, N=%d (%s%s), %ld elements, %ld DOF, %s\n", HEXDG_VERSION, ini,
             s->disc.N, s->disc.node_type == NODE_GAUSS ? "GAUSS" : "GAUSS-LOBATTO",
             s->disc.split == SPLIT_NONE ? ", weak form" : ", split form", s->mesh->n_global_elems,
             s->mesh->n_global_elems * s->n_dof_elem,
             restart ? "restart" : "initial state from IniExactFunc");
      if (par_size() > 1)
        printf("MPI: %d ranks (rank 0: %d elements)\n", par_size(), s->mesh->n_elems);
      printf("backend: %s", sim->device_name);
      if (sim->backend == BACKEND_CUDA)
        printf(", %.1f bytes of device memory per DOF",
               (double)gpu_bytes_allocated(sim->gpu) / s->n_dof);
      if (sim->backend == BACKEND_CUDA && gpu_mpi_transport_name(sim->gpu))
        printf(", MPI transport %s", gpu_mpi_transport_name(sim->gpu));
      if (sim->backend == BACKEND_CUDA)
        printf(", %s", gpu_uses_graphs(sim->gpu) ? "CUDA graphs" : "no CUDA graphs");
      printf("\n");
      if (restart) printf("restarting from %s at t = %.9g\n", restart, sim->t);
    }
    rc = simulation_run(sim);
  }
  simulation_destroy(sim);
  params_destroy(p);
  return rc;
}

static int dispatch(int argc, char **argv) {
  int markdown = 0, help = 0, flexi_keys = 0;
  const char *backend = NULL;
  if (subcommand_help(argc, argv)) return 0;
  if (argc > 2 && !strcmp(argv[1], "bench") && !strcmp(argv[2], "chem"))
    return bench_chem_command(argc - 3, argv + 3) == HX_OK ? 0 : 1;
  if (argc > 1 && !strcmp(argv[1], "bench"))
    return hexdg_bench(argc - 2, argv + 2) == HX_OK ? 0 : 1;
  if (argc > 1 && !strcmp(argv[1], "reactor"))
    return reactor_command(argc - 2, argv + 2) == HX_OK ? 0 : 1;
  if (argc > 1 && !strcmp(argv[1], "equilibrate"))
    return equilibrate_command(argc - 2, argv + 2) == HX_OK ? 0 : 1;
  if (argc > 1 && !strcmp(argv[1], "znd")) return znd_command(argc - 2, argv + 2) == HX_OK ? 0 : 1;
  if (argc > 1 && !strcmp(argv[1], "mesh"))
    return hexdg_mesh_command(argc - 2, argv + 2) == HX_OK ? 0 : 1;
  if (argc > 1 && !strcmp(argv[1], "convert")) return convert_command(argc - 2, argv + 2);
  if (argc > 1 && !strcmp(argv[1], "convergence")) return convergence_command(argc - 2, argv + 2);
  const char *pos[3] = {NULL, NULL, NULL};
  char *sets[MAX_SETS];
  int npos = 0, n_sets = 0;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
      help = 1;
    } else if (!strcmp(argv[a], "--markdown")) {
      markdown = 1;
    } else if (!strcmp(argv[a], "--flexi-keys")) { /* docs/flexi_parameters.md */
      flexi_keys = 1;
    } else if (!strcmp(argv[a], "--gpu-count")) { /* for scripts: skip GPU tests without GPUs */
      printf("%d\n", gpu_device_count());
      return 0;
    } else if (!strcmp(argv[a], "--version")) {
      printf("hexdg %s\n", HEXDG_VERSION);
      return 0;
    } else if (!strcmp(argv[a], "--backend") && a + 1 < argc) {
      backend = argv[++a];
    } else if (!strcmp(argv[a], "--set") && a + 1 < argc && n_sets < MAX_SETS) {
      sets[n_sets++] = argv[++a];
    } else if (argv[a][0] == '-' && argv[a][1] == '-') {
      fprintf(stderr, "hexdg error: unknown option %s (see hexdg --help)\n", argv[a]);
      return 2;
    } else if (npos < 3) {
      pos[npos++] = argv[a];
    } else {
      fprintf(stderr, "hexdg error: too many arguments (see hexdg --help)\n");
      return 2;
    }
  }
  if (help && flexi_keys) {
    flexi_keys_write_markdown(stdout);
    return 0;
  }
  if (help) return print_help(markdown) == HX_OK ? 0 : 1;
  int first = (npos > 0 && !strcmp(pos[0], "run")) ? 1 : 0;
  if (npos - first < 1 || npos - first > 2) {
    usage(stderr);
    return 2;
  }
  return run_case(pos[first], npos - first == 2 ? pos[first + 1] : NULL, backend, n_sets, sets) ==
                 HX_OK
             ? 0
             : 1;
}

/* MPI around the whole run: an error on one rank stops all of them (par_abort), so that no rank
 * waits forever in a collective call. */
int main(int argc, char **argv) {
  /* the runner starts hexdg (and mpiexec) as child processes: it stays outside MPI */
  if (argc > 1 && !strcmp(argv[1], "regress")) return regress_command(argc - 2, argv + 2);
  if (par_init(&argc, &argv) != HX_OK) return 1;
  int code = dispatch(argc, argv);
  if (code != 0) par_abort(code);
  par_finalize();
  return code;
}
