#!/usr/bin/env bash
# Replays one reconfiguration scenario (crates/conformance/tests/reconfigure/) through real log4j2
# (Debian's jars) with ReconfigureReplay.java, the Java counterpart of l4rs-replay's steps.
# Usage: run-reconfigure.sh SCENARIO_DIR OUT_DIR. Exit status as the oracle's run.sh.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ $# -eq 2 ] || { echo "usage: run-reconfigure.sh SCENARIO_DIR OUT_DIR" >&2; exit 2; }
JAR_DIR=${LOG4J_JAR_DIR:-/usr/share/java}
CP="$JAR_DIR/log4j-api.jar:$JAR_DIR/log4j-core.jar:$JAR_DIR/disruptor.jar"
BUILD_ROOT=${ORACLE_BUILD_DIR:-${TMPDIR:-/tmp}/log4j2-oracle-build}
KEY=$( { cat "$HERE/ReconfigureReplay.java"; ls -lL "$JAR_DIR/log4j-api.jar" "$JAR_DIR/log4j-core.jar"; javac -version 2>&1; } \
       | sha256sum | cut -c1-16)
BUILD="$BUILD_ROOT/reconfigure-$KEY"
if [ ! -f "$BUILD/ReconfigureReplay.class" ]; then
    mkdir -p "$BUILD_ROOT"
    TMP_BUILD=$(mktemp -d "$BUILD_ROOT/tmp.XXXXXX")
    if ! javac -nowarn -encoding UTF-8 -d "$TMP_BUILD" -cp "$CP" "$HERE/ReconfigureReplay.java" >&2; then
        rm -rf "$TMP_BUILD"
        echo "run-reconfigure.sh: compiling ReconfigureReplay.java failed" >&2
        exit 3
    fi
    mv -T "$TMP_BUILD" "$BUILD" 2>/dev/null || rm -rf "$TMP_BUILD"
fi
mkdir -p "$2"
# shellcheck disable=SC2206
EXTRA=(${ORACLE_JAVA_OPTS:-})
exec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Dfile.encoding=UTF-8 -Duser.timezone=UTC \
    -Dline.separator=$'\n' --add-opens java.base/java.nio=ALL-UNNAMED \
    --add-opens java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
    ${EXTRA[@]+"${EXTRA[@]}"} -cp "$BUILD:$CP" ReconfigureReplay "$1" "$2"
