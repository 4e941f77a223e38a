/* hexdg mesh: write the built-in box as a HOPR file, or convert a gmsh file to HOPR. */
#ifndef HEXDG_MESHTOOL_H
#define HEXDG_MESHTOOL_H

/* argv: the arguments after "mesh": box [--elems nx,ny,nz] [--lower x,y,z] [--upper x,y,z]
 * [--periodic T,T,T] [--NGeo n] [--curving a] -o name_mesh.h5 | import file.msh -o name_mesh.h5 */
int hexdg_mesh_command(int argc, char **argv);

#endif
