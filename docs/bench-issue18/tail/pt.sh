#!/bin/bash
# usage: pt.sh ROUNDS : default heap against a 1 GB heap floor touched at start, 2,000/s three times, sampled
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/prof/s36
for round in $(seq 1 ${1:-2}); do
  for v in pretouch default; do
    case $v in default) opts="";; pretouch) opts="-Xms1g -XX:+AlwaysPreTouch";; esac
    echo "$(date +%T) round $round pt-$v load $(cut -d' ' -f1 /proc/loadavg)" >> runs.log
    python3 sampler2.py samp-pt-$v-$round.txt 400 &
    sp=$!
    JAVA_OPTS="$opts" SWALE_JAR=/work/prof/s36/build/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=/work/prof/s36/build/bench /work/main/bin/swale bench \
      --shapes chain --chain-repeat 10 --rates 2000,2000,2000 --rate-seconds 30 --rate-steps --scale-runs 0 --floor-instances 0 \
      --sweep-repeat 1 --json pt-$v-$round.json > pt-$v-$round.txt 2> pt-$v-$round.err
    kill $sp
  done
done
echo "$(date +%T) done pt" >> runs.log
