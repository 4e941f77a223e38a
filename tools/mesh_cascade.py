#!/usr/bin/env python3
"""NASA Rotor 37 mid-span linear cascade: curved all-hexahedral gmsh mesh of one blade pitch.

usage: mesh_cascade.py --level L [--ngeo 2..4] [--span-elems n] [--scale S] [--ascii]
                       [--csv FILE] [--plot PNG] [--hexdg PATH] -o rotor37_L.msh
       mesh_cascade.py --check-gmsh      (exit 0 if gmsh's Python API can be imported, else 3)

Geometry: surface 7 of 13 of NASA TP-1337 (about mid-span), unwrapped onto (z, r*theta)
(../shared/data/turbomachinery/rotor37/rotor37_surface7_midspan_unwrapped.csv, cm). The linear
cascade lies in the plane x = z (axial), y = r*theta (pitchwise); z of the mesh is the span.
Pitch = 2 pi r / 36 at r = 21.84 cm = 3.8118 cm; span = 5 % of the chord.

Topology (2-D, then extruded in the span): an O-grid ring around the blade (geometric wall-normal
clustering from the first-cell height of the level), four blocks between the ring and the
passage boundaries (LE, suction side, TE, pressure side), an H-block upstream (inlet plane
1.25 chords upstream of the leading edge, periodic lines along the inflow angle) and one
downstream (outlet plane 1.75 chords downstream of the trailing edge, along the exit metal
angle). The lower and upper passage boundaries are the camber line shifted by -/+ pitch/2,
periodic by a translation of one pitch in y; the span faces are periodic by a translation of the
span in z. Transfinite + recombine: hexahedra only. Every node of the O-grid ring lies on the
offset map blade(s) + d n(s) (n: normals smoothed over 10 % of the ring thickness): a radial line
keeps the s of its outer node (gmsh's arc-length spacing on the offset curve, shared with the
passage blocks), its layers the level's geometric distances d; high-order nodes blend from equal
s at the wall to equal arc length on the offset curve. Outside the ring, the high-order nodes of
the z = 0 edges on model curves are spaced by arc length, face and volume nodes come from Coons
patches of the element edges, swept exactly in the span. All elements have positive scaled
Jacobians at levels 0 and 1 and NGeo 1..4 (docs/cases/rotor37.md); if one is not positive, the
tool writes the file and exits with status 1. With --hexdg it also evaluates the scaled Jacobian
on the HOPR file that hexdg writes (needs h5py).
MC_VERBOSE=1 prints gmsh's log and the minimum scaled Jacobian per block.

Boundaries (physical surfaces): BC_inflow, BC_outflow, BC_blade, BC_periodic_y-,
BC_periodic_y+, BC_span-, BC_span+ (periodic pairs y-/y+ and span-/span+ carry $Periodic links;
hexdg ignores their physical names). Volume: fluid.

Prints the geometry numbers (chord, stagger, metal angles, inflow angle), element count, DOF at
N = 5, first-cell height (designed and measured on the mesh) with the y+ estimate, the minimum
scaled Jacobian of the high-order elements (gmsh's minSJ), and the periodic node links.

gmsh: the `gmsh` Python package (PyPI; tools/install_gmsh.sh puts it into .oracle/venv). When the
running Python cannot import it, the script looks into <repo>/.oracle/venv. --plot needs
matplotlib. Details: docs/cases/rotor37.md.
"""
import argparse
import glob
import math
import os
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from system_python import rerun_or_exit

    rerun_or_exit("HEXDG_MESH_CASCADE_REEXEC", "mesh_cascade.py: needs numpy (pip install numpy)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CSV_DEFAULT = os.path.join(
    ROOT, "..", "shared", "data", "turbomachinery", "rotor37",
    "rotor37_surface7_midspan_unwrapped.csv")
RADIUS_CM = 21.84
N_BLADES = 36
RE_CHORD = 972550.0
INCIDENCE_DEG = 10.1  # GALAEXI paper (Kurz/Kempf et al.), section 6: to the camber line
SPAN_OVER_CHORD = 0.05
UPSTREAM_CHORDS = 1.25  # axial distance LE -> inlet plane
DOWNSTREAM_CHORDS = 1.75  # axial distance TE -> outlet plane
RING_OVER_CHORD = 0.04  # O-grid ring thickness
LE_SPLIT, TE_SPLIT = 0.04, 0.96  # axial chord fractions where the LE/TE arcs end
N_LGL = 5  # the case's polynomial degree (for DOF counts and y+ per DOF)

# cells per block: le/te arcs, suction/pressure sides, ring (wall-normal), connectors ring ->
# passage boundary, inlet and outlet H-blocks, span; h1_plus: element wall height in wall units
LEVELS = {
    0: dict(le=4, s=6, te=4, p=6, ring=2, conn=2, inlet=2, outlet=2, span=2, h1_plus=None),
    1: dict(le=14, s=50, te=10, p=50, ring=14, conn=8, inlet=10, outlet=14, span=10, h1_plus=10.0),
    2: dict(le=20, s=76, te=14, p=76, ring=20, conn=11, inlet=14, outlet=20, span=16,
            h1_plus=4.0),
}


def import_gmsh():
    """gmsh from the running Python, else from <repo>/.oracle/venv (appended: numpy stays ours)."""
    try:
        import gmsh
        return gmsh
    except ImportError:
        pass
    for site in sorted(glob.glob(os.path.join(ROOT, ".oracle", "venv", "lib", "python3*",
                                              "site-packages"))):
        sys.path.append(site)
        try:
            import gmsh
            return gmsh
        except (ImportError, OSError):
            sys.path.remove(site)
    return None


# ------------------------------------------------------------------------------ blade geometry
def read_contour(path):
    """Closed contour (x = z, y = r*theta) in cm without the repeated LE/TE points."""
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or line.startswith("side"):
                continue
            c = line.strip().split(",")
            if len(c) == 6:
                rows.append((int(c[0]), float(c[2]), float(c[5])))
    if not rows:
        sys.exit(f"mesh_cascade: no contour rows in {path}")
    side1 = np.array([(x, y) for s, x, y in rows if s == 1])
    side2 = np.array([(x, y) for s, x, y in rows if s == 2])
    # side 1 LE -> TE, side 2 TE -> LE; both share the end points
    return np.vstack([side1, side2[1:-1]]), len(side1) - 1


