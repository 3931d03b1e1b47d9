#!/bin/bash
# usage: idle.sh BUILD NAME : local mode, 10,000 active runs of hold.toml, then redis-server's commandstats over 30 s with
# no reader at all (what the service itself sends while idle), the top commands by calls.
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
for range in "20250101T00 20250728T07" "20250728T08 20260221T15"; do
  set -- $range
  curl -sf -X POST -H 'Content-Type: application/json' -d "{\"from\":\"$1\",\"to\":\"$2\"}" \
    localhost:$port/api/v1/graphs/hold/backfill -o /dev/null
done
until [ "$(curl -sf localhost:$port/actuator/swale | python3 -c 'import json,sys;print(json.load(sys.stdin)["activeRuns"])')" -ge 10000 ]; do sleep 2; done
sleep 20
python3 $here/cmdstats.py $redis 30 >> $out
python3 $here/cmdstats.py $redis 30 >> $out
kill $pid; wait $pid
echo "$(date +%T) $name stopped" >> $out
rm -rf $work
