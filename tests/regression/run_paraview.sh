#!/usr/bin/env bash
# ParaView output read by VTK itself: a tiny case writes a .vtu (OutputFormat = ParaView, or, if
# the run has no ParaView output, `hexdg convert` of its state file), and pvpython (or a python3
# with VTK's python module) opens it with VTK's XML reader and checks: Lagrange hexahedra
# (type 72) of (NVisu+1)^3 points, every point where VTK's own parametric coordinates of the
# Lagrange hexahedron put it (the box is affine, so this tests the point ordering), the Density
# range and values against the exact function, and the .pvd series.
# Skips (exit 0) when no VTK python is installed: paraview is not a CI dependency.
# usage: run_paraview.sh path/to/hexdg repo_root
set -u
hexdg=$1
source "$(dirname "$0")/script_lib.sh"

py=""
if command -v pvpython >/dev/null 2>&1; then
  py=pvpython
elif command -v python3 >/dev/null 2>&1 &&
  python3 -c "import vtkmodules.vtkIOXML" >/dev/null 2>&1; then
  py=python3
fi
if [ -z "$py" ]; then
  echo "skip: pvpython absent (and no python3 with the vtk module); apt-get install paraview"
  exit 0
fi

enter_scratch


# affine box (NGeo = 1) of unequal edges; the smooth manufactured solution 4
cat >base.ini <<'INI'
ProjectName  = pv
Backend      = cpu
MeshFile     = box
BoxElems     = (/2,3,2/)
BoxLower     = (/0.,0.,0./)
BoxUpper     = (/1.,2.,1.5/)
BoxPeriodic  = (/F,F,F/)
NGeo         = 1
N            = 3
NodeType     = GAUSS-LOBATTO
IniExactFunc = 4
IniAmplitude = 0.1
IniFrequency = 0.5
AdvVel       = (/1.,1.,1./)
tend         = 0.002
Analyze_dt   = 0.002
INI
nvisu=4
{ cat base.ini; echo "OutputFormat = ParaView"; echo "NVisu = $nvisu"; } >case.ini

vtu=""
if "$hexdg" case.ini >run.txt 2>&1; then
  vtu=$(ls pv_Solution_*.vtu 2>/dev/null | sort | tail -1)
  check "the run writes the time series pv_Solution.pvd" test -f pv_Solution.pvd
  check "no temporary files left" bash -c "! ls *.tmp 2>/dev/null | grep -q ."
