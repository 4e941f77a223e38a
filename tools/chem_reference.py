#!/usr/bin/env python3
"""Reference tables for the chemistry tests, computed with Cantera (the test oracle only).

  chem_reference.py rates --mech PATH [--phase NAME] [--n 1000] [--seed 1] [--negative 0] -o FILE.csv

The phase is NAME, else the file's first ideal-gas phase (as hexdg's reader picks it: e.g.
nDodecane_Reitz.yaml lists a Redlich-Kwong phase first).

Random states: T uniform in [300, 3000] K, p log-uniform in [0.1, 100] atm, mole fractions with
log-uniform magnitudes in [1e-8, 1] (so minor species are present), normalised. With --negative F a
fraction F of the states gets one species at a small negative mass fraction (as an integrator may
produce), set with Cantera's unnormalised setter, to pin down how Cantera treats C_k < 0.

Columns: T (K), p (Pa), C_<species> (kmol/m^3, Cantera's concentrations: the C test needs no
thermo), wdot_<species> (net production rates, kmol/(m^3 s)). Numbers are written with repr(), which
round-trips doubles exactly. Works with any python that has cantera and numpy.
"""
import argparse
import sys

import numpy as np


def random_state(gas, rng, negative):
    T = rng.uniform(300.0, 3000.0)
    p = 101325.0 * 10.0 ** rng.uniform(-1.0, 2.0)
    X = 10.0 ** rng.uniform(-8.0, 0.0, gas.n_species)
    gas.TPX = T, p, X / X.sum()
    if rng.uniform() < negative:
        Y = gas.Y.copy()
        Y[rng.integers(gas.n_species)] = -10.0 ** rng.uniform(-10.0, -4.0)
        gas.set_unnormalized_mass_fractions(Y)


def first_ideal_gas_phase(path):
    """Name of the first phase with `thermo: ideal-gas` in a Cantera YAML file"""
    from ruamel.yaml import YAML  # a dependency of cantera

    with open(path) as f:
        doc = YAML(typ="safe", pure=True).load(f)
    for ph in doc.get("phases", []):
        if ph.get("thermo") == "ideal-gas":
            return ph["name"]
    sys.exit("%s: no ideal-gas phase" % path)


def rates(args):
    import cantera as ct

    phase = args.phase or first_ideal_gas_phase(args.mech)
    gas = ct.Solution(args.mech, phase)
    rng = np.random.default_rng(args.seed)
    names = gas.species_names
    with open(args.output, "w") as f:
        f.write("# %s (phase %s): %d random states, seed %d, Cantera %s (tools/chem_reference.py)\n"
                % (args.mech.split("/")[-1], phase, args.n, args.seed, ct.__version__))
        f.write(",".join(["T", "p"] + ["C_" + s for s in names] + ["wdot_" + s for s in names]))
        f.write("\n")
        for _ in range(args.n):
            random_state(gas, rng, args.negative)
            row = [gas.T, gas.P] + list(gas.concentrations) + list(gas.net_production_rates)
            f.write(",".join(repr(float(v)) for v in row))
            f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("rates", help="net production rates at random states")
    r.add_argument("--mech", required=True, help="Cantera YAML mechanism")
    r.add_argument("--phase", help="phase name (default: the first ideal-gas phase)")
    r.add_argument("--n", type=int, default=1000, help="number of states")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--negative", type=float, default=0.0,
                   help="fraction of states with one slightly negative mass fraction")
    r.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    if args.cmd == "rates":
        rates(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
