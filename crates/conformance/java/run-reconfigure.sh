#!/usr/bin/env bash
# Replays one reconfiguration scenario (crates/conformance/tests/reconfigure/) through real log4j2
# (Debian's jars) with ReconfigureReplay.java, the Java counterpart of l4rs-replay's steps.
# Usage: run-reconfigure.sh SCENARIO_DIR OUT_DIR. Exit status as the oracle's run.sh.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ $# -eq 2 ] || { echo "usage: run-reconfigure.sh SCENARIO_DIR OUT_DIR" >&2; exit 2; }
mkdir -p "$2"
JAVA_SOURCES="$HERE" exec "$HERE/run-java.sh" ReconfigureReplay "$1" "$2"
