#!/bin/sh
# sustained-rate runs, interleaved: side = folder under /work/prof with the jar and its bench; outputs <side><i>
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
out=${OUT:?}
cd /work/main
for i in $(seq ${FIRST:-1} ${LAST:-3}); do
  for side in ${SIDES:?}; do
    echo "$(date +%T) rate $side$i load $(cut -d' ' -f1 /proc/loadavg)" >> $out/log
    SWALE_JAR=/work/prof/$side/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=/work/prof/$side/bench timeout 900 bin/swale bench --shapes chain --chain-repeat 10 --rates ${RATES:-1500,2000,2500} --rate-seconds 30 --scale-runs 0 --floor-instances 0 --sweep-repeat 1 --json $out/$side$i.json > $out/$side$i.txt 2>&1
  done
done
echo "$(date +%T) done" >> $out/log
