#!/usr/bin/env bash
# hexdg's weak-form DGSEM on Gauss-Lobatto nodes against tools/dgsem_oracle.py, an independent
# numpy implementation of the same algorithm (LGL weak form, LF / Roe with entropy fix,
# carpenterrk4-5, FLEXI's time-step rule, the manufactured solution IniExactFunc 4 with its
# source). The case is FLEXI's convtest/p_3D on the built-in 2x2x2 periodic box [-1,1]^3
# (AdvVel 0.3, CFLscale 0.25), Euler, states at t = 0.25 and 0.5. Checks:
#   - N = 2 with LF and with RoeEntropyFix, N = 3 with LF: hexdg's states agree with the
#     oracle's to 1e-12 relative (round-off; a change of 1e-6 in one RK coefficient or in the
#     source gives 1e-8), and hexdg's L2/Linf error norms with the oracle's to 1e-9 (the CSV's
#     digits);
#   - the flow is supersonic normal to every face, so hexdg's RoeEntropyFix equals pure upwinding
#     F(U_L) (the oracle asserts u_n - c > 0 on both sides of every face at every stage);
#   - the agreement is not trivial: the oracle's LF states differ from hexdg's Roe states by more
#     than 1e-6 at t = 0.25.
# The element placement of hexdg's state files comes from `hexdg mesh box` (the same generator
# and element order as MeshFile = box). Skips (exit 77) when no python3 with numpy and h5py is
# installed.
# usage: run_dgsem_oracle.sh path/to/hexdg repo_root
set -u
hexdg=$1
oracle=$2/tools/dgsem_oracle.py
source "$(dirname "$0")/script_lib.sh"

require_python numpy h5py
enter_scratch

write_p3d_case case.ini
printf 'tend = 0.5\nAnalyze_dt = 0.25\n' >>case.ini

write_mesh() {
  "$hexdg" mesh box --elems 2,2,2 --lower -1,-1,-1 --upper 1,1,1 --periodic T,T,T \
    -o box_mesh.h5 >mesh.txt 2>&1
}
check "hexdg mesh box: the element order of MeshFile = box" write_mesh

# run_case name N riemann: hexdg's run of case.ini, states at t = 0.25 and 0.5
run_case() {
  "$hexdg" case.ini --set ProjectName="$1" --set N="$2" --set Riemann="$3" >"$1.txt" 2>&1 \
    && [ -f "$1_State_0000000.250000000.h5" ] && [ -f "$1_State_0000000.500000000.h5" ]
}

# oracle name N riemann tol [more options]: the oracle's run compared with hexdg's states; its
# comparison lines go to summary.txt
oracle() {
  local name=$1 N=$2 riemann=$3 tol=$4 rc
  shift 4
  "$py" "$oracle" --N "$N" --riemann "$riemann" --cfl 0.25 --tend 0.5 --analyze-dt 0.25 \
    --mesh box_mesh.h5 --compare "${name}_State_0000000.250000000.h5" \
    --compare "${name}_State_0000000.500000000.h5" --tol "$tol" "$@" \
    >"oracle_$name.$riemann.txt" 2>&1
  rc=$?
  echo "    hexdg $name vs oracle $riemann:" >>summary.txt
  grep "compare\|L2/Linf\|FAIL\|Error\|error" "oracle_$name.$riemann.txt" \
    | sed 's/^ */      /' >>summary.txt
  return $rc
}

check "hexdg N = 2, LF" run_case lf2 2 LF
check "hexdg N = 2, RoeEntropyFix" run_case roe2 2 RoeEntropyFix
check "hexdg N = 3, LF" run_case lf3 3 LF
check "N = 2 LF: states and error norms agree with the oracle (1e-12)" \
  oracle lf2 2 lf 1e-12 --norms lf2_ErrorNorms.csv
check "N = 2 RoeEntropyFix: states and error norms agree with the oracle's Roe (1e-12)" \
  oracle roe2 2 roe 1e-12 --norms roe2_ErrorNorms.csv
check "N = 2 RoeEntropyFix: the same as the oracle's upwind flux (supersonic faces)" \
  oracle roe2 2 upwind 1e-12
check "N = 3 LF: states and error norms agree with the oracle (1e-12)" \
  oracle lf3 3 lf 1e-12 --norms lf3_ErrorNorms.csv
check "the comparison sees the flux: oracle LF vs hexdg Roe differ by > 1e-6" \
  bash -c "! '$py' '$oracle' --N 2 --riemann lf --tend 0.25 --analyze-dt 0.25 --mesh box_mesh.h5 \
    --compare roe2_State_0000000.250000000.h5 --tol 1e-6 >oracle_lf_vs_roe.txt 2>&1"
echo "    oracle LF vs hexdg roe2 (must differ):" >>summary.txt
grep "compare" oracle_lf_vs_roe.txt | sed 's/^ */      /' >>summary.txt
cat summary.txt

if [ $fails -ne 0 ]; then
  echo "--- hexdg output (last lines)"
  for log in mesh.txt lf2.txt roe2.txt lf3.txt; do
    [ -f "$log" ] && echo "$log: $(tail -n 2 "$log")"
  done
fi
if [ $fails -eq 0 ]; then echo "all dgsem_oracle checks passed"; else
  echo "$fails dgsem_oracle checks failed"; fi
exit $fails
