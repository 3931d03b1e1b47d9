#!/bin/bash
# usage: run.sh LABEL [bench args]: one bench run of chain,runs,wide with main's jar
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64; export PATH=$JAVA_HOME/bin:$PATH
label=$1; shift
cd /work/main
echo "$(date -u +%T) start $label load $(cut -d' ' -f1 /proc/loadavg)" >> /tmp/s23/conc/log
bin/swale bench --shapes chain,runs,wide --chain-repeat 30 --runs 1000 --wide 2000 --scale-runs 0 --samples 1000 \
  --kafka-records 20000 --chain-sizes 10 --sweep-repeat 1 --json /tmp/s23/conc/$label.json "$@" > /tmp/s23/conc/$label.out 2>&1
echo "$(date -u +%T) end $label rc=$? load $(cut -d' ' -f1 /proc/loadavg)" >> /tmp/s23/conc/log
