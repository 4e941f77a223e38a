#!/usr/bin/env python3
"""Ignition-delay plot: tau against 1000/T0 (log scale) from the table of `hexdg reactor --sweep`,
optionally with reference curves (e.g. Cantera's, tools/chem_ignition_reference.py) and measured
points.

usage: plot_ignition.py table.csv [--ref ref.csv[:label]] ... [--data file:label] -o out.png
  table.csv: columns T0, p0, ignition_delay, T_end (header line first; '#' lines are comments)
  --ref:     another table with T0 and ignition_delay columns (any extra columns ignored);
             --select 'mode=cv;p_atm=1' keeps the rows whose columns have those values
  --data:    whitespace file "T[K] tau[us]" (e.g. ../shared/data/mechanisms/slack_grillo_1977_idt.data)
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import system_python  # noqa: E402

plt = system_python.pyplot("HEXDG_PLOT_IGNITION_RERUN", "plot_ignition.py")


def read_table(path, select=None):
    rows, header = [], None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = [x.strip() for x in line.split(",")]
            if header is None:
                header = parts
                continue
            rows.append(parts)
    col = {name: i for i, name in enumerate(header)}
    for key, value in (select or {}).items():
        if key in col:
            rows = [r for r in rows if r[col[key]] == value]
    for need in ("T0", "ignition_delay"):
        if need not in col:
            sys.exit(f"plot_ignition.py: {path} has no column '{need}' (columns: {header})")
    T = [float(r[col["T0"]]) for r in rows]
    tau = [float(r[col["ignition_delay"]]) for r in rows]
    return T, tau


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("table")
    ap.add_argument("--ref", action="append", default=[])
    ap.add_argument("--data", action="append", default=[])
    ap.add_argument("--select", default="", help="rows of the --ref tables, e.g. 'mode=cv;p_atm=1'")
    ap.add_argument("--title", default="")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    T, tau = read_table(a.table)
    ax.semilogy([1000 / t for t in T], tau, "o-", label="hexdg")
    for spec in a.ref:
        path, _, label = spec.partition(":")
        sel = dict(kv.split("=", 1) for kv in a.select.split(";") if "=" in kv)
        Tr, taur = read_table(path, sel)
        ax.semilogy([1000 / t for t in Tr], taur, "--", label=label or os.path.basename(path))
    for spec in a.data:
        path, _, label = spec.partition(":")
        pts = []
        with open(path) as f:
            for line in f:
                p = line.split()
                try:
                    pts.append((float(p[0]), float(p[1]) * 1e-6))
                except (ValueError, IndexError):
                    continue
        ax.semilogy([1000 / t for t, _ in pts], [s for _, s in pts], "ks", mfc="none",
                    label=label or os.path.basename(path))
    ax.set_xlabel("1000 / T0  [1/K]")
    ax.set_ylabel("ignition delay  [s]  (max dT/dt)")
    ax.set_title(a.title or os.path.basename(a.table))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(a.output, dpi=120)
    print(f"wrote {a.output}")


if __name__ == "__main__":
    main()
