import json, sys, glob, os
rows = []
for f in sorted(glob.glob('/work/pair/*.json'), key=os.path.getmtime):
    d = json.load(open(f)); s = d['shapes']
    def cpu(sh): return sum(s[sh]['cpu_us_per_task'].values())
    def red(sh): return s[sh]['cpu_us_per_task']['redis_server']
    def ev(sh): return s[sh]['redis_by_command_per_task'].get('evalsha', {}).get('server_us', 0)
    r = d['ratios']
    print('%-4s edge %.3f two-hop %.3f ratio %.2f chain10 %.2f | runs %5.0f/s %3.0f us (redis %3.0f, evalsha %3.0f) | wide %5.0f/s %3.0f us (redis %3.0f, evalsha %3.0f)' % (
        os.path.basename(f)[:-5], d['edge_p50_ms'], d['kafka_two_hop_p50_ms'], r['edge_p50_over_kafka_two_hop_p50'],
        d['chain10_in_edge_p50s']['makespan'] if isinstance(d['chain10_in_edge_p50s'], dict) else d['chain10_in_edge_p50s'],
        s['runs']['tasks_per_s'], cpu('runs'), red('runs'), ev('runs'), s['wide']['tasks_per_s'], cpu('wide'), red('wide'), ev('wide')))
