#!/usr/bin/env python3
"""Merge time-average files (<ProjectName>_TimeAvg_<time>.h5, FLEXI's layout) into one.

Each file holds the averages over its own window (attribute AvgTime, the window's length,
ending at the file's Time). The average over the union of the windows is the AvgTime-weighted
mean of the files' Mean and MeanSquare datasets:  sum_i AvgTime_i X_i / sum_i AvgTime_i.
The result keeps the layout (and the attributes of the latest file) with AvgTime = sum of them.

usage: timeavg_merge.py out.h5 in1.h5 in2.h5 ...   (or a shell glob: run_TimeAvg_*.h5)
docs/time_averages.md describes the files.
"""
import argparse
import sys

import h5py
import numpy as np

SETS = ("Mean", "MeanSquare")


def as_text(v):
    """A Fortran string attribute (an array of one blank-padded string) as text."""
    v = np.atleast_1d(v)[0] if isinstance(v, np.ndarray) else v
    return v.decode().strip() if isinstance(v, bytes) else str(v).strip()


def names_of(f, name):
    return [as_text(n) for n in np.atleast_1d(f.attrs["VarNames_" + name])]


def check_compatible(first, f, path):
    """Same mesh, degree, node type and variables, else the average makes no sense."""
    for key in ("N", "MeshFile", "NodeType"):
        a, b = first.attrs[key], f.attrs[key]
        if np.atleast_1d(a).tolist() != np.atleast_1d(b).tolist():
            sys.exit(f"timeavg_merge: {path}: attribute {key} = {b} differs from the first file's {a}")
    for name in SETS:
        if (name in first) != (name in f) or (name in f and names_of(f, name) != names_of(first, name)):
            sys.exit(f"timeavg_merge: {path}: dataset {name} or its VarNames_{name} differ from the "
                     "first file's; merge only files of one run setup")
        if name in f and f[name].shape != first[name].shape:
            sys.exit(f"timeavg_merge: {path}: {name} has shape {f[name].shape}, the first file "
                     f"{first[name].shape}")


def merge(paths):
    """The merged datasets, the total AvgTime and the path of the latest file."""
    sums, total, latest, latest_time = {}, 0.0, None, -np.inf
    with h5py.File(paths[0], "r") as first:
        for path in paths:
            with h5py.File(path, "r") as f:
                if as_text(f.attrs["File_Type"]) != "TimeAvg":
                    sys.exit(f"timeavg_merge: {path} is not a TimeAvg file (File_Type)")
                check_compatible(first, f, path)
                w = float(np.atleast_1d(f.attrs["AvgTime"])[0])
                for name in SETS:
                    if name in f:
                        sums[name] = sums.get(name, 0.0) + w * f[name][()]
                total += w
                t = float(np.atleast_1d(f.attrs["Time"])[0])
                if t > latest_time:
                    latest, latest_time = path, t
    if total <= 0.0:
        sys.exit("timeavg_merge: the files' AvgTime add up to 0")
    return {k: v / total for k, v in sums.items()}, total, latest


def write(out, merged, total, latest):
    with h5py.File(latest, "r") as src, h5py.File(out, "w") as dst:
        for key, val in src.attrs.items():
            dst.attrs[key] = val
        for name in src:
            if name not in merged:
                src.copy(name, dst)
        for name, data in merged.items():
            dst.create_dataset(name, data=data)
        dst.attrs["AvgTime"] = np.array([total])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("inputs", nargs="+")
    a = ap.parse_args()
    if a.out in a.inputs:
        sys.exit("timeavg_merge: the output must not be one of the inputs")
    merged, total, latest = merge(a.inputs)
    write(a.out, merged, total, latest)
    print(f"timeavg_merge: {len(a.inputs)} files, AvgTime {total:.9g}, written to {a.out}")


if __name__ == "__main__":
    main()
