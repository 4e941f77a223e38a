#!/usr/bin/env python3
"""Numerical soot foil of a 2-D cellular detonation: the maximum pressure every node saw over the
run (RecordMaxPressure = T, FieldData MaxPressure of a hexdg state file), as a picture, and the
cell width from it.

usage: soot_foil.py --ini case.ini [--hexdg PATH] STATE.h5 [--npz out.npz]    (extract)
       soot_foil.py --front RUN_FrontPressure_<t>.h5 --speed D [--npz out.npz]  (extract)
       soot_foil.py --from-npz in.npz [--png out.png] [--xmin X] [--xmax X] [--lambda-ref L]
                                                                               (analyse)
       soot_foil.py --ini case.ini STATE.h5 --png out.png ...                   (both at once)

Extract: the node positions come from the state's mesh (tools/front_speed.py's MeshMaker: the
HOPR file, or `hexdg mesh box` for the built-in box); the nodes of the first z layer (a 2-D run
has one element layer in z) are binned to a regular x-y image, each pixel the largest MaxPressure
of its nodes, with the pixel size of the mean node spacing. The image (and the state's time) go
to --npz: a few MB where the state file is hundreds, so a GPU machine without matplotlib can
extract and the plot is made elsewhere.

Front: a detonation held in place by the shock-attached frame (RefState 2 flowing in at -D)
leaves no tracks in MaxPressure; its RecordFrontPressure file (the largest pressure per y bin and
time interval) becomes the image with x = D t, and is analysed the same way.

Analyse: the image divided by the CJ pressure (--p-cj, else its median over the burnt region),
drawn with x along the tube (PNG), and two readings of the columns with --xmin <= x < --xmax:

- The transverse spectrum: each column's mean-free p_max(y), mirrored at the walls (period 2W, W
  the channel width), is Fourier transformed and the power spectra are summed; mode k has the
  wavelength 2W / k. The three strongest modes are printed. Sharp tracks put nearly as much power
  in the harmonics as in the fundamental, so the strongest mode can be half the cell width.
- The track lattice, from which the cell width is read: mirrored at the walls, each triple point's
  track is one straight line y = s x + c of period 2W, and the tracks of a regular pattern are m
  such lines spaced 2W / m apart (m triple points in the channel). The image is sheared along
  trial slopes s (0 to 2) and averaged over x; the slope whose mean profile is sharpest (largest
  variance) is the tracks' slope. The profile's spectrum then has power only at multiples of m:
  m is the largest count whose multiples hold at least 60 % of the power. The cell width is
  lambda = 2W / m and the cell length L = lambda / s (a diamond of width lambda between tracks
  of slopes +s and -s). The tracks' contrast (profile's peak over its mean) is printed with them.

`--collisions DX` (optional) reads the cell length without the lattice fit: where a triple point
hits a wall, its track and its mirror image meet, and the wall row's p_max peaks. A regular
pattern's collisions at one wall are one cell length apart whatever the number of cells (tracks
2W / m apart with slope s meet the wall every lambda / s). Printed: the x of every column whose
wall value (largest of the 3 rows next to the wall) is the largest within DX / 2 on each side and
at least --collision-min (default 1.3) times the image's median, per wall, with its height, and
the mean spacing. Weaker transverse waves hit the walls too (1.2-1.3 in the 0.05 mm half channel,
against 1.38-1.64 for the cells' triple points): the heights tell them apart.

Printed last: `cell_width <m>`, the lattice's lambda.

Needs numpy and h5py (extract), matplotlib (PNG); reruns itself with /usr/bin/python3 when the
running Python lacks numpy.
"""
import argparse
import os
import sys

try:
    import numpy as np
except ImportError:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from system_python import rerun_or_exit

    rerun_or_exit("HEXDG_SOOT_FOIL_REEXEC", "soot_foil.py: needs numpy (pip install numpy)")

PROG = "soot_foil.py"


def fail(message):
    sys.exit(f"{PROG}: {message}")


