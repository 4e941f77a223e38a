#!/usr/bin/env python3
"""Blade loading: the isentropic Mach number along a wall BC from a time average or a state file.

usage: blade_loading.py FILE.h5 --bc BC_blade --p0 P0 [--mesh MESH.h5] [--kappa 1.4]
                        [--axial x] [--pitch y] [--csv OUT.csv] [--png OUT.png]

FILE.h5 is a TimeAvg file whose `Mean` holds `Pressure` (run with CalcTimeAverage = T and
VarNameAvg = Pressure, docs/time_averages.md) or a State file (the pressure from the conservative
variables with --kappa). The mesh is --mesh, else the file's MeshFile (as given, or next to
FILE.h5): a HOPR file (`hexdg mesh box ... -o` writes one for built-in boxes).

On every side of the BC named --bc the pressure is taken at the face points of the solution
(the state's N+1 GAUSS or GAUSS-LOBATTO nodes in the two tangential directions, the element's
polynomial evaluated on the face in the normal one) at positions interpolated from the mesh's
NodeCoords, and the isentropic Mach number

    Ma_is = sqrt(2/(kappa-1) ((p0/p)^((kappa-1)/kappa) - 1))

(isentropic expansion from the inflow total pressure p0; e.g. Anderson, Modern Compressible
Flow, eq. 3.30 solved for M) is computed; where p > p0 it is 0. The points are split into the
two sides of the blade in thin bands of the axial chord (leading edge: least --axial coordinate,
trailing edge: largest): in each band the points above the middle of its pitchwise extent form one
side, those below the other; the side with the higher mean Ma_is is the suction side. A wall without extent across the chord (a flat plate) is one side, `wall`.

Output: CSV (side, x, y, z, chord fraction (axial - axial_LE)/(axial_TE - axial_LE), p, Ma_is),
sorted by side and chord fraction; PNG of Ma_is against the chord fraction (needs matplotlib);
and one summary line per side on stdout. Docs: docs/tools.md.

Needs numpy and h5py; if the running Python lacks them, the script re-runs itself with
/usr/bin/python3.
"""
import argparse
import os
import sys

REEXEC_GUARD = "HEXDG_BLADE_LOADING_REEXEC"
PROG = "blade_loading.py"

try:
    import h5py
    import numpy as np
except ImportError:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from system_python import rerun_or_exit

    rerun_or_exit(REEXEC_GUARD, f"{PROG}: needs numpy and h5py (pip install numpy h5py)")

AXES = {"x": 0, "y": 1, "z": 2}
# HOPR's local sides of a hexahedron (1..6): reference direction (0 xi, 1 eta, 2 zeta), end (+-1)
HOPR_SIDES = {1: (2, -1.0), 2: (1, -1.0), 3: (0, 1.0), 4: (1, 1.0), 5: (0, -1.0), 6: (2, 1.0)}


def fail(message):
    sys.exit(f"{PROG}: {message}")


def as_text(value):
    """Attribute value -> text (FLEXI strings are blank-padded bytes, often 1-element arrays)."""
    if isinstance(value, np.ndarray):
        items = [as_text(v) for v in value.ravel()]
        return items[0] if len(items) == 1 else items
    if isinstance(value, bytes):
        return value.decode("ascii", errors="replace").rstrip(" \0")
    return str(value).rstrip(" \0")


def as_list(value):
    text = as_text(value)
    return [text] if isinstance(text, str) else list(text)


def solution_nodes(N, node_type):
    """The N+1 volume nodes of the DG basis on [-1, 1]."""
    if node_type == "GAUSS":
        return np.polynomial.legendre.leggauss(N + 1)[0]
    inner = np.polynomial.legendre.Legendre.basis(N).deriv().roots() if N > 1 else np.array([])
    return np.concatenate(([-1.0], np.sort(np.real(inner)), [1.0]))


def lagrange_matrix(x_from, x_to):
    """V[a, b] = l_b(x_to[a]), the Lagrange polynomials of the nodes x_from."""
    x_to = np.atleast_1d(np.asarray(x_to, dtype=float))
    V = np.ones((len(x_to), len(x_from)))
    for b, xb in enumerate(x_from):
        for m, xm in enumerate(x_from):
            if m != b:
                V[:, b] *= (x_to - xm) / (xb - xm)
    return V


