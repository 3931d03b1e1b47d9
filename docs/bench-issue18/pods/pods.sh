#!/bin/bash
# usage: [LIMIT_api=bytes] [JAVA_OPTS_scheduler=..] [JAVA_OPTS_api=..] [JAVA_OPTS_pool=..] pods.sh NAME SECONDS RUNS_PER_S [EXTRA_JAVA_TOOL_OPTIONS]
# The chart's three Deployments as three JVMs of the service jar, each with the chart's environment and in a memory
# cgroup of its pod's limit (scheduler 768 MiB, api 512 MiB, pool "default" 768 MiB with 4 slots), against a KRaft
# broker and a redis-server in their own processes outside them. A ten-node noop graph is posted to the api; a
# steady stream of trigger messages starts RUNS_PER_S runs a second for SECONDS; the api is read once a second
# meanwhile. Every 2 s each cgroup's usage and each JVM's RSS are written; NMT summaries at the end.
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
name=$1; secs=$2; rps=$3; extra=$4
here=/work/prof/s38; out=$here/$name; d=/tmp/ext
mkdir -p $out
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
num.partitions=12
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
P
J=(java -Xmx512m -cp "$d/lib/*" -Dlogback.configurationFile=$here/logback.xml)
"${J[@]}" kafka.tools.StorageTool format -t "$("${J[@]}" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -1)" \
  -c $d/server.properties > $d/format.log 2>&1 || { echo format failed; cat $d/format.log; }
"${J[@]}" kafka.Kafka $d/server.properties > $out/kafka.log 2>&1 &
kpid=$!
$d/redis-server --port 39379 --bind 127.0.0.1 --dir $d/redis-data --appendonly no --save "" > $out/redis.log 2>&1 &
rpid=$!
for i in $(seq 1 120); do (echo > /dev/tcp/127.0.0.1/39092) 2>/dev/null && break; sleep 1; done

common=(SWALE_EMBEDDED=false SERVER_SHUTDOWN=graceful MANAGEMENT_ENDPOINT_HEALTH_PROBES_ENABLED=true
  LOGGING_LEVEL_IO_SWALE=INFO
  'SPRING_APPLICATION_JSON={"swale":{"pools":{"default":{"slots":4}}}}' SWALE_DEFAULT_SLOTS=4
  SWALE_KAFKA_TOPIC_PREFIX=swale. SWALE_KAFKA_PARTITIONS=12 SWALE_KAFKA_REPLICATION_FACTOR=1
  SWALE_KAFKA_LISTENER_CONCURRENCY=4 SWALE_KAFKA_CONSUMER_SESSION_TIMEOUT=10s SWALE_KAFKA_CONSUMER_HEARTBEAT_INTERVAL=1s
  SWALE_KAFKA_CONSUMER_ASSIGNMENT=cooperative-sticky SWALE_REDIS_KEY_PREFIX=swale SWALE_REDIS_DURABILITY=none
  SWALE_SCHEDULER_RECONCILE_INTERVAL=60s SWALE_SCHEDULER_SYNC_INTERVAL=30s SWALE_SCHEDULER_STALE_DISPATCH=60s
  SWALE_SCHEDULER_DELAYED_POLL=200ms SWALE_WORKER_LEASE=60s SWALE_WORKER_HEARTBEAT=20s SWALE_WORKER_CANCEL_POLL=1s
  SWALE_WORKER_RETRY_INITIAL=1s SWALE_WORKER_RETRY_MAX=5m SWALE_SECURITY_OPEN=true
  SPRING_KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:39092 SPRING_KAFKA_SECURITY_PROTOCOL=PLAINTEXT
  SPRING_DATA_REDIS_HOST=127.0.0.1 SPRING_DATA_REDIS_PORT=39379 SPRING_DATA_REDIS_DATABASE=0
  SPRING_DATA_REDIS_TIMEOUT=5s SPRING_DATA_REDIS_CONNECT_TIMEOUT=5s)
