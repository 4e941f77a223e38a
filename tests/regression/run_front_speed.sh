#!/usr/bin/env bash
# tools/front_speed.py (docs/detonation.md):
#   1. Synthetic reacting states (nVar = 8: the default variable is the density), N = 3 GAUSS,
#      on a HOPR mesh written here: 40 x 2 x 1 straight elements of NGeo = 2, unequal widths in x,
#      stored in a shuffled element order with the NodeCoords blocks in yet another order. The
#      density is a step smeared linearly over 2 mm, centred at x_s = 0.01 + 1968 t, with a
#      plateau and a decaying (Taylor-wave-like) region behind it and a y-dependent part that
#      averages out over y; the mid-point of the jump is then x_s exactly, so the positions must
#      match to 1e-12 m and the speed to 1e-6 relative (the printed fit and `front_speed 1968`).
#   2. Synthetic air states (nVar = 5: pressure), N = 4 GAUSS-LOBATTO, NGeo = 1 mesh: uniform
#      density, pressure and velocity ramps at x_s = 0.02 + 612.5 t, plus a t = 0 file off the line
#      that --skip-first 1 and --tmin leave out of the fit; and the same front with a region of
#      higher pressure far behind it, which only --window keeps out of the jump's maximum.
#   3. Errors: a missing file, a file that is not a State file, a pattern without files, fewer than
#      two files for the fit, the pressure of a reacting file.
#   4. hexdg's moving normal shock (IniExactFunc 10, Mach 2, x_s = 5 + 2 t) on the built-in box with
#      MeshRefine = 1 (the tool writes the mesh with `hexdg mesh box` + `hexdg mesh refine` from
#      --ini): the t = 0 density front at 5 (1e-9), the speed within 1% of 2; and on a HOPR file
#      (hexdg mesh box) with MeshRefine = 1 and GAUSS nodes, without --ini (refinement inferred).
# Skips (exit 77) without a python3 that has numpy and h5py.
# usage: run_front_speed.sh path/to/hexdg repo_root
set -u
hexdg=$1
script=$2/tools/front_speed.py
source "$(dirname "$0")/script_lib.sh"

require_python numpy h5py
enter_scratch

# --- synthetic files -------------------------------------------------------------------------
"$py" - <<'PY'
import h5py
import numpy as np

rng = np.random.default_rng(17)


def fortran_strings(loc, name, values, size=None):
    """A FLEXI string attribute: blank-padded, 1-D dataspace (VarNames: 255 bytes each)."""
    values = [values] if isinstance(values, str) else values
    size = size or max(len(v) for v in values)
    tid = h5py.h5t.FORTRAN_S1.copy()
    tid.set_size(size)
    tid.set_strpad(h5py.h5t.STR_SPACEPAD)
    data = np.array([v.ljust(size).encode() for v in values], dtype=f"S{size}")
    attr = h5py.h5a.create(loc.id, name.encode(), tid, h5py.h5s.create_simple((len(values),)))
    attr.write(data, mtype=tid)


