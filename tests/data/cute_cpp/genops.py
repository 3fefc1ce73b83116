# Cases for the ops added to tessera (layout_ops.hpp), with the C++ expression that computes each.
import json, random, sys
sys.path.insert(0, '/tmp/cute/port')
from cppgen import expr, ty, parse
random.seed(15)
def lay(shape, stride):
    def f(x): return str(x) if isinstance(x, int) else '(' + ','.join(f(y) for y in x) + ')'
    return f(shape) + ':' + f(stride)
def rshape(maxr=3, ext=(1, 2, 3, 4, 6, 8)):
    return tuple(random.choice(ext) for _ in range(random.randint(1, maxr)))
def flat_layout(pow2=False, zero=0.15, maxr=3):
    ext = (1, 2, 4, 8) if pow2 else (1, 2, 3, 4, 6, 8)
    s = rshape(maxr, ext)
    d = []
    for x in s:
        r = random.random()
        d.append(0 if r < zero
                 else random.choice((1, 2, 4, 8, 16, 32, 64) if pow2
                                    else (1, 2, 3, 4, 6, 8, 12, 16, 24)))
    if len(s) == 1: return lay(s[0], d[0])
    return lay(s, tuple(d))
def compact(shape, row=False):
    d, p = [], 1
    idx = range(len(shape) - 1, -1, -1) if row else range(len(shape))
    out = [0] * len(shape)
    for i in idx:
        out[i] = 0 if shape[i] == 1 else p; p *= shape[i]
    return tuple(out)
def perm_layout():
    s = rshape(3, (2, 4, 8)); order = list(range(len(s))); random.shuffle(order)
    d = [0] * len(s); p = 1
    for i in order: d[i] = p; p *= s[i]
    return lay(s, tuple(d)) if len(s) > 1 else lay(s[0], d[0])
cases = []
def add(op, args, e):
    cases.append({'op': op, 'args': args, 'expr': e,
                  'src': 'tessera ops (operands drawn at random), C++ reference'})
for _ in range(30):
    L = flat_layout(); add('nullspace', [L], 'nullspace(%s)' % expr(L))
    L = flat_layout(); add('make_layout_like', [L], 'make_layout_like(%s)' % expr(L))
    s = rshape(4); o = tuple(random.randint(0, 5) for _ in s)
    f = lambda t: '(' + ','.join(map(str, t)) + ')'
    add('make_ordered_layout', [f(s), f(o)], 'make_ordered_layout(%s{}, %s{})' % (ty(s), ty(o)))
    add('compact_col_major', [f(s)], 'make_layout(%s{})' % ty(s))
    add('compact_row_major', [f(s)], 'make_layout(%s{}, LayoutRight{})' % ty(s))
    L = flat_layout(pow2=True); n = random.choice((2, 4, 8))
    add('upcast', [L, n], 'upcast<%d>(%s)' % (n, expr(L)))
    L = flat_layout(pow2=True, zero=0.05); n = random.choice((2, 4))
    add('downcast', [L, n], 'downcast<%d>(%s)' % (n, expr(L)))
    L = flat_layout(pow2=True); a, b = random.sample((8, 16, 32, 64), 2)
    add('recast_layout', [L, a, b],
        'recast_layout<cute::uint_bit_t<%d>, cute::uint_bit_t<%d>>(%s)' % (a, b, expr(L)))
    A = perm_layout(); B = random.choice((A, perm_layout(), flat_layout(pow2=True)))
    if parse(A)[0] == 'L':
        add('max_common_layout', [A, B], 'max_common_layout(%s, %s)' % (expr(A), expr(B)))
        add('max_common_vector', [A, B], 'max_common_vector(%s, %s)' % (expr(A), expr(B)))
    blk = flat_layout(maxr=2, zero=0.1); bs = parse(blk)[1]
    bs = bs if isinstance(bs, tuple) else (bs,)
    tgt = tuple(x * random.choice((1, 2, 3)) for x in bs) + \
        tuple(random.choice((2, 4)) for _ in range(random.randint(0, 1)))
    if random.random() < 0.2: tgt = tuple(x + 1 for x in tgt)
    row = random.random() < 0.3
    add('tile_to_shape', [blk, f(tgt)] + (['row'] if row else []),
        'tile_to_shape(%s, %s{}%s)' % (expr(blk), ty(tgt), ', LayoutRight{}' if row else ''))
# worked examples of CuTe's comments and docs
add('make_ordered_layout', ['(2,2,2,2)', '(0,2,3,1)'],
    'make_ordered_layout(Shape<_2,_2,_2,_2>{}, Step<_0,_2,_3,_1>{})')
add('make_layout_like', ['(2,2,2,2):(0,2,4,1)'],
    'make_layout_like(Layout<Shape<_2,_2,_2,_2>, Stride<_0,_2,_4,_1>>{})')
add('tile_to_shape', ['Sw<3,4,3> o 0 o (8,64):(64,1)', '(128,64)'],
    'tile_to_shape(composition(Swizzle<3,4,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), '
    'Shape<_128,_64>{})')
add('tile_to_shape', ['Sw<3,4,3> o 0 o (64,8):(1,64)', '(128,64)'],
    'tile_to_shape(composition(Swizzle<3,4,3>{}, Layout<Shape<_64,_8>,Stride<_1,_64>>{}), '
    'Shape<_128,_64>{})')
for i, c in enumerate(cases): c['id'] = 'ops_%03d' % i
for c in cases: print(json.dumps(c))
