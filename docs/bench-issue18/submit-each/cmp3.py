import json,glob,sys
d=sys.argv[1]
rows=[]
for f in sorted(glob.glob(d+'/*.json'), key=lambda f:(f[-6:-5], f)):
    j=json.load(open(f)); n=f.split('/')[-1][:-5]
    line='%-4s two-hop %.2f edge %.2f (%.2fx) c10 %.2f |' % (n, j['kafka_two_hop_p50_ms'], j['edge_p50_ms'], j['ratios']['edge_p50_over_kafka_two_hop_p50'], j['chain10_in_edge_p50s']['makespan'])
    for s in ('chain','runs','wide'):
        x=j['shapes'][s]; cpu=x['cpu_us_per_task']; sw=x.get('context_switches_per_task',{})
        line+=' %s %4.0f/s cpu %4.0f wrk %3.0f sw %5.2f (wrk %4.2f sch %4.2f red %4.2f) rt %.2f |' % (s, x['tasks_per_s'], sum(cpu.values()), cpu['worker'], sw.get('total',-1), sw.get('worker',-1), sw.get('scheduler',-1), sw.get('redis_server',-1), x['redis_round_trips_per_task'])
    print(line)
