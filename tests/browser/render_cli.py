#!/usr/bin/env python3
"""`tessera render` without a browser: the page is self-contained, its data is the library's, and
bad input exits 1 with a message.

Usage: render_cli.py TESSERA_EXE [WORK_DIR]
"""
import json
import os
import re
import subprocess
import sys

from page_checks import check, failures, work_dir

exe = os.path.abspath(sys.argv[1])
work = work_dir(2, "tessera-render-")


def run(*args):
    p = subprocess.run([exe, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def page_data(path):
    html = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="tessera-data">(.*?)</script>', html, re.S)
    return html, json.loads(m.group(1).replace("<\\/", "</"))


def self_contained(html):
    """No URL, external script, stylesheet, font or import anywhere in the page (CSS url(), not
    canvas.toDataURL)."""
    return not re.search(
        r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/|<script[^>]+src=|<link\b|@import|\burl\(|@font-face",
                         html, re.I)


# Step 1: C is 128x128 over 256 threads; thread 0 owns rows and columns {0..3, 64..67} (the step 1
# kernel).
path = os.path.join(work, "step1.html")
rc, _, err = run("render", "--preset", "step1", "-o", path, "--compare-perm", "(16,4):(1,16)",
                 "--compare-perm", "(16,8):(8,1)")
check(rc == 0 and "wrote" in err, f"render --preset step1 ({rc}: {err.strip()})")
html, d = page_data(path)
d1 = d
check(self_contained(html),
      "step1: the page is self-contained (no URL, external script, font or stylesheet)")
C = d["operands"][0]
check(d["threads"] == 256 and (C["rows"], C["cols"]) == (128, 128),
      "step1: 128x128 C over 256 threads")
frag0 = C["frags"][C["frag_of"][0]]
rows = {c // 128 for c in frag0}
check(len(frag0) == 64 and rows == {0, 1, 2, 3, 64, 65, 66, 67},
      f"step1: thread 0 owns rows {sorted(rows)}")
check(C["layouts"][0] == "0 + (1,(4,2),(4,2)):(0,(128,8192),(1,64))",
      f"step1: thread 0 fragment {C['layouts'][0]}")
check(C["owner"][66 * 128 + 3] == 0 and C["value"][66 * 128 + 3] == 30
      and C["offset"][66 * 128 + 3] == 8451,
      "step1: C[66][3] is thread 0's value 30 at offset 8451 (the step 1 kernel)")
ex = json.loads(run("explain", "--preset", "step1", "--thread", "37", "--json")[1])
for k, name in enumerate("CAB"):
    g = d["operands"][k]
    coords = [[c // g["cols"], c % g["cols"]] for c in g["frags"][g["frag_of"][37]]]
    check(coords == ex["operands"][name]["coords"],
          f"step1: thread 37's {name} cells equal `explain --json`")
    check([s["layout"] for s in g["steps"]]
          == [s["layout"] for s in ex["operands"][name]["steps"]][:5],
          f"step1: {name}'s explain steps are the library's")
check([c["title"] for c in d["compare"]]
      == ["permutation (16,4):(1,16)", "permutation (16,8):(8,1)"],
      "step1: two alternative permutations")
alt = d["compare"][0]
check({c // 128 for c in alt["frags"][alt["frag_of"][0]]} == {0, 16, 32, 48, 64, 80, 96, 112},
      "step1: under (16,4):(1,16) thread 0 owns rows {0,16,...,112} (the step 1 kernel)")
# A run-time tensor's rest mode of extent 1 keeps its stride, as CuTe prints it.
check(d["compare"][1]["steps"][0]["layout"]
      == "(((16,8),1),((16,8),1)):(((1024,128),16384),((8,1),128))",
      f"step1: (16,8):(8,1) logical_divide {d['compare'][1]['steps'][0]['layout']}")

# A layout page, rank 3 folded as (mode 0, (mode 1, mode 2)); and the tiling example's B copy.
path = os.path.join(work, "layout.html")
rc, _, _ = run("render", "--layout", "(2,3,4):(1,2,6)", "-o", path)
html, d = page_data(path)
check(rc == 0 and (d["rows"], d["cols"]) == (2, 12) and d["values"][1 * 12 + 5] == 11
      and d["coords"][12 + 5] == "(1,2,1)",
      f"layout rank 3 folded to 2x12 ({d['rows']}x{d['cols']}, {d['coords'][17]})")
path = os.path.join(work, "copy.html")
rc, _, err = run("render", "--copy", "cp_async:16", "--thr", "(32,8):(1,32)", "--val", "(4,1)",
                 "-o", path)
html, d = page_data(path)
src = d["operands"][0]
check(rc == 0 and d["tile"] == "(128,8)" and d["layout_tv"] == "(256,4):(4,1)"
      and d["threads"] == 256,
      f"copy: tile {d['tile']}, TV {d['layout_tv']}")
check([src["owner"][r * 8 + 0] for r in range(8)] == [0, 0, 0, 0, 1, 1, 1, 1],
      "copy: thread t copies elements 4t..4t+3")

# The memory-access overlay: the library's analysis (the same numbers as `tessera analyze`), the
# sector and bank of every cell, and per-instruction numbers that add up to the totals.
want = json.loads(run("analyze", "--preset", "step1", "--json")[1])["analysis"]
acc = d1["operands"][0]["access"]
G, S = acc["global"], acc["shared"]
check((G["vector_bits"], G["sectors"], G["lines"], G["verdict"]) ==
      (want["vector_bits"], want["global"]["sectors_per_instruction"],
       want["global"]["lines_per_instruction"],
       want["verdict"]), f"step1 C overlay: {G['vector_bits']}-bit, {G['sectors']} sectors: "
       f"{G['verdict']}")
check(G["sector"][66 * 128 + 3] == 8451 * 4 // 32 and S["bank"][66 * 128 + 3] == 8451 % 32,
      "step1 C overlay: C[66][3] (offset 8451) is in sector 1056 and bank 3")
check(sum(p[0] for w in G["per"] for p in w) == G["sectors"] * G["requests"] and
      sum(p[0] for w in S["per"] for p in w) == S["wavefronts"],
      "step1 C overlay: per-instruction numbers add up")
path = os.path.join(work, "step4_shared.html")
rc, _, _ = run("render", "--preset", "step4", "--space", "shared", "--swizzle", "Sw<2,3,3>",
               "--overlay", "bank",
               "-o", path)
html, d = page_data(path)
want = json.loads(run("analyze", "--preset", "step4", "--operand", "A", "--space", "shared",
                      "--swizzle", "Sw<2,3,3>",
                      "--json")[1])["analysis"]
A = d["operands"][1]["access"]
check(rc == 0 and d["initial_overlay"] == "bank" and A["space"] == "shared"
      and A["swizzle"] == "Sw<2,3,3>" and
      A["shared"]["conflicts"] == want["shared"]["bank_conflicts"]
      and A["shared"]["verdict"] == want["verdict"],
      f"step4 A overlay, Sw<2,3,3>: {A['shared']['conflicts']} conflicts: {A['shared']['verdict']}")

# wgmma's shared-memory operands: --smem-swizzle/--smem-major give the canonical tile, its banks and
# the descriptor of every wgmma, equal to what `explain --preset hopper` (make_gmma_operand) says
# for
# kernel 05's tiles (m64n256k16 over (2,1,1), tile 128 x 256 x 64, 16-bit), K-major and MN-major.
hopper = json.loads(run("explain", "--preset", "hopper", "--json")[1])["hopper"]["operands"]
for major in ("K", "MN"):
    path = os.path.join(work, f"wgmma_{major}.html")
    rc, _, err = run("render", "--atom", "SM90_64x256x16_F32F16F16_SS", "--atom-layout", "(2,1,1)",
                     "--tile", "128",
                     "256", "64", "--smem-swizzle", "128B", "--smem-major", major, "-o", path)
    html, d = page_data(path)
    for k, name in ((1, "A"), (2, "B")):
        sm = d["operands"][k]["smem"]
        ref = next(o for o in hopper if o["operand"] == name and o["major"] == major)
        rd = ref["descriptor"]
        starts = [[w["start_bytes"] for w in sm["wgmma"] if w["mn_block"] == i]
                  for i in range(len(ref["block_starts"]))]
        check(rc == 0 and sm["swizzle"] == "128B" and sm["major"] == major and
              {f: sm["descriptor"][f]
               for f in ("layout_type", "lbo_bytes", "sbo_bytes", "base_offset")} ==
              {f: rd[f] for f in ("layout_type", "lbo_bytes", "sbo_bytes", "base_offset")} and
              starts == ref["block_starts"] and sm["blocks"] == ref["blocks"],
              f"wgmma {name} {major}-major 128B: LBO {sm['descriptor']['lbo_bytes']}, SBO "
              f"{sm['descriptor']['sbo_bytes']}, "
              f"starts {starts} equal explain --preset hopper ({rd['lbo_bytes']}, "
              f"{rd['sbo_bytes']}, {ref['block_starts']})")
        # Banks: 4-byte words of the swizzled byte address; the 128B swizzle spreads a K-major
        # tile's
        # column of 8 rows (rows 128 bytes apart, all bank 0 unswizzled) over 8 different bank
        # groups.
        cols = d["operands"][k]["cols"]
        ok = all(sm["bank"][i] == (sm["phys"][i] * 2 // 4) % 32 for i in range(len(sm["bank"])))
        col0 = {sm["bank"][r * cols] for r in range(8)}
        check(ok and (major != "K" or len(col0) == 8),
              f"wgmma {name} {major}-major: bank = swizzled byte / 4 mod 32; "
              f"column 0's first 8 rows in banks {sorted(col0)}")
# The default: 128B K-major when the tile takes it, else the widest that fits (K = 16: 32 bytes,
# 32B).
path = os.path.join(work, "wgmma_default.html")
rc, _, _ = run("render", "--atom", "SM90_64x256x16_F32F16F16_SS", "--atom-layout", "(1,1,1)",
               "--tile", "64", "256",
               "16", "-o", path)
html, d = page_data(path)
check(rc == 0 and [d["operands"][k]["smem"]["swizzle"] for k in (1, 2)] == ["32B", "32B"]
      and "smem" not in d["operands"][0],
      "wgmma tile 64 x 256 x 16: A and B default to 32B (the widest a 16-deep tile takes), C has "
      "no shared tile")
# Operands read through a descriptor get no per-thread access analysis (nor its value limit); C
# keeps it.
acc = [d["operands"][k]["access"] for k in range(3)]
check(rc == 0 and all("through its descriptor" in acc[k].get("error", "") for k in (1, 2))
      and "error" not in acc[0] and "shared" in acc[0],
      f"wgmma SS: A and B read through descriptors, C analysed: "
      f"{[a.get('error', 'analysed') for a in acc]}")
path = os.path.join(work, "wgmma_rs.html")
rc, _, _ = run("render", "--atom", "SM90_64x128x16_F32F16F16_RS", "--atom-layout", "(1,1,1)",
               "--tile", "64", "128",
               "64", "-o", path)
html, d = page_data(path)
check(rc == 0 and "smem" not in d["operands"][1] and d["operands"][2]["smem"]["swizzle"] == "128B",
      "wgmma RS: only B has a shared tile (128B K-major)")
check("error" not in d["operands"][1]["access"]
      and "through its descriptor" in d["operands"][2]["access"].get("error", ""),
      "wgmma RS: A (registers) analysed, B read through its descriptor")

# User errors: exit 1 and a message.
for args, msg in [(["--layout", "(4,2:(1,64)"], "position 4"),
                  (["--preset", "step9"], "unknown preset"),
                  (["--preset", "step1", "--layout", "8:1"], "exactly one"),
                  (["--atom-layout", "(16,16,1):(16,1,0)", "--perm",
                    "((16,4):(4,1),(16,4):(4,1),_)",
                    "--tile", "100", "128", "8"], "not a multiple"),
                  (["--preset", "step1", "--compare-perm", "(16,4):(4,4)"],
                   "--compare-perm (16,4):(4,4)"),
                  (["--copy", "cp_async:12", "--thr", "(32,8):(1,32)", "--val", "(4,1)"],
                   "4, 8 or 16 bytes"),
                  (["--copy", "cp_async:16", "--thr", "(32,8):(1,32)"], "needs --thr and --val"),
                  (["--copy", "warp_shuffle", "--thr", "(32,8):(1,32)", "--val", "(4,1)"],
                   "unknown copy atom"),
                  (["--layout", "(1024,1024):(1,1024)"], "limited"),
                  (["--preset", "step1", "--thread", "256"], "not a thread"),
                  (["--preset", "step1", "--elem-bits", "12"], "--elem-bits 12"),
                  (["--preset", "step1", "--swizzle", "Sw<3,3"], "--swizzle"),
                  (["--layout", "8:1", "--overlay", "bank"], "need a TiledMMA"),
                  (["--preset", "step1", "--warp", "8"], "not a warp"),
                  (["--preset", "step1", "--overlay", "banks"], "banks"),
                  (["--atom", "SM90_64x256x16_F32F16F16_SS", "--atom-layout", "(1,1,1)", "--tile",
                    "64", "256", "16",
                    "--smem-swizzle", "128B"],
                    "operand A: gmma smem tile: (64,16) is not a whole number of (8,64):(64,1) "
                    "atoms"),
                  (["--atom", "SM90_64x128x8_F32TF32TF32_SS_TN", "--atom-layout", "(1,1,1)",
                    "--tile", "64", "128", "32",
                    "--smem-major", "MN"], "wgmma reads MN-major tiles of 16-bit elements only"),
                  (["--preset", "step4", "--smem-swizzle", "64B"], "need a wgmma TiledMMA"),
                  (["--layout", "8:1", "--smem-major", "K"], "need a wgmma TiledMMA"),
                  (["--preset", "hopper", "--smem-swizzle", "48B"], "--smem-swizzle"),
                  (["--preset", "step1", "--dtype", "float"], "")]:
    out = os.path.join(work, "bad.html")
    rc, _, err = run("render", *args, "-o", out)
    want_rc = 0 if msg == "" else 1
    check(rc == want_rc and msg in err,
          f"render {' '.join(args)} -> exit {want_rc} {msg!r} ({rc}: {err.strip()[:150]})")
rc, _, err = run("render", "--preset", "step1")
check(rc == 1 and "--output" in err, f"render without -o -> exit 1 ({rc}: {err.strip()[:100]})")
rc, _, err = run("render", "--layout", "8:1", "-o",
                 os.path.join(work, "no", "such", "dir", "x.html"))
check(rc == 1 and "cannot write" in err, f"unwritable output -> exit 1 ({rc}: {err.strip()[:100]})")
rc, out, _ = run("render", "--help")
check(rc == 0 and "--compare-perm" in out and "--copy" in out, "render --help")

print(f"render_cli: {len(failures)} failures")
sys.exit(1 if failures else 0)
