#!/usr/bin/env bash
# tools/plot_slice.py reads what hexdg writes: a tiny periodic box (4x4x1 elements, N = 2 with
# Gauss-Lobatto nodes, NVisu = 2, so the visualization points are the solution nodes and the
# file holds the initial state exactly) with the density sine IniExactFunc 2, FV blending fixed
# at FV_alpha_fix = 0.25 and OutputFormat = ParaView. Checks, from the script's --dump-csv:
#   - the t = 0 file on the planes zmin, z = 0.05 (interior node layer) and x = 0.25 (an element
#     interface: both neighbours): node count, positions on the equidistant lattice of each
#     element, Density against rho = 1 + A sin(2 pi f (x+y+z)) to 1e-10 relative;
#   - the last file's cell data FV_alpha = 0.25 in every element (--alpha), also after
#     `hexdg convert` of the last state file;
#   - the same file rewritten as ASCII arrays gives the same CSV; inline base64 is refused;
#   - PNGs of the filled contours, contour lines with the FV_alpha overlay, --alpha and --radial
#     (with a reference CSV) exist and are PNG files (only when matplotlib is installed).
# Skips (exit 77) when no python3 with numpy is installed.
# usage: run_plot_slice.sh path/to/hexdg repo_root
set -u
hexdg=$1
script=$2/tools/plot_slice.py
source "$(dirname "$0")/script_lib.sh"

require_python numpy
has_mpl=0
"$py" -c "import matplotlib" >/dev/null 2>&1 && has_mpl=1

enter_scratch


cat >case.ini <<'INI'
ProjectName   = slice
Backend       = cpu
MeshFile      = box
BoxElems      = (/4,4,1/)
BoxLower      = (/0.,0.,0./)
BoxUpper      = (/1.,2.,0.1/)
BoxPeriodic   = (/T,T,T/)
NGeo          = 1
N             = 2
NodeType      = GAUSS-LOBATTO
SplitDG       = PI
Riemann       = HLLC
IniExactFunc  = 2
IniAmplitude  = 0.3
IniFrequency  = 0.5
AdvVel        = (/1.,0.5,0./)
IndicatorType = fixed
FV_alpha_fix  = 0.25
tend          = 0.01
Analyze_dt    = 0.01
OutputFormat  = ParaView
NVisu         = 2
INI
if ! "$hexdg" case.ini >run.txt 2>&1; then
  echo "FAIL - the tiny case does not run: $(tail -3 run.txt)"
  exit 1
fi
first=$(ls slice_Solution_*.vtu | sort | head -1)
last=$(ls slice_Solution_*.vtu | sort | tail -1)
echo "files: $first (t = 0), $last"
if [ "$first" = "$last" ]; then
  echo "FAIL - expected the t = 0 output and a later one"
  exit 1
fi

