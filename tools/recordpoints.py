#!/usr/bin/env python3
"""Record points of a hexdg (or FLEXI) run: time series and power spectra.

usage: recordpoints.py RP_FILES... [--var Density] [--points 0,3,7] [--group Line1]
                       [--png out.png] [--csv out.csv] [--nperseg N]

RP_FILES are <ProjectName>_RP_<time>.h5 files (RP_Data: samples x points x (1 + nVar), column 0
the time; attribute VarNames). Several files are joined in time: a file starts with the sample at
the previous output time, which ends the file before it, so repeated times are dropped. Points are
0-based indices of the run's numbering; --group takes the points of a group, line or plane of the
definition file named by the attribute RPDefFile (RP_Point, RP_Line, RP_Plane, Line1, Plane1, ...
for hexdg's shortcut keys; FLEXI's preparerecordpoints names for its files).

--png: the time series of --var at the points (top) and their power spectral density (bottom,
Welch: Hann windows of --nperseg samples, half overlap, mean removed; needs equidistant samples,
i.e. a constant time step: the series is resampled linearly onto its mean spacing otherwise).
--csv: time and the --var columns of the points. Printed for each point: the frequency of the
spectral peak, `peak <point> <f>`.

Needs numpy and h5py, matplotlib for --png; reruns itself with /usr/bin/python3 when the running
Python lacks them.
"""
import argparse
import os
import sys

try:
    import numpy as np
    import h5py
except ImportError:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from system_python import rerun_or_exit

    rerun_or_exit("HEXDG_RECORDPOINTS_RERUN", "recordpoints.py needs numpy and h5py")


def text(a):
    """An HDF5 string attribute (FLEXI's blank-padded Fortran strings) as str."""
    v = a[0] if hasattr(a, "__len__") and not isinstance(a, (bytes, str)) else a
    return (v.decode() if isinstance(v, bytes) else str(v)).strip()


def read_series(files):
    """Times t[n], data[n][points][nVar] and the variable names of the files joined in time."""
    ts, ds, names, deffile, base = [], [], None, None, "."
    for f in sorted(files, key=lambda p: float(h5py.File(p, "r").attrs["Time"][0])):
        with h5py.File(f, "r") as h:
            d = h["RP_Data"][()]
            names = [text([n]) for n in h.attrs["VarNames"]]
            deffile = text(h.attrs["RPDefFile"])
            base = os.path.dirname(os.path.abspath(f))
        if ts and d.shape[0] and d[0, 0, 0] <= ts[-1][-1]:
            d = d[d[:, 0, 0] > ts[-1][-1]]
        if d.shape[0]:
            ts.append(d[:, 0, 0])
            ds.append(d[:, :, 1:])
    if deffile and not os.path.isabs(deffile) and not os.path.exists(deffile):
        deffile = os.path.join(base, deffile)
    return np.concatenate(ts), np.concatenate(ds), names, deffile


def group_points(deffile, group):
    """0-based points of a group, line or plane of the definition file (FLEXI's IDs are 1-based)."""
    with h5py.File(deffile, "r") as h:
        if group not in h:
            sys.exit("%s has no group, line or plane '%s' (it has: %s)"
                     % (deffile, group, ", ".join(k for k in h if not k.endswith("_RP"))))
        return [int(i) - 1 for i in np.ravel(h[group][()])]


def welch(t, y, nperseg):
    """One-sided PSD of y(t) by Welch's method (Hann window, 50 % overlap): f, P."""
    dt = (t[-1] - t[0]) / (len(t) - 1)
    tu = t[0] + dt * np.arange(len(t))
    y = np.interp(tu, t, y)
    n = min(nperseg, len(y))
    w = np.hanning(n)
    step = max(n // 2, 1)
    segs = [y[s:s + n] for s in range(0, len(y) - n + 1, step)]
    P = np.zeros(n // 2 + 1)
    for s in segs:
        F = np.fft.rfft((s - s.mean()) * w)
        P += np.abs(F) ** 2
    P *= 2.0 * dt / (np.sum(w ** 2) * len(segs))
    P[0] /= 2.0
    if n % 2 == 0:
        P[-1] /= 2.0
    return np.fft.rfftfreq(n, dt), P


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--var", default="Density")
    ap.add_argument("--points", default=None, help="comma-separated 0-based point indices")
    ap.add_argument("--group", default=None)
    ap.add_argument("--png", default=None)
    ap.add_argument("--csv", default=None)
    ap.add_argument("--nperseg", type=int, default=256)
    a = ap.parse_args()
    plt = None
    if a.png:  # matplotlib before any work (a rerun under /usr/bin/python3 starts afresh)
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from system_python import pyplot

        plt = pyplot("HEXDG_RECORDPOINTS_RERUN", "recordpoints.py")
    t, data, names, deffile = read_series(a.files)
    if a.var not in names:
        sys.exit("--var %s: the files have %s" % (a.var, ", ".join(names)))
    v = names.index(a.var)
    if a.group:
        pts = group_points(deffile, a.group)
    elif a.points:
        pts = [int(p) for p in a.points.split(",")]
    else:
        pts = list(range(min(data.shape[1], 4)))
    bad = [p for p in pts if p < 0 or p >= data.shape[1]]
    if bad:
        sys.exit("--points %s: the files have points 0..%d" % (bad, data.shape[1] - 1))
    print("%d samples, t = %.6g .. %.6g, %d points, %s" % (len(t), t[0], t[-1], data.shape[1], a.var))
    spectra = []
    for p in pts:
        f, P = welch(t, data[:, p, v], a.nperseg)
        spectra.append((f, P))
        print("peak %d %.9g" % (p, f[1 + np.argmax(P[1:])] if len(P) > 1 else 0.0))
    if a.csv:
        cols = np.column_stack([t] + [data[:, p, v] for p in pts])
        np.savetxt(a.csv, cols, delimiter=",", header=",".join(
            ["time"] + ["%s_%d" % (a.var, p) for p in pts]), comments="")
        print("wrote %s" % a.csv)
    if a.png:
        fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 7))
        for p, (f, P) in zip(pts, spectra):
            ax1.plot(t, data[:, p, v], label="point %d" % p)
            ax2.loglog(f[1:], P[1:], label="point %d" % p)
        ax1.set_xlabel("t")
        ax1.set_ylabel(a.var)
        ax1.legend(fontsize=8)
        ax2.set_xlabel("frequency")
        ax2.set_ylabel("PSD of %s" % a.var)
        fig.tight_layout()
        fig.savefig(a.png, dpi=120)
        print("wrote %s" % a.png)


if __name__ == "__main__":
    main()
