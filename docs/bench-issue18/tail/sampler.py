#!/usr/bin/env python3
# every 100 ms: epoch ms, the machine's CPU jiffies by kind (/proc/stat), and this process's worst oversleep of a
# 1 ms sleep in that window (a process outside the JVM: a stall it sees is the machine's, not the service's)
import time, sys
out = open(sys.argv[1], 'w')
end = time.time() + float(sys.argv[2])
def cpu():
    with open('/proc/stat') as f:
        return f.readline().split()[1:9]  # user nice system idle iowait irq softirq steal
while time.time() < end:
    w0 = time.time(); worst = 0.0
    while time.time() - w0 < 0.1:
        t = time.perf_counter(); time.sleep(0.001); worst = max(worst, time.perf_counter() - t - 0.001)
    out.write('%d %s %.2f\n' % (time.time() * 1000, ' '.join(cpu()), worst * 1000))
    out.flush()
