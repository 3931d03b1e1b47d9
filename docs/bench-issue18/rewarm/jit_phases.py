"""Compilations and deoptimisations per bench phase, from a recording made with
JAVA_OPTS="-XX:StartFlightRecording:filename=a.jfr,jdk.Compilation#threshold=0ms,jdk.Deoptimization#enabled=true".
Usage: jfr print --json --events jdk.Compilation,jdk.Deoptimization a.jfr > a-comp.json
       python3 jit_phases.py a-comp.json a.err
The phases come from the bench's progress lines (seconds since the bench started, which is within a second of
the JVM's start, taken here as the first compilation)."""
import collections, datetime, json, re, sys

events = json.load(open(sys.argv[1]))['recording']['events']
marks = []
for line in open(sys.argv[2]):
    m = re.match(r'bench:\s+([\d.]+) s\s+(.*)', line)
    if m:
        marks.append((float(m.group(1)), m.group(2)))

def at(e):
    return datetime.datetime.fromisoformat(e['values']['startTime'].replace('Z', '+00:00')).timestamp()

def ms(e):
    v = e['values'].get('duration', 'PT0S')
    return 1000 * sum(float(n) * {'H': 3600, 'M': 60, 'S': 1}[u] for n, u in re.findall(r'([\d.]+)([HMS])', v))

t0 = min(at(e) for e in events)
phases = []
# a round's line is printed when it ends; a step's ('baselines', 'shape …') when it starts
for (a, what), (b, next_what) in zip(marks, marks[1:]):
    if next_what.startswith('warm-up round'):
        phases.append((next_what.split(':')[0], a, b))
    elif what.startswith(('baselines', 'shape')):
        phases.append((what.split(':')[0], a, b))
for name, a, b in phases:
    inside = [e for e in events if a <= at(e) - t0 < b]
    comp = [e for e in inside if e['type'] == 'jdk.Compilation']
    deopt = [e for e in inside if e['type'] == 'jdk.Deoptimization']
    top = collections.Counter()
    for e in comp:
        m = e['values']['method']
        top[m['type']['name'].split('/')[-1] + '.' + m['name']] += ms(e)
    print('%-26s %6.1f s  %4d compilations %6.0f ms  %4d deoptimisations   largest: %s' % (
        name, b - a, len(comp), sum(ms(e) for e in comp), len(deopt),
        ', '.join('%s %.0f' % kv for kv in top.most_common(3))))
