#!/usr/bin/env bash
# tools/blade_loading.py (docs/tools.md) on synthetic files where the answer is known:
#   1. A HOPR box mesh (hexdg mesh box, 4 x 2 x 2 straight elements, NGeo = 2) and a State file
#      (N = 3 GAUSS: the tool must evaluate the element polynomial on the face) whose pressure is
#      a cubic in x, so exact on the face. At every point of BC_yminus the tool's p equals p(x)
#      at the point's x and its Ma_is equals sqrt(2/(kappa-1)((p0/p)^((kappa-1)/kappa) - 1))
#      (1e-10 relative); the points lie on the wall y = 0; there are 4 x 2 faces x (N+1)^2 of
#      them, in the order of the chord fraction, all on one side (`wall`: a flat plate).
#   2. The same with a TimeAvg file (N = 4 GAUSS-LOBATTO, Mean holding Pressure), the mesh found
#      through its MeshFile attribute; the PNG is written.
#   3. The suction/pressure split of a cambered aerofoil-like point set: the points above the
#      chord line with the higher Ma_is are the suction side, those below the pressure side.
#   4. Errors: a TimeAvg without Pressure, an unknown BC name.
# Skips (exit 77) without a python3 that has numpy and h5py.
# usage: run_blade_loading.sh path/to/hexdg repo_root
set -u
hexdg=$1
script=$2/tools/blade_loading.py
source "$(dirname "$0")/script_lib.sh"

require_python numpy h5py
enter_scratch

check "hexdg mesh box writes the HOPR mesh" "$hexdg" mesh box --elems 4,2,2 --lower 0,0,0 \
  --upper 2,1,1 --periodic F,F,T --NGeo 2 -o blade_mesh.h5
"$py" - <<'PY' || exit 1
import h5py
import numpy as np

def nodes(N, kind):
    if kind == "GAUSS":
        return np.polynomial.legendre.leggauss(N + 1)[0]
    inner = np.sort(np.real(np.polynomial.legendre.Legendre.basis(N).deriv().roots()))
    return np.concatenate(([-1.0], inner, [1.0]))

def p_exact(x):
    return 1.0e5 * (1.0 - 0.08 * x + 0.03 * x ** 2 - 0.004 * x ** 3)

with h5py.File("blade_mesh.h5", "r") as f:
    ngeo = int(np.asarray(f.attrs["Ngeo"]).ravel()[0])
    info = f["ElemInfo"][...]
    xyz = f["NodeCoords"][...]
ng = ngeo + 1
equi = np.linspace(-1, 1, ng)

def lag(xf, xt):
    V = np.ones((len(xt), len(xf)))
    for b in range(len(xf)):
        for m in range(len(xf)):
            if m != b:
                V[:, b] *= (xt - xf[m]) / (xf[b] - xf[m])
    return V

def positions(N, kind):
    V = lag(equi, nodes(N, kind))
    out = []
    for e in range(info.shape[0]):
        g = xyz[info[e, 4]:info[e, 5]].reshape(ng, ng, ng, 3)
        out.append(np.einsum("ac,bd,ef,cdfx->abex", V, V, V, g))
    return np.array(out)  # e, k, j, i, xyz

def attrs(f, kind, N, node):
    f.attrs["File_Type"] = np.bytes_(kind)
    f.attrs["N"] = np.int32(N)
    f.attrs["NodeType"] = np.bytes_(node)
    f.attrs["MeshFile"] = np.bytes_("blade_mesh.h5")
    f.attrs["Time"] = 0.0

X = positions(3, "GAUSS")
p = p_exact(X[..., 0])
u = np.zeros(X.shape[:4] + (5,))
rho, vel = 1.2, np.array([30.0, -4.0, 2.0])
u[..., 0] = rho
u[..., 1:4] = rho * vel
u[..., 4] = p / 0.4 + 0.5 * rho * vel @ vel
with h5py.File("blade_State.h5", "w") as f:
    attrs(f, "State", 3, "GAUSS")
    f["DG_Solution"] = u
X = positions(4, "GAUSS-LOBATTO")
with h5py.File("blade_TimeAvg.h5", "w") as f:
    attrs(f, "TimeAvg", 4, "GAUSS-LOBATTO")
    f["Mean"] = p_exact(X[..., 0])[..., None]
    f.attrs["VarNames_Mean"] = np.array([b"Density", b"Pressure"])[1:]
    f["MeanSquare"] = np.zeros(X.shape[:4] + (1,))
