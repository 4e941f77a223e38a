// 2x2x2 structured hexahedra in the box [-1,1] x [0,2] x [0,3] (volume 12), one physical surface
// per box face. Regenerate with
//   for o in 1 2 3 4; do gmsh -3 -order $o -format msh41 gmsh_box.geo -o gmsh_box_o$o.msh; done
SetFactory("OpenCASCADE");
Box(1) = {-1, 0, 0, 2, 2, 3};
Transfinite Curve{:} = 3;
Transfinite Surface{:};
Recombine Surface{:};
Transfinite Volume{1};
eps = 1e-6;
Physical Surface("xminus") = Surface In BoundingBox{-1-eps, -eps, -eps, -1+eps, 2+eps, 3+eps};
Physical Surface("xplus") = Surface In BoundingBox{1-eps, -eps, -eps, 1+eps, 2+eps, 3+eps};
Physical Surface("yminus") = Surface In BoundingBox{-1-eps, -eps, -eps, 1+eps, eps, 3+eps};
Physical Surface("yplus") = Surface In BoundingBox{-1-eps, 2-eps, -eps, 1+eps, 2+eps, 3+eps};
Physical Surface("zminus") = Surface In BoundingBox{-1-eps, -eps, -eps, 1+eps, 2+eps, eps};
Physical Surface("zplus") = Surface In BoundingBox{-1-eps, -eps, 3-eps, 1+eps, 2+eps, 3+eps};
Physical Volume("fluid") = {1};
