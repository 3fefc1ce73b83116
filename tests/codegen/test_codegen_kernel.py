#!/usr/bin/env python3
"""`tessera codegen --kernel`: the whole plain-CUDA GEMM kernel of a scalar-FMA TiledMMA.

Usage: test_codegen_kernel.py TESSERA_EXE CXX [WORK_DIR]
For each configuration (the step 1 kernel's, a 64-thread one without permutation, and one whose
tile is not a multiple of the problems below: every CTA of the last row and column is ragged):
  - the kernel runs on the CPU (host C++: TESSERA_GEN_HOST_KERNEL, the grid and the threads as
    loops) on random ragged problems with M-, K- and N-major operands, alpha and beta, C inside
    a larger buffer: every element of C equals a float64 reference within float rounding, and
    nothing outside C's block is written;
  - when nvcc is on PATH (or $NVCC), it compiles for sm_80 with 0 bytes of stack and 0 spills
    (ptxas -v);
and the errors: an atom that is not one scalar FMA, --kernel with --problem.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

exe, cxx = os.path.abspath(sys.argv[1]), sys.argv[2]
work = os.path.abspath(sys.argv[3] if len(sys.argv) > 3
                       else tempfile.mkdtemp(prefix="tessera-codegen-kernel-"))
os.makedirs(work, exist_ok=True)
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(*args):
    p = subprocess.run([exe, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


# The host driver: each problem line "M N K amajor bmajor cmajor alpha beta seed" (a major letter
# names the contiguous mode); prints "max_error guard_changes" per problem.
DRIVER = r"""
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <random>
#include <vector>
struct Dim3 { unsigned x = 0, y = 0, z = 0; };
static Dim3 threadIdx, blockIdx;
#define __global__
#define __launch_bounds__(n)
#define TESSERA_GEN_HOST_KERNEL
#include "gen.cuh"
using namespace gen;
int main() {
  long long M, N, K;
  char am, bm, cm;
  float alpha, beta;
  unsigned seed;
  while (std::scanf("%lld %lld %lld %c %c %c %f %f %u", &M, &N, &K, &am, &bm, &cm, &alpha, &beta,
                    &seed) == 9) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1, 1);
    const long long guard = 37;  // C's block sits inside a buffer with guard elements around it
    std::vector<float> A(M * K), B(N * K), C(M * N + 2 * guard + M + N);
    for (auto& x : A) x = u(rng);
    for (auto& x : B) x = u(rng);
    for (auto& x : C) x = u(rng);
    const std::vector<float> C0 = C;
    long long a_sm = am == 'M' ? 1 : K, a_sk = am == 'M' ? M : 1;
    long long b_sn = bm == 'N' ? 1 : K, b_sk = bm == 'N' ? N : 1;
    long long ld = cm == 'M' ? M + 1 : N + 1;  // a leading dimension past the block
    long long c_sm = cm == 'M' ? 1 : ld, c_sn = cm == 'M' ? ld : 1;
    float* c = C.data() + guard;
    for (blockIdx.x = 0; blockIdx.x < unsigned((M + kBM - 1) / kBM); ++blockIdx.x)
      for (blockIdx.y = 0; blockIdx.y < unsigned((N + kBN - 1) / kBN); ++blockIdx.y)
        for (threadIdx.x = 0; threadIdx.x < unsigned(kThreads); ++threadIdx.x)
          gemm(M, N, K, alpha, A.data(), a_sm, a_sk, B.data(), b_sn, b_sk, beta, c, c_sm, c_sn);
    double worst = 0;
    std::vector<char> inside(C.size(), 0);
    for (long long m = 0; m < M; ++m)
      for (long long n = 0; n < N; ++n) {
        long long o = guard + m * c_sm + n * c_sn;
        inside[size_t(o)] = 1;
        double ref = 0, mag = 0;
        for (long long k = 0; k < K; ++k) {
          double p = double(A[m * a_sm + k * a_sk]) * double(B[n * b_sn + k * b_sk]);
          ref += p, mag += std::fabs(p);
        }
        ref = alpha * ref + beta * double(C0[size_t(o)]);
        mag = std::fabs(alpha) * mag + std::fabs(beta * double(C0[size_t(o)])) + 1e-30;
        worst = std::fmax(worst, std::fabs(C[size_t(o)] - ref) / mag);
      }
    long long changed = 0;
    for (size_t i = 0; i < C.size(); ++i) changed += !inside[i] && C[i] != C0[i];
    std::printf("%.3g %lld\n", worst, changed);
  }
  return 0;
}
"""

CONFIGS = [
    ("step1", ["--preset", "step1"]),
    ("fma8x8", ["--atom", "UniversalFMA", "--atom-layout", "(8,8,1):(8,1,0)", "--tile", "64", "64",
                "4"]),
    ("fma16x8_perm", ["--atom", "UniversalFMA", "--atom-layout", "(16,8,1):(8,1,0)", "--perm",
                      "((16,2):(2,1),(8,4):(4,1),_)", "--tile", "64", "64", "8"]),
]
rng = random.Random(20261127)
PROBLEMS = []
for i in range(6):
    PROBLEMS.append((rng.randint(1, 300), rng.randint(1, 200), rng.randint(1, 40),
                     rng.choice("MK"), rng.choice("NK"), rng.choice("MN"),
                     rng.choice([1.0, -0.5]), rng.choice([0.0, 0.75]), rng.randint(1, 10**6)))
PROBLEMS.append((256, 128, 32, "M", "N", "N", 1.0, 0.0, 7))  # the step 1 trace's problem

nvcc = os.environ.get("NVCC") or shutil.which("nvcc") or (
    "/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
if nvcc == "off":  # the sanitizer build: the release build's run compiles the same text
    nvcc = None

for name, flags in CONFIGS:
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    header = os.path.join(d, "gen.cuh")
    rc, _, err = run("codegen", *flags, "--kernel", "--namespace", "gen", "-o", header)
    if rc != 0:
        check(False, f"{name}: codegen --kernel failed: {err}")
        continue
    text = open(header).read()
    check("__global__ void __launch_bounds__(kThreads)" in text and "k_tiles" in text
          and "m < M && n < N" in text, f"{name}: a whole kernel with its K-loop and bounds tests")
    with open(os.path.join(d, "main.cpp"), "w") as f:
        f.write(DRIVER)
    binary = os.path.join(d, "host_kernel")
    p = subprocess.run([cxx, "-std=c++17", "-O2", "-Wall", "-Wextra", "-Werror",
                        "-Wno-unknown-pragmas", "-I", d,
                        os.path.join(d, "main.cpp"), "-o", binary], capture_output=True, text=True)
    if p.returncode != 0:
        check(False, f"{name}: the kernel compiles as host C++: {p.stderr[:2000]}")
        continue
    stdin = "".join(" ".join(str(x) for x in pr) + "\n" for pr in PROBLEMS)
    out = subprocess.run([binary], input=stdin, capture_output=True, text=True, check=True).stdout
    for pr, line in zip(PROBLEMS, out.splitlines()):
        err_s, changed = line.split()
        check(float(err_s) < 1e-5 and changed == "0",
              f"{name}: M,N,K = {pr[0]},{pr[1]},{pr[2]} (A {pr[3]}-, B {pr[4]}-, C {pr[5]}-major, "
              f"alpha {pr[6]}, beta {pr[7]}): relative error {err_s}, {changed} guard elements "
              f"changed")
    check(len(out.splitlines()) == len(PROBLEMS), f"{name}: every problem ran")
    if not nvcc:
        print(f"note {name}: nvcc not found, the CUDA compile is skipped (host run checked)")
        continue
    p = subprocess.run([nvcc, "-std=c++17", "-arch=sm_80", "-Xptxas", "-v", "-x", "cu", "-c",
                        header, "-o", os.path.join(d, "k.o")], capture_output=True, text=True)
    check(p.returncode == 0, f"{name}: nvcc -arch=sm_80 compiles the kernel {p.stderr[:1500]}")
    m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads",
                  p.stderr)
    check(m is not None and m.groups() == ("0", "0", "0"),
          f"{name}: 0 bytes of stack, 0 spills ({m.group(0) if m else 'no ptxas report'})")

# Errors: the rule and the operands, exit 1.
rc, out, err = run("codegen", "--preset", "step4", "--kernel")
check(rc == 1 and "scalar FMA atom" in err and "SM80_16x8x16_F32F16F16F32_TN is 16x8x16" in err,
      f"an mma.sync atom: the plain kernel's rule ({err.strip()})")
rc, out, err = run("codegen", "--preset", "step1", "--kernel", "--problem", "256", "128", "32")
check(rc == 1 and "no --problem" in err, f"--kernel with --problem ({err.strip()})")

if failures:
    print(f"{len(failures)} failures")
    sys.exit(1)
print("all passed")
