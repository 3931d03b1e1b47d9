#!/bin/bash
# usage: docs/bench-issue18/startup-paired.sh ROUNDS NAME=JAR[+aot] ...
#   e.g. startup-paired.sh 3 A=before.jar B=after.jar C=after.jar+aot
# Each round tries every NAME in the order given: NAME=JAR runs `java -jar JAR`; NAME=JAR+aot runs bin/swale on a
# copy of JAR with the AOT cache that `bin/swale aot` made for it first. Each try: launch -> /actuator/health UP
# (the overall status), then SIGTERM. Output: $OUT/startup-paired.txt and one log per try.
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH=$JAVA_HOME/bin:$PATH
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-/tmp/swale-startup-paired}; rm -rf "$out"; mkdir -p "$out"
rounds=$1; shift
for spec in "$@"; do
  name=${spec%%=*}; jar=${spec#*=}
  case "$jar" in *+aot)
    mkdir -p "$out/$name"; cp "${jar%+aot}" "$out/$name/swale.jar"
    SWALE_JAR="$out/$name/swale.jar" "$root/bin/swale" aot > "$out/$name-aot-training.log" 2>&1 \
      || { echo "bin/swale aot failed for $name"; exit 1; } ;;
  esac
done
port=18490
try() { # label, command...
  local label=$1; shift
  local l0; l0=$(cut -d' ' -f1 /proc/loadavg)
  local t0; t0=$(date +%s%N)
  "$@" --server.port=$port > "$out/$label.log" 2>&1 &
  local pid=$!
  while :; do
    s=$(curl -s -m 1 http://127.0.0.1:$port/actuator/health 2>/dev/null)
    case "$s" in *'"status":"UP"}') break;; esac
    kill -0 $pid 2>/dev/null || { echo "$label exited"; return; }
    sleep 0.05
  done
  local t1; t1=$(date +%s%N)
  echo "$label: launch -> health UP $(( (t1-t0)/1000000 )) ms, load before $l0; $(grep -m1 -o 'Started [A-Za-z]* in [0-9.]* seconds' "$out/$label.log")" | tee -a "$out/startup-paired.txt"
  kill $pid; wait $pid 2>/dev/null
}
for i in $(seq 1 "$rounds"); do
  for spec in "$@"; do
    name=${spec%%=*}; jar=${spec#*=}
    case "$jar" in
      *+aot) try "$name$i" env SWALE_JAR="$out/$name/swale.jar" "$root/bin/swale" ;;
      *) try "$name$i" java -jar "$jar" ;;
    esac
  done
done
