#!/bin/bash
# N (ec75bbc, this stop's head) paired with L (b29a85d, landed), 64 slots, two rounds of two pairs
d=/work/prof/s52
$d/one.sh $d/N N64-1 64; $d/one.sh $d/L L64-1 64
$d/one.sh $d/L L64-2 64; $d/one.sh $d/N N64-2 64
$d/one.sh $d/L L64-3 64; $d/one.sh $d/N N64-3 64
$d/one.sh $d/N N64-4 64; $d/one.sh $d/L L64-4 64
