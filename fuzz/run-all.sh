#!/usr/bin/env bash
# Builds every fuzz target on stable Rust and runs each for SECONDS (default 10): libFuzzer
# with SanitizerCoverage's counters and comparison hooks, as cargo-fuzz builds it, but without
# AddressSanitizer (which needs nightly); debug assertions and overflow checks on. Seeds come
# from fuzz/seed.py; a target that crashes, times out or runs out of memory fails the script,
# leaving its input in fuzz/artifacts/TARGET/. CI runs it with the default as a smoke run; a
# soak is `fuzz/run-all.sh 600` (docs/robustness.md).
#
# Usage, from anywhere: fuzz/run-all.sh [SECONDS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
script="$(basename "${BASH_SOURCE[0]}")"
seconds="${1:-10}"

target="$(rustc -vV | sed -n 's/^host: //p')"
# --target keeps these flags off build scripts and proc macros, which must not link libFuzzer.
export RUSTFLAGS="--cfg fuzzing -Cdebug-assertions -Coverflow-checks -Cpasses=sancov-module \
-Cllvm-args=-sanitizer-coverage-level=4 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
-Cllvm-args=-sanitizer-coverage-pc-table -Cllvm-args=-sanitizer-coverage-trace-compares"

# Every target needs a row in the table at the end.
for source in fuzz_targets/*.rs; do
    name="$(basename "$source" .rs)"
    if ! grep -q "^$name " "$script"; then
        echo "fuzz: $name has no row in fuzz/$script's table (its max_len and dictionary)" >&2
        exit 1
    fi
done

# --locked: the lock file is committed; a build must not change it behind CI's back.
cargo clippy --locked --target "$target" --all-targets -- -D warnings
cargo build --locked --release --target "$target"
python3 seed.py

# target, longest input, dictionary (- for none): the limits of docs/robustness.md's table.
while read -r name max_len dict; do
    [ -n "$name" ] || continue
    mkdir -p "corpus/$name" "artifacts/$name"
    args=(-max_len="$max_len" -rss_limit_mb=2048 -timeout=10 -max_total_time="$seconds"
        -artifact_prefix="artifacts/$name/" -print_final_stats=1)
    [ "$dict" = - ] || args+=(-dict="dict/$dict")
    echo "fuzz: $name for ${seconds}s"
    if ! "target/$target/release/$name" "corpus/$name" "${args[@]}" \
        </dev/null >"artifacts/$name/log.txt" 2>&1; then
        tail -n 40 "artifacts/$name/log.txt"
        echo "fuzz: $name failed; its input is in fuzz/artifacts/$name/" >&2
        exit 1
    fi
    executed="$(grep -E '^stat::number_of_executed_units' "artifacts/$name/log.txt" || true)"
    echo "fuzz: $name ${executed:-ran (libFuzzer printed no final stats)}"
done <<'TARGETS'
config_loader 65536 xml.dict
pattern_layout 4096 pattern.dict
jackson_layouts 4096 -
cron 256 -
rolling_values 512 pattern.dict
java_regex 1024 pattern.dict
json_template 8192 -
date_pattern 512 pattern.dict
tls_stores 16384 -
relp_frames 4096 -
routing_routes 1024 xml.dict
time_filter 256 -
smtp_mail 4096 -
context_map_file 4096 -
http_parsers 4096 -
arbiters_and_scripts 1024 xml.dict
jdbc_statements 1024 -
TARGETS
