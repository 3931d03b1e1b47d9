#!/bin/sh
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
out=/work/prof/slots
cd /work/main
for i in 1 2; do
for v in s16 s64; do
  case $v in s16) P="";; s64) P="-p swale.default-slots=64";; esac
  echo "$(date +%T) $v$i load $(cut -d' ' -f1 /proc/loadavg)" >> $out/log
  SWALE_JAR=/work/prof/L/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=/work/prof/L/bench timeout 900 bin/swale bench --shapes chain --chain-repeat 10 --rates 2000 --rate-seconds 30 --scale-runs 0 --floor-instances 0 --sweep-repeat 1 $P --json $out/$v$i.json > $out/$v$i.txt 2>&1
done
done
echo "$(date +%T) done" >> $out/log
