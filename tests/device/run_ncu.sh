#!/usr/bin/env bash
# GPU cross-check of analysis.hpp: Nsight Compute's shared-memory wavefronts and bank conflicts
# and global sectors and requests, against tessera's prediction, one kernel launch per case.
#
#   tests/device/run_ncu.sh [out_dir]      (run from the repository root on the GPU machine)
#
# Prints a table case | metric | predicted | measured | match, writes it to out_dir/ncu_vs_prediction.csv
# (default: $OUT if set, else build/ncu), and exits 1 if any prediction differs from the measurement.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-${OUT:-build/ncu}}
mkdir -p "$out"
NVCC=${NVCC:-nvcc}
NCU=${NCU:-ncu}
command -v "$NCU" >/dev/null || NCU=/usr/local/cuda/bin/ncu

"$NVCC" -std=c++20 -O2 -gencode=arch=compute_90a,code=sm_90a -Iinclude \
  tests/device/bank_conflicts.cu -o "$out/bank_conflicts"
"$out/bank_conflicts" --predict > "$out/predicted.csv" 2> "$out/verdicts.txt"

metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
metrics+=,smsp__inst_executed_op_shared_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum

"$NCU" --clock-control none --csv --page raw --metrics "$metrics" -k regex:access_kernel "$out/bank_conflicts" > "$out/ncu_raw.csv"

python3 - "$out" <<'EOF'
import csv, io, sys
out = sys.argv[1]
pred = list(csv.DictReader(open(f"{out}/predicted.csv")))
# ncu --csv --page raw: one header row of metric names, one row of units, then one row per launch.
text = open(f"{out}/ncu_raw.csv").read()
lines = [l for l in text.splitlines() if l.startswith('"')]
rows = list(csv.reader(io.StringIO("\n".join(lines))))
header, launches = rows[0], [r for r in rows[2:] if len(r) == len(rows[0])]
col = {name: i for i, name in enumerate(header)}
ok = True
table = [("case", "metric", "predicted", "measured", "match")]
for p in pred:
    k = int(p["launch"])
    m = p["metric"]
    meas = launches[k][col[m]].replace(",", "") if k < len(launches) and m in col else "n/a"
    try:
        same = float(meas) == float(p["predicted"])
    except ValueError:
        same = False
    ok &= same
    table.append((p["case"], m, p["predicted"], meas, "yes" if same else "NO"))
w = [max(len(r[i]) for r in table) for i in range(5)]
for r in table:
    print("  ".join(c.ljust(w[i]) for i, c in enumerate(r)))
with open(f"{out}/ncu_vs_prediction.csv", "w", newline="") as f:
    csv.writer(f).writerows(table)
print("\nverdicts:")
print(open(f"{out}/verdicts.txt").read())
print("all predictions match" if ok else "SOME PREDICTIONS DIFFER")
sys.exit(0 if ok else 1)
EOF
