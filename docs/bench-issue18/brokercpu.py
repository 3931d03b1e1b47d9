import re,sys
for lab in sys.argv[1:]:
    t0=int(open(f'/tmp/legs/ext/benchstart-{lab}.txt').read())
    prog=[(float(m.group(1)),m.group(2)) for m in re.finditer(r'^bench:\s+([\d.]+) s\s+(.*)$',open(f'/tmp/legs/{lab}.txt').read(),re.M)]
    S=[tuple(map(int,l.split())) for l in open(f'/tmp/legs/ext/brokercpu-{lab}.txt') if len(l.split())==2]
    cpu_at=lambda ms: min(S,key=lambda s:abs(s[0]-ms))
    for i,(s,name) in enumerate(prog[:-1]):
        a=cpu_at(t0+s*1000); b=cpu_at(t0+prog[i+1][0]*1000)
        print(f'{lab}  {name[:50]:50s} {prog[i+1][0]-s:6.1f} s  broker JVM CPU {(b[1]-a[1])*10} ms')
