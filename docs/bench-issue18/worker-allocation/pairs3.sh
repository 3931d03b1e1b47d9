#!/bin/bash
# the settle's retry built after a failure only (S) paired with the landed build (L), 64 slots, each order once
d=/work/prof/s41
$d/one.sh $d/S S64-1 64; $d/one.sh $d/L L64-5 64
$d/one.sh $d/L L64-6 64; $d/one.sh $d/S S64-2 64
