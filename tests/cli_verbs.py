#!/usr/bin/env python3
"""The human verbs of the tessera CLI: outputs on the worked examples, messages and exit codes.

Usage: cli_verbs.py TESSERA_EXE
"""
import json
import re
import subprocess
import sys

exe = sys.argv[1]
failures = []


def run(*args, stdin=None):
    p = subprocess.run([exe, *args], input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        failures.append(what)


# Results and tables on the worked examples.
rc, out, _ = run("compose", "(4,3):(1,8)", "6:2")
check(rc == 0 and out.splitlines()[0] == "(2,3):(2,8)", f"compose: {out!r}")
check(" 0 |  0  8 16" in out and " 1 |  2 10 18" in out, f"compose table: {out!r}")
rc, out, _ = run("logical_divide", "(4,6):(1,4)", "(2,3)")
check(out.startswith("((2,2),(3,2)):((1,2),(4,12))"), f"logical_divide: {out!r}")
rc, out, _ = run("complement", "4:1", "12", "--json")
check(json.loads(out) == {"result": "3:4", "image": [0, 4, 8]}, f"complement --json: {out!r}")
rc, out, _ = run("zipped_divide", "(9,(4,8)):(59,(13,1))", "(3:3,(2,4):(1,8))")
check(out.splitlines()[0] == "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))",
      f"zipped tiler tuple: {out!r}")
rc, out, _ = run("swizzle", "1", "1", "1", "--json")
check(json.loads(out)["image"] == [0, 1, 2, 3, 6, 7, 4, 5], f"swizzle: {out!r}")
rc, out, _ = run("show", "(4,3):(3,1)")
check(rc == 0 and "size 12  cosize 12" in out and " 3 |  9 10 11" in out, f"show: {out!r}")
rc, out, _ = run("demo")
check(rc == 0 and "(4,3):(1,8) o 6:2" in out and "= (2,3):(2,8)" in out, f"demo: {out!r}")

# explain: the thread trace of thread 0 of step 1, text and JSON.
rc, out, _ = run("explain", "--preset", "step1", "--thread", "0", "--operand", "C")
check(rc == 0 and "(((16,4),2),((16,4),2)):(((512,128),8192),((4,1),64))" in out
      and "offset 0, fragment (1,(4,2),(4,2)):(0,(128,8192),(1,64))" in out
      and "m in {0,1,2,3,64,65,66,67} x n in {0,1,2,3,64,65,66,67}" in out,
      f"explain step1: {out!r}")
rc, out, _ = run("explain", "--preset", "step4", "--thread", "5", "--json")
j = json.loads(out)
check(j["config"]["threads"] == 128 and j["operands"]["C"]["coords"][3] == [9, 3],
      f"explain step4 json: {out[:300]!r}")
rc, out, _ = run("explain", "--atom", "UniversalFMA", "--atom-layout", "(16,16,1):(16,1,0)",
                 "--perm", "((16,4):(1,16),(16,4):(1,16),_)", "--tile", "128", "128", "8",
                 "--thread", "1")
# The run-time tensor's fragment, exactly as the TiledMMA oracle has it for this permutation.
check(rc == 0 and "fragment (1,(4,2),(4,2)):(0,(2048,8192),(16,64))" in out,
      f"explain flags: {out!r}")
# explain --preset hopper: kernel 05's shared tiles, wgmma descriptors and TMA boxes.
rc, out, _ = run("explain", "--preset", "hopper", "--operand", "C")
check(rc == 0 and "256 threads" in out and "SM90_64x256x16_F32F16F16_SS" in out,
      f"explain hopper: {out[:300]!r}")
check("A, K-major: stage tile (128,64) = Sw<3,3,3> o 0 o ((8,16),(64,1)):((64,512),(1,8192))" in out
      and "LBO 16 B, SBO 1024 B" in out and "warpgroup 1: 8192, 8224, 8256, 8288" in out,
      f"explain hopper A: {out!r}")
check("B, MN-major" in out and "LBO 8192 B, SBO 1024 B" in out
      and "shared by 2 CTAs (multicast)" in out
      and "boxDim {64, 128}" in out and "CU_TENSOR_MAP_SWIZZLE_128B" in out,
      f"explain hopper B: {out!r}")
rc, out, _ = run("explain", "--preset", "hopper", "--operand", "C", "--json")
j = json.loads(out)["hopper"]["operands"]
check(j[1]["tma"]["encode"]["boxDim"] == [64, 128]
      and j[1]["tma"]["encode"]["globalStrides"] == [8192]
      and j[3]["descriptor"]["lbo_bytes"] == 8192 and len(j[3]["tma"]["boxes"]) == 4,
      f"explain hopper json: {j!r}")
rc, _, err = run("explain", "--preset", "step9")
check(rc == 1 and "unknown preset" in err, f"unknown preset: {rc} {err!r}")
rc, _, err = run("explain", "--preset", "step1", "--thread", "256")
check(rc == 1 and "outside [0, 256)" in err, f"bad thread: {rc} {err!r}")

# show: colored cells on a terminal, plain text into a pipe (checked above).
import os, pty
pid, fd = pty.fork()
if pid == 0:
    os.execv(exe, [exe, "show", "(4,3):(3,1)"])
tty_out = b""
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    tty_out += chunk
os.waitpid(pid, 0)
check(b"\x1b[38;5;" in tty_out and b"\x1b[0m" in tty_out,
      f"show on a terminal has no colors: {tty_out[:200]!r}")

# User errors: exit 1 with the rule and the operands, or the bad character position.
rc, _, err = run("compose", "(4,4):(1,5)", "3:6")
check(rc == 1 and "stride divisibility fails" in err and "(4,4):(1,5)" in err,
      f"bad compose: {rc} {err!r}")
rc, _, err = run("size", "(4,2:(1,64)")
check(rc == 1 and "position 4" in err, f"malformed layout: {rc} {err!r}")
rc, _, err = run("complement", "(2,2):(1,1)")
check(rc == 1 and "not injective" in err, f"complement: {rc} {err!r}")
rc, _, _ = run("no-such-verb")
check(rc == 1, "unknown verb must exit 1")
rc, out, _ = run("composition", "--help")
check(rc == 0 and "A o B" in out, "composition --help")

# batch: one answer per line, errors per line, exit 0.
rc, out, _ = run("batch", stdin='{"id":"a","op":"size","args":["(4,2):(1,4)"]}\nnot json\n'
                                '{"id":"b","op":"composition","args":["(4,4):(1,5)","3:3"]}\n')
lines = [json.loads(l) for l in out.splitlines()]
check(rc == 0 and len(lines) == 3, f"batch lines: {out!r}")
check(lines[0] == {"id": "a", "result": "8", "image": None}, f"batch size: {lines[0]}")
check("error" in lines[1] and "error" in lines[2] and lines[2]["id"] == "b",
      f"batch errors: {lines}")

# Silent answers become notes or errors.
# A tiler that does not divide: CuTe's result is kept, a note says so (stderr; "note" in --json).
rc, out, err = run("logical_divide", "(4,6):(1,4)", "(3,4)")
check(rc == 0 and out.startswith("((3,2),(4,2)):((1,3),(4,16))")
      and "note: logical_divide: the tiler (3:1,4:1) does not divide (4,6):(1,4) (mode 0: 3 does "
      "not divide 4; "
          "mode 1: 4 does not divide 6); the result has 48 coordinates for the layout's 24" in err,
      f"non-dividing logical_divide: {rc} {out[:80]!r} {err!r}")
rc, out, err = run("zipped_divide", "(128,128):(128,1)", "(48,48)", "--json")
j = json.loads(out)
check(rc == 0 and j["result"] == "((48,48),(3,3)):((128,1),(6144,48))"
      and "20736 coordinates for the layout's 16384" in j.get("note", "")
      and err == "", f"non-dividing zipped_divide --json: {rc} {out[:200]!r} {err!r}")
rc, out, err = run("logical_divide", "(4,6):(1,4)", "(2,3)", "--json")
check(rc == 0 and "note" not in json.loads(out) and err == "",
      f"a dividing tiler has no note: {out[:100]!r} {err!r}")
# crd2idx / idx2crd: negative is an error; past the extent is CuTe's result with a note.
rc, out, err = run("crd2idx", "(5,2)", "(4,3):(1,8)")
check(rc == 0 and out.strip() == "21"
      and "coordinate (5,2) lies outside the shape (4,3) (5 is not in [0, 4))" in err,
      f"crd2idx out of range: {rc} {out!r} {err!r}")
rc, out, err = run("crd2idx", "(-1,2)", "(4,3):(1,8)")
check(rc == 1 and out == "" and "crd2idx: coordinate (-1,2) has a negative entry" in err,
      f"crd2idx negative: {rc} {err!r}")
rc, out, err = run("idx2crd", "-1", "(4,3)")
check(rc == 1 and "idx2crd: index -1 is negative; the indices of shape (4,3) run from 0 to 11" in
      err,
      f"idx2crd negative: {rc} {out!r} {err!r}")
rc, out, err = run("idx2crd", "100", "(4,3)", "--json")
j = json.loads(out)
check(rc == 0 and j["result"] == "(0,1)"
      and "wraps every mode, so this is the coordinate of 100 mod 12 = 4" in j["note"],
      f"idx2crd past the end: {rc} {out!r}")
# CuTe's spellings: its printed swizzled layout, and C++ a user pastes (static _n, run-time n).
rc, out, _ = run("show", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")
check(rc == 0 and out.startswith("Sw<3,4,3> o 0 o (8,64):(64,1)  size 512"), f"show cute: {out!r}")
rc, out, _ = run("show", "Layout<Shape<_4,_8>,Stride<_8,_1>>")
check(rc == 0 and out.startswith("(4,8):(8,1)  size 32"), f"show C++: {out!r}")
rc, out, _ = run("coalesce", "make_layout(make_shape(4,8), make_stride(1,4))", "--cute")
# (run-time integers: CuTe does not merge them; the static spelling merges)
check(rc == 0 and out.startswith("(4,8):(1,4)"), f"coalesce C++ (run-time leaves): {out!r}")
rc, out, _ = run("coalesce", "Layout<Shape<_4,_8>,Stride<_1,_4>>", "--cute")
check(rc == 0 and out.startswith("_32:_1"), f"coalesce C++ (static leaves): {out!r}")
rc, out, err = run("show", "make_lyout(make_shape(4,8))")
check(rc != 0 and "'make_lyout' is not a CuTe layout" in err, f"bad C++ spelling: {err!r}")

# One atom without --atom-layout/--tile (CuTe's TiledMMA of an atom), in C++ spellings; atom
# suggestions by prefix.
rc, out, err = run("explain", "--atom", "MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>", "--thread", "3")
check(rc == 0 and "CTA tile 16x8x16" in out and "thread 3 at (v,m,n,k) = (3,0,0,0)" in out,
      f"explain one atom: {rc} {out[:300]!r} {err!r}")
rc, out, _ = run("explain", "--atom", "SM80_16x8x16_F32F16F16F32_TN{}", "--thread", "3")
check(rc == 0 and "atom SM80_16x8x16_F32F16F16F32_TN (16x8x16, 32 threads)" in out,
      f"explain atom{{}}: {out[:200]!r}")
rc, _, err = run("explain", "--atom", "SM80_8x8x4_F64", "--thread", "3")
check(rc != 0 and "close names: SM80_8x8x4_F64F64F64F64_TN," in err, f"atom prefix: {err!r}")
rc, _, err = run("explain", "--thread", "3")
check(rc != 0 and "needs --preset, --atom, or --atom-layout" in err, f"explain no atom: {err!r}")

# show --json: every value; batch knows the verbs' aliases; complement of a negative stride.
rc, out, _ = run("show", "(4,2):(1,4)", "--json")
j = json.loads(out) if rc == 0 else {}
check(j.get("layout") == "(4,2):(1,4)" and j.get("values") == [0, 1, 2, 3, 4, 5, 6, 7]
      and j.get("cosize") == 8, f"show --json: {out!r}")
rc, out, _ = run("batch", stdin='{"id": 1, "op": "compose", "args": ["(4,2):(1,4)", "2:1"]}\n')
check(rc == 0 and '"result":"2:1"' in out.replace(" ", ""), f"batch compose alias: {out!r}")
rc, _, err = run("complement", "(4):(-1)", "8")
check(rc != 0 and "has the negative stride -1" in err and "positive strides" in err,
      f"complement negative stride: {err!r}")

# show --cute / --runtime, as the op verbs: CuTe's print (static _4, run-time 4), and it reads back.
rc, out, _ = run("show", "(4,(2,3)):(2,(8,1))", "--cute")
check(rc == 0 and out.splitlines()[0] == "(_4,(_2,_3)):(_2,(_8,_1))  size 24  cosize 17",
      f"show --cute: {out!r}")
rc, out, _ = run("show", "((_2,_2),4):((_1,8),64)", "--cute")
check(rc == 0 and out.startswith("((_2,_2),4):((_1,8),64)  size 16"), f"show --cute mixed: {out!r}")
rc, out, _ = run("show", "(4,2):(1,4)", "--runtime", "--cute", "--json")
j = json.loads(out) if rc == 0 else {}
check(j.get("layout") == "(4,2):(1,4)" and j.get("shape") == "(4,2)", f"show --runtime: {out!r}")
rc, out, _ = run("show", "(4,2):(1,4)", "--cute", "--json")
j = json.loads(out) if rc == 0 else {}
check(j.get("layout") == "(_4,_2):(_1,_4)" and j.get("values") == list(range(8)),
      f"show --cute --json: {out!r}")
rc, out, _ = run("show", "Sw<3,4,3> o 0 o (8,64):(64,1)", "--cute")
printed = out.split("  size")[0]
check(rc == 0 and printed == "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", f"show --cute swizzled: {out!r}")
rc2, again, _ = run("show", printed, "--json")
rc3, plain, _ = run("show", "Sw<3,4,3> o 0 o (8,64):(64,1)", "--json")
check(rc2 == 0 and rc3 == 0 and json.loads(again)["values"] == json.loads(plain)["values"],
      "show --cute: CuTe's print reads back as the same layout")

# analyze --copy: a TiledCopy's source or destination accesses, the numbers of Python's
# analyze(tiled_copy) and of --tv with the copy's TV layout.
copy = ["--copy", "universal:128", "--thr", "(16,8):(8,1)", "--val", "(4,1)"]
rc, out, err = run("analyze", *copy)
check(rc == 0 and out.startswith("analyze TiledCopy UniversalCopy (thr (16,8):(8,1), val "
                                 "(4,1):(1,4)), source (64,8):(1,64), global memory")
      and "verdict     128-bit loads" in out and "coalesced [great]" in out,
      f"analyze --copy: {out!r} {err!r}")
rc, out, err = run("analyze", *copy, "--side", "D", "--tensor", "(64,8):(8,1)", "--json")
j = json.loads(out) if rc == 0 else {}
check(j.get("config", {}).get("side") == "D"
      and j.get("config", {}).get("layout_tv") == "((8,16),4):((64,4),1)"
      and j.get("analysis", {}).get("access") == "store", f"analyze --copy --json: {out!r}")
rc, tv_out, _ = run("analyze", "--tv", "((8,16),4):((64,4),1)", "--tensor", "(64,8):(8,1)",
                    "--access", "store", "--json")
check(rc == 0 and j and json.loads(tv_out)["analysis"]["global"] == j["analysis"]["global"]
      and json.loads(tv_out)["analysis"]["vector_bits"] == j["analysis"]["vector_bits"] == 32,
      f"analyze --copy is --tv of its TV layout: {tv_out!r}")
rc, out, _ = run("analyze", "--copy", "ldmatrix:x4", "--elem-bits", "16", "--thr", "(32,1)",
                 "--val", "(1,8)", "--space", "shared", "--tensor", "(32,8):(8,1)",
                 "--find-swizzle")
check(rc == 0 and "TiledCopy SM75_U32x4_LDSM_N" in out and "bank conflicts" in out
      and "swizzle     Sw<" in out, f"analyze --copy ldmatrix: {out!r}")
for args, want in [
    (["analyze", "--copy", "universal:128", "--val", "(4,1)"],
     "analyze --copy needs --thr and --val layouts"),
    (["analyze", *copy, "--preset", "step1"],
     "analyze: give --copy, --tv or a TiledMMA (--preset, --atom-layout), one of them"),
    (["analyze", *copy, "--side", "C"], "--side"),
]:
    rc, _, err = run(*args)
    check(rc != 0 and want in err, f"{args}: {err!r}")

# show: big and rank-3 layouts print (capped) tables and say what they leave out.
rc, out, _ = run("show", "(128,128):(128,1)")
check(rc == 0 and "    1 |  128  129" in out
      and "(first 32 of 128 rows and 32 of 128 columns; --json prints every value)" in out,
      f"show big: {out[-300:]!r}")
rc, out, _ = run("show", "(2,2,2):(1,2,4)")
check(rc == 0 and "(:,:,0)" in out and "(:,:,1)" in out and " 1 | 5 7" in out,
      f"show rank 3: {out!r}")
rc, out, _ = run("show", "4096:1")
check(rc == 0 and "4096 values in rows of 16" in out and "16 |  16  17" in out
      and "first 32 of 256 rows" in out,
      f"show 4096:1: {out[:300]!r}")
# analyze: 32 lanes reading 32 consecutive floats per load are coalesced, not "scattered [bad]".
rc, out, _ = run("analyze", "--tv", "(32,4):(1,32)", "--tensor", "128:1")
check(rc == 0 and "32 threads = 1 warp," in out and "1 line (min 1)" in out
      and "verdict     32-bit loads, 1 full line per warp: coalesced, 4x the loads of 128-bit "
      "accesses [ok]" in out,
      f"analyze coalesced narrow loads: {out!r}")
# --preset fixes the configuration: other TiledMMA flags beside it are rejected, not ignored.
for verb in (["explain"], ["analyze"], ["codegen"], ["render", "-o", "/dev/null"]):
    rc, out, err = run(*verb, "--preset", "step1", "--tile", "64", "64", "8", "--atom",
                       "UniversalFMA")
    check(rc == 1 and f"{verb[0]}: --preset step1 fixes the atom, atom layout, permutation and tile"
          in err
          and "(given: --atom, --tile)" in err, f"{verb[0]} --preset with --tile: {rc} {err!r}")

# Notation: swizzled layouts, bare shapes.
sw = "Sw<3,4,3> o 0 o (8,64):(64,1)"
rc, out, _ = run("show", sw)
check(rc == 0 and out.startswith(sw + "  size 512") and " 2 | 144 145" in out,
      f"show swizzled: {out[:300]!r}")
rc, out, _ = run("compose", sw, "(4,8)", "--json")
j = json.loads(out)
check(rc == 0 and j["result"] == "Sw<3,4,3> o 0 o (4,8):(64,1)"
      and j["image"][:5] == [0, 64, 144, 208, 1],
      f"compose swizzled: {out[:200]!r}")
# A swizzled B: composed where the swizzle passes through A (L o (Sw o 0 o L') = Sw' o 0 o (L o
# L')),
# rejected by that rule, not by the parser, where it does not.
rc, out, err = run("compose", "(4,4):(4,1)", "Sw<1,0,2> o 0 o (4,4):(1,4)")
check(rc == 0 and out.startswith("Sw<1,0,-2> o 0 o (4,4):(4,1)") and " 0 |  0  5  2  7" in out,
      f"swizzled B: {rc} {out!r}")
rc, out, err = run("compose", "(8,64):(64,1)", sw)
check(rc == 1 and "composition: the swizzle of " + sw + " does not pass through its layout" in err
      and "parse" not in err,
      f"swizzled B rejected: {rc} {err!r}")
rc, out, err = run("complement", sw)
check(rc == 1 and "complement: the layout " + sw + " is a swizzled layout" in err
      and "parse" not in err,
      f"complement of a swizzled layout: {rc} {err!r}")
rc, out, err = run("swizzle", "3", "4", "3")
check(rc == 0 and out.startswith("Sw<3,4,3>\n") and "units of 16 elements" in out
      and " 1 |  9  8 11 10 13 12 15 14" in out
      and " 7 | 63 62 61 60 59 58 57 56" in out, f"swizzle table: {out!r}")
import tempfile
with tempfile.TemporaryDirectory() as d:
    for text in (sw, "(4,3)"):
        page = os.path.join(d, "p.html")
        rc, _, err = run("render", "--layout", text, "-o", page)
        check(rc == 0 and os.path.exists(page) and text in open(page).read(),
              f"render --layout {text}: {rc} {err!r}")
rc, out, _ = run("size", "4")
check(rc == 0 and out.strip() == "4", f"size of a bare shape: {rc} {out!r}")
rc, out, _ = run("show", "(4,3)")
check(rc == 0 and out.startswith("(4,3):(1,4)  size 12") and " 3 |  3  7 11" in out,
      f"show a bare shape: {out!r}")
rc, out, _ = run("blocked_product", "(2,2):(1,2)", "(2,3)")
check(rc == 0 and out.startswith("((2,2),(2,3)):((1,4),(2,8))"),
      f"blocked_product with a shape: {rc} {out!r}")
rc, out, _ = run("raked_product", "(2,2):(1,2)", "(2,3)")
_, same, _ = run("raked_product", "(2,2):(1,2)", "(2,3):(1,2)")
check(rc == 0 and out == same and out.startswith("((2,2),(3,2)):((4,1),(8,2))"),
      f"raked_product with a shape: {rc} {out!r}")

# Messages.
rc, out, err = run("compsoe", "(4,3):(1,8)", "6:2")
check(rc == 1 and "tessera: unknown verb 'compsoe'; did you mean 'compose'?" in err,
      f"unknown verb: {rc} {err!r}")
rc, out, err = run("logical_divid", "8:1", "2")
check(rc == 1 and "did you mean 'logical_divide'?" in err, f"unknown verb 2: {rc} {err!r}")
rc, out, _ = run("--version")
check(rc == 0 and out.startswith("tessera ") and any(c.isdigit() for c in out),
      f"--version: {rc} {out!r}")
rc, out, _ = run("help")
check(rc == 0 and "Usage:" in out and "composition" in out and "ops" in out,
      f"help: {rc} {out[:200]!r}")
rc, out, _ = run("help", "compose")
check(rc == 0 and "A o B" in out and "bare shape" in out, f"help compose: {rc} {out[:200]!r}")
rc, out, _ = run("--help")
check(rc == 0 and out.count("Layouts in CuTe notation") == 1,
      f"--help repeats the notation: {out.count('Layouts in CuTe notation')}")
rc, out, _ = run("ops")
check(rc == 0 and "logical_divide" in out
      and "SM80_16x8x16_F32F16F16F32_TN     16x8x16, 32 threads" in out
      and "UniversalFMA                     1x1x1, 1 thread\n" in out and "ldmatrix" in out,
      f"ops: {out!r}")
rc, out, err = run("swizzle", "a", "b", "c")
check(rc == 1 and "swizzle: B must be an integer, got \"a\"" in err and "stoi" not in err,
      f"swizzle a b c: {rc} {err!r}")
rc, out, err = run("swizzle", "1", "2", "0")
check(rc == 1 and "Sw<1,2,0> needs B >= 0, M >= 0 and |S| >= B" in err,
      f"swizzle |S| < B: {rc} {err!r}")
rc, out, err = run("left_inverse", "(2,2):(2,5)")
check(rc == 1 and err.startswith("tessera: left_inverse: divisibility fails: stride 5 of "
                                 "(2,2):(2,5)") and "complement:" not in err,
      f"left_inverse: {rc} {err!r}")
rc, out, err = run("compose", "(4,4):(1,5)", "3:6", "--json")
check(rc == 1 and err == ""
      and json.loads(out)["error"].startswith("composition: stride divisibility fails"),
      f"--json error: {rc} {out!r} {err!r}")
rc, out, err = run("size", "(4,2", "--json")
check(rc == 1 and "position 4" in json.loads(out)["error"], f"--json parse error: {rc} {out!r}")
rc, out, err = run("compsoe", "--json")
check(rc == 1 and "did you mean 'compose'" in json.loads(out)["error"],
      f"--json unknown verb: {rc} {out!r}")
rc, out, err = run("explain", "--preset", "step9", "--json")
check(rc == 1 and "unknown preset" in json.loads(out)["error"],
      f"--json explain error: {rc} {out!r}")
rc, out, _ = run("analyze", "--preset", "step1")
check(rc == 0 and "8 warps" in out and "1 warps" not in out, f"analyze plural: {out!r}")
# No seed numbers in what a user reads.
for args in (["--help"], ["demo"], ["explain", "--preset", "step1", "--operand", "C"],
             ["analyze", "--sweep-r"],
             ["explain", "--help"], ["analyze", "--help"], ["ops"],
             ["codegen", "--preset", "step1"]):
    rc, out, err = run(*args)
    check(rc == 0 and "seed" not in (out + err).lower(),
          f"'seed' in the output of {' '.join(args)}")
rc, out, _ = run("analyze", "--sweep-r")
check(out.startswith("The permutation table:"), f"sweep title: {out[:80]!r}")

# batch: readable errors for bad cases, notes for non-dividing tilers.
rc, out, _ = run("batch", stdin='{"id":1,"opp":"size","args":["4:1"]}\n[1,2]\n'
                                '{"id":3,"op":"swizzle","args":["a",1,1]}\n'
                                '{"id":4,"op":"logical_divide","args":["(4,6):(1,4)","(3,4)"]}\n'
                                '{"id":5,"atom":"UniversalFMA"}\n{"id":6,\n')
lines = [json.loads(l) for l in out.splitlines()]
check(rc == 0 and len(lines) == 6, f"batch bad lines: {out!r}")
if len(lines) == 6:
    check(lines[0]["id"] == 1
          and 'a case needs "op" (a string) and "args" (a list)' in lines[0]["error"],
          f"batch key: {lines[0]}")
    check(lines[1] == {"id": None, "error": "a case is a JSON object, got [1,2]"},
          f"batch array: {lines[1]}")
    check(lines[2]["error"] == 'swizzle: B must be an integer, got "a"',
          f"batch swizzle: {lines[2]}")
    check(lines[3]["result"] == "((3,2),(4,2)):((1,3),(4,16))"
          and "does not divide" in lines[3]["note"], f"batch note: {lines[3]}")
    check(lines[4]["error"] == "malformed case: key 'tile_mnk' not found (see docs/batch.md)",
          f"batch atom: {lines[4]}")
    check(lines[5]["error"].startswith("not a JSON object: parse error")
          and "json.exception" not in lines[5]["error"],
          f"batch parse: {lines[5]}")
    check(all("json.exception" not in l.get("error", "") for l in lines),
          f"nlohmann text in batch errors: {lines}")

# atoms: the catalog of CuTe's atoms; render, explain, analyze and batch take any of them by name.
rc, out, _ = run("atoms", "--json")
j = json.loads(out) if rc == 0 else {"mma": [], "copy": []}
mma = {a["name"]: a for a in j["mma"]}
copy = {a["name"]: a for a in j["copy"]}
check(rc == 0 and len(mma) > 1300 and len(copy) >= 30, f"atoms --json: {rc} {len(mma)} {len(copy)}")
f64 = mma.get("SM80_8x8x4_F64F64F64F64_TN", {})
check(f64.get("mnk") == [8, 8, 4] and f64.get("types") == "f64 f64 f64 f64"
      and f64.get("threads") == 32
      and f64.get("c") == "((4,8),2):((16,1),8)" and f64.get("runs_on_sm90") is True,
      f"atoms f64: {f64}")
g = mma.get("SM90_64x200x16_F32BF16BF16_RS", {})
check(g.get("c") == "((4,8,4),(2,2,25)):((128,1,16),(64,8,512))"
      and g.get("cute_extended_shape") is True
      and g.get("smem_major") == "K or MN", f"atoms wgmma: {g}")
check(mma.get("SM100_MMA_F16BF16_SS_128x256x16", {}).get("runs_on_sm90") is False,
      "atoms: SM100 marked not runnable")
check(all(a["arch"] in ("sm100", "sm120") for a in j["mma"] if not a["runs_on_sm90"]),
      "atoms: only SM100/SM120 do not run")
ld = copy.get("SM75_U16x8_LDSM_T", {})
check(ld.get("bits_per_thread") == 128 and ld.get("dst") == "((4,8),(1,2,4)):((16,1),(1,8,64))",
      f"atoms ldmatrix: {ld}")
check(copy.get("SM90_TMA_LOAD", {}).get("bits_per_thread") == "box", "atoms: TMA moves a box")
rc, out, _ = run("atoms", "--arch", "sm80", "--kind", "mma")
rows = [l for l in out.splitlines() if l.startswith("  SM")]
check(rc == 0 and len(rows) == 65 and all(" sm80 " in l for l in rows),
      f"atoms --arch sm80: {len(rows)} rows")
check("SM80_8x8x4_F64F64F64F64_TN" in out and "mma.sync.m8n8k4" in out and "8x8x4" in out,
      f"atoms sm80 text: {out[:400]!r}")
rc, out, _ = run("atoms", "--arch", "SM_89")
check(rc == 0 and out.count("SM89_16x8x32_") == 8, f"atoms --arch SM_89: {out[:300]!r}")
rc, out, _ = run("atoms", "--grep", "stsm", "--kind", "copy")
check(rc == 0 and out.count("_STSM_") == 6 and "stmatrix.x4.trans" in out, f"atoms --grep: {out!r}")
rc, _, err = run("atoms", "--arch", "sm72")
check(rc == 1 and "--arch sm72 has no atoms" in err and "sm80" in err,
      f"atoms bad arch: {rc} {err!r}")
rc, out, _ = run("atoms", "--arch", "sm72", "--json")
check(rc == 1 and "has no atoms" in json.loads(out)["error"], f"atoms bad arch json: {out!r}")

rc, out, _ = run("explain", "--atom", "SM80_8x8x4_F64F64F64F64_TN", "--atom-layout", "(2,2,1)",
                 "--tile", "16", "16", "4",
                 "--thread", "5", "--operand", "C", "--json")
jc = json.loads(out)["operands"]["C"] if rc == 0 else {}
# Lane 5 of the m8n8k4 f64 atom holds C rows 1 and columns 2, 3 ((4,8),2):((16,1),8): index 1 + 16 =
# 17 -> (1, 2).
check(rc == 0 and jc.get("coords", [None])[0] == [1, 2] and len(jc["coords"]) == 2,
      f"explain f64: {out[:300]!r}")
rc, out, _ = run("explain", "--atom",
                 "SM90::GMMA::MMA_64x128x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::MN>",
                 "--atom-layout", "(1,1,1)", "--tile", "64", "128", "16", "--operand", "C")
check(rc == 0 and "atom SM90_64x128x16_F16F16F16_SS (64x128x16, 128 threads)" in out,
      f"explain gmma spelling: {out[:300]!r}")
rc, _, err = run("explain", "--atom", "SM80_8x8x4_F64F64F64_TN", "--atom-layout", "(1,1,1)",
                 "--tile", "8", "8", "4")
check(rc == 1 and "unknown MMA atom 'SM80_8x8x4_F64F64F64_TN'; close names: "
      "SM80_8x8x4_F64F64F64F64_TN" in err
      and "tessera atoms lists all" in err, f"unknown atom: {err!r}")
rc, out, _ = run("analyze", "--atom", "SM80_16x8x32_S32S8S8S32_TN", "--atom-layout", "(2,2,1)",
                 "--tile", "32", "16", "32",
                 "--operand", "A", "--json")
check(rc == 0 and json.loads(out)["analysis"]["elem_bits"] == 8,
      f"analyze s8 A bits: {out[:300]!r}")
rc, out, _ = run("analyze", "--atom", "SM80_8x8x4_F64F64F64F64_TN", "--atom-layout", "(2,2,1)",
                 "--tile", "16", "16", "4",
                 "--json")
check(rc == 0 and json.loads(out)["analysis"]["elem_bits"] == 64,
      f"analyze f64 C bits: {out[:300]!r}")
import tempfile
with tempfile.TemporaryDirectory() as d:
    rc, _, err = run("render", "--atom", "SM89_16x8x32_F32E4M3E4M3F32_TN", "--atom-layout",
                     "(1,1,1)",
                     "--tile", "16", "8", "32", "-o", f"{d}/fp8.html")
    check(rc == 0 and os.path.getsize(f"{d}/fp8.html") > 1000, f"render fp8 atom: {rc} {err!r}")
    rc, _, err = run("render", "--atom", "SM100_MMA_F16BF16_SS_64x64x16", "--atom-layout",
                     "(1,1,1)",
                     "--tile", "64", "64", "16", "-o", f"{d}/umma.html")
    check(rc == 0, f"render SM100 picture: {rc} {err!r}")
    rc, _, err = run("render", "--copy", "SM90_U16x8_STSM_T", "--dtype", "half", "--thr", "(32,1)",
                     "--val", "(1,8)",
                     "-o", f"{d}/stsm.html")
    check(rc == 0, f"render stmatrix: {rc} {err!r}")
    rc, _, err = run("render", "--copy", "SM75_U16x8_LDSM_T", "--dtype", "float", "--thr", "(32,1)",
                     "--val", "(1,8)",
                     "-o", f"{d}/bad.html")
    check(rc == 1 and "32-bit elements; it moves elements of 16 to 16 bits" in err,
          f"render ldsm float: {err!r}")
    rc, _, err = run("render", "--copy", "SM75_U16x8_LDSM", "--thr", "(32,1)", "--val", "(1,8)",
                     "-o", f"{d}/bad.html")
    check(rc == 1 and "unknown copy atom 'SM75_U16x8_LDSM'; close names: SM75_U16x8_LDSM_T" in err,
          f"render unknown copy: {err!r}")
rc, out, _ = run("batch", stdin=json.dumps({"id": "f64", "atom": "SM80_8x8x4_F64F64F64F64_TN",
                                            "atom_layout": "(2,2,1)", "tile_mnk": [16, 16, 4]})
                                            + "\n")
b = json.loads(out.splitlines()[0]) if rc == 0 and out else {}
# (presets and TiledMMA cases partition run-time tensors: size-1 rest modes keep their strides, as
# in CuTe)
check(b.get("C", {}).get("thread0_fragment") == "(2,1,1):(1,256,16)"
      and len(b["C"]["coords"]) == 128,
      f"batch f64 TiledMMA: {out[:300]!r}")
rc, out, _ = run("ops")
check(rc == 0 and "tessera atoms lists all" in out, f"ops mentions atoms: {out[-400:]!r}")
# Static and run-time integers: --runtime reads bare integers as run-time, --cute prints CuTe's
# form.
rc, out, _ = run("coalesce", "(2,4):(1,2)", "--cute")
check(rc == 0 and out.startswith("_8:_1\n"), f"coalesce --cute: {out!r}")
rc, out, _ = run("coalesce", "(2,4):(1,2)", "--runtime", "--cute")
check(rc == 0 and out.startswith("(2,4):(1,2)\n"), f"coalesce --runtime --cute: {out!r}")
rc, out, _ = run("coalesce", "(_2,_4,8):(_1,_2,8)", "--cute")
check(rc == 0 and out.startswith("(_8,8):(_1,8)\n"), f"coalesce in CuTe's form: {out!r}")
rc, out, _ = run("explain", "--preset", "step4", "--operand", "C")
check(rc == 0 and "fragment ((2,2),4,(2,4)):((1,1024),4096,(16,32))" in out,
      f"explain step4 C: {out!r}")

# trace: thread 0 of CTA (0,0) of the step 1 kernel on M=256, N=128, K=32, every number.
STEP1 = ["trace", "--preset", "step1", "--problem", "256", "128", "32",
         "--layout-A", "(256,32):(1,256)", "--layout-B", "(128,32):(1,128)",
         "--layout-C", "(256,128):(128,1)", "--cta", "0", "0", "--thread", "0"]
rc, out, err = run(*STEP1)
for s in ["grid 2 x 1 CTAs", "gA = local_tile(mA (256,32):(1,256), (128,128,8), proj (1,X,1)) = "
          "(128,8,4):(1,256,2048)", "= (128,8,4):(1,128,1024)", "= (128,128):(128,1)",
          "tCgA = partition_A(gA(_,_,0)) = (1,(4,2),8):(0,(1,64),256)",
          "tCgB = partition_B(gB(_,_,0)) = (1,(4,2),8):(0,(1,64),128)",
          "tCgC = partition_C(gC) = (1,(4,2),(4,2)):(0,(128,8192),(1,64))",
          "tCrA shape (1,(4,2),8) (64 registers); tCrA(_,_,0) shape (1,(4,2)) = 8 values: "
          "m in {0,1,2,3,64,65,66,67}, k in {0}",
          "tCrC shape (1,(4,2),(4,2)) (64 registers)",
          "4 k_tiles (ceil(K/BK)) x 8 k_blocks", "per k_block 64 FMAs", "per k_tile 512",
          "in all 2048", "A 64 elements in 16 loads of 128 bits",
          "B 64 elements in 16 loads of 128 bits", "64 elements in 16 stores of 128 bits",
          "| CTAs                     | 2 ", "| threads per CTA          | 256",
          "| FMAs in all              | 2048", "| accumulator registers    | 64 x 32b"]:
    check(rc == 0 and s in out, f"trace step1: {s!r} not in {out!r} {err!r}")
rc, out, _ = run(*STEP1, "--json")
j = json.loads(out) if rc == 0 else {}
check(j.get("grid") == [2, 1] and j["k_loop"]["total"] == 2048
      and j["partitions"]["C"]["layout"] == "(1,(4,2),(4,2)):(0,(128,8192),(1,64))",
      f"trace --json: {out[:300]!r}")
# A ragged CTA: M = 200 leaves 72 rows for CTA (1,0); the predicates say which elements are out.
rc, out, _ = run("trace", "--preset", "step1", "--problem", "200", "128", "30", "--cta", "1", "0",
                 "--thread", "255", "--json")
j = json.loads(out) if rc == 0 else {}
check(rc == 0 and j["predicates"]["C"]["residue"] == [72, 128]
      and j["predicates"]["C"]["ragged"] and len(j["predicates"]["C"]["masked"]) == 32
      and j["predicates"]["A"]["residue"] == [72, 6], f"trace ragged: {out[:400]!r}")
rc, out, _ = run("trace", "--preset", "step1", "--problem", "200", "128", "30", "--cta", "1", "0",
                 "--thread", "255")
# Thread 255 holds rows {60..63, 124..127} of the CTA's 72 valid ones, and k 6, 7 of the last
# k_tile lie past K = 30.
check(rc == 0 and "predicates: tCpX(i) = elem_less(tCcX(i), residue)" in out
      and "tCpA at k_tile 3: residue [72,6]; tCcA holds m in {60,61,62,63,124,125,126,127} x k "
      "in {0..7}" in out and "masked: 40 of 64" in out and "masked per k_tile [32,32,32,40]" in out
      and "tCpB at k_tile 3: residue [128,6]" in out
      and "masked: 16 of 64 (fragment indices {48..63}); masked per k_tile [0,0,0,16]" in out
      and "tCpC: residue [72,128]" in out and "masked: 32 of 64" in out,
      f"trace ragged text: {out!r}")
# explain on a problem: the CTA's tiles of the problem, on its strides.
rc, out, _ = run("explain", "--preset", "step1", "--problem", "256", "128", "32", "--cta", "1", "0",
                 "--operand", "C")
check(rc == 0 and "CTA (1,0): the tensors are its tiles at k_tile 0, at offsets C 16384 A 128 B 0"
      in out and "offset 0, fragment (1,(4,2),(4,2)):(0,(128,8192),(1,64))" in out,
      f"explain --problem: {out!r}")
rc, _, err = run("explain", "--preset", "step1", "--problem", "256", "128", "32", "--cta", "0", "1")
check(rc == 1 and "CTA (0,1) is outside the grid 2 x 1" in err, f"explain --cta: {err!r}")
# Bad input: the rule in the message, exit status 1.
rc, _, err = run("trace", "--preset", "step1", "--problem", "256", "128", "32", "--cta", "2", "0")
check(rc == 1 and "CTA (2,0) is outside the grid 2 x 1" in err, f"trace cta: {err!r}")
rc, _, err = run("trace", "--preset", "step1", "--problem", "256", "128", "32", "--thread", "256")
check(rc == 1 and "thread 256 is outside the TiledMMA's threads [0, 256)" in err,
      f"trace thread: {err!r}")
rc, _, err = run("trace", "--preset", "step1", "--problem", "256", "128", "32",
                 "--layout-A", "(128,32):(1,128)")
check(rc == 1 and "the layout of A (128,32):(1,128) does not match the problem" in err,
      f"trace layout: {err!r}")
rc, _, err = run("trace", "--preset", "step1", "--problem", "256", "128", "32", "--layout-A", "N")
check(rc == 1 and "the major letter of A is M or K, not N" in err, f"trace letter: {err!r}")
rc, out, _ = run("trace", "--preset", "step4", "--problem", "256", "256", "64", "--layout-A", "K",
                 "--layout-B", "K", "--json")
j = json.loads(out) if rc == 0 else {}
check(rc == 0 and j["k_loop"]["unit"] == "MMA instruction" and j["k_loop"]["k_tiles"] == 2,
      f"trace step4: {out[:300]!r}")

# The copies of A and B into shared memory.
rc, out, err = run(*STEP1[:-2], "--thread", "33", "--copy-A", "cp_async:16", "(32,8):(1,32)",
                   "(4,1)", "--copy-B", "cp_async:16", "(32,8):(1,32)", "(4,1)", "--smem-B",
                   "(128,8):(1,132)")
check(rc == 0 and "tAgA = partition_S(gA(_,_,0)) = ((4,1),1,1):((1,0),0,0) at offset 260" in out
      and "tBsB = partition_D(sB (128,8):(1,132)) = ((4,1),1,1):((1,0),0,0) at offset 136" in out
      and "4 elements in 1 global load of 128 bits, 1 shared store of 128 bits" in out,
      f"trace copies: {out!r} {err!r}")
rc, _, err = run(*STEP1, "--copy-A", "cp_async:16", "(32,4):(1,32)", "(4,1)")
check(rc == 1 and "the copy of A has 128 threads; the TiledMMA has 256" in err,
      f"trace copy threads: {err!r}")

# local_tile in CuTe's spelling.
rc, out, _ = run("local_tile", "(256,32):(1,256)", "(128,128,8)", "(0,0,_)", "--proj", "(1,X,1)")
check(rc == 0 and out.splitlines()[0] == "(128,8,4):(1,256,2048)", f"local_tile A: {out!r}")
rc, out, _ = run("local_tile", "(256,128):(128,1)", "(128,128,8)", "(1,0,_)", "--proj",
                 "(1,1,X)", "--json")
check(rc == 0 and json.loads(out) == {"result": "(128,128):(128,1)", "offset": 16384},
      f"local_tile C: {out!r}")
rc, _, err = run("local_tile", "(256,32):(1,256)", "(128,128,8)", "(0,0,_)")
check(rc == 1 and "give a projection (--proj)" in err, f"local_tile no proj: {err!r}")

# The problem options on render, analyze and codegen (one parser with trace and explain).
rc, out, _ = run("analyze", "--preset", "step1", "--operand", "A", "--problem", "256", "128",
                 "32", "--cta", "1", "0", "--json")
j = json.loads(out) if rc == 0 else {}
check(rc == 0 and j["config"]["tensor"] == "(128,8):(1,256)" and j["config"]["offset"] == 128
      and j["analysis"]["vector_bits"] == 128 and j["analysis"]["instructions_per_thread"] == 16,
      f"analyze --problem: {out[:400]!r}")
# M = 257: A's columns start at odd offsets, so no vector load (the problem's stride counts).
rc, out, _ = run("analyze", "--preset", "step1", "--operand", "A", "--problem", "257", "128",
                 "32", "--json")
j = json.loads(out) if rc == 0 else {}
check(rc == 0 and j["config"]["tensor"] == "(128,8):(1,257)" and j["analysis"]["vector_bits"] == 32
      and j["analysis"]["instructions_per_thread"] == 64, f"analyze --problem 257: {out[:400]!r}")
rc, out, _ = run("codegen", "--preset", "step1", "--problem", "256", "128", "32", "--layout-C",
                 "M", "--cta", "1", "0")
check(rc == 0 and "fragment of (128,128):(1,256)  offset(t) + "
      "(1,(4,2),(4,2)):(0,(1,64),(256,16384))" in out and "--problem 256 128 32" in out,
      f"codegen --problem: {out[:900]!r}")
rc, out, err = run("render", "--preset", "step1", "--problem", "200", "128", "30", "--cta", "1",
                   "0", "--thread", "5", "-o", "/dev/stdout")
m = re.search(r'id="tessera-data"[^>]*>(.*?)</script>', out, re.S)
d = json.loads(m.group(1)) if rc == 0 and m else {}
check(d.get("kind") == "trace" and d["cta"] == [1, 0] and d["thread"] == 5
      and d["k_loop"]["k_tiles"] == 4 and d["predicates"]["A"]["residue"] == [72, 6]
      and len(d["elements"]["A"]) == 4 and len(d["elements"]["A"][3]) == 64,
      f"render --problem: the trace page's data {str(d)[:300]!r} {err!r}")
masked = d["predicates"]["A"]["masked_per_k_tile"][3] if d else 0
check(d and sum(not e[2] for e in d["elements"]["A"][3]) == masked and masked > 0,
      "render --problem: the masked elements of A at the last k_tile are the trace's")
for args, want in [
    (["render", "--preset", "step1", "--cta", "1", "0", "-o", "/dev/null"],
     "render: --cta needs --problem M N K"),
    (["render", "--preset", "step1", "--problem", "256", "128", "32", "--swizzle", "Sw<3,3,3>",
      "-o", "/dev/null"], "render --problem draws the thread trace"),
    (["render", "--preset", "step1", "--problem", "256", "128", "32", "--thread", "256", "-o",
      "/dev/null"], "thread 256 is outside the TiledMMA's threads [0, 256)"),
    (["analyze", "--preset", "step1", "--problem", "256", "128", "32", "--cta", "0", "1"],
     "analyze: CTA (0,1) is outside the grid 2 x 1"),
    (["analyze", "--tv", "(32,4):(4,1)", "--tensor", "(32,4):(1,32)", "--problem", "1", "1", "1"],
     "analyze: --problem needs a TiledMMA"),
    (["codegen", "--preset", "step1", "--problem", "256", "128", "32", "--layout-B",
      "(128,32):(1,256)", "--cta", "0", "0"], None),
    (["codegen", "--preset", "step1", "--problem", "256", "128", "32", "--layout-B",
      "(64,32):(1,64)"],
     "codegen: the layout of B (64,32):(1,64) does not match the problem"),
    (["codegen", "--preset", "step1", "--problem", "256", "128", "32", "--cta", "3", "0"],
     "codegen: CTA (3,0) is outside the grid 2 x 1"),
]:
    rc, out, err = run(*args)
    if want is None:
        check(rc == 0, f"{args}: {err!r}")
    else:
        check(rc == 1 and want in err, f"{args}: {err!r}")

# --cute and --runtime on every verb that prints a layout: explain, trace and local_tile as show
# and the op verbs. --cute is CuTe's print (static _4, run-time 4): the same layouts once the
# marks are dropped; --runtime makes the typed layouts' bare integers run-time.
def unmarked(text):
    return re.sub(r"(?<![\w])_(\d)", r"\1", text)


LT = ["local_tile", "(256,32):(1,256)", "(128,128,8)", "(0,0,_)", "--proj", "(1,X,1)"]
rc, out, _ = run(*LT, "--cute")
check(rc == 0 and out.splitlines()[0] == "(_128,_8,_4):(_1,_256,_2048)",
      f"local_tile --cute: {out!r}")
rc, out, _ = run(*LT, "--cute", "--runtime")
check(rc == 0 and out.splitlines()[0] == "(128,8,4):(1,256,2048)",
      f"local_tile --cute --runtime: {out!r}")
rc, out, _ = run("local_tile", "(256,32):(_1,256)", "(_128,128,_8)", "(0,0,_)", "--proj", "(1,X,1)",
                 "--cute", "--json")
check(rc == 0 and json.loads(out)["result"] == "(_128,_8,4):(_1,256,2048)",
      f"local_tile --cute mixed: {out!r}")
rc2, again, _ = run("show", json.loads(out)["result"] if rc == 0 else "1", "--json")
rc3, plain, _ = run("show", "(128,8,4):(1,256,2048)", "--json")
check(rc2 == 0 and json.loads(again)["values"] == json.loads(plain)["values"],
      "local_tile --cute: CuTe's print reads back as the same layout")

EXPLAIN = ["explain", "--atom", "SM80_16x8x16_F32F16F16F32_TN", "--atom-layout", "(2,2,1)",
           "--thread", "5", "--json"]
rc, plain, _ = run(*EXPLAIN)
rc2, cute, _ = run(*EXPLAIN, "--cute")
rc3, rt, _ = run(*EXPLAIN, "--cute", "--runtime")
if rc == rc2 == rc3 == 0:
    p, c, r = json.loads(plain), json.loads(cute), json.loads(rt)
    check(c != p and json.loads(unmarked(cute)) == p, f"explain --cute: {cute!r} vs {plain!r}")
    # The atom layout (2,2,1) is static (CuTe's Int<2>) unless --runtime; the atom's 32 threads
    # and the tensors' run-time extents stay as they are.
    check(c["config"]["thr_layout_vmnk"] == "(_32,_2,_2,_1):(_1,_32,_64,_128)"
          and c["operands"]["C"]["fragment"] == "((_2,_2),1,1):((1,128),512,16)",
          f"explain --cute static: {c['config']!r}")
    check(r["config"]["thr_layout_vmnk"] == "(_32,2,2,1):(_1,_32,64,128)",
          f"explain --runtime: {r['config']!r}")
else:
    check(False, f"explain --cute/--runtime: {rc} {rc2} {rc3}")
rc, out, _ = run(*EXPLAIN[:-1], "--cute")
check(rc == 0 and "thread layout (V,M,N,K) (_32,_2,_2,_1):(_1,_32,_64,_128)" in out
      and "fragment ((_2,_2),1,1):((1,128),512,16)" in out, f"explain --cute text: {out!r}")

TRACE = ["trace", "--preset", "step1", "--problem", "256", "128", "32", "--thread", "17", "--json"]
rc, plain, _ = run(*TRACE)
rc2, cute, _ = run(*TRACE, "--cute")
check(rc == rc2 == 0 and cute != plain and json.loads(unmarked(cute)) == json.loads(plain),
      f"trace --cute: {cute[:300]!r}")
rc, out, _ = run(*TRACE[:-1], "--cute")
check(rc == 0 and json.loads(cute)["partitions"]["A"]["layout"] in out,
      f"trace --cute text: {out!r}")
TRACE_RT = ["trace", "--atom", "SM80_16x8x16_F32F16F16F32_TN", "--atom-layout", "(2,2,1)",
            "--problem", "64", "64", "32", "--thread", "37", "--json", "--cute"]
rc, out, err = run(*TRACE_RT)
rc2, rt, _ = run(*TRACE_RT, "--runtime")
check(rc == rc2 == 0 and json.loads(out)["config"]["thr_layout_vmnk"] ==
      "(_32,_2,_2,_1):(_1,_32,_64,_128)" and json.loads(rt)["config"]["thr_layout_vmnk"] ==
      "(_32,2,2,1):(_1,_32,64,128)", f"trace --runtime: {out[:200]!r} {rt[:200]!r} {err!r}")

# Counts of 1 read "1 thread", "1 element", "1 sector": no "1 <plural>" in any verb's output.
ONE = re.compile(r"(?<![\w.,:(-])1 ((?:global |shared |bank )?[A-Za-z_]+s)\b")
NOT_PLURAL = {"is", "has", "was", "does", "as"}
for args in (["explain", "--atom", "UniversalFMA"],
             ["analyze", "--atom", "UniversalFMA", "--atom-layout", "(1,1,1)", "--tile", "1", "1",
              "1"],
             ["analyze", "--atom", "UniversalFMA", "--atom-layout", "(1,1,1)", "--tile", "1", "1",
              "1", "--space", "shared"],
             ["codegen", "--atom", "UniversalFMA"],
             ["trace", "--atom", "UniversalFMA", "--problem", "1", "1", "1"],
             ["trace", "--preset", "step1", "--problem", "128", "128", "8", "--copy-A",
              "cp_async:4", "(128,2):(1,128)", "(1,4)"],
             ["local_tile", "(1,1):(1,1)", "(1,1)", "(0,0)"],
             ["show", "1:1"]):
    rc, out, err = run(*args)
    bad = [m.group(0) for m in ONE.finditer(out) if m.group(1) not in NOT_PLURAL]
    check(rc == 0 and not bad, f"plural {args}: {bad} {rc} {err!r}")
    check(rc != 0 or args[0] in ("local_tile", "show")
          or re.search(r"\b1 (thread|element|sector|value|k_tile|register|warp)\b", out),
          f"plural {args}: no singular count in {out!r}")

# CuTe's printed swizzle, long and short: the same layout as tessera's notation.
rc, plain, _ = run("show", "Sw<3,4,3> o 0 o (8,64):(64,1)", "--json")
for spelled in ("Sw<3,4,3> o _0 o (8,64):(64,1)", "Sw<3,4,3> o (8,64):(64,1)"):
    rc2, out, err = run("show", spelled, "--json")
    check(rc == rc2 == 0 and json.loads(out)["values"] == json.loads(plain)["values"]
          and json.loads(out)["layout"] == "Sw<3,4,3> o 0 o (8,64):(64,1)",
          f"show {spelled}: {out!r} {err!r}")
rc, out, err = run("composition", "Sw<3,4,3> o (8,64):(64,1)", "(4,8)")
check(rc == 0 and out.splitlines()[0] == "Sw<3,4,3> o 0 o (4,8):(64,1)",
      f"composition of the short form: {out!r} {err!r}")

for f in failures:
    print("FAIL", f)
print(f"cli_verbs: {len(failures)} failures")
sys.exit(1 if failures else 0)
