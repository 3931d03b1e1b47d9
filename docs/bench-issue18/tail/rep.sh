#!/bin/bash
# usage: rep.sh ROUNDS : the sustained shape at 2,000/s three times in one service, to see whether the first phase differs
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/prof/s36
for round in $(seq 1 ${1:-2}); do
  echo "$(date +%T) round $round rep load $(cut -d' ' -f1 /proc/loadavg)" >> runs.log
  SWALE_JAR=/work/prof/s36/build/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=/work/prof/s36/build/bench /work/main/bin/swale bench \
    --shapes chain --chain-repeat 10 --rates 2000,2000,2000 --rate-seconds 30 --rate-steps --scale-runs 0 --floor-instances 0 \
    --sweep-repeat 1 --json rep$TAG-$round.json > rep$TAG-$round.txt 2> rep$TAG-$round.err
done
echo "$(date +%T) done rep" >> runs.log
