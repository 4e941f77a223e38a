#!/usr/bin/python3
"""Scaling of a reacting run over MPI ranks (one rank per GPU), with and without the chemistry
weights in the partition (issue 21): the 2-D cellular detonation by default.

  weak:   g GPUs run a channel g times as wide (BoxElems and BoxUpper in y times g, IniCenter in
          the middle), so each GPU holds the same length of front and of burnt gas.
  strong: the one-GPU channel on g GPUs.

Every width first runs from t = 0 to --pre-time on its g ranks (uniform partition; its state
file holds ElemCost, the measured cost of each element). From that state each point restarts
for --steps time steps, with WeightedPartition = F (uniform SFC ranges) and T (ranges of equal
ElemCost), and with each ChemLoadBalance of --share (T: the reactors shared among the ranks at
every chemistry step, the default; F: each rank integrates its own; "F,T" measures both from the
same restart states). The restart's last analysis prints the chemistry stage's rank imbalance
(max/mean of the ranks' integration time) and its slowest-rank and mean times per step; the wall
time per step is read from the same line, so set-up and file output are not counted.

  tools/chem_scaling.py run --hexdg build-gpu/hexdg --mech h2o2.yaml --gpus 1,2,4 --out chem_scaling
  tools/chem_scaling.py report --out chem_scaling      # chem_scaling.md + chem_scaling.png

Efficiencies against one GPU: weak t1/tg, strong t1/(g tg), with t the wall time per time step.
`run` appends each point to chem_scaling.csv as it finishes; the runs' output goes to runs.log.
"""
import argparse
import csv
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

from scaling import write_table  # tools/scaling.py, beside this file

FIELDS = ["mode", "gpus", "weighted", "share", "elems", "dof", "t_start", "steps", "wall_per_step",
          "chem_share", "chem_max_per_step", "chem_mean_per_step", "imbalance", "steps_per_dof",
          "gpu_chem_per_step", "stage_per_step", "reactors_slowest", "reactors_fastest", "pid",
          "status"]

VEC = r"\(/\s*([^/]*?)\s*/\)"


def read_key(text, key):
    m = re.search(rf"^\s*{key}\s*=\s*(.*?)\s*(?:!.*)?$", text, re.M | re.I)
    if not m:
        sys.exit(f"chem_scaling: key {key} not found in the parameter file")
    return m.group(1)


def vec(text, key):
    m = re.match(VEC, read_key(text, key))
    if not m:
        sys.exit(f"chem_scaling: {key} is not a vector (/a,b,c/)")
    return [x.strip() for x in m.group(1).split(",")]


def set_key(text, key, value):
    """Replace the first line of key (its comment dropped) or append it."""
    line = f"{key} = {value}"
    pat = re.compile(rf"^\s*{key}\s*=.*$", re.M | re.I)
    return pat.sub(lambda _: line, text, count=1) if pat.search(text) else text + line + "\n"


def widened(base, g, args):
    """The parameter file of width g (weak scaling); g = 1 is the case itself."""
    e, up, c = vec(base, "BoxElems"), vec(base, "BoxUpper"), vec(base, "IniCenter")
    e[1] = str(int(e[1]) * g)
    up[1] = repr(float(up[1]) * g)
    c[1] = repr(float(c[1]) * g)
    t = set_key(base, "BoxElems", "(/" + ",".join(e) + "/)")
    t = set_key(t, "BoxUpper", "(/" + ",".join(up) + "/)")
    t = set_key(t, "IniCenter", "(/" + ",".join(c) + "/)")
    if args.mech:
        t = set_key(t, "Mechanism", os.path.abspath(args.mech))
    for kv in args.set:
        k, v = kv.split("=", 1)
        t = set_key(t, k.strip(), v.strip())
    return t, [int(x) for x in e]


