#!/usr/bin/python3
"""Strong and weak scaling of the CUDA backend over MPI ranks (one rank per GPU) with `hexdg bench`.

PID as FLEXI/GALAEXI define it: wall time x ranks / (global DOF x RK stages), the time one GPU
needs per DOF and stage. Perfect scaling keeps the PID constant; the parallel efficiency of a run
on g GPUs is PID(1 GPU, same load per GPU) / PID(g GPUs).

  weak:   the load per GPU is fixed; g GPUs run a box of (g*e, e, e) elements.
  strong: the global problem is fixed (the load of one GPU); g GPUs share it.

Each load (DOF per GPU, 1e5..3e7) maps to e^3 elements of (N+1)^3 DOF. Every point runs with
OverlapMPI = T and F (MPI sides first on a high-priority stream while the messages travel, or
one stream that waits for each exchange), unless --overlap says otherwise. One GPU runs a single
rank, which keeps the CUDA graph of the step; several ranks launch stage by stage.

  tools/scaling.py run   --hexdg build-gpu/hexdg --gpus 1,2 --out scaling/   # run here
  tools/scaling.py slurm --hexdg build-gpu/hexdg --nodes 1,2,4 --gpus-per-node 4 --out scaling/
  tools/scaling.py report --out scaling/           # table (scaling.md) + plot (scaling.png)

`run` writes scaling.csv (one line per run, appended as runs finish) and the bench logs.
`slurm` writes one batch script per node count; each calls `scaling.py run` with srun as the
launcher; collect with `report` afterwards. Needs numpy and matplotlib only for the plot.
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

FIELDS = ["mode", "gpus", "overlap", "transport", "graphs", "load_per_gpu", "elems", "dof", "dof_per_gpu",
          "pid", "epid", "seconds", "status"]


def elems_for(load, N):
    """Elements per direction of a cube holding about `load` DOF."""
    return max(1, round((load / (N + 1) ** 3) ** (1.0 / 3.0)))


def bench_cmd(args, gpus, elems, overlap, graphs):
    launcher = args.launcher.format(n=gpus)
    return (shlex.split(launcher) + [args.hexdg, "bench", "--N", str(args.N), "--elems",
            ",".join(map(str, elems)), "--split", args.split, "--mu0", args.mu0,
            "--steps", str(args.steps), "--warmup", str(args.warmup), "--backend", args.backend,
            "--overlap", overlap, "--transport", args.transport, "--graphs", graphs])


def run_point(args, mode, gpus, load, overlap, graphs, writer, log, one_gpu):
    e = elems_for(load, args.N)
    if gpus == 1 and (load, graphs) in one_gpu:  # weak and strong share the one-GPU run
        row = dict(one_gpu[(load, graphs)], mode=mode)
        writer.writerow(row)
        print(f"{mode:6s} gpus   1 (the same run as above)  PID {row['pid'] or '-':>11s}", flush=True)
        return
    elems = (gpus * e, e, e) if mode == "weak" else (e, e, e)
    cmd = bench_cmd(args, gpus, elems, overlap, graphs)
    if shutil.which("timeout"):  # SIGTERM lets mpiexec stop its ranks; SIGKILL 10 s later
        cmd = ["timeout", "-k", "10", str(args.timeout)] + cmd
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout + 30,
                           env=dict(os.environ, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1")))
        text, status = p.stdout + p.stderr, "ok" if p.returncode == 0 else f"exit {p.returncode}"
        if p.returncode in (124, 137):
            status = f"timeout {args.timeout}s"
    except subprocess.TimeoutExpired as ex:
        text = (ex.stdout or b"").decode() if isinstance(ex.stdout, bytes) else (ex.stdout or "")
        status = f"timeout {args.timeout}s"
    log.write(f"$ {' '.join(cmd)}\n{text}\n")
    log.flush()
    m = re.search(r"^PID (\S+) DOF (\S+) stages", text, re.M)
    s = re.search(r"steps in (\S+) s", text)
    tr = re.search(r"MPI (?:no )?overlap (\w+)", text)  # the transport the ranks used
    gr = re.search(r"(no graph|graph),", text)  # whether the stages ran as CUDA graphs
    ep = re.search(r"EPID (\S+) J", text)
    if status == "ok" and not m:
        status = "no PID line"
    dof = float(m.group(2)) if m else elems[0] * elems[1] * elems[2] * (args.N + 1) ** 3
    row = {"mode": mode, "gpus": gpus, "overlap": overlap,
           "transport": tr.group(1) if tr else "-", "graphs": "F" if gr and gr.group(1) == "no graph"
           else ("T" if gr else "-"), "load_per_gpu": f"{load:.0e}",
           "elems": "x".join(map(str, elems)), "dof": f"{dof:.0f}",
           "dof_per_gpu": f"{dof / gpus:.0f}", "pid": m.group(1) if m else "",
           "epid": ep.group(1) if ep else "",
           "seconds": s.group(1) if s else "", "status": status}
    writer.writerow(row)
    if gpus == 1:
        one_gpu[(load, graphs)] = row
    print(f"{mode:6s} gpus {gpus:3d} overlap {overlap} {row['transport']:4s} graphs {row['graphs']} "
          f"elems {row['elems']:>12s} "
          f"DOF/GPU {dof / gpus:10.3e}  PID {row['pid'] or '-':>11s}  {status}  "
          f"({time.time() - t0:.0f} s)", flush=True)


def cmd_run(args):
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "scaling.csv")
    fresh = not os.path.exists(path)
    gpus = [int(g) for g in args.gpus.split(",")]
    loads = [float(x) for x in args.loads.split(",")]
    one_gpu = {}
    with open(path, "a", newline="") as f, open(os.path.join(args.out, "bench.log"), "a") as log:
        w = csv.DictWriter(f, FIELDS, lineterminator="\n")
        if fresh:
            w.writeheader()
        for mode in args.modes.split(","):
            for load in loads:
                for g in gpus:
                    for gr in args.graphs.split(","):
                        for ov in args.overlap.split(","):
                            if g == 1 and ov != args.overlap.split(",")[0]:
                                continue  # one rank has no exchange: overlap makes no difference
                            run_point(args, mode, g, load, ov, gr, w, log, one_gpu)
                            f.flush()
    print(f"wrote {path}")


def cmd_slurm(args):
    os.makedirs(args.out, exist_ok=True)
    here = os.path.abspath(__file__)
    node_counts = [int(n) for n in args.nodes.split(",")]
    for nodes in node_counts:
        g = nodes * args.gpus_per_node
        # the smallest job also runs the one-GPU reference of the efficiencies
        gl = f"1,{g}" if nodes == min(node_counts) and g > 1 else str(g)
        script = os.path.join(args.out, f"scaling_{nodes}nodes.sbatch")
        with open(script, "w") as f:
            f.write(f"""#!/bin/bash
