#!/bin/bash
# the build before (N: the settle places) and after (C: the pool counts shared for 1 s), alternating
cd /work/prof/s39/counts
for round in 1 2; do
  ./counts.sh /work/prof/s39/N before-$round
  sleep 5
  ./counts.sh /work/prof/s39/C after-$round
  sleep 5
done
