#!/usr/bin/env python3
"""Pictures of a hexdg ParaView file (.vtu): a variable on a plane, FV_alpha, radial profiles.

usage: plot_slice.py case_Solution_<time>.vtu [--var Density|Mach] [--plane zmin|z=0.005]
                     [--levels 30] [--log] [--contour-lines] [--no-fill] [--mesh]
                     [--alpha | --alpha-overlay] [--xlim X0 X1] [--ylim Y0 Y1]
                     [--title T] [-o out.png] [--dump-csv nodes.csv] [--no-plot]
       plot_slice.py FILE.vtu --radial --center X,Y[,Z] [--var Density] [--ref exact.csv]

Reads the .vtu files that hexdg writes (OutputFormat = ParaView, or `hexdg convert case.ini
state.h5 -o x.vtu`): VTK XML unstructured grids of Lagrange hexahedra (cell type 72), arrays
either ASCII or raw appended binary with UInt64 block headers, no compression (docs/output.md).
Other encodings (inline base64, compressed) are refused with a message. Only numpy is needed to
read; matplotlib draws.

Plane mode (default): every element that reaches the plane gives its layer of Lagrange nodes
nearest to it; each layer is split into quads on the nodes (two triangles each) and filled with
contours, so element faces keep the DG jumps. --alpha draws the cell data FV_alpha (one value
per element) instead; --alpha-overlay outlines the blended elements over the variable.
Radial mode: every node (or the plane's nodes with --plane) against its distance from --center
(two coordinates: distance in the x-y plane; three: in space), with an optional reference
curve (CSV: r, value). Needs numpy and matplotlib; a Python without them re-runs the script with
/usr/bin/python3. See docs/output.md.
"""

import argparse
import mmap
import os
import sys
import xml.etree.ElementTree as ET

REEXEC_GUARD = "HEXDG_PLOT_SLICE_REEXEC"
INSTALL_HINT = (
    "Debian/Ubuntu: apt-get install python3-numpy python3-matplotlib; "
    "or pip install numpy matplotlib"
)



try:
    import numpy as np
except ImportError:
    np = None
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PolyCollection
    from matplotlib.tri import Triangulation
    from mpl_toolkits.axes_grid1 import make_axes_locatable
except ImportError:
    plt = None
if np is None or plt is None:
    from system_python import can_rerun, rerun

    if can_rerun(REEXEC_GUARD):
        rerun(REEXEC_GUARD)
if np is None:
    sys.exit(f"plot_slice.py: needs numpy ({sys.executable} has none). {INSTALL_HINT}")

VTK_LAGRANGE_HEXAHEDRON = 72
VTK_TYPES = {
    "Float64": "f8",
    "Float32": "f4",
    "Int64": "i8",
    "Int32": "i4",
    "UInt64": "u8",
    "UInt32": "u4",
    "UInt8": "u1",
    "Int8": "i1",
}
AXES = "xyz"


class VtuError(Exception):
    """A .vtu file that this reader cannot take, with what is wrong."""


# ------------------------------------------------------------------------------------------------
# Reading the .vtu


