# Summarizes a pods.sh run: per role, the JVM's resident memory at most and at the end, the cgroup's usage at most
# (page cache included), the heap NMT saw committed and the rest committed beside it, and GC pauses.
import re, sys, glob, os
d = sys.argv[1]
rows = [l.split() for l in open(f'{d}/mem.txt') if l.strip()]
roles = ['scheduler', 'api', 'pool']
for role in roles:
    vm = []; usage = []
    for r in rows:
        i = r.index(role)
        if r[i + 4] != 'dead':
            vm.append(int(r[i + 4]) / 1024); usage.append(int(r[i + 1]) / 1048576)
    nmt = open(f'{d}/nmt-{role}.txt').read() if os.path.exists(f'{d}/nmt-{role}.txt') else ''
    tot = re.search(r'Total: reserved=\d+KB, committed=(\d+)KB', nmt)
    heap = re.search(r'Java Heap \(reserved=(\d+)KB, committed=(\d+)KB', nmt)
    side = f'heap max {int(heap.group(1))/1024:.0f} MiB committed {int(heap.group(2))/1024:.0f}, beside it {(int(tot.group(1))-int(heap.group(2)))/1024:.0f} MiB (NMT)' if tot and heap else 'no NMT (dead)'
    print(f'{role}: JVM RSS max {max(vm):.0f} MiB, last {vm[-1]:.0f} MiB; cgroup usage max {max(usage):.0f} MiB; {side}')
for f in sorted(glob.glob(f'{d}/gc-*.log')) + sorted(glob.glob(f'{d}/gc-*.txt')):
    t = open(f).read()
    ps = sorted(float(m.group(1)) for m in re.finditer(r'Pause .*? ([\d.]+)ms', t))
    if ps:
        print(f'  {os.path.basename(f)}: {t.split()[2] if "Using" in t else ""} {len(ps)} pauses, p50 {ps[len(ps)//2]:.1f} ms, p99 {ps[int(len(ps)*.99)]:.1f}, max {ps[-1]:.1f}; full {t.count("Pause Full")}')
