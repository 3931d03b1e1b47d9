#!/bin/bash
# two more pairs on 64 slots: the final build (D) and the landed one (L), alternating which goes first
/work/prof/s39/one.sh /work/prof/s39/D D64-3 64
/work/prof/s39/one.sh /work/prof/s39/L L64-3 64
/work/prof/s39/one.sh /work/prof/s39/L L64-4 64
/work/prof/s39/one.sh /work/prof/s39/D D64-4 64