def write_mesh(path, faces, ngeo, shuffle):
    """HOPR mesh of straight hexahedra on the tensor grid of the faces; returns the element
    corners (lower, upper) in the file's element order."""
    nx, ny, nz = (len(f) - 1 for f in faces)
    cells = [(ex, ey, ez) for ez in range(nz) for ey in range(ny) for ex in range(nx)]
    if shuffle:
        cells = [cells[i] for i in rng.permutation(len(cells))]
    n_elems, ng = len(cells), ngeo + 1
    s = np.linspace(0.0, 1.0, ng)
    blocks = rng.permutation(n_elems) if shuffle else np.arange(n_elems)  # NodeCoords slot of e
    coords = np.zeros((n_elems * ng ** 3, 3))
    info = np.zeros((n_elems, 6), dtype=np.int32)
    lo, hi = np.zeros((n_elems, 3)), np.zeros((n_elems, 3))
    for e, c in enumerate(cells):
        lo[e] = [faces[d][c[d]] for d in range(3)]
        hi[e] = [faces[d][c[d] + 1] for d in range(3)]
        k, j, i = np.meshgrid(s, s, s, indexing="ij")
        xyz = np.stack([lo[e][0] + i * (hi[e][0] - lo[e][0]), lo[e][1] + j * (hi[e][1] - lo[e][1]),
                        lo[e][2] + k * (hi[e][2] - lo[e][2])], axis=-1).reshape(-1, 3)
        first = blocks[e] * ng ** 3
        coords[first:first + ng ** 3] = xyz
        info[e] = [108, 1, 6 * e, 6 * e + 6, first, first + ng ** 3]
    with h5py.File(path, "w") as f:
        f.attrs["Version"] = np.array([1.0])
        f.attrs["Ngeo"] = np.array([ngeo], dtype=np.int32)
        f.attrs["nElems"] = np.array([n_elems], dtype=np.int32)
        f.attrs["nSides"] = np.array([6 * n_elems], dtype=np.int32)
        f.attrs["nNodes"] = np.array([n_elems * ng ** 3], dtype=np.int32)
        f.create_dataset("ElemInfo", data=info)
        f.create_dataset("SideInfo", data=np.zeros((6 * n_elems, 5), dtype=np.int32))
        f.create_dataset("NodeCoords", data=coords)
    return lo, hi


def nodes(n, kind):
    if kind == "GAUSS":
        return np.polynomial.legendre.leggauss(n + 1)[0]
    inner = np.polynomial.legendre.Legendre.basis(n).deriv().roots()
    return np.concatenate(([-1.0], np.sort(inner), [1.0]))


def node_xyz(lo, hi, n, kind):
    """(nElems, k, j, i) arrays x, y, z of the solution nodes."""
    r = 0.5 * (nodes(n, kind) + 1.0)
    k, j, i = np.meshgrid(r, r, r, indexing="ij")
    return [lo[:, d, None, None, None] + (hi - lo)[:, d, None, None, None] * w
            for d, w in enumerate((i, j, k))]


def write_state(path, t, n, kind, mesh, u, names):
    with h5py.File(path, "w") as f:
        fortran_strings(f, "Program", "hexdg")
        fortran_strings(f, "File_Type", "State")
        fortran_strings(f, "Project_Name", "synthetic")
        f.attrs["File_Version"] = np.array([0.1])
        f.attrs["N"] = np.array([n], dtype=np.int32)
        f.attrs["Dimension"] = np.array([3], dtype=np.int32)
        f.attrs["Time"] = np.array([t])
        fortran_strings(f, "MeshFile", mesh)
        fortran_strings(f, "NodeType", kind)
        fortran_strings(f, "VarNames", names, 255)
        f.create_dataset("DG_Solution", data=u)


def ramp(x, xs, width, ahead, peak):
    """ahead for x > xs + width/2, linear to peak at xs - width/2, peak for another width (so
    that nodes sample the maximum), then a linear decay to 0.6 peak at x = 0."""
    a = np.clip((xs - x) / width + 0.5, 0.0, 1.0)
    v = ahead + (peak - ahead) * a
    back = xs - 1.5 * width
    return np.where(x < back, peak - 0.4 * peak * (back - x) / back, v)


base = ["Density", "MomentumX", "MomentumY", "MomentumZ", "EnergyStagnationDensity"]

# 1. reacting: density front, x_s = 0.01 + 1968 t
u_x = np.linspace(0.0, 1.0, 41)
faces = [0.05 * (u_x + 0.1 * np.sin(2 * np.pi * u_x) / (2 * np.pi)), np.array([0.0, 1e-3, 2e-3]),
         np.array([0.0, 1e-3])]
