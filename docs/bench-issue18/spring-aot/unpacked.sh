#!/bin/bash
# Start to healthy, both with the build-time bean definitions: A = java -jar of the service jar,
# B = java -jar of the build's unpacked copy (target/unpacked: the same classes, its libraries beside it)
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
a=${JAR:-/work/main/target/swale-0.1.0-SNAPSHOT.jar}; b=${UNPACKED:-/work/main/target/unpacked/swale-0.1.0-SNAPSHOT.jar}
out=/tmp/aot/unpacked; mkdir -p $out; port=18480
for which in $(echo $1 | grep -o .); do
  if [ $which = A ]; then jar=$a; else jar=$b; fi
  l0=$(cut -d' ' -f1 /proc/loadavg); t0=$(date +%s%N)
  (cd $out && exec java -jar $jar --server.port=$port > $out/$which.log 2>&1) &
  pid=$!
  while :; do s=$(curl -s -m 1 http://127.0.0.1:$port/actuator/health 2>/dev/null); case "$s" in *'"status":"UP"}') break;; esac
    kill -0 $pid 2>/dev/null || { echo "exited"; tail -5 $out/$which.log; break; }; sleep 0.05; done
  t1=$(date +%s%N)
  echo "$which: launch -> UP $(( (t1-t0)/1000000 )) ms, load $l0; $(grep -a -m1 -o 'Started [A-Za-z]* in [0-9.]* seconds' $out/$which.log); aot=$(grep -a -c 'Starting AOT-processed' $out/$which.log)"
  kill $pid; wait $pid 2>/dev/null; sleep 2
done
