#!/usr/bin/env bash
# RecordMaxPressure (the numerical soot foil, src/analysis/maxpressure.c) and tools/soot_foil.py,
# on hexdg's moving normal shock (IniExactFunc 10, Mach 2, x_s = 5 + 2 t, p1 = 1/kappa ahead,
# p2 = 4.5 p1 behind: the Rankine-Hugoniot jump 1 + 2 kappa/(kappa+1) (M^2 - 1)), CPU, air:
#   1. t = 0: FieldData MaxPressure equals the pressure of DG_Solution (1e-14);
#   2. every later file: MaxPressure >= the file's pressure and >= the previous file's record;
#   3. t = 2: the nodes the shock has swept since it formed (6 < x < 8.5) hold >= 0.98 p2 (they
#      saw the post-shock state; around x = 5 the shock forms from the smooth initial profile),
#      the nodes well ahead (x > 12) p1 (1e-10: only the initial tanh tail);
#   4. a restart at t = 1 carries the record: the t = 2 record equals the straight run's (1e-13);
#   5. tools/soot_foil.py: the extracted image's maximum is the file's (a 2-D box, 1 z layer);
#   6. RecordFrontPressure (analysis/frontpressure.c): its rows lie between each state's largest
#      pressure and the largest MaxPressure record, equal across y for the planar shock;
#      soot_foil.py --front reads the file.
# Skips (exit 77) without a python3 that has numpy and h5py.
# usage: run_soot_foil.sh path/to/hexdg repo_root
set -u
hexdg=$1
tools=$2/tools
source "$(dirname "$0")/script_lib.sh"

require_python numpy h5py
enter_scratch

write_moving_shock_ini shock.ini '(/40,2,1/)' '(/20., 1., 0.5/)' "RecordMaxPressure = T" \
  "RecordFrontPressure = 2" "FrontPressure_dt = 0.25"
mkdir -p straight restart
(cd straight && "$hexdg" ../shock.ini >run.txt 2>&1) || { echo "FAIL - straight run: $(tail -3 straight/run.txt)"; exit 1; }
sed 's/^tend.*/tend = 1./' shock.ini >half.ini
# a record that cannot be written (its name taken by a folder): the run stops naming the file and
# leaves no .tmp behind
mkdir -p blocked/shock_FrontPressure_0000000.000000000.h5
(cd blocked && ! "$hexdg" ../shock.ini >run.txt 2>&1) && grep -q "cannot rename.*FrontPressure" blocked/run.txt &&
  [ -z "$(ls blocked/*.tmp 2>/dev/null)" ] &&
  echo "ok   - an unwritable front-pressure record stops the run, names the file, leaves no .tmp" ||
  { echo "FAIL - unwritable front-pressure record: $(tail -2 blocked/run.txt; ls blocked)"; exit 1; }
(cd restart && "$hexdg" ../half.ini >run1.txt 2>&1 && "$hexdg" ../shock.ini shock_State_0000001.000000000.h5 >run2.txt 2>&1) ||
  { echo "FAIL - restarted run: $(tail -3 restart/run*.txt)"; exit 1; }

PYTHONPATH=$tools "$py" - "$hexdg" <<'PY'
import glob, sys
import numpy as np, h5py, argparse
import front_speed as fs

hexdg, kappa = sys.argv[1], 1.4
p1 = 1.0 / kappa
p2 = p1 * (1.0 + 2.0 * kappa / (kappa + 1.0) * (2.0 ** 2 - 1.0))
fails = 0


def check(what, ok):
    global fails
    print(("ok   - " if ok else "FAIL - ") + what)
    fails += 0 if ok else 1


def read(path):
    with h5py.File(path, "r") as f:
        names = [fs.as_text(n) for n in np.atleast_1d(f.attrs["VarNamesAddField"])]
        u = f["DG_Solution"][()]
        rec = f["FieldData"][..., names.index("MaxPressure")]
    p = (kappa - 1.0) * (u[..., 4] - 0.5 * np.sum(u[..., 1:4] ** 2, axis=-1) / u[..., 0])
    return p, rec


