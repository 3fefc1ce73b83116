#!/usr/bin/env bash
# The Python package: a virtual environment in build-python/venv, `pip install .` into it (the
# module compiled by scikit-build-core + nanobind, incrementally in build-python/<wheel tag>), and
# the pytest suite of tests/python (the oracle, the worked examples, errors, pages, the differential
# test against tensor-layouts). Part of scripts/test.sh; run it alone after changing python/.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=build-python/venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
# Build and test requirements (pyproject.toml's build-system and "test" extra), from PyPI.
"$venv/bin/python" -m pip install -q "scikit-build-core>=0.10" "nanobind>=2.0" pytest tensor-layouts
CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) "$venv/bin/python" -m pip install -q --no-build-isolation .
"$venv/bin/python" -m pytest -q -rs tests/python
