#!/bin/sh
# the sustained-rate runs of "The submissions of one poll's runs": M (landed) then C (the change), outputs <side><SUFFIX>
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
cd /work/main
for side in M C; do
  echo "$(date +%T) rate $side $SUFFIX load $(cut -d' ' -f1 /proc/loadavg)" >> /work/prof/rateSE/log
  SWALE_JAR=/work/prof/$side/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=/work/prof/$side/bench timeout 900 bin/swale bench --shapes chain --chain-repeat 10 --rates 1500,2000 --rate-seconds 30 --scale-runs 0 --floor-instances 0 --sweep-repeat 1 --json /work/prof/rateSE/$side$SUFFIX.json > /work/prof/rateSE/$side$SUFFIX.txt 2>&1
done
