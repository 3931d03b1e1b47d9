#!/usr/bin/env bash
# Prints, after a failed build, each failing test class with its failing tests and the distinct causes of their
# errors (the "Caused by" lines of the reports), so that a CI log cut to its tail still shows why.
# A context that failed to load is reported once with its cause; the tests after it only say "threshold exceeded".
cd "$(dirname "$0")/.."
shopt -s nullglob
for report in target/surefire-reports/*.txt target/failsafe-reports/*.txt; do
  case "$report" in *-output.txt) continue ;; esac
  grep -q '<<< \(FAILURE\|ERROR\)!' "$report" || continue
  echo "== ${report#target/}"
  grep -E '<<< (FAILURE|ERROR)!$' "$report" | grep -v '^Tests run' | sed 's/ -- Time elapsed.*<<< / /' | head -20
  grep -E '^(Caused by: |[[:alnum:]_.$]+(Exception|Error): )' "$report" | grep -v 'threshold (1) exceeded' \
    | cut -c1-400 | awk '!seen[$0]++' | tail -12
done
