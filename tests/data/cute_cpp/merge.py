# Writes tests/data/cute_cpp_cases.json from the cases with their C++ results (cppgen output).
import json, re, sys
out = {'format': 'cases: {id, src, op, args, expected (CuTe C++, all integers static, printed '
       'without '
                  'underscores) | error: true (C++ rejects: a static assertion), recorded (what '
                  'NVIDIA\'s '
                  'own test printed, its integers possibly run-time), difference + tessera (a '
                  'documented '
                  'deliberate difference: what tessera does instead)}',
       'generator': 'tests/data/cute_cpp/ (cppgen.py and friends) with CuTe C++ from CUTLASS '
       '7107b05535f8977f5ecb9d01ee203205b1fd9bc4, g++ 12',
       'cases': []}
diffs = json.load(open(sys.argv[1])) if len(sys.argv) > 1 else {}
def norm(s):
    return re.sub(r'Sw<(-?\d+),(-?\d+),(-?\d+)>o(-?\d+)o', r'Sw<\1,\2,\3> o \4 o ', s)
seen = set()
for f in ['all_cpp.jsonl', 'nvlabs_cpp.jsonl', 'nvlabs_new_cpp.jsonl', 'ops_cpp.jsonl']:
    for line in open(f):
        c = json.loads(line)
        key = (c['op'], json.dumps(c['args']), c['src'])
        if key in seen: continue
        seen.add(key)
        cid = c['id']
        if 'oracle_id' in c: cid = 'oracle_' + c['oracle_id']
        elif c['src'] == 'edge cases': cid = 'edge_' + cid.split('_')[-1]
        r = {'id': cid, 'src': c['src'], 'op': c['op'], 'args': c['args']}
        if c.get('cpp_error'): r['error'] = True
        else: r['expected'] = norm(c['cpp'])
        if 'cpp_recorded' in c: r['recorded'] = c['cpp_recorded']
        if 'oracle_id' in c: r['oracle_id'] = c['oracle_id']
        if cid in diffs: r.update(diffs[cid])
        out['cases'].append(r)
json.dump(out, open('/work/wt-fidelity/tests/data/cute_cpp_cases.json', 'w'), indent=0)
print(len(out['cases']), 'cases')
