"""tessera.attention without a GPU: the checks that run before the library is loaded (ranks,
dtypes, devices, shapes, GQA), the strides the C ABI is given, the ctypes mirror of
tessera_attention_params against the C header, the call and plan through a stand-in library, and
the error when libtessera_attention.so is absent. The kernels run in
tests/device/torch_attention.py (scripts/gpu.sh attention-torch)."""
import ctypes
import pathlib
import shutil
import subprocess
import types

import pytest

import tessera
from tessera import _attention

REPO = pathlib.Path(__file__).resolve().parents[2]


class FakeTensor:
    """What the checks read of a torch tensor: shape, stride(), dtype, device, data_ptr()."""

    def __init__(self, shape, dtype="torch.float16", device="cuda:0", strides=None, ptr=4096):
        self.shape, self.dtype, self._ptr = tuple(shape), dtype, ptr
        kind, _, index = device.partition(":")
        self.device = types.SimpleNamespace(type=kind, index=int(index) if index else None)
        if strides is None:  # contiguous
            strides, step = [], 1
            for n in reversed(self.shape):
                strides.insert(0, step)
                step *= n
        self._strides = tuple(strides)
        self.requires_grad = False

    def stride(self, dim=None):
        return self._strides if dim is None else self._strides[dim]

    def data_ptr(self):
        return self._ptr


def qkv(b=2, hq=8, hk=8, sq=100, sk=77, d=64, **kw):
    return (FakeTensor((b, hq, sq, d), **kw), FakeTensor((b, hk, sk, d), **kw),
            FakeTensor((b, hk, sk, d), **kw))


@pytest.fixture
def no_library(monkeypatch):
    """Any attempt to load libtessera_attention.so fails the test."""
    def refuse():
        raise AssertionError("the library was reached")
    monkeypatch.setattr(_attention, "load_library", refuse)


def test_check_returns_the_sizes():
    assert _attention.check(*qkv(), enable_gqa=False) == (2, 8, 8, 100, 77, 64)
    assert _attention.check(*qkv(hq=32, hk=8, d=128), enable_gqa=True) == (2, 32, 8, 100, 77, 128)
    assert _attention.check(*qkv(hq=6, hk=1), enable_gqa=True)[1:3] == (6, 1)  # MQA


def bad(rule, **changes):
    """(query, key, value) with one operand changed, and the message expected."""
    q, k, v = qkv()
    ops = {"query": q, "key": k, "value": v}
    for name, t in changes.items():
        ops[name] = t
    return (ops["query"], ops["key"], ops["value"]), rule


CASES = [
    bad("value must be a torch.Tensor", value=[1, 2]),
    bad(r"query must be 4-D \(batch, heads, seq, head_dim\); got shape \(8, 100, 64\)",
        query=FakeTensor((8, 100, 64))),
    bad("key has dtype torch.float32; the kernels take torch.float16 and torch.bfloat16",
        key=FakeTensor((2, 8, 77, 64), dtype="torch.float32")),
    bad("value has dtype torch.bfloat16 but query has torch.float16",
        value=FakeTensor((2, 8, 77, 64), dtype="torch.bfloat16")),
    bad("key is on cpu; tessera's kernels run on CUDA tensors",
        key=FakeTensor((2, 8, 77, 64), device="cpu")),
    bad("value is on cuda:1 but query is on cuda:0",
        value=FakeTensor((2, 8, 77, 64), device="cuda:1")),
    bad("batch sizes differ", key=FakeTensor((1, 8, 77, 64))),
    bad("head_dim differs", value=FakeTensor((2, 8, 77, 128))),
    bad("key and value must have the same heads and seq", value=FakeTensor((2, 8, 76, 64))),
    bad("query has 8 heads but key and value 4 .*enable_gqa=True",
        key=FakeTensor((2, 4, 77, 64)), value=FakeTensor((2, 4, 77, 64))),
]


@pytest.mark.parametrize("operands,rule", CASES, ids=[c[1].split()[0] + str(i)
                                                      for i, c in enumerate(CASES)])
def test_bad_arguments_fail_before_the_library(operands, rule, no_library):
    with pytest.raises(tessera.Error, match=rule):
        tessera.attention(*operands)
    with pytest.raises(tessera.Error, match=rule):
        tessera.attention_plan(*operands)


def test_gqa_heads_must_divide(no_library):
    with pytest.raises(tessera.Error, match=r"key/value heads \(3\) must divide query heads \(8\)"):
        tessera.attention(*qkv(hq=8, hk=3), enable_gqa=True)


def test_abi_strides():
    q = FakeTensor((2, 8, 100, 64))
    assert _attention.abi_strides(q) == (8 * 100 * 64, 100 * 64, 64)
    # a (B, S, H, D) tensor transposed to (B, H, S, D)
    bshd = FakeTensor((2, 8, 100, 64), strides=(100 * 8 * 64, 64, 8 * 64, 1))
    assert _attention.abi_strides(bshd) == (100 * 8 * 64, 64, 8 * 64)
    # modes of extent 1 are never stepped: stride 0
    assert _attention.abi_strides(FakeTensor((1, 1, 5, 64))) == (0, 0, 64)
    # what the ABI cannot take (the caller copies it)
    assert _attention.abi_strides(FakeTensor((2, 8, 100, 64), strides=(0, 0, 128, 2))) is None
    assert _attention.abi_strides(FakeTensor((2, 8, 100, 64), strides=(8 * 100 * 68, 100 * 68,
                                                                       68, 1))) is None
    assert _attention.abi_strides(FakeTensor((2, 8, 100, 64), ptr=4096 + 2)) is None


