#!/bin/bash
# usage: run.sh ROUNDS : alternates the collectors' variants on the sustained shape, 2,000 and 2,500/s, 30 s each
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/prof/s35/gc
for round in $(seq 1 ${1:-2}); do
  for v in g1 g1-1g par; do
    case $v in g1) opts="";; g1-1g) opts="-Xms1g";; par) opts="-XX:+UseParallelGC";; esac
    echo "$(date +%T) round $round $v load $(cut -d' ' -f1 /proc/loadavg)" >> runs.log
    JAVA_OPTS="$opts" SWALE_JAR=/work/prof/s35/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=/work/prof/s35/bench /work/main/bin/swale bench \
      --shapes chain --chain-repeat 10 --rates 2000,2500 --rate-seconds 30 --rate-steps --scale-runs 0 --floor-instances 0 \
      --sweep-repeat 1 --json $v-$round.json > $v-$round.txt 2> $v-$round.err
  done
done
echo "$(date +%T) done" >> runs.log
