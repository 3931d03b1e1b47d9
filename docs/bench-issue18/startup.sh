#!/bin/bash
# usage: docs/bench-issue18/startup.sh [N] : launch java -jar (local mode) N times, time each until /actuator/health says UP
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64} PATH=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin:$PATH
root=$(cd "$(dirname "$0")/../.." && pwd); jar=$(ls "$root"/target/swale-*-SNAPSHOT.jar | head -1)
out=${OUT:-/tmp/swale-startup}; mkdir -p "$out"; port=18480
for i in $(seq 1 ${1:-3}); do
  l0=$(cut -d' ' -f1 /proc/loadavg)
  t0=$(date +%s%N)
  (cd "$out" && exec java -jar "$jar" --server.port=$port > "$out/startup-$i.log" 2>&1) &
  pid=$!
  while :; do
    s=$(curl -s -m 1 http://127.0.0.1:$port/actuator/health 2>/dev/null)
    case "$s" in *'"status":"UP"}') break;; esac  # the overall status is the body's last field
    kill -0 $pid 2>/dev/null || { echo "exited"; break; }
    sleep 0.05
  done
  t1=$(date +%s%N)
  echo "try $i: launch -> health UP $(( (t1-t0)/1000000 )) ms, load before $l0, after $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$out/startup.out"
  grep -m1 -o 'Started [A-Za-z]* in [0-9.]* seconds.*' "$out/startup-$i.log" | tee -a "$out/startup.out"
  kill $pid; wait $pid 2>/dev/null
done
