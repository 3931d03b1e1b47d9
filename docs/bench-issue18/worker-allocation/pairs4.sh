#!/bin/bash
# the final build (F: the settle's retry after a failure only, the meters looked up) paired with the landed L, 64 slots
d=/work/prof/s41
$d/one.sh $d/F F64-1 64; $d/one.sh $d/L L64-7 64
$d/one.sh $d/L L64-8 64; $d/one.sh $d/F F64-2 64
