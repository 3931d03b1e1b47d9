#!/bin/bash
# usage: threads.sh NAME CMD... : launch CMD (--server.port appended), wait for /actuator/health UP, then print the
# process's CPU by thread (names with digits folded, from /proc/PID/task/*/stat), and stop it.
name=$1; shift
port=18497
t0=$(date +%s%N)
"$@" --server.port=$port > /tmp/threads-$name.log 2>&1 &
pid=$!
until curl -s -m 1 http://127.0.0.1:$port/actuator/health | grep -q '"status":"UP"}$'; do
  kill -0 $pid 2>/dev/null || { echo "$name exited"; exit 1; }
  sleep 0.05
done
echo "$name: launch -> health UP $(( ($(date +%s%N)-t0)/1000000 )) ms; CPU ms by thread:"
for t in /proc/$pid/task/*; do
  n=$(tr -d '0-9' < $t/comm | tr ' ' '_')
  read -r -a f < <(sed 's/.*) //' $t/stat)
  echo "$n $(( (f[11]+f[12])*10 ))"
done | awk '{n[$1]+=$2; tot+=$2} END{for(k in n) if(n[k]>=100) print "  " n[k], k; print "  " tot, "TOTAL"}' | sort -rn
kill $pid; wait $pid 2>/dev/null