fi
if [ -z "$vtu" ]; then
  echo "note - the run wrote no .vtu ($(grep -m1 'error' run.txt)); trying hexdg convert"
  rm -f ./*.h5
  if "$hexdg" base.ini >run.txt 2>&1; then
    state=$(ls pv_State_*.h5 | sort | tail -1)
    if "$hexdg" convert base.ini "$state" -o converted.vtu --NVisu "$nvisu" >conv.txt 2>&1; then
      vtu=converted.vtu
    fi
  else
    echo "FAIL - the tiny case does not run: $(tail -3 run.txt)"
    exit 1
  fi
fi
if [ -z "$vtu" ]; then
  echo "skip: this hexdg writes no ParaView output yet (neither OutputFormat = ParaView nor" \
    "hexdg convert is wired): $(head -1 conv.txt 2>/dev/null)"
  exit 0
fi
echo "checking $vtu with $py"

check "VTK reads $vtu as expected" "$py" - "$vtu" "$nvisu" <<'PY'
import math, sys
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader
from vtkmodules.vtkCommonCore import mutable

path, nvisu = sys.argv[1], int(sys.argv[2])
lower, upper, elems = (0.0, 0.0, 0.0), (1.0, 2.0, 1.5), (2, 3, 2)
amp, freq, adv = 0.1, 0.5, 1.0
reader = vtkXMLUnstructuredGridReader()
reader.SetFileName(path)
reader.Update()
grid = reader.GetOutput()
ncells, npts, npv = grid.GetNumberOfCells(), grid.GetNumberOfPoints(), (nvisu + 1) ** 3
ok = True
def fail(msg):
    global ok
    ok = False
    print("   ", msg)

if ncells != 12 or npts != ncells * npv:
    fail("%d cells, %d points; expected 12 cells of %d points" % (ncells, npts, npv))
time = grid.GetFieldData().GetArray("TimeValue").GetValue(0)
rho = grid.GetPointData().GetArray("Density")
h = [(upper[d] - lower[d]) / elems[d] for d in range(3)]
max_x, max_rho, max_center = 0.0, 0.0, 0.0
exact = lambda x: 2.0 + amp * math.sin(math.pi * freq * sum(x) - 2.0 * math.pi * adv * time)
for c in range(ncells):
    cell = grid.GetCell(c)
    if grid.GetCellType(c) != 72 or cell.GetNumberOfPoints() != npv:
        fail("cell %d: type %d with %d points" % (c, grid.GetCellType(c), cell.GetNumberOfPoints()))
        break
    pc = cell.GetParametricCoords()  # VTK's own table of the Lagrange hexahedron's points
    x0 = cell.GetPoints().GetPoint(0)
    for m in range(npv):
        x = cell.GetPoints().GetPoint(m)
        want = [x0[d] + h[d] * pc[3 * m + d] for d in range(3)]
        max_x = max(max_x, max(abs(x[d] - want[d]) for d in range(3)))
        max_rho = max(max_rho, abs(rho.GetValue(cell.GetPointId(m)) - exact(x)))
    # VTK's Lagrange interpolation of Density at the cell centre
    weights, xc, sub = [0.0] * npv, [0.0] * 3, mutable(0)
    cell.EvaluateLocation(sub, [0.5, 0.5, 0.5], xc, weights)
    centre = sum(weights[m] * rho.GetValue(cell.GetPointId(m)) for m in range(npv))
    max_center = max(max_center, abs(centre - exact(xc)))
lo, hi = rho.GetRange()
print("    t = %g, Density range [%.6f, %.6f], point positions off by %.1e, Density off the exact"
      " function by %.1e at the points and %.1e at the cell centres"
      % (time, lo, hi, max_x, max_rho, max_center))
if max_x > 1e-12:
    fail("points are not where VTK's Lagrange hexahedron numbering puts them")
if max_rho > 5e-3 or max_center > 5e-3:
    fail("Density does not match the exact function")
if not (2.0 - amp - 5e-3 < lo < 2.0 - 0.5 * amp and 2.0 + 0.5 * amp < hi < 2.0 + amp + 5e-3):
    fail("Density range [%g, %g] is not that of 2 +- %g sin(...)" % (lo, hi, amp))
for name in ("MomentumX", "EnergyStagnationDensity", "VelocityX", "Pressure", "Temperature"):
    if grid.GetPointData().GetArray(name) is None:
        fail("no point data " + name)
sys.exit(0 if ok else 1)
PY

if [ -f pv_Solution.pvd ]; then
  check "the .pvd lists readable .vtu files" "$py" - pv_Solution.pvd <<'PY'
import os, sys
import xml.etree.ElementTree as ET
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader
entries = ET.parse(sys.argv[1]).getroot().findall("./Collection/DataSet")
times = [float(e.get("timestep")) for e in entries]
ok = len(entries) >= 1 and times == sorted(times)
for e in entries:
    r = vtkXMLUnstructuredGridReader()
    r.SetFileName(os.path.join(os.path.dirname(sys.argv[1]), e.get("file")))
    r.Update()
    ok &= r.GetOutput().GetNumberOfCells() > 0
print("    %d time step(s): %s" % (len(entries), ", ".join("%g" % t for t in times)))
sys.exit(0 if ok else 1)
PY
fi

[ $fails -eq 0 ] && echo "all ParaView checks passed" || echo "$fails ParaView checks failed"
exit $fails
