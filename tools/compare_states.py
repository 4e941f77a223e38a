#!/usr/bin/env python3
"""Compare the DG_Solution of two or more hexdg/FLEXI state files.

usage: compare_states.py ref.h5 other.h5 [more.h5 ...] [--rtol 1e-12]

For each file after the first it prints max|U - U_ref| / max|U_ref| (per variable, the largest
over the variables) and the time attributes; exits 1 if any difference exceeds rtol, if the shapes
differ, or if the times differ by more than rtol relative.
"""
import argparse
import sys

import h5py
import numpy as np


def read(path):
    with h5py.File(path, "r") as f:
        return np.asarray(f["DG_Solution"][...]), float(np.asarray(f.attrs["Time"]).ravel()[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--rtol", type=float, default=1e-12)
    args = ap.parse_args()
    if len(args.files) < 2:
        ap.error("give at least two state files")
    ref, t_ref = read(args.files[0])
    scale = np.maximum(np.abs(ref).reshape(-1, ref.shape[-1]).max(axis=0), 1e-300)
    ok = True
    for path in args.files[1:]:
        u, t = read(path)
        if u.shape != ref.shape:
            print(f"FAIL {path}: shape {u.shape} differs from {args.files[0]} {ref.shape}")
            ok = False
            continue
        diff = np.abs(u - ref).reshape(-1, ref.shape[-1]).max(axis=0) / scale
        rel = float(diff.max())
        dt = abs(t - t_ref) / max(abs(t_ref), 1e-300)
        good = rel <= args.rtol and dt <= args.rtol
        ok = ok and good
        print(f"{'ok  ' if good else 'FAIL'} {path}: max relative difference {rel:.3e} "
              f"(per variable {' '.join(f'{d:.1e}' for d in diff)}), time {t:.15g} vs {t_ref:.15g}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
