#!/bin/sh
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
out=/work/prof/slots/shapes
cd /work/main
for i in 1 2; do
for v in s16 s64; do
  case $v in s16) P="";; s64) P="-p swale.default-slots=64";; esac
  echo "$(date +%T) $v$i load $(cut -d' ' -f1 /proc/loadavg)" >> $out/log
  SWALE_JAR=/work/prof/L/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=/work/prof/L/bench bin/swale bench --shapes chain,runs,wide --runs 500 \
      --chain-repeat 30 --scale-runs 0 --samples 1000 --kafka-records 20000 --chain-sizes 10 --sweep-repeat 1 \
      --floor-instances 0 $P --json $out/$v$i.json > $out/$v$i.txt 2> $out/$v$i.err
done
done
echo "$(date +%T) done" >> $out/log
