#!/bin/bash
# usage: one.sh NAME BUILD [extra bench args...]
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
here=$(cd "$(dirname "$0")" && pwd); name=$1; build=$2; shift 2
echo "$(date +%T) $name build $build load $(cut -d' ' -f1 /proc/loadavg) args $*" >> "$here/runs.log"
SWALE_JAR=$build/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=$build/bench \
  "$here/../../../bin/swale" bench --shapes chain,runs,wide --runs ${RUNS:-500} --wide 2000 --chain-repeat 30 --chain-sizes 10 \
  --scale-runs 0 --samples 300 --kafka-records 5000 --sweep-repeat 1 --floor-instances 0 -p swale.default-slots=64 \
  -p logging.level.io.swale=WARN --json "$here/$name.json" "$@" > "$here/$name.txt" 2> "$here/$name.err"
echo "$(date +%T) $name rc $?" >> "$here/runs.log"
