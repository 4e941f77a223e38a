#!/usr/bin/env python3
"""Dissipation and shock-capturing history of compressible Taylor-Green vortex runs (Ma = 1.25).

usage: plot_tgv_compressible.py RUN_TGVAnalysis.csv [MORE.csv ...] [--alpha ALPHA.csv]
                                [--out PNG] [--no-plot]
       plot_tgv_compressible.py --alpha-from-log LABEL=hexdg.log [LABEL=more.log ...]
                                --write-alpha ALPHA.csv

Reads <ProjectName>_TGVAnalysis.csv files (FLEXI's format; docs/tgv.md lists the columns) and
plots against t:
  1. the solenoidal dissipation eps_S = ED_S = 1/(rho0 V) int mu(T) |omega|^2 dV (solid), the
     resolved strain dissipation DR_S = 2 mu0/(rho0 V) int S:S dV (dotted) and all dissipation,
     numerical included, -d(Ekin comp)/dt - DR_p (dashed; the time derivative from central
     differences of the analyses): the kinetic energy also changes by the pressure dilatation,
     d Ek/dt = -DR_p - dissipation, which oscillates with the acoustic waves at this Mach number;
  2. the dilatational dissipation eps_D = ED_D = 4/3 1/(rho0 V) int mu(T) (div u)^2 dV and the
     pressure dilatation DR_p = -1/(rho0 V) int p div u dV (the exchange with internal energy);
  3. with --alpha: the fraction of elements with FV_alpha > 0 and the maximum FV_alpha.
Prints per run the peaks and their times, and per alpha series the largest blended fraction and
the last time with blended elements.

The alpha CSV (columns label,Time,alpha_min,alpha_max,blended,nElems) is made from hexdg's
output (its analysis lines 't = ...' and 'FV_alpha: min .. max .. blended elements n of N') with
--alpha-from-log LABEL=FILE ... --write-alpha ALPHA.csv; LABEL is matched against the CSV labels
(the file name without _TGVAnalysis.csv, e.g. TGV_Re1600_Ma1.25_64; the last _NUMBER of both
names is used when they differ). Needs numpy and matplotlib; if the running Python lacks them,
the script re-runs itself with /usr/bin/python3. See docs/shock_capturing.md.
"""
import argparse
import os
import re
import sys

REEXEC_GUARD = "HEXDG_PLOT_TGV_COMPRESSIBLE_REEXEC"

try:
    import numpy as np
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    from system_python import rerun_or_exit

    rerun_or_exit(REEXEC_GUARD,
                  "plot_tgv_compressible.py: needs numpy and matplotlib (pip install numpy matplotlib)")

from plot_tgv import read_tgv_csv, run_label  # noqa: E402 (after the numpy check)

NEEDED = ("Time", "Ekin comp", "DR_S", "DR_p", "ED_S", "ED_D")
ALPHA_HEADER = "label,Time,alpha_min,alpha_max,blended,nElems"


def fail(msg):
    sys.exit(f"plot_tgv_compressible.py: {msg}")


def parse_alpha_log(path):
    """(t, alpha_min, alpha_max, blended, nElems) per analysis of a hexdg log."""
    rows, t = [], None
    time_re = re.compile(r"^\s*t\s*=\s*([-+0-9.eE]+)")
    alpha_re = re.compile(
        r"FV_alpha:\s*min\s+([-+0-9.eE]+)\s+max\s+([-+0-9.eE]+)\s+blended elements\s+(\d+)\s+of\s+(\d+)"
    )
    with open(path) as f:
        for line in f:
            m = time_re.match(line)
            if m:
                t = float(m.group(1))
                continue
            m = alpha_re.search(line)
            if m and t is not None:
                rows.append((t, float(m.group(1)), float(m.group(2)), int(m.group(3)), int(m.group(4))))
                t = None
    if not rows:
        fail(f"{path}: no 't = ...' / 'FV_alpha: ...' pairs")
    return rows


def write_alpha(specs, out):
    with open(out, "w") as f:
        f.write(ALPHA_HEADER + "\n")
        for spec in specs:
            if "=" not in spec:
                fail(f"--alpha-from-log wants LABEL=FILE, got {spec!r}")
            label, path = spec.split("=", 1)
            by_time = {}
            for row in parse_alpha_log(path):
                by_time[row[0]] = row  # the last of repeated times (final analysis) wins
            for t in sorted(by_time):
                _, amin, amax, n, total = by_time[t]
                f.write(f"{label},{t:.6g},{amin:.4f},{amax:.4f},{n},{total}\n")
    print(f"plot_tgv_compressible.py: wrote {out}")


def read_alpha(path):
    series = {}
    with open(path) as f:
        header = f.readline().strip()
        if header != ALPHA_HEADER:
            fail(f"{path}: expected the header '{ALPHA_HEADER}'")
        for line in f:
            parts = line.strip().split(",")
            if len(parts) != 6:
                continue
            series.setdefault(parts[0], []).append([float(v) for v in parts[1:]])
    return {label: np.array(rows) for label, rows in series.items()}