lo, hi = write_mesh("det_mesh.h5", faces, 2, True)
n, kind = 3, "GAUSS"
x, y, z = node_xyz(lo, hi, n, kind)
species = ["PartialDensity_H2", "PartialDensity_O2", "PartialDensity_N2"]
for t in np.arange(6) * 2e-6:
    xs = 0.01 + 1968.0 * t
    rho = ramp(x, xs, 2e-3, 0.5, 1.5) + 0.02 * (y - 1e-3) / 1e-3  # y part: mean 0 over y nodes
    u = np.zeros(x.shape + (8,))
    u[..., 0] = rho
    u[..., 1] = rho * ramp(x, xs, 2e-3, 0.0, 900.0)
    u[..., 4] = 2.0e5 + 0.5 * u[..., 1] ** 2 / rho
    for s, frac in enumerate((0.03, 0.2, 0.77)):
        u[..., 5 + s] = frac * rho
    write_state(f"det_State_{t:017.9f}.h5", t, n, kind, "det_mesh.h5", u, base + species)

# 2. air: pressure front, x_s = 0.02 + 612.5 t (+ an early file off the line)
faces = [np.linspace(0.0, 0.1, 51), np.array([0.0, 1e-3]), np.linspace(0.0, 3e-3, 4)]
lo, hi = write_mesh("air_mesh.h5", faces, 1, False)
n, kind, kappa = 4, "GAUSS-LOBATTO", 1.4
x, y, z = node_xyz(lo, hi, n, kind)
for t in [0.0] + list(1e-5 * (1 + np.arange(5))):
    xs = 0.02 + 612.5 * t if t > 0 else 0.05
    p = ramp(x, xs, 6e-3, 1.0e5, 8.0e5)
    vel = ramp(x, xs, 6e-3, 0.0, 400.0)
    rho = np.full(x.shape, 1.2)
    u = np.zeros(x.shape + (5,))
    u[..., 0], u[..., 1] = rho, rho * vel
    u[..., 4] = p / (kappa - 1.0) + 0.5 * rho * vel ** 2
    write_state(f"air_State_{t:017.9f}.h5", t, n, kind, "air_mesh.h5", u, base)

# a shock ahead of a driver region of higher pressure (x < 0.01): only --window finds the shock
for t in 1e-5 * (1 + np.arange(3)):
    p = np.where(x < 0.01, 1.0e6, ramp(x, 0.02 + 612.5 * t, 6e-3, 1.0e5, 3.0e5))
    u = np.zeros(x.shape + (5,))
    u[..., 0], u[..., 4] = 1.2, p / (kappa - 1.0)
    write_state(f"blast_State_{t:017.9f}.h5", t, n, kind, "air_mesh.h5", u, base)

# 1b. the reacting states with a negative mass fraction (-2e-12 at one node, t = 2 us) and a NaN
#     (the density of one node of the t = 4 us file, which then has no front and is left out of
#     the fit)
for t in (0.0, 2e-6, 4e-6, 6e-6):
    with h5py.File(f"det_State_{t:017.9f}.h5", "r") as f:
        u = np.array(f["DG_Solution"])
    if t == 2e-6:
        u[3, 1, 2, 0, 5] = -2e-12 * u[3, 1, 2, 0, 0]
    if t == 4e-6:
        u[7, 0, 0, 1, 0] = np.nan
    write_state(f"bad_State_{t:017.9f}.h5", t, 3, "GAUSS", "det_mesh.h5", u, base + species)

# a HOPR mesh file is not a State file
with h5py.File("mesh_typed.h5", "w") as f:
    fortran_strings(f, "File_Type", "Mesh")
PY
[ -f det_mesh.h5 ] && [ -f air_mesh.h5 ] || { echo "FAIL - writing the synthetic files"; exit 1; }

run() { # name, arguments...: the tool's stdout+stderr in name.txt, its exit code in rc_name
  local name=$1
  shift
  "$py" "$script" "$@" >"$name.txt" 2>&1
  eval "rc_$name=$?"
  sed 's/^/    /' "$name.txt"
}