class PeriodicSpline:
    """Periodic cubic spline through closed-contour points, parametrized by chord length."""

    def __init__(self, pts):
        d = np.linalg.norm(np.diff(np.vstack([pts, pts[:1]]), axis=0), axis=1)
        self.t = np.concatenate([[0.0], np.cumsum(d)])
        self.L = self.t[-1]
        self.pts = pts
        n = len(pts)
        h = d
        A = np.zeros((n, n))
        rhs = np.zeros((n, 2))
        for i in range(n):
            hm, hp = h[i - 1], h[i]
            A[i, i - 1] += hm
            A[i, i] += 2 * (hm + hp)
            A[i, (i + 1) % n] += hp
            rhs[i] = 6 * ((pts[(i + 1) % n] - pts[i]) / hp - (pts[i] - pts[i - 1]) / hm)
        self.M = np.linalg.solve(A, rhs)  # second derivatives at the points
        self.h = h

    def __call__(self, s, der=0):
        s = np.mod(np.atleast_1d(s), self.L)
        i = np.clip(np.searchsorted(self.t, s, side="right") - 1, 0, len(self.pts) - 1)
        n = len(self.pts)
        h = self.h[i][:, None]
        a = (self.t[i + 1][:, None] - s[:, None]) / h
        b = 1 - a
        p0, p1 = self.pts[i], self.pts[(i + 1) % n]
        m0, m1 = self.M[i], self.M[(i + 1) % n]
        if der == 0:
            return a * p0 + b * p1 + ((a**3 - a) * m0 + (b**3 - b) * m1) * h**2 / 6
        return (p1 - p0) / h + (-(3 * a**2 - 1) * m0 + (3 * b**2 - 1) * m1) * h / 6

    def smooth_normals(self, sigma, m=8192):
        """Outward normals smoothed by a periodic Gaussian of width sigma (arc length): the offset
        map X(s, d) = X(s) + d n(s) of the O-grid must not fold where the data's LE/TE rounding
        meets the sides (radius of curvature below the ring thickness)."""
        self.s_grid = np.arange(m) * self.L / m
        n = self.sign * self.normal(self.s_grid)
        k = np.minimum(self.s_grid, self.L - self.s_grid)
        ker = np.exp(-0.5 * (k / sigma) ** 2)
        ns = np.real(np.fft.ifft(np.fft.fft(n, axis=0) * np.fft.fft(ker / ker.sum())[:, None],
                                 axis=0))
        self.n_grid = ns / np.linalg.norm(ns, axis=1)[:, None]

    def offset_normal(self, s):
        s = np.mod(np.atleast_1d(s), self.L)
        g = np.concatenate([self.s_grid, [self.L]])
        n = np.vstack([self.n_grid, self.n_grid[:1]])
        v = np.column_stack([np.interp(s, g, n[:, 0]), np.interp(s, g, n[:, 1])])
        return v / np.linalg.norm(v, axis=1)[:, None]

    def normal(self, s):
        """Outward unit normal (the contour runs clockwise: LE -> suction side -> TE)."""
        d = self(s, 1)
        n = np.stack([-d[:, 1], d[:, 0]], axis=1)
        return n / np.linalg.norm(n, axis=1)[:, None]


def blade_geometry(path):
    pts, n_side1 = read_contour(path)
    spl = PeriodicSpline(pts)
    s_le, s_te = 0.0, spl.t[n_side1]
    le, te = pts[0], pts[n_side1]
    chord = float(np.linalg.norm(te - le))
    stagger = math.degrees(math.atan2(te[1] - le[1], te[0] - le[0]))
    # outward normal must point away from the blade centre: flip the sign convention if needed
    centre = pts.mean(axis=0)
    s_mid = 0.5 * s_te
    if np.dot(spl.normal(s_mid)[0], spl(s_mid)[0] - centre) < 0:
        spl.sign = -1.0
    else:
        spl.sign = 1.0
    # camber line: midpoints of the two sides at the same axial position
    x = np.linspace(le[0], te[0], 201)[1:-1]
    side1, side2 = pts[: n_side1 + 1], np.vstack([pts[n_side1:], pts[:1]])[::-1]
    y1 = np.interp(x, side1[:, 0], side1[:, 1])
    y2 = np.interp(x, side2[:, 0], side2[:, 1])
    camber = np.column_stack([np.concatenate([[le[0]], x, [te[0]]]),
                              np.concatenate([[le[1]], 0.5 * (y1 + y2), [te[1]]])])
    k = 10  # metal angles from the camber over its first/last 5 % of the axial chord
    kappa_le = math.degrees(math.atan2(camber[k, 1] - camber[0, 1], camber[k, 0] - camber[0, 0]))
    kappa_te = math.degrees(math.atan2(camber[-1, 1] - camber[-1 - k, 1],
                                       camber[-1, 0] - camber[-1 - k, 0]))
    thickness = float(np.max(np.abs(y1 - y2)))
    spl.smooth_normals(0.1 * RING_OVER_CHORD * chord)
    return dict(pts=pts, spl=spl, s_le=s_le, s_te=s_te, le=le, te=te, chord=chord,
                stagger=stagger, camber=camber, kappa_le=kappa_le, kappa_te=kappa_te,
                thickness=thickness, n_side1=n_side1)


def contour_param_at_x(g, xfrac, side):
    """Contour parameter of the point of side 1 (suction) or 2 (pressure) at an axial fraction."""
    spl = g["spl"]
    x_target = g["le"][0] + xfrac * (g["te"][0] - g["le"][0])
    if side == 1:
        s = np.linspace(g["s_le"], g["s_te"], 4001)
    else:
        s = np.linspace(g["s_te"], spl.L, 4001)
    x = spl(s)[:, 0]
    i = int(np.argmin(np.abs(x - x_target)))
    return float(s[i])


def first_cell_height(h1_plus, chord):
    """Wall height of h1_plus wall units: Cf = 0.0576 Re^-0.2 (Schlichting, turbulent flat plate)
    at Re = Re_chord, u_tau/U = sqrt(Cf/2), l+ = chord / (Re u_tau/U)."""
    cf = 0.0576 * RE_CHORD**-0.2
    l_plus = chord / (RE_CHORD * math.sqrt(cf / 2))
    return h1_plus * l_plus, l_plus


def growth_ratio(h1, total, n):
    """Ratio r with h1 (r^n - 1)/(r - 1) = total (bisection)."""
    if n * h1 >= total:
        return 1.0
    lo, hi = 1.0 + 1e-12, 10.0
    for _ in range(200):
        r = 0.5 * (lo + hi)
        if h1 * (r**n - 1) / (r - 1) > total:
            hi = r
        else:
            lo = r
    return 0.5 * (lo + hi)


# -------------------------------------------------------------------------------- gmsh model
class Builder:
    def __init__(self, gmsh, scale):
        self.gmsh, self.geo, self.scale = gmsh, gmsh.model.geo, scale

    def point(self, p):
        return self.geo.addPoint(p[0] * self.scale, p[1] * self.scale, 0.0)

    def line(self, a, b):
        return self.geo.addLine(a, b)

    def spline(self, a, pts, b):
        """Spline from point tag a through the interior pts to point tag b."""
        tags = [a] + [self.point(p) for p in pts] + [b]
        return self.geo.addSpline(tags)

    def bspline(self, a, pts, b):
        """B-spline from point tag a to point tag b with the control points pts: no overshoot
        (convex hull), where an interpolating spline wiggled at the kink of the passage line."""
        tags = [a] + [self.point(p) for p in pts] + [b]
        return self.geo.addBSpline(tags)


def contour_samples(g, s0, s1, n=40, offset=0.0):
    """Interior sample points of the contour (or its offset curve) between parameters s0 < s1."""
    s = np.linspace(s0, s1, n + 2)[1:-1]
    return g["spl"](s) + offset * g["spl"].offset_normal(s)


