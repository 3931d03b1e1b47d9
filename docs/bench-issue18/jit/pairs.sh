#!/bin/bash
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
cd /tmp/s27
A="--shapes chain,runs,wide --runs 500 --chain-repeat 30 --scale-runs 0 --samples 1000 --kafka-records 20000 --chain-sizes 10 --sweep-repeat 1 --floor-instances 0"
R="--shapes rate --rates 1000,1500,2000 --rate-seconds 15 --scale-runs 0 --samples 1000 --kafka-records 20000 --floor-instances 0 --chain-sizes 10 --sweep-repeat 1"
for v in b3:40 a3:1 b4:40 a4:1; do n=${v%%:*}; r=${v##*:}
  echo "$n start $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)" >> pairs.log
  SWALE_JAR=/tmp/s27/new.jar SWALE_BENCH=/tmp/s27/newbench /work/main/bin/swale bench $A --warmup-rounds $r --json /tmp/s27/$n.json > $n.txt 2>&1
done
for v in rb:40 ra:1; do n=${v%%:*}; r=${v##*:}
  echo "$n start $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)" >> pairs.log
  SWALE_JAR=/tmp/s27/new.jar SWALE_BENCH=/tmp/s27/newbench /work/main/bin/swale bench $R --warmup-rounds $r --json /tmp/s27/$n.json --chart /tmp/s27/$n.png > $n.txt 2>&1
done
echo "done $(date +%T)" >> pairs.log
