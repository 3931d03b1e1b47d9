#!/bin/sh
# The runs of docs/performance.md, "Where redis-server's time goes, and what a chain adds to its edges".
# From the project's root, after ./mvnw -DskipTests package; JAVA_HOME set to a JDK 21+.
set -e
out=docs/bench-issue18/redis-scripts
args="--shapes chain,runs,wide --runs 500 --chain-repeat 30 --scale-runs 0 --samples 1000 --kafka-records 20000
  --chain-sizes 10 --sweep-repeat 1 --floor-instances 0"
for i in 1 2 3 4; do
  bin/swale bench $args --json $out/s$i.json > $out/s$i.txt 2>&1
done
# the longer chain: 60 runs
bin/swale bench --shapes chain --chain-repeat 60 --scale-runs 0 --samples 1000 --kafka-records 2000 --chain-sizes 10 \
  --sweep-repeat 1 --floor-instances 0 --json $out/chain60.json > $out/chain60.txt 2>&1
# every command logged during one runs bench, summed by script
python3 $out/redis_replay.py slowlog $out/slowlog-runs.txt &
bin/swale bench --shapes runs --runs 500 --scale-runs 0 --samples 200 --kafka-records 2000 --sweep-repeat 0 \
  --floor-instances 0 > $out/slowlog-bench.txt 2>&1
wait
# one runs bench's commands, captured, then replayed on a quiet redis-server (the same binary, port 6399)
python3 $out/redis_replay.py capture /tmp/monitor.raw &
bin/swale bench --shapes runs --runs 500 --scale-runs 0 --samples 200 --kafka-records 2000 --sweep-repeat 0 \
  --floor-instances 0 > /dev/null 2>&1
wait
redis_server=$(ls /tmp/swale-redis-*/*redis-server* | head -1)
"$redis_server" --port 6399 --save '' --appendonly no --daemonize yes
python3 $out/redis_replay.py replay /tmp/monitor.raw 6399
python3 $out/redis_replay.py parts 6399
