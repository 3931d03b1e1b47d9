#!/bin/bash
# the final build (D: settle places after the review mend, pool counts shared): 4 slots paired with the landed L, then its pool counts
/work/prof/s39/one.sh /work/prof/s39/D D4-5 4
/work/prof/s39/one.sh /work/prof/s39/L L4-5 4
cd /work/prof/s39/counts && ./counts.sh /work/prof/s39/D final-1
