#!/usr/bin/env python3
"""The ZND structure of a detonation as a picture, from the CSV of `hexdg znd -o znd.csv`:
temperature and pressure (left axis, normalised by their von Neumann values) and the thermicity
(right axis) against the distance behind the lead shock on a log scale, with the induction
length (the thermicity's peak) and the half-reaction length (half the composition change)
marked as hexdg computes them (src/chem/znd.c). Prints both lengths last.

usage: plot_znd.py znd.csv [-o znd.png] [--title TEXT] [--xmin 1e-6] [--species H2,OH,H2O]
  --species: also the mass fractions of these species (scaled by their largest value)
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import system_python  # noqa: E402

plt = system_python.pyplot("HEXDG_PLOT_ZND_RERUN", "plot_znd.py")


def read_profile(path):
    """Columns of the CSV as lists of floats, by name."""
    with open(path) as f:
        header = f.readline().strip().split(",")
        need = ["x_m", "T_K", "p_Pa", "thermicity_1_s"]
        missing = [c for c in need if c not in header]
        if missing:
            sys.exit(f"plot_znd.py: {path} has no column {', '.join(missing)}: not a `hexdg znd` "
                     "CSV")
        cols = {h: [] for h in header}
        for n, line in enumerate(f, start=2):
            parts = line.strip().split(",")
            if len(parts) != len(header):
                sys.exit(f"plot_znd.py: {path} line {n}: {len(parts)} fields, the header has "
                         f"{len(header)}")
            for h, v in zip(header, parts):
                cols[h].append(float(v))
    if len(cols["x_m"]) < 3:
        sys.exit(f"plot_znd.py: {path} holds fewer than 3 samples")
    return cols


def lengths(cols):
    """Induction length (peak thermicity) and half-reaction length (sum_k |Y_k - Y_k(0)| at half
    its end value), as src/chem/znd.c defines them."""
    x, s = cols["x_m"], cols["thermicity_1_s"]
    x_ind = x[max(range(len(s)), key=lambda i: s[i])]
    ys = [h for h in cols if h.startswith("Y_")]
    change = [sum(abs(cols[h][i] - cols[h][0]) for h in ys) for i in range(len(x))]
    half = 0.5 * change[-1]
    x_half = x[-1]
    for i in range(1, len(x)):
        if change[i] >= half:
            d = change[i] - change[i - 1]
            f = (half - change[i - 1]) / d if d > 0 else 1.0
            x_half = x[i - 1] + f * (x[i] - x[i - 1])
            break
    return x_ind, x_half


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("-o", "--output", default="znd.png")
    ap.add_argument("--title", default=None)
    ap.add_argument("--xmin", type=float, default=1e-6, help="left end of the x axis [m]")
    ap.add_argument("--species", default="", help="comma-separated species to draw as well")
    ap.add_argument("--dpi", type=int, default=120)
    args = ap.parse_args()
    cols = read_profile(args.csv)
    x_ind, x_half = lengths(cols)
    keep = [i for i, x in enumerate(cols["x_m"]) if x >= args.xmin]
    x = [cols["x_m"][i] for i in keep]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    T0, p0 = cols["T_K"][0], cols["p_Pa"][0]
    ax.plot(x, [cols["T_K"][i] / T0 for i in keep], "r-", label=f"T / T_vN (T_vN = {T0:.0f} K)")
    ax.plot(x, [cols["p_Pa"][i] / p0 for i in keep], "b-", label=f"p / p_vN (p_vN = {p0:.4g} Pa)")
    for name in [s for s in args.species.split(",") if s]:
        col = "Y_" + name
        if col not in cols:
            sys.exit(f"plot_znd.py: species {name} is not in {args.csv} (columns Y_<name>)")
        top = max(cols[col]) or 1.0
        ax.plot(x, [cols[col][i] / top for i in keep], "--", lw=1, label=f"Y_{name} / {top:.3g}")
    ax.set_xscale("log")
    ax.set_xlabel("distance behind the lead shock [m]")
    ax.set_ylabel("normalised by the von Neumann state")
    ax.grid(True, which="both", alpha=0.3)
    ax2 = ax.twinx()
    ax2.plot(x, [cols["thermicity_1_s"][i] for i in keep], "k-", lw=1, alpha=0.6, label="thermicity")
    ax2.set_ylabel("thermicity [1/s]")
    y_lo, y_hi = ax.get_ylim()
    for j, (xv, lab, st) in enumerate(((x_ind, "induction length", ":"),
                                       (x_half, "half-reaction length", "-."))):
        if xv >= args.xmin:  # the labels one above the other: the two lengths are often close
            ax.axvline(xv, color="g", ls=st, lw=1)
            ax.text(xv, y_hi - 0.12 * j * (y_hi - y_lo), f" {lab} {1e3 * xv:.3g} mm", color="g",
                    va="top", fontsize=8)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=8, loc="center left")
    ax.set_title(args.title or f"ZND structure ({os.path.basename(args.csv)})", fontsize=10)
    fig.tight_layout()
    fig.savefig(args.output, dpi=args.dpi)
    print(f"wrote {args.output}")
    if not (math.isfinite(x_ind) and math.isfinite(x_half)):
        sys.exit("plot_znd.py: no finite lengths")
    print(f"induction_length {x_ind:.6e} half_reaction_length {x_half:.6e}")


if __name__ == "__main__":
    main()