# the plane's nodes: count, positions on each element's lattice, Density against the exact function
check_plane() { # csv, axis (0..2), plane value, expected node count
  "$py" - "$@" <<'PY'
import sys
import numpy as np
path, axis, value, count = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
lower, upper, elems, nvisu = np.array([0.0, 0.0, 0.0]), np.array([1.0, 2.0, 0.1]), (4, 4, 1), 2
amp, freq = 0.3, 0.5
d = np.genfromtxt(path, delimiter=",", names=True)
ok = True
def fail(msg):
    global ok
    ok = False
    print("    " + msg)
x = np.stack([d["x"], d["y"], d["z"]], axis=1)
if x.shape[0] != count:
    fail(f"{x.shape[0]} nodes, expected {count}")
off_plane = np.max(np.abs(x[:, axis] - value))
# each element (the box numbers them along a space-filling curve) is one box cell of the mesh:
# its nodes lie on the (NVisu+1)^3 equidistant lattice of that cell
h = (upper - lower) / elems
e = d["elem"].astype(int)
cell = np.floor((x - lower) / h + 1e-9)
cell_of_elem = {}
for k in np.unique(e):
    mine = cell[e == k]
    cell_of_elem[k] = np.min(mine, axis=0)  # a node on the upper face belongs to the next cell
corner = lower + h * np.array([cell_of_elem[k] for k in e])
lattice = (x - corner) / h * nvisu
off_lattice = np.max(np.abs(lattice - np.round(lattice)))
outside = np.sum((np.round(lattice) < 0) | (np.round(lattice) > nvisu))
# each element's rows are its layer in lattice order (a, b): an affine grid, what the plot
# triangulates; a wrong reading of VTK's point order would scramble it
g = np.round(lattice).reshape(-1, nvisu + 1, nvisu + 1, 3)
du, dv = g[:, 1, 0] - g[:, 0, 0], g[:, 0, 1] - g[:, 0, 0]
a, b = np.meshgrid(np.arange(nvisu + 1), np.arange(nvisu + 1), indexing="ij")
grid = g[:, :1, :1] + a[None, :, :, None] * du[:, None, None] + b[None, :, :, None] * dv[:, None, None]
scrambled = np.any(grid != g) or np.any(np.abs(du).sum(axis=1) != 1) or np.any(np.abs(dv).sum(axis=1) != 1)
if scrambled:
    fail("an element's plane nodes are not in lattice order")
rho = 1.0 + amp * np.sin(2.0 * np.pi * freq * x.sum(axis=1))
rel = np.max(np.abs(d["Density"] - rho) / np.abs(rho))
print(f"    {x.shape[0]} nodes in {len(set(e))} elements; off the plane {off_plane:.1e}, off the "
      f"element lattice {off_lattice:.1e} (in lattice steps); Density vs exact: max rel {rel:.2e}")
if off_plane > 1e-13:
    fail("nodes off the plane")
if off_lattice > 1e-12 or outside:
    fail("nodes not on their element's equidistant lattice")
if rel > 1e-10:
    fail("Density does not match IniExactFunc 2 at the nodes")
sys.exit(0 if ok else 1)
PY
}

dump() { # vtu, csv, options...
  local vtu=$1 csv=$2
  shift 2
  "$py" "$script" "$vtu" --no-plot --dump-csv "$csv" "$@" >>tool.txt 2>&1
}

check "dump of the zmin plane" dump "$first" zmin.csv --plane zmin
check "zmin: 16 elements x 9 nodes at z = 0, exact Density" check_plane zmin.csv 2 0.0 144
check "dump of the plane z = 0.05 (interior node layer)" dump "$first" zmid.csv --plane z=0.05
check "z = 0.05: 144 nodes, exact Density" check_plane zmid.csv 2 0.05 144
check "dump of the plane x = 0.25 (element interface)" dump "$first" x025.csv --plane x=0.25
check "x = 0.25: both neighbours, 8 elements x 9 nodes, exact Density" check_plane x025.csv 0 0.25 72

check "dump of FV_alpha" dump "$last" alpha.csv --alpha
check "FV_alpha = 0.25 in all 16 elements" "$py" - alpha.csv <<'PY'
import sys
import numpy as np
d = np.genfromtxt(sys.argv[1], delimiter=",", names=True)
print(f"    {d.size} elements, FV_alpha in [{d['FV_alpha'].min():g}, {d['FV_alpha'].max():g}]")
sys.exit(0 if d.size == 16 and np.all(d["FV_alpha"] == 0.25) else 1)
PY
# hexdg convert carries the state file's FV_alpha into the .vtu as cell data too
state=$(ls -t *_State_*.h5 | head -1)
check "hexdg convert of $state" "$hexdg" convert case.ini "$state" -o converted.vtu
check "dump of FV_alpha of the converted file" dump converted.vtu alpha_conv.csv --alpha
check "converted: FV_alpha = 0.25 in all 16 elements" "$py" - alpha_conv.csv <<'PY'
import sys
import numpy as np
d = np.genfromtxt(sys.argv[1], delimiter=",", names=True)
print(f"    {d.size} elements, FV_alpha in [{d['FV_alpha'].min():g}, {d['FV_alpha'].max():g}]")
sys.exit(0 if d.size == 16 and np.all(d["FV_alpha"] == 0.25) else 1)
PY

