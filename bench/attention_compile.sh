#!/usr/bin/env bash
# attention_compile.sh FA_HOPPER CUTLASS [RUNS] [NVCC] -- compile time of the Hopper attention units
# (kernels/attention/fa3_sm90_d*_*.cu) beside FlashAttention-3's forward instantiations of the
# same head dim and dtype, each compiled on its own with `nvcc -c`, the runs alternating
# (tessera, then FA3).
#   FA_HOPPER  FlashAttention's hopper/ directory (a checkout outside this repository)
#   CUTLASS    a CUTLASS checkout (its include/ and tools/util/include), ideally the commit
#              FlashAttention pins as csrc/cutlass
#   RUNS       rounds (default 1); the table shows each compile's median CPU seconds
# FA3 is compiled with hopper/setup.py's nvcc flags and torch's CUDAExtension defaults, either
# with the FLASHATTENTION_DISABLE_* flags of every feature the tessera kernel lacks ("min": 2
# kernels, causal and not) or with none ("all": what a default build compiles from that file).
# FA3 (default "min_bf16_128 min_fp16_128 all_bf16_128") names its compiles FLAGS_DTYPE_HDIM;
# each round compiles tessera's unit of that head dim and dtype just before each of them
# (the pairs back to back), then TESSERA (default "64_bf16 256_bf16"), other tessera units, once.
# Each FA3 compile takes minutes of CPU and 5-6 GiB of memory. Prints a Markdown table.
set -euo pipefail
fa=$(cd "$1" && pwd)
cutlass=$(cd "$2" && pwd)
runs=${3:-1}
nvcc=${4:-nvcc}
root=$(cd "$(dirname "$0")/.." && pwd)
# WORK keeps the runs' times and logs (default: a temporary directory, removed at the end);
# RUNS=0 with the WORK of an earlier run prints that run's table again.
if [[ -n ${WORK:-} ]]; then work=$WORK; mkdir -p "$work"; else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

# What CMake's build runs for a tessera unit (`ninja -C build -t commands tessera_attention`).
tessera_flags=(-Dtessera_attention_EXPORTS -I"$root/include" -O3 -DNDEBUG
  "--generate-code=arch=compute_90a,code=[sm_90a]" -Xcompiler=-fPIC -Xcompiler=-fvisibility=hidden
  -Xptxas=-warn-spills -std=c++20 -x cu)
# hopper/setup.py's nvcc_flags and cc_flag, then torch.utils.cpp_extension's common nvcc flags.
fa_flags=(-O3 -std=c++17 --ftemplate-backtrace-limit=0 --use_fast_math --resource-usage -lineinfo
  -DCUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED -DCUTLASS_ENABLE_GDC_FOR_SM90
  -DCUTLASS_DEBUG_TRACE_LEVEL=0 -DNDEBUG -gencode arch=compute_90a,code=sm_90a
  -D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_BFLOAT16_CONVERSIONS__
  -D__CUDA_NO_HALF2_OPERATORS__ --expt-relaxed-constexpr -Xcompiler -fPIC
  -I"$fa" -I"$cutlass/include" -I"$cutlass/tools/util/include")
minimal=()
for f in BACKWARD SPLIT PAGEDKV APPENDKV LOCAL SOFTCAP PACKGQA FP8 VARLEN CLUSTER SM8x; do
  minimal+=(-DFLASHATTENTION_DISABLE_$f)
done