def run_hexdg(args, n, workdir, ini_text, restart, log):
    os.makedirs(workdir, exist_ok=True)
    ini = os.path.join(workdir, "case.ini")
    with open(ini, "w") as f:
        f.write(ini_text)
    cmd = shlex.split(args.launcher.format(n=n)) + [os.path.abspath(args.hexdg), "case.ini"]
    if restart:
        cmd.append(os.path.abspath(restart))
    if shutil.which("timeout"):
        cmd = ["timeout", "-k", "10", str(args.timeout)] + cmd
    t0 = time.time()
    env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"))
    p = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, env=env)
    text = p.stdout + p.stderr
    log.write(f"$ (cd {workdir}; {' '.join(cmd)})\n{text}\n")
    log.flush()
    status = "ok" if p.returncode == 0 else ("timeout" if p.returncode in (124, 137)
                                             else f"exit {p.returncode}")
    return text, status, time.time() - t0


def parse(text):
    """The figures of the run's last analysis."""
    r = {}
    lines = re.findall(r"^t = (\S+) .*?iter (\d+)\s+wall (\S+) s.*?PID (\S+)", text, re.M)
    if lines:
        t, it, wall, pid = lines[-1]
        r.update(steps=int(it), wall_per_step=float(wall) / max(int(it), 1), pid=pid)
    m = re.findall(r"chemistry: (\S+) % of the wall time, (\S+) integrator steps per DOF and time "
                   r"step, rank imbalance \(max/mean\) (\S+)", text)
    if m:
        r.update(chem_share=m[-1][0], steps_per_dof=m[-1][1], imbalance=m[-1][2])
    m = re.findall(r"slowest rank (\S+) s, mean of the ranks (\S+) s", text)
    if m:
        r.update(chem_max_per_step=m[-1][0], chem_mean_per_step=m[-1][1])
    # the per-rank lines (several ranks): the stage's wall time (integration, gathering, the shared
    # reactors' exchanges and waits) and the reactors integrated on the slowest and fastest rank
    m = re.findall(r"chemistry per time step, (slowest|fastest) rank \d+: \S+ s, (\S+) reactors, .*?"
                   r"the stage (\S+) s", text)
    for which, reactors, stage in m[-2:]:
        r["reactors_" + which] = reactors
        r["stage_per_step"] = max(float(stage), float(r.get("stage_per_step", 0)))
    m = re.findall(r"chemistry on the GPU .*?, (\S+) s per time step", text)
    if m:
        r.update(gpu_chem_per_step=m[-1])
    m = re.search(r"DOF (\d+)\s+ranks", text)
    if m:
        r.update(dof=m.group(1))
    return r


def last_state(workdir, project):
    files = sorted(f for f in os.listdir(workdir) if f.startswith(project + "_State_") and
                   f.endswith(".h5"))
    return os.path.join(workdir, files[-1]) if files else None


