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
  return s == TESSERA_ATTENTION_ERROR_HEAD_DIM
             ? "tessera_attention: head_dim must be 64, 128 or 256" : "other";
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


# A stand-in for libtessera_attention.so computing the forward on the CPU (f32 math on the same
# f16/bf16 inputs) from the parameters it is given: tessera.attention's strides, addresses, copies,
# output layout, GQA, mask, scale and LSE end to end on CPU torch tensors.
CPU_FORWARD = r"""
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <tessera/attention.h>
static float load(int dt, const void* base, int64_t i) {
  uint16_t h;
  memcpy(&h, (const char*)base + 2 * i, 2);
  if (dt == TESSERA_ATTENTION_BF16) {
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
  }
  _Float16 x;
  memcpy(&x, &h, 2);
  return (float)x;
}
static void store(int dt, void* base, int64_t i, float f) {
  uint16_t h;
  if (dt == TESSERA_ATTENTION_BF16) {  /* round to nearest even */
    uint32_t u;
    memcpy(&u, &f, 4);
    h = (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
  } else {
    _Float16 x = (_Float16)f;
    memcpy(&h, &x, 2);
  }
  memcpy((char*)base + 2 * i, &h, 2);
}
int tessera_attention(tessera_attention_dtype dt, const tessera_attention_params* p, void* st) {
  (void)st;
  if (dt != TESSERA_ATTENTION_F16 && dt != TESSERA_ATTENTION_BF16) return 8;
  const int64_t g = p->heads_q / p->heads_kv, D = p->head_dim, sk = p->seqlen_k;
  float* s = malloc(sizeof(float) * sk);
  for (int64_t b = 0; b < p->batch; ++b)
    for (int64_t h = 0; h < p->heads_q; ++h)
      for (int64_t i = 0; i < p->seqlen_q; ++i) {
        const int64_t q0 = b * p->q_strides[0] + h * p->q_strides[1] + i * p->q_strides[2];
        const int64_t k0 = b * p->k_strides[0] + (h / g) * p->k_strides[1];
        const int64_t v0 = b * p->v_strides[0] + (h / g) * p->v_strides[1];
        float mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < sk; ++j) {
          float dot = 0;
          for (int64_t e = 0; e < D; ++e)
            dot += load(dt, p->q, q0 + e) * load(dt, p->k, k0 + j * p->k_strides[2] + e);
          s[j] = p->causal && j > i ? -INFINITY : p->scale * dot;
          mx = s[j] > mx ? s[j] : mx;
        }
        for (int64_t j = 0; j < sk; ++j) sum += expf(s[j] - mx);
        for (int64_t e = 0; e < D; ++e) {
          float acc = 0;
          for (int64_t j = 0; j < sk; ++j)
            acc += expf(s[j] - mx) * load(dt, p->v, v0 + j * p->v_strides[2] + e);
          store(dt, p->o, b * p->o_strides[0] + h * p->o_strides[1] + i * p->o_strides[2] + e,
                acc / sum);
        }
        if (p->lse) p->lse[(b * p->heads_q + h) * p->seqlen_q + i] = mx + logf(sum);
      }
  free(s);
  return 0;
}
int tessera_attention_plan(tessera_attention_dtype dt, const tessera_attention_params* p,
                           char* text, size_t n) {
  (void)dt; (void)p;
  strncpy(text, "cpu stand-in", n);
  return 0;
}
const char* tessera_attention_status_string(int s) { return s ? "failed" : "success"; }
"""


@pytest.fixture
def cpu_forward(tmp_path, monkeypatch):
    torch = pytest.importorskip("torch", reason="SKIPPED: PyTorch is not installed")
    lib = _attention.declare(ctypes.CDLL(str(compile_c(tmp_path, CPU_FORWARD, shared=True))))
    monkeypatch.setattr(_attention, "_lib", lib)
    monkeypatch.setattr(_attention, "DEVICE", "cpu")
    return torch


def cpu_tensor(torch, shape, dtype, layout):
    b, h, s, d = shape
    if layout == "bshd":
        return torch.randn(b, s, h, d, dtype=dtype).transpose(1, 2)
    if layout == "strided":  # head_dim stride 2: copied before the call
        return torch.randn(b, h, s, 2 * d, dtype=dtype)[..., ::2]
    return torch.randn(b, h, s, d, dtype=dtype)


@pytest.mark.parametrize("b,hq,hk,sq,sk,causal,layout,scale", [
    (2, 3, 3, 7, 7, True, "bhsd", None),
    (1, 2, 2, 5, 19, True, "bshd", None),      # seqlen_q < seqlen_k, causal (top-left)
    (1, 2, 2, 19, 5, True, "bhsd", 0.3),       # seqlen_q > seqlen_k
    (2, 4, 2, 9, 11, False, "bshd", None),     # GQA
    (1, 3, 1, 6, 8, True, "strided", None),    # MQA, copied operands
])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_forward_through_a_cpu_stand_in(cpu_forward, b, hq, hk, sq, sk, causal, layout, scale,
                                        dtype):
    torch = cpu_forward
    dt = getattr(torch, dtype)
    torch.manual_seed(hq * 100 + sq)
    q = cpu_tensor(torch, (b, hq, sq, 64), dt, layout)
    k, v = (cpu_tensor(torch, (b, hk, sk, 64), dt, layout) for _ in range(2))
    out, lse = tessera.attention(q, k, v, is_causal=causal, scale=scale, enable_gqa=hq != hk,
                                 return_lse=True)
    kf, vf = (t.float().repeat_interleave(hq // hk, 1) for t in (k, v))
    ref = torch.nn.functional.scaled_dot_product_attention(q.float(), kf, vf, is_causal=causal,
                                                           scale=scale)
    scores = q.float() @ kf.transpose(-1, -2) * (scale or 64 ** -0.5)
    if causal:
        scores = scores.masked_fill(torch.ones(sq, sk, dtype=torch.bool).triu(1), float("-inf"))
    assert out.shape == q.shape and out.dtype == dt and lse.shape == (b, hq, sq)
    if layout == "bshd":  # the output keeps query's order of modes
        assert out.stride() == (sq * hq * 64, 64, hq * 64, 1)
    else:
        assert out.is_contiguous()
    tol = 2e-3 if dtype == "float16" else 1.6e-2
    assert (out.float() - ref).abs().max().item() <= tol
    assert (lse - torch.logsumexp(scores, -1)).abs().max().item() <= 1e-4
    copies = "".join(f"{n} is copied to contiguous storage; " for n in ("query", "key", "value")
                     if layout == "strided")
    assert tessera.attention_plan(q, k, v, enable_gqa=hq != hk) == copies + "cpu stand-in"
