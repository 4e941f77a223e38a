#include "mesh/meshtool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mesh/gmsh.h"
#include "mesh/hopr.h"
#include "mesh/mesh.h"
#include "mesh/refine.h"

static int parse_triple(const char *opt, const char *val, double *out) {
  if (sscanf(val, "%lf,%lf,%lf", &out[0], &out[1], &out[2]) != 3)
    return HX_ERROR(HX_ERR_INPUT, "hexdg mesh: %s expects three comma-separated numbers, got '%s'",
                    opt, val);
  return HX_OK;
}

static int parse_box_options(int argc, char **argv, BoxSpec *b, BoxSplit *splits, int *n_splits,
                             const char **out) {
  *b = (BoxSpec){{4, 4, 4}, {-1, -1, -1}, {1, 1, 1}, {1, 1, 1}, 1, 0.0};
  *out = NULL;
  *n_splits = 0;
  for (int a = 0; a < argc; a++) {
    const char *key = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;
    double t[3];
    if (!val) return HX_ERROR(HX_ERR_INPUT, "hexdg mesh box: option %s needs a value", key);
    if (!strcmp(key, "-o")) {
      *out = val;
    } else if (!strcmp(key, "--elems")) {
      HX_CHECK(parse_triple(key, val, t));
      for (int d = 0; d < 3; d++) b->n_elems[d] = (int)t[d];
    } else if (!strcmp(key, "--lower")) {
      HX_CHECK(parse_triple(key, val, b->lower));
    } else if (!strcmp(key, "--upper")) {
      HX_CHECK(parse_triple(key, val, b->upper));
    } else if (!strcmp(key, "--periodic")) {
      char p[3];
      if (sscanf(val, "%c,%c,%c", &p[0], &p[1], &p[2]) != 3)
        return HX_ERROR(HX_ERR_INPUT, "hexdg mesh box: --periodic expects T/F,T/F,T/F");
      for (int d = 0; d < 3; d++) b->periodic[d] = p[d] == 'T' || p[d] == 't';
    } else if (!strcmp(key, "--NGeo")) {
      b->NGeo = atoi(val);
    } else if (!strcmp(key, "--curving")) {
      b->curving = atof(val);
    } else if (!strcmp(key, "--split")) {
      if (*n_splits == HX_MAX_BOX_SPLITS)
        return HX_ERROR(HX_ERR_INPUT, "hexdg mesh box: at most %d --split options",
                        HX_MAX_BOX_SPLITS);
      HX_CHECK(box_parse_split(val, "hexdg mesh box --split", &splits[(*n_splits)++]));
    } else {
      return HX_ERROR(HX_ERR_INPUT, "hexdg mesh box: unknown option %s (options: --elems --lower "
                                    "--upper --periodic --NGeo --curving --split -o)", key);
    }
    a++;
  }
  if (!*out) return HX_ERROR(HX_ERR_INPUT, "hexdg mesh box: name the output with -o name_mesh.h5");
  return HX_OK;
}

static int write_and_report(Mesh *m, const char *out) {
  int rc = mesh_write_hopr(m, out);
  if (rc == HX_OK)
    printf("wrote %s: %d elements, NGeo %d, %d sides (%d on boundaries), %d boundary conditions\n",
           out, m->n_elems, m->NGeo, m->n_sides, m->n_bc_sides, m->n_bcs);
  mesh_destroy(m);
  return rc;
}

/* Read a mesh by its suffix: a HOPR file (*.h5) or a gmsh file (*.msh). */
static int read_mesh_file(const char *path, Mesh **m) {
  size_t n = strlen(path);
  if (n >= 3 && !strcmp(path + n - 3, ".h5")) return mesh_read_hopr(path, m);
  if (n >= 4 && !strcmp(path + n - 4, ".msh")) return mesh_read_gmsh(path, m);
  return HX_ERROR(HX_ERR_INPUT, "hexdg mesh: %s is neither a HOPR file (*.h5) nor a gmsh file "
                                "(*.msh)", path);
}

static int parse_levels(const char *opt, const char *val, int *levels) {
  char *end;
  long l = strtol(val, &end, 10);
  if (*val == 0 || *end != 0 || l < 0 || l > HX_MAX_REFINE_LEVELS)
    return HX_ERROR(HX_ERR_INPUT, "hexdg mesh: %s expects a number of levels 0..%d, got '%s'", opt,
                    HX_MAX_REFINE_LEVELS, val);
  *levels = (int)l;
  return HX_OK;
}

/* import file.msh [--refine L] -o out | refine in.h5|in.msh --levels L -o out */
static int convert_command(const char *cmd, int argc, char **argv) {
  const char *in = NULL, *out = NULL, *level_opt = strcmp(cmd, "import") ? "--levels" : "--refine";
  int levels = 0;
  for (int a = 0; a < argc; a++) {
    const char *key = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;
    if (key[0] != '-' && !in) {
      in = key;
      continue;
    }
    if (!val) return HX_ERROR(HX_ERR_INPUT, "hexdg mesh %s: option %s needs a value", cmd, key);
    if (!strcmp(key, "-o"))
      out = val;
    else if (!strcmp(key, level_opt))
      HX_CHECK(parse_levels(key, val, &levels));
    else
      return HX_ERROR(HX_ERR_INPUT, "hexdg mesh %s: unknown option %s (options: %s L, -o)", cmd, key,
                      level_opt);
    a++;
  }
  if (!in || !out)
    return HX_ERROR(HX_ERR_INPUT, "hexdg mesh %s: name the input file and the output with -o "
                                  "name_mesh.h5", cmd);
  Mesh *m = NULL;
  HX_CHECK(read_mesh_file(in, &m));
  int rc = mesh_refine(&m, levels);
  if (rc != HX_OK) {
    mesh_destroy(m);
    return rc;
  }
  if (levels) printf("refined %s %d times\n", in, levels);
  return write_and_report(m, out);
}

int hexdg_mesh_command(int argc, char **argv) {
  if (argc >= 1 && !strcmp(argv[0], "box")) {
    BoxSpec b;
    BoxSplit splits[HX_MAX_BOX_SPLITS];
    int n_splits;
    const char *out;
    Mesh *m = NULL;
    HX_CHECK(parse_box_options(argc - 1, argv + 1, &b, splits, &n_splits, &out));
    HX_CHECK(mesh_create_box_split(&b, n_splits, splits, "hexdg mesh box --split", &m));
    return write_and_report(m, out);
  }
  if (argc >= 1 && (!strcmp(argv[0], "import") || !strcmp(argv[0], "refine")))
    return convert_command(argv[0], argc - 1, argv + 1);
  return HX_ERROR(HX_ERR_INPUT, "usage: hexdg mesh box [--elems nx,ny,nz] [--lower x,y,z] "
                                "[--upper x,y,z] [--periodic T,T,T] [--NGeo n] [--curving a] "
                                "[--split 'BC,x|y|z,position,newBC' ...] -o "
                                "name_mesh.h5 | hexdg mesh import file.msh [--refine L] -o "
                                "name_mesh.h5 | hexdg mesh refine in_mesh.h5|in.msh --levels L -o "
                                "name_mesh.h5");
}
