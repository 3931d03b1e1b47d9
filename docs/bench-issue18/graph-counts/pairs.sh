#!/bin/bash
# the landed build (L) and this change (G: the graph list's run counts shared for 1 s), alternating
cd "$(dirname "$0")"
for round in 1 2; do
  ./graphs.sh /work/prof/s40/L before-$round
  sleep 5
  ./graphs.sh /work/prof/s40/G after-$round
  sleep 5
done
