#!/bin/bash
# usage: rate.sh BUILD NAME : the sustained rates on BUILD's jar (the bench's pool, 64 slots)
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
here=/work/prof/s51
echo "$(date +%T) $2 rate load $(cut -d' ' -f1 /proc/loadavg)" >> $here/runs.log
SWALE_JAR=$1/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=$1/bench \
  /work/main/bin/swale bench --shapes chain --chain-repeat 10 --rates 1500,2000,2500 --rate-seconds 30 --scale-runs 0 \
  --floor-instances 0 --sweep-repeat 1 --json $here/out/$2.json > $here/out/$2.txt 2> $here/out/$2.err
echo "$(date +%T) $2 rc $?" >> $here/runs.log