files = sorted(glob.glob("straight/shock_State_*.h5"))
check(f"5 state files (t = 0, 0.5, .., 2): {len(files)}", len(files) == 5)
p, rec = read(files[0])
check(f"t = 0: MaxPressure = p ({np.abs(rec - p).max() / p.max():.1e})",
      np.abs(rec - p).max() <= 1e-14 * p.max())
prev = rec
for f in files[1:]:
    p, rec = read(f)
    check(f"{f}: record >= p and >= the previous record",
          np.all(rec >= p - 1e-14 * p2) and np.all(rec >= prev))
    prev = rec
state = fs.State(files[-1])
maker = fs.MeshMaker(argparse.Namespace(ini="shock.ini", hexdg=hexdg, verbose=False))
x = maker.coordinate(state, 0)
maker.close()
swept, ahead = rec[(x > 6.0) & (x < 8.5)], rec[x > 12.0]
check(f"t = 2: swept nodes hold >= 0.98 p2 (min {swept.min() / p2:.4f} p2)", swept.min() >= 0.98 * p2)
check(f"t = 2: nodes ahead hold p1 ({np.abs(ahead - p1).max():.1e})", np.abs(ahead - p1).max() <= 1e-10)
# RecordFrontPressure (2 bins across y, rows of 0.25): the rows close at 0.25 .. 2; the planar
# shock gives both bins the same value; a row ending at a state's time lies between the largest
# pressure of that state and the largest MaxPressure record (the maximum over the nodes and over
# the row's steps, which the record spans)
with h5py.File("straight/shock_FrontPressure_0000000.000000000.h5", "r") as f:
    t_rows, rows = f["Time"][()], f["FrontPressure"][()]
check(f"front pressure: 8 rows of 2 bins, the last at t = 2 ({rows.shape}, {t_rows[-1]})",
      rows.shape == (8, 2) and abs(t_rows[-1] - 2.0) < 1e-12 and np.all(np.diff(t_rows) > 0))
check(f"front pressure: the bins of a planar shock agree ({np.abs(rows[:, 0] - rows[:, 1]).max():.1e})",
      np.abs(rows[:, 0] - rows[:, 1]).max() <= 1e-12 * p2)
for f in files[1:]:
    p, rec = read(f)
    t_f = fs.State(f).time
    k = int(np.argmin(np.abs(t_rows - t_f)))
    check(f"front pressure at t = {t_f:g}: max p {p.max() / p2:.4f} <= row {rows[k].max() / p2:.4f} "
          f"<= max record {rec.max() / p2:.4f} (p2)",
          abs(t_rows[k] - t_f) < 1e-9 and p.max() <= rows[k].min() * (1 + 1e-14) and
          rows[k].max() <= rec.max() * (1 + 1e-14))
_, rec_r = read("restart/shock_State_0000002.000000000.h5")
check(f"restart at t = 1 carries the record ({np.abs(rec_r - rec).max() / p2:.1e})",
      np.abs(rec_r - rec).max() <= 1e-13 * p2)
sys.exit(1 if fails else 0)
PY
rc=$?
[ $rc -eq 0 ] || fails=$((fails + 1))

"$py" "$tools/soot_foil.py" --ini shock.ini --hexdg "$hexdg" straight/shock_State_0000002.000000000.h5 --npz foil.npz >foil.txt 2>&1
check "soot_foil.py extracts the record" grep -q "wrote foil.npz" foil.txt
"$py" - <<'PY' && echo "ok   - soot_foil.py image max = file max" || { echo "FAIL - soot_foil.py image max"; exit 1; }
import numpy as np, h5py
img = np.load("foil.npz")["pmax"]
with h5py.File("straight/shock_State_0000002.000000000.h5") as f:
    rec = f["FieldData"][..., 0]
