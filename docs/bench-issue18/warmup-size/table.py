#!/usr/bin/env python3
"""The table of docs/performance.md, "Warm-up rounds at the measured sizes": one line per run, in run order."""
import json, sys
runs = sys.argv[1:] or ["L1", "L300", "N2", "L2", "L3", "N3", "N4", "L4"]
print("| run | warm-up rounds (after the baselines) | `runs` JIT % of wall | `runs` ti/s | `runs` CPU µs (GC+JIT) | `wide` ti/s | `wide` CPU µs | chain edge p50 ms |")
print("|---|---|---|---|---|---|---|---|")
for r in runs:
    d = json.load(open(r + ".json"))
    s = d["shapes"]
    def cpu(shape):
        c = s[shape]["cpu_us_per_task"]
        return sum(v for k, v in c.items() if k != "bench"), c["jvm_internal"]
    rc, rj = cpu("runs")
    wc, _ = cpu("wide")
    print(f"| {r} | {len(d['warmup'])} ({len(d['warmup_after_baselines'])}) | {100 * s['runs']['jit_share_of_wall']:.0f} "
          f"| {s['runs']['tasks_per_s']:,.0f} | {rc:.0f} ({rj:.0f}) | {s['wide']['tasks_per_s']:,.0f} | {wc:.0f} "
          f"| {s['chain']['edge_p50_ms']:.2f} |")
