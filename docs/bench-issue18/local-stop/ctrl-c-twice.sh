#!/bin/bash
# usage (from the project root): ctrl-c-twice.sh JAR: `run` of a 60 s task; SIGINT once the run started, again 1 s later; when the JVM exited
set -m
export PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
java -jar $1 run docs/bench-issue18/local-stop/long.toml > /tmp/ctrl-c-twice.out 2>&1 &
pid=$!
until grep -q "started" /tmp/ctrl-c-twice.out; do sleep 0.2; kill -0 $pid || exit 1; done
sleep 2
kill -INT -- -$pid; sleep 1; t1=$(date +%s%N); kill -INT -- -$pid
wait $pid; rc=$?
echo "second signal -> exit: $(( ($(date +%s%N)-t1)/1000000 )) ms, rc $rc"
sleep 1; pgrep -fa redis-server | grep -v pgrep || echo "no redis-server left"
tail -4 /tmp/ctrl-c-twice.out
