#!/usr/bin/env bash
# Mesh tool dependency: gmsh's Python API (PyPI `gmsh`, which ships libgmsh) in the venv under
# .oracle/ (tools/mesh_cascade.py finds it there). Without network this prints a notice and the
# tests that need gmsh skip. The wheel needs libGLU/libX* (tools/install_deps.sh).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/.oracle"
[ -x "$dir/venv/bin/python" ] && "$dir/venv/bin/python" -c "import gmsh" 2>/dev/null && exit 0
py=""
for c in /usr/bin/python3 python3; do
  if command -v "$c" >/dev/null 2>&1 && "$c" -c "import venv, ensurepip" 2>/dev/null; then py="$c"; break; fi
done
if [ -z "$py" ]; then
  echo "hexdg: no python3 with venv/ensurepip (apt-get install python3-venv): gmsh not installed, its tests skip"
  exit 0
fi
mkdir -p "$dir"
[ -x "$dir/venv/bin/python" ] || "$py" -m venv "$dir/venv" || { echo "hexdg: venv failed: gmsh tests skip"; exit 0; }
echo "hexdg: installing gmsh (PyPI) into .oracle/venv for tools/mesh_cascade.py"
"$dir/venv/bin/pip" install -q gmsh numpy || echo "hexdg: pip install gmsh failed: gmsh tests skip"
exit 0
