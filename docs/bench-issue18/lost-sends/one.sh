#!/bin/bash
# usage: one.sh BUILD NAME SLOTS : chain, runs and wide shapes on BUILD's jar with a default pool of SLOTS
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
here=/work/prof/s52
echo "$(date +%T) $2 slots $3 load $(cut -d' ' -f1 /proc/loadavg)" >> $here/runs.log
SWALE_JAR=$1/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=$1/bench \
  /work/main/bin/swale bench --shapes chain,runs,wide --runs 500 --wide 2000 --chain-repeat 30 --chain-sizes 10 --scale-runs 0 --samples 300 \
  --kafka-records 5000 --sweep-repeat 1 --floor-instances 0 -p swale.default-slots=$3 \
  --json $here/out/$2.json > $here/out/$2.txt 2> $here/out/$2.err
echo "$(date +%T) $2 rc $?" >> $here/runs.log
