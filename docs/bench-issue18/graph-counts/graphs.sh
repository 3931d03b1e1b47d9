#!/bin/bash
# usage: graphs.sh BUILD NAME : local mode from BUILD's jar; 10,000 runs of hold.toml kept active; then 8 readers of
# /api/v1/graphs for 30 s, 1 reader for 30 s, 8 readers of /api/v1/dashboard/graphs for 30 s (readers.py); the service
# stopped after.
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
build=$1; name=$2
here=$(cd "$(dirname "$0")" && pwd); out=$here/$name.txt; port=18181
work=$(mktemp -d); cd $work
java -Xmx1g -jar $build/swale-0.1.0-SNAPSHOT.jar --server.port=$port --logging.level.io.swale=WARN \
  --logging.level.io.swale.local=INFO > $here/$name.log 2>&1 &
pid=$!
until curl -sf localhost:$port/actuator/health > /dev/null; do kill -0 $pid || exit 1; sleep 1; done
redis=$(grep -o "embedded Redis at [0-9.:]* started" $here/$name.log | head -1 | sed 's/.*://; s/ started//')
echo "$(date +%T) $name up, redis port $redis" >> $out
curl -sf -X POST -H 'Content-Type: application/toml' --data-binary @$here/../pool-counts/hold.toml localhost:$port/api/v1/definitions >> $out; echo >> $out
# two backfills of 5,000 hours each (a start request's limit)
for range in "20250101T00 20250728T07" "20250728T08 20260221T15"; do
  set -- $range
  curl -sf -X POST -H 'Content-Type: application/json' -d "{\"from\":\"$1\",\"to\":\"$2\"}" \
    localhost:$port/api/v1/graphs/hold/backfill | head -c 200 >> $out; echo >> $out
done
until [ "$(curl -sf localhost:$port/actuator/swale | python3 -c 'import json,sys;print(json.load(sys.stdin)["activeRuns"])')" -ge 10000 ]; do sleep 2; done
sleep 20  # the starts' submissions and dispatches done, the pool's 4 slots taken
echo "$(date +%T) active: $(curl -sf localhost:$port/api/v1/pools/held)" >> $out
python3 $here/../pool-counts/readers.py $port /api/v1/graphs 8 30 $redis >> $out
python3 $here/../pool-counts/readers.py $port /api/v1/graphs 1 30 $redis >> $out
python3 $here/../pool-counts/readers.py $port /api/v1/dashboard/graphs 8 30 $redis >> $out
python3 $here/../pool-counts/readers.py $port /actuator/health 1 10 $redis >> $out

kill $pid; wait $pid
echo "$(date +%T) $name stopped" >> $out
rm -rf $work
