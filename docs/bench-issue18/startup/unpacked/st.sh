#!/bin/bash
# usage: st.sh ROUNDS NAME=CMD... (CMD run with --server.port appended)
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
out=${OUT:-/tmp/swale-st}; mkdir -p $out
rounds=$1; shift
port=18490
for i in $(seq 1 $rounds); do
 for spec in "$@"; do
  name=${spec%%=*}; cmd=${spec#*=}
  l0=$(cut -d' ' -f1 /proc/loadavg); t0=$(date +%s%N)
  $cmd --server.port=$port > $out/$name$i.log 2>&1 &
  pid=$!
  while :; do
    s=$(curl -s -m 1 http://127.0.0.1:$port/actuator/health 2>/dev/null)
    case "$s" in *'"status":"UP"}') break;; esac
    kill -0 $pid 2>/dev/null || { echo "$name exited"; break; }
    sleep 0.05
  done
  t1=$(date +%s%N)
  echo "$name$i: $(( (t1-t0)/1000000 )) ms load $l0 $(grep -m1 -o 'Started [A-Za-z]* in [0-9.]* seconds' $out/$name$i.log) cpu $(ps -o cputime= -p $pid)" | tee -a $out/results.txt
  kill $pid; wait $pid 2>/dev/null
 done
done
