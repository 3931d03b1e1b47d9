import json,glob,sys
d=sys.argv[1]
for f in sorted(glob.glob(d+'/*.json')):
    j=json.load(open(f)); n=f.split('/')[-1][:-5]
    w=len(j['warmup']); w2=len(j.get('warmup_after_baselines',[]))
    line='%-3s warm %2d+%d  two-hop p50 %.3f  chain edge p50 %.3f (%.2fx) chain10 %.2fx |' % (n,w,w2,j['kafka_two_hop_p50_ms'],j['edge_p50_ms'],j['ratios']['edge_p50_over_kafka_two_hop_p50'],j['chain10_in_edge_p50s']['makespan'])
    for s in ('chain','runs','wide'):
        x=j['shapes'][s]; cpu=x['cpu_us_per_task']
        line+=' %s %5.0f/s cpu %5.0f jvm %4.0f jit %4.0fms |' % (s, x['tasks_per_s'], sum(cpu.values()), cpu['jvm_internal'], x['jit_compile_ms'])
    print(line)
