#!/bin/bash
# usage: cg.sh ROUNDS : the bench's JVM (every role of the service, and the bench) in a cgroup of 768 MiB, the
# chart's pod limit, against a KRaft broker and a redis-server in their own processes outside it; three 2,000/s
# phases a run. chart = the chart's JAVA_TOOL_OPTIONS; touch = those plus a fixed heap pre-touched in huge pages.
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
here=/work/prof/s37/cg; d=/tmp/ext; cg=/sys/fs/cgroup/memory/swale768
mkdir -p $cg; echo 805306368 > $cg/memory.limit_in_bytes
chart="-XX:MaxRAMPercentage=75.0 -XX:+ExitOnOutOfMemoryError"
broker() {
  rm -rf $d/data $d/redis-data; mkdir -p $d/data $d/redis-data
  cat > $d/server.properties <<P
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:39093
listeners=PLAINTEXT://127.0.0.1:39092,CONTROLLER://127.0.0.1:39093
advertised.listeners=PLAINTEXT://127.0.0.1:39092
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
log.dirs=$d/data
num.partitions=4
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
P
  J=(java -Xmx512m -cp "$d/lib/*" -Dlogback.configurationFile=$here/logback.xml)
  "${J[@]}" kafka.tools.StorageTool format -t "$("${J[@]}" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -1)" \
    -c $d/server.properties > $d/format.log 2>&1 || { echo format failed; cat $d/format.log; }
  "${J[@]}" kafka.Kafka $d/server.properties > $d/kafka.log 2>&1 &
  kpid=$!
  $d/redis-server --port 39379 --bind 127.0.0.1 --dir $d/redis-data --appendonly no --save "" > $d/redis.log 2>&1 &
  rpid=$!
  for i in $(seq 1 120); do (echo > /dev/tcp/127.0.0.1/39092) 2>/dev/null && break; sleep 1; done
}
for round in $(seq 1 ${1:-2}); do
  for v in chart touch; do
    case $v in chart) heap="$chart";; touch) heap="$chart -XX:InitialRAMPercentage=75.0 -XX:+AlwaysPreTouch -XX:+UseTransparentHugePages";; esac
    broker
    echo 0 > $cg/memory.max_usage_in_bytes; echo 0 > $cg/memory.failcnt
    oom0=$(awk '/oom_kill /{print $2}' $cg/memory.oom_control)
    echo "$(date +%T) round $round $v load $(cut -d' ' -f1 /proc/loadavg)" >> $here/runs.log
    ( while true; do echo "$(date +%s%3N) $(cat $cg/memory.usage_in_bytes) $(awk '/^total_rss /{r=$2} /^total_cache /{c=$2} END{print r, c}' $cg/memory.stat)"; sleep 0.5; done ) > $here/mem-$v-$round.txt &
    sp=$!
    bash -c "echo \$\$ > $cg/cgroup.procs; exec env SWALE_BENCH_HEAP='$heap' SWALE_JAR=/work/prof/s37/build/swale-0.1.0-SNAPSHOT.jar \
      SWALE_BENCH=/work/prof/s37/build/bench /work/main/bin/swale bench --shapes chain --chain-repeat 10 --rates 2000,2000,2000 \
      --rate-seconds 30 --rate-steps --scale-runs 0 --floor-instances 0 --sweep-repeat 1 --kafka 127.0.0.1:39092 \
      --redis 127.0.0.1:39379 --json $here/$v-$round.json" > $here/$v-$round.txt 2> $here/$v-$round.err
    rc=$?
    kill $sp
    echo "$v-$round rc $rc max_usage $(cat $cg/memory.max_usage_in_bytes) failcnt $(cat $cg/memory.failcnt) oom_kills $(( $(awk '/oom_kill /{print $2}' $cg/memory.oom_control) - oom0 ))" >> $here/runs.log
    kill $kpid $rpid; wait $kpid $rpid 2>/dev/null
  done
done
echo "$(date +%T) done cg" >> $here/runs.log
