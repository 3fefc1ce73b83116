#!/usr/bin/env bash
# sass_check.sh FOLD_PROOF.cubin WORKDIR
# The SASS half of the folding proof: disassembles the cubin the build kept of fold_proof.cu
# (tessera_cuda_checked_sources) and checks that each tessera kernel has exactly as many SASS
# instructions as fold_hand. Needs cuobjdump, which only the device machine has; elsewhere it
# prints SKIPPED and exits 77 (CTest's skip code).
set -euo pipefail
cubin=$1 work=$2
if ! command -v cuobjdump >/dev/null 2>&1; then
  echo "SKIPPED: cuobjdump not found (SASS is checked on the device machine only)"
  exit 77
fi
mkdir -p "$work"
cuobjdump -sass "$cubin" > "$work/fold_proof.sass"

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