class VtuFile:
    """The arrays of a VTK XML unstructured grid in hexdg's layout, read on demand."""

    def __init__(self, path):
        self.path = path
        try:
            with open(path, "rb") as f:
                self.raw = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as err:
            raise VtuError(f"cannot read the file: {getattr(err, 'strerror', None) or err}")
        appended_at = self.raw.find(b"<AppendedData")
        if appended_at >= 0:
            # the XML before the raw bytes, closed by hand, parses on its own
            xml_text = self.raw[:appended_at] + b"</VTKFile>"
        else:
            xml_text = self.raw[:]
        try:
            root = ET.fromstring(xml_text)
        except ET.ParseError as err:
            raise VtuError(f"not a readable VTK XML file ({err})")
        if root.tag != "VTKFile" or root.get("type") != "UnstructuredGrid":
            raise VtuError("not a VTK XML UnstructuredGrid file (<VTKFile type=...>)")
        if root.get("compressor"):
            raise VtuError(
                f"compressed arrays ({root.get('compressor')}) are not supported; hexdg writes "
                "uncompressed files (re-save from ParaView without compression)"
            )
        order = root.get("byte_order", "LittleEndian")
        if order not in ("LittleEndian", "BigEndian"):
            raise VtuError(f"unknown byte_order {order!r}")
        self.endian = "<" if order == "LittleEndian" else ">"
        self.header_type = root.get("header_type", "UInt32")
        pieces = root.findall("./UnstructuredGrid/Piece")
        if len(pieces) != 1:
            raise VtuError(f"expected one <Piece>, found {len(pieces)}")
        piece = pieces[0]
        self.n_points = int(piece.get("NumberOfPoints"))
        self.n_cells = int(piece.get("NumberOfCells"))
        self.arrays = {}
        for section in ("PointData", "CellData", "Points", "Cells"):
            for node in piece.findall(f"./{section}/DataArray"):
                self.arrays[(section, node.get("Name"))] = node
        self.time = None
        for node in root.findall("./UnstructuredGrid/FieldData/DataArray"):
            if node.get("Name") == "TimeValue" and node.text and node.text.strip():
                self.time = float(node.text.split()[0])
        self.data_start = None
        if appended_at >= 0:
            self._find_appended(appended_at)

    def _find_appended(self, at):
        tag_end = self.raw.find(b">", at)
        tag = self.raw[at : tag_end + 1].decode("ascii", "replace")
        if 'encoding="raw"' not in tag:
            raise VtuError(
                f'appended data {tag} is not raw; only encoding="raw" (what hexdg writes) '
                "is supported"
            )
        if self.header_type != "UInt64":
            raise VtuError(
                f"header_type {self.header_type} is not supported; hexdg writes UInt64 headers"
            )
        underscore = self.raw.find(b"_", tag_end)
        if underscore < 0:
            raise VtuError("<AppendedData> has no '_' marker before its data")
        self.data_start = underscore + 1

    def names(self, section):
        return [name for (sec, name) in self.arrays if sec == section]

    def has(self, section, name):
        return (section, name) in self.arrays

    def array(self, section, name, n_tuples):
        """The array as numpy, shape (n_tuples,) or (n_tuples, components)."""
        node = self.arrays.get((section, name))
        if node is None:
            raise VtuError(f"no {section} array {name!r}")
        vtk_type = node.get("type")
        if vtk_type not in VTK_TYPES:
            raise VtuError(f"array {name}: unsupported type {vtk_type}")
        dtype = np.dtype(self.endian + VTK_TYPES[vtk_type])
        n_comp = int(node.get("NumberOfComponents", "1"))
        count = n_tuples * n_comp
        fmt = node.get("format")
        if fmt == "ascii":
            words = (node.text or "").split()
            if len(words) != count:
                raise VtuError(f"array {name}: {len(words)} ASCII values, expected {count}")
            values = np.array(words, dtype=np.float64 if dtype.kind == "f" else np.int64)
            values = values.astype(dtype.newbyteorder("="))
        elif fmt == "appended":
            if self.data_start is None:
                raise VtuError(f"array {name} is appended but the file has no <AppendedData>")
            at = self.data_start + int(node.get("offset"))
            head = np.dtype(self.endian + "u8")
            if at + 8 > len(self.raw):
                raise VtuError(f"array {name}: offset beyond the end of the file (truncated?)")
            n_bytes = int(np.frombuffer(self.raw, dtype=head, count=1, offset=at)[0])
            if n_bytes != count * dtype.itemsize:
                raise VtuError(
                    f"array {name}: block of {n_bytes} bytes, expected {count * dtype.itemsize} "
                    f"({count} x {vtk_type})"
                )
            if at + 8 + n_bytes > len(self.raw):
                raise VtuError(f"array {name}: data runs past the end of the file (truncated?)")
            values = np.frombuffer(self.raw, dtype=dtype, count=count, offset=at + 8)
        elif fmt == "binary":
            raise VtuError(
                f'array {name} is inline base64 (format="binary"), which this reader does not '
                "take; hexdg writes ASCII or raw appended data"
            )
        else:
            raise VtuError(f"array {name}: unknown format {fmt!r}")
        return values.reshape(n_tuples, n_comp) if n_comp > 1 else values


