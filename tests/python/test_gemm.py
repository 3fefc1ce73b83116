"""tessera.gemm without a GPU: the mapping of torch's row- or column-major matrices to the C ABI's
column-major arguments, and the errors when PyTorch, the GPU or libtessera_gemm.so is absent."""
import importlib.util

import pytest

import tessera
from tessera import _gemm


def ref_blas(trans, m, n, ld, data):
    """op(X) of a column-major m x n (after op) matrix stored in `data` with leading dimension
    ld."""
    return [[data[i + j * ld] if trans == "N" else data[j + i * ld] for j in range(n)]
            for i in range(m)]


def strided(rows, cols, rs, cs, values):
    data = [0.0] * (1 + (rows - 1) * rs + (cols - 1) * cs + 8)
    for i in range(rows):
        for j in range(cols):
            data[i * rs + j * cs] = values[i][j]
    return data


@pytest.mark.parametrize("a_major,b_major,c_major",
                         [(a, b, c) for a in "RC" for b in "RC" for c in "RC"])
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
    a_view, b_view = strided(m, k, *sa, A), strided(k, n, *sb, B)
    first, second = (b_view, a_view) if swap else (a_view, b_view)
    opa, opb = ref_blas(ta, mm, kk, lda, first), ref_blas(tb, kk, nn, ldb, second)
    c_blas = [[sum(opa[i][p] * opb[p][j] for p in range(kk)) for j in range(nn)] for i in range(mm)]
    # C^T when swapped
    got = [[c_blas[j][i] for j in range(mm)] for i in range(nn)] if swap else c_blas
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
    with pytest.raises(tessera.Error,
                       match="libtessera_gemm.so was not found.*TESSERA_GEMM_LIBRARY"):
        _gemm.load_library()


# A stand-in for libtessera_gemm.so with the same C ABI (include/tessera/gemm.h), running BLAS's
# column-major definition on the CPU with the real library's argument checks: the ctypes call
# (signature, argument order, N/T, leading dimensions, alpha, beta) end to end without a GPU.
FAKE_GEMM = r"""
#include <stdint.h>
static int64_t max1(int64_t x) { return x > 1 ? x : 1; }
int tessera_gemm(int dtype, char ta, char tb, int64_t m, int64_t n, int64_t k, float alpha,
                 const void* A, int64_t lda, const void* B, int64_t ldb, float beta, void* C,
                 int64_t ldc, void* stream) {
  (void)stream;
  if (dtype != 0) return 9;
  if ((ta != 'N' && ta != 'T') || (tb != 'N' && tb != 'T')) return 1;
  if (m < 0 || n < 0 || k < 0) return 2;
  if (lda < max1(ta == 'N' ? m : k)) return 3;
  if (ldb < max1(tb == 'N' ? k : n)) return 4;
  if (ldc < max1(m)) return 5;
  const float *a = (const float*)A, *b = (const float*)B;
  float* c = (float*)C;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      float s = 0;
      for (int64_t p = 0; p < k; ++p)
        s += (ta == 'N' ? a[i + p * lda] : a[p + i * lda]) *
             (tb == 'N' ? b[p + j * ldb] : b[j + p * ldb]);
      c[i + j * ldc] = alpha * s + (beta == 0 ? 0 : beta * c[i + j * ldc]);
    }
  return 0;
}
const char* tessera_status_string(int s) {
  return s == 9 ? "the kernel cannot run this dtype" : "bad argument";
}
"""


@pytest.fixture(scope="module")
def fake_lib(tmp_path_factory):
    import ctypes
    import shutil
    import subprocess
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        pytest.skip("SKIPPED: no C compiler for the stand-in libtessera_gemm.so")
    d = tmp_path_factory.mktemp("fake_gemm")
    (d / "fake.c").write_text(FAKE_GEMM)
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", str(d / "libfake.so"), str(d / "fake.c")],
                   check=True)
    return _gemm.declare(ctypes.CDLL(str(d / "libfake.so")))


@pytest.mark.parametrize("a_major,b_major,c_major",
                         [(a, b, c) for a in "RC" for b in "RC" for c in "RC"])
def test_call_through_the_c_abi(fake_lib, a_major, b_major, c_major):
    import ctypes
    m, n, k, pad = 4, 3, 5, 3
    A = [[float(1 + i - 2 * p) for p in range(k)] for i in range(m)]
    B = [[float(p * j - 1) for j in range(n)] for p in range(k)]
    C0 = [[float(i + 10 * j) for j in range(n)] for i in range(m)]

    def strides(rows, cols, major):
        return (cols + pad, 1) if major == "R" else (1, rows + pad)

    def buffer(rows, cols, st, values):
        buf = (ctypes.c_float * (rows * cols + pad * max(rows, cols) + 1))(
            *([-7.0] * (rows * cols + pad * max(rows, cols) + 1)))
        for i in range(rows):
            for j in range(cols):
                buf[i * st[0] + j * st[1]] = values[i][j]
        return buf

    sa, sb, sc = strides(m, k, a_major), strides(k, n, b_major), strides(m, n, c_major)
    a, b, c = buffer(m, k, sa, A), buffer(k, n, sb, B), buffer(m, n, sc, C0)
    args = _gemm.blas_args((m, k), sa, (k, n), sb, (m, n), sc)
    _gemm.call(fake_lib, 0, args, 2.0, ctypes.addressof(a), ctypes.addressof(b), 0.5,
               ctypes.addressof(c))
    got = [[c[i * sc[0] + j * sc[1]] for j in range(n)] for i in range(m)]
    want = [[2.0 * sum(A[i][p] * B[p][j] for p in range(k)) + 0.5 * C0[i][j] for j in range(n)]
            for i in range(m)]
    assert got == want
    with pytest.raises(tessera.Error, match="gemm: the kernel cannot run this dtype"):
        _gemm.call(fake_lib, 2, args, 1.0, ctypes.addressof(a), ctypes.addressof(b), 0.0,
                   ctypes.addressof(c))
