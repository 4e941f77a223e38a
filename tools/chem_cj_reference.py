#!/usr/bin/env python3
"""Chapman-Jouguet detonation references from Cantera (a test oracle only) for
tests/unit/test_chem_cj.c.

The CJ speed is the minimum wave speed over the equilibrium Hugoniot (Fickett & Davis, "Detonation",
1979, ch. 2; Browne, Ziegler & Shepherd, GALCIT FM2006.006, 2008, sec. 4). For a volume ratio
x = v2/v1 the equilibrium state on the Hugoniot e2 - e1 = (p1 + p2)(v1 - v2)/2 is found by
bisection/secant on T2 with Cantera's equilibrate('TV'); the wave speed follows from mass and momentum,
D^2 = v1^2 (p2 - p1)/(v1 - v2); D_cj = min over x by golden-section search.

Writes tests/data/chem/cj_reference.csv with columns
  mech, X ("SP:x;SP:x"), T1 (K), p1 (Pa), D_cj (m/s), T2 (K), p2 (Pa).

Run with the oracle's interpreter (bash tools/install_oracle.sh):
  .oracle/venv/bin/python tools/chem_cj_reference.py
"""
import csv
import math
import os

import cantera as ct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared", "data", "mechanisms")
MECHS = {
    "burke": os.path.join(SHARED, "burke2012", "mechanism.yaml"),
    "h2o2": os.path.join(SHARED, "h2o2_cantera", "h2o2.yaml"),
}
CASES = [  # X, T1 (K), p1 (atm)
    ("H2:2;O2:1;N2:3.76", 300.0, 1.0),
    ("H2:2;O2:1", 300.0, 1.0),
    ("H2:2;O2:1;AR:7", 298.0, 0.2),
]


def hugoniot_state(gas, e1, v1, p1, x):
    """Equilibrium state (T2, p2) on the Hugoniot at v2 = x v1, by bracketed secant on T2."""
    v2 = x * v1
    Y0 = gas.Y

    def residual(T):
        gas.TDY = T, 1.0 / v2, Y0
        gas.equilibrate("TV")
        return gas.int_energy_mass - e1 - 0.5 * (p1 + gas.P) * (v1 - v2)

    lo, hi = 500.0, 6000.0
    f_lo, f_hi = residual(lo), residual(hi)
    assert f_lo < 0 < f_hi, (x, f_lo, f_hi)
    for _ in range(200):  # Illinois false position: keeps the bracket, converges superlinearly
        T = hi - f_hi * (hi - lo) / (f_hi - f_lo)
        f = residual(T)
        if f > 0:
            hi, f_hi = T, f
            f_lo *= 0.5
        else:
            lo, f_lo = T, f
            f_hi *= 0.5
        if hi - lo < 1e-10 * T or f == 0:
            break
    residual(T)  # leave gas at the converged equilibrium
    return T, gas.P


def wave_speed(gas, Y1, e1, v1, p1, x):
    gas.TPY = 300.0, p1, Y1  # reset the composition: each x starts from the unburnt mixture
    T2, p2 = hugoniot_state(gas, e1, v1, p1, x)
    return v1 * math.sqrt((p2 - p1) / (v1 - x * v1)), T2, p2


def cj_state(path, X, T1, p1):
    gas = ct.Solution(path)
    gas.TPX = T1, p1, X.replace(";", ",")
    Y1, e1, v1 = gas.Y, gas.int_energy_mass, 1.0 / gas.density
    a, b = 0.3, 0.9
    g = (math.sqrt(5.0) - 1.0) / 2.0
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = wave_speed(gas, Y1, e1, v1, p1, c)[0], wave_speed(gas, Y1, e1, v1, p1, d)[0]
    while b - a > 1e-8:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = wave_speed(gas, Y1, e1, v1, p1, c)[0]
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = wave_speed(gas, Y1, e1, v1, p1, d)[0]
    x = 0.5 * (a + b)
    assert 0.31 < x < 0.89, x
    D, T2, p2 = wave_speed(gas, Y1, e1, v1, p1, x)
    return D, T2, p2, x


def main():
    out = os.path.join(ROOT, "tests", "data", "chem", "cj_reference.csv")
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["mech", "X", "T1", "p1", "D_cj", "T2", "p2"])
        for mech, path in MECHS.items():
            for X, T1, p1_atm in CASES:
                p1 = p1_atm * ct.one_atm
                D, T2, p2, x = cj_state(path, X, T1, p1)
                print("%-6s %-18s T1 %g p1 %g: D_cj %.4f m/s T2 %.3f K p2 %.2f Pa (v2/v1 %.6f)"
                      % (mech, X, T1, p1, D, T2, p2, x))
                w.writerow([mech, X, repr(T1), repr(p1), "%.10g" % D, "%.10g" % T2, "%.10g" % p2])
    print("wrote", out)


if __name__ == "__main__":
    main()
