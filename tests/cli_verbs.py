#!/usr/bin/env python3
"""The human verbs of the tessera CLI: outputs on seed examples, messages and exit codes.

Usage: cli_verbs.py TESSERA_EXE
"""
import json
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


# Results and tables on seed examples.
rc, out, _ = run("compose", "(4,3):(1,8)", "6:2")
check(rc == 0 and out.splitlines()[0] == "(2,3):(2,8)", f"compose: {out!r}")
check(" 0 |  0  8 16" in out and " 1 |  2 10 18" in out, f"compose table: {out!r}")
rc, out, _ = run("logical_divide", "(4,6):(1,4)", "(2,3)")
check(out.startswith("((2,2),(3,2)):((1,2),(4,12))"), f"logical_divide: {out!r}")
rc, out, _ = run("complement", "4:1", "12", "--json")
check(json.loads(out) == {"result": "3:4", "image": [0, 4, 8]}, f"complement --json: {out!r}")
rc, out, _ = run("zipped_divide", "(9,(4,8)):(59,(13,1))", "(3:3,(2,4):(1,8))")
check(out.splitlines()[0] == "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))", f"zipped tiler tuple: {out!r}")
rc, out, _ = run("swizzle", "1", "1", "1", "--json")
check(json.loads(out)["image"] == [0, 1, 2, 3, 6, 7, 4, 5], f"swizzle: {out!r}")
rc, out, _ = run("show", "(4,3):(3,1)")
check(rc == 0 and "size 12  cosize 12" in out and " 3 |  9 10 11" in out, f"show: {out!r}")
rc, out, _ = run("demo")
check(rc == 0 and "(4,3):(1,8) o 6:2" in out and "= (2,3):(2,8)" in out, f"demo: {out!r}")

# explain: the seed-002 derivation for thread 0 of step 1, text and JSON.
rc, out, _ = run("explain", "--preset", "step1", "--thread", "0", "--operand", "C")
check(rc == 0 and "(((16,4),2),((16,4),2)):(((512,128),8192),((4,1),64))" in out
      and "offset 0, fragment (1,(4,2),(4,2)):(0,(128,8192),(1,64))" in out
      and "m in {0,1,2,3,64,65,66,67} x n in {0,1,2,3,64,65,66,67}" in out, f"explain step1: {out!r}")
rc, out, _ = run("explain", "--preset", "step4", "--thread", "5", "--json")
j = json.loads(out)
check(j["config"]["threads"] == 128 and j["operands"]["C"]["coords"][3] == [9, 3], f"explain step4 json: {out[:300]!r}")
rc, out, _ = run("explain", "--atom", "UniversalFMA", "--atom-layout", "(16,16,1):(16,1,0)",
                 "--perm", "((16,4):(1,16),(16,4):(1,16),_)", "--tile", "128", "128", "8", "--thread", "1")
check(rc == 0 and "fragment (1,8,8)" in out, f"explain flags: {out!r}")
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
check(b"\x1b[38;5;" in tty_out and b"\x1b[0m" in tty_out, f"show on a terminal has no colors: {tty_out[:200]!r}")

# User errors: exit 1 with the rule and the operands, or the bad character position.
rc, _, err = run("compose", "(4,4):(1,5)", "3:6")
check(rc == 1 and "stride divisibility fails" in err and "(4,4):(1,5)" in err, f"bad compose: {rc} {err!r}")
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
check("error" in lines[1] and "error" in lines[2] and lines[2]["id"] == "b", f"batch errors: {lines}")

for f in failures:
    print("FAIL", f)
print(f"cli_verbs: {len(failures)} failures")
sys.exit(1 if failures else 0)
