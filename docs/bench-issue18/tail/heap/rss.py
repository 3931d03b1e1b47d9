import sys
# the bench JVM's resident memory from a sampler file: the most, and when it first came within 5 % of that
for f in sys.argv[1:]:
    r=[(int(l.split()[0]),int(l.split()[-1])) for l in open(f) if len(l.split())>=22]
    r=[x for x in r if x[1]>0]
    if not r: print(f,'no samples'); continue
    top=max(v for _,v in r); t0=r[0][0]
    near=next(t for t,v in r if v>=0.95*top)
    print(f"{f}: first {r[0][1]/1024:.0f} MiB, most {top/1024:.0f} MiB, within 5 % of it from {(near-t0)/1000:.0f} s of {(r[-1][0]-t0)/1000:.0f} s")
