import json,sys
def cpu(s):
    c=s['cpu_us_per_task']; tot=sum(c.values()); return tot, c.get('jvm_internal',0)
rows=[]
for n in sys.argv[1:]:
    d=json.load(open(n+'.json'))
    w=d['warmup']; sh=d['shapes']
    r=sh['runs']; wd=sh['wide']; ch=sh['chain']
    rt,rj=cpu(r); wt,wj=cpu(wd)
    st=d['edge_steps']
    print(f"| {n} | {d['load_average_1m_before']:.1f} | {len(w)} ({100*w[-1]['jit_share_of_wall']:.0f} %) | {d['kafka_two_hop_p50_ms']:.2f} | {d['edge_p50_ms']:.2f} ({d['ratios']['edge_p50_over_kafka_two_hop_p50']:.2f}×) | {d['ratios']['edge_p99_over_kafka_two_hop_p99']:.2f}× | "
          f"{st['run_read']['p50_ms']:.2f} / {st['submit_script']['p50_ms']:.2f} / {st['claim_script']['p50_ms']:.2f} | {st['hand_off']['mean_ms']:.2f} / {st['finish_script']['mean_ms']:.2f} | "
          f"{d['chain10_in_edge_p50s']['makespan']:.2f}× | {r['tasks_per_s']:,.0f} | {rt:,.0f} ({rj:,.0f}) | {wd['tasks_per_s']:,.0f} | {wt:,.0f} ({wj:,.0f}) | {100*r['jit_share_of_wall']:.0f} % |")