# One compile: appends "cpu_s rss_mb wall_s" to $work/<key>.t; nvcc's output to $work/<key>.log.
once() {
  local key=$1
  shift
  nice -n 10 /usr/bin/time -v -o "$work/t" "$nvcc" "$@" -o "$work/k.o" >"$work/$key.log" 2>&1 || {
    tail -20 "$work/$key.log" >&2
    exit 1
  }
  awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } /Maximum resident/ { m = $2 }
    /Elapsed/ { n = split($2, a, ":"); w = 0; for (i = 1; i <= n; i++) w = w * 60 + a[i] }
    END { printf "%.1f %.0f %.1f\n", u + s, m / 1024, w }' "$work/t" >>"$work/$key.t"
}
# The median CPU seconds (lower middle for an even count) and the largest peak RSS over the runs.
summary() {
  local cpu rss
  cpu=$(cut -d' ' -f1 "$work/$1.t" | sort -n |
    awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  rss=$(cut -d' ' -f2 "$work/$1.t" | sort -n | tail -1)
  echo "$cpu $rss $(cut -d' ' -f1 "$work/$1.t" | paste -sd/)"
}
# Kernels (PTX .entry) of a tessera unit.
tessera_kernels() {
  "$nvcc" "${tessera_flags[@]}" -ptx "$root/kernels/attention/$1" -o "$work/k.ptx"
  grep -c '^\.visible \.entry\|^\.entry' "$work/k.ptx"
}
# Kernels of an FA3 compile: the entry functions ptxas reported (--resource-usage).
fa_kernels() { grep -c "^ptxas info *: Compiling entry function" "$work/$1.log" || true; }

fa3=(${FA3:-min_bf16_128 min_fp16_128 all_bf16_128})
# tessera's unit (HDIM_DTYPE) beside an FA3 compile: FA3 says fp16 where tessera says f16.
unit_of() { read -r _ dt d <<<"${1//_/ }"; echo "${d}_${dt/fp16/f16}"; }
for ((r = 1; r <= runs; r++)); do
  keys=()
  for c in "${fa3[@]}"; do keys+=("t$(unit_of "$c")" "$c"); done
  for u in ${TESSERA:-64_bf16 256_bf16}; do keys+=("t$u"); done
  for key in "${keys[@]}"; do
    if [[ $key == t* ]]; then
      once "$key" "${tessera_flags[@]}" -c "$root/kernels/attention/fa3_sm90_d${key#t}.cu"
    else
      read -r fl dt d <<<"${key//_/ }"
      [[ $fl == min ]] && extra=("${minimal[@]}") || extra=()
      once "$key" "${fa_flags[@]}" "${extra[@]}" \
        -c "$fa/instantiations/flash_fwd_hdim${d}_${dt}_sm90.cu"
    fi
    echo "round $r $key: $(tail -1 "$work/$key.t") (CPU s, peak RSS MiB, wall s)" >&2
  done
done

echo -n "| compile | kernels | CPU s: median (runs) | peak RSS MiB "
echo "| tessera / FA3 per file | per kernel |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for t in "$work"/t*.t; do
  u=$(basename "$t" .t)
  u=${u#t}
  read -r cpu rss all < <(summary "t$u")
  k=$(tessera_kernels "fa3_sm90_d$u.cu")
  echo "$k" >"$work/t$u.k"
  echo "| tessera fa3_sm90_d$u.cu | $k | $cpu ($all) | $rss | | |"
done
# A row per FA3 compile, its ratios taken against the tessera unit of its head dim and dtype.
row() {  # name, kernels, cpu, runs, rss, tessera unit
  read -r tc _ < <(summary "t$6")
  awk -v n="$1" -v k="$2" -v c="$3" -v all="$4" -v r="$5" -v tc="$tc" -v tk="$(cat "$work/t$6.k")" \
    'BEGIN { printf "| %s | %d | %s (%s) | %s | %.3f | %.3f |\n", n, k, c, all, r, tc / c,
             (tc / tk) / (c / k) }'
}
for c in "${fa3[@]}"; do
  [[ -f $work/$c.t ]] || continue  # (RUNS=0 over a WORK that lacks it)
  read -r fl dt d <<<"${c//_/ }"
  read -r cpu rss all < <(summary "$c")
  row "FA3 flash_fwd_hdim${d}_${dt}_sm90.cu, $fl flags" "$(fa_kernels "$c")" "$cpu" "$all" "$rss" \
    "$(unit_of "$c")"
done
