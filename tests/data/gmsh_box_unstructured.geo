// Unstructured hexahedra of the box [-1,1] x [0,2] x [0,3]: a coarse tetrahedral mesh split into
// four hexahedra per tetrahedron, so that neighbouring elements meet in all four flips.
// Regenerate with
//   gmsh -3 -order 2 -format msh41 gmsh_box_unstructured.geo -o gmsh_box_unstructured_o2.msh
SetFactory("OpenCASCADE");
Box(1) = {-1, 0, 0, 2, 2, 3};
Mesh.MeshSizeMin = 3.0;
Mesh.MeshSizeMax = 3.0;
Mesh.SubdivisionAlgorithm = 2;
eps = 1e-6;
Physical Surface("walls") = Surface In BoundingBox{-1-eps, -eps, -eps, 1+eps, 2+eps, 3+eps};
Physical Volume("fluid") = {1};
