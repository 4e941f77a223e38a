#!/usr/bin/env bash
# Time averages (CalcTimeAverage, src/analysis/timeavg.c) and tools/timeavg_merge.py, CPU, air:
#   1. layout: File_Type TimeAvg, Mean (nElems, N+1, N+1, N+1, nVarAvg) and MeanSquare with
#      VarNames_Mean / VarNames_MeanSquare in FLEXI's order, AvgTime = window, Time, N, NodeType,
#      MeshFile, Project_Name, a one-variable DG_Solution DUMMY_DO_NOT_VISUALIZE;
#   2. the density wave rho = 1 + A sin(2 pi (x + y + z - t)) (IniExactFunc 2, AdvVel (1,0,0)),
#      averaged over one period t in [0, 1] (four files merged): the exact means are
#      mean(rho) = mean(rho u) = 1 and mean(rho^2) = 1 + A^2/2. Bound derived, not fitted: the
#      solution's own error (max Linf of the ErrorNorms CSV, eps) plus the trapezoidal rule's
#      error T h^2 max|f''| / 12 with h <= 2 tend / steps (f = A sin: max|f''| = (2 pi)^2 A; for
#      rho^2 (2 pi)^2 (2A + 2A^2)); the square's solution part is eps (2 (1 + A) + eps);
#   3. a restart from the state at t = 0.5 writes the TimeAvg files of t = 0.75 and 1 bitwise
#      equal to the uninterrupted run's (the windows end at every state file);
#   4. the four files merged equal one window over [0, 1] (nWriteData = 4) to 1e-13;
#   5. free stream (IniExactFunc 1): every Mean equals the state's value (1e-13) and
#      MeanSquare - Mean^2 = 0 to round-off for Density, VelocityX, Pressure, Mach, TotalPressure,
#      uv - u v and TKE - |u|^2; TotalTemperature / Temperature = 1 + (kappa-1)/2 Mach^2.
# Skips (exit 77) without a python3 that has numpy and h5py.
# usage: run_timeavg.sh path/to/hexdg repo_root
set -u
hexdg=$1
tools=$2/tools
source "$(dirname "$0")/script_lib.sh"

require_python numpy h5py
enter_scratch

cat >sine.ini <<'EOF'
ProjectName = sine
MeshFile = box
BoxElems = (/3,3,3/)
BoxLower = (/0.,0.,0./)
BoxUpper = (/1.,1.,1./)
N = 6
NodeType = GAUSS-LOBATTO
SplitDG = PI
IniExactFunc = 2
AdvVel = (/1., 0., 0./)
IniAmplitude = 0.1
IniFrequency = 1.
tend = 1.
Analyze_dt = 0.25
CalcErrorNorms = T
CalcTimeAverage = T
VarNameAvg = MomentumX
VarNameAvg = Density
VarNameFluc = Density
VarNameFluc = TKE
VarNameFluc = uv
EOF
sed 's/^Analyze_dt.*/Analyze_dt = 0.25\nnWriteData = 4/' sine.ini >window.ini
cat >free.ini <<'EOF'
ProjectName = free
MeshFile = box
BoxElems = (/2,2,2/)
N = 3
IniExactFunc = 1
RefState = (/1.2, 0.3, -0.2, 0.1, 2.5/)
tend = 0.2
Analyze_dt = 0.1
CalcTimeAverage = T
VarNameAvg = Density
VarNameAvg = MomentumX
VarNameAvg = MomentumY
VarNameAvg = MomentumZ
VarNameAvg = EnergyStagnationDensity
VarNameAvg = VelocityMagnitude
VarNameAvg = VelocitySound
VarNameAvg = Temperature
VarNameAvg = TotalTemperature
VarNameFluc = Density
VarNameFluc = VelocityX
VarNameFluc = Pressure
VarNameFluc = Mach
VarNameFluc = TotalPressure
VarNameFluc = uv
VarNameFluc = TKE
EOF
mkdir -p straight restart window free
run() { (cd "$1" && shift && "$hexdg" "$@" >>run.txt 2>&1) || { echo "FAIL - run in $1: $(tail -3 "$1/run.txt")"; exit 1; }; }
run straight ../sine.ini
run restart ../sine.ini ../straight/sine_State_0000000.500000000.h5
run window ../window.ini
run free ../free.ini
"$py" "$tools/timeavg_merge.py" merged.h5 straight/sine_TimeAvg_*.h5 >/dev/null || { echo "FAIL - timeavg_merge.py"; exit 1; }

