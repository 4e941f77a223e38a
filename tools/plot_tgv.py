#!/usr/bin/env python3
"""Compare Taylor-Green vortex runs with the 512^3 spectral DNS (Re = 1600).

usage: plot_tgv.py RUN_TGVAnalysis.csv [MORE.csv ...] [--ref FILE] [--out PNG] [--no-plot]
       plot_tgv.py --write-synthetic OUT_TGVAnalysis.csv [--ref FILE]

Reads <ProjectName>_TGVAnalysis.csv files (FLEXI's format, written by hexdg and FLEXI; labels
from the file names) and the reference ../shared/data/tgv/spectral_Re1600_512.gdiag (columns t,
Ek, -dEk/dt, enstrophy). Plots, against the reference:
  - the kinetic-energy dissipation rate: the column "Dissipation Rate Incompressible"
    (2 mu0/(rho0 V) int S:S dV, the resolved viscous dissipation that FLEXI users compare) and
    -d(Ekin comp)/dt from finite differences of the analyses (all dissipation, numerical included);
  - the kinetic energy "Ekin comp" and the enstrophy "Enstrophy comp".
Prints, per run and dissipation curve, the misfit on the overlapping time range with the
reference interpolated to the run's times: max |diff| and L2 = sqrt(mean over time of diff^2),
both also relative to the reference peak (0.0128575 at t = 8.97).

--write-synthetic writes a TGVAnalysis CSV sampled every 0.1 from the reference itself (a check
of this script: its misfit is ~0). Needs numpy and matplotlib; if the running Python lacks them,
the script re-runs itself with /usr/bin/python3. See docs/tgv.md.
"""
import argparse
import os
import sys

REEXEC_GUARD = "HEXDG_PLOT_TGV_REEXEC"

try:
    import numpy as np
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    from system_python import rerun_or_exit

    rerun_or_exit(REEXEC_GUARD,
                  "plot_tgv.py: needs numpy and matplotlib (pip install numpy matplotlib)")

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_REF = os.path.join(REPO_ROOT, "..", "shared", "data", "tgv", "spectral_Re1600_512.gdiag")

# FLEXI's column names (src/testcase/taylorgreenvortex/testcase.f90), Time first.
TGV_COLUMNS = [
    "Time",
    "Dissipation Rate Incompressible",
    "Dissipation Rate Compressible",
    "Ekin incomp",
    "Ekin comp",
    "Enstrophy comp",
    "DR_u",
    "DR_S",
    "DR_Sd",
    "DR_p",
    "Maximum Vorticity",
    "Mean Temperature",
    "uprime",
    "Mean Entropy",
    "ED_S",
    "ED_D",
]
COL_DISSIPATION = "Dissipation Rate Incompressible"
COL_EKIN = "Ekin comp"
COL_ENSTROPHY = "Enstrophy comp"


def read_reference(path):
    """Reference columns t, Ek, -dEk/dt, enstrophy ('#' header lines, CRLF line ends)."""
    if not os.path.isfile(path):
        sys.exit(
            f"plot_tgv.py: reference file {path} not found. It is the 512^3 spectral DNS of the "
            "high-order workshop (case C3.5), kept in ../shared/data/tgv/ next to the repository; "
            "pass its location with --ref FILE."
        )
    data = np.loadtxt(path, comments="#")
    if data.ndim != 2 or data.shape[1] < 4:
        sys.exit(f"plot_tgv.py: {path}: expected 4 columns (t, Ek, -dEk/dt, enstrophy)")
    return {"t": data[:, 0], "ek": data[:, 1], "diss": data[:, 2], "enstrophy": data[:, 3]}


def read_tgv_csv(path, needed=None):
    """Columns of a TGVAnalysis CSV by name, sorted by time. Lines that do not parse (a run
    killed while writing) are skipped with a note. needed: the columns that must be there
    (default: what this script plots). tools/plot_tgv_compressible.py reads with it too."""
    prog = os.path.basename(sys.argv[0])
    if needed is None:
        needed = (COL_DISSIPATION, COL_EKIN, COL_ENSTROPHY)
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as err:
        sys.exit(f"{prog}: cannot read {path}: {err.strerror}")
    if not lines or not lines[0].startswith("Time,"):
        sys.exit(f"{prog}: {path}: the first line is not a TGVAnalysis header ('Time,...')")
    names = [n.strip() for n in lines[0].split(",")]
    for name in needed:
        if name not in names:
            sys.exit(f"{prog}: {path}: no column '{name}' (header: {lines[0]})")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split(",")
        try:
            values = [float(v) for v in fields]
        except ValueError:
            values = []
        if len(values) != len(names):
            print(f"{prog}: {path}:{number}: skipping a line that does not parse")
            continue
        rows.append(values)
    if len(rows) < 3:
        sys.exit(f"{prog}: {path}: needs at least 3 analyses, found {len(rows)}")
    by_time = {row[0]: row for row in rows}  # a restart may repeat times: the last line wins
    if len(by_time) < 3:
        sys.exit(f"{prog}: {path}: needs at least 3 analysis times, found {len(by_time)}")
    table = np.array([by_time[t] for t in sorted(by_time)])
    return {name: table[:, i] for i, name in enumerate(names)}


