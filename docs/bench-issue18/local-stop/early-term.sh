#!/bin/bash
# usage: early-term.sh JAR DELAY... : starts JAR in local mode in a fresh folder, sends SIGTERM DELAY s after the
# launch, and prints how long the JVM took to exit after it, its exit code, any redis-server left (an orphan, killed
# then), and its last log line
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
jar=$1; shift
for d in "$@"; do
  before=$(pgrep -f redis-server | sort | tr '\n' ' ')
  dir=$(mktemp -d); cd $dir
  java -jar $jar --server.port=0 > out.log 2>&1 &
  pid=$!
  sleep $d
  t0=$(date +%s.%N); kill -TERM $pid
  for i in $(seq 1 1200); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
  t1=$(date +%s.%N)
  alive=$(kill -0 $pid 2>/dev/null && echo STILL-ALIVE)
  sleep 0.5
  after=$(pgrep -f redis-server | sort | tr '\n' ' ')
  orphans=$(comm -13 <(echo $before | tr ' ' '\n' | sort) <(echo $after | tr ' ' '\n' | sort) | tr '\n' ' ')
  wait $pid 2>/dev/null; rc=$?
  printf "delay %s s: exit %.1f s after TERM rc %s %s orphans [%s] lines %s last: %s\n" $d $(echo "$t1-$t0"|bc) $rc "$alive" "$orphans" $(wc -l < out.log) "$(grep -v '^\s*at ' out.log | tail -1 | cut -c1-150)"
  for o in $orphans; do kill $o; done
  cd /; rm -rf $dir
done