def build_model(gmsh, g, lv, args):
    spl = g["spl"]
    c = g["chord"]
    pitch = 2 * math.pi * RADIUS_CM / N_BLADES
    span = SPAN_OVER_CHORD * c
    ring = RING_OVER_CHORD * c
    B = Builder(gmsh, args.scale)
    gmsh.model.add("rotor37_cascade")

    # blade split points: a (pressure side near LE), b (suction near LE), cc (suction near TE),
    # d (pressure near TE); contour parameter increases LE -> suction -> TE -> pressure -> LE
    s_b = contour_param_at_x(g, LE_SPLIT, 1)
    s_c = contour_param_at_x(g, TE_SPLIT, 1)
    s_d = contour_param_at_x(g, TE_SPLIT, 2)
    s_a = contour_param_at_x(g, LE_SPLIT, 2) - spl.L  # negative: before the LE point
    split = [s_a, s_b, s_c, s_d]
    wall = [B.point(spl(s)[0]) for s in split]
    off = [B.point(spl(s)[0] + ring * spl.offset_normal(s)[0]) for s in split]
    arcs = [(s_a, s_b), (s_b, s_c), (s_c, s_d), (s_d, s_a + spl.L)]
    blade_c = [B.spline(wall[i], contour_samples(g, *arcs[i]), wall[(i + 1) % 4]) for i in range(4)]
    ring_c = [B.spline(off[i], contour_samples(g, *arcs[i], n=200, offset=ring), off[(i + 1) % 4])
              for i in range(4)]
    radial = [B.line(wall[i], off[i]) for i in range(4)]

    # passage: camber line -/+ pitch/2, extended upstream along the inflow angle and downstream
    # along the exit metal angle
    beta_in = g["kappa_le"] + INCIDENCE_DEG
    ext = 0.15 * c  # axial distance of the block corners p1/p2 from LE/TE
    cam = g["camber"]
    p1 = np.array([cam[0, 0] - ext, cam[0, 1] - ext * math.tan(math.radians(beta_in))])
    p2 = np.array([cam[-1, 0] + ext, cam[-1, 1] + ext * math.tan(math.radians(g["kappa_te"]))])
    x_in = g["le"][0] - UPSTREAM_CHORDS * c
    x_out = g["te"][0] + DOWNSTREAM_CHORDS * c
    p0 = p1 + (x_in - p1[0]) * np.array([1.0, math.tan(math.radians(beta_in))])
    p3 = p2 + (x_out - p2[0]) * np.array([1.0, math.tan(math.radians(g["kappa_te"]))])
    mid = cam[5:-5:8]  # camber samples between LE and TE for the periodic spline

    def periodic_chain(dy):
        o = np.array([0.0, dy])
        P = [B.point(p + o) for p in (p0, p1, p2, p3)]
        return P, [B.line(P[0], P[1]), B.bspline(P[1], mid + o, P[2]), B.line(P[2], P[3])]

    P, low = periodic_chain(-0.5 * pitch)
    Q, up = periodic_chain(+0.5 * pitch)
    inlet = B.line(P[0], Q[0])
    cut_le = B.line(P[1], Q[1])
    cut_te = B.line(P[2], Q[2])
    outlet = B.line(P[3], Q[3])
    conn = [B.line(P[1], off[0]), B.line(Q[1], off[1]), B.line(Q[2], off[2]),
            B.line(P[2], off[3])]

    geo = B.geo
    surfaces = {}

    def quad(name, curves):
        loop = geo.addCurveLoop(curves)
        surfaces[name] = geo.addPlaneSurface([loop])

    # curve loops with signed tags (orientation follows the point order above)
    for i in range(4):
        quad(f"ring{i}", [blade_c[i], radial[(i + 1) % 4], -ring_c[i], -radial[i]])
    quad("le", [cut_le, conn[1], -ring_c[0], -conn[0]])
    quad("suction", [up[1], conn[2], -ring_c[1], -conn[1]])
    quad("te", [-cut_te, conn[3], -ring_c[2], -conn[2]])
    quad("pressure", [-low[1], conn[0], -ring_c[3], -conn[3]])
    quad("inlet", [low[0], cut_le, -up[0], -inlet])
    quad("outlet", [low[2], outlet, -up[2], -cut_te])
    geo.synchronize()

    # transfinite distributions
    tfset = {}

    def tf(curve, n, kind="Progression", coef=1.0):
        tfset[curve] = (n, kind, coef)
    n_tan = [lv["le"], lv["s"], lv["te"], lv["p"]]
    bump = 0.25  # cluster the sides' cells towards LE and TE
    for i in range(4):
        kind, coef = ("Bump", bump) if i in (1, 3) else ("Progression", 1.0)
        tf(blade_c[i], n_tan[i] + 1, kind, coef)
        tf(ring_c[i], n_tan[i] + 1, kind, coef)
    h1 = lv["h1"]
    r_ring = growth_ratio(h1, ring, lv["ring"])
    for r in radial:
        tf(r, lv["ring"] + 1, "Progression", r_ring)
    last_ring_cell = h1 * r_ring ** (lv["ring"] - 1)
    for k, cn in enumerate(conn):
        length = np.linalg.norm(np.array(gmsh.model.getValue(0, [P[1], Q[1], Q[2], P[2]][k], []))[:2]
                                - np.array(gmsh.model.getValue(0, off[k], []))[:2]) / args.scale
        r_conn = growth_ratio(min(last_ring_cell * 1.2, length / lv["conn"]), length, lv["conn"])
        tf(cn, lv["conn"] + 1, "Progression", -r_conn)  # negative: fine end at the ring
    tf(cut_le, lv["le"] + 1)
    tf(cut_te, lv["te"] + 1)
    tf(inlet, lv["le"] + 1)
    tf(outlet, lv["te"] + 1)
    for chain in (low, up):
        tf(chain[0], lv["inlet"] + 1, "Progression", 1.0 / 1.08)  # finer towards the blade
        tf(chain[1], lv["s"] + 1, "Bump", bump)
        tf(chain[2], lv["outlet"] + 1, "Progression", 1.06)

    # sweep the geometry in the span (no extruded mesh: gmsh cannot make two extruded lateral
    # surfaces periodic); the volumes are meshed as transfinite volumes
    tops, vols = [], []
    source_curves = {t for _, t in gmsh.model.getEntities(1)}
    for name, s in surfaces.items():
        out = geo.extrude([(2, s)], 0, 0, span * args.scale)
        tops.append(out[0][1])
        vols.append(out[1][1])
    geo.synchronize()
    c_len = c * args.scale
    z_of = lambda pt: gmsh.model.getValue(0, pt, [])[2]  # noqa: E731
    lateral = {}
    for _, s in gmsh.model.getEntities(2):
        if s in surfaces.values() or s in tops:
            continue
        curves = [abs(c) for _, c in gmsh.model.getBoundary([(2, s)], oriented=False)]
        bottom = [c for c in curves if c in source_curves][0]
        lateral[bottom] = s
        for c in curves:
            ends = [t for _, t in gmsh.model.getBoundary([(1, c)], oriented=False)]
            if abs(z_of(ends[0]) - z_of(ends[1])) > 0.5 * span * args.scale:
                tfset[c] = (lv["span"] + 1, "Progression", 1.0)
            elif c != bottom:  # the top copy: same distribution, direction as its source's
                n, kind, coef = tfset[bottom]
                start_top, start_bottom = [
                    gmsh.model.getValue(1, cv, [gmsh.model.getParametrizationBounds(1, cv)[0][0]])[:2]
                    for cv in (c, bottom)]
                same = np.allclose(start_top, start_bottom, atol=1e-9 * c_len)
                tfset[c] = (n, kind, coef if same or kind != "Progression" else -coef)
    for c, (n, kind, coef) in tfset.items():
        gmsh.model.mesh.setTransfiniteCurve(c, n, kind, coef)
    for _, s in gmsh.model.getEntities(2):
        gmsh.model.mesh.setTransfiniteSurface(s)
        gmsh.model.mesh.setRecombine(2, s)
    for v in vols:
        gmsh.model.mesh.setTransfiniteVolume(v)
    bottoms = list(surfaces.values())
    groups = [("BC_inflow", [lateral[inlet]]), ("BC_outflow", [lateral[outlet]]),
              ("BC_blade", [lateral[c] for c in blade_c]),
              ("BC_periodic_y-", [lateral[c] for c in low]),
              ("BC_periodic_y+", [lateral[c] for c in up]),
              ("BC_span-", bottoms), ("BC_span+", tops)]
    for tag, (name, ents) in enumerate(groups, start=1):
        gmsh.model.addPhysicalGroup(2, ents, tag)
        gmsh.model.setPhysicalName(2, tag, name)
    gmsh.model.addPhysicalGroup(3, vols, 100)
    gmsh.model.setPhysicalName(3, 100, "fluid")
    return dict(pitch=pitch, span=span, ring=ring, r_ring=r_ring, beta_in=beta_in,
                blade_curves=blade_c, ring_curves=ring_c + radial,
                ring_surfaces=[surfaces[f"ring{i}"] for i in range(4)],
                ring_volumes=vols[:4],
                bottoms=bottoms, x_in=x_in, x_out=x_out, slaves=tops + [lateral[c] for c in up],
                periodic=[([lateral[c] for c in up], [lateral[c] for c in low], (0, pitch, 0)),
                          (tops, bottoms, (0, 0, span))])


