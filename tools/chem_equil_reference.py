#!/usr/bin/env python3
"""Chemical-equilibrium references from Cantera (a test oracle only) for tests/unit/test_chem_equil.c.

Writes tests/data/chem/equil_<mech>.csv for h2o2, Burke 2012 (H2-air) and GRI-Mech 3.0 (CH4-air):
modes HP and UV from T0 in {300, 800} K, p0 in {1, 20} atm, and plain TP cases. Columns:
  mode, T0 (K), p0 (Pa), X (the inlet mole fractions, "SP:x;SP:x;..."), T_eq (K), p_eq (Pa),
  then Y_<species> of the equilibrium for the major species present in the mechanism.
The equilibrium is Cantera's gas.equilibrate(mode) with its default solver.

Run with the oracle's interpreter (bash tools/install_oracle.sh):
  .oracle/venv/bin/python tools/chem_equil_reference.py
"""
import csv
import os
import sys

import cantera as ct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared", "data", "mechanisms")
MECHS = {
    "h2o2": os.path.join(SHARED, "h2o2_cantera", "h2o2.yaml"),
    "burke": os.path.join(SHARED, "burke2012", "mechanism.yaml"),
    "gri30": os.path.join(ROOT, ".oracle", "mechanisms", "gri30.yaml"),
}
MAJOR = ["H2O", "H2", "O2", "OH", "H", "O", "N2", "CO2", "CO"]
T0S = [300.0, 800.0]
P0S_ATM = [1.0, 20.0]


def fuel_air(mech, phi):
    """X string (';'-separated: the CSV's field separator is ',') of fuel-air at equivalence ratio phi."""
    if mech == "gri30":
        return "CH4:%r;O2:2;N2:7.52" % phi
    return "H2:%r;O2:1;N2:3.76" % (2.0 * phi)


def cases(mech):
    phis = [0.6, 1.0, 1.4] if mech == "gri30" else [0.5, 0.8, 1.0, 1.5, 2.0, 3.0]
    for mode in ("HP", "UV"):
        for phi in phis:
            for T0 in T0S:
                for p in P0S_ATM:
                    yield mode, T0, p * ct.one_atm, fuel_air(mech, phi)
    for phi in ([0.6, 1.4] if mech == "gri30" else [0.5, 1.0, 2.0]):
        for T in (1000.0, 2000.0, 3000.0):
            for p in P0S_ATM:
                yield "TP", T, p * ct.one_atm, fuel_air(mech, phi)


def main():
    outdir = os.path.join(ROOT, "tests", "data", "chem")
    os.makedirs(outdir, exist_ok=True)
    for mech, path in MECHS.items():
        if not os.path.exists(path):
            print("%s: %s not found, skipped" % (mech, path), file=sys.stderr)
            continue
        gas = ct.Solution(path)
        major = [s for s in MAJOR if s in gas.species_names]
        out = os.path.join(outdir, "equil_%s.csv" % mech)
        with open(out, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["mode", "T0", "p0", "X", "T_eq", "p_eq"] + ["Y_" + s for s in major])
            n = 0
            for mode, T0, p0, X in cases(mech):
                gas.TPX = T0, p0, X.replace(";", ",")
                gas.equilibrate(mode)
                w.writerow([mode, "%.17g" % T0, "%.17g" % p0, X, "%.17g" % gas.T, "%.17g" % gas.P]
                           + ["%.17g" % gas[s].Y[0] for s in major])
                n += 1
        print("%s: %d rows -> %s" % (mech, n, os.path.relpath(out, ROOT)))


if __name__ == "__main__":
    main()
