#!/usr/bin/env bash
# tools/chem_scaling.py on CPU ranks: a small 2-D detonation channel (h2o2, 30 x 4 elements;
# first-order subcells at alpha_max 1, the set-up the test was made with) from t = 0 to 0.3 us,
# then 10 restarted steps on 1 and 2 ranks, weak (channel twice as wide) and strong, uniform and
# weighted, each rank integrating its own reactors and with the reactors shared (--share F,T).
# Every point must run and parse; with own reactors the ElemCost weights must cut the chemistry
# imbalance of each 2-rank point by more than 0.2; with shared reactors it must be below 1.2 on
# either partition; the report writes its
# table. Skipped (77) without the mechanism or python3.
source "$(dirname "$0")/mpi_lib.sh"
mech="$root/../shared/data/mechanisms/h2o2_cantera/h2o2.yaml"
[ -f "$mech" ] || mech="$root/.oracle/mechanisms/h2o2.yaml"
[ -f "$mech" ] || { echo "h2o2 mechanism not found: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
sed -e 's|^BoxElems .*|BoxElems = (/30,4,1/)|' -e 's|^BoxUpper .*|BoxUpper = (/0.018,0.0024,0.0006/)|' \
    -e 's|^IniCenter .*|IniCenter = (/0.010,0.0012,0./)|' \
    -e 's|^FV_LimiterType .*|FV_LimiterType = FirstOrder|' -e 's|^FV_alpha_max .*|FV_alpha_max = 1.|' \
    "$root/parameter_files/detonation_h2o2ar_2d.ini" >small.ini
if python3 "$root/tools/chem_scaling.py" run --hexdg "$hexdg" --ini small.ini --mech "$mech" \
     --gpus 1,2 --pre-time 3e-7 --steps 10 --set Backend=cpu --share F,T --launcher "$mpiexec -n {n}" \
     --timeout 120 --out cs >tool.log 2>&1; then
  echo "ok   - chem_scaling.py run"
else
  echo "FAIL - chem_scaling.py run:"; tail -20 tool.log; fails=$((fails + 1))
fi
python3 - cs/chem_scaling.csv <<'PY' || fails=$((fails + 1))
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
want = {("from_start", "1", "F", ""), ("from_start", "2", "F", ""), ("weak", "1", "F", "")}
want |= {(m, "2", w, s) for m in ("weak", "strong") for w in "FT" for s in "FT"}
got = {(r["mode"], r["gpus"], r["weighted"], r["share"]) for r in rows}
bad = [r for r in rows if r["status"] != "ok" or not r["wall_per_step"] or not r["imbalance"]]
ok = got == want and not bad
for mode in ("weak", "strong"):
    imb = {r["weighted"] + r["share"]: float(r["imbalance"]) for r in rows
           if r["mode"] == mode and r["gpus"] == "2"}
    drop = imb.get("FF", 0) - imb.get("TF", 9)
    print(f"{'ok  ' if drop > 0.2 else 'FAIL'} - {mode}, 2 ranks, own reactors: chemistry imbalance "
          f"{imb.get('FF')} -> {imb.get('TF')} (weights)")
    shared = max(imb.get("FT", 9), imb.get("TT", 9))
    print(f"{'ok  ' if shared < 1.2 else 'FAIL'} - {mode}, 2 ranks, shared reactors: chemistry "
          f"imbalance {imb.get('FT')} (uniform), {imb.get('TT')} (weights)")
    ok = ok and drop > 0.2 and shared < 1.2
    steps = [int(r["steps"]) for r in rows if r["mode"] == mode]
    ok = ok and all(s == 10 for s in steps)
print(("ok   - " if ok else "FAIL - ") + f"{len(rows)} points, all parsed: {not bad}, the expected set: {got == want}")
sys.exit(0 if ok else 1)
PY
if python3 "$root/tools/chem_scaling.py" report --out cs >report.log 2>&1 && grep -q '^| strong | 2 | T | T |' cs/chem_scaling.md; then
  echo "ok   - report table"
else
  echo "FAIL - report"; cat report.log; fails=$((fails + 1))
fi
finish
