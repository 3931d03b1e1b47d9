#!/bin/bash
# usage: ext.sh LABEL [extra bench args]: a fresh KRaft broker (kafka.Kafka, own JVM) and redis-server, then the bench against them
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
d=/tmp/legs/ext; label=$1; shift
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
delete.topic.enable=true
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
P
J=(java -Xmx512m -cp "$d/lib/*" -Dlogback.configurationFile=$d/logback.xml)
cid=$("${J[@]}" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -1)
"${J[@]}" kafka.tools.StorageTool format -t $cid -c $d/server.properties > $d/format.log 2>&1 || { echo format failed; cat $d/format.log; }
"${J[@]}" kafka.Kafka $d/server.properties > $d/kafka-$label.log 2>&1 &
kpid=$!
$d/redis-server-6.2.6-v5-linux-amd64 --port 39379 --bind 127.0.0.1 --dir $d/redis-data --appendonly no --save "" > $d/redis-$label.log 2>&1 &
rpid=$!
for i in $(seq 1 120); do (echo > /dev/tcp/127.0.0.1/39092) 2>/dev/null && break; sleep 1; done
sleep 2
cpu() { awk '{print $14+$15}' /proc/$1/stat; }
k0=$(cpu $kpid); r0=$(cpu $rpid)
( while kill -0 $kpid 2>/dev/null; do echo "$(date +%s%3N) $(cpu $kpid)"; sleep 0.5; done ) > /tmp/legs/ext/brokercpu-$label.txt &
spid=$!
echo "$(date +%s%3N)" > /tmp/legs/ext/benchstart-$label.txt
/tmp/legs/run.sh $label --kafka 127.0.0.1:39092 --redis 127.0.0.1:39379 "$@"
k1=$(cpu $kpid); r1=$(cpu $rpid)
echo "$label broker_cpu_s $(( (k1-k0) )) ticks/100 redis_cpu_s $(( (r1-r0) )) ticks/100 (whole bench run incl. warmup and baselines)" >> /tmp/legs/log
kill $spid; kill $kpid; kill $rpid; wait $kpid $rpid 2>/dev/null
