# usage: logshare.py CPU.json ALLOC.json : logging's share of a recording, from
#   jfr print --json --events jdk.ExecutionSample REC.jfr > CPU.json
#   jfr print --json --events jdk.ObjectAllocationSample REC.jfr > ALLOC.json
import json, sys, collections

def frames(v):
    st = (v.get('stackTrace') or {}).get('frames') or []
    return [f['method']['type']['name'] + '.' + f['method']['name'] for f in st]

def is_logging(names):
    return any(n.startswith('ch/qos') or n.startswith('ch.qos') or n.startswith('org/slf4j') for n in names)

cpu = json.load(open(sys.argv[1]))['recording']['events']
hits = [e for e in cpu if is_logging(frames(e['values']))]
print('execution samples %d, in logging %d (%.1f %%)' % (len(cpu), len(hits), 100 * len(hits) / len(cpu)))
by_thread = collections.Counter(((e['values'].get('sampledThread') or {}).get('javaName') or '?')[:14] for e in hits)
print('  by thread:', by_thread.most_common(6))

alloc = json.load(open(sys.argv[2]))['recording']['events']
total = sum(e['values']['weight'] for e in alloc)
logw = collections.Counter()
for e in alloc:
    names = frames(e['values'])
    if is_logging(names):
        top = next((n for n in names if not n.startswith('java') and not n.startswith('jdk')), '?')
        logw[top] += e['values']['weight']
s = sum(logw.values())
print('allocation sampled %.0f MB, in logging %.0f MB (%.1f %%); within it, by first frame outside the JDK:'
      % (total / 1e6, s / 1e6, 100 * s / total))
for k, w in logw.most_common(10):
    print('  %5.1f %%  %s' % (100 * w / s, k))
