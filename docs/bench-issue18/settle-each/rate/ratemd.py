import json,glob,sys
d=sys.argv[1]
def key(f):
    n=f.split('/')[-1][:-5]; return (int(n[1:]), 0 if n[0]=='L' else 1)
print('| run | load before | 1,500/s | 2,000/s | 2,500/s |')
print('|---|---|---|---|---|')
for f in sorted(glob.glob(d+'/*.json'), key=key):
    j=json.load(open(f)); n=f.split('/')[-1][:-5]
    cells={}
    for s in j['sustained']:
        sh=s['shape']; cpu=sum(sh['cpu_us_per_task'].values())
        cells[s['target_tasks_per_s']]='{:,} → {:,}, {:.1f} / {:.1f}, lag {:,}, {:.2f} RT, {:,} µs'.format(round(s['requested_tasks_per_s']), round(s['achieved_tasks_per_s']), s['edge_p50_ms'], s['edge_p99_ms'], s['kafka_lag_max'], sh['redis_round_trips_per_task'], round(cpu))
    print('| %s | %.1f | %s | %s | %s |' % (n, j['load_average_1m_before'], cells.get(1500,'–'), cells.get(2000,'–'), cells.get(2500,'not run')))
