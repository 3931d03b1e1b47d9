#!/usr/bin/env python3
"""One row per run: runs and wide throughput, CPU, switches, Redis round trips and Kafka requests per instance,
submitted -> started p50, and the chain edge over the two-hop. Usage: tab.py DIR NAME..."""
import json, sys, os
d = sys.argv[1]
print("| run | slots | `runs` ti/s | CPU µs | switches | Redis RT | Kafka req | submitted → started p50 ms | `wide` ti/s | CPU µs | switches | Redis RT | chain edge ÷ two-hop |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for name in sys.argv[2:]:
    j = json.load(open(os.path.join(d, name + ".json")))
    s = j["shapes"]
    r, w = s["runs"], s["wide"]
    cpu = lambda x: sum(x["cpu_us_per_task"].values())
    sw = lambda x: x["context_switches_per_task"]["total"]
    print(f"| {name} | {j['options'].get('default_slots')} | {r['tasks_per_s']:,.0f} | {cpu(r):.0f} | {sw(r):.2f} | "
          f"{r['redis_round_trips_per_task']:.2f} | {r['kafka_requests_per_task']['total']:.2f} | {r['submitted_to_started_p50_ms']:.0f} | "
          f"{w['tasks_per_s']:,.0f} | {cpu(w):.0f} | {sw(w):.2f} | {w['redis_round_trips_per_task']:.2f} | "
          f"{j['chain_edge_p50_ms'] / j['kafka_two_hop_p50_ms']:.2f}× |")
