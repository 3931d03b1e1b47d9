#!/bin/sh
# the reaper at 10,000 active runs, interleaved: side name = folder under /work/prof holding the jar and its bench
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
out=${OUT:?}
cd /work/main
for i in $(seq ${FIRST:-1} ${LAST:-3}); do
  for side in ${SIDES:?}; do
    echo "$(date +%T) $side$i load $(cut -d' ' -f1 /proc/loadavg)" >> $out/log
    SWALE_JAR=/work/prof/$side/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=/work/prof/$side/bench bin/swale bench --shapes chain \
      --chain-repeat 5 --scale-runs 10000 --samples 200 --kafka-records 2000 --chain-sizes 10 --sweep-repeat 1 \
      --floor-instances 0 --json $out/$side$i.json > $out/$side$i.txt 2> $out/$side$i.err
  done
done
echo "$(date +%T) done" >> $out/log