def cmd_run(args):
    os.makedirs(args.out, exist_ok=True)
    base = open(args.ini).read()
    project = read_key(base, "ProjectName")
    gpus = [int(g) for g in args.gpus.split(",")]
    path = os.path.join(args.out, "chem_scaling.csv")
    fresh = not os.path.exists(path)
    states = {}
    with open(path, "a", newline="") as f, open(os.path.join(args.out, "runs.log"), "a") as log:
        w = csv.DictWriter(f, FIELDS, lineterminator="\n")
        if fresh:
            w.writeheader()

        def point(mode, g, weighted, text, restart, wd, elems, share=""):
            out, status, secs = run_hexdg(args, g, wd, text, restart, log)
            r = parse(out)
            if status == "ok" and "imbalance" not in r:
                status = "no chemistry line"
            row = {"mode": mode, "gpus": g, "weighted": weighted, "share": share,
                   "elems": "x".join(map(str, elems)),
                   "t_start": 0.0 if restart is None else args.pre_time, "status": status}
            row.update({k: v for k, v in r.items() if k in FIELDS})
            w.writerow(row)
            f.flush()
            print(f"{mode:11s} gpus {g} weighted {weighted} elems {row['elems']:>10s} "
                  f"step {r.get('wall_per_step', float('nan')):.4g} s  chemistry max/mean "
                  f"{r.get('imbalance', '-')}  {status} ({secs:.0f} s)", flush=True)
            return out, status

        def restart_state(width):
            """The state at --pre-time of this width, run from t = 0 the first time it is needed."""
            if width not in states:
                text, elems = widened(base, width, args)
                text = set_key(text, "tend", repr(args.pre_time))
                text = set_key(text, "Analyze_dt", repr(args.pre_time))
                text = set_key(text, "nWriteData", "1")
                wd = os.path.join(args.out, f"pre_w{width}")
                _, status = point("from_start", width, "F", text, None, wd, elems)
                st = last_state(wd, project)
                states[width] = (st, elems) if status == "ok" and st else None
            return states[width]

        # the most telling points first (a time limit keeps what has run): the one-GPU
        # reference, then the largest GPU count strong and weak, then the others
        points = [("weak" if "weak" in args.modes else "strong", 1, 1)] if 1 in gpus else []
        for g in sorted((g for g in gpus if g > 1), reverse=True):
            points += [("strong", g, 1)] if "strong" in args.modes else []
            points += [("weak", g, g)] if "weak" in args.modes else []
        for mode, g, width in points:
            got = restart_state(width)
            if not got:
                print(f"{mode} gpus {g}: no restart state of width {width}", flush=True)
                continue
            st, elems = got
            text, _ = widened(base, width, args)
            text = set_key(text, "maxIter", str(args.steps))
            text = set_key(text, "tend", repr(args.pre_time * 10))
            text = set_key(text, "Analyze_dt", repr(args.pre_time * 10))  # one analysis: the stop
            text = set_key(text, "nWriteData", "1")
            for wp in (["F", "T"] if g > 1 else ["F"]):
                for sh in (args.share.split(",") if g > 1 else [""]):
                    wd = os.path.join(args.out, f"{mode}_g{g}_w{wp}{sh}")
                    t = set_key(text, "WeightedPartition", wp)
                    t = set_key(t, "ChemLoadBalance", sh) if sh else t
                    point(mode, g, wp, t, st, wd, elems, sh)
                    if not args.keep:
                        shutil.rmtree(wd, ignore_errors=True)
        if not args.keep:
            for width in states:
                shutil.rmtree(os.path.join(args.out, f"pre_w{width}"), ignore_errors=True)
    print(f"wrote {path}")