def read_pressure(path, kappa):
    """(pressure (nElems, N+1, N+1, N+1) in [e, k, j, i], N, NodeType, MeshFile)."""
    if not os.path.exists(path):
        fail(f"{path}: no such file")
    try:
        f = h5py.File(path, "r")
    except OSError as err:
        fail(f"{path}: not an HDF5 file ({err})")
    with f:
        kind = as_text(f.attrs.get("File_Type", b""))
        for name in ("N", "NodeType"):
            if name not in f.attrs:
                fail(f"{path}: attribute {name} is missing (not a hexdg/FLEXI file?)")
        N = int(np.asarray(f.attrs["N"]).ravel()[0])
        node_type = as_text(f.attrs["NodeType"]).upper()
        mesh = as_text(f.attrs.get("MeshFile", b""))
        if kind == "TimeAvg":
            names = as_list(f.attrs.get("VarNames_Mean", np.array([], dtype="S1")))
            if "Mean" not in f or "Pressure" not in names:
                fail(f"{path}: the time average has no mean Pressure (has {names}); run with "
                     "CalcTimeAverage = T and VarNameAvg = Pressure")
            p = np.asarray(f["Mean"][..., names.index("Pressure")], dtype=float)
        elif kind == "State":
            u = np.asarray(f["DG_Solution"][...], dtype=float)
            m2 = np.sum(u[..., 1:4] ** 2, axis=-1)
            p = (kappa - 1.0) * (u[..., 4] - 0.5 * m2 / u[..., 0])
        else:
            fail(f"{path}: File_Type is '{kind or 'missing'}', expected 'TimeAvg' or 'State'")
    if node_type not in ("GAUSS", "GAUSS-LOBATTO"):
        fail(f"{path}: NodeType '{node_type}' is neither GAUSS nor GAUSS-LOBATTO")
    return p, N, node_type, mesh


def find_mesh(option, mesh_attr, path):
    candidates = [option] if option else [mesh_attr,
                                          os.path.join(os.path.dirname(path), mesh_attr)]
    for c in candidates:
        if c and os.path.isfile(c):
            return c
    fail(f"mesh {option or mesh_attr or '(none)'} not found; give the HOPR mesh with --mesh "
         "(for a built-in box: hexdg mesh box ... -o mesh.h5)")


def wall_points(mesh_path, bc_name, p, N, node_type):
    """Positions (n, 3) and pressures (n) at the solution's face points of every side of bc_name."""
    with h5py.File(mesh_path, "r") as f:
        for name in ("ElemInfo", "SideInfo", "NodeCoords", "BCNames"):
            if name not in f:
                fail(f"mesh {mesh_path}: dataset {name} is missing (not a HOPR mesh file?)")
        ngeo = int(np.asarray(f.attrs["Ngeo"]).ravel()[0])
        elem_info = np.asarray(f["ElemInfo"][...], dtype=np.int64)
        side_info = np.asarray(f["SideInfo"][...], dtype=np.int64)
        coords = np.asarray(f["NodeCoords"][...], dtype=float)
        bc_names = as_list(f["BCNames"][...])
    if bc_name not in bc_names:
        fail(f"mesh {mesh_path} has no BC '{bc_name}' (its BCs: {', '.join(bc_names)})")
    if elem_info.shape[0] != p.shape[0]:
        fail(f"mesh {mesh_path} has {elem_info.shape[0]} elements, the file {p.shape[0]}")
    bc = bc_names.index(bc_name) + 1  # SideInfo's BC index counts from 1
    ng, n = ngeo + 1, N + 1
    xs = solution_nodes(N, node_type)
    V_geo = lagrange_matrix(np.linspace(-1.0, 1.0, ng), xs)  # tangential geometry
    pts, prs = [], []
    for e in range(elem_info.shape[0]):
        first, last = elem_info[e, 2], elem_info[e, 3]
        if last - first != 6:
            fail(f"mesh {mesh_path}: element {e + 1} has {last - first} sides (mortars are not "
                 "supported)")
        for local in range(1, 7):
            if side_info[first + local - 1, 4] != bc:
                continue
            d, end = HOPR_SIDES[local]
            geo = coords[elem_info[e, 4]:elem_info[e, 5]].reshape(ng, ng, ng, 3)  # k, j, i
            l_geo = lagrange_matrix(np.linspace(-1.0, 1.0, ng), end)[0]
            l_sol = lagrange_matrix(xs, end)[0]
            axis = 2 - d  # array axis of the reference direction d in [k, j, i]
            face_geo = np.tensordot(l_geo, np.moveaxis(geo, axis, 0), axes=1)
            face_p = np.tensordot(l_sol, np.moveaxis(p[e], axis, 0), axes=1)
            face_x = np.einsum("ac,bd,cdx->abx", V_geo, V_geo, face_geo)
            pts.append(face_x.reshape(-1, 3))
            prs.append(face_p.reshape(-1))
    if not pts:
        fail(f"BC '{bc_name}' has no side in mesh {mesh_path}")
    return np.concatenate(pts), np.concatenate(prs)


