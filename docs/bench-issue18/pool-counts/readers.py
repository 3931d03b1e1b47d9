#!/usr/bin/env python3
"""usage: readers.py PORT PATH READERS SECONDS REDIS_PORT
READERS threads GET PATH back to back on keep-alive connections for SECONDS; prints answers/s, latency p50/p99/max,
and redis-server's commands per second over the window (INFO stats, total_commands_processed)."""
import http.client, socket, sys, threading, time
port, path, readers, seconds, redis_port = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])

def redis_commands():
    s = socket.create_connection(("127.0.0.1", redis_port))
    s.sendall(b"INFO stats\r\n")
    data = b""
    while b"\r\n" not in data:
        data += s.recv(65536)
    header, _, body = data.partition(b"\r\n")
    size = int(header[1:])
    while len(body) < size:
        body += s.recv(65536)
    s.close()
    for line in body.decode().splitlines():
        if line.startswith("total_commands_processed:"):
            return int(line.split(":")[1])
    raise SystemExit("no total_commands_processed in INFO")

lat, lock = [], threading.Lock()
def reader(deadline):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    mine = []
    while time.time() < deadline:
        t = time.perf_counter()
        c.request("GET", path)
        r = c.getresponse(); r.read()
        if r.status != 200:
            raise SystemExit(f"{path} answered {r.status}")
        mine.append(time.perf_counter() - t)
    with lock:
        lat.extend(mine)

c0, t0 = redis_commands(), time.time()
deadline = t0 + seconds
ts = [threading.Thread(target=reader, args=(deadline,)) for _ in range(readers)]
[t.start() for t in ts]; [t.join() for t in ts]
wall, c1 = time.time() - t0, redis_commands()
lat.sort()
q = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))] * 1000
print(f"{path} readers={readers} answers={len(lat)} per_s={len(lat)/wall:.1f} p50_ms={q(0.5):.1f} p99_ms={q(0.99):.1f} "
      f"max_ms={lat[-1]*1000:.1f} redis_commands_per_s={(c1-c0)/wall:.0f}")
