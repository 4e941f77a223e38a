#!/usr/bin/env python3
"""Log-log plot of the table `hexdg convergence` writes (CSV): L2 and Linf errors of every
variable over the mesh size h (h-series) or over N (p-series, semi-log), with the slope N+1
reference where --order is given.
usage: python3 tools/convergence_plot.py table.csv [-o table.png] [--order 4]"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("-o", "--output", help="PNG file (default: the CSV's name with .png)")
    ap.add_argument("--order", type=float, help="draw a reference slope of this order")
    a = ap.parse_args()
    with open(a.csv) as f:
        rows = list(csv.reader(f))
    head, data = rows[0], rows[1:]
    p_series = head[0] == "N"
    x = [float(r[0]) if p_series else float(r[1]) for r in data]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    for ax, norm in zip(axes, ("L2", "Linf")):
        for i, name in enumerate(head):
            if name.startswith(norm + "_"):
                ax.plot(x, [float(r[i]) for r in data], "o-", label=name[len(norm) + 1:])
        if a.order and not p_series:
            e0 = min(float(data[0][i]) for i, n in enumerate(head) if n.startswith(norm + "_"))
            ax.plot(x, [e0 * (h / x[0]) ** a.order for h in x], "k--", label="slope %g" % a.order)
        ax.set_yscale("log")
        if not p_series:
            ax.set_xscale("log")
        ax.set_xlabel("N" if p_series else "h (1/elements per direction)")
        ax.set_ylabel(norm + " error")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    out = a.output or a.csv.rsplit(".", 1)[0] + ".png"
    fig.savefig(out, dpi=120)
    print("wrote", out)


if __name__ == "__main__":
    main()
