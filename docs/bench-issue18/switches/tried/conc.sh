#!/bin/sh
# one jar and bench; side C4 = listener concurrency 4 (default), C1 = 1
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
out=${OUT:?}
cd /work/main
for i in $(seq ${FIRST:-1} ${LAST:-2}); do
  for side in ${SIDES:-C4 C1}; do
    n=${side#C}
    echo "$(date +%T) $side$i load $(cut -d' ' -f1 /proc/loadavg)" >> $out/log
    SWALE_JAR=${JAR:?} SWALE_BENCH=${BENCH:?} bin/swale bench --shapes chain,runs,wide --runs 500 \
      --chain-repeat 30 --scale-runs 0 --samples 1000 --kafka-records 20000 --chain-sizes 10 --sweep-repeat 1 \
      --floor-instances 0 -p swale.kafka.listener-concurrency=$n --json $out/$side$i.json > $out/$side$i.txt 2> $out/$side$i.err
  done
done
echo "$(date +%T) done" >> $out/log
