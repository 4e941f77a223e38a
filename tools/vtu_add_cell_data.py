#!/usr/bin/env python3
"""Add an element-wise dataset of a state file (default FV_alpha) to a .vtu as cell data.

usage: vtu_add_cell_data.py case.vtu state.h5 [--dataset FV_alpha] [-o out.vtu]

`hexdg convert` writes the point data of a state file but not its element datasets (FV_alpha of
the shock capturing). This script reads the dataset (one double per element, in the element order
of DG_Solution) and appends it to the raw appended data of a .vtu converted from the same state
on one rank (cells in element order), as <CellData> Float64, so that tools/plot_slice.py
--alpha / --alpha-overlay and ParaView see it. Only the raw appended files that hexdg writes
(header_type UInt64) are taken. Needs numpy and h5py; if the running Python lacks them, the script
re-runs itself with /usr/bin/python3. See docs/output.md and docs/shock_capturing.md.
"""
import argparse
import os
import re
import sys

FALLBACK_PYTHON = "/usr/bin/python3"
REEXEC_GUARD = "HEXDG_VTU_ADD_CELL_DATA_REEXEC"

try:
    import h5py
    import numpy as np
except ImportError:
    if os.environ.get(REEXEC_GUARD) or os.path.realpath(sys.executable) == os.path.realpath(
        FALLBACK_PYTHON
    ):
        sys.exit("vtu_add_cell_data.py: needs numpy and h5py (pip install numpy h5py)")
    os.environ[REEXEC_GUARD] = "1"
    os.execv(FALLBACK_PYTHON, [FALLBACK_PYTHON] + sys.argv)


def fail(msg):
    sys.exit(f"vtu_add_cell_data.py: {msg}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("vtu", help=".vtu written by hexdg (hexdg convert case.ini state.h5 -o x.vtu)")
    parser.add_argument("state", help="the state file the .vtu was converted from")
    parser.add_argument("--dataset", default="FV_alpha", help="element dataset (default FV_alpha)")
    parser.add_argument("-o", "--output", help="output .vtu (default: overwrite the input)")
    args = parser.parse_args()

    with h5py.File(args.state, "r") as f:
        if args.dataset not in f:
            fail(f"{args.state} has no dataset {args.dataset!r} (datasets: {', '.join(f.keys())})")
        values = np.asarray(f[args.dataset][...], dtype="<f8").ravel()

    with open(args.vtu, "rb") as f:
        raw = f.read()
    at = raw.find(b"<AppendedData")
    if at < 0:
        fail(f"{args.vtu}: no <AppendedData> (only raw appended files are taken)")
    head = raw[:at].decode("ascii", "replace")
    if 'header_type="UInt64"' not in head or 'byte_order="LittleEndian"' not in head:
        fail(f"{args.vtu}: expected byte_order LittleEndian and header_type UInt64 (as hexdg writes)")
    if f'Name="{args.dataset}"' in head:
        fail(f"{args.vtu} already has an array {args.dataset!r}")
    cells = re.search(r'NumberOfCells="(\d+)"', head)
    if not cells or int(cells.group(1)) != values.size:
        fail(
            f"{args.vtu} has {cells.group(1) if cells else '?'} cells, the dataset "
            f"{values.size} values: convert the same state on one rank"
        )
    tag_end = raw.find(b">", at)
    if b'encoding="raw"' not in raw[at:tag_end]:
        fail(f"{args.vtu}: appended data is not raw")
    data_start = raw.find(b"_", tag_end) + 1
    end = data_start
    for offset in re.findall(r'format="appended" offset="(\d+)"', head):
        block = data_start + int(offset)
        n_bytes = int(np.frombuffer(raw, dtype="<u8", count=1, offset=block)[0])
        end = max(end, block + 8 + n_bytes)

    new_offset = end - data_start
    array = (
        f'      <CellData Scalars="{args.dataset}">\n'
        f'        <DataArray type="Float64" Name="{args.dataset}" NumberOfComponents="1" '
        f'format="appended" offset="{new_offset}"/>\n'
        "      </CellData>\n"
    ).encode("ascii")
    if "<CellData" in head:  # add to the existing section
        close = raw.find(b"</CellData>")
        close = raw.rfind(b"\n", 0, close) + 1
        xml = raw[:close] + array.split(b"\n")[1] + b"\n" + raw[close:at]
    else:  # a new section after the point data (VTK's order: PointData, CellData, Points)
        insert = raw.find(b"<Points>")
        insert = raw.rfind(b"\n", 0, insert) + 1
        xml = raw[:insert] + array + raw[insert:at]
    block = np.array([values.nbytes], dtype="<u8").tobytes() + values.tobytes()
    out = xml + raw[at:end] + block + raw[end:]
    path = args.output or args.vtu
    with open(path, "wb") as f:
        f.write(out)
    print(
        f"vtu_add_cell_data.py: wrote {path}: cell data {args.dataset} "
        f"(min {values.min():g}, max {values.max():g}, {np.count_nonzero(values > 0)} of "
        f"{values.size} > 0)"
    )


if __name__ == "__main__":
    main()
