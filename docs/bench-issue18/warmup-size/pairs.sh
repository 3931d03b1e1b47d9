#!/bin/bash
# N rounds, each the landed bench (L) then the bench that warms up at the measured sizes (N), same service jar
# $BUILDS holds L/ (the landed service jar and bench) and N/ (the same jar, the bench with N-bench.diff)
for i in $(seq "$1" "$2"); do
  if [ $((i % 2)) -eq 1 ]; then ./one.sh L$i $BUILDS/L; ./one.sh N$i $BUILDS/N
  else ./one.sh N$i $BUILDS/N; ./one.sh L$i $BUILDS/L; fi
done
