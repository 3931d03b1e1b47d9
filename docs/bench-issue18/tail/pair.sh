#!/bin/bash
# usage: pair.sh ROUNDS : bin/swale bench's new default heap against the JVM's own (SWALE_BENCH_HEAP=''), 2,000/s three times
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/prof/s36
for round in $(seq 1 ${1:-2}); do
  for v in jvm fixed; do
    echo "$(date +%T) round $round pair-$v load $(cut -d' ' -f1 /proc/loadavg)" >> runs.log
    if [ $v = jvm ]; then export SWALE_BENCH_HEAP=''; else unset SWALE_BENCH_HEAP; fi
    SWALE_JAR=/work/prof/s36/build2/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=/work/prof/s36/build2/bench /work/main/bin/swale bench \
      --shapes chain --chain-repeat 10 --rates 2000,2000,2000 --rate-seconds 30 --rate-steps --scale-runs 0 --floor-instances 0 \
      --sweep-repeat 1 --json pair-$v-$round.json > pair-$v-$round.txt 2> pair-$v-$round.err
  done
done
echo "$(date +%T) done pair" >> runs.log