assert img.shape[0] == 3 * 2 + 1, img.shape  # 2 elements of N = 3 across: 7 node rows
assert abs(np.nanmax(img) - rec.max()) <= 1e-15 * rec.max(), (np.nanmax(img), rec.max())
PY
[ $? -eq 0 ] || fails=$((fails + 1))
# on a GPU (where there is one): the CUDA backend's rows equal the CPU's
if [ "$("$hexdg" --gpu-count 2>/dev/null || echo 0)" -ge 1 ]; then
  mkdir -p gpu && sed 's/^Backend.*/Backend = cuda/' shock.ini >gpu/shock.ini
  (cd gpu && "$hexdg" shock.ini >run.txt 2>&1)
  "$py" - <<'PY' && echo "ok   - front pressure: GPU rows = CPU rows" || { echo "FAIL - front pressure GPU"; fails=$((fails + 1)); }
import numpy as np, h5py
a, b = (h5py.File(d + "/shock_FrontPressure_0000000.000000000.h5", "r") for d in ("straight", "gpu"))
ra, rb = a["FrontPressure"][()], b["FrontPressure"][()]
assert ra.shape == rb.shape, (ra.shape, rb.shape)
assert np.abs(ra - rb).max() <= 1e-10 * np.abs(ra).max(), np.abs(ra - rb).max()
assert np.abs(a["Time"][()] - b["Time"][()]).max() <= 1e-12
PY
else
  echo "     (no GPU: the CUDA backend's front pressure not compared)"
fi
"$py" "$tools/soot_foil.py" --front straight/shock_FrontPressure_0000000.000000000.h5 --speed 2 \
  --npz front.npz >front.txt 2>&1
check "soot_foil.py --front: an image of 2 bins x 8 rows" grep -q "wrote front.npz (8 x 2 pixels)" front.txt
# a run and its restart: two record files whose rows together are the straight run's
"$py" "$tools/soot_foil.py" --front restart/shock_FrontPressure_*.h5 --speed 2 --npz front_r.npz \
  >front_r.txt 2>&1
"$py" - <<'PY' && echo "ok   - soot_foil.py --front: the restarted run's two files = the straight run's" ||
import numpy as np
a, b = np.load("front.npz"), np.load("front_r.npz")
assert a["pmax"].shape == b["pmax"].shape, (a["pmax"].shape, b["pmax"].shape)
assert np.abs(a["pmax"] - b["pmax"]).max() <= 1e-13 * np.abs(a["pmax"]).max()
PY
  { echo "FAIL - soot_foil.py --front of the restarted run: $(tail -2 front_r.txt)"; fails=$((fails + 1)); }
# the transverse spectrum of a window: a synthetic foil with tracks of wavelength W/2 for x < 0.5
# and W/3 beyond (W = 0.03 m) gives each in its window
"$py" - <<'PY'
import numpy as np
y = np.linspace(0.0, 0.03, 61)[:, None]
x = np.linspace(0.0, 1.0, 201)[None, :]
img = 2e5 + 1e4 * np.where(x < 0.5, np.cos(2 * np.pi * y / 0.015), np.cos(2 * np.pi * y / 0.01))
np.savez("synthetic.npz", pmax=img, x0=0.0, x1=1.0, y0=0.0, y1=0.03, time=1e-4)
PY
"$py" "$tools/soot_foil.py" --from-npz synthetic.npz --xmin 0 --xmax 0.5 >win1.txt 2>&1
check "soot_foil.py --xmax: the first window's wavelength W/2" grep -q "^cell_width 0.015$" win1.txt
"$py" "$tools/soot_foil.py" --from-npz synthetic.npz --xmin 0.5 >win2.txt 2>&1
check "soot_foil.py --xmin: the second window's wavelength W/3" grep -q "^cell_width 0.01$" win2.txt
# the track lattice: synthetic foils of straight triple-point tracks (W = 0.03 m), mirrored at the
# walls: lat2 has 4 tracks of slope 0.6 in 2W (cells W/2 wide, 2.5 cm long); lat1 has 2 of slope
# 0.45 (one cell across the channel, 6.67 cm long), each ridge with a trough behind it, so that
# its transverse spectrum peaks at a harmonic and only the lattice reads the width
"$py" - <<'PY'
import numpy as np
W = 0.03
y = np.linspace(0.0, W, 241)[:, None]
x = np.linspace(0.0, 0.15, 1201)[None, :]
def lattice(m, slope, c0, trough):
    spacing = 2 * W / m
    img = np.zeros((y.size, x.size))
    for u in (y, 2 * W - y):  # a track and its mirror image in the period 2W
        d = (u - slope * x - c0 + 0.5 * spacing) % spacing - 0.5 * spacing
        img += np.exp(-(d / 3e-4) ** 2) - trough * np.exp(-((d + 1.5e-3) / 1e-3) ** 2)
    return 1.75e5 * (1.0 + 0.4 * img)
