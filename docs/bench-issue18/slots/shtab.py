import json,sys
print('| run | shape | ti/s | CPU µs/ti | switches/ti | edge p50 / p99 ms | submitted→started p50 ms | Redis RT/ti |')
print('|---|---|---|---|---|---|---|---|')
for f in sys.argv[1:]:
  d=json.load(open(f)); name=f.split('/')[-1][:-5]
  for sh in ('runs','wide','chain'):
    s=d['shapes'].get(sh)
    if not s: continue
    print(f"| {name} | {sh} | {s['tasks_per_s']:.0f} | {sum(s['cpu_us_per_task'].values()):.0f} | {s['context_switches_per_task']['total']:.2f} | {s['edge_p50_ms']:.2f} / {s['edge_p99_ms']:.1f} | {s['submitted_to_started_p50_ms']:.2f} | {s.get('redis_round_trips_per_task')} |")
  r=d.get('ratios',{})
  print(f"| {name} | chain edge÷two-hop {r.get('edge_p50_over_kafka_two_hop_p50')} | 10-node in edge p50s {d.get('chain10_in_edge_p50s',{}).get('makespan')} | load {d['load_average_1m_before']}→{d['load_average_1m_after']} |")