def isentropic_mach(p, p0, kappa):
    """Ma_is from p/p0 (0 where p >= p0)."""
    ratio = np.maximum(p0 / p, 1.0) ** ((kappa - 1.0) / kappa)
    return np.sqrt(2.0 / (kappa - 1.0) * (ratio - 1.0))


def split_sides(x, axial, pitch, mach):
    """Side name per point and the chord fraction. Within each thin band of the axial chord the
    wall's two surfaces are the points above and below the middle of the band's pitchwise extent
    (a local camber line: a cambered blade's concave side can cross its LE-TE chord line)."""
    a, b = x[:, axial], x[:, pitch]
    le, te = np.argmin(a), np.argmax(a)
    chord = a[te] - a[le]
    if chord <= 0.0:
        fail("the wall has no extent along the axial direction; choose another --axial")
    frac = (a - a[le]) / chord
    da, db = a[te] - a[le], b[te] - b[le]
    dist = (da * (b - b[le]) - db * (a - a[le])) / np.hypot(da, db)
    if np.max(np.abs(dist)) <= 1e-9 * np.hypot(da, db):
        return np.array(["wall"] * len(a)), frac
    n_bands = int(np.clip(np.sqrt(len(a)) / 2, 10, 400))
    band = np.minimum((frac * n_bands).astype(int), n_bands - 1)
    lo, hi = np.full(n_bands, np.inf), np.full(n_bands, -np.inf)
    np.minimum.at(lo, band, b)
    np.maximum.at(hi, band, b)
    above = b > 0.5 * (lo + hi)[band]
    mean_above = mach[above].mean() if above.any() else -1.0
    mean_below = mach[~above].mean() if (~above).any() else -1.0
    suction_above = mean_above >= mean_below
    names = np.where(above == suction_above, "suction", "pressure")
    return names, frac


def write_csv(path, sides, x, frac, p, mach):
    order = np.lexsort((frac, sides))
    with open(path, "w") as out:
        out.write("side,x,y,z,chord_fraction,p,Ma_is\n")
        for i in order:
            out.write(f"{sides[i]},{x[i, 0]:.12e},{x[i, 1]:.12e},{x[i, 2]:.12e},{frac[i]:.12e},"
                      f"{p[i]:.12e},{mach[i]:.12e}\n")


def plot(plt, path, sides, frac, mach, title):
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, mark in (("suction", "o"), ("pressure", "s"), ("wall", "o")):
        sel = sides == name
        if sel.any():
            ax.plot(frac[sel], mach[sel], mark, ms=3, label=name)
    ax.set_xlabel("chord fraction (axial)")
    ax.set_ylabel("isentropic Mach number")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=150)


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--bc", required=True)
    ap.add_argument("--p0", type=float, required=True)
    ap.add_argument("--mesh")
    ap.add_argument("--kappa", type=float, default=1.4)
    ap.add_argument("--axial", choices=AXES, default="x")
    ap.add_argument("--pitch", choices=AXES, default="y")
    ap.add_argument("--csv")
    ap.add_argument("--png")
    args = ap.parse_args()
    plt = None
    if args.png:  # matplotlib before any work (a rerun under /usr/bin/python3 starts afresh)
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from system_python import pyplot

        plt = pyplot(REEXEC_GUARD, PROG)
    if args.axial == args.pitch:
        fail("--axial and --pitch must differ")
    if args.p0 <= 0.0:
        fail(f"--p0 {args.p0}: the total pressure must be positive")
    p, N, node_type, mesh_attr = read_pressure(args.file, args.kappa)
    mesh = find_mesh(args.mesh, mesh_attr, args.file)
    x, pw = wall_points(mesh, args.bc, p, N, node_type)
    if np.any(pw <= 0.0) or not np.all(np.isfinite(pw)):
        fail(f"{args.file}: non-positive or non-finite pressure on {args.bc}")
    mach = isentropic_mach(pw, args.p0, args.kappa)
    sides, frac = split_sides(x, AXES[args.axial], AXES[args.pitch], mach)
    for name in ("suction", "pressure", "wall"):
        sel = sides == name
        if sel.any():
            print(f"{name}: {int(sel.sum())} points, Ma_is min {mach[sel].min():.6f} max "
                  f"{mach[sel].max():.6f} mean {mach[sel].mean():.6f}")
    if args.csv:
        write_csv(args.csv, sides, x, frac, pw, mach)
    if args.png:
        plot(plt, args.png, sides, frac, mach, f"{os.path.basename(args.file)}: {args.bc}")


if __name__ == "__main__":
    main()
