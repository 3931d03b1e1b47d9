import json,glob,sys
d=sys.argv[1]
for f in sorted(glob.glob(d+'/*.json')):
    j=json.load(open(f)); n=f.split('/')[-1][:-5]
    line='%-4s' % n
    for s in ('runs','wide'):
        x=j['shapes'][s]; cpu=x['cpu_us_per_task']; k=x['kafka_requests_per_task']
        line+=' | %s %4.0f/s cpu %4.0f (sch %3.0f wrk %3.0f kc %3.0f brk %3.0f jvm %3.0f red %3.0f) kreq %.2f (p %.2f f %.2f) rt %.2f alloc %.0f' % (s, x['tasks_per_s'], sum(cpu.values()), cpu['scheduler'],cpu['worker'],cpu['kafka_clients'],cpu['broker_and_other'],cpu['jvm_internal'],cpu['redis_server'], k['total'],k['produce'],k['fetch'],x['redis_round_trips_per_task'],x['allocated_kb_per_task']['total'])
    print(line)
