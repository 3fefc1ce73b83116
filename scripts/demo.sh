#!/usr/bin/env bash
# The main job on a built-in example: build the CLI and print seed 004's worked examples.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake --preset default >/dev/null
cmake --build build --target tessera_cli >/dev/null
./build/tools/tessera demo
