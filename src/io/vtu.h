/* ParaView output: VTK XML unstructured-grid files (.vtu) of high-order Lagrange hexahedra and
 * ParaView time-series collections (.pvd). docs/output.md describes the files.
 *
 * Each element becomes one VTK_LAGRANGE_HEXAHEDRON cell of degree NVisu: the solution and the
 * node positions are interpolated (Lagrange basis of the solution nodes) to NVisu+1 equidistant
 * points per direction, so ParaView draws the curved geometry and the polynomial solution.
 * Points are not shared between cells (the DG solution is discontinuous). Cell c is element c,
 * and the points of element e are numbered e*(NVisu+1)^3 + (k*(NVisu+1) + j)*(NVisu+1) + i; the
 * connectivity lists them in VTK's Lagrange order (vtu_lagrange_hex_index). */
#ifndef HEXDG_IO_VTU_H
#define HEXDG_IO_VTU_H

#include <stddef.h>

#include "core/params.h"
#include "dg/solver.h"

/* VTK's cell type id of the arbitrary-order Lagrange hexahedron (vtkCellType.h). */
#define VTU_LAGRANGE_HEXAHEDRON 72
/* Highest visualization degree accepted: (NVisu+1)^3 points per cell. */
#define VTU_NVISU_MAX 64

/* FLEXI's OutputFormat ids (flexi src/output/output.f90); hexdg writes None and ParaView. */
enum { OUTPUT_FORMAT_NONE = 0, OUTPUT_FORMAT_PARAVIEW = 3 };

/* Optional extras of vtu_write; pass NULL for none (binary output, no cell data).
 * cell_data: one value per element, written as cell data named cell_name (e.g. the FV blending
 * factor); both NULL for none. ascii: write every array as ASCII text (%.17g, so doubles
 * round-trip exactly) instead of raw binary appended data; meant for tests and small cases. */
typedef struct {
  const char *cell_name;
  const double *cell_data;
  int ascii;
  const char *point_name;   /* point data of one value per solution node [elem][k][j][i] (e.g. */
  const double *point_data; /* muSGS), interpolated to the visualization points; NULL: none */
} VtuExtra;

/* Register FLEXI's output keys NVisu and OutputFormat (section "Output"). */
int vtu_define_params(Params *p);
/* Read them: *output_format is OUTPUT_FORMAT_*, *n_visu is NVisu or N when NVisu is not set. */
int vtu_read_params(const Params *p, int N, int *output_format, int *n_visu);

/* Write U ([elem][var][k][j][i] on the solution nodes, s->n_var conservative variables) and the
 * mesh of s to path as a .vtu with point data Density, MomentumX/Y/Z, EnergyStagnationDensity,
 * VelocityX/Y/Z, Pressure, Temperature, field data TimeValue = time, and the optional cell data.
 * Reacting flow (s->mech): T and p of the mixture (mix_cons_to_prim), and the mass fractions
 * Y_<species> and the heat-release rate HeatRelease (W/m^3, mix_heat_release of the kinetics'
 * production rates) at every point; a point without a temperature gets T = 0, p = -1 and zero
 * heat release. Writes to "<path>.tmp" and renames it, so a reader never sees a half-written
 * file. */
int vtu_write(const char *path, const Solver *s, const double *U, int NVisu, double time,
              const VtuExtra *extra);

/* Add (time, vtu_file) to the ParaView collection pvd_path, creating it if needed. An entry with
 * the same file name is replaced; entries are kept sorted by time. vtu_file is written as given:
 * ParaView resolves it relative to the .pvd's folder. The whole file is rewritten atomically. */
int pvd_update(const char *pvd_path, double time, const char *vtu_file);

/* "<project>_Solution_<time as %017.9f>.vtu", FLEXI's name for its ParaView output (TIMESTAMP). */
void vtu_file_name(char *buf, size_t len, const char *project, double time);

/* What a run writes at an output time: <project>_Solution_<time>.vtu (binary) plus its entry in
 * <project>_Solution.pvd. extra may be NULL. */
int vtu_write_output(const char *project, const Solver *s, const double *U, int NVisu, double time,
                     const VtuExtra *extra);

/* VTK's Lagrange hexahedron numbering ("Modeling Arbitrary-Order Lagrange Finite Elements in the
 * Visualization Toolkit", Kitware blog 2018; vtkHigherOrderHexahedron::PointIndexFromIJK of VTK 9,
 * i.e. VTK XML file version >= 2.1): the index within a cell of degree n of the point at lattice
 * position (i, j, k), 0 <= i, j, k <= n. Order: 8 corners, 12 edges, 6 faces, interior. */
int vtu_lagrange_hex_index(int i, int j, int k, int n);

#endif
