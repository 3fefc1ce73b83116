#!/usr/bin/env bash
# The whole test suite: release build (host tests, CLI, CUDA compile checks when nvcc is present,
# the playground page as WebAssembly),
# the Python package (pip install . and pytest), the same host tests under ASan+UBSan, and a
# bounded libFuzzer run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
jobs=$(nproc)

echo "== release build and tests"
cmake --preset default
cmake --build build -j "$jobs"
# The playground page: the library compiled to WebAssembly (em++, from deps.sh's emscripten).
cmake --build build -j "$jobs" --target playground
ctest --preset default -j "$jobs"

echo "== Python package (pip install ., pytest)"
bash scripts/python.sh

echo "== ASan + UBSan"
cmake --preset asan
cmake --build build-asan -j "$jobs"
ctest --preset asan -j "$jobs"

echo "== libFuzzer (bounded)"
cmake --preset fuzz
cmake --build build-fuzz -j "$jobs"
ctest --test-dir build-fuzz --output-on-failure
