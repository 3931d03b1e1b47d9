#!/bin/bash
# usage: run.sh LABEL [extra bench args...]
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /work/wt/legs
label=$1; shift
out=docs/bench-issue18/$label
echo "$(date -u +%H:%M:%S) start $label load $(cut -d' ' -f1 /proc/loadavg) args: $*" >> /tmp/legs/log
bin/swale bench --shapes chain,runs --chain-repeat 30 --runs 300 --wide 200 --scale-runs 0 --samples 1000 \
  --kafka-records 20000 --chain-sizes 10 --sweep-repeat 1 --json $out.json "$@" > /tmp/legs/$label.txt 2>&1
rc=$?
grep -vE ' (INFO|WARN|DEBUG) |^\s+at |^$' /tmp/legs/$label.txt | sed -n '/^Swale bench/,$p' > $out.txt
echo "$(date -u +%H:%M:%S) end $label rc=$rc load $(cut -d' ' -f1 /proc/loadavg)" >> /tmp/legs/log
