#!/bin/bash
# round 3 and 4 on 64 slots (each order), then the sustained rates of each
d=/work/prof/s41
$d/one.sh $d/V V64-3 64; $d/one.sh $d/L L64-3 64
$d/one.sh $d/L L64-4 64; $d/one.sh $d/V V64-4 64
$d/rate.sh $d/V Vrate-1; $d/rate.sh $d/L Lrate-1
