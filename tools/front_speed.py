#!/usr/bin/env python3
"""Lead-front position and speed of a (quasi) 1-D run from hexdg/FLEXI state files.

usage: front_speed.py [--ini case.ini] [--hexdg PATH] [--var pressure|density] [--direction x]
                      [--threshold 0.5] [--kappa 1.4] [--window L] [--skip-first K] [--tmin T]
                      [--min-y 1e-12] [--near 3] [--plot PNG] [--reference D]
                      state1.h5 state2.h5 ... ('run_State_*.h5' glob patterns too)

For every state file: the largest coordinate (along --direction) where the y,z-averaged variable
rises above its ambient value (the value at the far end of the domain, ahead of the front) by
--threshold of the jump (max - ambient); the crossing is found by linear interpolation between
the node positions. Prints one line `time position` per file (in time order), then the checks
of a detonation run (below), then fits position = x0 + D t by least squares over the files with
t >= --tmin that --skip-first leaves, prints the fit (x0, D and the rms residual) and, as the
last line, `front_speed D` (%.6g, in the units of the files: m/s for SI runs).

Checks (three lines before the fit; they do not change the exit status):
  nan ...                 non-finite values in DG_Solution, over all files;
  min_mass_fraction ...   the least Y_k = rho_k / rho over all nodes of all files, with species,
                          time and position: ok if >= -EPS (--min-y, default 1e-12), else FAIL;
                          `none` for air files;
  fv_alpha ...            in the files of the fit: how many elements are FV-blended
                          (FV_alpha > 0, the dataset hexdg writes with IndicatorType != none) and
                          where: the share within --near element widths of the front, the
                          farthest behind and ahead. Files without FV_alpha: the same for the
                          nodes where |d var/dx| > 0.1 of its maximum.

Variable: pressure p = (kappa-1)(rhoE - |m|^2/(2 rho)) for air files (nVar = 5), density for
reacting files (nVar > 5: the pressure needs the mixture's thermodynamics).

Node positions: the mesh's NodeCoords (HOPR file, Ngeo+1 equidistant nodes per direction and
element) are interpolated with Lagrange polynomials to the state's N+1 GAUSS or GAUSS-LOBATTO
nodes, which is exact for straight-sided and curved elements alike. The mesh is the state's
MeshFile when that is an existing HOPR file (looked for as given, next to the state file and next
to --ini); otherwise (built-in box, gmsh file, MeshRefine) the mesh is written with `hexdg mesh`
from the parameters of --ini. Details: docs/detonation.md.

Needs numpy and h5py; if the running Python lacks them, the script re-runs itself with
/usr/bin/python3.
"""
import argparse
import ast
import glob
import math
import operator
import os
import re
import shutil
import subprocess
import sys
import tempfile

REEXEC_GUARD = "HEXDG_FRONT_SPEED_REEXEC"
PROG = "front_speed.py"

try:
    import h5py
    import numpy as np
except ImportError:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from system_python import rerun_or_exit

    rerun_or_exit(REEXEC_GUARD, f"{PROG}: needs numpy and h5py (pip install numpy h5py)")

N_CONSERVATIVE = 5  # Density, MomentumX/Y/Z, EnergyStagnationDensity


def fail(message):
    sys.exit(f"{PROG}: {message}")


def as_text(value):
    """Attribute value -> text; FLEXI strings are blank-padded bytes, stored as 1-element arrays."""
    if isinstance(value, np.ndarray):
        items = [as_text(v) for v in value.ravel()]
        return items[0] if len(items) == 1 else items
    if isinstance(value, bytes):
        return value.decode("ascii", errors="replace").rstrip(" \0")
    if isinstance(value, str):
        return value.rstrip(" \0")
    return value


def as_number(value):
    return np.asarray(value).ravel()[0].item()


# ---------------------------------------------------------------------------------------------
# State files