def periodic_pairs(gmsh, info, scale):
    """Periodic node links: the nodes (all orders, boundary included) of every slave surface
    matched by position to those of its master moved by the translation. gmsh's own periodic
    meshing cannot link two swept lateral surfaces of transfinite volumes, and its link after
    meshing assumes the same node order on both sides, which transfinite surfaces do not have."""
    links, worst = [], 0.0
    for slaves, masters, d in info["periodic"]:
        shift = np.array(d) * scale
        for s, m in zip(slaves, masters):
            ts, xs, _ = gmsh.model.mesh.getNodes(2, s, includeBoundary=True)
            tm, xm, _ = gmsh.model.mesh.getNodes(2, m, includeBoundary=True)
            xs, xm = xs.reshape(-1, 3) - shift, xm.reshape(-1, 3)
            size = np.ptp(xm, axis=0).max()
            cell = 1e-6 * size  # positions agree to ~1e-9 of the size; nodes are >> 1e-6 apart
            bins = {}
            for i, key in enumerate(map(tuple, np.floor(xm / cell).astype(np.int64))):
                bins.setdefault(key, []).append(i)
            order_s, order_m, dist = [], [], 0.0
            for i, key in enumerate(np.floor(xs / cell).astype(np.int64)):
                near = [j for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in (-1, 0, 1)
                        for j in bins.get((key[0] + dx, key[1] + dy, key[2] + dz), ())]
                if not near:
                    sys.exit(f"mesh_cascade: node {ts[i]} of surface {s} has no partner on "
                             f"surface {m} after the translation {d}")
                j = min(near, key=lambda j: np.abs(xs[i] - xm[j]).max())
                order_s.append(i)
                order_m.append(j)
                dist = max(dist, np.abs(xs[i] - xm[j]).max())
            if len(ts) != len(tm) or len(set(order_m)) != len(tm):
                sys.exit(f"mesh_cascade: surfaces {s} and {m} do not match one to one")
            worst = max(worst, dist / np.ptp(xm, axis=0).max())
            # the two transfinite meshes agree to ~1e-9 of their size; make them exact copies
            for t, x in zip(ts[order_s], xm[order_m] + shift):
                gmsh.model.mesh.setNode(int(t), list(x), [])
            links.append((s, m, shift, ts[order_s].astype(np.int64), tm[order_m].astype(np.int64)))
    print(f"mesh: periodic node positions agreed to {worst:.2e} of the surface size; slave "
          f"nodes set to master + translation")
    return links


def append_periodic(path, links, binary):
    """The $Periodic section of MSH 4.1 (one surface link per slave, translation as affine)."""
    import struct
    with open(path, "ab") as f:
        f.write(b"$Periodic\n")
        if binary:
            f.write(struct.pack("=Q", len(links)))
        else:
            f.write(f"{len(links)}\n".encode())
        for s, m, shift, ts, tm in links:
            affine = [1, 0, 0, shift[0], 0, 1, 0, shift[1], 0, 0, 1, shift[2], 0, 0, 0, 1]
            pairs = np.column_stack([ts, tm])
            if binary:
                f.write(struct.pack("=iiiQ", 2, s, m, 16) + struct.pack("=16d", *affine))
                f.write(struct.pack("=Q", len(pairs)) + pairs.astype("<u8").tobytes())
            else:
                f.write(f"2 {s} {m}\n16 {' '.join(repr(float(a)) for a in affine)}\n"
                        f"{len(pairs)}\n".encode())
                f.write("".join(f"{a} {b}\n" for a, b in pairs).encode())
        f.write(b"$EndPeriodic\n")


def project_to_blade(spl, pts, d_max):
    """Coordinates (s, d) of 2-D points in the offset map X(s) + d n(s), 0 <= d <= d_max: from
    the nearest wall sample (the root's basin: n(s) is the smoothed normal), Newton on
    n(s) x (P - X(s)) = 0."""
    s_grid = spl.s_grid
    x_grid = spl(s_grid)
    s = np.empty(len(pts))
    for i in range(0, len(pts), 1000):
        r = pts[i:i + 1000, None, :] - x_grid[None, :, :]
        s[i:i + 1000] = s_grid[np.argmin((r**2).sum(axis=2), axis=1)]  # nearest wall point

    def f(t):
        n, r = spl.offset_normal(t), pts - spl(t)
        return n[:, 0] * r[:, 1] - n[:, 1] * r[:, 0]
    eps = 1e-6 * spl.L
    for _ in range(12):
        s = np.mod(s - f(s) * 2 * eps / (f(s + eps) - f(s - eps)), spl.L)
    d = ((pts - spl(s)) * spl.offset_normal(s)).sum(axis=1)
    return s, d


def node_xyz(gmsh):
    tags, coords, _ = gmsh.model.mesh.getNodes()
    return dict(zip(tags.astype(np.int64).tolist(), np.asarray(coords).reshape(-1, 3)))


