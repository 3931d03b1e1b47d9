#!/bin/bash
# usage: run.sh ROUNDS : alternates the default periodic jobs against sync/retention/reconcile held off, 2,000 and 2,500/s
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/prof/s36
for round in $(seq 1 ${1:-2}); do
  for v in quiet default; do
    case $v in default) opts="";; quiet) opts="-p swale.scheduler.sync-interval=1h -p swale.scheduler.reconcile-interval=1h -p swale.scheduler.retention-interval=1h";; esac
    echo "$(date +%T) round $round $v load $(cut -d' ' -f1 /proc/loadavg)" >> runs.log
    SWALE_JAR=/work/prof/s35/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=/work/prof/s35/bench /work/main/bin/swale bench \
      --shapes chain --chain-repeat 10 --rates 2000,2500 --rate-seconds 30 --rate-steps --scale-runs 0 --floor-instances 0 \
      --sweep-repeat 1 $opts --json $v-$round.json > $v-$round.txt 2> $v-$round.err
  done
done
echo "$(date +%T) done" >> runs.log
