#!/bin/bash
# the landed build (L) and this change (N), alternating: default pool of 4 slots twice, then of 64 once
for round in 1 2; do
  for b in L N; do /work/prof/s39/one.sh /work/prof/s39/$b ${b}4-$round 4; done
done
for b in L N; do /work/prof/s39/one.sh /work/prof/s39/$b ${b}64-1 64; done
