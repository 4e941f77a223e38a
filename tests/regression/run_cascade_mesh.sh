#!/usr/bin/env bash
# Rotor 37 cascade mesh (tools/mesh_cascade.py --level 0): gmsh writes it, `hexdg mesh import`
# reads it with both periodic directions (pitch by a y-translation, span by a z-translation, two
# span layers: the reader must tell the layers apart by the translation), and a CPU Euler run of
# the uniform state keeps the free stream to round-off (metrics and periodic connectivity).
# Skips (77) without a python3 that has numpy and gmsh (tools/install_gmsh.sh).
# usage: run_cascade_mesh.sh path/to/hexdg repo_root
set -u
hexdg=$1
root=$2
source "$(dirname "$0")/script_lib.sh"
require_python numpy
if ! "$py" "$root/tools/mesh_cascade.py" --check-gmsh >/dev/null 2>&1; then
  echo "skip: gmsh's Python API not found (tools/install_gmsh.sh installs it into .oracle/venv)"
  exit 77
fi
if [ ! -f "$root/../shared/data/turbomachinery/rotor37/rotor37_surface7_midspan_unwrapped.csv" ]; then
  echo "skip: ../shared/data/turbomachinery/rotor37 not found"
  exit 77
fi
enter_scratch

# level 0 (tools/mesh_cascade.py LEVELS): le 4, suction 6, te 4, pressure 6 wall cells, 2 span
# layers; straight-sided (NGeo 1) and curved (NGeo 3: O-grid ring on the offset map, the other
# blocks' high-order nodes from Coons patches): the free stream on the curved mesh is the proof
# of its metrics
for ngeo in 1 3; do
  echo "--- NGeo $ngeo"
  check "mesh_cascade.py --level 0 --ngeo $ngeo writes and imports the mesh" bash -c \
    "'$py' '$root/tools/mesh_cascade.py' --level 0 --ngeo $ngeo -o r37.msh --hexdg '$hexdg' >gen.txt 2>&1"
  cat gen.txt
  check "192 hexahedra = 2 span layers x (20 wall cells x (2 ring + 2 block layers) + 4 x 2 + 4 x 2 H-block cells)" \
    grep -q "level 0, 192 hexahedra" gen.txt
  # all periodic faces paired: only blade (2 x 20), inflow (2 x 4) and outflow (2 x 4) stay boundaries
  check "every periodic face paired (56 boundary sides = blade 40 + inflow 8 + outflow 8)" \
    grep -q "(56 on boundaries)" gen.txt
  check "gmsh's minimum scaled Jacobian > 0" \
    "$py" -c "import re,sys; sys.exit(0 if float(re.search(r'mesh: min scaled Jacobian (\S+)', open('gen.txt').read()).group(1)) > 0 else 1)"
  if "$py" -c "import h5py" 2>/dev/null; then
    check "scaled Jacobian > 0 on the HOPR file hexdg reads" grep -q "r37_mesh.h5: NGeo $ngeo, 192 elements, min scaled Jacobian 0\." gen.txt
  fi

  cat >fs.ini <<'INI'
ProjectName    = r37fs
MeshFile       = r37_mesh.h5
N              = 3
NodeType       = GAUSS-LOBATTO
SplitDG        = PI
Riemann        = LF
IniExactFunc   = 1
RefState       = (/1.2, 150., 220., 10., 1.0e5/)
tend           = 1.
maxIter        = 20
Analyze_dt     = 1.
CalcErrorNorms = T
INI
  rm -f r37fs_ErrorNorms.csv
  check "free-stream run on the cascade mesh (NGeo $ngeo)" bash -c "'$hexdg' fs.ini >run.txt 2>&1"
  tail -4 run.txt
  # Linf of U - U_inf after 20 steps relative to the state's scale (density, |rho u| for the three
  # momentum components, total energy); BC type 2 = the free stream. A metric that is not
  # discretely consistent leaves truncation errors of 1e-6 and more on this curved mesh.
  check "free stream kept to round-off on NGeo $ngeo (max |U - U_inf| / scale < 1e-12)" "$py" - <<'PY'
import numpy as np
rows = np.genfromtxt("r37fs_ErrorNorms.csv", delimiter=",", names=True)
last = np.atleast_1d(rows)[-1]
rho, u, p = 1.2, np.array([150.0, 220.0, 10.0]), 1.0e5
m = rho * np.linalg.norm(u)
ref = [rho, m, m, m, p / 0.4 + 0.5 * rho * u @ u]
names = ["Density", "MomentumX", "MomentumY", "MomentumZ", "EnergyStagnationDensity"]
rel = [last["Linf_" + n] / r for n, r in zip(names, ref)]
print("  t = %.3e, relative Linf:" % last["time"], " ".join("%.1e" % r for r in rel))
raise SystemExit(0 if last["time"] > 0 and max(rel) < 1e-12 else 1)
PY
done
exit $((fails > 0))
