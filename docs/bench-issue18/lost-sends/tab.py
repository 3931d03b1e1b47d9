import json,sys,glob,os
names=sys.argv[1:] or sorted(os.path.basename(f)[:-5] for f in glob.glob('/work/prof/s52/out/*.json'))
def cpu(s): return sum(s['cpu_us_per_task'].values())
print("| run | load | runs ti/s | runs CPU µs | worker µs | cs/ti (worker) | alloc KB | Redis rt/ti | sub→start p50 | wide ti/s | wide CPU µs | wide cs/ti | edge p50 ms | 2-hop p50 | chain10 ×edge |")
print("|"+"---|"*15)
for n in names:
    try: d=json.load(open(f'/work/prof/s52/out/{n}.json'))
    except Exception: continue
    r=d['shapes']['runs']; w=d['shapes']['wide']
    print(f"| {n} | {d['load_average_1m_before']:.1f} | {r['tasks_per_s']:,.0f} | {cpu(r):.0f} | {r['cpu_us_per_task']['worker']:.0f} | {r['context_switches_per_task']['total']:.2f} ({r['context_switches_per_task']['worker']:.2f}) | {r['allocated_kb_per_task']['total']:.1f} | {r['redis_round_trips_per_task']:.2f} | {r['submitted_to_started_p50_ms']:.0f} | {w['tasks_per_s']:,.0f} | {cpu(w):.0f} | {w['context_switches_per_task']['total']:.2f} | {d['edge_p50_ms']:.2f} | {d['kafka_two_hop_p50_ms']:.2f} | {d['chain10_in_edge_p50s']['makespan']:.2f} |")
