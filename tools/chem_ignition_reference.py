#!/usr/bin/env python3
"""Ignition-delay references from Cantera (test oracle only) for tests/unit/test_chem_reactor.c.

Stoichiometric H2-air (X = H2:2, O2:1, N2:3.76) in an adiabatic homogeneous reactor at constant
volume (IdealGasReactor) and constant pressure (IdealGasConstPressureReactor), p0 = 1 and 20 atm,
T0 = 950..2500 K. The ignition delay is the time of the maximum of dT/dt, located as in hexdg
(src/chem/batch.c): dT/dt from the reactor ODE at every CVODES step, and the vertex of the
parabola through the largest sample and its two neighbours.

Usage: .oracle/venv/bin/python tools/chem_ignition_reference.py [mech ...]   (burke, h2o2)
Writes tests/data/chem/ignition_<mech>.csv.
"""
import os
import sys

import cantera as ct
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MECHS = {
    "burke": os.path.join(ROOT, "..", "shared", "data", "mechanisms", "burke2012", "mechanism.yaml"),
    "h2o2": os.path.join(ROOT, "..", "shared", "data", "mechanisms", "h2o2_cantera", "h2o2.yaml"),
}
RTOL, ATOL = 1e-8, 1e-15
T0S = [950.0, 1000.0, 1100.0, 1200.0, 1400.0, 1700.0, 2000.0, 2500.0]
PS_ATM = [1.0, 20.0]
TEND = 0.5  # s: beyond every ignition of the table, then the reactor sits at equilibrium
X0 = "H2:2,O2:1,N2:3.76"


def dTdt(gas, mode):
    """Right-hand side of the energy equation (the same formula as src/chem/reactor.h)."""
    w = gas.net_production_rates  # kmol/m^3/s
    if mode == "cv":
        u = gas.partial_molar_int_energies
        return -np.dot(u, w) / (gas.density * gas.cv_mass)
    h = gas.partial_molar_enthalpies
    return -np.dot(h, w) / (gas.density * gas.cp_mass)


def parabola_vertex(t, d, i):
    """Time of the maximum of the parabola through (t[i-1..i+1], d[i-1..i+1])."""
    if i == 0 or i == len(t) - 1:
        return t[i]
    t0, t1, t2 = t[i - 1], t[i], t[i + 1]
    d0, d1, d2 = d[i - 1], d[i], d[i + 1]
    # divided differences: p(x) = d0 + a (x - t0) + b (x - t0)(x - t1)
    a = (d1 - d0) / (t1 - t0)
    b = ((d2 - d1) / (t2 - t1) - a) / (t2 - t0)
    if b >= 0:
        return t1
    return 0.5 * (t0 + t1) - a / (2 * b)


def ignition(path, mode, T0, p0):
    gas = ct.Solution(path)
    gas.TPX = T0, p0, X0
    kind = ct.IdealGasReactor if mode == "cv" else ct.IdealGasConstPressureReactor
    r = kind(gas, clone=False)
    net = ct.ReactorNet([r])
    net.rtol, net.atol = RTOL, ATOL
    net.max_steps = 1000000
    ts, ds = [0.0], [dTdt(r.phase, mode)]
    while net.time < TEND:
        net.step()
        ts.append(net.time)
        ds.append(dTdt(r.phase, mode))
    i = int(np.argmax(ds))
    return parabola_vertex(ts, ds, i), r.phase.T, len(ts) - 1


def main():
    names = sys.argv[1:] or list(MECHS)
    for name in names:
        out = os.path.join(ROOT, "tests", "data", "chem", "ignition_%s.csv" % name)
        with open(out, "w") as f:
            f.write("# Cantera %s, %s, X = %s, rtol %g atol %g, ignition delay = time of max dT/dt\n"
                    % (ct.__version__, os.path.basename(os.path.dirname(MECHS[name])), X0, RTOL, ATOL))
            f.write("mode,p_atm,T0,ignition_delay,T_end,tend,cantera_steps\n")
            for mode in ("cv", "cp"):
                for p in PS_ATM:
                    for T0 in T0S:
                        tau, Tend, nstep = ignition(MECHS[name], mode, T0, p * ct.one_atm)
                        f.write("%s,%g,%g,%.10e,%.10f,%g,%d\n" % (mode, p, T0, tau, Tend, TEND, nstep))
                        print(name, mode, p, T0, tau, Tend, nstep, flush=True)
        print("wrote", out)


if __name__ == "__main__":
    main()
