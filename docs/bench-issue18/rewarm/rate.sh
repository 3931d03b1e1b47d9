#!/bin/sh
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
out=/tmp/jit/rate
for side in B A; do
  if [ $side = A ]; then bench=/tmp/jit/benchA; else bench=/tmp/jit/benchB; fi
  echo "$(date +%T) $side load $(cut -d' ' -f1 /proc/loadavg)" >> $out/log
  SWALE_JAR=/tmp/jit/A.jar SWALE_BENCH=$bench bin/swale bench --shapes chain,rate --chain-repeat 10 \
    --rates 1000,1500,2000 --rate-seconds 30 --scale-runs 0 --floor-instances 0 --sweep-repeat 1 \
    --json $out/$side.json > $out/$side.txt 2> $out/$side.err
done
echo "$(date +%T) done" >> $out/log
