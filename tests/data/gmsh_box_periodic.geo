// 2x2x2 hexahedra in [-1,1] x [0,2] x [0,3], periodic in x: a structured quadrangle layer at
// x = -1 extruded in x, the x = +1 face a periodic copy of the x = -1 face.
// Regenerate (gmsh >= 4.11; the Debian 4.8 build lacks the node search that periodic high-order
// meshes need and writes empty $Periodic node lists):
//   gmsh -3 -order 2 -format msh41 gmsh_box_periodic.geo -o gmsh_box_periodic_o2.msh
//   gmsh -3 -order 2 -format msh41 -bin gmsh_box_periodic.geo -o gmsh_box_periodic_o2_bin.msh
Point(1) = {-1, 0, 0};
Point(2) = {-1, 2, 0};
Point(3) = {-1, 2, 3};
Point(4) = {-1, 0, 3};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
Transfinite Curve{1, 2, 3, 4} = 3;
Transfinite Surface{1};
Recombine Surface{1};
// out[0]: face at x = +1, out[1]: volume, out[2..5]: faces swept by lines 1..4
out[] = Extrude{2, 0, 0} { Surface{1}; Layers{2}; Recombine; };
Periodic Surface{out[0]} = {1} Translate{2, 0, 0};
Physical Surface("zminus") = {out[2]};
Physical Surface("yplus") = {out[3]};
Physical Surface("zplus") = {out[4]};
Physical Surface("yminus") = {out[5]};
Physical Volume("fluid") = {out[1]};
