#!/usr/bin/env python3
"""usage: cmdstats.py REDIS_PORT SECONDS : redis-server's INFO commandstats before and after SECONDS; calls per second
by command, the largest first, and the total."""
import socket, sys, time
port, seconds = int(sys.argv[1]), float(sys.argv[2])
def info():
    s = socket.create_connection(("127.0.0.1", port)); s.sendall(b"INFO commandstats\r\n")
    data = b""
    while b"\r\n" not in data: data += s.recv(65536)
    header, _, body = data.partition(b"\r\n"); size = int(header[1:])
    while len(body) < size: body += s.recv(65536)
    s.close()
    out = {}
    for line in body.decode().splitlines():
        if line.startswith("cmdstat_"):
            name, _, rest = line.partition(":")
            out[name[8:]] = int(rest.split(",")[0].split("=")[1])
    return out
a = info(); time.sleep(seconds); b = info()
d = sorted(((b[k] - a.get(k, 0)) / seconds, k) for k in b)
d.reverse()
print(f"{time.strftime('%T')} over {seconds:.0f} s: total {sum(x for x, _ in d):.0f} calls/s; " +
      ", ".join(f"{k} {x:.0f}" for x, k in d if x >= 1))
