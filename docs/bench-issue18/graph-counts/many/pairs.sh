#!/bin/bash
# the landed build (L) and the final build of this change (F), alternating, 200 graphs (many.sh)
cd "$(dirname "$0")"
for round in 1 2; do
  ./many.sh /work/prof/s40/L before-$round
  sleep 5
  ./many.sh /work/prof/s40/F after-$round
  sleep 5
done
