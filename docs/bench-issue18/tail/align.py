import json,sys,statistics
d=json.load(open(sys.argv[1])); samp=[]
for l in open(sys.argv[2]):
    x=l.split()
    if len(x)<21: continue
    samp.append((int(x[0]),[int(v) for v in x[1:9]],int(x[9]),[int(v) for v in x[10:14]],[int(v) for v in x[14:20]],float(x[20])))
for s in d['sustained']:
    t=s['shape']['steps_tail']; e0=t['first_edge_epoch_ms']
    buckets={}
    for x in t['tail_edge_starts_s']: buckets[int(x*2)]=buckets.get(int(x*2),0)+1
    print('phase p99', s['edge_p99_ms'], 'busiest', t.get('busiest_half_second_tail_edges'), '@', t.get('busiest_half_second_start_s'))
    print('   t    tail  busy  sys  kdamond  jvm_user jvm_sys jvm_minflt majflt pgfault pgscan pgsteal thp compact oversleep')
    for half in range(-2,62):
        idx=[i for i in range(1,len(samp)) if int(((samp[i][0]-e0)/1000)*2+100)-100==half]
        if not idx: continue
        a,b=samp[idx[0]-1],samp[idx[-1]]
        dc=[y-x for x,y in zip(a[1],b[1])]; tot=sum(dc)
        dj=[y-x for x,y in zip(a[3],b[3])]; dv=[y-x for x,y in zip(a[4],b[4])]
        print(f"{half/2:5.1f} {buckets.get(half,0):5d} {(tot-dc[3]-dc[4])/tot:.2f} {dc[2]/tot:.2f} {b[2]-a[2]:5d} {dj[0]:8d} {dj[1]:6d} {dj[2]:8d} {dj[3]:4d} {dv[0]:7d} {dv[2]:6d} {dv[3]:6d} {dv[4]:3d} {dv[5]:3d} {max(samp[i][5] for i in idx):6.1f}")
