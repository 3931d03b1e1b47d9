#!/bin/bash
# attempts on virtual threads (V) paired with the landed build (L), 4 and 64 slots, each order once
d=/work/prof/s41
$d/one.sh $d/V V4-1 4; $d/one.sh $d/L L4-1 4
$d/one.sh $d/V V64-1 64; $d/one.sh $d/L L64-1 64
$d/one.sh $d/L L4-2 4; $d/one.sh $d/V V4-2 4
$d/one.sh $d/L L64-2 64; $d/one.sh $d/V V64-2 64
