#!/bin/bash
# usage: logcost.sh ROUNDS : the bench's runs and wide shapes with io.swale's loggers at WARN (the bench's own
# default) and at INFO (the service's default), alternating; the INFO run's log goes to a file, as a container's would.
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
here=/work/prof/s38/log
for round in $(seq 1 ${1:-2}); do
  for level in WARN INFO; do
    echo "$(date +%T) round $round $level load $(cut -d' ' -f1 /proc/loadavg)" >> $here/runs.log
    SWALE_JAR=$here/build/swale-0.1.0-SNAPSHOT.jar SWALE_BENCH=$here/build/bench \
      /work/main/bin/swale bench --shapes runs,wide --runs 500 --wide 2000 --scale-runs 0 --samples 300 \
      --kafka-records 5000 --sweep-repeat 1 --floor-instances 0 -p logging.level.io.swale=$level \
      --json $here/$level-$round.json > $here/$level-$round.out 2> $here/$level-$round.err
    echo "$(date +%T) $level-$round rc $? log bytes $(wc -c < $here/$level-$round.out)" >> $here/runs.log
  done
done
