import socket, subprocess, time, os, sys, hashlib, json
RS = sys.argv[1] if len(sys.argv) > 1 else '/work/main/src/main/resources/redis'
TRIM = len(sys.argv) > 2
sys.path.insert(0, '/work/luabench')
BIN = [p for p in __import__('glob').glob('/tmp/redis-*/redis-server-6.2.6*')][0]
port = 16399
p = subprocess.Popen([BIN, '--port', str(port), '--save', '', '--appendonly', 'no'], stdout=subprocess.DEVNULL)
time.sleep(0.3)
s = socket.create_connection(('127.0.0.1', port)); f = s.makefile('rb')
def enc(*a):
    out = [b'*%d\r\n' % len(a)]
    for x in a:
        x = x if isinstance(x, bytes) else str(x).encode()
        out.append(b'$%d\r\n%s\r\n' % (len(x), x))
    return b''.join(out)
def read():
    l = f.readline()
    t = l[:1]
    if t in (b'+', b'-', b':'):
        if t == b'-': raise Exception(l)
        return l[1:-2]
    if t == b'$':
        n = int(l[1:-2]);
        if n < 0: return None
        d = f.read(n + 2); return d[:-2]
    if t == b'*':
        n = int(l[1:-2]); return [read() for _ in range(n)]
def cmd(*a):
    s.sendall(enc(*a)); return read()
def pipe(cmds):
    s.sendall(b''.join(cmds)); return [read() for _ in cmds]
def load(name):
    if TRIM:
        import trim; lib = open(f"{RS}/lib.lua").read(); body = open(f"{RS}/{name}.lua").read(); return cmd("SCRIPT", "LOAD", trim.prelude(lib, body) + "\n" + body).decode()
    src = open(f'{RS}/lib.lua').read() + '\n' + open(f'{RS}/{name}.lua').read()
    return cmd('SCRIPT', 'LOAD', src).decode()
def cpu():
    st = open(f'/proc/{p.pid}/stat').read().split(')')[1].split()
    return (int(st[11]) + int(st[12])) / os.sysconf('SC_CLK_TCK')
sub, clm, fin = load('submit'), load('claim'), load('finish')
RUNS, NODES = 2000, 10
inst = lambda n: json.dumps({"state":"pending","node":"n%d"%n,"definition":"3f2a9c0d1e","rerun":0,"pool":"default","step":0,"attempt":0,"max":3,"token":0,"ready_us":"1765100000123456"}, separators=(',',':'))
inp = json.dumps({"params":{"x":"1"},"upstream":{}}, separators=(',',':'))
rec = lambda r,n: json.dumps({"node":"n%d"%n,"run":"r%d"%r,"status":"succeeded","rerun":0,"started_ms":1765100000123,"ended_ms":1765100000133,"attempts":1,"run_id":"r%d-n%d-0"%(r,n),"outputs":{}}, separators=(',',':'))
res = {}
for name, sha, mk in [
  ('submit', sub, lambda r,n: enc('EVALSHA', sub, 3, f'{{g|p{r}}}:inst', f'{{g|p{r}}}:in', f'{{g|p{r}}}:run', f'r{r}-n{n}-0', inst(n), inp)),
  ('claim', clm, lambda r,n: enc('EVALSHA', clm, 4, f'{{g|p{r}}}:inst', f'{{g|p{r}}}:in', f'{{g|p{r}}}:run', f'{{g|p{r}}}:leases', f'r{r}-n{n}-0', 30000, 'worker-1', f'p{r}|r{r}-n{n}-0', f'c{r}{n}')),
  ('finish', fin, lambda r,n: enc('EVALSHA', fin, 6, f'{{g|p{r}}}:inst', f'{{g|p{r}}}:nodes', f'{{g|p{r}}}:att', f'{{g|p{r}}}:run', f'{{g|p{r}}}:grow', f'{{g|p{r}}}:leases', f'r{r}-n{n}-0', 1, f'n{n}', rec(r,n), 'succeeded', 0, '', f'n{n}', '', f'p{r}|r{r}-n{n}-0')),
]:
    for r in range(RUNS): cmd('SET', f'{{g|p{r}}}:run', '{"state":"active","graph":"g"}') if name=='submit' else None
    cmds = [mk(r, n) for r in range(RUNS) for n in range(NODES)]
    cmd("CONFIG","RESETSTAT"); c0 = cpu(); t0 = time.time()
    for i in range(0, len(cmds), 50):
        out = pipe(cmds[i:i+50])
    c1 = cpu()
    res[name] = (c1 - c0) * 1e6 / len(cmds)
    l = [x for x in cmd('INFO','commandstats').decode().splitlines() if x.startswith('cmdstat_evalsha')][0]
    print(name, out[-1] if not isinstance(out[-1], list) else out[-1][0], 'redis cpu us/call %.1f' % res[name], 'server', l.split('usec_per_call=')[1].split(',')[0])
info = cmd('INFO', 'commandstats').decode()
for l in info.splitlines():
    if 'evalsha' in l or 'hget' in l or 'hset' in l: print(l)
p.kill()