"$py" - <<'PY'
import glob, math, re
import numpy as np, h5py

fails = 0
def check(what, ok):
    global fails
    print(("ok   - " if ok else "FAIL - ") + what)
    fails += 0 if ok else 1

def text(v):
    return [s.decode().strip() for s in np.atleast_1d(v)]

def attr(f, k):
    return np.atleast_1d(f.attrs[k])[0]

# 1. layout
files = sorted(glob.glob("straight/sine_TimeAvg_*.h5"))
check(f"4 TimeAvg files at 0.25, 0.5, 0.75, 1: {[re.sub('.*_', '', p) for p in files]}",
      [re.sub(".*_TimeAvg_", "", p) for p in files] ==
      [f"{t:017.9f}.h5" for t in (0.25, 0.5, 0.75, 1.0)])
with h5py.File(files[-1], "r") as f:
    check("File_Type TimeAvg, Project_Name, MeshFile, NodeType, N",
          text(f.attrs["File_Type"]) == ["TimeAvg"] and text(f.attrs["Project_Name"]) == ["sine"]
          and text(f.attrs["MeshFile"]) == ["box"] and text(f.attrs["NodeType"]) == ["GAUSS-LOBATTO"]
          and attr(f, "N") == 6)
    check(f"Time 1, AvgTime 0.25: {attr(f, 'Time')}, {attr(f, 'AvgTime')}",
          attr(f, "Time") == 1.0 and abs(attr(f, "AvgTime") - 0.25) < 1e-14)
    mean_names, sq_names = text(f.attrs["VarNames_Mean"]), text(f.attrs["VarNames_MeanSquare"])
    check(f"VarNames_Mean in FLEXI's order {mean_names}",
          mean_names == ["Density", "MomentumX", "VelocityX", "VelocityY", "VelocityZ"])
    check(f"VarNames_MeanSquare (TKE last) {sq_names}", sq_names == ["Density", "uv", "TKE"])
    check(f"Mean {f['Mean'].shape}, MeanSquare {f['MeanSquare'].shape}",
          f["Mean"].shape == (27, 7, 7, 7, 5) and f["MeanSquare"].shape == (27, 7, 7, 7, 3))
    check("dummy DG_Solution", f["DG_Solution"].shape == (27, 7, 7, 7, 1)
          and text(f.attrs["VarNames"]) == ["DUMMY_DO_NOT_VISUALIZE"])

# 2. one period of the density wave
A = 0.1
csv = np.genfromtxt("straight/sine_ErrorNorms.csv", delimiter=",", names=True)
eps_rho, eps_m = csv["Linf_Density"].max(), csv["Linf_MomentumX"].max()
steps = int(re.search(r"steps (\d+)", open("straight/run.txt").read()).group(1))
h = 2.0 / steps
trap = (2 * math.pi) ** 2 * A * h * h / 12
trap2 = (2 * math.pi) ** 2 * (2 * A + 2 * A * A) * h * h / 12
with h5py.File("merged.h5", "r") as f:
    M, S = f["Mean"][()], f["MeanSquare"][()]
    check(f"merged AvgTime 1: {attr(f, 'AvgTime')}", abs(attr(f, "AvgTime") - 1.0) < 1e-14)
e = np.abs(M[..., 0] - 1).max()
check(f"mean(rho) = 1: {e:.2e} <= {eps_rho + trap:.2e}", e <= eps_rho + trap)
e = np.abs(M[..., 1] - 1).max()
check(f"mean(rho u) = 1: {e:.2e} <= {eps_m + trap:.2e}", e <= eps_m + trap)
bound = eps_rho * (2 * (1 + A) + eps_rho) + trap2
e = np.abs(S[..., 0] - (1 + A * A / 2)).max()
check(f"mean(rho^2) = 1 + A^2/2: {e:.2e} <= {bound:.2e}", e <= bound)