declare -A limit=([scheduler]=805306368 [api]=${LIMIT_api:-536870912} [pool]=805306368)
declare -A port=([scheduler]=18081 [api]=18082 [pool]=18083)
declare -A pid
for role in scheduler api pool; do
  cg=/sys/fs/cgroup/memory/swale-$role
  mkdir -p $cg; echo ${limit[$role]} > $cg/memory.limit_in_bytes
  echo 0 > $cg/memory.max_usage_in_bytes; echo 0 > $cg/memory.failcnt
  # JAVA_OPTS_<role> replaces the chart's options for that role; $extra is added to every role's
  opts_var=JAVA_OPTS_$role
  opts="${!opts_var:--XX:MaxRAMPercentage=75.0 -XX:+ExitOnOutOfMemoryError}"
  envs=("${common[@]}" "JAVA_TOOL_OPTIONS=$opts -XX:NativeMemoryTracking=summary $extra" SWALE_ROLES=$role SERVER_PORT=${port[$role]})
  echo "$role JAVA_TOOL_OPTIONS=$opts -XX:NativeMemoryTracking=summary $extra" >> $out/events.txt
  [ $role = pool ] && envs+=(SWALE_WORKER_POOLS=default SWALE_WORKER_SHUTDOWN_GRACE=105s SPRING_LIFECYCLE_TIMEOUT_PER_SHUTDOWN_PHASE=115s)
  ( echo $BASHPID > $cg/cgroup.procs; cd /tmp; exec env "${envs[@]}" java -jar $here/swale.jar ) > $out/$role.log 2>&1 &
  pid[$role]=$!
done
for role in scheduler api pool; do
  for i in $(seq 1 180); do curl -sf localhost:${port[$role]}/actuator/health/readiness >/dev/null && break; sleep 1; done
  echo "$(date +%T) $role ready $(curl -s localhost:${port[$role]}/actuator/health/readiness)" >> $out/events.txt
done
curl -s -XPOST -H 'Content-Type: text/plain' --data-binary @$here/podmem.toml localhost:18082/api/v1/definitions >> $out/events.txt; echo >> $out/events.txt
sleep 35  # the scheduler's definitions sync (30 s) before the first trigger
( while true; do
    line="$(date +%s)"
    for role in scheduler api pool; do
      cg=/sys/fs/cgroup/memory/swale-$role
      line+=" $role $(cat $cg/memory.usage_in_bytes) $(awk '/^total_rss /{r=$2} /^total_cache /{c=$2} END{print r, c}' $cg/memory.stat) $(awk '/VmRSS/{print $2}' /proc/${pid[$role]}/status 2>/dev/null || echo dead)"
    done
    echo "$line"; sleep 2
  done ) > $out/mem.txt &
sampler=$!
( while true; do curl -s -o /dev/null 'localhost:18082/api/v1/graphs/podmem/runs?limit=500'; curl -s -o /dev/null localhost:18082/actuator/swale; curl -s -o /dev/null localhost:18082/api/v1/graphs; sleep 1; done ) &
reader=$!
echo "$(date +%T) load $rps runs/s for $secs s (load avg $(cut -d' ' -f1 /proc/loadavg))" >> $out/events.txt
java -cp "$d/lib/kafka-clients-4.1.2.jar:$(ls $d/lib/slf4j-api-*.jar | head -1):$(ls $d/lib/lz4*.jar | head -1):$(ls $d/lib/snappy*.jar | head -1):$(ls $d/lib/zstd*.jar | head -1)" \
  $here/Triggers.java 127.0.0.1:39092 swale.triggers podmem $rps $secs 10 >> $out/events.txt 2>&1
echo "$(date +%T) load sent" >> $out/events.txt
sleep 20
for role in scheduler api pool; do
  jcmd ${pid[$role]} VM.native_memory summary > $out/nmt-$role.txt 2>&1
  jcmd ${pid[$role]} GC.heap_info > $out/heap-$role.txt 2>&1
  cg=/sys/fs/cgroup/memory/swale-$role
  echo "$role max_usage $(cat $cg/memory.max_usage_in_bytes) failcnt $(cat $cg/memory.failcnt) oom_kill $(awk '/oom_kill /{print $2}' $cg/memory.oom_control) alive $(kill -0 ${pid[$role]} 2>/dev/null && echo yes || echo no)" >> $out/events.txt
done
curl -s 'localhost:18082/api/v1/graphs' >> $out/events.txt; echo >> $out/events.txt
kill $sampler $reader
for role in scheduler api pool; do kill ${pid[$role]}; done
wait ${pid[scheduler]} ${pid[api]} ${pid[pool]} 2>/dev/null
kill $kpid $rpid; wait $kpid $rpid 2>/dev/null
for role in scheduler api pool; do rmdir /sys/fs/cgroup/memory/swale-$role; done
echo "$(date +%T) done" >> $out/events.txt