class State:
    def __init__(self, path):
        self.path = path
        if not os.path.exists(path):
            fail(f"{path}: no such file")
        try:
            f = h5py.File(path, "r")
        except OSError as err:
            fail(f"{path}: not an HDF5 file ({err})")
        with f:
            file_type = as_text(f.attrs.get("File_Type", b""))
            if file_type != "State":
                fail(f"{path}: not a State file (File_Type is '{file_type or 'missing'}', "
                     "expected 'State')")
            for name in ("N", "Time", "NodeType"):
                if name not in f.attrs:
                    fail(f"{path}: attribute {name} is missing (not a hexdg/FLEXI state file?)")
            if "DG_Solution" not in f:
                fail(f"{path}: dataset DG_Solution is missing")
            self.N = int(as_number(f.attrs["N"]))
            self.time = float(as_number(f.attrs["Time"]))
            self.node_type = str(as_text(f.attrs["NodeType"])).upper()
            self.mesh_file = str(as_text(f.attrs.get("MeshFile", b"")))
            names = as_text(f.attrs.get("VarNames", np.array([], dtype="S1")))
            self.var_names = [names] if isinstance(names, str) else list(names)
            dset = f["DG_Solution"]
            n = self.N + 1
            if dset.ndim != 5 or tuple(dset.shape[1:4]) != (n, n, n):
                fail(f"{path}: DG_Solution has shape {dset.shape}, expected (nElems, {n}, {n}, {n}, "
                     f"nVar) for N = {self.N}")
            self.n_elems, self.n_var = int(dset.shape[0]), int(dset.shape[4])
            if self.n_var < N_CONSERVATIVE:
                fail(f"{path}: DG_Solution has {self.n_var} variables, expected at least "
                     f"{N_CONSERVATIVE} (Density, Momentum, Energy)")
            self._dset_path = path
        if self.node_type not in ("GAUSS", "GAUSS-LOBATTO"):
            fail(f"{path}: NodeType '{self.node_type}' is neither GAUSS nor GAUSS-LOBATTO")

    def check_data(self):
        """(DG_Solution as float array, FV_alpha per element or None) for the checks."""
        with h5py.File(self._dset_path, "r") as f:
            u = np.asarray(f["DG_Solution"][...], dtype=float)
            alpha = None
            if "FV_alpha" in f:
                a = np.asarray(f["FV_alpha"][...], dtype=float).ravel()
                if a.size == self.n_elems:
                    alpha = a
        return u, alpha

    def field(self, var, kappa):
        """The variable at all nodes, shape (nElems, N+1, N+1, N+1)."""
        with h5py.File(self._dset_path, "r") as f:
            u = f["DG_Solution"]
            rho = np.asarray(u[..., 0], dtype=float)
            if var == "density":
                return rho
            m = np.asarray(u[..., 1:4], dtype=float)
            energy = np.asarray(u[..., 4], dtype=float)
        return (kappa - 1.0) * (energy - 0.5 * np.sum(m * m, axis=-1) / rho)


# ---------------------------------------------------------------------------------------------
# Parameter files (FLEXI syntax: Key = value, ! comments, (/a,b,c/) arrays, T/F, pi, 1.d-3)

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg}