def lagrange_hex_order(n):
    """perm[k, j, i] = position within a VTK Lagrange hexahedron of degree n (VTK >= 9, file
    version >= 2.1) of the lattice point (i, j, k): 8 corners, 12 edges, 6 faces, interior."""
    m = n - 1
    corner = {(0, 0): 0, (1, 0): 1, (1, 1): 2, (0, 1): 3}
    perm = np.empty((n + 1,) * 3, dtype=np.int64)
    for k in range(n + 1):
        for j in range(n + 1):
            for i in range(n + 1):
                on = (i in (0, n), j in (0, n), k in (0, n))
                hi = (i == n, j == n, k == n)
                if all(on):
                    index = corner[(hi[0], hi[1])] + 4 * hi[2]
                elif sum(on) == 2:  # edges: bottom 0-3, top 4-7, vertical 8-11
                    if not on[0]:
                        edge, t = 2 * hi[1] + 4 * hi[2], i
                    elif not on[1]:
                        edge, t = (1 if hi[0] else 3) + 4 * hi[2], j
                    else:
                        edge, t = 8 + corner[(hi[0], hi[1])], k
                    index = 8 + m * edge + t - 1
                elif sum(on) == 1:  # faces i=0, i=n, j=0, j=n, k=0, k=n; lower free axis fastest
                    if on[0]:
                        face, a, b = hi[0], j, k
                    elif on[1]:
                        face, a, b = 2 + hi[1], i, k
                    else:
                        face, a, b = 4 + hi[2], i, j
                    index = 8 + 12 * m + m * m * face + (b - 1) * m + (a - 1)
                else:
                    index = 8 + 12 * m + 6 * m * m + ((k - 1) * m + (j - 1)) * m + (i - 1)
                perm[k, j, i] = index
    return perm


class LagrangeMesh:
    """Points and the lattice of point ids of each cell: ids[cell, k, j, i]."""

    def __init__(self, vtu):
        self.vtu = vtu
        types = vtu.array("Cells", "types", vtu.n_cells)
        bad = np.flatnonzero(types != VTK_LAGRANGE_HEXAHEDRON)
        if bad.size:
            raise VtuError(
                f"cell {bad[0]} has VTK type {types[bad[0]]}; only Lagrange hexahedra (type 72, "
                "what hexdg writes) are supported"
            )
        offsets = vtu.array("Cells", "offsets", vtu.n_cells).astype(np.int64)
        sizes = np.diff(np.concatenate(([0], offsets)))
        npv = int(sizes[0]) if sizes.size else 0
        if sizes.size == 0 or np.any(sizes != npv):
            raise VtuError("cells of different sizes (or no cells); hexdg writes one NVisu for all")
        n = int(round(npv ** (1.0 / 3.0))) - 1
        if n < 1 or (n + 1) ** 3 != npv:
            raise VtuError(f"cells of {npv} points are not (n+1)^3 Lagrange hexahedra")
        self.n = n
        conn = vtu.array("Cells", "connectivity", npv * vtu.n_cells).astype(np.int64)
        if conn.min() < 0 or conn.max() >= vtu.n_points:
            raise VtuError("connectivity refers to points that do not exist")
        self.ids = conn.reshape(vtu.n_cells, npv)[:, lagrange_hex_order(n)]
        self.points = np.asarray(vtu.array("Points", "Points", vtu.n_points), dtype=np.float64)

    def require(self, section, name):
        if self.vtu.has(section, name):
            return
        hint = (
            " (written when shock capturing is on: IndicatorType other than none)"
            if name == "FV_alpha"
            else ""
        )
        raise VtuError(
            f"no {'point' if section == 'PointData' else 'cell'} data {name!r}{hint}; the file "
            f"has point data {', '.join(self.vtu.names('PointData')) or '(none)'} and cell data "
            f"{', '.join(self.vtu.names('CellData')) or '(none)'}"
        )

    # derived point data: name -> (the arrays it needs, the function of them)
    DERIVED = {
        # local Mach number |u| / sqrt(kappa p / rho) of a perfect gas (kappa: --kappa)
        "Mach": (("VelocityX", "VelocityY", "VelocityZ", "Pressure", "Density"),
                 lambda u, v, w, p, rho, kappa: np.sqrt((u * u + v * v + w * w) * rho
                                                        / (kappa * p))),
    }
    kappa = 1.4

    def point_values(self, name):
        if name in self.DERIVED and not self.vtu.has("PointData", name):
            needs, func = self.DERIVED[name]
            return func(*(self.point_values(n) for n in needs), self.kappa)
        self.require("PointData", name)
        return np.asarray(self.vtu.array("PointData", name, self.vtu.n_points), dtype=np.float64)

    def cell_values(self, name):
        self.require("CellData", name)
        return np.asarray(self.vtu.array("CellData", name, self.vtu.n_cells), dtype=np.float64)


