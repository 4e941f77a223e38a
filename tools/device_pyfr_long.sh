#!/usr/bin/env bash
# PyFR's PID from one run, without its start-up: on the GPU machine, after
# `source .devdeps/setup.sh`, with .pyfr_wheels and .pyfr_bench carried
# (../shared/bench/pyfr/README.md):
#   bash tools/device_pyfr_long.sh P E [K]
# The shared harness takes the difference of a 600- and a 100-step run's wall times. Each of them
# holds 28-54 s of kernel start-up against 3 s of timed steps, so a spread of 1-3 s in the
# start-up moved its PID by up to 2.4x between two calls (docs/performance.md). Here one run
# writes its solution every K steps (3 K in all), and the PID comes from the wall times that PyFR
# stores in the first and the last file: 2 K steps and two writes, no start-up. K defaults to
# 1000 (about 7-9 s per K steps at 4e6 DOF on an H200).
set -u
P=$1; E=$2; K=${3:-1000}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench=$here/.pyfr_bench WH=$here/.pyfr_wheels
mkdir -p /tmp/mpilink
ln -sf ${HEXDG_DEPS:-/opt/hexdg-deps}/usr/lib/x86_64-linux-gnu/libmpich.so.12 /tmp/mpilink/libmpi.so.12
export LD_LIBRARY_PATH=/tmp/mpilink:${LD_LIBRARY_PATH:-}
if [ ! -d /tmp/pyfrlib/pyfr ]; then
  python3 -m pip install -q --no-deps --target /tmp/pyfrlib "$WH"/*.whl >/tmp/pyfr_pip.log 2>&1 ||
    { tail -5 /tmp/pyfr_pip.log; exit 1; }
fi
export PYTHONPATH=/tmp/pyfrlib
W=/tmp/pyfr_long_${P}_${E}; mkdir -p $W; cd $W || exit 1
[ -f box.pyfrm ] || { python3 "$bench/make_box_msh.py" $E box.msh &&
  python3 -m pyfr import box.msh box.pyfrm >/dev/null; } || exit 1
dof=$((E * E * E * (P + 1) * (P + 1) * (P + 1)))
dt=$(python3 -c "print(0.1*(6.283185307179586/$E)/($P+1)**2/11)")
sed "s/@P@/$P/;s/@DT@/$dt/;s/@TEND@/$(python3 -c "print(3*$K*$dt)")/" "$bench/tgv.ini.in" |
  sed "s/^dt-out = .*/dt-out = $(python3 -c "print($K*$dt)")/" >long.ini
rm -f soln-*.pyfrs
python3 -m pyfr run -b cuda box.pyfrm long.ini >log 2>&1 || { tail -5 log >&2; exit 1; }
python3 - "$dof" <<'PY'
import glob, re, sys
import h5py
dof = int(sys.argv[1])
rows = []
for f in glob.glob('soln-*.pyfrs'):
    with h5py.File(f) as h:
        s = h['stats'][()]
    s = s.decode() if isinstance(s, bytes) else str(s)
    w = re.search(r'wall-time\s*=\s*([0-9.eE+-]+)', s)
    n = re.search(r'nsteps\s*=\s*(\d+)', s)
    if w and n and int(n.group(1)) > 0:  # not a solution written before the first step
        rows.append((int(n.group(1)), float(w.group(1))))
rows.sort()
if len(rows) < 2:
    sys.exit(f'PyFR wrote {len(rows)} solution files with statistics; need 2')
(n0, w0), (n1, w1) = rows[0], rows[-1]
print(' '.join(f'{n}:{w:.3f}s' for n, w in rows))
print(f'PyFR long run: steps {n0}..{n1} wall {w1 - w0:.3f} s '
      f'PID={(w1 - w0) / ((n1 - n0) * 4 * dof):.3e}')
PY
