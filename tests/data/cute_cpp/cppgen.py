# Computes CuTe C++ results (all integers static) for cases {id, op, args}: generates one C++ file,
# compiles it with g++, drops the cases whose lines the compiler reports (static assertion = C++
# rejects), and repeats. Output: the cases with "cpp" (printed result) or "cpp_error": true.
import json, re, subprocess, sys

def parse(s):
    s = s.replace(' ', '')
    pos = 0
    def tup():
        nonlocal pos
        if s[pos] == '(':
            pos += 1; items = [tup()]
            while s[pos] == ',': pos += 1; items.append(tup())
            assert s[pos] == ')', s; pos += 1
            return tuple(items)
        m = re.match(r'-?\d+', s[pos:]); pos += len(m.group()); return int(m.group())
    t = tup()
    if pos < len(s) and s[pos] == ':':
        pos += 1; d = tup(); assert pos == len(s), s; return ('L', t, d)
    assert pos == len(s), s
    return ('T', t)

def ty(t):
    if isinstance(t, int): return 'Int<%d>' % t
    return 'cute::tuple<%s>' % ','.join(ty(x) for x in t)

def sw_layout(s):
    m = re.match(r'Sw<(-?\d+),(-?\d+),(-?\d+)>o(-?\d+)o(.*)$', s.replace(' ', ''))
    b, mm, ss, off, rest = m.groups()
    assert off == '0'
    return 'composition(Swizzle<%s,%s,%s>{}, %s)' % (b, mm, ss, expr(rest))

def expr(a):
    if isinstance(a, list):   # tuple tiler
        return 'make_tile(%s)' % ','.join(expr(x) for x in a)
    if isinstance(a, int): return 'Int<%d>{}' % a
    if a == '_': return '_'
    if a.startswith('Sw<'): return sw_layout(a)
    p = parse(a)
    if p[0] == 'L': return 'make_layout(%s{}, %s{})' % (ty(p[1]), ty(p[2]))
    return '%s{}' % ty(p[1])

CALL = {
  'coalesce': lambda a: 'coalesce(%s)' % ','.join(a),
  'complement': lambda a: 'complement(%s)' % ','.join(a),
  'composition': lambda a: 'composition(%s)' % ','.join(a),
}
def call(op, args):
    a = [expr(x) for x in args]
    return '%s(%s)' % (op, ','.join(a))

HEAD = r'''#include <cute/layout.hpp>
#include <cute/layout_composed.hpp>
#include <cute/swizzle.hpp>
#include <cute/swizzle_layout.hpp>
#include <cute/tensor.hpp>
#include <cstdio>
#include <sstream>
using namespace cute;
template <class T> void emit(const char* id, T const& r) {
  std::ostringstream o; o << r; std::printf("%s\t%s\n", id, o.str().c_str());
}
int main() {
'''
def run(cases, tag):
    alive = list(cases)
    dead = set()
    for it in range(40):
        lines = [HEAD]
        lineof = {}
        for c in alive:
            if c['id'] in dead: continue
            lineof[len(''.join(lines).split('\n'))] = c['id']
            lines.append('{ emit("%s", %s); }\n'
                         % (c['id'], c.get('expr') or call(c['op'], c['args'])))
        lines.append('}\n')
        src = ''.join(lines)
        open(f'/tmp/cute/port/gen_{tag}.cpp', 'w').write(src)
        p = subprocess.run(['g++', '-std=c++17', '-O0', '-w', '-fmax-errors=200',
                            '-I/tmp/cute/include', '-I/usr/local/cuda/include',
                            '-I/usr/local/cuda/include/cccl', f'/tmp/cute/port/gen_{tag}.cpp', '-o',
                            f'/tmp/cute/port/gen_{tag}.bin'],
                           capture_output=True, text=True)
        if p.returncode == 0: break
        bad = set(int(n) for n in re.findall(r'gen_%s\.cpp:(\d+):' % tag, p.stderr))
        ids = {lineof[n] for n in bad if n in lineof}
        if not ids:
            sys.stderr.write(p.stderr[-3000:]); raise SystemExit('compile failed outside cases')
        sys.stderr.write('iteration %d: %d cases rejected\n' % (it, len(ids)))
        dead |= ids
    out = subprocess.run([f'/tmp/cute/port/gen_{tag}.bin'], capture_output=True, text=True).stdout
    res = dict(l.split('\t', 1) for l in out.strip().split('\n') if l)
    for c in cases:
        if c['id'] in dead: c['cpp_error'] = True
        else: c['cpp'] = re.sub(r'[_ ]', '', res[c['id']]).replace('Sw<', 'Sw<')
    return cases

if __name__ == '__main__':
    tag = sys.argv[1]
    cases = [json.loads(l) for l in open(sys.argv[2])]
    for i, c in enumerate(cases): c.setdefault('id', '%s_%04d' % (tag, i))
    for c in run(cases, tag): print(json.dumps(c))
