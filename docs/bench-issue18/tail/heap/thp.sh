#!/bin/bash
# usage: thp.sh ROUNDS : the bench's fixed 2 GB heap three ways, alternating, 2,000/s three times, sampled:
#   both = pre-touched in huge pages (bin/swale bench's default), thp = huge pages only, touch = pre-touched only
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/prof/s37
for round in $(seq 1 ${1:-2}); do
  for v in both thp touch; do
    case $v in
      both) heap="-Xms2g -Xmx2g -XX:+AlwaysPreTouch -XX:+UseTransparentHugePages";;
      thp) heap="-Xms2g -Xmx2g -XX:+UseTransparentHugePages";;
      touch) heap="-Xms2g -Xmx2g -XX:+AlwaysPreTouch";;
    esac
    echo "$(date +%T) round $round $v load $(cut -d' ' -f1 /proc/loadavg)" >> runs.log
    python3 sampler2.py samp-$v-$round.txt 400 &
    sp=$!
    SWALE_BENCH_HEAP="$heap" SWALE_JAR=/work/prof/s37/build/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=/work/prof/s37/build/bench \
      /work/main/bin/swale bench \
      --shapes chain --chain-repeat 10 --rates 2000,2000,2000 --rate-seconds 30 --rate-steps --scale-runs 0 --floor-instances 0 \
      --sweep-repeat 1 --json $v-$round.json > $v-$round.txt 2> $v-$round.err
    kill $sp
  done
done
echo "$(date +%T) done thp" >> runs.log