def run_label(path):
    name = os.path.basename(path)
    for suffix in ("_TGVAnalysis.csv", ".csv"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def misfit(t, values, ref):
    """max |diff| and L2 = sqrt(time mean of diff^2) of values(t) against the reference
    -dEk/dt, on the overlapping time range; None without overlap."""
    inside = (t >= ref["t"][0]) & (t <= ref["t"][-1])
    if np.count_nonzero(inside) < 2:
        return None
    ts, diff = t[inside], values[inside] - np.interp(t[inside], ref["t"], ref["diss"])
    span = ts[-1] - ts[0]
    sq = diff**2
    l2 = np.sqrt(np.sum(0.5 * (sq[1:] + sq[:-1]) * np.diff(ts)) / span)
    return {"max": np.max(np.abs(diff)), "l2": l2, "t0": ts[0], "t1": ts[-1]}


def report(label, what, t, values, ref):
    peak_ref = np.max(ref["diss"])
    k = int(np.argmax(values))
    m = misfit(t, values, ref)
    if m is None:
        print(f"{label}: {what}: no time overlap with the reference")
        return
    print(
        f"{label}: {what}: t = {m['t0']:g}..{m['t1']:g}: max|diff| = {m['max']:.4e} "
        f"({100 * m['max'] / peak_ref:.2f} % of the peak), L2 = {m['l2']:.4e} "
        f"({100 * m['l2'] / peak_ref:.2f} %); peak {values[k]:.6g} at t = {t[k]:g}"
    )


def plot(runs, ref, out):
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.8))
    ax_d, ax_e, ax_z = axes
    ax_d.plot(ref["t"], ref["diss"], "k-", lw=2.0, label="DNS 512$^3$")
    ax_e.plot(ref["t"], ref["ek"], "k-", lw=2.0, label="DNS 512$^3$")
    ax_z.plot(ref["t"], ref["enstrophy"], "k-", lw=2.0, label="DNS 512$^3$")
    for i, (label, cols, fd) in enumerate(runs):
        color = f"C{i}"
        t = cols["Time"]
        ax_d.plot(t, cols[COL_DISSIPATION], "-", color=color, label=f"{label}: 2$\\mu_0$<S:S>")
        ax_d.plot(t, fd, "--", color=color, label=f"{label}: $-dE_k/dt$ (FD)")
        ax_e.plot(t, cols[COL_EKIN], "-", color=color, label=label)
        ax_z.plot(t, cols[COL_ENSTROPHY], "-", color=color, label=label)
    ax_d.set_ylabel("dissipation rate $-dE_k/dt$")
    ax_e.set_ylabel("kinetic energy $E_k$")
    ax_z.set_ylabel("enstrophy")
    for ax in axes:
        ax.set_xlabel("t")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Taylor-Green vortex, Re = 1600")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"plot_tgv.py: wrote {out}")


def fortran_e23_14(v):
    """FLEXI's number format, Fortran E23.14E5: 0.12500000000000E+00000."""
    if v == 0.0:
        mantissa, exponent = "0" * 14, 0
    else:
        text = f"{abs(v):.13e}"  # d.ddddddddddddde+XX
        mantissa, exponent = text[0] + text[2:15], int(text[16:]) + 1
    lead = "-" if v < 0 else "0"
    return f"{lead}.{mantissa}E{'-' if exponent < 0 else '+'}{abs(exponent):05d}"


def write_synthetic(path, ref):
    """A TGVAnalysis CSV from the reference, every 0.1 (FLEXI's number format)."""
    pick = np.arange(0, len(ref["t"]), 10)
    nu = 1.0 / 1600.0
    with open(path, "w") as f:
        f.write(",".join(TGV_COLUMNS) + "\n")
        for k in pick:
            values = dict.fromkeys(TGV_COLUMNS, 0.0)
            values["Time"] = ref["t"][k]
            for name in ("Dissipation Rate Incompressible", "Dissipation Rate Compressible"):
                values[name] = ref["diss"][k]
            for name in ("DR_u", "DR_S", "DR_Sd", "ED_S"):
                values[name] = 2.0 * nu * ref["enstrophy"][k]
            values["Ekin incomp"] = values["Ekin comp"] = ref["ek"][k]
            values["Enstrophy comp"] = ref["enstrophy"][k]
            values["uprime"] = np.sqrt(2.0 / 3.0 * ref["ek"][k])
            f.write(", ".join(fortran_e23_14(values[c]) for c in TGV_COLUMNS) + "\n")
    print(f"plot_tgv.py: wrote {path} ({len(pick)} analyses from the reference)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv", nargs="*", help="<ProjectName>_TGVAnalysis.csv files")
    parser.add_argument("--ref", default=DEFAULT_REF, help="reference .gdiag file")
    parser.add_argument("--out", help="PNG file (default: tgv_<first label>.png)")
    parser.add_argument("--no-plot", action="store_true", help="print the misfits only")
    parser.add_argument("--write-synthetic", metavar="CSV", help="write a CSV from the reference")
    args = parser.parse_args()

    ref = read_reference(args.ref)
    if args.write_synthetic:
        write_synthetic(args.write_synthetic, ref)
        return
    if not args.csv:
        parser.error("give at least one TGVAnalysis CSV file")

    runs = []
    for path in args.csv:
        cols = read_tgv_csv(path)
        label = run_label(path)
        fd = -np.gradient(cols[COL_EKIN], cols["Time"])
        report(label, f"'{COL_DISSIPATION}'", cols["Time"], cols[COL_DISSIPATION], ref)
        report(label, f"-d({COL_EKIN})/dt (finite differences)", cols["Time"], fd, ref)
        runs.append((label, cols, fd))
    if not args.no_plot:
        plot(runs, ref, args.out or f"tgv_{runs[0][0]}.png")


if __name__ == "__main__":
    main()
