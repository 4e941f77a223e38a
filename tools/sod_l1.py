#!/usr/bin/env python3
"""L1 error of the density of a 1-D Sod state file (hexdg's or FLEXI's) against the exact solution.

usage: sod_l1.py STATE.h5 MESH.h5

Sod's tube (left rho, u, p = 1, 0, 1; right 0.125, 0, 0.1; kappa 1.4; jump at x = 0.5) on a mesh
with one element across y and z whose xi direction is x (FLEXI's SOD_100_mesh.h5). DG elements
are integrated with the quadrature of their nodes (the state file's NodeType: Gauss or
Gauss-Lobatto), elements marked in FV_Elems (ElemData, VarNamesAdd) by their equidistant subcell
means. docs/regress.md uses it to compare hexdg's and FLEXI's states.
"""
import sys

import h5py
import numpy as np

G = 1.4
LEFT, RIGHT = (1.0, 0.0, 1.0), (0.125, 0.0, 0.1)


def wave_curve(p, rho, pk, c):
    """Toro 2009, eqs. (4.6)-(4.7): velocity jump across a shock or rarefaction to pressure p."""
    if p > pk:
        a, b = 2.0 / ((G + 1.0) * rho), (G - 1.0) / (G + 1.0) * pk
        return (p - pk) * np.sqrt(a / (p + b))
    return 2.0 * c / (G - 1.0) * ((p / pk) ** ((G - 1.0) / (2.0 * G)) - 1.0)


def exact_density(x, t):
    (rl, ul, pl), (rr, ur, pr) = LEFT, RIGHT
    cl, cr = np.sqrt(G * pl / rl), np.sqrt(G * pr / rr)
    p = 0.5 * (pl + pr)
    for _ in range(100):  # Newton on the star pressure, numerical derivative
        f = lambda q: wave_curve(q, rl, pl, cl) + wave_curve(q, rr, pr, cr) + ur - ul
        p -= f(p) / ((f(p + 1e-8) - f(p - 1e-8)) / 2e-8)
    u = 0.5 * (ul + ur) + 0.5 * (wave_curve(p, rr, pr, cr) - wave_curve(p, rl, pl, cl))
    rho_sl, c_sl = rl * (p / pl) ** (1.0 / G), cl * (p / pl) ** ((G - 1.0) / (2.0 * G))
    g1 = (G - 1.0) / (G + 1.0)
    rho_sr = rr * (p / pr + g1) / (g1 * p / pr + 1.0)
    shock = ur + cr * np.sqrt((G + 1.0) / (2.0 * G) * p / pr + (G - 1.0) / (2.0 * G))
    s = (np.asarray(x) - 0.5) / t
    fan = rl * (2.0 / (G + 1.0) + (G - 1.0) / ((G + 1.0) * cl) * (ul - s)) ** (2.0 / (G - 1.0))
    return np.select([s < ul - cl, s < u - c_sl, s < u, s < shock], [rl, fan, rho_sl, rho_sr], rr)


def lobatto(N):
    """Gauss-Lobatto nodes and weights on [-1, 1]: the ends and the roots of P_N'."""
    PN = np.polynomial.legendre.Legendre.basis(N)
    x = np.concatenate(([-1.0], np.sort(PN.deriv().roots().real), [1.0]))
    return x, 2.0 / (N * (N + 1) * PN(x) ** 2)


def node_type(state):
    v = state.attrs.get("NodeType", b"GAUSS")
    v = v[0] if np.ndim(v) else v
    return (v.decode() if isinstance(v, bytes) else str(v)).strip().upper()


def main():
    state, mesh = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
    t = float(state.attrs["Time"][0])
    U = state["DG_Solution"][:]
    N = U.shape[1] - 1
    xc = mesh["ElemBarycenters"][:, 0]
    dx = 1.0 / len(xc)
    names = [n.decode().strip() for n in state.attrs.get("VarNamesAdd", [])]
    fv = state["ElemData"][:, names.index("FV_Elems")] if "FV_Elems" in names else np.zeros(len(xc))
    lgl = node_type(state) == "GAUSS-LOBATTO"
    xg, wg = lobatto(N) if lgl else np.polynomial.legendre.leggauss(N + 1)
    h = 2.0 / (N + 1)
    xs, ws = -1.0 + h * (np.arange(N + 1) + 0.5), np.full(N + 1, h)
    err = 0.0
    for e in range(len(xc)):
        xi, wi = (xs, ws) if fv[e] else (xg, wg)
        err += np.sum(0.5 * dx * wi * np.abs(U[e, 0, 0, :, 0] - exact_density(xc[e] + 0.5 * dx * xi, t)))
    print(f"{sys.argv[1]}: t = {t:g}, N = {N} ({'Gauss-Lobatto' if lgl else 'Gauss'} nodes), "
          f"{int(fv.sum())} FV elements, L1(rho) = {err:.4e}")


if __name__ == "__main__":
    main()