# speed: last line `front_speed D` and the fit line's D, both against the exact one
speed_is() { # file, exact, relative tolerance
  "$py" - "$@" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().strip().splitlines()
exact, tol = float(sys.argv[2]), float(sys.argv[3])
m = re.fullmatch(r"front_speed (\S+)", lines[-1])
fit = re.search(r"D = (\S+),", lines[-2]) if len(lines) > 1 else None
if not m or not fit:
    print("    last lines are not the fit and `front_speed D`")
    sys.exit(1)
printed, full = float(m.group(1)), float(fit.group(1))
print(f"    front_speed {printed:g}, fit D = {full:.12g}: relative error {abs(full / exact - 1):.2e}")
sys.exit(0 if abs(full / exact - 1) <= tol and abs(printed / exact - 1) <= max(tol, 5e-6)
         and m.group(1) == f"{full:.6g}" else 1)
PY
}

not_speed_is() { ! speed_is "$@"; }

# positions: the `time position` lines against x0 + D t (files with t >= tmin)
positions_are() { # file, x0, D, tolerance [m], tmin
  "$py" - "$@" <<'PY'
import sys
lines = open(sys.argv[1]).read().strip().splitlines()
x0, d, tol, tmin = (float(a) for a in sys.argv[2:6])
rows = []
for l in lines[:-2]:  # the `time position` lines (the checks' lines have words)
    try:
        rows.append(tuple(float(v) for v in l.split()))
    except ValueError:
        continue
rows = [r for r in rows if len(r) == 2]
err = max(abs(p - (x0 + d * t)) for t, p in rows if t >= tmin)
print(f"    {len(rows)} files, max |position - (x0 + D t)| = {err:.2e} m")
sys.exit(0 if err <= tol else 1)
PY
}

echo "reacting states (density), shuffled NGeo = 2 mesh:"
run det "det_State_*.h5"
check "exit 0" test "$rc_det" = 0
check "6 files, positions 0.01 + 1968 t to 1e-12 m" positions_are det.txt 0.01 1968 1e-12 0
check "front_speed 1968 to 1e-6" speed_is det.txt 1968 1e-6
check "last line is exactly 'front_speed 1968'" test "$(tail -1 det.txt)" = "front_speed 1968"
check "checks: no NaN in the 6 files" grep -q '^nan none in the 6 files$' det.txt
check "checks: least mass fraction 0.03 (Y_H2), ok" grep -q '^min_mass_fraction 3.000e-02 (Y_H2, .*: ok (limit -1e-12)$' det.txt
check "checks: no FV_alpha in the files: the steep gradients around the front instead" \
  grep -q '^fv_alpha not in the files (IndicatorType = none?); steep: in the 6 files of the fit' det.txt
check "checks: printed before the fit and front_speed" bash -c \
  "sed -n '7,9p' det.txt | grep -c -E '^(nan|min_mass_fraction|fv_alpha)' | grep -qx 3"
run bad "bad_State_*.h5"
check "negative mass fraction and NaN: exit 0, still a front_speed" bash -c \
  "[ $rc_bad -eq 0 ] && tail -1 bad.txt | grep -q '^front_speed 1968$'"
check "the NaN: reported, its file left out of the fit" bash -c \
  "grep -q '^nan FAIL: 1 non-finite values in 1 of the 4 files (first t = 4e-06' bad.txt && grep -q 'fit over 3 files' bad.txt"
check "the mass fraction -2e-12 < -1e-12: FAIL, with species and time" \
  grep -q '^min_mass_fraction -2.000e-12 (Y_H2, t = 2e-06, x = .*: FAIL (limit -1e-12)$' bad.txt
run bad_tol --min-y 3e-12 "bad_State_*.h5"
check "--min-y 3e-12: the same -2e-12 is ok" grep -q '^min_mass_fraction -2.000e-12 .*: ok (limit -3e-12)$' bad_tol.txt
run det_var --var density --direction x --threshold 0.5 det_State_0000000.000000000.h5 \
  det_State_0000000.000004000.h5 det_State_0000000.000010000.h5
