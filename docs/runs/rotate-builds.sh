#!/bin/bash
# Runs several builds of l4rs-bench in turn, each round starting one build later, and appends
# their RESULT lines to OUT. Usage: docs/runs/rotate-builds.sh ROUNDS OUT "BIN1 BIN2 ..." [bench args...]
# (docs/benchmarks.md, "Populating further ahead while written heavily", 2026-12-06).
rounds=$1; out=$2; bins=($3); shift 3
n=${#bins[@]}
# Run from anywhere: the bench writes under the checkout's target/.
cd "$(dirname "$0")/../.."
for r in $(seq 1 $rounds); do
  for i in $(seq 0 $((n-1))); do
    bin=${bins[$(( (i + r - 1) % n ))]}
    echo "=== $(basename $bin) r$r $(date +%T)" >> $out
    # The RESULT lines without their allocation fields (the report's table has them), cut short.
    $bin "$@" 2>&1 | grep -a "^RESULT\|WARNING\|note:" | sed 's/ alloc_bytes_per_op.*bytes_per_event=[0-9.]*//' | cut -c1-150 >> $out
  done
done
echo "=== end $(date +%T)" >> $out
