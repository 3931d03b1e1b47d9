#!/bin/bash
# usage: kill9.sh JAR : local mode from JAR until healthy, then kill -9 of the JVM; lists the redis-server (and the
# script it runs under, in builds that have one) left on its port 2 s later
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
dir=$(mktemp -d); cd $dir
port=$((18000 + RANDOM % 1000))
java -jar $1 --server.port=$port > out.log 2>&1 &
pid=$!
for i in $(seq 1 300); do curl -sf localhost:$port/actuator/health >/dev/null && break; sleep 0.5; done
redis=$(grep -o "embedded Redis at 127.0.0.1:[0-9]*" out.log | head -1 | cut -d: -f2)
echo "$(date +%T) healthy; redis-server on $redis: $(pgrep -f "127.0.0.1:$redis|--port $redis " | tr '\n' ' ')"
kill -9 $pid; wait $pid 2>/dev/null
sleep 2
left=$(pgrep -f "127.0.0.1:$redis|--port $redis " | tr '\n' ' ')
echo "$(date +%T) 2 s after kill -9: redis-server left on $redis: [$left]"
[ -n "$left" ] && kill $left
cd /; rm -rf $dir