def extract(args):
    """The binned max-pressure image of the first z layer of the state file."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import front_speed as fs  # node positions of a state, the same as the front speed's
    import h5py

    state = fs.State(args.state)
    with h5py.File(args.state, "r") as f:
        if "FieldData" not in f:
            fail(f"{args.state}: no FieldData (run with RecordMaxPressure = T)")
        names = [fs.as_text(n) for n in np.atleast_1d(f.attrs.get("VarNamesAddField", []))]
        if "MaxPressure" not in names:
            fail(f"{args.state}: FieldData holds {names}, not MaxPressure "
                 "(run with RecordMaxPressure = T)")
        pmax = np.asarray(f["FieldData"][..., names.index("MaxPressure")], dtype=float)
    maker = fs.MeshMaker(argparse.Namespace(ini=args.ini, hexdg=args.hexdg, verbose=False))
    try:
        x, y, z = (maker.coordinate(state, a) for a in range(3))
    finally:
        maker.close()
    z0 = z.min()
    thick = z.max() - z0
    layer = np.abs(z - z0) <= 1e-9 * max(thick, 1e-300)  # the nodes on the lower z face
    x, y, p = x[layer], y[layer], pmax[layer]
    width, length = y.max() - y.min(), x.max() - x.min()
    n_nodes_y = len(np.unique(np.round((y - y.min()) / width * 1e6)))
    h = width / max(n_nodes_y - 1, 1)  # mean node spacing across the channel
    nx, ny = int(round(length / h)) + 1, n_nodes_y
    ix = np.clip(np.round((x - x.min()) / length * (nx - 1)).astype(int), 0, nx - 1)
    iy = np.clip(np.round((y - y.min()) / width * (ny - 1)).astype(int), 0, ny - 1)
    img = np.full((ny, nx), -np.inf)
    np.maximum.at(img, (iy, ix), p)
    # pixels no node fell into (Gauss-Lobatto spacing is uneven): the previous column's value
    for j in range(1, nx):
        gap = ~np.isfinite(img[:, j])
        img[gap, j] = img[gap, j - 1]
    img[~np.isfinite(img)] = np.nan
    return {"pmax": img, "x0": x.min(), "x1": x.max(), "y0": y.min(), "y1": y.max(),
            "time": state.time}


def extract_front(args):
    """The image of a front-pressure record (RecordFrontPressure: rows in time, bins in y) with
    x = D t: the lab frame's soot foil of a front held in place by the shock-attached frame."""
    import h5py

    if not (args.speed and args.speed > 0):
        fail("--front needs --speed D (m/s): the detonation's speed, -u of the inflow RefState")
    ts, rs, y = [], [], None
    for path in args.front:  # the files of a run and its restarts, each from its start time
        with h5py.File(path, "r") as f:
            for key in ("Time", "Y", "FrontPressure"):
                if key not in f:
                    fail(f"{path}: no dataset {key} (a file of RecordFrontPressure?)")
            yf = f["Y"][...]
            if y is not None and (yf.shape != y.shape or np.abs(yf - y).max() > 1e-12 * np.abs(y).max()):
                fail(f"{path}: its bins differ from {args.front[0]}'s (another RecordFrontPressure?)")
            y = yf
            ts.append(f["Time"][...])
            rs.append(np.asarray(f["FrontPressure"][...], dtype=float).reshape(len(ts[-1]), len(y)))
    t, rows = np.concatenate(ts), np.concatenate(rs)
    order = np.argsort(t, kind="stable")
    t, rows = t[order], rows[order]
    if rows.shape[0] < 2:
        fail(f"{len(args.front)} file(s) with {rows.shape[0]} rows; the record needs two or more")
    img = rows.T.copy()  # y down the rows, x = D t along the columns
    img[img <= 0.0] = np.nan  # bins no node fell into
    return {"pmax": img, "x0": args.speed * t[0], "x1": args.speed * t[-1], "y0": y[0],
            "y1": y[-1], "time": t[-1]}


def mirrored_window(img, x, xmin, xmax):
    """The burnt columns with xmin <= x < xmax, evenly extended at the walls (the walls at y0 and
    y1 are symmetry lines of the pattern: period 2W), and their x."""
    sel = (x >= xmin) & (x < xmax) & np.all(np.isfinite(img), axis=0)
    if not sel.any():
        fail(f"no burnt column with {xmin:g} <= x < {xmax:g}: widen --xmin/--xmax")
    cols = img[:, sel]
    return np.concatenate([cols, cols[-2:0:-1]], axis=0), x[sel]


def transverse_spectrum(ext):
    """Summed power spectrum over y of the mirrored columns (mean removed per column)."""
    ext = ext - ext.mean(axis=0)
    return np.sum(np.abs(np.fft.rfft(ext, axis=0)) ** 2, axis=1)


