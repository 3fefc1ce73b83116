#!/usr/bin/env python3
"""`tessera codegen`: the emitted index code compiles and computes the library's coordinates.

Usage: test_codegen.py TESSERA_EXE CXX [WORK_DIR]
For each configuration: generate the header, compile it as host C++ (the __host__/__device__
shim) with -Wall -Werror, run it for every thread, and compare each fragment element's (row, col)
with the library's partition (`tessera batch` on the configuration `tessera explain --json`
reports, i.e. operand_coords). The product form my_rows x my_cols must agree with the fragment.
When nvcc is on PATH (or $NVCC), the header is also compiled as CUDA for sm_80; NVCC=off skips
that (the sanitizer build: the same header text is compiled by the release build's run).
Also checks codegen's error messages and exit codes.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

exe, cxx = os.path.abspath(sys.argv[1]), sys.argv[2]
work = os.path.abspath(sys.argv[3] if len(sys.argv) > 3
                       else tempfile.mkdtemp(prefix="tessera-codegen-"))
os.makedirs(work, exist_ok=True)
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(*args, stdin=None):
    p = subprocess.run([exe, *args], input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


DRIVER = r"""
#include <cstdio>
#include "gen.hpp"
// Prints, per thread, the fragment's coordinates, then the product form when the header has one.
int main() {
  for (int t = 0; t < gen::kThreads; ++t) {
    int row[gen::kFrag], col[gen::kFrag];
    gen::fragment_coords(t, row, col);
    std::printf("[");
    for (int i = 0; i < gen::kFrag; ++i) std::printf("%s[%d,%d]", i ? "," : "", row[i], col[i]);
    std::printf("]\n");
  }
#ifdef HAS_MY_ROWS
  for (int t = 0; t < gen::kThreads; ++t) {
    int my_rows[gen::kMyRows], my_cols[gen::kMyCols];
    gen::my_rows_cols(t, my_rows, my_cols);
    std::printf("[");
    for (int ni = 0; ni < gen::kMyCols; ++ni)
      for (int mi = 0; mi < gen::kMyRows; ++mi)
        std::printf("%s[%d,%d]", mi || ni ? "," : "", my_rows[mi], my_cols[ni]);
    std::printf("]\n");
  }
#endif
  return 0;
}
"""

CUDA = r"""
#include "gen.hpp"
__global__ void store(float* c, int ld) {
  float acc[gen::kFrag];
  for (int i = 0; i < gen::kFrag; ++i) acc[i] = float(i);
  gen::store_fragment(c, ld, acc);
}
"""


def library_coords(flags, operand):
    rc, out, err = run("explain", *flags, "--json")
    cfg = json.loads(out)["config"]
    case = {"id": "x", "atom": cfg["atom"], "atom_layout": cfg["atom_layout"],
            "permutation": cfg["permutation"],
            "tile_mnk": cfg["tile_mnk"]}
    rc, out, err = run("batch", stdin=json.dumps(case) + "\n")
    return json.loads(out)[operand]["coords"]


def check_config(name, flags, operand="C"):
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    header = os.path.join(d, "gen.hpp")
    rc, _, err = run("codegen", *flags, "--operand", operand, "--namespace", "gen", "-o", header)
    if rc != 0:
        check(False, f"{name}: codegen failed: {err}")
        return
    text = open(header).read()
    for bad in ("static const int", "const int table", "= {"):
        check(bad not in text, f"{name}: no lookup table in the code ({bad!r})")
    with open(os.path.join(d, "main.cpp"), "w") as f:
        f.write(DRIVER)
    has_rows = "my_rows_cols" in text
    binary = os.path.join(d, "coords")
    cmd = [cxx, "-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", "-I", d,
           os.path.join(d, "main.cpp"), "-o", binary]
    if has_rows:
        cmd.insert(1, "-DHAS_MY_ROWS")
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        check(False, f"{name}: the generated code compiles as host C++: {p.stderr[:2000]}")
        return
    lines = subprocess.run([binary], capture_output=True, text=True, check=True).stdout.splitlines()
    want = library_coords(flags, operand)
    got = [json.loads(l) for l in lines[:len(want)]]
    check(got == want, f"{name}: {operand} coordinates of all {len(want)} threads equal the "
          f"library's")
    if has_rows:
        product = [json.loads(l) for l in lines[len(want):]]
        check(product == want,
              f"{name}: my_rows x my_cols is the fragment, element (mi,ni) = mi + kMyRows*ni")
    nvcc = os.environ.get("NVCC") or shutil.which("nvcc") or (
        "/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    if nvcc == "off":
        print(f"note {name}: NVCC=off, the CUDA compile is the release build's (host compile "
              "checked)")
    elif nvcc:
        with open(os.path.join(d, "k.cu"), "w") as f:
            f.write(CUDA)
        p = subprocess.run([nvcc, "-std=c++17", "-arch=sm_80", "-I", d, "-c",
                            os.path.join(d, "k.cu"),
                            "-o", os.path.join(d, "k.o")], capture_output=True, text=True)
        check(p.returncode == 0,
              f"{name}: the generated code compiles as CUDA with nvcc {p.stderr[:1500]}")
    else:
        print(f"note {name}: nvcc not found, the CUDA compile is skipped (host compile checked)")
    return text


text = check_config("step1", ["--preset", "step1"])
check(text is not None and "my_rows_cols" in text and "kMyRows = 8, kMyCols = 8" in text,
      "step1: the hand-written step 1 kernel's my_rows/my_cols form (8 rows x 8 columns)")
check(text is not None and "(thr_m * 4)" not in text and "thr_m * 4" in text
      and "(mi / 4) * 64" in text,
      "step1: rows are tm*4 + {0..3, 64..67} as in the hand-written step 1 kernel")
check_config("step1_A", ["--preset", "step1"], "A")
check_config("step1_B", ["--preset", "step1"], "B")
check_config("step4", ["--preset", "step4"])
check_config("step4_A", ["--preset", "step4"], "A")
check_config("perm_1_16",
             ["--atom-layout", "(16,16,1):(16,1,0)", "--perm", "((16,4):(1,16),(16,4):(1,16),_)",
                           "--tile", "128", "128", "8"])
check_config("sm80_2x2_64", ["--atom", "SM80_16x8x16_F32F16F16F32_TN", "--atom-layout", "(2,2,1)",
                             "--tile", "64", "64", "16"])

# Errors: exit 1 with a message naming the problem.
for args, msg in [(["--preset", "step9"], "unknown preset"),
                  (["--atom-layout", "(16,16,1:(16,1,0)", "--tile", "128", "128", "8"],
                   "position 8"),
                  (["--atom", "Nope", "--atom-layout", "(2,2,1)", "--tile", "64", "64", "16"],
                   "unknown MMA atom"),
                  (["--atom-layout", "(16,16,1):(16,1,0)", "--perm",
                    "((16,4):(4,1),(16,4):(4,1),_)",
                    "--tile", "100", "128", "8"], "not a multiple"),
                  (["--atom-layout", "(16,16,1):(16,1,0)", "--perm",
                    "((16,4):(4,4),(16,4):(4,1),_)",
                    "--tile", "128", "128", "8"], "not injective"),
                  (["--preset", "step1", "--namespace", "1x"], "not a C++ identifier"),
                  ([], "needs --preset"),
                  (["--preset", "step1", "--operand", "D"], "--operand")]:
    rc, _, err = run("codegen", *args)
    check(rc == 1 and msg in err,
          f"codegen {' '.join(args)} -> exit 1 with {msg!r} ({rc}: {err.strip()[:160]})")

print(f"codegen: {len(failures)} failures")
sys.exit(1 if failures else 0)
