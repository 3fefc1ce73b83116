#!/usr/bin/env bash
# ffma_check.sh BUILD_DIR -- on SASS: kernel 01's k-loop is FFMA on registers with no
# local memory and the same FFMA count as the hand-written step 1 kernel.
#
# Disassembles kernel 01 from BUILD_DIR/kernels/libtessera_gemm.so and the reference
# tests/cuda/step1_hand.cu (compiled here with the library's flags), and per kernel prints the
# FFMA in its k-loop (the loop, from a branch target to the branch back to it, with the most
# FFMA), the FFMA and instructions in the whole kernel, and LDL/STL (local memory). Fails unless
# both k-loops have the same nonzero FFMA count and neither kernel touches local memory.
# Needs cuobjdump (the device machine); elsewhere prints SKIPPED and exits 77. The CI form of the
# check, on PTX, is check_ffma.py.
#
#   tests/cuda/ffma_check.sh build-gpu        (NVCC=... to pick the compiler, default nvcc)
set -euo pipefail
build=${1:?usage: ffma_check.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
lib=$build/kernels/libtessera_gemm.so
if ! command -v cuobjdump >/dev/null 2>&1; then
  echo "SKIPPED: cuobjdump not found (SASS is checked on the device machine only)"
  exit 77
fi
[ -f "$lib" ] || { echo "FAIL: $lib not found (build the tessera_gemm target)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${NVCC:-nvcc}" -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -I "$root/include" \
  -cubin -o "$work/step1_hand.cubin" "$root/tests/cuda/step1_hand.cu"
cuobjdump -sass "$work/step1_hand.cubin" >"$work/reference.sass"
cuobjdump -sass "$lib" | awk '/Function :/ { keep = ($3 ~ /gemm_01_kernel/) } keep' >"$work/01.sass"

# One line per kernel: "FFMA in the k-loop, FFMA in the kernel, instructions, LDL/STL".
# Instructions are `/*0a30*/  FFMA R4, R2, R3, R4 ;`; a branch names its target as an address
# (`BRA 0x1f0`) or a label (`BRA `(.L_x_3)` with `.L_x_3:` on its own line).
summary() {
  awk '
    function hex(s,   i, v) {  # portable (mawk has no strtonum)
      v = 0; s = tolower(s); sub(/^0x/, "", s)
      for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
      return v
    }
    /^[[:space:]]*\/\*[0-9a-f]+\*\// {
      a = $0; sub(/^[[:space:]]*\/\*/, "", a); sub(/\*\/.*/, "", a)
      n++; op[n] = $0; at[n] = hex(a)
      if ($0 ~ /FFMA/) ffma++
      if ($0 ~ /[[:space:]](LDL|STL)[[:space:].]/) local++
      next
    }
    /^[[:space:]]*\.L_x_[0-9]+:/ { l = $1; sub(/:$/, "", l); label[l] = n + 1 }
    END {
      best = 0
      for (i = 1; i <= n; i++) {
        if (op[i] !~ /BRA/) continue
        t = 0
        if (match(op[i], /0x[0-9a-f]+/)) {
          target = hex(substr(op[i], RSTART, RLENGTH))
          for (j = 1; j <= i; j++) if (at[j] == target) { t = j; break }
        } else if (match(op[i], /\.L_x_[0-9]+/)) {
          t = label[substr(op[i], RSTART, RLENGTH)]
        }
        if (t == 0 || t > i) continue  # not a branch back
        f = 0
        for (j = t; j <= i; j++) if (op[j] ~ /FFMA/) f++
        if (f > best) best = f
      }
      printf "%d %d %d %d\n", best, ffma + 0, n + 0, local + 0
    }' "$1"
}
read -r ref_loop ref_ffma ref_insns ref_local < <(summary "$work/reference.sass")
read -r k01_loop k01_ffma k01_insns k01_local < <(summary "$work/01.sass")
printf '%-26s %12s %12s %14s %8s\n' kernel "k-loop FFMA" "FFMA total" "instructions" "LDL/STL"
printf '%-26s %12d %12d %14d %8d\n' "step1_hand (reference)" "$ref_loop" "$ref_ffma" "$ref_insns" "$ref_local"
printf '%-26s %12d %12d %14d %8d\n' "gemm_01_kernel" "$k01_loop" "$k01_ffma" "$k01_insns" "$k01_local"
status=0
[ "$ref_loop" -gt 0 ] || { echo "FAIL: no k-loop with FFMA in the reference"; status=1; }
[ "$k01_loop" -eq "$ref_loop" ] || { echo "FAIL: 01's k-loop has $k01_loop FFMA, the reference $ref_loop"; status=1; }
[ "$k01_local" -eq 0 ] || { echo "FAIL: 01 uses local memory ($k01_local LDL/STL)"; status=1; }
[ "$ref_local" -eq 0 ] || { echo "FAIL: the reference uses local memory ($ref_local LDL/STL)"; status=1; }
[ $status -eq 0 ] && echo "PASSED: 01's k-loop is $k01_loop FFMA on registers, as the hand-written kernel's; no local memory"
exit $status
