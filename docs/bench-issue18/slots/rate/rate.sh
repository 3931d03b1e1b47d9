#!/bin/sh
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
out=/work/prof/slots/rate
cd /work/main
for v in ${VARIANTS:?}; do
  n=${v#s}; n=${n%%_*}
  echo "$(date +%T) $v load $(cut -d' ' -f1 /proc/loadavg)" >> $out/log
  SWALE_JAR=/work/prof/L/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=/work/prof/L/bench timeout 900 bin/swale bench --shapes chain --chain-repeat 10 --rates ${RATES:-1500,2000,2500} --rate-seconds 30 --scale-runs 0 --floor-instances 0 --sweep-repeat 1 -p swale.default-slots=$n --json $out/$v.json > $out/$v.txt 2>&1
done
echo "$(date +%T) done" >> $out/log
