#!/usr/bin/env bash
# Runs every test: formatting and lint checks, then the unit and integration tests of the whole
# workspace, which include the conformance suite against the real log4j2 (skipped with a notice
# when Java or Debian's log4j2 jars are missing, except under CI, which installs them).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
export L4RS_REQUIRE_ORACLE=${L4RS_REQUIRE_ORACLE:-${CI:-}}
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
# The conformance test compares a release l4rs-replay against log4j2 (issue 3's CI clause).
cargo build --release -p l4rs-conformance --bin l4rs-replay
L4RS_REPLAY="$(cd "${CARGO_TARGET_DIR:-target}" && pwd)/release/l4rs-replay"
export L4RS_REPLAY
cargo test --workspace --all-targets
