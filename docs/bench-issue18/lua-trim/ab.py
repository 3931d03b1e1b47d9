import sys, statistics
sys.argv = ['x']
exec(open('/work/luabench/bench.py').read().split("sub, clm, fin")[0])
import trim
def loadv(rs, name, t):
    lib = open(f"{rs}/lib.lua").read(); body = open(f"{rs}/{name}.lua").read()
    pre = trim.prelude(lib, body) if t else lib
    return cmd("SCRIPT", "LOAD", pre + "\n" + body).decode()
V = {'old': ('/work/landed/src/main/resources/redis', False), 'new': ('/work/main/src/main/resources/redis', True)}
sh = {v: {n: loadv(rs, n, t) for n in ['submit','claim','finish','dropactive']} for v, (rs, t) in V.items()}
inst = lambda n: json.dumps({"state":"pending","node":"n%d"%n,"definition":"3f2a9c0d1e","rerun":0,"pool":"default","step":0,"attempt":0,"max":3,"token":0,"ready_us":"1765100000123456"}, separators=(',',':'))
inp = json.dumps({"params":{"x":"1"},"upstream":{}}, separators=(',',':'))
rec = lambda r,n: json.dumps({"node":"n%d"%n,"run":"r%d"%r,"status":"succeeded","rerun":0,"started_ms":1765100000123,"ended_ms":1765100000133,"attempts":1,"run_id":"r%d-n%d-0"%(r,n),"outputs":{}}, separators=(',',':'))
res = {(v,n): [] for v in V for n in ['submit','claim','finish','dropactive']}
RUNS, NODES = 500, 10
for rnd in range(int(sys.argv[1]) if len(sys.argv) > 1 else 12):
  for v in (['old','new'] if rnd % 2 == 0 else ['new','old']):
    P = f'{v}{rnd}'
    for r in range(RUNS): cmd('SET', f'{{g|{P}{r}}}:run', '{"definition":"abc","requested_at_ms":1765100000123,"state":"active"}')
    S = sh[v]
    for name, mk in [
      ('submit', lambda r,n: enc('EVALSHA', S['submit'], 3, f'{{g|{P}{r}}}:inst', f'{{g|{P}{r}}}:in', f'{{g|{P}{r}}}:run', f'r{r}-n{n}-0', inst(n), inp)),
      ('claim', lambda r,n: enc('EVALSHA', S['claim'], 4, f'{{g|{P}{r}}}:inst', f'{{g|{P}{r}}}:in', f'{{g|{P}{r}}}:run', f'{{g|{P}{r}}}:leases', f'r{r}-n{n}-0', 30000, 'worker-1', f'p{r}|r{r}-n{n}-0', f'c{r}{n}')),
      ('finish', lambda r,n: enc('EVALSHA', S['finish'], 6, f'{{g|{P}{r}}}:inst', f'{{g|{P}{r}}}:nodes', f'{{g|{P}{r}}}:att', f'{{g|{P}{r}}}:run', f'{{g|{P}{r}}}:grow', f'{{g|{P}{r}}}:leases', f'r{r}-n{n}-0', 1, f'n{n}', rec(r,n), 'succeeded', 0, '', f'n{n}', '', f'p{r}|r{r}-n{n}-0')),
      ('dropactive', lambda r,n: enc('EVALSHA', S['dropactive'], 3, f'{{g|{P}{r}}}:act', f'{{g|{P}{r}}}:run', f'{{g|{P}{r}}}:inst', f'm{n}')),
    ]:
      if name == 'dropactive':
        for r in range(RUNS): cmd('SET', f'{{g|{P}{r}}}:run', '{"definition":"abc","requested_at_ms":1765100000123,"state":"complete"}')
      cmds = [mk(r, n) for r in range(RUNS) for n in (range(NODES) if name != 'dropactive' else [0])]
      cmd("CONFIG","RESETSTAT")
      for i in range(0, len(cmds), 50): out = pipe(cmds[i:i+50])
      assert out[-1] in (b'new', b'ok', b'0') or out[-1] == 0 or out[-1][0] == b'claimed', out[-1]
      l = [x for x in cmd('INFO','commandstats').decode().splitlines() if x.startswith('cmdstat_evalsha')][0]
      res[(v,name)].append(float(l.split('usec_per_call=')[1].split(',')[0]))
for n in ['submit','claim','finish','dropactive']:
  print('%-7s old median %.2f min %.2f | new median %.2f min %.2f' % (n, statistics.median(res[('old',n)]), min(res[('old',n)]), statistics.median(res[('new',n)]), min(res[('new',n)])))
p.kill()
