#!/usr/bin/env python3
"""`tessera explain/render --preset attention` against independent computations.

Usage: cli_attention.py TESSERA_EXE [WORK_DIR]

For each kernel and head dim, the explanation of a few threads is checked against
  - brute force over the TiledMMAs' thread-value partitions (`tessera explain` of each TiledMMA
    spelled out by atom, atom layout, permutation and tile: every thread's (row, col) of S's
    accumulators, and of P V's A operand): the threads owning each of a thread's
    rows of S are exactly the lanes it names, its registers of each row are those at that row, and
    every A register pair holds the S elements of the accumulators it names;
  - the PTX ISA's fragment tables (wgmma's D and A, mma.sync m16n8k16's C and A), written here
    from the ISA's formulas: rows 16 w + lane / 4 (+ 8), columns 2 (lane % 4) (+ 1, + 8), the quad.
Then the text output names the thread, its rows, its shuffle partners and its A registers, and
the page's embedded data is the same explanation.
"""
import html
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile

exe = sys.argv[1]
work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="tessera-attention-")
os.makedirs(work, exist_ok=True)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL", what)


def run(*args, stdin=None):
    p = subprocess.run([exe, *args], input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def c_partitions(case):
    """(row, col) of every value of every thread's C fragment ([thread][value]), from the TiledMMA
    given by its atom, atom layout, permutation and tile (the generic path, not the preset): one
    `tessera batch` case. C is (M,N): the tile's K is one k-step here, which keeps the answer's A
    and B (every thread's view of a shared-memory operand, for wgmma) small."""
    line = {k: case[k] for k in ("atom", "atom_layout", "permutation") if k in case}
    line["tile_mnk"] = [*case["tile_mnk"][:2], 16]
    rc, out, err = run("batch", stdin=json.dumps({"id": 0, **line}) + "\n")
    answer = json.loads(out) if rc == 0 else {"error": err}
    if "error" in answer:
        raise SystemExit(f"batch {line}: {rc} {answer['error']}")
    return answer["C"]["coords"]


def partition(case, operand, thread):
    """One thread's fragment of `operand`, from `tessera explain` of the TiledMMA spelled out."""
    args = ["explain", "--atom", case["atom"], "--atom-layout", case["atom_layout"], "--tile",
            *map(str, case["tile_mnk"]), "--operand", operand, "--thread", str(thread), "--json"]
    if "permutation" in case:
        args += ["--perm", case["permutation"]]
    rc, out, err = run(*args)
    if rc != 0:
        raise SystemExit(f"explain {args}: {rc} {err}")
    return json.loads(out)["operands"][operand]["coords"]


# The kernels' tiles (kernels/attention/args.hpp) and TiledMMAs (tiled_mmas.hpp), as batch cases.
def tiles(kernel, d):
    if kernel == "fa3_sm90":
        return 128, (176 if d <= 128 else 80)  # args.hpp, not causal
    return (128 if d <= 128 else 64), (32 if d == 128 else 64)


def cases(kernel, d):
    bm, bn = tiles(kernel, d)
    if kernel == "fa3_sm90":
        s = {"atom": f"SM90_64x{bn}x16_F32F16F16_SS", "atom_layout": "(2,1,1):(1,0,0)"}
        o = {"atom": f"SM90_64x{d}x16_F32F16F16_RS", "atom_layout": "(2,1,1):(1,0,0)"}
    else:
        s = {"atom": "SM80_16x8x16_F32F16F16F32_TN", "atom_layout": "(4,1,1)",
             "permutation": "(64,16,16)"}
        o = dict(s)
    s.update(tile_mnk=[bm, bn, d], threads=256 if kernel == "fa3_sm90" else 128)
    o.update(tile_mnk=[bm, d, bn])
    return s, o


# PTX ISA fragments: lane = 4 g + q of warp w holds accumulator rows g, g + 8 of its 16-row slab
# at columns 2 q, 2 q + 1 of every 8-column block; A (16 x 16 per k-step) values a0..a7 at
# (g, 2q), (g, 2q+1), (g+8, 2q), (g+8, 2q+1), (g, 2q+8), (g, 2q+9), (g+8, 2q+8), (g+8, 2q+9).
def ptx_rows(kernel, t, bm):
    w, g = t // 32, (t % 32) // 4
    if kernel == "fa3_sm90":  # warp w of the two warpgroups: rows 16 w (64 per warpgroup)
        return sorted({16 * w + g + h for h in (0, 8)})
    return sorted({16 * w + g + h + 64 * m for h in (0, 8) for m in range(bm // 64)})


def ptx_a(t, j, m, s):
    w, g, q = t // 32, (t % 32) // 4, t % 4
    return [16 * w + 64 * m + g + 8 * ((j >> 1) & 1), 16 * s + 2 * q + (j & 1) + 8 * (j >> 2)]


def check_variant(kernel, d, threads):
    bm, bn = tiles(kernel, d)
    s_case, o_case = cases(kernel, d)
    # [thread][register] = [row, col] of S, every thread: the owners of each row by brute force.
    s_coords = c_partitions(s_case)
    check(len(s_coords) == s_case["threads"], f"{kernel} d{d}: S over {len(s_coords)} threads")
    owners = {}
    for u, frag in enumerate(s_coords):
        for r, _ in frag:
            owners.setdefault(r, set()).add(u)
    name = f"{kernel} d{d}"
    for t in threads:
        rc, out, err = run("explain", "--preset", "attention", "--kernel", kernel, "--head-dim",
                           str(d), "--thread", str(t), "--operand", "C", "--json")
        check(rc == 0, f"{name} explain --json thread {t}: {rc} {err}")
        if rc:
            continue
        a = json.loads(out)["attention"]
        th = a["thread"]
        mine = s_coords[t]
        # The batch answer is explain's of the whole tile.
        check(partition(s_case, "C", t) == s_coords[t], f"{kernel} d{d} thread {t}: batch's C")
        a_mine = partition(o_case, "A", t)  # [A value (V,M,K)] = [row, key] of P
        rows = sorted({r for r, _ in mine})
        check(th["rows"] == rows == ptx_rows(kernel, t, bm),
              f"{name} thread {t} rows {th['rows']} vs partition {rows}")
        check(th["cols"] == sorted({c for r, c in mine if r == rows[0]}),
              f"{name} thread {t} cols {th['cols']}")
        check(th["register_coords"] == mine, f"{name} thread {t} register coords")
        for r, regs in zip(th["rows"], th["row_registers"]):
            want = sorted((i for i, (rr, _) in enumerate(mine) if rr == r),
                          key=lambda i: mine[i][1])
            check(regs == want, f"{name} thread {t} registers of row {r}: {regs} vs {want}")
        # The lanes it names own exactly its rows: brute force over every thread's partition.
        for r in rows:
            check(set(th["row_threads"]) == owners[r],
                  f"{name} thread {t} row {r}: named {th['row_threads']}, owners "
                  f"{sorted(owners[r])}")
        quad = [t // 4 * 4 + k for k in range(4)]
        check(th["row_threads"] == quad and th["row_lanes"] == [u % 32 for u in quad],
              f"{name} thread {t} lanes {th['row_lanes']} vs the quad {quad}")
        masks = a["row_shuffles"]
        closure = set()
        for n in range(len(masks) + 1):
            for combo in itertools.combinations(masks, n):
                x = 0
                for mask in combo:
                    x ^= mask
                closure.add(t ^ x)
        check(closure == set(th["row_threads"]) and masks == [1, 2],
              f"{name} thread {t} shuffles {masks} reach {sorted(closure)}")
        check([s["thread"] for s in th["shuffles"]] == [t ^ 1, t ^ 2],
              f"{name} thread {t} shuffle partners {th['shuffles']}")
        # P -> A: each A register's two halves hold the S elements of the accumulators named.
        v, m_tiles = 8, 1 + max(e["m"] for e in a["p_to_a"])
        for e in a["p_to_a"]:
            for h, i in enumerate(e["c"]):
                j = e["a_values"][h]
                flat = j + v * (e["m"] + m_tiles * e["k_step"])
                check(e["a_values"] == [2 * e["register"], 2 * e["register"] + 1]
                      and a_mine[flat] == mine[i] == ptx_a(t, j, e["m"], e["k_step"]),
                      f"{name} thread {t} A register {e}: A {a_mine[flat]}, S {mine[i]}")
        check(len(a["p_to_a"]) * 2 == len(mine), f"{name}: every accumulator read once as A")
        check(a["rows_of"][t] == rows and a["row_threads"][t] == th["row_threads"],
              f"{name} thread {t}: the page's per-thread rows and lanes")


check_variant("fa3_sm90", 128, [0, 37, 130, 255])
check_variant("fa3_sm90", 256, [77, 201])
check_variant("fa2_sm80", 64, [0, 37, 127])
check_variant("fa2_sm80", 128, [66])

# The text: the thread, its rows, its shuffle partners, its A registers (worked example: thread
# 37 is warp 1, lane 5: rows 16 + 1 and + 8; the quad 36-39; k-step 0's a0 = S (17,2), (17,3)).
rc, out, err = run("explain", "--preset", "attention", "--thread", "37", "--operand", "C")
check(rc == 0 and "thread 37 (warpgroup 0, warp 1, lane 5)" in out
      and "reduces S rows 17, 25 (44 keys each" in out
      and "shuffle xor 1 with lane 4 (thread 36), shuffle xor 2 with lane 7 (thread 39)" in out
      and "lanes 4,5,6,7 (threads 36,37,38,39) hold rows 17,25" in out
      and "k-step 0 (keys 0-15): a0=(S0 [17,2], S1 [17,3]) a1=(S2 [25,2], S3 [25,3])" in out
      and "k-step 10 (keys 160-175)" in out
      and "S = Q K^T: TiledMMA of SM90_64xNx16_F32F16F16_SS (64x176x16), atom layout "
          "(2,1,1):(1,0,0)" in out
      and "O += P V: TiledMMA of SM90_64xNx16_F32F16F16_RS (64x128x16)" in out
      and "lanes sharing a row (row_shuffles): shuffle xor 1, 2" in out,
      f"explain --preset attention text: {out!r}")
rc, out, err = run("explain", "--preset", "attention", "--kernel", "fa2_sm80", "--head-dim", "64",
                   "--thread", "5")
check(rc == 0 and "reduces S rows 1, 9, 65, 73" in out and "m-tile 1" in out
      and "C (M,N) = (128,64):(64,1)" in out, f"explain fa2_sm80: {out[-1500:]!r}")

# Errors: the rule and the operands.
rc, _, err = run("explain", "--preset", "step4", "--kernel", "fa2_sm80")
check(rc == 1 and "--kernel and --head-dim choose the attention kernel" in err,
      f"--kernel without the preset: {rc} {err!r}")
rc, _, err = run("render", "--layout", "4:1", "--kernel", "fa2_sm80", "-o",
                 os.path.join(work, "layout.html"))
check(rc == 1 and "render: --kernel and --head-dim choose the attention kernel" in err,
      f"render --kernel without the preset: {rc} {err!r}")
rc, _, err = run("explain", "--preset", "attention", "--head-dim", "96")
check(rc != 0 and "96" in err, f"--head-dim 96: {rc} {err!r}")
rc, _, err = run("explain", "--preset", "attention", "--thread", "256")
check(rc == 1 and "outside [0, 256)" in err, f"thread 256: {rc} {err!r}")

# render: the page embeds the same explanation (its per-thread rows, lanes and register map).
page = os.path.join(work, "attention.html")
rc, _, err = run("render", "--preset", "attention", "--kernel", "fa2_sm80", "--head-dim", "128",
                 "--thread", "9", "-o", page)
check(rc == 0, f"render --preset attention: {rc} {err!r}")
if rc == 0:
    text = open(page).read()
    data = json.loads(html.unescape(re.search(
        r'<script type="application/json" id="tessera-data">(.*?)</script>', text,
        re.S).group(1)).replace("<\\/", "</"))
    _, out, _ = run("explain", "--preset", "attention", "--kernel", "fa2_sm80", "--head-dim",
                    "128", "--thread", "9", "--json")
    want = json.loads(out)["attention"]
    check(data["attention"] == want and data["initial_thread"] == 9
          and data["tile"] == [128, 32, 128], f"render data: {str(data.get('attention'))[:300]}")
    state = json.loads(re.search(r'id="tessera-state">(.*?)</script>', text, re.S).group(1))
    check(state.get("kernel") == "fa2_sm80" and state.get("head_dim") == 128, f"state {state}")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("cli_attention: all checks passed")
