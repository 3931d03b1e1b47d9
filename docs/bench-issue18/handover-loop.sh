#!/bin/bash
# usage: docs/bench-issue18/handover-loop.sh [N] : runs WorkerProcessIT's SIGTERM hand-over tests N times in a row
# (default 50) on the checkout it lives in, one line per run in handover-loop.out: exit code, time, load, and the
# test's own figure (how long after the give-back the other worker claimed the two given-back attempts).
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH=$JAVA_HOME/bin:$PATH
cd "$(dirname "$0")/../.." || exit 2
out=${OUT:-handover-loop.out}
for i in $(seq 1 "${1:-50}"); do
  ./mvnw -o verify -Pmultiprocess -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test="WorkerProcessIT#sigterm*" > "/tmp/handover-loop-$i.log" 2>&1
  rc=$?
  fig=$(grep -h "given-back leases claimed" target/failsafe-reports/*WorkerProcessIT-output.txt 2>/dev/null \
    | sed 's/.*given-back/given-back/' | head -1)
  echo "run $i rc=$rc $(date +%T) load=$(cut -d' ' -f1 /proc/loadavg) $fig" >> "$out"
done