def match_alpha(label, alpha):
    if label in alpha:
        return alpha[label]
    tail = label.rsplit("_", 1)[-1]
    for key, rows in alpha.items():
        if key.rsplit("_", 1)[-1] == tail:
            return rows
    return None


def peak(t, v):
    k = int(np.argmax(v))
    return v[k], t[k]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv", nargs="*", help="<ProjectName>_TGVAnalysis.csv files")
    parser.add_argument("--alpha", help="alpha history CSV (" + ALPHA_HEADER + ")")
    parser.add_argument("--out", help="PNG file (default: tgv_compressible.png)")
    parser.add_argument("--no-plot", action="store_true", help="print the numbers only")
    parser.add_argument("--title", default="compressible Taylor-Green vortex, Re = 1600, Ma = 1.25")
    parser.add_argument(
        "--alpha-from-log", nargs="+", metavar="LABEL=LOG", help="hexdg outputs to read alpha from"
    )
    parser.add_argument("--write-alpha", metavar="CSV", help="with --alpha-from-log: CSV to write")
    args = parser.parse_args()

    if args.alpha_from_log:
        if not args.write_alpha:
            parser.error("--alpha-from-log needs --write-alpha CSV")
        write_alpha(args.alpha_from_log, args.write_alpha)
        if not args.csv:
            return
    if not args.csv:
        parser.error("give at least one TGVAnalysis CSV file")

    alpha = read_alpha(args.alpha) if args.alpha else {}
    runs = []
    for path in args.csv:
        cols = read_tgv_csv(path, NEEDED)
        label = run_label(path)
        t = cols["Time"]
        fd = -np.gradient(cols["Ekin comp"], t) - cols["DR_p"]
        for name, values in (
            ("eps_S = ED_S", cols["ED_S"]),
            ("DR_S", cols["DR_S"]),
            ("eps_D = ED_D", cols["ED_D"]),
            ("DR_p", cols["DR_p"]),
            ("-dEk/dt - DR_p (FD)", fd),
        ):
            v, tv = peak(t, values)
            print(f"{label}: {name}: peak {v:.5g} at t = {tv:g}")
        k = int(np.argmin(cols["DR_p"]))
        print(f"{label}: DR_p: minimum {cols['DR_p'][k]:.5g} at t = {t[k]:g}")
        rows = match_alpha(label, alpha)
        if rows is not None:
            frac = rows[:, 3] / rows[:, 4]
            k = int(np.argmax(frac))
            on = np.flatnonzero(rows[:, 3] > 0)
            first = rows[on[0], 0] if on.size else float("nan")
            last = rows[on[-1], 0] if on.size else float("nan")
            print(
                f"{label}: blended elements: at most {int(rows[k, 3])} of {int(rows[k, 4])} "
                f"({100 * frac[k]:.1f} %) at t = {rows[k, 0]:g}; first at t = {first:g}, last at "
                f"t = {last:g}; max FV_alpha {rows[:, 2].max():g}"
            )
        runs.append((label, cols, fd, rows))

    if args.no_plot:
        return
    n_panels = 3 if alpha else 2
    fig, axes = plt.subplots(1, n_panels, figsize=(5.6 * n_panels, 4.6))
    ax_s, ax_d = axes[0], axes[1]
    for i, (label, cols, fd, rows) in enumerate(runs):
        c, t = f"C{i}", cols["Time"]
        ax_s.plot(t, cols["ED_S"], "-", color=c, label=f"{label}: $\\varepsilon_S$ (ED_S)")
        ax_s.plot(t, cols["DR_S"], ":", color=c, label=f"{label}: DR_S")
        ax_s.plot(t, fd, "--", color=c, lw=0.9, label=f"{label}: $-dE_k/dt$ - DR_p")
        ax_d.plot(t, cols["ED_D"], "-", color=c, label=f"{label}: $\\varepsilon_D$ (ED_D)")
        ax_d.plot(t, cols["DR_p"], "--", color=c, lw=0.9, label=f"{label}: DR_p = $-\\langle p\\,\\nabla\\cdot u\\rangle$")
        if alpha and rows is not None:
            ax_a = axes[2]
            n = rows[:, 4][0]
            ax_a.plot(rows[:, 0], 100 * rows[:, 3] / rows[:, 4], "-", color=c,
                      label=f"{label}: blended elements (% of {int(n)})")
            ax_a.plot(rows[:, 0], 100 * rows[:, 2], ":", color=c, label=f"{label}: 100 max FV_alpha")
    ax_s.set_ylabel("dissipation rate")
    ax_s.set_title("solenoidal and all dissipation")
    ax_d.set_ylabel("rate")
    ax_d.set_title("dilatational dissipation, pressure dilatation")
    ax_d.axhline(0.0, color="k", lw=0.5)
    if alpha:
        axes[2].set_ylabel("%")
        axes[2].set_title("FV blending")
    for ax in axes:
        ax.set_xlabel("t")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(args.title)
    fig.tight_layout()
    out = args.out or "tgv_compressible.png"
    fig.savefig(out, dpi=110)
    print(f"plot_tgv_compressible.py: wrote {out}")


if __name__ == "__main__":
    main()
