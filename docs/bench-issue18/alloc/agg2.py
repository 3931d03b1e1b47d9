import json, sys, collections, re
d = json.load(open(sys.argv[1]))
pat = sys.argv[2]; depth=int(sys.argv[3])
c = collections.Counter(); total=0
for e in d['recording']['events']:
    v = e['values']; w = v['weight']; total += w
    t = (v.get('eventThread') or {}).get('javaName') or ''
    if pat not in t: continue
    st = (v.get('stackTrace') or {}).get('frames') or []
    sw = [fr['method']['type']['name'].split('/')[-1] + '.' + fr['method']['name'] + ':' + str(fr.get('lineNumber')) for fr in st if fr['method']['type']['name'].startswith('io/swale')][:depth]
    c[' < '.join(sw)] += w
for k, w in c.most_common(40):
    print('%6.2f%%  %s' % (100*w/total, k))