# 3. restart identity
for t in ("0000000.750000000", "0000001.000000000"):
    with h5py.File(f"straight/sine_TimeAvg_{t}.h5", "r") as a, \
         h5py.File(f"restart/sine_TimeAvg_{t}.h5", "r") as b:
        same = all(np.array_equal(a[k][()], b[k][()]) for k in ("Mean", "MeanSquare")) \
            and attr(a, "AvgTime") == attr(b, "AvgTime")
    check(f"restart at 0.5: TimeAvg {t} bitwise equal", same)
check("restart: no TimeAvg before the restart time",
      sorted(glob.glob("restart/sine_TimeAvg_*.h5")) ==
      ["restart/sine_TimeAvg_0000000.750000000.h5", "restart/sine_TimeAvg_0000001.000000000.h5"])

# 4. merged windows = one window
with h5py.File("window/sine_TimeAvg_0000001.000000000.h5", "r") as w, h5py.File("merged.h5", "r") as m:
    check(f"one window: AvgTime {attr(w, 'AvgTime')}", abs(attr(w, "AvgTime") - 1.0) < 1e-14)
    for k in ("Mean", "MeanSquare"):
        d = np.abs(w[k][()] - m[k][()]).max() / np.abs(w[k][()]).max()
        check(f"merged 4 files = one window, {k}: {d:.1e} <= 1e-13", d <= 1e-13)

# 5. free stream
kappa = 1.4
rho, u, v, w_, p = 1.2, 0.3, -0.2, 0.1, 2.5
with h5py.File("free/free_TimeAvg_0000000.200000000.h5", "r") as f:
    names, sqn = text(f.attrs["VarNames_Mean"]), text(f.attrs["VarNames_MeanSquare"])
    M, S = f["Mean"][()], f["MeanSquare"][()]
vel2 = u * u + v * v + w_ * w_
c = math.sqrt(kappa * p / rho)
stag = 1 + 0.5 * (kappa - 1) * vel2 / c ** 2
exact = {"Density": rho, "MomentumX": rho * u, "MomentumY": rho * v, "MomentumZ": rho * w_,
         "EnergyStagnationDensity": p / (kappa - 1) + 0.5 * rho * vel2, "VelocityX": u,
         "VelocityY": v, "VelocityZ": w_, "VelocityMagnitude": math.sqrt(vel2), "Pressure": p,
         "VelocitySound": c, "Mach": math.sqrt(vel2) / c, "TotalPressure": p * stag ** (kappa / (kappa - 1))}
for k, val in exact.items():
    e = np.abs(M[..., names.index(k)] - val).max() / abs(val)
    check(f"free stream: Mean {k} = {val:.6g} ({e:.1e})", e <= 1e-13)
T, Tt = M[..., names.index("Temperature")], M[..., names.index("TotalTemperature")]
e = np.abs(Tt / T - stag).max()
check(f"free stream: TotalTemperature / Temperature = 1 + (kappa-1)/2 M^2 ({e:.1e})", e <= 1e-13)
for k in ("Density", "VelocityX", "Pressure", "Mach", "TotalPressure"):
    m = M[..., names.index(k)]
    e = np.abs(S[..., sqn.index(k)] - m * m).max() / np.abs(m * m).max()
    check(f"free stream: MeanSquare - Mean^2 of {k} = 0 ({e:.1e})", e <= 1e-13)
uv = M[..., names.index("VelocityX")] * M[..., names.index("VelocityY")]
e = np.abs(S[..., sqn.index("uv")] - uv).max() / abs(u * v)
check(f"free stream: uv - u v = 0 ({e:.1e})", e <= 1e-13)
e = np.abs(S[..., sqn.index("TKE")] - vel2).max() / vel2
check(f"free stream: TKE = |u|^2 ({e:.1e})", e <= 1e-13)
check(f"free stream: MeanSquare names {sqn}",
      sqn == ["Density", "VelocityX", "Pressure", "Mach", "uv", "TotalPressure", "TKE"])
raise SystemExit(1 if fails else 0)
PY