# ------------------------------------------------------------------------------------------------
# The plane


def parse_plane(text):
    """'zmin', 'xmax', 'z=0.005' -> (axis index, 'min' | 'max' | value)."""
    text = text.strip().lower()
    if len(text) == 4 and text[0] in AXES and text[1:] in ("min", "max"):
        return AXES.index(text[0]), text[1:]
    if len(text) > 2 and text[0] in AXES and text[1] == "=":
        try:
            return AXES.index(text[0]), float(text[2:])
        except ValueError:
            pass
    raise argparse.ArgumentTypeError(f"plane {text!r}: give xmin, zmax, z=0.005, ... ")


class PlaneSlice:
    """The node layers of the cells at a plane: ids[s, a, b] (point ids, a and b the two lattice
    directions in the layer), cells[s] (cell of layer s)."""

    def __init__(self, mesh, axis, where):
        coord = mesh.points[:, axis][mesh.ids]  # (cells, k, j, i)
        lo, hi = float(coord.min()), float(coord.max())
        tol = 1e-9 * max(hi - lo, abs(hi), abs(lo), 1e-300)
        self.value = lo if where == "min" else hi if where == "max" else float(where)
        if not lo - tol <= self.value <= hi + tol:
            raise VtuError(
                f"the plane {AXES[axis]} = {self.value:g} misses the mesh "
                f"({AXES[axis]} in [{lo:g}, {hi:g}])"
            )
        # in each cell, the lattice direction whose node layers are flattest in this coordinate
        layered = [np.moveaxis(coord, d, 1) for d in (1, 2, 3)]  # layer index on axis 1
        spread = np.stack([np.ptp(c, axis=(2, 3)).max(axis=1) for c in layered], axis=1)
        means = np.stack([c.mean(axis=(2, 3)) for c in layered], axis=1)  # (cells, 3, n+1)
        direction = np.argmin(spread, axis=1) + 1  # lattice axis of ids[cell, k, j, i]
        layer_pos = means[np.arange(coord.shape[0]), direction - 1]
        # a cell reaches the plane when it lies between its outer layers, curved ones included
        slack = tol + spread[np.arange(coord.shape[0]), direction - 1]
        reach = (layer_pos.min(axis=1) - slack <= self.value) & (
            self.value <= layer_pos.max(axis=1) + slack
        )
        cells = np.flatnonzero(reach)
        if cells.size == 0:
            raise VtuError(f"no element has a node layer near {AXES[axis]} = {self.value:g}")
        layer = np.argmin(np.abs(layer_pos[cells] - self.value), axis=1)
        self.cells = cells
        parts, order = [], []
        for d in (1, 2, 3):
            for index in range(mesh.n + 1):
                pick = np.flatnonzero((direction[cells] == d) & (layer == index))
                if pick.size:
                    parts.append(np.take(mesh.ids[cells[pick]], index, axis=d))
                    order.append(pick)
        order = np.concatenate(order)
        self.ids = np.concatenate(parts)[np.argsort(order, kind="stable")]
        self.axis = axis
        self.in_plane = [a for a in range(3) if a != axis]
        dist = np.abs(mesh.points[self.ids, axis] - self.value)
        self.max_distance = float(dist.max())
        self.flatness = float(spread[cells, direction[cells] - 1].max())


