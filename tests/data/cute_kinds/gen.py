# Writes ../cute_kinds_cases.json: what CuTe's C++ prints for layout ops and TiledMMA partitions
# when the operands' integers are static (Int<4>), run-time (int) or mixed. Run by hand, not in CI:
#   python3 gen.py /tmp/cute      (a CUTLASS checkout with include/, CUDA's cccl headers installed)
# python3 gen.py /tmp/cute --ops   (only the "layout_ops" list: nullspace, upcast, .. tile_to_shape)
# It writes one C++ program per batch with every case on its own line, compiles it with g++ against
# CuTe's headers, drops the cases the compiler rejects (CuTe has no dynamic-stride complement of
# rank > 1, for one) and records what the rest print. Operands are written in CuTe's form: _4 is
# static, a bare 4 run-time.
import json, random, re, subprocess, sys, os

CUTE = next((a for a in sys.argv[1:] if not a.startswith('--')), '/tmp/cute')
WORK = os.path.join(CUTE, 'kinds')
os.makedirs(WORK, exist_ok=True)
HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(HERE, '../../../../shared/oracle')
if not os.path.isdir(ORACLE): ORACLE = '/work/shared/oracle'

def parse(s):
    s = s.replace(' ', ''); pos = 0
    def tup():
        nonlocal pos
        if s[pos] == '(':
            pos += 1; items = [tup()]
            while s[pos] == ',': pos += 1; items.append(tup())
            pos += 1
            return tuple(items)
        m = re.match(r'-?\d+', s[pos:]); pos += len(m.group()); return int(m.group())
    t = tup()
    if pos < len(s) and s[pos] == ':':
        pos += 1; return ('L', t, tup())
    return ('T', t)

# kinds: 'S' every leaf static, 'D' every leaf run-time, 'M' static shape with run-time strides.
def text(t, dyn):
    if isinstance(t, int): return str(t) if dyn else '_%d' % t
    return '(' + ','.join(text(x, dyn) for x in t) + ')'
def cxx(t, dyn, maker):
    if isinstance(t, int): return 'int(%d)' % t if dyn else 'Int<%d>{}' % t
    return '%s(%s)' % (maker, ','.join(cxx(x, dyn, maker) for x in t))
def operand(a, kind):
    p = parse(a)
    if p[0] == 'L':
        sd, dd = kind != 'S' and kind == 'D', kind != 'S'
        return (text(p[1], sd) + ':' + text(p[2], dd),
                'make_layout(%s,%s)' % (cxx(p[1], sd, 'make_shape'), cxx(p[2], dd, 'make_stride')))
    return text(p[1], kind == 'D'), cxx(p[1], kind == 'D', 'make_shape')

OPS = ['coalesce', 'filter', 'composition', 'complement', 'logical_divide', 'zipped_divide',
       'tiled_divide',
       'flat_divide', 'logical_product', 'zipped_product', 'tiled_product', 'flat_product',
       'blocked_product', 'raked_product']

# CuTe has no complement of a layout with run-time strides and more than one mode (a static
# assertion): complement itself, the products (complement of A) and the divides (complement of B).
def leaves(a): return len(re.findall(r'\d+', a.split(':')[0])) if ':' in a else 1
def skip(op, args, ks):
    if op == 'complement' or 'product' in op: return ks[0] != 'S' and leaves(args[0]) > 1
    if 'divide' in op: return len(ks) > 1 and ks[1] != 'S' and leaves(args[1]) > 1
    return False

def layout_cases():
    cases = json.load(open(os.path.join(ORACLE, 'layout_cases.json')))['cases']
    rnd = random.Random(15)
    out = []
    for op in OPS:
        pool = [c for c in cases if c['op'] == op and not c['error'] and 'note' not in c
                and all(isinstance(a, str) and not a.startswith('Sw') for a in c['args'])]
        for c in rnd.sample(pool, min(5, len(pool))):
            kinds = ['S', 'D', 'M'] if len(c['args']) == 1 else \
                    [(a, b) for a in 'SDM' for b in ('S', 'D')]
            for k in kinds:
                ks = k if isinstance(k, tuple) else (k,)
                if skip(op, c['args'], ks): continue
                args, exprs = [], []
                for a, kk in zip(c['args'], ks):
                    if ':' not in a and kk == 'M': kk = 'D'
                    t, e = operand(a, kk)
                    args.append(t); exprs.append(e)
                out.append({'id': '%s_%s' % (c['id'], ''.join(ks)), 'op': op, 'args': args,
                            'expr': '%s(%s)' % (op, ','.join(exprs))})
    return out

