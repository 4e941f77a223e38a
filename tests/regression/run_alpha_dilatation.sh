#!/usr/bin/env bash
# tools/alpha_vs_dilatation.py on a synthetic Gauss-Lobatto state (N = 3, 8 elements of width 0.5)
# whose velocity is linear in each element, u = a_e x, v = c_e y, w = d_e z (local coordinates), so
# that div u = a_e + c_e + d_e exactly at every node; FV_alpha > 0 on the three elements with the
# most negative divergence plus, to separate them, one that is not. Checks the printed counts and
# medians (a wrong derivative direction or scale changes them). Skips (exit 77) without a python3
# that has numpy and h5py.
# usage: run_alpha_dilatation.sh path/to/hexdg repo_root
set -u
script=$2/tools/alpha_vs_dilatation.py
source "$(dirname "$0")/script_lib.sh"

require_python numpy h5py
enter_scratch

"$py" - <<'PY'
import h5py
import numpy as np
from numpy.polynomial import legendre

n, width = 3, 0.5
c = np.zeros(n + 1)
c[n] = 1.0
x = np.concatenate(([-1.0], np.sort(np.real(legendre.legroots(legendre.legder(c)))), [1.0]))
div = np.array([-3.0, 0.5, -7.0, 1.0, -1.0, -5.0, 2.0, -0.25])  # per element
alpha = np.array([0.0, 0.0, 0.4, 0.0, 0.1, 0.3, 0.2, 0.0])    # blended: -7, -5, -1 and 2
u = np.zeros((8, n + 1, n + 1, n + 1, 5))                      # [elem][k][j][i][var]
half = 0.5 * width
xi = x[None, None, :]  # [k][j][i]
eta = x[None, :, None]
zeta = x[:, None, None]
for e, dv in enumerate(div):
    a, cc, d = 0.5 * dv, 0.3 * dv, 0.2 * dv  # split over the three directions
    rho = 1.0
    u[e, ..., 0] = rho
    u[e, ..., 1] = rho * a * half * np.broadcast_to(xi, (n + 1,) * 3)
    u[e, ..., 2] = rho * cc * half * np.broadcast_to(eta, (n + 1,) * 3)
    u[e, ..., 3] = rho * d * half * np.broadcast_to(zeta, (n + 1,) * 3)
    u[e, ..., 4] = 2.5
with h5py.File("synthetic_State.h5", "w") as f:
    f.create_dataset("DG_Solution", data=u)
    f.create_dataset("FV_alpha", data=alpha)
    f.attrs["Time"] = np.array([1.5])
PY
[ -f synthetic_State.h5 ] || { echo "FAIL - writing the synthetic state"; exit 1; }
out=$("$py" "$script" synthetic_State.h5 --width 0.5 2>&1)
echo "$out"
check "four of eight elements blended" grep -q "t = 1.5, N = 3, 4 of 8 elements blended" <<<"$out"
# blended min div: -7, -5, -1, 2 -> median -3; others -3, 0.5, 1, -0.25 -> median 0.125
check "medians of the exact divergences" grep -q "median: blended -3, others 0.125 (the flow's minimum -7)" <<<"$out"
# the four most compressive: -7, -5, -3, -1; blended among them: -7, -5, -1
check "three of the four most compressive blended" grep -q "of the 4 most compressive elements, 3 are blended" <<<"$out"
exit $((fails > 0))