def match_points(ref, pts, tol, what):
    """Index into ref of the point within tol of every point of pts (binning; exits if none)."""
    dim = ref.shape[1]
    shifts = np.array(np.meshgrid(*[(-1, 0, 1)] * dim)).reshape(dim, -1).T
    bins = {}
    for i, key in enumerate(map(tuple, np.floor(ref / tol).astype(np.int64))):
        bins.setdefault(key, []).append(i)
    out = np.empty(len(pts), dtype=np.int64)
    for i, key in enumerate(np.floor(pts / tol).astype(np.int64)):
        near = [j for sh in shifts for j in bins.get(tuple(key + sh), ())]
        if not near:
            sys.exit(f"mesh_cascade: {what} has no partner")
        out[i] = min(near, key=lambda j: np.abs(pts[i] - ref[j]).max())
    return out


def place_ring(gmsh, info, spl, scale, lv):
    """Every first-order node of the O-grid ring on the offset map X(s, d) = blade(s) + d n(s)
    (n: smoothed normals). A radial line of the ring keeps one s: that of its node on the outer
    curve (gmsh spaces those by arc length on the offset curve, which the passage blocks share),
    and the wall node is its pull-back. Its layers sit at the geometric distances d_j of the
    level (first cell h1). gmsh's transfinite interpolation spaces the wall and the offset curve
    independently by arc length; around the leading edge the offset arc is several times the
    wall arc, so its radial lines skewed and the clustered cells folded. Returns {node: (s, d)}
    (cm) by node position (gmsh renumbers the nodes when it raises the order)."""
    xyz = node_xyz(gmsh)
    wall = set()
    for cv in info["blade_curves"]:
        tags, _, _ = gmsh.model.mesh.getNodes(1, cv, includeBoundary=True)
        wall.update(int(t) for t in tags)
    nbr = {}
    for s in info["ring_surfaces"]:
        _, _, nodes = gmsh.model.mesh.getElements(2, s)
        for q in np.asarray(nodes[0], dtype=np.int64).reshape(-1, 4).tolist():
            for i in range(4):
                a, b = q[i], q[(i + 1) % 4]
                nbr.setdefault(a, set()).add(b)
                nbr.setdefault(b, set()).add(a)
    layer = {w: 0 for w in wall}
    front = list(wall)
    while front:  # layer index = edge-graph distance from the wall (structured ring)
        nxt = []
        for a in front:
            for b in nbr[a]:
                if b not in layer:
                    layer[b] = layer[a] + 1
                    nxt.append(b)
        front = nxt
    n_ring = lv["ring"]
    chains = []
    for w in sorted(wall):
        chain = [w]
        while layer[chain[-1]] < n_ring:
            up = [b for b in nbr[chain[-1]] if layer[b] == layer[chain[-1]] + 1]
            if len(up) != 1:
                sys.exit("mesh_cascade: the O-grid ring is not structured (radial line)")
            chain.append(up[0])
        chains.append(chain)
    if max(layer.values()) != n_ring or len({c[-1] for c in chains}) != len(chains):
        sys.exit("mesh_cascade: the O-grid ring is not structured (layers)")
    outer = np.array([xyz[c[-1]][:2] for c in chains]) / scale
    s_out, d_out = project_to_blade(spl, outer, info["ring"])
    if np.abs(d_out - info["ring"]).max() > 0.02 * info["ring"]:
        sys.exit("mesh_cascade: the outer O-grid curve is not on the offset curve")
    r = info["r_ring"]
    j = np.arange(n_ring + 1)
    d_j = info["ring"] * (j / n_ring if abs(r - 1) < 1e-12 else (r**j - 1) / (r**n_ring - 1))
    bottom, sd = {}, {}
    for chain, s in zip(chains, s_out):
        xy = spl(np.full(n_ring + 1, s)) + d_j[:, None] * spl.offset_normal(np.full(n_ring + 1, s))
        for t, p, d in zip(chain, xy, d_j):
            bottom[t] = (p, s, d)
    b_tags = list(bottom)
    b_xy = np.array([xyz[t][:2] for t in b_tags])
    for v in info["ring_volumes"]:
        tags, coords, _ = gmsh.model.mesh.getNodes(3, v, includeBoundary=True)
        coords = np.asarray(coords).reshape(-1, 3)
        idx = match_points(b_xy, coords[:, :2], 1e-7 * info["ring"] * scale,
                           "a swept O-grid node on the z = 0 face")
        for t, z, i in zip(tags.astype(np.int64).tolist(), coords[:, 2], idx):
            p, s, d = bottom[b_tags[i]]
            x = (p[0] * scale, p[1] * scale, z)
            sd[x] = (s, d)
            gmsh.model.mesh.setNode(t, list(x), [])
    return sd


def hex_corner_weights(ref):
    """Trilinear weights of the 8 corners (gmsh corner order) at reference points in [-1, 1]^3."""
    u, v, w = (ref[:, 0] + 1) / 2, (ref[:, 1] + 1) / 2, (ref[:, 2] + 1) / 2
    return np.stack([(1 - u) * (1 - v) * (1 - w), u * (1 - v) * (1 - w), u * v * (1 - w),
                     (1 - u) * v * (1 - w), (1 - u) * (1 - v) * w, u * (1 - v) * w, u * v * w,
                     (1 - u) * v * w], axis=1)


def arc_param(spl, d, s0, s1, frac, m=64):
    """Parameter s at the arc-length fractions frac (rows) of the offset curve blade(s) + d n(s)
    between s0 and s1 (one pair per row)."""
    t = np.linspace(0, 1, m + 1)
    s = s0[:, None] + t[None, :] * (s1 - s0)[:, None]
    p = spl(s.ravel()) + d * spl.offset_normal(s.ravel())
    p = p.reshape(len(s0), m + 1, 2)
    arc = np.concatenate([np.zeros((len(s0), 1)),
                          np.cumsum(np.linalg.norm(np.diff(p, axis=1), axis=2), axis=1)], axis=1)
    arc /= arc[:, -1:]
    return np.array([np.interp(f, a, si) for f, a, si in zip(frac, arc, s)])


