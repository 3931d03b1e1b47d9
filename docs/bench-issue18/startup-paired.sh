#!/bin/bash
# usage: JAR_A=<before.jar> JAR_B=<after.jar> docs/bench-issue18/startup-paired.sh [rounds]
# Interleaves, each round: A = java -jar JAR_A; B = java -jar JAR_B; C = bin/swale on JAR_B with the AOT cache
# that `bin/swale aot` made first. Each try: launch -> /actuator/health UP (overall status), then SIGTERM.
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH=$JAVA_HOME/bin:$PATH
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-/tmp/swale-startup-paired}; rm -rf "$out"; mkdir -p "$out/c"
cp "$JAR_B" "$out/c/swale.jar"
SWALE_JAR="$out/c/swale.jar" "$root/bin/swale" aot > "$out/aot-training.log" 2>&1 || { echo "bin/swale aot failed"; exit 1; }
port=18490
try() { # name, command...
  local name=$1; shift
  local l0; l0=$(cut -d' ' -f1 /proc/loadavg)
  local t0; t0=$(date +%s%N)
  "$@" --server.port=$port > "$out/$name.log" 2>&1 &
  local pid=$!
  while :; do
    s=$(curl -s -m 1 http://127.0.0.1:$port/actuator/health 2>/dev/null)
    case "$s" in *'"status":"UP"}') break;; esac
    kill -0 $pid 2>/dev/null || { echo "$name exited"; return; }
    sleep 0.05
  done
  local t1; t1=$(date +%s%N)
  echo "$name: launch -> health UP $(( (t1-t0)/1000000 )) ms, load before $l0; $(grep -m1 -o 'Started [A-Za-z]* in [0-9.]* seconds' "$out/$name.log")" | tee -a "$out/startup-paired.txt"
  kill $pid; wait $pid 2>/dev/null
}
for i in $(seq 1 "${1:-3}"); do
  try "A$i" java -jar "$JAR_A"
  try "B$i" java -jar "$JAR_B"
  try "C$i" env SWALE_JAR="$out/c/swale.jar" "$root/bin/swale"
done
