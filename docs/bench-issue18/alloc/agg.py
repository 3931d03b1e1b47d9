import json, sys, collections, re
d = json.load(open(sys.argv[1]))
ev = d['recording']['events']
by_thread = collections.Counter(); by_frame = collections.Counter(); by_swale = collections.Counter(); by_class=collections.Counter()
by_swale_thread=collections.defaultdict(collections.Counter)
total=0
def group(name):
    n = re.sub(r'\d+', '#', name)
    return n
for e in ev:
    v = e['values']; w = v['weight']; total += w
    t = v.get('eventThread') or {}
    tn = group(t.get('javaName') or t.get('osName') or '?')
    by_thread[tn] += w
    st = (v.get('stackTrace') or {}).get('frames') or []
    cls = (v.get('objectClass') or {}).get('name','?')
    by_class[cls]+=w
    if st:
        f = st[0]['method']; by_frame[f['type']['name'] + '.' + f['name']] += w
    sw = None
    for fr in st:
        tname = fr['method']['type']['name']
        if tname.startswith('io.swale') or tname.startswith('io/swale'):
            sw = tname + '.' + fr['method']['name'] + ':' + str(fr.get('lineNumber')); break
    by_swale[sw or '(none)'] += w
    by_swale_thread[tn][sw or '(none)'] += w
print('total MB', total/1e6)
for title, c in [('thread', by_thread), ('top frame', by_frame), ('first swale frame', by_swale), ('class', by_class)]:
    print('==', title)
    for k, w in c.most_common(int(sys.argv[2]) if len(sys.argv)>2 else 30):
        print('%6.2f%%  %s' % (100*w/total, k))
for tn, c in sorted(by_swale_thread.items(), key=lambda kv: -sum(kv[1].values()))[:6]:
    print('== thread', tn, '%.1f%%' % (100*sum(c.values())/total))
    for k, w in c.most_common(15):
        print('   %6.2f%%  %s' % (100*w/total, k))