# the same file with ASCII arrays (as VtuExtra.ascii writes them), converted here from the raw
# appended blocks by struct, independently of the script's reader
to_ascii() { # binary.vtu ascii.vtu [format]
  "$py" - "$@" <<'PY'
import re, struct, sys
src, dst = sys.argv[1], sys.argv[2]
fmt = sys.argv[3] if len(sys.argv) > 3 else "ascii"
raw = open(src, "rb").read()
cut = raw.index(b"<AppendedData")
start = raw.index(b"_", cut) + 1
codes = {"Float64": "d", "Int64": "q", "UInt8": "B"}
def ascii_array(m):
    tag, kind, offset = m.group(0), m.group(1), int(m.group(2))
    (nbytes,) = struct.unpack_from("<Q", raw, start + offset)
    n = nbytes // struct.calcsize(codes[kind])
    values = struct.unpack_from(f"<{n}{codes[kind]}", raw, start + offset + 8)
    text = " ".join(repr(v) for v in values)
    head = tag.replace('format="appended"', f'format="{fmt}"')
    head = re.sub(r' offset="\d+"/>', ">", head)
    return f"{head}\n{text}\n</DataArray>"
xml = raw[:cut].decode()
xml = re.sub(r'<DataArray type="(\w+)"[^>]*format="appended" offset="(\d+)"/>', ascii_array, xml)
open(dst, "w").write(xml + "</VTKFile>\n")
PY
}
check "ASCII copy of $first" to_ascii "$first" ascii.vtu
check "dump of the ASCII copy" dump ascii.vtu zmin_ascii.csv --plane zmin
check "ASCII and binary files give the same CSV" cmp -s zmin.csv zmin_ascii.csv
check "inline base64 copy" to_ascii "$first" base64.vtu binary
check "inline base64 is refused with a message" bash -c \
  "! '$py' '$script' base64.vtu --no-plot --dump-csv b.csv >b.txt 2>&1 && grep -q base64 b.txt"
echo "    $(cat b.txt 2>/dev/null)"

is_png() { # file: exists, non-empty, PNG signature
  [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]
}
if [ $has_mpl -eq 1 ]; then
  "$py" -c "import numpy as np; r = np.linspace(0, 1.2, 50); \
np.savetxt('ref.csv', np.c_[r, 1 + 0.3 * np.sin(np.pi * r)], delimiter=',', header='r,rho')"
  check "filled contours" "$py" "$script" "$first" -o fill.png --levels 20 --mesh
  check "fill.png is a PNG" is_png fill.png
  check "contour lines, log, FV_alpha overlay" "$py" "$script" "$last" -o lines.png --log \
    --contour-lines --alpha-overlay --xlim 0 0.5 --ylim 0 1 --title "lines" --subdivide 3
  check "lines.png is a PNG" is_png lines.png
  check "FV_alpha per element" "$py" "$script" "$last" --alpha -o alpha.png
  check "alpha.png is a PNG" is_png alpha.png
  check "radial profile with a reference" "$py" "$script" "$first" --radial --center 0.5,1 \
    --ref ref.csv -o radial.png
  check "radial.png is a PNG" is_png radial.png
else
  echo "note - matplotlib absent: PNG checks skipped (apt-get install python3-matplotlib)"
fi

if [ $fails -ne 0 ]; then
  echo "--- plot_slice.py output"
  cat tool.txt
fi
[ $fails -eq 0 ] && echo "all plot_slice checks passed" || echo "$fails plot_slice checks failed"
exit $fails
