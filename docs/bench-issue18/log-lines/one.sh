#!/bin/bash
# usage: one.sh NAME LEVEL BUILD : the chain, runs and wide shapes on BUILD (a folder holding the service jar and
# bench/, as target/ has them), Swale's loggers at LEVEL, the service's log to out/NAME.txt as a container's would go
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
here=$(cd "$(dirname "$0")" && pwd)
echo "$(date +%T) $1 level $2 build $3 load $(cut -d' ' -f1 /proc/loadavg)" >> "$here/runs.log"
SWALE_JAR=$3/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=$3/bench \
  "$here/../../../bin/swale" bench --shapes chain,runs,wide --runs 500 --wide 2000 --chain-repeat 30 --chain-sizes 10 \
  --scale-runs 0 --samples 300 --kafka-records 5000 --sweep-repeat 1 --floor-instances 0 -p swale.default-slots=64 \
  -p logging.level.io.swale=$2 --json "$here/$1.json" > "$here/$1.txt" 2> "$here/$1.err"
echo "$(date +%T) $1 rc $? lines $(wc -l < "$here/$1.txt")" >> "$here/runs.log"