check "--var density, three files named: the same speed" speed_is det_var.txt 1968 1e-6

echo "air states (pressure), with a t = 0 file off the line:"
run air_all "air_State_*.h5"
check "all 6 files: exit 0" test "$rc_air_all" = 0
check "air: no species to check" grep -q '^min_mass_fraction none: no species in the files (nVar = 5)$' air_all.txt
check "all 6 files: the early file spoils the fit (not 612.5 to 1e-3)" not_speed_is air_all.txt 612.5 1e-3
run air_skip --skip-first 1 "air_State_*.h5"
check "--skip-first 1: positions 0.02 + 612.5 t" positions_are air_skip.txt 0.02 612.5 1e-12 1e-6
check "--skip-first 1: front_speed 612.5 to 1e-6" speed_is air_skip.txt 612.5 1e-6
run air_tmin --tmin 5e-6 "air_State_*.h5"
check "--tmin 5e-6: front_speed 612.5 to 1e-6" speed_is air_tmin.txt 612.5 1e-6
run air_rho --var density --skip-first 1 "air_State_*.h5"
check "--var density on uniform density: no front, no fit" bash -c \
  "[ $rc_air_rho -ne 0 ] && grep -q 'no front in the density' air_rho.txt && grep -q 'fit needs at least 2' air_rho.txt"

echo "shock ahead of a higher-pressure driver region:"
run blast "blast_State_*.h5"
check "without --window: the driver's edge, not the shock (speed ~0)" bash -c \
  "[ $rc_blast -eq 0 ] && tail -1 blast.txt | awk '{exit !(\$2 < 1 && \$2 > -1)}'"
run blast_window --window 0.01 "blast_State_*.h5"
check "--window 0.01: positions 0.02 + 612.5 t" positions_are blast_window.txt 0.02 612.5 1e-12 0
check "--window 0.01: front_speed 612.5 to 1e-6" speed_is blast_window.txt 612.5 1e-6

echo "errors:"
run missing det_State_0000000.000000000.h5 no_such_State.h5
check "missing file: named, exit != 0" bash -c "[ $rc_missing -ne 0 ] && grep -q 'no_such_State.h5: no such file' missing.txt"
run notstate det_State_0000000.000000000.h5 mesh_typed.h5
check "not a State file: named, exit != 0" bash -c "[ $rc_notstate -ne 0 ] && grep -q \"mesh_typed.h5: not a State file (File_Type is 'Mesh'\" notstate.txt"
run meshfile det_State_0000000.000000000.h5 det_mesh.h5
check "a mesh file: not a State file" bash -c "[ $rc_meshfile -ne 0 ] && grep -q 'det_mesh.h5: not a State file' meshfile.txt"
run nomatch "nothing_State_*.h5"
check "pattern without files: named, exit != 0" bash -c "[ $rc_nomatch -ne 0 ] && grep -q 'nothing_State_\*.h5: no file matches' nomatch.txt"
run few --skip-first 5 "det_State_*.h5"
check "fewer than 2 files for the fit: exit != 0" bash -c "[ $rc_few -ne 0 ] && grep -q '1 of the 6 files remain for the fit' few.txt"
run few_tmin --tmin 1 "det_State_*.h5"
check "--tmin after the last file: exit != 0" bash -c "[ $rc_few_tmin -ne 0 ] && grep -q '0 of the 6 files remain' few_tmin.txt"
run reacting_p --var pressure "det_State_*.h5"
check "pressure of a reacting file: refused" bash -c "[ $rc_reacting_p -ne 0 ] && grep -q 'use --var density' reacting_p.txt"