def curve_ring(gmsh, info, spl, scale, sd):
    """High-order nodes of the O-grid ring on the exact offset map X(s, d) = blade(s) + d n(s):
    each ring element is the image of the bilinear (s, d) patch of its corners (trilinear in z),
    so wall and interior nodes are curved consistently and the Jacobian stays positive wherever
    d is below the radius of curvature of the offset map (the ring is 4 % of the chord thick)."""
    new = {}
    sd_x, sd_s = np.array(list(sd.keys())), np.array(list(sd.values()))
    for v in info["ring_volumes"]:
        types, _, nodes = gmsh.model.mesh.getElements(3, v)
        for typ, nn in zip(types, nodes):
            props = gmsh.model.mesh.getElementProperties(typ)
            npe, ref = props[3], np.asarray(props[4]).reshape(-1, 3)
            el = np.asarray(nn, dtype=np.int64).reshape(-1, npe)
            cx = np.array([gmsh.model.mesh.getNode(int(t))[0] for t in el[:, :8].ravel()])
            k = match_points(sd_x, cx, 1e-7 * info["ring"] * scale, "an O-grid corner")
            cs, cd = sd_s[k, 0].reshape(-1, 8), sd_s[k, 1].reshape(-1, 8)
            cz = cx[:, 2].reshape(-1, 8)
            cs = cs[:, :1] + (np.mod(cs - cs[:, :1] + 0.5 * spl.L, spl.L) - 0.5 * spl.L)
            wts = hex_corner_weights(ref)
            s_n, d_n, z_n = cs @ wts.T, cd @ wts.T, cz @ wts.T
            # towards the outer curve, blend s from equal wall parameter into equal arc length
            # on the offset curve (the passage blocks' edge there); ds/dsigma > 0 throughout
            s0, s1 = cs.min(axis=1, keepdims=True), cs.max(axis=1, keepdims=True)
            sigma = (s_n - s0) / (s1 - s0)
            beta = d_n / info["ring"]
            s_n = (1 - beta) * s_n + beta * arc_param(spl, info["ring"], s0[:, 0], s1[:, 0],
                                                       sigma)
            xy = spl(s_n.ravel()) + d_n.ravel()[:, None] * spl.offset_normal(s_n.ravel())
            for t, x, y, z in zip(el.ravel(), xy[:, 0], xy[:, 1], z_n.ravel()):
                new[int(t)] = (x * scale, y * scale, z)
    for t, x in new.items():
        gmsh.model.mesh.setNode(t, list(x), [])
    return len(new)


def edges_by_arc_length(gmsh, info, ngeo):
    """High-order nodes of the z = 0 mesh edges on the model curves outside the ring, spaced by
    arc length between the edge's end nodes. gmsh puts them at equal curve parameter, and the
    parameter of its splines (the passage boundaries) is not the arc length: at NGeo 4 the
    nodes bunched and an element of the suction-side block folded."""
    ring = set(info["blade_curves"]) | set(info["ring_curves"])
    moved = 0
    for _, c in gmsh.model.getEntities(1):
        if c in ring:
            continue
        ends = [gmsh.model.getValue(0, t, [])[2] for _, t in gmsh.model.getBoundary([(1, c)])]
        if max(abs(z) for z in ends) > 1e-9 * info["ring"]:
            continue  # a span edge or a z > 0 curve (swept from z = 0 later)
        tags, _, par = gmsh.model.mesh.getNodes(1, c, returnParametricCoord=True)
        u_of = dict(zip(tags.astype(np.int64).tolist(), par))
        (lo, hi), = zip(*gmsh.model.getParametrizationBounds(1, c))
        for _, t in gmsh.model.getBoundary([(1, c)]):  # the end points: the curve's bounds
            tv, xv, _ = gmsh.model.mesh.getNodes(0, t)
            u_end = lo if np.allclose(xv[:3], gmsh.model.getValue(1, c, [lo]), atol=1e-12) else hi
            u_of[int(tv[0])] = u_end
        # the curve finely sampled: arc length against parameter
        t = np.linspace(lo, hi, 4097)
        p = np.asarray(gmsh.model.getValue(1, c, list(t))).reshape(-1, 3)
        arc = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(p, axis=0), axis=1))])
        _, _, nodes = gmsh.model.mesh.getElements(1, c)
        el = np.asarray(nodes[0], dtype=np.int64).reshape(-1, ngeo + 1)
        a0 = np.interp([u_of[int(e)] for e in el[:, 0]], t, arc)
        a1 = np.interp([u_of[int(e)] for e in el[:, 1]], t, arc)
        f = np.arange(1, ngeo) / ngeo
        tu = np.interp(a0[:, None] + f[None, :] * (a1 - a0)[:, None], arc, t)
        q = np.asarray(gmsh.model.getValue(1, c, list(tu.ravel()))).reshape(-1, 3)
        for tag, x, ui in zip(el[:, 2:].ravel(), q, tu.ravel()):
            gmsh.model.mesh.setNode(int(tag), list(x), [ui])
            moved += 1
    return moved


def coons_blocks(gmsh, info, ngeo):
    """High-order nodes of the elements outside the O-grid ring, swept exactly in the span: on
    the z = 0 face a Coons patch of the element's four edges (Gordon & Hall 1973, transfinite
    interpolation; edge nodes interpolated by Lagrange polynomials at their reference points),
    then every node of the element gets the (x, y) of its z_min face node and z linear in the
    span; elements are visited layer by layer upwards. The z = 0 edges keep their nodes: on the
    geometry (passage boundaries) or shared with the ring (offset map). gmsh's own face and
    volume nodes neither follow the ring's edge nodes once those are on the offset map (the
    elements next to the ring folded) nor repeat exactly from one span layer to the next."""
    xyz = node_xyz(gmsh)
    t1 = np.linspace(-1, 1, ngeo + 1)

    def lagrange(x, pts):
        L = np.ones((len(x), len(pts)))
        for k, pk in enumerate(pts):
            for m, pm in enumerate(pts):
                if m != k:
                    L[:, k] *= (x - pm) / (pk - pm)
        return L
    ring = set(info["ring_volumes"])
    work = []
    for _, v in gmsh.model.getEntities(3):
        if v in ring:
            continue
        types, _, nodes = gmsh.model.mesh.getElements(3, v)
        for typ, nn in zip(types, nodes):
            props = gmsh.model.mesh.getElementProperties(typ)
            npe, ref = props[3], np.asarray(props[4]).reshape(-1, 3)
            for el in np.asarray(nn, dtype=np.int64).reshape(-1, npe).tolist():
                work.append((min(xyz[t][2] for t in el[:8]), el, ref))
    work.sort(key=lambda w: w[0])
    z_bottom = work[0][0]
    plan = {}  # per (reference layout, span axis, side): the z_min face's edges and node map
    for _, el, ref in work:
        X = np.array([xyz[t] for t in el])
        corner_ref = np.rint(ref[:8]).astype(int)
        dz = [np.mean(X[:8, 2][corner_ref[:, m] > 0]) - np.mean(X[:8, 2][corner_ref[:, m] < 0])
              for m in range(3)]
        k = int(np.argmax(np.abs(dz)))  # the reference axis along the span
        side = -1.0 if dz[k] > 0 else 1.0
        key = (id(ref), k, side)
        if key not in plan:
            i1, i2 = [m for m in range(3) if m != k]
            bot = np.where(np.isclose(ref[:, k], side))[0]
            pick = []  # z_min edges along i1 (i2 = -1), i2 (i1 = +1), i1 (i2 = +1), i2 (i1 = -1)
            for fixed, val, free in ((i2, -1, i1), (i1, 1, i2), (i2, 1, i1), (i1, -1, i2)):
                sel = bot[np.isclose(ref[bot, fixed], val)]
                sel = sel[np.argsort(ref[sel, free])]
                if len(sel) != ngeo + 1:
                    sys.exit("mesh_cascade: unexpected high-order hexahedron layout")
                pick.append(sel)
            below = match_points(ref[bot][:, [i1, i2]], ref[:, [i1, i2]], 0.5 / ngeo,
                                 "a high-order node's z_min face node")
            u, v_ = ref[:, i1], ref[:, i2]
            plan[key] = (pick, bot[below], lagrange(u, t1), lagrange(v_, t1), (u + 1) / 2,
                         (v_ + 1) / 2, hex_corner_weights(ref), bot)
        pick, below, Lu, Lv, a, b, wts, bot = plan[key]
        if abs(X[:8, 2].min() - z_bottom) < 1e-9 * info["ring"]:
            E = [X[p, :2] for p in pick]  # the four z = 0 edges' nodes (xy)
            xy = ((1 - b)[:, None] * (Lu @ E[0]) + b[:, None] * (Lu @ E[2])
                  + (1 - a)[:, None] * (Lv @ E[3]) + a[:, None] * (Lv @ E[1]))
            c00, c10, c11, c01 = E[0][0], E[0][-1], E[2][-1], E[2][0]
            xy -= (((1 - a) * (1 - b))[:, None] * c00 + (a * (1 - b))[:, None] * c10
                   + (a * b)[:, None] * c11 + ((1 - a) * b)[:, None] * c01)
            X[bot, :2] = xy[bot]
        X[:, :2] = X[below, :2]
        X[:, 2] = X[:8, 2] @ wts.T
        for t, x in zip(el, X):
            xyz[t] = x
    moved = {t for _, el, _ in work for t in el}
    for t in moved:
        gmsh.model.mesh.setNode(int(t), list(xyz[t]), [])
    return len(moved)


