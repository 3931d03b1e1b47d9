# usage: python3 steps-table.py STEPS.tsv ...  (the files StartupProbe.java writes): one column per start,
# milliseconds per step of the start, from the JVM's start to the ready event.
import sys
def load(f):
    rows=[l.rstrip('\n').split('\t') for l in open(f)][1:]
    return [dict(id=int(r[0]),parent=r[1],start=int(r[2]),end=int(r[3]),dur=int(r[4]),name=r[5],tags=r[6]) for r in rows]
def phases(f):
    rs=load(f)
    one=lambda n:[r for r in rs if r['name']==n][0]
    st=one('spring.boot.application.starting'); env=one('spring.boot.application.environment-prepared')
    cp=one('spring.boot.application.context-prepared'); pp=one('spring.context.beans.post-process')
    ws=one('spring.boot.webserver.create'); rf=one('spring.context.refresh')
    si=[r for r in rs if r['name']=='spring.beans.smart-initialize']
    first_si=min(r['start'] for r in si); last_si=max(r['end'] for r in si)
    ready=one('spring.boot.application.ready')
    return [('JVM start -> SpringApplication starting',st['start']),
     ('environment prepared (config files, logging)',env['end']-st['start']),
     ('initializers: embedded redis-server, broker launched',cp['start']-env['end']),
     ('configuration classes: parse, conditions, scan',pp['end']-cp['start']),
     ('Tomcat created',ws['dur']),
     ('beans instantiated',first_si-ws['end']),
     ('after-singletons (gate, topic creation, ...)',last_si-first_si),
     ('lifecycle start (listeners, Tomcat, Quartz)',rf['end']-last_si),
     ('refresh end -> ready event',ready['end']-rf['end']),
     ('total JVM start -> ready',ready['end'])]
cols=[phases(f) for f in sys.argv[1:]]
print('| step | '+' | '.join(sys.argv[1:])+' |'); print('|---|'+'---|'*len(cols))
for i in range(len(cols[0])):
    print('| '+cols[0][i][0]+' | '+' | '.join(str(c[i][1]) for c in cols)+' |')