def cmd_report(args):
    with open(os.path.join(args.out, "chem_scaling.csv")) as f:
        rows = list(csv.DictReader(f))
    ok = [r for r in rows if r["status"] == "ok" and r.get("wall_per_step")]
    one = {}  # the one-GPU runs; weak and strong share the restart where one call ran both
    for r in ok:
        if int(r["gpus"]) == 1:
            one[r["mode"]] = float(r["wall_per_step"])
    for mode, other in (("weak", "strong"), ("strong", "weak")):
        if mode not in one and other in one:
            one[mode] = one[other]
    for r in rows:  # files from before --share: every rank integrated its own reactors
        r["share"] = r.get("share") or ("F" if int(r["gpus"]) > 1 else "")
    lines = ["| run | GPUs | weights | shared reactors | elements | DOF | steps | s per step | "
             "efficiency | chemistry share | chemistry per step: slowest rank / mean [s] | "
             "imbalance (max/mean) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    order = {"from_start": 0, "weak": 1, "strong": 2}
    for r in sorted(rows, key=lambda r: (order.get(r["mode"], 3), int(r["gpus"]), r["weighted"],
                                         r["share"])):
        g = int(r["gpus"])
        eff = ""
        if r in ok:
            t = float(r["wall_per_step"])
            b = one.get(r["mode"])
            if b:
                eff = f"{b / t:.2f}" if r["mode"] != "strong" else f"{b / (g * t):.2f}"
        cm = (f"{float(r['chem_max_per_step']):.3g} / {float(r['chem_mean_per_step']):.3g}"
              if r.get("chem_max_per_step") else "")
        sps = f"{float(r['wall_per_step']):.4g}" if r in ok else r["status"]
        lines.append(f"| {r['mode']} | {g} | {r['weighted']} | {r['share']} | {r['elems']} | "
                     f"{float(r['dof'] or 0):.3e} | {r['steps']} | {sps} | {eff} | "
                     f"{r['chem_share']} % | {cm} | {r['imbalance']} |")
    plt = write_table(os.path.join(args.out, "chem_scaling.md"), lines)
    if not plt:
        return
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    shares = sorted({r["share"] for r in ok if int(r["gpus"]) > 1 and r["mode"] != "from_start"})
    for mode, mk in (("weak", "o"), ("strong", "s")):
        for wp, sh in ((w, h) for w in "FT" for h in shares):
            ls = {"T": "-", "F": "--"}[wp] if sh != "F" or len(shares) == 1 else {"T": "-.", "F": ":"}[wp]
            # the one-GPU restart (no weights to apply) starts every curve: the mode's own where
            # the call ran one, else the other mode's
            pts = sorted((int(r["gpus"]), float(r["wall_per_step"]), float(r["imbalance"] or 1))
                         for r in ok if r["mode"] == mode and int(r["gpus"]) > 1 and
                         r["weighted"] == wp and r["share"] == sh)
            if mode in one:
                pts.insert(0, (1, one[mode], 1.0))
            if len(pts) < 2:
                continue
            lab = f"{mode}, " + ("weighted by ElemCost" if wp == "T" else "uniform")
            lab += {"T": ", shared reactors", "F": ", own reactors"}.get(sh, "")
            axes[0].plot([p[0] for p in pts], [p[1] for p in pts], ls + mk, label=lab)
            axes[1].plot([p[0] for p in pts], [p[2] for p in pts], ls + mk, label=lab)
    axes[0].set_ylabel("wall time per time step [s]")
    axes[1].set_ylabel("chemistry rank imbalance (max/mean)")
    for ax in axes:
        ax.set_xlabel("GPUs (ranks)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(args.title or "reacting run: whole step and chemistry stage over ranks")
    fig.tight_layout()
    png = os.path.join(args.out, "chem_scaling.png")
    fig.savefig(png, dpi=120)
    print(f"wrote {png}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("run", "report"):
        p = sub.add_parser(name)
        p.add_argument("--out", default="chem_scaling", help="directory for CSV, logs, table, plot")
        if name == "report":
            p.add_argument("--title", help="the plot's title")
            continue
        p.add_argument("--hexdg", default="build-gpu/hexdg")
        p.add_argument("--ini", default="parameter_files/detonation_h2o2ar_2d.ini")
        p.add_argument("--mech", help="the Mechanism file (else the ini's)")
        p.add_argument("--gpus", default="1,2,4", help="GPU (= rank) counts")
        p.add_argument("--modes", default="weak,strong")
        p.add_argument("--share", default="T",
                       help="ChemLoadBalance of the multi-rank restarts: T, F or F,T")
        p.add_argument("--pre-time", type=float, default=1e-5, help="restart time [s]")
        p.add_argument("--steps", type=int, default=60, help="time steps of each restart")
        p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                       help="override a key in every run (repeatable)")
        p.add_argument("--launcher", default="mpiexec -n {n}", help="{n}: number of ranks")
        p.add_argument("--timeout", type=int, default=300, help="seconds per run")
        p.add_argument("--keep", action="store_true", help="keep the runs' folders (state files)")
    args = ap.parse_args()
    {"run": cmd_run, "report": cmd_report}[args.cmd](args)


if __name__ == "__main__":
    main()
