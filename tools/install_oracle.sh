#!/usr/bin/env bash
# Chemistry test oracle: Cantera (PyPI) in a venv under .oracle/, and the two Cantera mechanisms the
# chemistry tests read (GRI-Mech 3.0, n-dodecane Reitz) copied to .oracle/mechanisms/. hexdg never
# uses Cantera at run time; without network this prints a notice and the tests that need it skip.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/.oracle"
mech="$dir/mechanisms"
ref="$dir/ref"
bash "$root/tools/install_gmsh.sh"  # gmsh for tools/mesh_cascade.py (same venv)
if [ -f "$mech/gri30.yaml" ] && [ -f "$mech/nDodecane_Reitz.yaml" ] && [ -x "$dir/venv/bin/python" ] &&
   [ -f "$ref/rates_gri30.csv" ] && [ -f "$ref/rates_dodecane.csv" ]; then
  exit 0
fi
py=""
for c in /usr/bin/python3 python3; do
  if command -v "$c" >/dev/null 2>&1 && "$c" -c "import venv, ensurepip" 2>/dev/null; then py="$c"; break; fi
done
if [ -z "$py" ]; then
  echo "hexdg: no python3 with venv/ensurepip (apt-get install python3-venv): Cantera oracle not installed, its tests skip"
  exit 0
fi
mkdir -p "$mech"
if [ ! -x "$dir/venv/bin/python" ]; then
  echo "hexdg: installing the chemistry test oracle (Cantera, PyPI) into .oracle/venv"
  "$py" -m venv "$dir/venv" || { echo "hexdg: venv failed: Cantera tests skip"; exit 0; }
fi
if ! "$dir/venv/bin/python" -c "import cantera" 2>/dev/null; then
  "$dir/venv/bin/pip" install -q cantera numpy || { echo "hexdg: pip install cantera failed: Cantera tests skip"; exit 0; }
fi
data="$("$dir/venv/bin/python" -c "import cantera, os; print(os.path.join(os.path.dirname(cantera.__file__), 'data'))")"
for f in gri30.yaml nDodecane_Reitz.yaml; do
  [ -f "$data/$f" ] && cp "$data/$f" "$mech/$f"
done
# reference rates at 1000 random states (tools/chem_reference.py): too large to commit
mkdir -p "$ref"
[ -f "$ref/rates_gri30.csv" ] || "$dir/venv/bin/python" "$root/tools/chem_reference.py" rates \
  --mech "$mech/gri30.yaml" --n 1000 --seed 5 -o "$ref/rates_gri30.csv"
[ -f "$ref/rates_dodecane.csv" ] || "$dir/venv/bin/python" "$root/tools/chem_reference.py" rates \
  --mech "$mech/nDodecane_Reitz.yaml" --n 1000 --seed 6 -o "$ref/rates_dodecane.csv"
exit 0
