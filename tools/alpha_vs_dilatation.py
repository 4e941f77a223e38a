#!/usr/bin/env python3
"""Where does the FV blending sit? Compare FV_alpha of a state file with the compression of the
flow: per element the minimum velocity divergence (most negative = strongest compression, as at
shocklets), for the blended elements (alpha > 0) against the others, and how many of the k most
compressive elements are blended (k = number of blended elements).

usage: alpha_vs_dilatation.py STATE.h5 [--width W]

The state must be a Gauss-Lobatto state (FLEXI layout, docs/formats.md) on a box of equal,
axis-aligned elements (hexdg's built-in box); W is the element width (default 2 pi / 8, the
64^3-DOF Taylor-Green box; pass 2*pi/16 for 128^3). Needs numpy and h5py (re-runs itself with
/usr/bin/python3 if the running Python lacks them).
"""
import math
import os
import sys

REEXEC_GUARD = "HEXDG_ALPHA_DIL_REEXEC"

try:
    import h5py
    import numpy as np
    from numpy.polynomial import legendre
except ImportError:
    from system_python import rerun_or_exit

    rerun_or_exit(REEXEC_GUARD, "alpha_vs_dilatation.py: needs numpy and h5py")


def lgl_derivative(n):
    """Gauss-Lobatto nodes of degree n and the differentiation matrix D[i][l] = l_l'(x_i)
    (barycentric weights; diagonal by the negative-sum rule)."""
    c = np.zeros(n + 1)
    c[n] = 1.0
    roots = np.real(legendre.legroots(legendre.legder(c)))  # some numpy versions return complex
    x = np.concatenate(([-1.0], np.sort(roots), [1.0]))
    bw = np.array([1.0 / np.prod([xi - xj for xj in x if xj != xi]) for xi in x])
    d = np.zeros((n + 1, n + 1))
    for i in range(n + 1):
        for l in range(n + 1):
            if i != l:
                d[i, l] = bw[l] / bw[i] / (x[i] - x[l])
    d[np.diag_indices(n + 1)] = -d.sum(axis=1)
    return x, d


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    width = 2.0 * math.pi / 8.0
    if "--width" in sys.argv:
        text = sys.argv[sys.argv.index("--width") + 1]
        width = float(eval(text, {"__builtins__": {}}, {"pi": math.pi}))  # e.g. 2*pi/16
        args = [a for a in args if a != sys.argv[sys.argv.index("--width") + 1]]
    if len(args) != 1:
        sys.exit(__doc__.strip().splitlines()[5])
    with h5py.File(args[0], "r") as f:
        if "FV_alpha" not in f:
            sys.exit(f"alpha_vs_dilatation.py: {args[0]} has no FV_alpha (no shock capturing)")
        u = f["DG_Solution"][...]  # [elem][k][j][i][var]
        alpha = f["FV_alpha"][...]
        t = float(f.attrs["Time"][0])
    n = u.shape[1] - 1
    _, d = lgl_derivative(n)
    vel = [u[..., 1 + c] / u[..., 0] for c in range(3)]
    div = (2.0 / width) * (np.einsum("il,ekjl->ekji", d, vel[0])
                           + np.einsum("jl,ekli->ekji", d, vel[1])
                           + np.einsum("kl,elji->ekji", d, vel[2]))
    min_div = div.reshape(div.shape[0], -1).min(axis=1)
    blended = alpha > 0.0
    nb = int(blended.sum())
    print(f"{args[0]}: t = {t:g}, N = {n}, {nb} of {len(alpha)} elements blended")
    if nb == 0 or nb == len(alpha):
        return
    top = np.argsort(min_div)[:nb]
    print(f"  min div u per element, median: blended {np.median(min_div[blended]):.3g}, "
          f"others {np.median(min_div[~blended]):.3g} (the flow's minimum {min_div.min():.3g})")
    print(f"  of the {nb} most compressive elements, {int(blended[top].sum())} are blended")


if __name__ == "__main__":
    main()
