#include "mesh/meshtool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mesh/gmsh.h"
#include "mesh/hopr.h"
#include "mesh/mesh.h"

static int parse_triple(const char *opt, const char *val, double *out) {
  if (sscanf(val, "%lf,%lf,%lf", &out[0], &out[1], &out[2]) != 3)
    return HX_ERROR(HX_ERR_INPUT, "hexdg mesh: %s expects three comma-separated numbers, got '%s'",
                    opt, val);
  return HX_OK;
}

static int parse_box_options(int argc, char **argv, BoxSpec *b, const char **out) {
  *b = (BoxSpec){{4, 4, 4}, {-1, -1, -1}, {1, 1, 1}, {1, 1, 1}, 1, 0.0};
  *out = NULL;
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
    } else {
      return HX_ERROR(HX_ERR_INPUT, "hexdg mesh box: unknown option %s (options: --elems --lower "
                                    "--upper --periodic --NGeo --curving -o)", key);
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

int hexdg_mesh_command(int argc, char **argv) {
  if (argc >= 1 && !strcmp(argv[0], "box")) {
    BoxSpec b;
    const char *out;
    Mesh *m = NULL;
    HX_CHECK(parse_box_options(argc - 1, argv + 1, &b, &out));
    HX_CHECK(mesh_create_box(&b, &m));
    return write_and_report(m, out);
  }
  if (argc == 4 && !strcmp(argv[0], "import") && !strcmp(argv[2], "-o")) {
    Mesh *m = NULL;
    HX_CHECK(mesh_read_gmsh(argv[1], &m));
    return write_and_report(m, argv[3]);
  }
  return HX_ERROR(HX_ERR_INPUT, "usage: hexdg mesh box [--elems nx,ny,nz] [--lower x,y,z] "
                                "[--upper x,y,z] [--periodic T,T,T] [--NGeo n] [--curving a] -o "
                                "name_mesh.h5 | hexdg mesh import file.msh -o name_mesh.h5");
}