def equidistant_lagrange(n, m):
    """(m+1) x (n+1) matrix: the degree-n Lagrange polynomial through n+1 equidistant nodes,
    evaluated at m+1 equidistant points of the same interval."""
    nodes = np.linspace(-1.0, 1.0, n + 1)
    at = np.linspace(-1.0, 1.0, m + 1)
    basis = np.ones((m + 1, n + 1))
    for j in range(n + 1):
        for q in range(n + 1):
            if q != j:
                basis[:, j] *= (at - nodes[q]) / (nodes[j] - nodes[q])
    return basis


def resample(layers, n, subdivide):
    """layers (slices, n+1, n+1) -> (slices, s n+1, s n+1) through the Lagrange polynomial."""
    if subdivide <= 1:
        return layers
    basis = equidistant_lagrange(n, subdivide * n)
    return np.einsum("ai,sij,bj->sab", basis, layers, basis)


def quad_triangles(n_slices, m):
    """Two triangles per quad of an m x m node lattice, for every slice (nodes numbered
    s m^2 + a m + b)."""
    a, b = np.meshgrid(np.arange(m - 1), np.arange(m - 1), indexing="ij")
    corner = (a * m + b).ravel()
    local = np.concatenate(
        [
            np.stack([corner, corner + m, corner + m + 1], axis=1),
            np.stack([corner, corner + m + 1, corner + 1], axis=1),
        ]
    )
    base = (np.arange(n_slices) * m * m)[:, None, None]
    return (base + local[None, :, :]).reshape(-1, 3)


def outlines(u, v):
    """The boundary polygon of each slice's lattice: (slices, 4 (m-1), 2)."""
    m = u.shape[1]
    a = np.concatenate(
        [np.zeros(m - 1, int), np.arange(m - 1), np.full(m - 1, m - 1), np.arange(m - 1, 0, -1)]
    )
    b = np.concatenate(
        [np.arange(m - 1), np.full(m - 1, m - 1), np.arange(m - 1, 0, -1), np.zeros(m - 1, int)]
    )
    return np.stack([u[:, a, b], v[:, a, b]], axis=2)


# ------------------------------------------------------------------------------------------------
# Output


def need_matplotlib():
    if plt is None:
        sys.exit(
            f"plot_slice.py: drawing needs matplotlib ({sys.executable} has none; --no-plot "
            f"with --dump-csv works without it). {INSTALL_HINT}"
        )


def parse_floats(text, counts, what):
    try:
        values = [float(t) for t in text.split(",")]
    except ValueError:
        values = []
    if len(values) not in counts:
        raise argparse.ArgumentTypeError(
            f"{what} {text!r}: expected {' or '.join(map(str, counts))} comma-separated numbers"
        )
    return values


def write_csv(path, header, columns):
    table = np.column_stack(columns)
    np.savetxt(path, table, delimiter=",", header=",".join(header), comments="", fmt="%.17g")
    print(f"plot_slice.py: wrote {path} ({table.shape[0]} rows)")


def figure_for(u_range, v_range):
    """A figure whose axes fit the visible range at equal aspect."""
    width = 8.0
    du, dv = u_range[1] - u_range[0], v_range[1] - v_range[0]
    height = min(max(width * dv / du if du > 0 else width, 2.0), 12.0)
    fig, ax = plt.subplots(figsize=(width + 1.5, height + 1.0))
    return fig, ax


def add_colorbar(fig, ax, mappable, label):
    """A colorbar as tall as the (equal-aspect) axes."""
    cax = make_axes_locatable(ax).append_axes("right", size="3%", pad=0.15)
    fig.colorbar(mappable, cax=cax, label=label)