def eval_real(text, where):
    """A real parameter value as hexdg evaluates it: numbers, pi, + - * / and parentheses."""
    expr = re.sub(r"(?<=[0-9.])[dD](?=[+-]?[0-9])", "e", text.strip())

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return float(node.value)
        if isinstance(node, ast.Name) and node.id.lower() == "pi":
            return math.pi
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return _BINARY[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _UNARY[type(node.op)](ev(node.operand))
        raise ValueError

    try:
        return ev(ast.parse(expr, mode="eval"))
    except (SyntaxError, ValueError, ZeroDivisionError):
        fail(f"{where}: '{text}' is not a number")


def parse_logical(text, where):
    t = text.strip().lower()
    if t in ("t", "true", ".true.", ".t."):
        return True
    if t in ("f", "false", ".false.", ".f."):
        return False
    fail(f"{where}: '{text}' is not a logical (T/F)")


class Ini:
    """The values of a parameter file, by lower-case key (a list per key: keys may repeat)."""

    def __init__(self, path):
        self.path = path
        if not os.path.isfile(path):
            fail(f"--ini {path}: no such file")
        self.values = {}
        with open(path, encoding="utf-8", errors="replace") as f:
            for line_no, line in enumerate(f, 1):
                line = line.split("!", 1)[0].strip()
                if not line or "=" not in line:
                    continue
                key, value = line.split("=", 1)
                self.values.setdefault(key.strip().lower(), []).append(
                    (value.strip(), f"{path}:{line_no}"))

    def has(self, key):
        return key.lower() in self.values

    def text(self, key, default=None):
        entries = self.values.get(key.lower())
        return entries[0] if entries else (default, f"{self.path} (default of {key})")

    def all_texts(self, key):
        return [v for v, _ in self.values.get(key.lower(), [])]

    def array(self, key, n, default, convert):
        text, where = self.text(key, default)
        t = text.strip()
        if not (t.startswith("(/") and t.endswith("/)")):
            fail(f"{where}: {key} = '{text}' is not an array (/ a, b, c /)")
        entries = [e.strip() for e in t[2:-2].split(",")]
        if len(entries) != n:
            fail(f"{where}: {key} has {len(entries)} entries, expected {n}")
        return [convert(e, where) for e in entries]

    def integer(self, key, default):
        text, where = self.text(key, default)
        try:
            return int(text)
        except ValueError:
            fail(f"{where}: {key} = '{text}' is not an integer")

    def real(self, key, default):
        text, where = self.text(key, default)
        return eval_real(text, where)


def to_int(text, where):
    try:
        return int(text)
    except ValueError:
        fail(f"{where}: '{text}' is not an integer")


# ---------------------------------------------------------------------------------------------
# Meshes


def find_hexdg(option):
    if option:
        if not (os.path.isfile(option) and os.access(option, os.X_OK)):
            fail(f"--hexdg {option}: not an executable file")
        return option
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    default = os.path.join(repo, "build", "hexdg")
    if os.path.isfile(default) and os.access(default, os.X_OK):
        return default
    found = shutil.which("hexdg")
    if found:
        return found
    fail(f"the mesh must be written with `hexdg mesh`, but there is no {default} and no hexdg "
         "on PATH: give --hexdg PATH")


def is_hopr_mesh(path):
    try:
        with h5py.File(path, "r") as f:
            return "NodeCoords" in f and "ElemInfo" in f and "Ngeo" in f.attrs
    except OSError:
        return False


def refine_levels(n_state, n_mesh):
    """L with n_state = n_mesh * 8^L, or None."""
    levels, n = 0, n_mesh
    while n < n_state:
        n, levels = n * 8, levels + 1
    return levels if n == n_state else None


class MeshMaker:
    """Finds or writes (with hexdg mesh) the HOPR mesh of a state; caches by what it needs."""

    def __init__(self, args):
        self.args = args
        self.ini = Ini(args.ini) if args.ini else None
        self.tmp = None
        self.cache = {}

    def _tmpdir(self):
        if self.tmp is None:
            self.tmp = tempfile.TemporaryDirectory(prefix="front_speed_")
        return self.tmp.name

    def _hexdg(self, argv, why):
        exe = find_hexdg(self.args.hexdg)
        cmd = [exe, "mesh"] + argv
        if self.args.verbose:
            print(f"# {why}: {' '.join(cmd)}", file=sys.stderr)
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            fail(f"{why}: `{' '.join(cmd)}` failed (exit {run.returncode}):\n"
                 f"{(run.stdout + run.stderr).strip()}")
        return argv[argv.index("-o") + 1]

    def _candidates(self, name, state_path):
        if not name:
            return []
        if os.path.isabs(name):
            return [name]
        dirs = ["", os.path.dirname(os.path.abspath(state_path))]
        if self.ini:
            dirs.append(os.path.dirname(os.path.abspath(self.ini.path)))
        return [os.path.join(d, name) for d in dirs]

    def _box(self):
        ini = self.ini
        elems = ini.array("BoxElems", 3, "(/4,4,4/)", to_int)
        lower = ini.array("BoxLower", 3, "(/-1.,-1.,-1./)", eval_real)
        upper = ini.array("BoxUpper", 3, "(/1.,1.,1./)", eval_real)
        periodic = ini.array("BoxPeriodic", 3, "(/T,T,T/)", parse_logical)
        ngeo = ini.integer("NGeo", "1")
        curving = ini.real("BoxCurving", "0.")
        out = os.path.join(self._tmpdir(), f"box{len(self.cache)}_mesh.h5")
        argv = ["box", "--elems", ",".join(str(n) for n in elems),
                "--lower", ",".join(repr(v) for v in lower),
                "--upper", ",".join(repr(v) for v in upper),
                "--periodic", ",".join("T" if p else "F" for p in periodic),
                "--NGeo", str(ngeo), "--curving", repr(curving)]
        for split in ini.all_texts("BoxSplitBC"):
            argv += ["--split", split]
        return self._hexdg(argv + ["-o", out], f"built-in box of {ini.path}")

    def _refine(self, path, levels, why):
        if levels == 0:
            return path
        out = os.path.join(self._tmpdir(), f"refined{len(self.cache)}_mesh.h5")
        return self._hexdg(["refine", path, "--levels", str(levels), "-o", out], why)

    def _mesh_path(self, state):
        """The HOPR file whose element order and geometry are those of the state."""
        ini = self.ini
        name = state.mesh_file
        found = next((c for c in self._candidates(name, state.path)
                      if name.lower() != "box" and os.path.isfile(c)), None)
        if found is None and ini and name.lower() != "box":
            # the state's mesh is not where it was: take the parameter file's
            ini_name = ini.text("MeshFile", "")[0]
            if ini_name.lower() == "box":
                name = "box"
            else:
                found = next((c for c in self._candidates(ini_name, state.path)
                              if os.path.isfile(c)), None)
        levels = ini.integer("MeshRefine", "0") if ini else None
        if found is None:
            if name.lower() != "box":
                fail(f"{state.path}: its mesh '{name}' is not found (looked for "
                     f"{', '.join(self._candidates(name, state.path)) or 'nothing'})"
                     + ("" if ini else "; give --ini case.ini"))
            if not ini:
                fail(f"{state.path}: computed on the built-in box (MeshFile = box): give the "
                     "parameter file with --ini case.ini so that `hexdg mesh box` can write the mesh")
            return self._refine(self._box(), levels, f"MeshRefine = {levels} of {ini.path}")
        if found.lower().endswith(".msh"):
            out = os.path.join(self._tmpdir(), f"gmsh{len(self.cache)}_mesh.h5")
            argv = ["import", found] + (["--refine", str(levels)] if levels else []) + ["-o", out]
            return self._hexdg(argv, f"gmsh mesh {found}")
        if not is_hopr_mesh(found):
            fail(f"{state.path}: its mesh {found} is not a HOPR mesh file (no NodeCoords/ElemInfo/Ngeo)")
        if levels is None:  # no parameter file: MeshRefine from the element counts
            with h5py.File(found, "r") as f:
                n_mesh = int(f["ElemInfo"].shape[0])
            levels = refine_levels(state.n_elems, n_mesh)
            if levels is None:
                fail(f"{state.path}: {state.n_elems} elements, but its mesh {found} has {n_mesh} "
                     "(nor is it 8^L times as many: MeshRefine); give the right --ini")
        return self._refine(found, levels, f"MeshRefine = {levels} of {found}")

    def coordinate(self, state, axis):
        """Coordinate `axis` of every solution node, shape (nElems, N+1, N+1, N+1)."""
        key = (state.mesh_file, state.n_elems, state.N, state.node_type, axis)
        if key not in self.cache:
            path = self._mesh_path(state)
            self.cache[key] = node_coordinate(path, state, axis)
        return self.cache[key]

    def close(self):
        if self.tmp is not None:
            self.tmp.cleanup()


def solution_nodes(N, node_type):
    """The N+1 volume nodes of the DG basis on [-1, 1]."""
    if node_type == "GAUSS":
        return np.polynomial.legendre.leggauss(N + 1)[0]
    if N == 0:
        return np.array([0.0])
    inner = np.polynomial.legendre.Legendre.basis(N).deriv().roots() if N > 1 else np.array([])
    return np.concatenate(([-1.0], np.sort(np.real(inner)), [1.0]))


def lagrange_matrix(x_from, x_to):
    """V[a, b] = l_b(x_to[a]), the Lagrange polynomials of the nodes x_from."""
    V = np.ones((len(x_to), len(x_from)))
    for b, xb in enumerate(x_from):
        for m, xm in enumerate(x_from):
            if m != b:
                V[:, b] *= (x_to - xm) / (xb - xm)
    return V


def node_coordinate(mesh_path, state, axis):
    with h5py.File(mesh_path, "r") as f:
        ngeo = int(as_number(f.attrs["Ngeo"]))
        elem_info = np.asarray(f["ElemInfo"][...])
        coords = f["NodeCoords"]
        n_mesh = elem_info.shape[0]
        if n_mesh != state.n_elems:
            fail(f"{state.path}: {state.n_elems} elements, but the mesh {mesh_path} has {n_mesh}; "
                 "give the run's parameter file with --ini")
        ng = ngeo + 1
        first = elem_info[:, 4].astype(np.int64)
        if np.any(elem_info[:, 5] - first != ng ** 3):
            fail(f"mesh {mesh_path}: elements without (Ngeo+1)^3 = {ng ** 3} nodes (not hexahedra?)")
        x = np.asarray(coords[:, axis], dtype=float)
    geo = x[first[:, None] + np.arange(ng ** 3)[None, :]].reshape(n_mesh, ng, ng, ng)  # e, k, j, i
    V = lagrange_matrix(np.linspace(-1.0, 1.0, ng), solution_nodes(state.N, state.node_type))
    return np.einsum("ac,bd,ef,zcdf->zabe", V, V, V, geo, optimize=True)


# ---------------------------------------------------------------------------------------------
# The front


def profile(x, value, length):
    """Nodes with the same coordinate (to 1e-9 of the domain length) averaged: the y,z mean."""
    order = np.argsort(x.ravel(), kind="stable")
    xs, vs = x.ravel()[order], value.ravel()[order]
    starts = np.concatenate(([0], np.nonzero(np.diff(xs) > 1e-9 * length)[0] + 1))
    counts = np.diff(np.append(starts, xs.size))
    return np.add.reduceat(xs, starts) / counts, np.add.reduceat(vs, starts) / counts


def front_position(xs, vs, threshold, window):
    """Largest x where vs crosses ambient + threshold * (max - ambient), or (nan, why)."""
    if not np.all(np.isfinite(vs)):
        return math.nan, f"{np.count_nonzero(~np.isfinite(vs))} non-finite values in the profile"
    ambient = vs[-1]
    high = vs.max()
    if window is not None:
        above = np.nonzero(vs - ambient > 0.05 * (high - ambient))[0]
        if above.size:
            high = vs[xs >= xs[above[-1]] - window].max()
    jump = high - ambient
    if not (jump > 1e-12 * max(abs(high), abs(ambient), 1e-300)):
        return math.nan, f"no rise above the ambient value {ambient:.6g}"
    level = ambient + threshold * jump
    i = np.nonzero(vs >= level)[0][-1]  # vs[-1] = ambient < level, so i < len - 1
    return xs[i] + (level - vs[i]) / (vs[i + 1] - vs[i]) * (xs[i + 1] - xs[i]), None


# ---------------------------------------------------------------------------------------------
# The other checks of a detonation run: mass fractions, NaN, where the FV blending acts


class FileChecks:
    """What one state file says besides its front: non-finite values, the least mass fraction,
    and the extent (along the direction) of the FV-blended elements, or of the steep gradients
    when the file has no FV_alpha."""

    def __init__(self, state, x, xs, vs):
        u, alpha = state.check_data()
        self.time = state.time
        self.n_nonfinite = int(np.count_nonzero(~np.isfinite(u)))
        self.min_y = None  # (value, species, coordinate)
        if state.n_var > N_CONSERVATIVE:
            with np.errstate(divide="ignore", invalid="ignore"):
                y = u[..., N_CONSERVATIVE:] / u[..., :1]
            y = np.where(np.isfinite(y), y, np.inf)
            k = int(np.argmin(y))
            e, c, b, a, sp = np.unravel_index(k, y.shape)
            names = state.var_names[N_CONSERVATIVE:] if len(state.var_names) == state.n_var \
                else [f"species {i}" for i in range(state.n_var - N_CONSERVATIVE)]
            name = re.sub(r"^PartialDensity_", "Y_", str(names[sp]))
            self.min_y = (float(y.flat[k]), name, float(x[e, c, b, a]))
        self.has_alpha = alpha is not None
        if self.has_alpha:
            flat = x.reshape(x.shape[0], -1)
            lo, hi = flat.min(axis=1), flat.max(axis=1)
            self.width = float(np.median(hi - lo))
            on = alpha > 0.0
            self.max_alpha = float(alpha.max()) if alpha.size else 0.0
            self.spans = np.stack([lo[on], hi[on]], axis=1)  # blended elements: [lo, hi]
            self.weights = alpha[on]
        else:  # the nodes where |d var/dx| exceeds 10 % of its largest value in this file
            self.width = float(np.median(np.diff(xs))) if xs.size > 1 else 0.0
            self.max_alpha = None
            if xs.size > 2:
                g = np.abs(np.gradient(vs, xs))
                steep = xs[g > 0.1 * g.max()] if g.max() > 0.0 else xs[:0]
            else:
                steep = xs[:0]
            self.spans = np.stack([steep, steep], axis=1)
            self.weights = np.ones(len(steep))


def report_checks(rows, checks, fit_index, args):
    """Prints the lines of the checks (before the fit): NaN, least mass fraction, FV blending."""
    n = len(checks)
    bad = [(s, c) for (s, _), c in zip(rows, checks) if c.n_nonfinite]
    if bad:
        print(f"nan FAIL: {sum(c.n_nonfinite for _, c in bad)} non-finite values in {len(bad)} of "
              f"the {n} files (first t = {bad[0][0].time:.6g}, {bad[0][0].path})")
    else:
        print(f"nan none in the {n} files")
    with_y = [c for c in checks if c.min_y is not None]
    if with_y:
        c = min(with_y, key=lambda c: c.min_y[0])
        value, name, where = c.min_y
        verdict = "ok" if value >= -args.min_y else "FAIL"
        print(f"min_mass_fraction {value:.3e} ({name}, t = {c.time:.6g}, {args.direction} = "
              f"{where:.6g}) over the {len(with_y)} files: {verdict} (limit -{args.min_y:g})")
    else:
        print(f"min_mass_fraction none: no species in the files (nVar = {N_CONSERVATIVE})")
    fit = [(rows[i][1], checks[i]) for i in fit_index]
    if not fit:
        return
    has_alpha = all(c.has_alpha for _, c in fit)
    what = "blended elements (FV_alpha > 0)" if has_alpha else \
        "nodes of steep gradients (|d/dx| > 0.1 max)"
    counts = [len(c.spans) for _, c in fit]
    total = sum(counts)
    head = "fv_alpha" if has_alpha else "fv_alpha not in the files (IndicatorType = none?); steep"
    if total == 0:
        print(f"{head}: no {what} in the {len(fit)} file(s) of the fit")
        return
    behind = max((pos - c.spans[:, 0].min(), c.time) for pos, c in fit if len(c.spans))
    ahead = max((c.spans[:, 1].max() - pos, c.time) for pos, c in fit if len(c.spans))
    width = float(np.median([c.width for _, c in fit]))
    near, weight_near, weight = 0, 0.0, 0.0
    for pos, c in fit:
        reach = args.near * width
        inside = (pos - c.spans[:, 0] <= reach) & (c.spans[:, 1] - pos <= reach)
        near += int(np.count_nonzero(inside))
        weight_near += float(c.weights[inside].sum())
        weight += float(c.weights.sum())
    share = f" ({100.0 * weight_near / weight:.0f} % of the summed FV_alpha)" if has_alpha else ""
    alpha = f", max alpha {max(c.max_alpha for _, c in fit):.3g}" if has_alpha else ""
    unit = "element widths" if has_alpha else "node spacings"
    files = "the file" if len(fit) == 1 else f"the {len(fit)} files"
    print(f"{head}: in {files} of the fit {min(counts)}..{max(counts)} {what} per "
          f"file{alpha}; {100.0 * near / total:.0f} % of them{share} within {args.near:g} {unit} "
          f"({args.near * width:.3g}) of the front; farthest {behind[0]:.3g} behind it (t = "
          f"{behind[1]:.6g}), {ahead[0]:.3g} ahead (t = {ahead[1]:.6g})")


def plot(path, rows, profiles, fit_index, x0, speed, args, var):
    """PNG: front position against time with the fit, the speed between successive files, and the
    profiles of the front's variable (up to 8 files, evenly spread)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"{PROG}: --plot {path}: matplotlib is missing; no plot", file=sys.stderr)
        return
    t = np.array([s.time for s, _ in rows])
    pos = np.array([p for _, p in rows])
    fig, ax = plt.subplots(1, 3, figsize=(13.5, 3.8))
    ax[0].plot(t, pos, "o", ms=3, color="0.6", label="front")
    ax[0].plot(t[fit_index], pos[fit_index], "o", ms=3, color="C0", label="fitted")
    tf = np.array([t[fit_index].min(), t[fit_index].max()])
    ax[0].plot(tf, x0 + speed * tf, "-", color="C3", lw=1, label=f"fit D = {speed:.5g}")
    ax[0].set_xlabel("t")
    ax[0].set_ylabel("front position")
    ax[0].legend(fontsize=8)
    ok = np.isfinite(pos)
    tm = 0.5 * (t[ok][1:] + t[ok][:-1])
    ax[1].plot(tm, np.diff(pos[ok]) / np.diff(t[ok]), ".-", lw=0.8, label="between files")
    ax[1].axhline(speed, color="C3", lw=1, label=f"fit {speed:.5g}")
    if args.reference is not None:
        ax[1].axhline(args.reference, color="k", ls="--", lw=1,
                      label=f"reference {args.reference:.5g}")
    lo = min(speed, args.reference if args.reference is not None else speed)
    hi = max(speed, args.reference if args.reference is not None else speed)
    ax[1].set_ylim(lo - 0.08 * abs(hi), hi + 0.08 * abs(hi))
    ax[1].set_xlabel("t")
    ax[1].set_ylabel("front speed")
    ax[1].legend(fontsize=8)
    pick = np.unique(np.linspace(0, len(rows) - 1, min(8, len(rows))).round().astype(int))
    for i in pick:
        xs, vs = profiles[i]
        ax[2].plot(xs, vs, lw=0.8, label=f"t = {rows[i][0].time:.3g}")
    ax[2].set_xlabel(args.direction)
    ax[2].set_ylabel(var)
    ax[2].legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=args.dpi)
    print(f"{PROG}: wrote {path}", file=sys.stderr)


def expand(patterns):
    files = []
    for pattern in patterns:
        if any(c in pattern for c in "*?["):
            matches = sorted(glob.glob(pattern))
            if not matches:
                fail(f"{pattern}: no file matches")
            files += matches
        else:
            files.append(pattern)
    return files


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.splitlines()[5:]))
    ap.add_argument("files", nargs="+", help="state files or glob patterns")
    ap.add_argument("--ini", help="the run's parameter file (needed for MeshFile = box)")
    ap.add_argument("--hexdg", help="hexdg executable for `hexdg mesh` (default: build/hexdg, "
                    "then hexdg on PATH)")
    ap.add_argument("--var", choices=("pressure", "density"),
                    help="variable whose jump marks the front (default: pressure for nVar = 5, "
                    "density for reacting files)")
    ap.add_argument("--direction", choices=("x", "y", "z"), default="x",
                    help="direction of propagation (default x); the front moves to larger values")
    ap.add_argument("--threshold", type=float, default=0.5,
                    help="fraction of the jump (max - ambient) that marks the front (default 0.5)")
    ap.add_argument("--kappa", type=float, help="ratio of specific heats for the pressure "
                    "(default: kappa of --ini, else 1.4)")
    ap.add_argument("--window", type=float, help="take the max only over this length behind the "
                    "first rise above the ambient value (default: the whole domain)")
    ap.add_argument("--skip-first", type=int, default=0, metavar="K",
                    help="leave the K earliest files out of the fit")
    ap.add_argument("--tmin", type=float, help="fit only the files with time >= TMIN (to 1e-9 "
                    "relative)")
    ap.add_argument("--min-y", type=float, default=1e-12, metavar="EPS",
                    help="the mass-fraction check fails below -EPS (default 1e-12)")
    ap.add_argument("--near", type=float, default=3.0, metavar="K",
                    help="count the blended elements within K element widths of the front "
                    "(node spacings for the steep gradients of files without FV_alpha; "
                    "default 3)")
    ap.add_argument("--plot", metavar="PNG", help="draw the front positions, the speeds between "
                    "files and the profiles into PNG (needs matplotlib)")
    ap.add_argument("--reference", type=float, metavar="D",
                    help="a reference speed (e.g. D_CJ) drawn in the plot")
    ap.add_argument("--dpi", type=int, default=100, help="resolution of --plot (default 100)")
    ap.add_argument("-v", "--verbose", action="store_true", help="say how the mesh is found")
    args = ap.parse_args()
    if not 0.0 < args.threshold < 1.0:
        fail(f"--threshold {args.threshold}: must lie strictly between 0 and 1")
    if args.skip_first < 0:
        fail(f"--skip-first {args.skip_first}: must be >= 0")
    if args.window is not None and not args.window > 0.0:
        fail(f"--window {args.window}: must be > 0")

    states = sorted((State(p) for p in expand(args.files)), key=lambda s: s.time)
    meshes = MeshMaker(args)
    kappa = args.kappa
    if kappa is None:
        kappa = meshes.ini.real("kappa", "1.4") if meshes.ini else 1.4
    axis = "xyz".index(args.direction)
    rows, checks, profiles, var = [], [], [], None
    try:
        for s in states:
            var = args.var or ("density" if s.n_var > N_CONSERVATIVE else "pressure")
            if var == "pressure" and s.n_var > N_CONSERVATIVE:
                fail(f"{s.path}: {s.n_var} variables (a reacting run): the pressure needs the "
                     "mixture's thermodynamics; use --var density")
            x = meshes.coordinate(s, axis)
            xs, vs = profile(x, s.field(var, kappa), float(x.max() - x.min()) or 1.0)
            pos, why = front_position(xs, vs, args.threshold, args.window)
            if why:
                print(f"{PROG}: {s.path}: no front in the {var} ({why}); left out of the fit",
                      file=sys.stderr)
            rows.append((s, pos))
            checks.append(FileChecks(s, x, xs, vs))
            if args.plot:
                profiles.append((xs, vs))
            print(f"{s.time:.10g} {pos:.10g}")
    finally:
        meshes.close()

    # t >= tmin to 1e-9 relative: a file written at tmin less a round-off (the sum of the
    # analysis intervals) belongs to the window
    tmin = None if args.tmin is None else args.tmin - 1e-9 * abs(args.tmin)
    fit_index = [i for i, (s, pos) in enumerate(rows)
                 if i >= args.skip_first and (tmin is None or s.time >= tmin)
                 and math.isfinite(pos)]
    report_checks(rows, checks, fit_index, args)
    fit_rows = [(rows[i][0].time, rows[i][1]) for i in fit_index]
    if len(fit_rows) < 2:
        fail(f"{len(fit_rows)} of the {len(rows)} files remain for the fit (after --skip-first "
             f"{args.skip_first}" + (f", --tmin {args.tmin:g}" if args.tmin is not None else "")
             + " and the files without a front); the fit needs at least 2")
    t, pos = np.array(fit_rows).T
    if np.ptp(t) == 0.0:
        fail(f"the {len(t)} files of the fit all have the time {t[0]:.10g}; the fit needs two times")
    A = np.stack([np.ones_like(t), t], axis=1)
    (x0, speed), *_ = np.linalg.lstsq(A, pos, rcond=None)
    residual = float(np.sqrt(np.mean((pos - (x0 + speed * t)) ** 2)))
    print(f"fit over {len(t)} files, t = {t.min():.6g} .. {t.max():.6g}: x0 = {x0:.10g}, "
          f"D = {speed:.10g}, rms residual = {residual:.3e}")
    if args.plot:
        plot(args.plot, rows, profiles, fit_index, x0, speed, args, var)
    print(f"front_speed {speed:.6g}")


if __name__ == "__main__":
    main()
