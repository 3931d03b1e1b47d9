import json,collections,sys,glob
for f in sys.argv[1:]:
    d=json.load(open(f))
    print(f,'load',d['load_average_1m_before'],d['load_average_1m_after'])
    for s in d['sustained']:
        t=s['shape'].get('steps_tail',{})
        st=t.get('tail_edge_starts_s',[])
        b=collections.Counter(int(x*2) for x in st)
        top=b.most_common(2)
        print(f"   {s['target_tasks_per_s']}: ach {s['achieved_tasks_per_s']:.0f} p50 {s['edge_p50_ms']:.1f} p99 {s['edge_p99_ms']:.1f} max {s['edge_max_ms']:.0f} | tail {t.get('tail_edges')} top0.5s {[(n,k/2) for k,n in top]} gcshare {t.get('tail_share_with_gc_pause')}/{t.get('all_share_with_gc_pause')} pauses {t.get('gc_pauses')} max {t.get('gc_pause_max_ms')}")