def track_lattice(ext, xs, width):
    """The tracks' slope s, count m in the mirrored period 2W, the share of the sheared profile's
    power at multiples of m, and the profile's contrast (see the module's doc)."""
    n_per = ext.shape[0]
    dy = 2.0 * width / n_per
    rows = np.arange(n_per)[:, None]
    best = None
    for slope in np.linspace(0.0, 2.0, 201):
        shift = np.rint(slope * (xs - xs[0]) / dy).astype(int)
        profile = ext[(rows + shift[None, :]) % n_per, np.arange(xs.size)[None, :]].mean(axis=1)
        if best is None or profile.var() > best[1].var():
            best = (slope, profile)
    slope, profile = best
    power = np.abs(np.fft.rfft(profile - profile.mean())) ** 2
    total = power[1:].sum()
    m = max(k for k in range(1, power.size) if power[k::k].sum() >= 0.6 * total)
    return slope, m, power[m::m].sum() / total, profile.max() / profile.mean()


def analyse(data, args):
    img = data["pmax"]
    ny, nx = img.shape
    x = np.linspace(data["x0"], data["x1"], nx)
    width = data["y1"] - data["y0"]
    xmin = args.xmin if args.xmin is not None else data["x0"] + 0.5 * (data["x1"] - data["x0"])
    xmax = args.xmax if args.xmax is not None else np.inf
    ext, xs = mirrored_window(img, x, xmin, xmax)
    power, n_cols = transverse_spectrum(ext), xs.size
    period = 2.0 * width  # the even extension's period
    modes = np.argsort(power[1:])[::-1][:3] + 1
    window = f"x >= {xmin:.6g} m" + (f" and < {xmax:.6g} m" if np.isfinite(xmax) else "")
    print(f"channel width {width:.6g} m, {nx} x {ny} pixels, t = {data['time']:.6g} s, "
          f"{n_cols} columns with {window}")
    for k in modes:
        print(f"  transverse mode {k}: wavelength {period / k:.6g} m, relative power "
              f"{power[k] / power[1:].sum():.3f}")
    slope, m, share, contrast = track_lattice(ext, xs, width)
    lam = period / m
    print(f"  track lattice: slope {slope:.3f}, {m} track(s) in 2W, cell width {lam:.6g} m, "
          f"cell length {lam / slope if slope > 0 else np.inf:.6g} m ({share:.2f} of the sheared "
          f"profile's power at its multiples, contrast {contrast:.3f})")
    if slope < 0.05:
        print("  (slope below 0.05: streaks along x rather than triple-point tracks)")
    if args.ridges:
        ridges(img, x, args.ridges)
    if args.collisions:
        collisions(img, x, args.collisions, args.collision_min)
    if args.lambda_ref:
        print(f"literature cell width {args.lambda_ref:.6g} m: ratio {lam / args.lambda_ref:.3f}")
    if args.png:
        plot(args.plt, img, data, xmin, lam, args)
    print(f"cell_width {lam:.6g}")


def ridges(img, x, dx):
    """Per window of dx along x (the whole record): the mean over the columns of each column's
    largest p_max (the track ridges) and of each column's mean, both over the record's median.
    Transverse waves that keep their strength keep the first; a decaying pattern loses it."""
    med = np.median(img)
    col_max, col_mean = img.max(axis=0) / med, img.mean(axis=0) / med
    print(f"ridges (median {med:.6g}): window, mean column max / median, mean column mean / median")
    for a in np.arange(np.floor(x[0] / dx) * dx, x[-1], dx):
        sel = (x >= a) & (x < a + dx)
        if sel.any():
            print(f"  ridges x {a:.4g}-{a + dx:.4g} m: {col_max[sel].mean():.3f} "
                  f"{col_mean[sel].mean():.3f} ({sel.sum()} columns)")


def collisions(img, x, dx, threshold, rows=3):
    """Triple-point collisions with each wall: the wall band's peaks at least dx apart and above
    threshold times the image's median (see the module's doc), and their mean spacing."""
    med = np.nanmedian(img)
    half = max(1, int(round(0.5 * dx / (x[1] - x[0]))))
    spacings = []
    for name, band in (("y0", img[:rows]), ("y1", img[-rows:])):
        s = np.nanmax(band, axis=0) / med
        peaks = [i for i in range(half, s.size - half)
                 if np.isfinite(s[i]) and s[i] >= threshold and s[i] == np.nanmax(s[i - half:i + half + 1])]
        xs = x[peaks]
        gaps = np.diff(xs)
        spacings.extend(gaps)
        listed = " ".join(f"{v:.4g} ({s[i]:.2f})" for v, i in zip(xs, peaks))
        print(f"  collisions at the wall {name}: x (p_max / median) {listed or 'none'}"
              + (f"; spacing {gaps.mean():.4g} m" if gaps.size else ""))
    if spacings:
        print(f"  collision spacing (cell length): {np.mean(spacings):.4g} m "
              f"(min {np.min(spacings):.4g}, max {np.max(spacings):.4g}, {len(spacings)} gaps)")