# The layout constructions beside the core algebra, a few operands each, with the same kinds.
# Each entry: op, tessera args (layouts and shapes in notation, integers as they are), and the C++
# call with {0}, {1} for the operands. Kinds name the notation operands only.
BITS = {8: 'uint8_t', 16: 'uint16_t', 32: 'uint32_t', 64: 'uint64_t'}
NEW_OPS = [
  ('nullspace', ['(2,2,2):(1,0,2)'], 'nullspace({0})'),
  ('nullspace', ['(7,5,16):(3,1,0)'], 'nullspace({0})'),
  ('nullspace', ['(4,(1,3)):(0,(0,4))'], 'nullspace({0})'),
  ('nullspace', ['(4,1,3):(1,0,0)'], 'nullspace({0})'),
  ('upcast', ['(4,8):(1,4)', 2], 'upcast<2>({0})'),
  ('upcast', ['(8,(2,4)):(2,(16,64))', 4], 'upcast<4>({0})'),
  ('upcast', ['(16,4):(4,64)', 2], 'upcast<2>({0})'),
  ('upcast', ['(3,4):(0,8)', 4], 'upcast<4>({0})'),
  ('downcast', ['(4,8):(1,4)', 2], 'downcast<2>({0})'),
  ('downcast', ['(2,(4,2)):(8,(1,32))', 4], 'downcast<4>({0})'),
  ('downcast', ['(4,3):(1,0)', 2], 'downcast<2>({0})'),
  ('recast_layout', ['(4,8):(1,4)', 16, 32], 'recast_layout<uint16_t,uint32_t>({0})'),
  ('recast_layout', ['(8,(2,4)):(4,(32,64))', 32, 8], 'recast_layout<uint32_t,uint8_t>({0})'),
  ('recast_layout', ['(4,8):(1,8)', 8, 64], 'recast_layout<uint8_t,uint64_t>({0})'),
  ('max_common_layout', ['(4,8):(1,4)', '(4,8):(1,4)'], 'max_common_layout({0},{1})'),
  ('max_common_layout', ['(4,8):(1,4)', '(4,8):(8,1)'], 'max_common_layout({0},{1})'),
  ('max_common_layout', ['(8,(2,4)):(1,(8,16))', '32:1'], 'max_common_layout({0},{1})'),
  ('max_common_layout', ['(2,4):(4,1)', '(2,4):(4,1)'], 'max_common_layout({0},{1})'),
  ('max_common_vector', ['(4,8):(1,4)', '(4,8):(1,4)'], 'max_common_vector({0},{1})'),
  ('max_common_vector', ['(8,(2,4)):(1,(8,16))', '32:1'], 'max_common_vector({0},{1})'),
  ('max_common_vector', ['(2,4):(4,1)', '(2,4):(4,1)'], 'max_common_vector({0},{1})'),
  ('make_ordered_layout', ['(2,3,4)', '(1,2,0)'], 'make_ordered_layout({0},{1})'),
  ('make_ordered_layout', ['(2,2,2,2)', '(0,2,3,1)'], 'make_ordered_layout({0},{1})'),
  ('make_ordered_layout', ['(2,(3,4),5)', '(2,(1,0),3)'], 'make_ordered_layout({0},{1})'),
  ('make_ordered_layout', ['(2,1,4)', '(1,0,2)'], 'make_ordered_layout({0},{1})'),
  ('make_layout_like', ['(2,3,4):(12,1,3)'], 'make_layout_like({0})'),
  ('make_layout_like', ['(4,3):(0,5)'], 'make_layout_like({0})'),
  ('make_layout_like', ['(2,2,2,2):(0,2,4,1)'], 'make_layout_like({0})'),
  ('make_layout_like', ['(2,(3,4)):(1,(8,2))'], 'make_layout_like({0})'),
  ('tile_to_shape', ['(2,2):(1,2)', '(4,6)'], 'tile_to_shape({0},{1})'),
  ('tile_to_shape', ['(2,4):(4,1)', '(8,8)'], 'tile_to_shape({0},{1})'),
  ('tile_to_shape', ['4:1', '(8,3)'], 'tile_to_shape({0},{1})'),
  ('tile_to_shape', ['(2,2):(1,2)', '(4,6)', 'row'], 'tile_to_shape({0},{1},GenRowMajor{{}})'),
]

