#!/usr/bin/env bash
# sass_check.sh NVCC INCLUDE_DIR fold_proof.cu WORKDIR
# The SASS half of the folding proof: disassembles fold_proof.cu's cubin and checks that each
# tessera kernel has exactly as many SASS instructions as fold_hand. Needs cuobjdump, which only
# the device machine has; elsewhere it prints SKIPPED and exits 77 (CTest's skip code).
set -euo pipefail
nvcc=$1 include=$2 source=$3 work=$4
if ! command -v cuobjdump >/dev/null 2>&1; then
  echo "SKIPPED: cuobjdump not found (SASS is checked on the device machine only)"
  exit 77
fi
mkdir -p "$work"
"$nvcc" -gencode=arch=compute_90a,code=sm_90a -O3 -std=c++20 -diag-suppress 20012 -I "$include" \
  -cubin -o "$work/fold_proof.cubin" "$source"
cuobjdump -sass "$work/fold_proof.cubin" > "$work/fold_proof.sass"

# Instructions per kernel: lines like `/*0040*/  IMAD R0, ...` after a `Function : NAME` header.
count() {
  awk -v k="$1" '/Function :/ { on = ($3 ~ k) } on && /^[[:space:]]*\/\*[0-9a-f]+\*\// { n++ }
                 END { print n + 0 }' "$work/fold_proof.sass"
}
ref=$(count fold_hand)
status=0
printf '%-12s %s\n' fold_hand "$ref SASS instructions"
for k in fold_config fold_local fold_nttp; do
  n=$(count "$k")
  printf '%-12s %s\n' "$k" "$n SASS instructions"
  if [[ $n -ne $ref || $n -eq 0 ]]; then echo "FAIL: $k has $n, fold_hand $ref"; status=1; fi
done
grep -q -E 'STL|LDL' "$work/fold_proof.sass" && { echo "FAIL: local memory in SASS"; status=1; }
[[ $status -eq 0 ]] && echo "PASSED: SASS instruction counts equal"
exit $status
