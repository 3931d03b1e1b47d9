#!/bin/bash
# usage: run.sh LABEL TREE [extra args]; TREE's service jar, main's bench jar
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
label=$1; tree=$2; shift 2
echo "$(date -u +%T) start $label load $(cut -d' ' -f1 /proc/loadavg)" >> /tmp/swale/pair/log
SWALE_BENCH=/work/main/target/bench $tree/bin/swale bench --shapes chain,runs,wide --chain-repeat 30 --runs 300 --wide 1000 \
  --scale-runs 0 --samples 1000 --kafka-records 20000 --chain-sizes 10 --sweep-repeat 1 \
  --json /tmp/swale/pair/$label.json --chart /tmp/swale/pair/$label.png "$@" > /tmp/swale/pair/$label.out 2>&1
rc=$?
grep -vE ' (INFO|WARN|DEBUG|ERROR) |^\s+at |^$' /tmp/swale/pair/$label.out | sed -n '/^Swale bench/,$p' > /tmp/swale/pair/$label.txt
echo "$(date -u +%T) end $label rc=$rc load $(cut -d' ' -f1 /proc/loadavg)" >> /tmp/swale/pair/log