def contour_levels(values, count, vmin, vmax):
    lo = float(np.min(values)) if vmin is None else vmin
    hi = float(np.max(values)) if vmax is None else vmax
    if not hi > lo:
        pad = 1e-9 * max(abs(lo), 1.0)
        lo, hi = lo - pad, hi + pad
    return np.linspace(lo, hi, count + 1)


def finish_axes(fig, ax, args, plane, title, out):
    names = [AXES[a] for a in plane.in_plane]
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    ax.set_aspect("equal")
    if args.xlim:
        ax.set_xlim(args.xlim)
    if args.ylim:
        ax.set_ylim(args.ylim)
    ax.set_title(title)
    fig.savefig(out, dpi=args.dpi, bbox_inches="tight")
    plt.close(fig)
    print(f"plot_slice.py: wrote {out}")


def plot_plane(mesh, plane, args, out, title):
    need_matplotlib()
    n, s = mesh.n, max(args.subdivide, 1)
    u = resample(mesh.points[plane.ids, plane.in_plane[0]], n, s)
    v = resample(mesh.points[plane.ids, plane.in_plane[1]], n, s)
    fig, ax = figure_for(args.xlim or (u.min(), u.max()), args.ylim or (v.min(), v.max()))
    polygons = outlines(u, v)
    if args.alpha:
        alpha = mesh.cell_values("FV_alpha")[plane.cells]
        top = args.vmax if args.vmax is not None else max(float(alpha.max()), 1e-12)
        coll = PolyCollection(
            polygons, array=alpha, cmap=args.cmap, edgecolors="face", linewidths=0.2
        )
        coll.set_clim(args.vmin if args.vmin is not None else 0.0, top)
        ax.add_collection(coll)
        ax.autoscale_view()
        add_colorbar(fig, ax, coll, "FV_alpha (per element)")
    else:
        values = resample(mesh.point_values(args.var)[plane.ids], n, s)
        label = args.var
        if args.log:
            if np.any(values <= 0.0):
                raise VtuError(
                    f"--log: {args.var} has {int(np.sum(values <= 0))} values <= 0 on the plane"
                )
            values, label = np.log10(values), f"log10({args.var})"
        tri = Triangulation(u.ravel(), v.ravel(), quad_triangles(u.shape[0], u.shape[1]))
        levels = contour_levels(values, args.levels, args.vmin, args.vmax)
        if not args.no_fill:
            filled = ax.tricontourf(
                tri, values.ravel(), levels=levels, cmap=args.cmap, extend="both"
            )
            add_colorbar(fig, ax, filled, label)
        if args.contour_lines or args.no_fill:
            ax.tricontour(tri, values.ravel(), levels=levels, colors="k", linewidths=0.5)
    if args.mesh:
        ax.add_collection(
            PolyCollection(polygons, facecolors="none", edgecolors="0.5", linewidths=0.3)
        )
    if args.alpha_overlay:
        alpha = mesh.cell_values("FV_alpha")[plane.cells]
        hot = alpha > args.alpha_threshold
        ax.add_collection(
            PolyCollection(polygons[hot], facecolors="none", edgecolors="r", linewidths=0.6)
        )
        print(
            f"plot_slice.py: {int(hot.sum())} of {hot.size} elements with "
            f"FV_alpha > {args.alpha_threshold:g} outlined"
        )
    ax.set_xlim(u.min(), u.max())
    ax.set_ylim(v.min(), v.max())
    finish_axes(fig, ax, args, plane, title, out)


def read_reference(path):
    """Two columns (r, value) of a CSV; lines that are not two numbers (headers, '#') skipped."""
    rows = []
    try:
        with open(path) as f:
            for line in f:
                fields = (
                    line.replace(";", ",").split(",")
                    if "," in line or ";" in line
                    else line.split()
                )
                try:
                    rows.append([float(fields[0]), float(fields[1])])
                except (ValueError, IndexError):
                    continue
    except OSError as err:
        sys.exit(f"plot_slice.py: cannot read the reference {path}: {err.strerror}")
    if len(rows) < 2:
        sys.exit(f"plot_slice.py: {path}: fewer than two lines of 'r, value'")
    table = np.array(rows)
    return table[np.argsort(table[:, 0], kind="stable")]


