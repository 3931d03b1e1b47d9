#!/bin/bash
# two more rounds of the default pool of 4 slots, this change first, then 64 slots once more in the same order
for round in 3 4; do
  for b in N L; do /work/prof/s39/one.sh /work/prof/s39/$b ${b}4-$round 4; done
done
for b in N L; do /work/prof/s39/one.sh /work/prof/s39/$b ${b}64-2 64; done
