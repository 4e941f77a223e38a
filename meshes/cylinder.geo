// 2-D cylinder in cross-flow, extruded one element layer in z: diameter D = 1 at the origin,
// domain [-15, 30] x [-20, 20] x [0, 1]. Quadrilaterals (recombined), refined around the cylinder
// and in the wake; second-order (curved) geometry on the cylinder wall.
// Regenerate:  gmsh -3 -order 2 -format msh41 cylinder.geo -o cylinder.msh
R = 0.5;
xl = -15; xr = 30; yb = -20; yt = 20;
h_wall = 0.12; h_far = 2.0;

Point(1) = {0, 0, 0, h_wall};
Point(2) = {R, 0, 0, h_wall};
Point(3) = {0, R, 0, h_wall};
Point(4) = {-R, 0, 0, h_wall};
Point(5) = {0, -R, 0, h_wall};
Circle(1) = {2, 1, 3};
Circle(2) = {3, 1, 4};
Circle(3) = {4, 1, 5};
Circle(4) = {5, 1, 2};
Point(6) = {xl, yb, 0, h_far};
Point(7) = {xr, yb, 0, h_far};
Point(8) = {xr, yt, 0, h_far};
Point(9) = {xl, yt, 0, h_far};
Line(5) = {6, 7};
Line(6) = {7, 8};
Line(7) = {8, 9};
Line(8) = {9, 6};
Curve Loop(1) = {5, 6, 7, 8};
Curve Loop(2) = {1, 2, 3, 4};
Plane Surface(1) = {1, 2};

// refinement: near the cylinder and along the wake
Field[1] = Distance;
Field[1].CurvesList = {1, 2, 3, 4};
Field[2] = Threshold;
Field[2].InField = 1;
Field[2].SizeMin = h_wall;
Field[2].SizeMax = h_far;
Field[2].DistMin = 0.3;
Field[2].DistMax = 8;
Field[3] = Box;
Field[3].VIn = 0.35;
Field[3].VOut = h_far;
Field[3].XMin = -1.5; Field[3].XMax = 15;
Field[3].YMin = -2.5; Field[3].YMax = 2.5;
Field[3].Thickness = 4;
Field[4] = Min;
Field[4].FieldsList = {2, 3};
Background Field = 4;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;

Recombine Surface {1};
Mesh.Algorithm = 8;          // Frontal-Delaunay for quads
Mesh.RecombinationAlgorithm = 1;
out[] = Extrude {0, 0, 1} { Surface{1}; Layers{1}; Recombine; };
// out[0]: top surface, out[1]: volume, out[2..]: lateral surfaces in the order of the loops
Physical Volume("fluid") = {out[1]};
Physical Surface("BC_zminus") = {1};
Physical Surface("BC_zplus") = {out[0]};
Physical Surface("BC_farfield") = {out[2], out[4], out[5]};
Physical Surface("BC_outflow") = {out[3]};
Physical Surface("BC_cylinder") = {out[6], out[7], out[8], out[9]};
