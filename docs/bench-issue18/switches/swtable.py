import json,glob,sys
d=sys.argv[1]; sides=sys.argv[2:]
G=["scheduler","worker","kafka_clients","broker_and_other","bench","jvm_internal","redis_server","total","involuntary"]
for shape in ('runs','wide','chain'):
    print('##',shape)
    print('| side | '+' | '.join(G)+' | ti/s | CPU µs/ti | worker CPU µs/ti |')
    for side in sides:
        fs=sorted(glob.glob('%s/%s[0-9].json'%(d,side)))
        vals={g:[] for g in G}; tps=[];cpu=[];wcpu=[]
        for f in fs:
            x=json.load(open(f))['shapes'][shape]; sw=x['context_switches_per_task']
            for g in G: vals[g].append(sw[g])
            tps.append(x['tasks_per_s']); c=x['cpu_us_per_task']; cpu.append(sum(c.values())); wcpu.append(c['worker'])
        rng=lambda v: '%.2f–%.2f'%(min(v),max(v)) if v else '-'
        rngi=lambda v: '%.0f–%.0f'%(min(v),max(v)) if v else '-'
        print('| %s (%d) | '%(side,len(fs))+' | '.join(rng(vals[g]) for g in G)+' | %s | %s | %s |'%(rngi(tps),rngi(cpu),rngi(wcpu)))
