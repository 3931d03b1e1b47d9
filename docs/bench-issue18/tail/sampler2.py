#!/usr/bin/env python3
# every 100 ms: epoch ms; machine CPU jiffies (user nice system idle iowait irq softirq steal); kdamond's utime+stime;
# the bench JVM's utime, stime, minflt, majflt; /proc/vmstat pgfault pgmajfault pgscan/pgsteal sums; worst oversleep;
# the bench JVM's resident kB (this last column came with heap/thp.sh; the runs before it do not have it)
import time, sys, os, glob
out = open(sys.argv[1], 'w'); end = time.time() + float(sys.argv[2])
def cpu():
    with open('/proc/stat') as f: return f.readline().split()[1:9]
def pstat(pid):
    try:
        with open('/proc/%s/stat' % pid) as f: x = f.read().rsplit(')', 1)[1].split()
        return [x[11], x[12], x[7], x[9]]  # utime stime minflt majflt
    except OSError: return ['0'] * 4
def jvm():
    for p in glob.glob('/proc/[0-9]*/cmdline'):
        try:
            c = open(p, 'rb').read()
            if b'java' in c and b'bench' in c: return p.split('/')[2]
        except OSError: pass
    return None
def vm():
    v = {}
    for l in open('/proc/vmstat'):
        k, n = l.split(); v[k] = int(n)
    scan = sum(n for k, n in v.items() if k.startswith('pgscan')); steal = sum(n for k, n in v.items() if k.startswith('pgsteal'))
    return [v.get('pgfault', 0), v.get('pgmajfault', 0), scan, steal, v.get('thp_fault_alloc', 0), v.get('compact_stall', 0)]
def rss(pid):
    try:
        for l in open('/proc/%s/status' % pid):
            if l.startswith('VmRSS:'): return int(l.split()[1])
    except (OSError, TypeError): pass
    return 0
pid = None
while time.time() < end:
    if pid is None or not os.path.exists('/proc/%s' % pid): pid = jvm()
    w0 = time.time(); worst = 0.0
    while time.time() - w0 < 0.1:
        t = time.perf_counter(); time.sleep(0.001); worst = max(worst, time.perf_counter() - t - 0.001)
    k = pstat(83)
    out.write('%d %s %d %s %s %.2f %d\n' % (time.time() * 1000, ' '.join(cpu()), int(k[0]) + int(k[1]),
              ' '.join(pstat(pid) if pid else ['0'] * 4), ' '.join(map(str, vm())), worst * 1000, rss(pid)))
    out.flush()
