#!/usr/bin/env python3
"""Where a task instance's Redis server time goes, outside the bench's busy machine (docs/performance.md,
"Where redis-server's time goes").

  capture OUT       wait for the bench's redis-server to listen, then write its MONITOR stream to OUT
  replay  IN PORT   replay the captured top-level commands, in order, on a quiet redis-server at PORT,
                    three times each way: the scripts as they are, the run state read by a pattern instead of
                    a JSON decode, and that plus the submit script appending its two stamps to the instance text
  parts   PORT      the parts of a script alone in a loop on a quiet redis-server at PORT: the shared prelude,
                    an instance's decode, its encode, the run's state, the clock (server µs per call)
  slowlog OUT       while the bench runs, log every command of its redis-server and sum the time by script
                    (the log's own cost is counted inside each script: use it for the split between scripts only)

Plain RESP over a socket, no client library: python3 only.
"""
import collections, glob, hashlib, os, re, socket, subprocess, sys, time

QUIET_PORT = 6399  # the quiet server of replay and parts, never the bench's
SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../../src/main/resources/redis/')


class Resp:
    def __init__(self, port):
        self.sock = socket.create_connection(('127.0.0.1', port))
        self.file = self.sock.makefile('rb')

    @staticmethod
    def encode(*args):
        out = [b'*%d\r\n' % len(args)]
        for a in args:
            a = a if isinstance(a, bytes) else str(a).encode()
            out.append(b'$%d\r\n%s\r\n' % (len(a), a))
        return b''.join(out)

    def read(self):
        line = self.file.readline()
        kind, rest = line[:1], line[1:-2]
        if kind == b'+':
            return rest.decode()
        if kind == b'-':
            return Exception(rest.decode())  # an error answer stays in its place in a pipeline
        if kind == b':':
            return int(rest)
        if kind == b'$':
            n = int(rest)
            return None if n < 0 else self.file.read(n + 2)[:-2].decode()
        if kind == b'*':
            n = int(rest)
            return None if n < 0 else [self.read() for _ in range(n)]
        raise ValueError('unexpected answer %r' % line)

    def call(self, *args):
        self.sock.sendall(self.encode(*args))
        return self.read()

    def pipe(self, commands):
        self.sock.sendall(b''.join(self.encode(*c) for c in commands))
        return [self.read() for _ in commands]


def sha(text):
    return hashlib.sha1(text.encode()).hexdigest()


def lib():
    return open(SCRIPTS + 'lib.lua').read()


def scripts():
    return {os.path.basename(f)[:-4]: open(f).read() for f in glob.glob(SCRIPTS + '*.lua')
            if not f.endswith('/lib.lua')}


def bench_redis_port(skip):
    while True:
        for line in subprocess.run(['ss', '-ltnp'], capture_output=True, text=True).stdout.splitlines():
            m = re.search(r':(\d+)\s', line)
            if 'redis' in line and m and int(m.group(1)) != skip:
                return int(m.group(1))
        time.sleep(0.05)


def capture(out):
    sock = socket.create_connection(('127.0.0.1', bench_redis_port(QUIET_PORT)))
    sock.sendall(b'MONITOR\r\n')
    with open(out, 'wb') as f:
        while data := sock.recv(1 << 20):
            f.write(data)


def unquote(s):
    out, i = bytearray(), 0
    while i < len(s):
        if s[i] == 0x5c:
            n = s[i + 1]
            if n == ord('x'):
                out.append(int(s[i + 2:i + 4], 16))
                i += 4
                continue
            out.append({ord('n'): 10, ord('r'): 13, ord('t'): 9, ord('b'): 8, ord('a'): 7}.get(n, n))
            i += 2
            continue
        out.append(s[i])
        i += 1
    return bytes(out)


def commands(monitor_file):
    """The clients' own commands (a script's inner ones are logged as `lua` and left out)."""
    token = re.compile(rb'"((?:[^"\\]|\\.)*)"')
    out = []
    for line in open(monitor_file, 'rb').read().split(b'\r\n'):
        if not line.startswith(b'+1') or b' lua] ' in line:
            continue
        args = [unquote(m.group(1)) for m in token.finditer(line[line.index(b'] ') + 2:])]
        if args and args[0].upper() not in (b'INFO', b'MONITOR', b'CLIENT', b'SLOWLOG', b'SCRIPT'):
            out.append(args)
    return out


def replay_once(port, cmds, variant):
    """Server µs per EVALSHA over the whole replay; `variant` maps a script name to its (lib, body)."""
    r = Resp(port)
    r.call('FLUSHALL')
    r.call('SCRIPT', 'FLUSH')
    remap = {}
    for name, body in scripts().items():
        l2, b2 = variant.get(name, (lib(), body))
        new = l2 + '\n' + b2
        r.call('SCRIPT', 'LOAD', new)
        remap[sha(lib() + '\n' + body).encode()] = sha(new).encode()
    r.call('CONFIG', 'RESETSTAT')
    for i in range(0, len(cmds), 200):
        r.pipe([[c[0], remap.get(c[1], c[1])] + c[2:] if c[0].upper() == b'EVALSHA' else c for c in cmds[i:i + 200]])
    m = re.search(r'cmdstat_evalsha:calls=(\d+),usec=(\d+)', r.call('INFO', 'commandstats'))
    return int(m.group(1)), int(m.group(2)) / int(m.group(1))