def radial(mesh, ids, args, out, title):
    centre = np.array(args.center + [0.0] * (3 - len(args.center)))
    dims = len(args.center)
    x = mesh.points[ids]
    r = np.sqrt(np.sum((x[:, :dims] - centre[:dims]) ** 2, axis=1))
    values = mesh.point_values(args.var)[ids]
    if args.dump_csv:
        write_csv(
            args.dump_csv, ["x", "y", "z", "r", args.var], [x[:, 0], x[:, 1], x[:, 2], r, values]
        )
    if args.no_plot:
        return
    need_matplotlib()
    fig, ax = plt.subplots(figsize=(8, 5))
    ax.plot(r, values, ".", ms=3, color="C0", label=f"hexdg ({r.size} nodes)")
    if args.ref:
        ref = read_reference(args.ref)
        ax.plot(
            ref[:, 0], ref[:, 1], "k-", lw=1.2, label=args.ref_label or os.path.basename(args.ref)
        )
    if args.log:
        ax.set_yscale("log")
    ax.set_xlabel("r = |x - c|" if dims == 3 else "r = |(x, y) - (c_x, c_y)|")
    ax.set_ylabel(args.var)
    if args.xlim:
        ax.set_xlim(args.xlim)
    if args.ylim:
        ax.set_ylim(args.ylim)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title(title)
    fig.savefig(out, dpi=args.dpi, bbox_inches="tight")
    plt.close(fig)
    print(f"plot_slice.py: wrote {out}")


