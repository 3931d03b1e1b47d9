import json,sys
for f in sys.argv[1:]:
  d=json.load(open(f))
  for s in d['sustained']:
    sh=s['shape']
    print(f.split('/')[-1], s['target_tasks_per_s'], round(s['requested_tasks_per_s']), round(s['achieved_tasks_per_s']), 'edge p50/p99', round(s['edge_p50_ms'],1), round(s['edge_p99_ms'],1), 'req->settled p99', round(s['requested_to_settled_p99_ms']), 'lag', s['kafka_lag_max'], 'cpu', round(sum(sh['cpu_us_per_task'].values())), 'rt', sh.get('redis_round_trips_per_task'), 'sw', sh['context_switches_per_task']['total'], 'load', d['load_average_1m_before'], d['load_average_1m_after'])
