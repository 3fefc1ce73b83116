# Gathers the recorded CUTLASS core cases and the pycute/oracle-noted/issue cases into one list of
# {id, op, args, src} (args in tessera's oracle form), ready for cppgen (all-static C++ results).
import json, re
cases = []
def add(op, args, src, extra=None):
    c = {'id': '%s_%03d'
         % (src.split('/')[-1].split('.')[0], sum(1 for x in cases if x['src'] == src)), 'op': op,
         'args': args, 'src': src}
    if extra: c.update(extra)
    cases.append(c)
def norm(s):  # C++'s print -> oracle notation
    return re.sub(r'Sw<(-?\d+),(-?\d+),(-?\d+)>o(-?\d+)o', r'Sw<\1,\2,\3> o \4 o ', s)
for f in ['coalesce','complement','composition','inverse_left','inverse_right','logical_divide',
          'logical_product','nullspace']:
    for line in open(f + '.jsonl'):
        r = json.loads(line)
        if any('@' in v for v in r['v']): continue    # ArithTuple (E<i>) strides: out of scope
        *args, res = [norm(v) for v in r['v']]
        add(r['op'], args, 'cutlass/test/unit/cute/core/%s.cpp' % f, {'cpp_recorded': res})
for line in open('pycute.jsonl'):
    r = json.loads(line)
    args = r['args']
    if r['op'] == 'complement' and len(args) == 1: args = args  # C++: cotarget = cosize(filter(L))
    add(r['op'], args, r['src'])
for line in open('noted.jsonl'):
    r = json.loads(line)
    add(r['op'], r['args'], 'oracle (pycute and C++ disagree)', {'oracle_id': r['id']})
for line in open('edge_cases.jsonl'):
    r = json.loads(line)
    add(r['op'], r['args'], 'edge cases')
for c in cases: print(json.dumps(c))
