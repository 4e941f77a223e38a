#!/usr/bin/env python3
"""Cantera's throughput on the cells of `hexdg bench chem ... --dump cells.csv`: every cell an
adiabatic constant-volume reactor (IdealGasReactor) advanced by the same dt with the same rtol and
atol (read from the file's header), one core. The outside reference of docs/performance.md.

usage: chem_bench_cantera.py cells.csv [--max-cells n]
prints last: cantera_cells_per_second <x> steps_per_cell <y>
"""
import argparse
import time

import cantera as ct


def first_ideal_gas_phase(path):
    """The phase hexdg reads: the first with thermo: ideal-gas (n-dodecane's file lists a
    Redlich-Kwong phase first)."""
    name = None
    with open(path) as f:
        for line in f:
            s = line.strip()
            if s.startswith("- name:"):
                name = s.split(":", 1)[1].strip()
            elif s.startswith("thermo:") and name and s.split(":", 1)[1].strip() == "ideal-gas":
                return name
    return ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cells")
    ap.add_argument("--max-cells", type=int, default=0)
    a = ap.parse_args()
    with open(a.cells) as f:
        head = f.readline().split()
        mech, dt, rtol, atol = head[1], float(head[3]), float(head[5]), float(head[7])
        names = f.readline().strip().split(",")[2:]
        rows = [list(map(float, line.split(","))) for line in f if line.strip()]
    if a.max_cells:
        rows = rows[: a.max_cells]
    gas = ct.Solution(mech, first_ideal_gas_phase(mech))
    order = [gas.species_index(n) for n in names]
    steps = 0
    t0 = time.perf_counter()
    for r in rows:
        Y = [0.0] * gas.n_species
        for i, k in enumerate(order):
            Y[k] = r[2 + i]
        gas.TDY = r[0], r[1], Y
        reactor = ct.IdealGasReactor(gas, clone=False)
        net = ct.ReactorNet([reactor])
        net.rtol, net.atol = rtol, atol
        net.advance(dt)
        steps += net.solver_stats["steps"] if hasattr(net, "solver_stats") else 0
    sec = time.perf_counter() - t0
    n = len(rows)
    print(f"{mech}: {n} cells, dt {dt}, rtol {rtol}, atol {atol}: {sec:.3f} s")
    print(f"cantera_cells_per_second {n / sec:.6e} steps_per_cell {steps / n:.3f}")


if __name__ == "__main__":
    main()