#SBATCH --job-name=hexdg-scaling-{nodes}
#SBATCH --nodes={nodes}
#SBATCH --ntasks-per-node={args.gpus_per_node}
#SBATCH --gpus-per-node={args.gpus_per_node}
#SBATCH --time={args.time}
#SBATCH --output={os.path.abspath(args.out)}/slurm_{nodes}nodes_%j.log
# hexdg scaling, {g} GPUs: one rank per GPU (hexdg picks the GPU from the node-local rank).
export OMP_NUM_THREADS=1
/usr/bin/python3 {here} run --hexdg {os.path.abspath(args.hexdg)} --gpus {gl} \\
  --modes {args.modes} --loads {args.loads} --overlap {args.overlap} --transport {args.transport} \\
  --graphs {args.graphs} --N {args.N} \\
  --split {args.split} --mu0 {args.mu0} --steps {args.steps} --warmup {args.warmup} \\
  --timeout {args.timeout} --backend {args.backend} --out {os.path.abspath(args.out)} \\
  --launcher "srun -n {{n}}"
""")
        print(f"wrote {script}  (sbatch {script})")
    print(f"after the jobs: {sys.executable} {here} report --out {args.out}")


def load_rows(out):
    with open(os.path.join(out, "scaling.csv")) as f:
        return [r for r in csv.DictReader(f)]


def write_table(path, lines):
    """Write and print a Markdown table; return matplotlib.pyplot (Agg) for its plot, or None
    without matplotlib (also used by tools/chem_scaling.py)."""
    table = "\n".join(lines) + "\n"
    with open(path, "w") as f:
        f.write(table)
    print(table)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot (use /usr/bin/python3)")
        return None
    return plt


def cmd_report(args):
    rows = load_rows(args.out)
    ok = [r for r in rows if r["status"] == "ok" and r["pid"]]
    ref = {}  # PID on one GPU per (mode, load, graphs); older CSVs have no graphs column
    for r in ok:
        if int(r["gpus"]) == 1:
            ref[(r["mode"], r["load_per_gpu"], r.get("graphs", "-"))] = float(r["pid"])
    lines = ["| scaling | GPUs | overlap | transport | graphs | elements | DOF | DOF/GPU | PID [s] | "
             "efficiency | EPID [J] |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: (r["mode"], float(r["load_per_gpu"]), r.get("graphs", "-") != "T",
                                         int(r["gpus"]), r["overlap"], r.get("transport", "-"))):
        pid = r["pid"] if r["status"] == "ok" and r["pid"] else r["status"]
        gr = r.get("graphs", "-")
        # the efficiency against one GPU with graphs: what a user gains or loses by adding GPUs
        base = ref.get((r["mode"], r["load_per_gpu"], "T" if gr != "-" else "-"))
        eff = f"{base / float(r['pid']):.2f}" if base and r in ok else ""
        lines.append(f"| {r['mode']} | {r['gpus']} | {r['overlap'] if int(r['gpus']) > 1 else '-'}"
                     f" | {r.get('transport', '-')} | {gr} | {r['elems']} | {float(r['dof']):.3e} |"
                     f" {float(r['dof_per_gpu']):.3e} | {pid} | {eff} | {r.get('epid') or ''} |")
    plt = write_table(os.path.join(args.out, "scaling.md"), lines)
    if not plt:
        return
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, mode in zip(axes, ["weak", "strong"]):
        series = {}
        for r in ok:
            if r["mode"] != mode:
                continue
            ov = r["overlap"] if int(r["gpus"]) > 1 else "1 GPU"
            key = (int(r["gpus"]), ov, r.get("transport", "-") if ov != "1 GPU" else "-",
                   r.get("graphs", "-"))
            series.setdefault(key, []).append((float(r["dof_per_gpu"]), float(r["pid"])))
        for (g, ov, tr, gr), pts in sorted(series.items()):
            pts.sort()
            style = ("-o" if ov in ("T", "1 GPU") else "--s") if gr != "F" else ":^"
            label = f"{g} GPU" + ("s" if g > 1 else "") + (
                "" if ov == "1 GPU" else (", overlap" if ov == "T" else ", no overlap")) + (
                f", {tr}" if tr != "-" else "") + (", no graphs" if gr == "F" else "")
            ax.loglog([p[0] for p in pts], [p[1] for p in pts], style, label=label)
        ax.set_xlabel("DOF per GPU")
        ax.set_ylabel("PID [s]")
        ax.set_title(f"{mode} scaling" + (" (global DOF = load of 1 GPU)" if mode == "strong" else ""))
        ax.grid(True, which="both", alpha=0.3)
        if series:
            ax.legend(fontsize=8)
    fig.tight_layout()
    png = os.path.join(args.out, "scaling.png")
    fig.savefig(png, dpi=120)
    print(f"wrote {png} and {os.path.join(args.out, 'scaling.md')}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("run", "slurm", "report"):
        p = sub.add_parser(name)
        p.add_argument("--out", default="scaling", help="directory for CSV, logs, table, plot")
        if name == "report":
            continue
        p.add_argument("--hexdg", default="build-gpu/hexdg")
        p.add_argument("--modes", default="weak,strong")
        p.add_argument("--loads", default="1e5,1e6,1e7,3e7", help="DOF per GPU (weak) or in total (strong)")
        p.add_argument("--overlap", default="T,F", help="OverlapMPI values to run")
        p.add_argument("--transport", default="auto", help="MPITransport: auto, ipc or host")
        p.add_argument("--graphs", default="T", help="UseCudaGraphs values to run (T,F: both)")
        p.add_argument("--N", type=int, default=7)
        p.add_argument("--split", default="PI")
        p.add_argument("--mu0", default="0.01", help="> 0: Navier-Stokes")
        p.add_argument("--steps", type=int, default=20)
        p.add_argument("--warmup", type=int, default=3)
        p.add_argument("--timeout", type=int, default=300, help="seconds per run")
        p.add_argument("--backend", default="cuda", help="cpu: try the script without a GPU")
        if name == "run":
            p.add_argument("--gpus", default="1,2", help="GPU (= rank) counts")
            p.add_argument("--launcher", default="mpiexec -n {n}", help="{n}: number of ranks")
        else:
            p.add_argument("--nodes", default="1,2,4")
            p.add_argument("--gpus-per-node", type=int, default=4)
            p.add_argument("--time", default="01:00:00")
    args = ap.parse_args()
    {"run": cmd_run, "slurm": cmd_slurm, "report": cmd_report}[args.cmd](args)


if __name__ == "__main__":
    main()