# ------------------------------------------------------------------------------ checks, plot
def measure_first_cell(gmsh, info, scale):
    """Wall-normal height of the wall-adjacent quadrangles of the z = 0 ring faces: distance of
    the two off-wall corners to their wall corners (min, max), in cm."""
    wall_nodes = set()
    for cv in info["blade_curves"]:
        tags, _, _ = gmsh.model.mesh.getNodes(1, cv, includeBoundary=True)
        wall_nodes.update(int(t) for t in tags)
    heights = []
    for s in info["ring_surfaces"]:
        types, _, nodes = gmsh.model.mesh.getElements(2, s)
        for typ, nn in zip(types, nodes):
            npe = gmsh.model.mesh.getElementProperties(typ)[3]
            for el in np.asarray(nn, dtype=np.int64).reshape(-1, npe)[:, :4]:
                on = [int(t) in wall_nodes for t in el]
                if sum(on) != 2:
                    continue
                for i in range(4):
                    j = (i + 1) % 4
                    if on[i] != on[j]:
                        a = np.array(gmsh.model.mesh.getNode(int(el[i]))[0])
                        b = np.array(gmsh.model.mesh.getNode(int(el[j]))[0])
                        heights.append(np.linalg.norm(a - b) / scale)
    return min(heights), max(heights)


def min_scaled_jacobian(gmsh):
    types, tags, _ = gmsh.model.mesh.getElements(3)
    q = np.concatenate([np.asarray(gmsh.model.mesh.getElementQualities(list(t), "minSJ"))
                        for t in tags])
    n = sum(len(t) for t in tags)
    if os.environ.get("MC_VERBOSE"):
        for _, v in gmsh.model.getEntities(3):
            _, tv, _ = gmsh.model.mesh.getElements(3, v)
            qv = np.asarray(gmsh.model.mesh.getElementQualities(list(tv[0]), "minSJ"))
            print(f"  volume {v}: min scaled Jacobian {qv.min():.4f}")
    return float(q.min()), n, [gmsh.model.mesh.getElementProperties(t)[0] for t in types]


def plot_mesh(gmsh, info, g, path, ngeo, scale):
    try:
        import matplotlib
    except ImportError:  # gmsh's venv may lack it: the mesh is written all the same
        print(f"mesh_cascade: --plot {path} skipped: this Python ({sys.executable}) has no "
              "matplotlib; install it there (pip install matplotlib) for the picture")
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection

    segs = []
    node_tags, coords, _ = gmsh.model.mesh.getNodes()
    xyz = dict(zip(node_tags.astype(np.int64), np.asarray(coords).reshape(-1, 3) / scale))
    for s in info["bottoms"]:
        types, _, nodes = gmsh.model.mesh.getElements(2, s)
        for typ, nn in zip(types, nodes):
            npe = gmsh.model.mesh.getElementProperties(typ)[3]
            for el in np.asarray(nn, dtype=np.int64).reshape(-1, npe):
                for e in range(4):
                    inner = el[4 + e * (ngeo - 1): 4 + (e + 1) * (ngeo - 1)]
                    chain = [el[e]] + list(inner) + [el[(e + 1) % 4]]
                    segs.append(np.array([xyz[t][:2] for t in chain]))
    fig, axes = plt.subplots(1, 2, figsize=(11, 5.2))
    for ax, title in zip(axes, ["one pitch near the blade", "leading edge"]):
        ax.add_collection(LineCollection(segs, linewidths=0.25, colors="k"))
        ax.plot(g["pts"][:, 0], g["pts"][:, 1], "r-", lw=0.6)
        ax.set_aspect("equal")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("z (axial) [cm]")
    c = g["chord"]
    axes[0].set_xlim(g["le"][0] - 0.4 * c, g["te"][0] + 0.4 * c)
    axes[0].set_ylim(g["le"][1] - 0.45 * c, g["te"][1] + 0.45 * c)
    axes[0].set_ylabel("r theta (pitchwise) [cm]")
    le = g["le"]
    axes[1].set_xlim(le[0] - 0.03 * c, le[0] + 0.07 * c)
    axes[1].set_ylim(le[1] - 0.04 * c, le[1] + 0.06 * c)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    print(f"plot: {path}")


def hopr_min_scaled_jacobian(path, n_sample=None):
    """Minimum scaled Jacobian det(J) / (|x_xi| |x_eta| |x_zeta|) of the HOPR mesh file that
    hexdg reads (NodeCoords: (NGeo+1)^3 equidistant nodes per element, xi fastest), sampled at
    (2 NGeo + 1)^3 equidistant points of every element: an independent check of what
    `hexdg mesh import` wrote (orientation included). Returns (min, NGeo, elements) or None
    without h5py."""
    try:
        import h5py
    except ImportError:
        return None
    with h5py.File(path, "r") as f:
        ngeo = int(f.attrs["Ngeo"][0])
        x = np.asarray(f["NodeCoords"])
    m = ngeo + 1
    x = x.reshape(-1, m, m, m, 3)  # element, zeta, eta, xi, coordinate
    nodes = np.linspace(-1, 1, m)
    ts = np.linspace(-1, 1, n_sample or 2 * ngeo + 1)
    L = np.ones((len(ts), m))
    D = np.zeros((len(ts), m))
    for k in range(m):  # Lagrange basis of the equidistant nodes and its derivative at ts
        for j in range(m):
            if j != k:
                L[:, k] *= (ts - nodes[j]) / (nodes[k] - nodes[j])
                prod = np.ones(len(ts)) / (nodes[k] - nodes[j])
                for i in range(m):
                    if i not in (j, k):
                        prod *= (ts - nodes[i]) / (nodes[k] - nodes[i])
                D[:, k] += prod
    worst = np.inf
    for e0 in range(0, len(x), 2000):
        xe = x[e0:e0 + 2000]
        a = np.einsum("ai,bj,ck,eijkd->eabcd", L, L, D, xe, optimize=True)  # d/dxi
        b = np.einsum("ai,bj,ck,eijkd->eabcd", L, D, L, xe, optimize=True)
        c = np.einsum("ai,bj,ck,eijkd->eabcd", D, L, L, xe, optimize=True)
        det = np.einsum("...d,...d->...", a, np.cross(b, c))
        sj = det / (np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1)
                    * np.linalg.norm(c, axis=-1))
        worst = min(worst, float(sj.min()))
    return worst, ngeo, len(x)


