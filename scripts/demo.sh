#!/usr/bin/env bash
# The main job on a built-in example: the step 1 kernel (256 threads, scalar FMA, permutation
# (16,4):(4,1)) derived step by step in the terminal, then drawn as an interactive page.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake --preset default >/dev/null
cmake --build build --target tessera_cli >/dev/null
./build/tools/tessera explain --preset step1 --thread 0
./build/tools/tessera render --preset step1 --compare-perm "(16,4):(1,16)" --compare-perm "(16,8):(8,1)" -o step1.html
echo "wrote step1.html: open it in a browser (hover a cell, click or type a thread)"