def plot(plt, img, data, xmin, lam, args):
    finite = img[np.isfinite(img)]
    p_ref = args.p_cj if args.p_cj else np.median(finite[finite > np.percentile(finite, 50)])
    extent = [data["x0"] * 100, data["x1"] * 100, data["y0"] * 100, data["y1"] * 100]
    aspect = (extent[1] - extent[0]) / (extent[3] - extent[2])
    short = aspect < 3.0  # a short record: a taller picture, the title on two lines
    height = 4.0 if short else 2.6
    fig, ax = plt.subplots(figsize=(min(16, max(4.0, 2.2 + 1.6 * aspect * height / 2.6)), height))
    im = ax.imshow(img / p_ref, origin="lower", extent=extent, cmap="gray_r", vmin=0.5,
                   vmax=args.vmax, interpolation="nearest", aspect="equal")
    ax.axvline(xmin * 100, color="tab:red", lw=0.8, ls="--")
    ax.set_xlabel("x [cm]")
    ax.set_ylabel("y [cm]")
    ax.set_title(args.title or f"maximum pressure / {p_ref:.4g} Pa;{chr(10) if short else ' '}"
                 f"cell width of the track lattice {lam * 100:.3g} cm (x > {xmin * 100:.3g} cm, dashed)",
                 fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.02, pad=0.01)
    fig.tight_layout()
    fig.savefig(args.png, dpi=args.dpi)
    print(f"wrote {args.png}")


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("state", nargs="?", help="state file with FieldData MaxPressure")
    ap.add_argument("--ini", help="the run's parameter file (built-in box meshes)")
    ap.add_argument("--hexdg", help="hexdg executable (for `hexdg mesh box`)")
    ap.add_argument("--front", nargs="+", help="RecordFrontPressure files instead of a state "
                    "(a run and its restarts; rows in time become x = D t; needs --speed)")
    ap.add_argument("--speed", type=float, help="with --front: the detonation speed D [m/s]")
    ap.add_argument("--npz", help="write the extracted image here")
    ap.add_argument("--from-npz", help="analyse an image written with --npz")
    ap.add_argument("--png", help="draw the soot foil")
    ap.add_argument("--xmin", type=float, help="spectrum over x >= xmin (default: the second half)")
    ap.add_argument("--xmax", type=float, help="and x < xmax (default: to the end)")
    ap.add_argument("--ridges", type=float, metavar="DX", help="print the track ridges' height "
                    "per window of DX along x [m] (the whole record)")
    ap.add_argument("--collisions", type=float, metavar="DX", help="print where triple points "
                    "hit the walls (peaks at least DX [m] apart) and their spacing, the cell length")
    ap.add_argument("--collision-min", type=float, default=1.3, help="with --collisions: the "
                    "least peak height, in units of the image's median")
    ap.add_argument("--lambda-ref", type=float, help="a literature cell width to compare with [m]")
    ap.add_argument("--p-cj", type=float, help="pressure scale of the picture (default: median)")
    ap.add_argument("--vmax", type=float, default=3.0, help="colour scale top, in units of p_CJ")
    ap.add_argument("--dpi", type=int, default=150)
    ap.add_argument("--title")
    args = ap.parse_args()
    args.plt = None
    if args.png:  # matplotlib before any work (a rerun under /usr/bin/python3 starts afresh)
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from system_python import pyplot

        args.plt = pyplot("HEXDG_SOOT_FOIL_REEXEC", PROG)
    if args.from_npz:
        with np.load(args.from_npz) as f:
            data = {k: f[k] for k in f.files}
        data = {k: (v if v.ndim else float(v)) for k, v in data.items()}
    elif args.state or args.front:
        data = extract_front(args) if args.front else extract(args)
        if args.npz:
            np.savez_compressed(args.npz, **data)
            print(f"wrote {args.npz} ({data['pmax'].shape[1]} x {data['pmax'].shape[0]} pixels)")
    else:
        fail("give a state file, --front or --from-npz")
    if args.from_npz or args.png or not args.npz:
        analyse(data, args)


if __name__ == "__main__":
    main()