for name, m, slope, c0, trough in (("lat2", 4, 0.6, 0.00375, 0.0), ("lat1", 2, 0.45, 0.015, 0.3)):
    np.savez(name + ".npz", pmax=lattice(m, slope, c0, trough), x0=0.0, x1=0.15, y0=0.0, y1=W,
             time=1e-4)
PY
"$py" "$tools/soot_foil.py" --from-npz lat2.npz --xmin 0 >lat2.txt 2>&1
check "soot_foil.py: a lattice of cells W/2 wide: width 0.015, slope 0.6, length 0.025" \
  grep -q "slope 0.600, 4 track(s) in 2W, cell width 0.015 m, cell length 0.025 m" lat2.txt
check "soot_foil.py: cell_width 0.015 for that lattice" grep -q "^cell_width 0.015$" lat2.txt
"$py" "$tools/soot_foil.py" --from-npz lat1.npz --xmin 0 >lat1.txt 2>&1
check "soot_foil.py: one cell across the channel, tracks with troughs: width 0.03, slope 0.45" \
  grep -q "slope 0.450, 2 track(s) in 2W, cell width 0.03 m" lat1.txt
check "soot_foil.py: cell_width 0.03 for that lattice" grep -q "^cell_width 0.03$" lat1.txt
# --collisions: tracks meet their mirror images at the walls, one cell length apart: every 0.025 m
# from 0.01875 m on for lat2 (6 per wall), every 0.0667 m for lat1 (both walls at once)
"$py" "$tools/soot_foil.py" --from-npz lat2.npz --xmin 0 --collisions 0.01 >col2.txt 2>&1
check "soot_foil.py --collisions: lat2's walls hit at 0.01875 ... 0.1438, 0.025 apart" \
  grep -q "wall y0: x (p_max / median) 0.01875 (1.80) 0.04375 (1.80) .* 0.1438 (1.80); spacing 0.025 m" col2.txt
check "soot_foil.py --collisions: lat2's cell length 0.025 from 10 gaps" \
  grep -q "collision spacing (cell length): 0.025 m (min 0.025, max 0.025, 10 gaps)" col2.txt
"$py" "$tools/soot_foil.py" --from-npz lat1.npz --xmin 0 --collisions 0.01 >col1.txt 2>&1
check "soot_foil.py --collisions: lat1's cell length 0.0666 (W / 0.45, to the pixel of 1.25e-4)" \
  grep -q "collision spacing (cell length): 0.0666[0-9] m" col1.txt
# --ridges: one bright row whose height falls linearly, 1.5 at x = 0 to 1.1 at x = 0.1 (median 1):
# the mean column max of each 0.02 m window is the line at the window's mean column
"$py" - <<'PY'
import numpy as np
x = np.linspace(0.0, 0.1, 1001)
img = np.ones((40, x.size))
img[17] = 1.5 - 0.4 * x / 0.1
np.savez("ridge.npz", pmax=img, x0=0.0, x1=0.1, y0=0.0, y1=0.01, time=1e-4)
PY
"$py" "$tools/soot_foil.py" --from-npz ridge.npz --ridges 0.02 >ridge.txt 2>&1
ridge_ok() {
  awk '/ridges x 0-0.02 m/ { a = $5 } /ridges x 0.08-0.1 m/ { b = $5 }
       END { d1 = a - 1.4604; d2 = b - 1.1404; exit !(a != "" && b != "" && d1 * d1 < 1e-6 && d2 * d2 < 1e-6) }' ridge.txt
}
check "soot_foil.py --ridges: 1.460 in the first window, 1.140 in the last" ridge_ok
[ $fails -eq 0 ] && echo "all soot-foil checks passed" || echo "$fails soot-foil check(s) failed"
exit $((fails > 0))
