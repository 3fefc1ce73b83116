#!/usr/bin/env bash
# The Python package: a virtual environment in build-python/venv, `pip install .` into it (the
# module compiled by scikit-build-core + nanobind, incrementally in build-python/<wheel tag>), and
# the pytest suite of tests/python (the oracle, the worked examples, errors, pages, the differential
# test against tensor-layouts). Part of scripts/test.sh; run it alone after changing python/.
# TESSERA_PIP_CUDA=OFF (the default here) leaves libtessera_gemm.so out of the package: the CUDA
# build compiles every GEMM kernel (minutes), and CI has nvcc but no GPU to run them. The torch
# tests skip visibly where PyTorch is absent. TESSERA_PIP_CUDA=ON bash scripts/python.sh builds it.
# TESSERA_FRONTEND_LIBRARY=PATH/libtessera_ops.a (scripts/test.sh: the release build's) links that
# front-end library instead of compiling tools/ again.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=build-python/venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
# Build and test requirements (pyproject.toml's build-system and "test" extra), from PyPI.
"$venv/bin/python" -m pip install -q "scikit-build-core>=0.10" "nanobind>=2.0" pytest tensor-layouts
TESSERA_PIP_CUDA=${TESSERA_PIP_CUDA:-OFF} CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) \
  "$venv/bin/python" -m pip install -q --no-build-isolation .
"$venv/bin/python" -m pytest -q -rs tests/python
