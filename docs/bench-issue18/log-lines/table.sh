#!/bin/bash
# prints, for each named bench output, the shapes' tasks/s, edge p50 and CPU per task instance (sum of the roles)
cd "$(dirname "$0")"
for f in "$@"; do
  [ -f $f.txt ] || continue
  printf "%-4s %8s lines  " $f $(grep -c . $f.txt)
  grep -E "^  (chain|runs|wide) +[0-9]+ +[0-9]+ " $f.txt | awk '{cpu=$13+$15+$17+$19+$21+$23; printf "%s %5s/s p50 %6s cpu %4d µs | ", $1, $5, $6, cpu}'
  grep -E "edge p50 / two-hop p50" $f.txt | awk '{printf "edge/2hop %s\n", $NF}'
done