# ------------------------------------------------------------------------------------ main
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", type=int, choices=sorted(LEVELS))
    ap.add_argument("--ngeo", type=int, default=4, choices=[1, 2, 3, 4])
    ap.add_argument("--span-elems", type=int)
    ap.add_argument("--scale", type=float, default=0.01,
                    help="factor from the CSV's cm to the mesh's length unit (0.01: metres)")
    ap.add_argument("--ascii", action="store_true", help="ASCII .msh (default: binary)")
    ap.add_argument("--csv", default=CSV_DEFAULT)
    ap.add_argument("--plot", help="PNG of the z = 0 face of the mesh near the blade")
    ap.add_argument("--hexdg", help="hexdg executable: also write <name>_mesh.h5 (HOPR)")
    ap.add_argument("--check-gmsh", action="store_true")
    ap.add_argument("-o", "--output")
    args = ap.parse_args()

    gmsh = import_gmsh()
    if args.check_gmsh:
        print("gmsh", gmsh.__version__ if gmsh else "not found")
        sys.exit(0 if gmsh else 3)
    if gmsh is None:
        sys.exit("mesh_cascade: cannot import gmsh (pip install gmsh, or tools/install_gmsh.sh)")
    if args.level is None or not args.output:
        ap.error("--level and -o are required")
    if not os.path.exists(args.csv):
        sys.exit(f"mesh_cascade: blade contour {args.csv} not found (--csv FILE)")

    g = blade_geometry(args.csv)
    lv = dict(LEVELS[args.level])
    if args.span_elems:
        lv["span"] = args.span_elems
    c = g["chord"]
    if lv["h1_plus"] is None:
        lv["h1"] = RING_OVER_CHORD * c / 3.0
        _, l_plus = first_cell_height(1.0, c)
        lv["h1_plus"] = lv["h1"] / l_plus
    else:
        lv["h1"], l_plus = first_cell_height(lv["h1_plus"], c)

    pitch = 2 * math.pi * RADIUS_CM / N_BLADES
    print(f"geometry: chord {c:.4f} cm (LE ({g['le'][0]:.4f}, {g['le'][1]:.4f}) -> TE "
          f"({g['te'][0]:.4f}, {g['te'][1]:.4f})), stagger {g['stagger']:.2f} deg from axial "
          f"(GALAEXI: 51.2), max thickness {g['thickness']:.4f} cm")
    print(f"geometry: pitch 2 pi {RADIUS_CM} / {N_BLADES} = {pitch:.4f} cm, solidity "
          f"{c / pitch:.3f}, span {SPAN_OVER_CHORD * c:.4f} cm (5 % chord)")
    print(f"geometry: camber metal angles LE {g['kappa_le']:.2f} deg, TE {g['kappa_te']:.2f} deg; "
          f"inflow angle = LE metal angle + incidence {INCIDENCE_DEG} = "
          f"{g['kappa_le'] + INCIDENCE_DEG:.2f} deg from axial")

    gmsh.initialize(interruptible=False)
    gmsh.option.setNumber("General.Terminal", int(os.environ.get("MC_VERBOSE", "0")))
    gmsh.option.setNumber("General.NumThreads", 1)
    info = build_model(gmsh, g, lv, args)
    gmsh.model.mesh.generate(3)
    sd = place_ring(gmsh, info, g["spl"], args.scale, lv)
    if args.ngeo > 1:
        gmsh.model.mesh.setOrder(args.ngeo)
        edges_by_arc_length(gmsh, info, args.ngeo)
        n_moved = curve_ring(gmsh, info, g["spl"], args.scale, sd)
        n_coons = coons_blocks(gmsh, info, args.ngeo)
        print(f"high order: {n_moved} nodes of the O-grid ring placed on the offset map")
    min_sj, n_hex, names = min_scaled_jacobian(gmsh)
    h_min, h_max = measure_first_cell(gmsh, info, args.scale)
    print(f"mesh: level {args.level}, {n_hex} hexahedra ({', '.join(names)}), NGeo {args.ngeo}, "
          f"{lv['span']} span layers; DOF at N = {N_LGL}: {n_hex * (N_LGL + 1) ** 3:.3e}")
    print(f"mesh: inlet plane z = {info['x_in']:.3f} cm, outlet z = {info['x_out']:.3f} cm, "
          f"O-grid ring {info['ring']:.4f} cm ({lv['ring']} cells, growth {info['r_ring']:.3f})")
    print(f"mesh: first-cell height designed {lv['h1']:.3e} cm = {lv['h1'] / c:.3e} chord "
          f"(h+ = {lv['h1_plus']:.2f}; y+ per DOF h+/(N+1) = {lv['h1_plus'] / (N_LGL + 1):.2f}; "
          f"first LGL node y+ = {0.11747 * lv['h1_plus']:.2f}); measured {h_min:.3e} .. "
          f"{h_max:.3e} cm")
    print(f"mesh: min scaled Jacobian {min_sj:.4f}")
    links = periodic_pairs(gmsh, info, args.scale)
    print(f"mesh: periodic surfaces {len(links)} (pitch and span), node pairs "
          f"{sum(len(t[3]) for t in links)}, matched by position")
    gmsh.option.setNumber("Mesh.MshFileVersion", 4.1)
    gmsh.option.setNumber("Mesh.Binary", 0 if args.ascii else 1)
    gmsh.write(args.output)
    append_periodic(args.output, links, not args.ascii)
    print(f"wrote {args.output}")
    if args.plot:
        plot_mesh(gmsh, info, g, args.plot, args.ngeo, args.scale)
    gmsh.finalize()
    if min_sj <= 0:
        sys.exit(f"mesh_cascade: an element has a non-positive Jacobian (min scaled {min_sj})")
    if args.hexdg:
        base = args.output[:-4] if args.output.endswith(".msh") else args.output
        cmd = [args.hexdg, "mesh", "import", args.output, "-o", base + "_mesh.h5"]
        print(" ".join(cmd))
        rc = subprocess.call(cmd)
        res = hopr_min_scaled_jacobian(base + "_mesh.h5") if rc == 0 else None
        if res is not None:
            print(f"{base}_mesh.h5: NGeo {res[1]}, {res[2]} elements, min scaled Jacobian "
                  f"{res[0]:.4f} (sampled at (2 NGeo + 1)^3 points per element)")
            if res[0] <= 0:
                rc = 1
        sys.exit(rc)


if __name__ == "__main__":
    main()
