import json,sys
# per phase: the JVM's minor faults during the phase, and the 0.5 s windows with > 2,000 faults
d=json.load(open(sys.argv[1])); samp=[]
for l in open(sys.argv[2]):
    x=l.split()
    if len(x)<21: continue
    samp.append((int(x[0]),int(x[12]),int(x[11]),sum(int(v) for v in x[1:9]),int(x[3])))
for s in d['sustained']:
    t=s['shape']['steps_tail']; e0=t['first_edge_epoch_ms']; e1=e0+30000
    inn=[v for v in samp if e0<=v[0]<=e1]
    if len(inn)<2: print('no samples'); continue
    flt=inn[-1][1]-inn[0][1]; jsys=inn[-1][2]-inn[0][2]
    storms=[]
    for i in range(5,len(inn),5):
        f=inn[i][1]-inn[i-5][1]
        if f>2000: storms.append((round((inn[i][0]-e0)/1000,1),f))
    print(f"  p99 {s['edge_p99_ms']:.1f} busiest {t.get('busiest_half_second_tail_edges')}@{t.get('busiest_half_second_start_s')} faults {flt} jvm_sys_jiffies {jsys} storms {storms}")
