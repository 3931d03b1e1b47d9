#!/bin/bash
# N (this stop's head) paired with L (ec5f05f, landed), 64 slots, each order twice
d=/work/prof/s51
$d/one.sh $d/N N64-1 64; $d/one.sh $d/L L64-1 64
$d/one.sh $d/L L64-2 64; $d/one.sh $d/N N64-2 64
