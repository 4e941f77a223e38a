#!/usr/bin/env python3
"""Put PNG pictures side by side (or one below the other) into one PNG.

usage: join_png.py a.png b.png [more.png ...] -o out.png [--vertical]

For the two-panel figures of docs/shock_capturing.md (pictures from tools/plot_slice.py). Smaller
pictures are padded with white to the size of the largest. Needs numpy and matplotlib; if the
running Python lacks them, the script re-runs itself with /usr/bin/python3.
"""
import argparse
import os
import sys

REEXEC_GUARD = "HEXDG_JOIN_PNG_REEXEC"

try:
    import numpy as np
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.image as mpimg
except ImportError:
    from system_python import rerun_or_exit

    rerun_or_exit(REEXEC_GUARD,
                  "join_png.py: needs numpy and matplotlib (pip install numpy matplotlib)")


def rgba(path):
    img = mpimg.imread(path)
    if img.dtype != np.float32 and img.dtype != np.float64:
        img = img.astype(np.float64) / 255.0
    if img.ndim == 2:
        img = np.stack([img] * 3, axis=-1)
    if img.shape[2] == 3:
        img = np.concatenate([img, np.ones(img.shape[:2] + (1,), img.dtype)], axis=-1)
    return img


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("png", nargs="+", help="pictures, left to right (top to bottom)")
    parser.add_argument("-o", "--output", required=True, help="PNG file to write")
    parser.add_argument("--vertical", action="store_true", help="one below the other")
    args = parser.parse_args()
    imgs = [rgba(p) for p in args.png]
    axis = 0 if args.vertical else 1
    other = 1 - axis
    size = max(img.shape[other] for img in imgs)
    padded = []
    for img in imgs:
        pad = size - img.shape[other]
        widths = [(0, 0), (0, 0), (0, 0)]
        widths[other] = (pad // 2, pad - pad // 2)
        padded.append(np.pad(img, widths, constant_values=1.0))
    mpimg.imsave(args.output, np.concatenate(padded, axis=axis))
    print(f"join_png.py: wrote {args.output}")


if __name__ == "__main__":
    main()
