/* hexdg mesh: write the built-in box as a HOPR file, convert a gmsh file to HOPR, refine a mesh
 * uniformly (2x2x2 children per element and level, src/mesh/refine.h). */
#ifndef HEXDG_MESHTOOL_H
#define HEXDG_MESHTOOL_H

/* argv: the arguments after "mesh": box [--elems nx,ny,nz] [--lower x,y,z] [--upper x,y,z]
 * [--periodic T,T,T] [--NGeo n] [--curving a] [--split 'BC,dir,position,newBC' ...] -o name_mesh.h5 | import file.msh [--refine L] -o name_mesh.h5 |
 * refine in_mesh.h5|in.msh --levels L -o name_mesh.h5 */
int hexdg_mesh_command(int argc, char **argv);

#endif
