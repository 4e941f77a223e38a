#!/usr/bin/env bash
# Rotor 37 cascade smoke case (parameter_files/rotor37_cascade_smoke.ini, issue 18): the LES set-up
# (Navier-Stokes with Sutherland, split PI, FV blending, sponge, time averages, record points) on
# the curved level-0 mesh runs on the CPU, and a run restarted after 10 of 20 steps ends in the
# same state bit for bit, with the same record-point samples bit for bit and the same time
# averages (its two windows merged by AvgTime) to round-off.
# Skips (77) without gmsh's Python API (tools/install_gmsh.sh) or the Rotor 37 data.
# usage: run_cascade_smoke.sh path/to/hexdg repo_root
set -u
hexdg=$1
root=$2
source "$(dirname "$0")/script_lib.sh"
require_python numpy h5py
if ! "$py" "$root/tools/mesh_cascade.py" --check-gmsh >/dev/null 2>&1; then
  echo "skip: gmsh's Python API not found (tools/install_gmsh.sh installs it into .oracle/venv)"
  exit 77
fi
if [ ! -f "$root/../shared/data/turbomachinery/rotor37/rotor37_surface7_midspan_unwrapped.csv" ]; then
  echo "skip: ../shared/data/turbomachinery/rotor37 not found"
  exit 77
fi
enter_scratch
export OMP_NUM_THREADS=2
check "level-0 mesh (NGeo 3) written and imported" bash -c \
  "'$py' '$root/tools/mesh_cascade.py' --level 0 --ngeo 3 -o rotor37_L0.msh --hexdg '$hexdg' >gen.txt 2>&1"
ini="$root/parameter_files/rotor37_cascade_smoke.ini"
mkdir -p one two
sed 's/^maxIter .*/maxIter = 20/' "$ini" >one/case.ini
sed 's/^maxIter .*/maxIter = 10/' "$ini" >two/case.ini
for d in one two; do cp rotor37_L0_mesh.h5 $d/; done
check "20 steps in one run" bash -c "cd one && '$hexdg' case.ini >run.txt 2>&1"
tail -2 one/run.txt
check "10 steps" bash -c "cd two && '$hexdg' case.ini >run.txt 2>&1"
mid=$(cd two && ls r37smoke_State_*.h5 | sort | tail -1)
check "10 more steps from the restart file $mid" bash -c "cd two && '$hexdg' case.ini $mid >run2.txt 2>&1"
tail -2 two/run2.txt
# a restart at another degree (io/state_degree.c): the N = 3 file interpolated to N = 4
mkdir -p three && cp rotor37_L0_mesh.h5 three/
sed -e 's/^maxIter .*/maxIter = 3/' -e 's/^N  *= 3/N = 4/' "$ini" >three/case.ini
check "3 steps at N = 4 from the N = 3 restart file $mid" bash -c \
  "cd three && '$hexdg' case.ini ../two/$mid >run.txt 2>&1 && grep -q 'interpolated (exactly)' run.txt"
check "restart: state, record points and time averages as one run" "$py" - <<'PY'
import glob, h5py, numpy as np
def last(d, kind):
    return sorted(glob.glob(f"{d}/r37smoke_{kind}_*.h5"))[-1]
ok = True
a, b = h5py.File(last("one", "State"), "r"), h5py.File(last("two", "State"), "r")
same = np.array_equal(a["DG_Solution"][:], b["DG_Solution"][:]) and a.attrs["Time"] == b.attrs["Time"]
print(f"  state at t = {float(a.attrs['Time'][0]):.9e}: bitwise {'equal' if same else 'DIFFERENT'}")
ok &= same
# record points: one run's file against the two files of the restarted run (the sample at the
# restart time ends the first file and starts the second)
r1 = h5py.File(last("one", "RP"), "r")["RP_Data"][:]
files = sorted(glob.glob("two/r37smoke_RP_*.h5"))[-2:]
p, q = (h5py.File(f, "r")["RP_Data"][:] for f in files)
joined = np.concatenate([p, q[1:]]) if p[-1, 0, 0] == q[0, 0, 0] else np.concatenate([p, q])
same = joined.shape == r1.shape and np.array_equal(joined, r1)
print(f"  record points: {r1.shape[0]} samples x {r1.shape[1]} points, restarted run "
      f"{joined.shape[0]} samples: bitwise {'equal' if same else 'DIFFERENT'}")
ok &= same
# time averages: the two windows of the restarted run merged by their AvgTime
t1 = h5py.File(last("one", "TimeAvg"), "r")
w = [h5py.File(f, "r") for f in sorted(glob.glob("two/r37smoke_TimeAvg_*.h5"))[-2:]]
for ds in ("Mean", "MeanSquare"):
    T = sum(float(f.attrs["AvgTime"][0]) for f in w)
    m = sum(f[ds][:] * float(f.attrs["AvgTime"][0]) for f in w) / T
    ref = t1[ds][:]
    scale = np.maximum(np.abs(ref).max(axis=tuple(range(ref.ndim - 1))), 1e-300)
    rel = (np.abs(m - ref).max(axis=tuple(range(ref.ndim - 1))) / scale).max()
    print(f"  TimeAvg {ds}: AvgTime {T:.6e} vs {float(t1.attrs['AvgTime'][0]):.6e}, max relative difference {rel:.1e}")
    ok &= rel < 1e-12 and abs(T - float(t1.attrs["AvgTime"][0])) < 1e-15 * T
raise SystemExit(0 if ok else 1)
PY
exit $((fails > 0))
