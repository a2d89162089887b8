#!/bin/sh
# The MemoryMappedFile rows beside the disk's durable write rate, interleaved.
#
# Each round first measures how fast the disk under the bench folder takes bytes that must
# reach it (GNU dd, 3000 MiB, `conv=fdatasync`), then runs the synchronous and the two
# asynchronous MemoryMappedFile rows, one process each, and prints each row's ops/ms and the
# MB/s it wrote. The asynchronous rows sync the file whenever a batch ends (as log4j2's
# end-of-batch `force()`), so the disk writes the file back while they run; the synchronous
# row never syncs. BENCH_NOSYNC, if set, is a build of the experiment branch
# experiment/mmf-no-batch-sync (see mmf-batch-sync-2026-12-03.txt): its asynchronous rows run
# too, with L4RS_EXPERIMENT_NO_BATCH_SYNC=1, which switches that sync off.
#
# Usage: BENCH=target/release/l4rs-bench [BENCH_NOSYNC=...] [BENCH_DIR=target/l4rs-bench/logs]
#        [BENCH_ARGS="--warmup 2s --measure 5s"] sh mmf-disk-bound.sh ROUNDS
set -eu
dir=${BENCH_DIR:-target/l4rs-bench/logs}
args=${BENCH_ARGS:---warmup 2s --measure 5s}
mkdir -p "$dir"
field() { tr ' ' '\n' | sed -n "s/^$1=//p"; }
row() { # build-name mode command...
    name=$1 mode=$2
    shift 2
    out=$("$@" --appender MemoryMappedFile --mode "$mode" --dir "$dir" $args 2>/dev/null | grep '^RESULT') ||
        { echo "mmf-disk-bound: no RESULT line from $name $mode" >&2; exit 1; }
    echo "round=$round build=$name row=$(echo "$out" | field appender)" \
         "ops_per_ms=$(echo "$out" | field ops_per_ms) write_mb_per_s=$(echo "$out" | field write_mb_per_s)" \
         "bytes_per_event=$(echo "$out" | field bytes_per_event) dropped=$(echo "$out" | field dropped)"
}
round=0
while [ "$round" -lt "${1:-3}" ]; do
    rate=$(dd if=/dev/zero of="$dir/dd-durable" bs=1M count=3000 conv=fdatasync 2>&1 | tail -1)
    rm -f "$dir/dd-durable"
    case $rate in
        */s) echo "round=$round disk_durable: $rate" ;;
        *) echo "mmf-disk-bound: dd failed: $rate" >&2; exit 1 ;;
    esac
    for mode in sync async-logger async-appender; do
        row main "$mode" "$BENCH"
        if [ "$mode" != sync ] && [ -n "${BENCH_NOSYNC:-}" ]; then
            row no-sync "$mode" env L4RS_EXPERIMENT_NO_BATCH_SYNC=1 "$BENCH_NOSYNC"
        fi
    done
    round=$((round + 1))
done
