import json,glob,sys
d=sys.argv[1]
rows=[]
for f in sorted(glob.glob(d+'/*.json')):
    j=json.load(open(f)); n=f.split('/')[-1][:-5]
    b=j.get('baselines',{})
    for s in ('chain','runs','wide'):
        x=j['shapes'][s]; a=x['allocated_kb_per_task']
        cpu=x['cpu_us_per_task']
        print('%-4s %-6s tps %6.0f  edge p50 %6.3f  cpu %5.0f (sched %4.0f worker %4.0f clients %4.0f broker %4.0f jvm %4.0f redis %4.0f)  alloc %6.1f (sched %5.1f worker %5.1f broker %5.1f clients %4.1f)' % (
            n, s, x.get('tasks_per_s',-1), x['edge']['p50_ms'] if 'edge' in x and isinstance(x['edge'],dict) and 'p50_ms' in x['edge'] else x.get('edge_p50_ms',-1),
            sum(cpu.values()), cpu['scheduler'], cpu['worker'], cpu['kafka_clients'], cpu['broker_and_other'], cpu['jvm_internal'], cpu['redis_server'],
            a['total'], a['scheduler'], a['worker'], a['broker_and_other'], a['kafka_clients']))