with h5py.File("noP_TimeAvg.h5", "w") as f:
    attrs(f, "TimeAvg", 4, "GAUSS-LOBATTO")
    f["Mean"] = np.ones(X.shape[:4] + (1,))
    f.attrs["VarNames_Mean"] = np.array([b"Density"])
PY

# the expected values at the tool's points, and the points on the wall y = 0
verify() { # csv N
  "$py" - "$1" "$2" <<'PY'
import sys
import numpy as np
csv, N = sys.argv[1], int(sys.argv[2])
rows = np.genfromtxt(csv, delimiter=",", names=True, dtype=None, encoding="ascii")
x, y, p, ma = rows["x"], rows["y"], rows["p"], rows["Ma_is"]
p_ex = 1.0e5 * (1.0 - 0.08 * x + 0.03 * x ** 2 - 0.004 * x ** 3)
p0, k = 1.1e5, 1.4
ma_ex = np.sqrt(2 / (k - 1) * ((p0 / p_ex) ** ((k - 1) / k) - 1))
ep, em = np.max(np.abs(p / p_ex - 1)), np.max(np.abs(ma / ma_ex - 1))
print(f"  {len(x)} points (expected {8 * (N + 1) ** 2}), max |y| {np.max(np.abs(y)):.1e}, "
      f"p rel. error {ep:.1e}, Ma_is rel. error {em:.1e}, Ma_is {ma.min():.4f}..{ma.max():.4f}")
ok = len(x) == 8 * (N + 1) ** 2 and np.max(np.abs(y)) < 1e-13 and ep < 1e-10 and em < 1e-10
ok = ok and set(rows["side"]) == {"wall"} and np.all(np.diff(rows["chord_fraction"]) >= 0)
sys.exit(0 if ok else 1)
PY
}
check "State (GAUSS N=3): p and Ma_is at the wall points" "$py" "$script" blade_State.h5 \
  --mesh blade_mesh.h5 --bc BC_yminus --p0 1.1e5 --csv state.csv
check "State: values equal the formula at the points" verify state.csv 3
check "TimeAvg (GAUSS-LOBATTO N=4), mesh from MeshFile, PNG" "$py" "$script" blade_TimeAvg.h5 \
  --bc BC_yminus --p0 1.1e5 --csv avg.csv --png avg.png
check "TimeAvg: values equal the formula at the points" verify avg.csv 4
check "the PNG is written" test -s avg.png

check "suction and pressure sides of a cambered aerofoil" "$py" - "$script" <<'PY'
import importlib.util
import sys
import numpy as np
spec = importlib.util.spec_from_file_location("blade_loading", sys.argv[1])
bl = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bl)
t = np.linspace(0, 2 * np.pi, 200, endpoint=False)
a = 0.5 * (1 + np.cos(t))                       # axial 0..1
b = 0.08 * np.sin(t) + 0.05 * np.sin(np.pi * a)  # thickness + camber
x = np.stack([a, b, np.zeros_like(a)], axis=1)
upper = np.sin(t) > 0
mach = np.where(upper, 0.7, 0.4) + 0.1 * a
sides, frac = bl.split_sides(x, 0, 1, mach)
inner = (frac > 0.02) & (frac < 0.98)            # the chord line passes the LE and TE points
ok = np.all(sides[inner & upper] == "suction") and np.all(sides[inner & ~upper] == "pressure")
print(f"  suction {np.sum(sides == 'suction')} points, pressure {np.sum(sides == 'pressure')}")
sys.exit(0 if ok and abs(frac.min()) < 1e-15 and abs(frac.max() - 1) < 1e-15 else 1)
PY

"$py" "$script" noP_TimeAvg.h5 --bc BC_yminus --p0 1e5 >err1.txt 2>&1
check "a TimeAvg without Pressure is an error naming VarNameAvg" grep -q "VarNameAvg = Pressure" err1.txt
"$py" "$script" blade_State.h5 --mesh blade_mesh.h5 --bc BC_nose --p0 1e5 >err2.txt 2>&1
check "an unknown BC is an error listing the mesh's BCs" grep -q "no BC 'BC_nose'.*BC_yminus" err2.txt

exit $((fails > 0))