def new_op_cases():
    out = []
    for n, (op, args, call) in enumerate(NEW_OPS):
        ops = [a for a in args if isinstance(a, str) and a not in ('row', 'col')]
        for ks in ([(k,) for k in 'SDM'] if len(ops) == 1
                   else [(a, b) for a in 'SDM' for b in 'SD']):
            targs, exprs = [], []
            for a, kk in zip(ops, ks):
                if ':' not in a and kk == 'M': kk = 'D'
                t, e = operand(a, kk)
                targs.append(t); exprs.append(e)
            if len(ops) == 2 and ':' not in ops[0] and ks[0] == 'M': continue  # same as D
            out.append({'id': 'k_%s_%02d_%s' % (op, n, ''.join(ks)), 'op': op,
                        'args': targs + [a for a in args
                                         if not (isinstance(a, str) and a not in ('row', 'col'))],
                        'expr': call.format(*exprs)})
    return out

MMA = {
  'UniversalFMA': 'UniversalFMA<float,float,float,float>{}',
  'SM80_16x8x16_F32F16F16F32_TN': 'SM80_16x8x16_F32F16F16F32_TN{}',
  'SM80_16x8x8_F32TF32TF32F32_TN': 'SM80_16x8x8_F32TF32TF32F32_TN{}',
}
PERM = {'(16,4):(4,1)': 'Layout<Shape<_16,_4>,Stride<_4,_1>>{}',
        '(16,4):(1,16)': 'Layout<Shape<_16,_4>,Stride<_1,_16>>{}',
        '(16,8):(8,1)': 'Layout<Shape<_16,_8>,Stride<_8,_1>>{}'}
CONFIGS = [  # atom, atom layout (static), permutation text, C++ permutation tile, tile (M,N,K)
  ('UniversalFMA', '(16,16,1):(16,1,0)', '((16,4):(4,1),(16,4):(4,1),_)',
   'make_tile(%s,%s,_)' % (PERM['(16,4):(4,1)'], PERM['(16,4):(4,1)']), (128, 128, 8)),
  ('UniversalFMA', '(16,16,1):(16,1,0)', '((16,4):(1,16),(16,4):(1,16),_)',
   'make_tile(%s,%s,_)' % (PERM['(16,4):(1,16)'], PERM['(16,4):(1,16)']), (128, 128, 8)),
  ('UniversalFMA', '(16,16,1):(16,1,0)', '((16,8):(8,1),(16,8):(8,1),_)',
   'make_tile(%s,%s,_)' % (PERM['(16,8):(8,1)'], PERM['(16,8):(8,1)']), (128, 128, 8)),
  ('UniversalFMA', '(16,16,1):(16,1,0)', 'none', None, (128, 128, 8)),
  ('SM80_16x8x16_F32F16F16F32_TN', '(2,2,1):(1,2,0)', '(32,32,16)', 'Tile<_32,_32,_16>{}',
   (128, 128, 32)),
  ('SM80_16x8x16_F32F16F16F32_TN', '(2,2,1):(1,2,0)', 'none', None, (64, 64, 32)),
  ('SM80_16x8x8_F32TF32TF32F32_TN', '(2,2,1):(1,2,0)', '(32,32,8)', 'Tile<_32,_32,_8>{}',
   (64, 128, 16)),
]

