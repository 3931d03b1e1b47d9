#!/bin/sh
# Paired bench of Redis topologies (issue 15): standalone vs 3-primary Cluster vs primary+replica with
# swale.redis.durability=wait, interleaved A B C A B C, one Kafka broker, in one JVM (io.swale.bench.TopologyBench,
# test scope). Usage, from the repository root:
#   ./mvnw -o -q test-compile && ./mvnw -o -q dependency:build-classpath -Dmdep.outputFile=target/test.cp
#   scripts/bench-topologies.sh [out-dir] [rounds] [topologies]
# One `TOPOLOGY …` line per run on stdout (tasks/s, edge p50/p99, load averages); each run's JSON in out-dir.
set -eu
out=${1:-target/bench-topologies}
rounds=${2:-2}
topologies=${3:-standalone,cluster,wait}
java_cmd=java
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
  java_cmd="$JAVA_HOME/bin/java"
fi
exec "$java_cmd" -Xmx1g -cp "target/test-classes:target/classes:$(cat target/test.cp)" io.swale.bench.TopologyBench \
  "$out" "$rounds" "$topologies" \
  --shapes=chain,runs --chain-repeat=20 --chain-sizes=10 --sweep-repeat=0 --runs=200 --wide=100 \
  --samples=200 --kafka-records=5000 --scale-runs=0 --timeout=120
