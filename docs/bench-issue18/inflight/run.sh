#!/bin/sh
# The runs of docs/performance.md, "One produce request in flight". main.jar = the build before the change
# (8f29426), new.jar = the build with ProducerDefaults (max.in.flight.requests.per.connection=1 by default).
# Usage: run.sh <jar> <folder/run> <shapes|long|chain|rate> [-p key=value …], e.g.
#   docs/bench-issue18/inflight/run.sh /tmp/main.jar docs/bench-issue18/inflight/jar/P-A1 shapes
SHAPES="--shapes chain,runs,wide --runs 500 --chain-repeat 30 --scale-runs 0 --samples 1000 --kafka-records 20000 --chain-sizes 10 --sweep-repeat 1"
# property/: main.jar only; f1-N with -p spring.kafka.producer.properties.max.in.flight.requests.per.connection=1,
#   c4-N without, alternated f1-1 c4-6 f1-2 c4-7 … f1-6 c4-11, $SHAPES
# jar/: P-AN main.jar, P-BN new.jar, P-CN new.jar -p swale.kafka.listener-concurrency=2, $SHAPES;
#   order A B C for N = 1..3, then B A C for N = 4, 5
# long/: L-?N as jar/, with
LONG="--shapes runs,wide --runs 2000 --wide 4000 --scale-runs 0 --samples 200 --kafka-records 2000 --floor-instances 0 --sweep-repeat 1"
#   order A B C, B C A, C A B, A C (the fourth B overlapped another run and was dropped)
# chain/: E-AN main.jar, E-BN new.jar, alternated A B eleven times (B5–B8 also with the LeaseKeeper change, B9–B11
#   also with a speed probe not kept), with
CHAIN="--shapes chain --chain-repeat 60 --scale-runs 0 --samples 1000 --kafka-records 2000 --floor-instances 0 --chain-sizes 10 --sweep-repeat 1"
# rate/: R-B new.jar then R-A main.jar, with
RATE="--shapes rate --rates 750,1000,1500 --rate-seconds 15 --scale-runs 0 --samples 200 --kafka-records 2000 --floor-instances 0 --sweep-repeat 1"
set -eu
jar=$1; out=$2; set_=$3; shift 3
case $set_ in
  shapes) args=$SHAPES ;; long) args=$LONG ;; chain) args=$CHAIN ;; rate) args=$RATE ;;
  *) echo "run.sh: unknown set $set_ (shapes, long, chain, rate)" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck disable=SC2086
SWALE_JAR=$jar "$here/bin/swale" bench $args "$@" --json "$out.json" > "$out.txt" 2>&1
