#!/bin/bash
# Prints, every INTERVAL seconds while process PID lives, what each of its threads did in the
# interval, from /proc/PID/task/*/schedstat and status: time on a CPU, time runnable but
# waiting for one (runq-wait), and voluntary / involuntary context switches.
# Usage: docs/runs/thread-cpu.sh PID INTERVAL (docs/benchmarks.md, "SCHED_BATCH background
# threads", 2026-12-06).
pid=$1
interval=$2
# join needs both snapshots sorted on the thread id alone, byte by byte.
export LC_ALL=C
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
snapshot() {
    for task in /proc/"$pid"/task/*; do
        name=$(tr -d ' ' <"$task/comm" 2>/dev/null) || continue
        sched=$(cat "$task/schedstat" 2>/dev/null) || continue
        switches=$(awk '/voluntary_ctxt_switches/ {printf "%s ", $2}' "$task/status" 2>/dev/null)
        echo "$(basename "$task") $name $sched $switches"
    done | sort -k1,1
}
while kill -0 "$pid" 2>/dev/null; do
    snapshot >"$scratch/before"
    sleep "$interval"
    snapshot >"$scratch/after"
    echo "--- $(date +%T)"
    # Fields after the join: tid, then name, run ns, wait ns, slices, vol, invol of each.
    join "$scratch/before" "$scratch/after" | awk '{
        printf "%-8s %-16s run %7.1f ms  runq-wait %7.1f ms  vol %6d invol %6d\n",
            $1, $2, ($9 - $3) / 1e6, ($10 - $4) / 1e6, $12 - $6, $13 - $7 }'
done
