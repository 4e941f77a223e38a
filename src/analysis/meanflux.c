#include "analysis/meanflux.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bodyforces.h"
#include "core/error.h"
#include "parallel/parallel.h"
#include "physics/bc.h"

int meanflux_define_params(Params *p) {
  HX_CHECK(params_define(p, "Analyze", "CalcMeanFlux", PARAM_LOGICAL, 0, "F", false,
                         "At each analysis, on every boundary condition: the integral of the "
                         "numerical flux of every conservative variable over the boundary "
                         "(outward normal: a mass flux > 0 leaves the domain), and its area."));
  return params_define(p, "Analyze", "WriteMeanFlux", PARAM_LOGICAL, 0, "T", false,
                       "With CalcMeanFlux: also append the values to "
                       "<ProjectName>_MeanFlux_<BCName>.csv (else print only).");
}

int meanflux_mode(const Params *p, const Solver *s, int *mode) {
  bool calc, write;
  HX_CHECK(params_get_logical(p, "CalcMeanFlux", &calc));
  HX_CHECK(params_get_logical(p, "WriteMeanFlux", &write));
  *mode = !calc ? MEANFLUX_OFF : write ? MEANFLUX_WRITE : MEANFLUX_PRINT;
  if (calc && s->mesh->n_bcs == 0)
    return HX_ERROR(HX_ERR_INPUT,
                    "CalcMeanFlux = T but mesh %s has no boundary (all periodic); set "
                    "CalcMeanFlux = F",
                    s->mesh->source);
  return HX_OK;
}

int meanflux_compute(const Solver *s, double *vals) {
  const Mesh *m = s->mesh;
  const int nc = 1 + s->n_var, n2 = s->n_dof_face;
  memset(vals, 0, sizeof(double) * nc * (m->n_bcs ? m->n_bcs : 1));
  for (int side = 0; side < m->n_bc_sides; side++) {
    double *v = &vals[(long)nc * m->side_bc[side]];
    for (int q = 0; q < s->np; q++)
      for (int p = 0; p < s->np; p++) {
        int fp = q * s->np + p;
        double w = s->disc.w[p] * s->disc.w[q];
        v[0] += w * s->geo.face_surf[(long)side * n2 + fp];
        for (int iv = 0; iv < s->n_var; iv++) /* Solver.flux already holds the surface element */
          v[1 + iv] += w * s->flux[((long)side * s->n_var + iv) * n2 + fp];
      }
  }
  par_sum(vals, nc * m->n_bcs);
  return HX_OK;
}

static bool every_bc(int type) {
  (void)type;
  return true;
}

int meanflux_write(const Solver *s, const char *project, double t, const double *vals, bool fresh) {
  char header[1024] = "time,Area,MassFlux,MomentumFluxX,MomentumFluxY,MomentumFluxZ,EnergyFlux";
  for (int v = HX_NVAR; v < s->n_var; v++) { /* species partial densities */
    size_t len = strlen(header);
    snprintf(header + len, sizeof header - len, ",RhoYFlux%d", v - HX_NVAR + 1);
  }
  return bc_csv_write(s, project, "MeanFlux", header, t, vals, 1 + s->n_var, fresh, every_bc);
}

void meanflux_print(const Solver *s, const double *vals) {
  const int nc = 1 + s->n_var;
  printf("  mean flux (area, mass, momentum x/y/z, energy):\n");
  for (int b = 0; b < s->mesh->n_bcs; b++) {
    const double *v = &vals[nc * b];
    printf("    %-16s %.6e  %.9e  %.6e %.6e %.6e  %.6e\n", s->mesh->bcs[b].name, v[0], v[1], v[2],
           v[3], v[4], v[5]);
  }
}
