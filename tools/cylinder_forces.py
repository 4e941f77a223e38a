#!/usr/bin/env python3
"""Strouhal number and mean drag coefficient of the cylinder case from
<ProjectName>_BodyForces_BC_cylinder.csv (columns time, Fp_xyz, Fv_xyz, F_xyz).

  tools/cylinder_forces.py cylinder_Re100_BodyForces_BC_cylinder.csv [--U 0.1 --D 1 --Lz 1 --rho 1]
                                                                      [--from 0.5] [--png out.png]

Coefficients: C = F / (1/2 rho U^2 D Lz). The Strouhal number St = f D / U comes from the mean
period between upward zero crossings of the lift coefficient over the last part of the record
(--from: fraction of the record to skip, default 0.5, so the start-up transient is excluded);
the drag coefficient is averaged over whole lift periods of the same window."""
import argparse
import os
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--U", type=float, default=0.1)
    ap.add_argument("--D", type=float, default=1.0)
    ap.add_argument("--Lz", type=float, default=1.0)
    ap.add_argument("--rho", type=float, default=1.0)
    ap.add_argument("--from", dest="start", type=float, default=0.5)
    ap.add_argument("--png", default=None)
    a = ap.parse_args()
    plt = None
    if a.png:  # matplotlib before any work (a rerun under /usr/bin/python3 starts afresh)
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from system_python import pyplot

        plt = pyplot("HEXDG_CYLINDER_FORCES_REEXEC", "cylinder_forces.py")
    rows = []
    with open(a.csv) as f:
        next(f)
        for line in f:
            v = [float(x) for x in line.split(",")]
            rows.append((v[0], v[7], v[8]))
    q = 0.5 * a.rho * a.U ** 2 * a.D * a.Lz
    t = [r[0] for r in rows]
    cd = [r[1] / q for r in rows]
    cl = [r[2] / q for r in rows]
    i0 = int(a.start * len(t))
    ups = []
    for i in range(max(i0, 1), len(t)):
        if cl[i - 1] < 0.0 <= cl[i]:  # linear interpolation of the crossing time
            ups.append(t[i - 1] + (t[i] - t[i - 1]) * (-cl[i - 1]) / (cl[i] - cl[i - 1]))
    if len(ups) < 3:
        sys.exit("cylinder_forces.py: fewer than 3 lift periods in the analysed window: no shedding yet?")
    period = (ups[-1] - ups[0]) / (len(ups) - 1)
    st = a.D / (period * a.U)
    sel = [i for i in range(len(t)) if ups[0] <= t[i] <= ups[-1]]
    cd_mean = sum(cd[i] for i in sel) / len(sel)
    cl_amp = max(abs(cl[i]) for i in sel)
    print(f"periods {len(ups) - 1} from t = {ups[0]:.2f} to {ups[-1]:.2f}: St = {st:.4f} "
          f"(literature 0.165, {100 * (st / 0.165 - 1):+.1f} %), mean Cd = {cd_mean:.4f} "
          f"(literature 1.34, {100 * (cd_mean / 1.34 - 1):+.1f} %), Cl amplitude {cl_amp:.3f}")
    if a.png:
        tu = [x * a.U / a.D for x in t]
        fig, ax = plt.subplots(2, 1, figsize=(8, 5), sharex=True)
        ax[0].plot(tu, cd)
        ax[0].set_ylabel("$C_D$")
        ax[0].axhline(1.34, color="k", ls="--", lw=0.8)
        ax[1].plot(tu, cl)
        ax[1].set_ylabel("$C_L$")
        ax[1].set_xlabel("$t U / D$")
        fig.suptitle(f"Cylinder Re = 100: St = {st:.4f}, mean $C_D$ = {cd_mean:.3f}")
        fig.tight_layout()
        fig.savefig(a.png, dpi=120)
        print(f"wrote {a.png}")


if __name__ == "__main__":
    main()