def default_output(args):
    stem = os.path.splitext(os.path.basename(args.vtu))[0]
    what = "FV_alpha" if args.alpha else args.var
    return f"{stem}_{what}{'_radial' if args.radial else ''}.png"


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog="Negative numbers in comma lists need '=': --center=-0.5,0. See docs/output.md.",
    )
    parser.add_argument("vtu", help="a .vtu written by hexdg")
    parser.add_argument("--var", default="Density", help="point data to show (default Density)")
    parser.add_argument(
        "--plane",
        type=parse_plane,
        help="xmin|xmax|ymin|ymax|zmin|zmax or x=V|y=V|z=V: the node layer of each element "
        "nearest to that plane (default zmin; radial mode: all nodes)",
    )
    parser.add_argument("--levels", type=int, default=30, help="contour levels (default 30)")
    parser.add_argument("--vmin", type=float, help="lowest level (default: data minimum)")
    parser.add_argument("--vmax", type=float, help="highest level (default: data maximum)")
    parser.add_argument(
        "--log", action="store_true", help="contours of log10(var); radial: log axis"
    )
    parser.add_argument(
        "--contour-lines", action="store_true", help="draw black contour lines on the fill"
    )
    parser.add_argument("--no-fill", action="store_true", help="contour lines only")
    parser.add_argument("--mesh", action="store_true", help="draw the element outlines")
    parser.add_argument(
        "--subdivide",
        type=int,
        default=1,
        metavar="S",
        help="resample each element face at S*NVisu+1 points per direction through "
        "its Lagrange polynomial (smoother smooth fields; default 1: the file's nodes)",
    )
    parser.add_argument("--cmap", default="viridis", help="matplotlib colormap (default viridis)")
    parser.add_argument(
        "--alpha", action="store_true", help="plot the cell data FV_alpha per element"
    )
    parser.add_argument(
        "--alpha-overlay",
        action="store_true",
        help="outline the elements with FV_alpha > --alpha-threshold in red",
    )
    parser.add_argument(
        "--alpha-threshold", type=float, default=0.0, help="for --alpha-overlay (default 0)"
    )
    parser.add_argument(
        "--radial", action="store_true", help="var against the distance from --center"
    )
    parser.add_argument(
        "--center",
        type=lambda t: parse_floats(t, (2, 3), "--center"),
        default=None,
        help="X,Y (distance in the x-y plane) or X,Y,Z (radial mode)",
    )
    parser.add_argument("--ref", help="radial mode: reference curve, CSV of r, value")
    parser.add_argument("--ref-label", help="legend entry of --ref (default: its file name)")
    parser.add_argument("--xlim", type=float, nargs=2, metavar=("X0", "X1"))
    parser.add_argument("--ylim", type=float, nargs=2, metavar=("Y0", "Y1"))
    parser.add_argument("--title", help="default: variable, plane and time")
    parser.add_argument("--dpi", type=int, default=150)
    parser.add_argument("--kappa", type=float, default=1.4,
                        help="ratio of specific heats of the derived --var Mach (default 1.4)")
    parser.add_argument("-o", "--output", help="PNG file (default: <vtu name>_<var>.png)")
    parser.add_argument(
        "--dump-csv",
        metavar="CSV",
        help="write the sampled nodes: elem,x,y,z,value (plane; --alpha: one row "
        "per element at its face centre) or x,y,z,r,value (radial)",
    )
    parser.add_argument("--no-plot", action="store_true", help="no PNG (with --dump-csv)")
    args = parser.parse_args()
    if args.radial and args.center is None:
        parser.error("--radial needs --center X,Y[,Z]")
    if args.radial and args.alpha:
        parser.error("--radial and --alpha do not go together")
    if args.levels < 1:
        parser.error("--levels must be at least 1")
    if args.alpha:
        args.var = "FV_alpha"

    try:
        mesh = LagrangeMesh(VtuFile(args.vtu))
        mesh.kappa = args.kappa
        if not args.alpha:
            if args.var not in LagrangeMesh.DERIVED:
                mesh.require("PointData", args.var)
        if args.alpha or args.alpha_overlay:
            mesh.require("CellData", "FV_alpha")
        time = mesh.vtu.time
        t_text = f", t = {time:.6g}" if time is not None else ""
        out = args.output or default_output(args)
        if args.radial:
            ids = PlaneSlice(mesh, *args.plane).ids.ravel() if args.plane else np.unique(mesh.ids)
            radial(mesh, ids, args, out, args.title or f"{args.var}{t_text}")
            return
        axis, where = args.plane or (2, "min")
        plane = PlaneSlice(mesh, axis, where)
        print(
            f"plot_slice.py: {args.vtu}: {mesh.vtu.n_cells} cells of degree {mesh.n}{t_text}; "
            f"{AXES[axis]} = {plane.value:g}: {plane.cells.size} elements, {plane.ids.size} nodes, "
            f"nodes at most {plane.max_distance:.3g} off the plane"
        )
        if plane.flatness > 1e-6 * max(np.ptp(mesh.points[:, axis]), 1e-300):
            print(
                f"plot_slice.py: note: the node layers of some elements are not flat in "
                f"{AXES[axis]} (spread {plane.flatness:.3g}): the picture is their projection"
            )
        if args.dump_csv:
            x = mesh.points[plane.ids]
            elem = np.repeat(plane.cells, plane.ids[0].size)
            if args.alpha:
                centre = x.reshape(plane.cells.size, -1, 3).mean(axis=1)
                alpha = mesh.cell_values("FV_alpha")[plane.cells]
                write_csv(
                    args.dump_csv,
                    ["elem", "x", "y", "z", "FV_alpha"],
                    [plane.cells, centre[:, 0], centre[:, 1], centre[:, 2], alpha],
                )
            else:
                values = mesh.point_values(args.var)[plane.ids].ravel()
                x = x.reshape(-1, 3)
                write_csv(
                    args.dump_csv,
                    ["elem", "x", "y", "z", args.var],
                    [elem, x[:, 0], x[:, 1], x[:, 2], values],
                )
        if not args.no_plot:
            plane_text = f"{AXES[axis]} = {plane.value:g}"
            plot_plane(mesh, plane, args, out, args.title or f"{args.var}, {plane_text}{t_text}")
    except VtuError as err:
        sys.exit(f"plot_slice.py: {args.vtu}: {err}")


if __name__ == "__main__":
    main()
