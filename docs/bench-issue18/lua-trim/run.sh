#!/bin/bash
# usage: run.sh LABEL TREE; TREE's service jar, main's bench jar; shapes chain, runs and wide at their default sizes
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
label=$1; tree=$2
echo "$(date -u +%T) start $label load $(cut -d' ' -f1 /proc/loadavg)" >> /work/pair/log
SWALE_BENCH=/work/main/target/bench $tree/bin/swale bench --shapes chain,runs,wide --scale-runs 0 \
  --chain-sizes 10 --sweep-repeat 1 --json /work/pair/$label.json --chart /work/pair/$label.png > /work/pair/$label.out 2>&1
rc=$?
grep -vE ' (INFO|WARN|DEBUG|ERROR) |^\s+at |^$' /work/pair/$label.out | sed -n '/^Swale bench/,$p' > /work/pair/$label.txt
echo "$(date -u +%T) end $label rc=$rc load $(cut -d' ' -f1 /proc/loadavg)" >> /work/pair/log
