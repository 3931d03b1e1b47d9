#!/bin/bash
# usage: many.sh BUILD NAME : local mode from BUILD's jar; 200 graphs of one noop node, 3 settled runs each; then 8
# readers of /api/v1/graphs for 20 s, 1 reader for 20 s, 8 readers of /api/v1/dashboard/graphs for 20 s
# (../../pool-counts/readers.py); the service stopped after.
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
build=$1; name=$2
here=$(cd "$(dirname "$0")" && pwd); out=$here/$name.txt; port=18181
readers=${READERS:-$here/../../pool-counts/readers.py}
work=$(mktemp -d); cd $work
java -Xmx1g -jar $build/swale-0.1.0-SNAPSHOT.jar --server.port=$port --logging.level.io.swale=WARN \
  --logging.level.io.swale.local=INFO > $here/$name.log 2>&1 &
pid=$!
until curl -sf localhost:$port/actuator/health > /dev/null; do kill -0 $pid || exit 1; sleep 1; done
redis=$(grep -o "embedded Redis at [0-9.:]* started" $here/$name.log | head -1 | sed 's/.*://; s/ started//')
echo "$(date +%T) $name up, redis port $redis" >> $out
for i in $(seq -w 1 200); do
  printf '[graph]\nname = "many_%s"\npartition = "daily"\n\n[[node]]\nname = "only"\noperator = "noop"\n' $i |
    curl -sf -X POST -H 'Content-Type: application/toml' --data-binary @- localhost:$port/api/v1/definitions > /dev/null
  curl -sf -X POST -H 'Content-Type: application/json' -d '{"partitions":["20261201","20261202","20261203"]}' \
    localhost:$port/api/v1/graphs/many_$i/runs > /dev/null
done
until [ "$(curl -sf localhost:$port/actuator/swale | python3 -c 'import json,sys;print(json.load(sys.stdin)["activeRuns"])')" -eq 0 ]; do sleep 1; done
echo "$(date +%T) graphs: $(curl -sf localhost:$port/api/v1/graphs | python3 -c 'import json,sys;g=json.load(sys.stdin);print(len(g), sum(x["runs"]["complete"] for x in g))')" >> $out
python3 $readers $port /api/v1/graphs 8 20 $redis >> $out
python3 $readers $port /api/v1/graphs 1 20 $redis >> $out
python3 $readers $port /api/v1/dashboard/graphs 8 20 $redis >> $out
kill $pid; wait $pid
echo "$(date +%T) $name stopped" >> $out
rm -rf $work
