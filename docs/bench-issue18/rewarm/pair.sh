#!/bin/sh
# one service jar (JAR), two bench folders alternating: A_BENCH (landed bench) and B_BENCH (warm again after baselines)
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
out=${OUT:?}
for i in $(seq ${FIRST:-1} ${LAST:-3}); do
  for side in A B; do
    if [ $side = A ]; then bench=${A_BENCH:?}; else bench=${B_BENCH:?}; fi
    echo "$(date +%T) $side$i load $(cut -d' ' -f1 /proc/loadavg)" >> $out/log
    SWALE_JAR=${JAR:?} SWALE_BENCH=$bench bin/swale bench --shapes chain,runs,wide --runs 500 \
      --chain-repeat 30 --scale-runs 0 --samples 1000 --kafka-records 20000 --chain-sizes 10 --sweep-repeat 1 \
      --floor-instances 0 ${EXTRA:-} --json $out/$side$i.json > $out/$side$i.txt 2> $out/$side$i.err
  done
done
echo "$(date +%T) done" >> $out/log
