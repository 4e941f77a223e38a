// Curved, unstructured hexahedral mesh for the manufactured-solution series (docs/mms.md): a
// quarter of a cylinder of radius 0.25 and height 0.25 (x, y >= 0, 0 <= z <= 0.25), meshed with
// 17 tetrahedra, each split into four hexahedra (68 hexahedra; neighbours meet in all four flips),
// second-order geometry (NGeo = 2) with the nodes of the cylinder wall on the circle. All
// surfaces form one physical group "wall" (BC type 2: the exact solution gives the outer state).
// The refinement series is made by hexdg itself: MeshRefine = L, or
//   hexdg mesh import mms_quarter_cylinder.msh --refine L -o mms_L_mesh.h5
// Regenerate (gmsh 4.8.4, Debian) with
//   gmsh -3 -order 2 -format msh41 mms_quarter_cylinder.geo -o mms_quarter_cylinder.msh
SetFactory("OpenCASCADE");
r = 0.25;
Cylinder(1) = {0, 0, 0, 0, 0, r, r, Pi / 2};
Mesh.MeshSizeMin = r;
Mesh.MeshSizeMax = r;
Mesh.MinimumCirclePoints = 3;
Mesh.SubdivisionAlgorithm = 2;
Physical Surface("wall") = Surface{:};
Physical Volume("fluid") = {1};