def tiledmma_cases():
    out = []
    for ci, (atom, al, perm, perm_cxx, (M, N, K)) in enumerate(CONFIGS):
        p = parse(al)
        al_cxx = 'make_layout(%s,%s)' % (cxx(p[1], False, 'make_shape'),
                                         cxx(p[2], False, 'make_stride'))
        mma = 'make_tiled_mma(%s,%s%s)' % (MMA[atom], al_cxx, ', ' + perm_cxx if perm_cxx else '')
        for op, dims in (('C', (M, N)), ('A', (M, K)), ('B', (N, K))):
            r, c = dims
            tensors = ['(%d,%d):(%d,1)' % (r, c, c), '(%d,%d):(1,%d)' % (r // 2, c, r // 2)]
            for t in tensors:
                for kind in 'SDM':
                    tt, te = operand(t, kind)
                    for thread in (0, 5):
                        out.append({'id': 'mma%d_%s_%s_%s_t%d' % (ci, op, t, kind, thread),
                                    'atom': atom,
                                    'atom_layout': al, 'permutation': perm, 'operand': op,
                                    'tensor': tt,
                                    'thread': thread,
                                    'expr': 'part_%s(%s, %s, %d)' % (op, mma, te, thread)})
    return out

HEAD = r'''#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cstdio>
#include <set>
#include <sstream>
#include <string>
using namespace cute;
template <class T> void emit(const char* id, T const& r) {
  std::ostringstream o; o << r; std::printf("%s\t%s\n", id, o.str().c_str()); std::fflush(stdout);
}
// A thread's partition of a tensor at address 0: "offset<TAB>fragment".
#define PART(NAME, CALL) \
template <class M, class L> std::string part_##NAME(M const& mma, L const& l, int t) { \
  auto tensor = make_tensor(make_gmem_ptr((float*)nullptr), l); \
  auto p = mma.get_slice(t).CALL(tensor); \
  std::ostringstream o; o << (p.data().get() - (float*)nullptr) << "\t" << p.layout(); \
  return o.str(); }
PART(C, partition_C) PART(A, partition_A) PART(B, partition_B)
// The cases named on the command line are skipped (C++ crashed on them: a division by zero).
int main(int argc, char** argv) {
  std::set<std::string> skip(argv + 1, argv + argc);
'''

def run(cases, tag):
    dead = set()
    for it in range(40):
        lines = HEAD.split('\n')
        lineof = {}
        for c in cases:
            if c['id'] in dead: continue
            lines.append('if (!skip.count("%s")) { emit("%s", %s); }'
                         % (c['id'], c['id'], c['expr']))
            lineof[len(lines)] = c['id']
        lines.append('}')
        src = os.path.join(WORK, 'gen_%s.cpp' % tag)
        open(src, 'w').write('\n'.join(lines) + '\n')
        p = subprocess.run(['g++', '-std=c++20', '-O0', '-w', '-fmax-errors=400',
                            '-I' + CUTE + '/include',
                            '-I/usr/local/cuda/include/cccl', '-I/usr/local/cuda/include', src,
                            '-o', src + '.bin'],
                           capture_output=True, text=True)
        if p.returncode == 0: break
        bad = {lineof[int(n)] for n in re.findall(r'gen_%s\.cpp:(\d+):' % tag, p.stderr)
               if int(n) in lineof}
        if not bad: sys.stderr.write(p.stderr[
            -3000:]); raise SystemExit('compile failed outside the cases')
        sys.stderr.write('%s: iteration %d: %d cases rejected\n' % (tag, it, len(bad)))
        dead |= bad
    crashed = []
    while True:  # a case that crashes at run time (CuTe divides by a run-time 0) is dropped
        p = subprocess.run([src + '.bin'] + crashed, capture_output=True, text=True)
        res = dict(l.split('\t', 1) for l in p.stdout.strip().split('\n') if l)
        if p.returncode == 0: break
        crashed.append(next(c['id'] for c in cases if c['id'] not in dead and c['id'] not in crashed
                            and c['id'] not in res))
        sys.stderr.write('%s: %s crashes in C++\n' % (tag, crashed[-1]))
    dead |= set(crashed)
    kept = []
    for c in cases:
        if c['id'] in dead: continue
        c = dict(c); del c['expr']
        if 'operand' in c:
            off, frag = res[c['id']].split('\t')
            c['offset'] = int(off); c['expected'] = frag
        else:
            c['expected'] = res[c['id']]
        kept.append(c)
    return kept, len(dead)

def write(data):
    with open(os.path.join(HERE, '..', 'cute_kinds_cases.json'), 'w') as f:
        f.write('{"format": %s,\n "generator": %s,\n'
                % (json.dumps(data['format']), json.dumps(data['generator'])))
        for key in ('layout', 'layout_ops', 'tiledmma'):
            f.write(' "%s": [\n' % key + ',\n'.join('  ' + json.dumps(c) for c in data[key])
                    + '\n ]' +
                    (',\n' if key != 'tiledmma' else '}\n'))

if __name__ == '__main__' and '--ops' in sys.argv:  # only the constructions: the "layout_ops" list
    path = os.path.join(HERE, '..', 'cute_kinds_cases.json')
    data = json.load(open(path))
    ops, od = run(new_op_cases(), 'ops')
    sys.stderr.write('ops: %d kept, %d rejected by C++\n' % (len(ops), od))
    data['layout_ops'] = ops
    write(data)
    raise SystemExit(0)

if __name__ == '__main__':
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(2) as pool:  # the two programs compile in parallel
        jl = pool.submit(run, layout_cases(), 'layout')
        jm = pool.submit(run, tiledmma_cases(), 'mma')
        (lay, ld), (mma, md) = jl.result(), jm.result()
    sys.stderr.write('layout: %d kept, %d rejected by C++; tiledmma: %d kept, %d rejected\n'
                     % (len(lay), ld, len(mma), md))
    path = os.path.join(HERE, '..', 'cute_kinds_cases.json')
    old = json.load(open(path)) if os.path.exists(path) else {}
    write({'format': 'tests/data/README.md (cute_kinds_cases.json)',
           'generator': 'tests/data/cute_kinds/gen.py: CuTe C++ headers, g++ -std=c++20',
           'layout': lay, 'layout_ops': old.get('layout_ops', []), 'tiledmma': mma})