def test_missing_library(monkeypatch):
    monkeypatch.setenv("TESSERA_ATTENTION_LIBRARY", "/nonexistent/libtessera_attention.so")
    monkeypatch.setattr(_attention, "_lib", None)
    with pytest.raises(tessera.Error, match="attention: libtessera_attention.so was not found.*"
                                            "TESSERA_ATTENTION_LIBRARY"):
        _attention.load_library()


def compile_c(tmp_path, source, shared):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        pytest.skip("SKIPPED: no C compiler")
    src, out = tmp_path / "x.c", tmp_path / ("libx.so" if shared else "x")
    src.write_text(source)
    flags = ["-shared", "-fPIC"] if shared else []
    subprocess.run([cc, *flags, "-I", str(REPO / "include"), "-o", str(out), str(src)],
                   check=True)
    return out


def test_params_match_the_c_header(tmp_path):
    """Offsets and size of every field of tessera_attention_params, from the C compiler."""
    fields = [f[0] for f in _attention.Params._fields_]
    prints = "".join(f'printf("{f} %zu\\n", offsetof(tessera_attention_params, {f}));'
                     for f in fields)
    exe = compile_c(tmp_path, "#include <stdio.h>\n#include <stddef.h>\n"
                    "#include <tessera/attention.h>\nint main(void) {" + prints +
                    'printf("size %zu\\n", sizeof(tessera_attention_params)); return 0; }',
                    shared=False)
    got = dict(line.split() for line in subprocess.run([str(exe)], capture_output=True,
                                                         text=True, check=True).stdout.split("\n")
               if line)
    want = {f: str(getattr(_attention.Params, f).offset) for f in fields}
    want["size"] = str(ctypes.sizeof(_attention.Params))
    assert got == want


# A stand-in for libtessera_attention.so with the same C ABI: the plan prints back every field it
# received; the call returns the status the dtype names (to check the error mapping).
FAKE = r"""
#include <stdio.h>
#include <tessera/attention.h>
int tessera_attention(tessera_attention_dtype dtype, const tessera_attention_params* p,
                      void* stream) {
  (void)p; (void)stream;
  return dtype == TESSERA_ATTENTION_F16 || dtype == TESSERA_ATTENTION_BF16 ? 0 : (int)dtype;
}
int tessera_attention_plan(tessera_attention_dtype dtype, const tessera_attention_params* p,
                           char* text, size_t n) {
  if (p->head_dim != 64) return TESSERA_ATTENTION_ERROR_HEAD_DIM;
  snprintf(text, n, "%d %lld %lld %lld %lld %lld %lld q=%p %lld,%lld,%lld k=%p %lld,%lld,%lld "
           "v=%p %lld,%lld,%lld o=%p %lld,%lld,%lld lse=%p %g %d", (int)dtype,
           (long long)p->batch, (long long)p->heads_q, (long long)p->heads_kv,
           (long long)p->seqlen_q, (long long)p->seqlen_k, (long long)p->head_dim,
           p->q, (long long)p->q_strides[0], (long long)p->q_strides[1],
           (long long)p->q_strides[2], p->k, (long long)p->k_strides[0],
           (long long)p->k_strides[1], (long long)p->k_strides[2], p->v,
           (long long)p->v_strides[0], (long long)p->v_strides[1], (long long)p->v_strides[2],
           p->o, (long long)p->o_strides[0], (long long)p->o_strides[1],
           (long long)p->o_strides[2], (void*)p->lse, (double)p->scale, p->causal);
  return 0;
}
const char* tessera_attention_status_string(int s) {
  return s == TESSERA_ATTENTION_ERROR_HEAD_DIM ? "tessera_attention: head_dim must be 64, 128 or 256"
                                                : "other";
}
"""


def test_call_and_plan_through_the_c_abi(tmp_path):
    lib = _attention.declare(ctypes.CDLL(str(compile_c(tmp_path, FAKE, shared=True))))
    dims = (2, 8, 4, 100, 77, 64)
    p = _attention.params(dims, (0x1000, (1, 2, 3)), (0x2000, (4, 5, 6)), (0x3000, (7, 8, 9)),
                          (0x4000, (10, 11, 12)), 0x5000, 0.125, True)
    assert _attention.plan(lib, 3, p) == (
        "3 2 8 4 100 77 64 q=0x1000 1,2,3 k=0x2000 4,5,6 v=0x3000 7,8,9 o=0x4000 10,11,12 "
        "lse=0x5000 0.125 1")
    p.lse, p.causal = None, False
    assert _attention.plan(lib, 2, p).endswith("lse=(nil) 0.125 0")
    _attention.call(lib, 2, p, stream=0)
    with pytest.raises(tessera.Error, match="attention: other"):
        _attention.call(lib, 7, p)
    p.head_dim = 100
    with pytest.raises(tessera.Error, match="^attention: head_dim must be 64, 128 or 256$"):
        _attention.plan(lib, 2, p)


def test_without_torch():
    try:
        import torch  # noqa: F401
        pytest.skip("SKIPPED: PyTorch is installed")
    except ImportError:
        pass
    with pytest.raises(tessera.Error, match="PyTorch is not installed"):
        tessera.attention(*qkv())


def test_torch_cpu_tensors_are_refused(no_library):
    torch = pytest.importorskip("torch", reason="SKIPPED: PyTorch is not installed")
    q = torch.zeros(1, 2, 3, 64, dtype=torch.float16)
    with pytest.raises(tessera.Error, match="query is on cpu"):
        tessera.attention(q, q, q)