def replay(monitor_file, port):
    cmds = commands(monitor_file)
    print(len(cmds), 'commands')
    plain = lib()
    read_run = "  local raw = redis.call('GET', run_key)\n  if not raw then return nil end\n"
    matched = plain.replace(read_run, read_run + "  local state = string.match(raw, '^{[^{]*\"state\":\"(%a+)\"')\n"
                            "  if state then return state end\n")
    submit = scripts()['submit'].replace(
        "local s = cjson.decode(ARGV[2])\ns.dispatched, s.submitted_us = clock()\nsave_instance(KEYS[1], ARGV[1], s)",
        "local ms, us = clock()\nredis.call('HSET', KEYS[1], ARGV[1], string.sub(ARGV[2], 1, -2) .. "
        "',\"dispatched\":' .. ms .. ',\"submitted_us\":\"' .. us .. '\"}')")
    assert plain.count(read_run) == 1 and submit != scripts()['submit']
    every = {n: (matched, b) for n, b in scripts().items()}
    variants = {'as they are': {}, 'run state by pattern': every,
                'pattern + submit appends': dict(every, submit=(matched, submit))}
    for _ in range(3):
        for name, v in variants.items():
            calls, us = replay_once(port, cmds, v)
            print('%-26s %d EVALSHA, %.1f µs each in the server' % (name, calls, us), flush=True)


def parts(port):
    r = Resp(port)
    instance = ('{"state":"pending","node":"n3","definition":"%s","rerun":0,"pool":"default","step":0,"attempt":0,'
                '"max":3,"token":0,"ready_us":"1764690000000000","dispatched":1764690000000,'
                '"submitted_us":"1764690000000123"}' % ('ab' * 32))
    run = '{"definition":"%s","requested_at_ms":1764690000000,"state":"active"}' % ('cd' * 32)
    r.call('HSET', 'parts:instances', 'r1', instance)
    r.call('SET', 'parts:run', run)
    prelude = lib()
    variants = {
        'return 1': 'return 1',
        'prelude, return 1': prelude + '\nreturn 1',
        'prelude, clock': prelude + '\nlocal a, b = clock() return 1',
        'prelude, decode': prelude + '\nlocal s = load_instance(KEYS[1], ARGV[1]) return 1',
        'prelude, decode, encode': prelude + '\nlocal s = load_instance(KEYS[1], ARGV[1]) '
                                             'save_instance(KEYS[1], ARGV[1], s) return 1',
        'prelude, run state': prelude + '\nlocal x = run_state(KEYS[2]) return 1',
        'HGET and HSET only': "local x = redis.call('HGET', KEYS[1], ARGV[1]) "
                              "redis.call('HSET', KEYS[1], ARGV[1], x) return 1",
    }
    for name, source in variants.items():
        digest = r.call('SCRIPT', 'LOAD', source)
        r.call('CONFIG', 'RESETSTAT')
        for _ in range(40):
            r.pipe([('EVALSHA', digest, 2, 'parts:instances', 'parts:run', 'r1')] * 500)
        m = re.search(r'cmdstat_evalsha:calls=(\d+),usec=(\d+)', r.call('INFO', 'commandstats'))
        print('%-26s %.2f µs per call' % (name, int(m.group(2)) / int(m.group(1))))
    r.call('DEL', 'parts:instances', 'parts:run')


def slowlog(out):
    names = {sha(lib() + '\n' + body): name for name, body in scripts().items()}
    r = Resp(bench_redis_port(QUIET_PORT))
    r.call('CONFIG', 'SET', 'slowlog-max-len', '1000000')
    r.call('CONFIG', 'SET', 'slowlog-log-slower-than', '0')
    total = collections.defaultdict(lambda: [0, 0])
    try:
        while True:
            time.sleep(1)
            entries = r.call('SLOWLOG', 'GET', '-1')
            r.call('SLOWLOG', 'RESET')
            for e in entries:
                name = e[3][0].lower()
                if name in ('evalsha', 'eval'):
                    name = 'script:' + names.get(e[3][1], e[3][1][:8])
                total[name][0] += 1
                total[name][1] += e[2]
            with open(out, 'w') as f:
                for k, (c, us) in sorted(total.items(), key=lambda kv: -kv[1][1]):
                    f.write('%-22s %8d calls %10d us %7.1f us/call\n' % (k, c, us, us / c))
    except (OSError, IndexError, TypeError, ValueError):
        pass  # the bench stopped its server


if __name__ == '__main__':
    {'capture': lambda: capture(sys.argv[2]), 'replay': lambda: replay(sys.argv[2], int(sys.argv[3])),
     'parts': lambda: parts(int(sys.argv[2])), 'slowlog': lambda: slowlog(sys.argv[2])}[sys.argv[1]]()
