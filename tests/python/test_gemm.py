"""tessera.gemm without a GPU: the mapping of torch's row- or column-major matrices to the C ABI's
column-major arguments, and the errors when PyTorch, the GPU or libtessera_gemm.so is absent."""
import importlib.util

import pytest

import tessera
from tessera import _gemm


def ref_blas(trans, m, n, ld, data):
    """op(X) of a column-major m x n (after op) matrix stored in `data` with leading dimension ld."""
    return [[data[i + j * ld] if trans == "N" else data[j + i * ld] for j in range(n)] for i in range(m)]


def strided(rows, cols, rs, cs, values):
    data = [0.0] * (1 + (rows - 1) * rs + (cols - 1) * cs + 8)
    for i in range(rows):
        for j in range(cols):
            data[i * rs + j * cs] = values[i][j]
    return data


@pytest.mark.parametrize("a_major,b_major,c_major", [(a, b, c) for a in "RC" for b in "RC" for c in "RC"])
def test_blas_args_compute_a_at_b(a_major, b_major, c_major):
    """Simulate the BLAS call the arguments describe and compare with A @ B."""
    m, n, k = 3, 5, 4
    A = [[1 + i + 10 * p for p in range(k)] for i in range(m)]
    B = [[2 + p - 3 * j for j in range(n)] for p in range(k)]
    want = [[sum(A[i][p] * B[p][j] for p in range(k)) for j in range(n)] for i in range(m)]
    pad = 2  # leading dimensions larger than the matrix
    def strides(rows, cols, major):
        return (cols + pad, 1) if major == "R" else (1, rows + pad)
    sa, sb, sc = strides(m, k, a_major), strides(k, n, b_major), strides(m, n, c_major)
    swap, ta, lda, tb, ldb, mm, nn, kk, ldc = _gemm.blas_args((m, k), sa, (k, n), sb, (m, n), sc)
    first, second = (strided(k, n, *sb, B), strided(m, k, *sa, A)) if swap else (strided(m, k, *sa, A), strided(k, n, *sb, B))
    opa, opb = ref_blas(ta, mm, kk, lda, first), ref_blas(tb, kk, nn, ldb, second)
    c_blas = [[sum(opa[i][p] * opb[p][j] for p in range(kk)) for j in range(nn)] for i in range(mm)]
    got = [[c_blas[j][i] for j in range(mm)] for i in range(nn)] if swap else c_blas  # C^T when swapped
    assert got == want
    assert ldc == (sc[0] if swap else sc[1])
    assert lda >= max(1, mm if ta == "N" else kk) and ldb >= max(1, kk if tb == "N" else nn)


def test_blas_args_errors():
    with pytest.raises(tessera.Error, match="do not match"):
        _gemm.blas_args((3, 4), (4, 1), (5, 2), (2, 1), (3, 2), (2, 1))
    with pytest.raises(tessera.Error, match="no unit stride"):
        _gemm.blas_args((3, 4), (8, 2), (4, 2), (2, 1), (3, 2), (2, 1))


@pytest.mark.skipif(importlib.util.find_spec("torch") is not None, reason="PyTorch is installed")
def test_gemm_without_torch():
    with pytest.raises(tessera.Error, match="PyTorch is not installed"):
        tessera.gemm(None, None)


def test_missing_library(monkeypatch):
    monkeypatch.setenv("TESSERA_GEMM_LIBRARY", "/nonexistent/libtessera_gemm.so")
    monkeypatch.setattr(_gemm, "_lib", None)
    with pytest.raises(tessera.Error, match="libtessera_gemm.so was not found.*TESSERA_GEMM_LIBRARY"):
        _gemm.load_library()