# --- hexdg's moving shock --------------------------------------------------------------------
if [ -x "$hexdg" ]; then
  write_moving_shock_ini shock.ini '(/40,1,1/)' '(/20., 0.5, 0.5/)' "MeshRefine     = 1"
  echo "hexdg: moving shock (Mach 2) on the built-in box, MeshRefine = 1:"
  if "$hexdg" shock.ini >shock_run.txt 2>&1; then
    run shock_noini "shock_State_*.h5"
    check "MeshFile = box without --ini: asks for --ini" bash -c "[ $rc_shock_noini -ne 0 ] && grep -q 'give the parameter file with --ini' shock_noini.txt"
    run shock_rho -v --ini shock.ini --hexdg "$hexdg" --var density --skip-first 1 "shock_State_*.h5"
    check "hexdg mesh box and refine ran" grep -q 'mesh refine' shock_rho.txt
    # x = 5 is an element interface (a Gauss-Lobatto node), the tanh profile is symmetric about it
    check "t = 0: density front at x = 5 (box element order, refinement)" bash -c \
      "grep -v '^#' shock_rho.txt | head -1 | awk '{exit !(\$1 == 0 && (\$2 - 5)^2 < 1e-18)}'"
    check "density: speed within 1% of 2" speed_is shock_rho.txt 2 1e-2
    run shock_p --ini shock.ini --hexdg "$hexdg" --skip-first 1 "shock_State_*.h5"
    check "pressure: speed within 1% of 2" speed_is shock_p.txt 2 1e-2
    # IndicatorType = hennemann: the files carry FV_alpha, blended only around the shock
    check "FV_alpha read from the files: blended elements near the shock only" bash -c \
      "grep -q '^fv_alpha: in the 4 files of the fit [1-9][0-9]*\.\.[1-9][0-9]* blended elements (FV_alpha > 0) per file, max alpha .*; 100 % of them (100 % of the summed FV_alpha) within 3 element widths' shock_p.txt"
  else
    echo "FAIL - hexdg shock.ini: $(tail -3 shock_run.txt)"
    fails=$((fails + 1))
  fi

  echo "hexdg: the same on a HOPR file, GAUSS nodes, MeshRefine = 1, no --ini:"
  if "$hexdg" mesh box --elems 40,1,1 --lower 0,0,0 --upper 20,0.5,0.5 --periodic F,T,T \
    -o shock_mesh.h5 >mesh_run.txt 2>&1; then
    sed -e 's/^MeshFile .*/MeshFile = shock_mesh.h5/' -e 's/^NodeType .*/NodeType = GAUSS/' \
      -e 's/^IndicatorType .*/IndicatorType = none/' -e '/^FV_/d' -e '/^SplitDG/d' -e 's/^tend .*/tend = 0.2/' \
      -e 's/^Analyze_dt .*/Analyze_dt = 0.1/' -e 's/^ProjectName .*/ProjectName = gauss/' \
      -e '/^Box/d' shock.ini >gauss.ini
    if "$hexdg" gauss.ini >gauss_run.txt 2>&1; then
      run gauss --var density --hexdg "$hexdg" "gauss_State_*.h5"
      # x = 5 is an element interface: the Gauss nodes on either side lie symmetric about it
      check "t = 0: density front at x = 5 (refinement inferred from the element count)" bash -c \
        "head -1 gauss.txt | awk '{exit !(\$1 == 0 && (\$2 - 5)^2 < 1e-18)}'"
      check "3 files and a fit" bash -c "[ $rc_gauss -eq 0 ] && [ \$(grep -c -E '^[0-9.e+-]+ [0-9.e+-]+$' gauss.txt) -eq 3 ] && [ \$(wc -l <gauss.txt) -eq 8 ]"
    else
      echo "FAIL - hexdg gauss.ini: $(tail -3 gauss_run.txt)"
      fails=$((fails + 1))
    fi
  else
    echo "FAIL - hexdg mesh box: $(cat mesh_run.txt)"
    fails=$((fails + 1))
  fi
else
  echo "note - no hexdg executable at '$hexdg': the runs of hexdg's moving shock are skipped"
fi

[ $fails -eq 0 ] && echo "all front_speed checks passed" || echo "$fails front_speed checks failed"
exit $((fails > 0))
