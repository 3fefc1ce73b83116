# For cases where C++ accepts and tessera rejects: is C++'s result the by-mode composition
# R(i) = sum_j A(c_j d_j) (c: coordinate of i in B's leaves, A extended past its size)?
import json, math, sys
sys.path.insert(0,'/tmp/cute/port')
from cppgen import parse
def leaves(t):
    if isinstance(t,int): return [t]
    return [x for y in t for x in leaves(y)]
def L(s):
    p=parse(s)
    if p[0]=='T':
        sh=leaves(p[1]); d=[]; acc=1
        for x in sh: d.append(0 if x==1 else acc); acc*=x
        return sh, d
    return leaves(p[1]), leaves(p[2])
def ev(sd, i):
    s,d=sd; off=0
    for k in range(len(s)-1): off += (i % s[k])*d[k]; i//=s[k]
    return off + i*d[-1]
def size(sd): return math.prod(sd[0])
def complement(T, cot):
    m=sorted([(d,s) for s,d in zip(*T) if d!=0 and s!=1])
    rs, rd = [], [1]
    if not m: return ([math.prod(cot)],[1])
    for d,s in m[:-1]:
        rs.append(d//rd[-1]); rd.append(d*s)
    d,s=m[-1]; rs.append(d//rd[-1]); ns=d*s
    rest, left = 1, ns
    for c in cot: rest*=-(-c//left); left=-(-left//c)
    return (rs+[rest], rd+[ns])
def coalesce_shape(A):
    s,d=A; out=[]
    for x,y in zip(s,d):
        if x==1: continue
        if out and out[-1][0]*out[-1][1]==y: out[-1]=(out[-1][0]*x,out[-1][1])
        else: out.append((x,y))
    return [x for x,_ in out] or [1]
def check(c):
    A=L(c['args'][0])
    if c['op']=='composition': B=L(c['args'][1])
    else:
        T=L(c['args'][1]); C=complement(T, coalesce_shape(A)); B=(T[0]+C[0], T[1]+C[1])
    R=L(c['expected'])
    for i in range(size(R)):
        j=i; tot=0
        for k in range(len(B[0])):
            cj = j % B[0][k] if k+1 < len(B[0]) else j
            j//=B[0][k]; tot+=ev(A, cj*B[1][k])
        if tot!=ev(R,i): return (i,ev(R,i),tot)
    return None
if __name__=='__main__':
    d=json.load(open(sys.argv[1]))['cases']
    for c in d:
        if c['op'] not in ('composition', 'logical_divide', 'tiled_divide') \
                or 'expected' not in c or isinstance(c['args'][1], list) \
                or 'Sw' in c['args'][0] + c['args'][1]:
            continue
        if not (c['src'].startswith('oracle') or c['src']=='edge cases'): continue
        bad=check(c)
        print(c['id'], c['op'], c['args'], '->', c['expected'],
              'WRONG at i=%d: C++ %d, by definition %d'%bad if bad else 'ok')
