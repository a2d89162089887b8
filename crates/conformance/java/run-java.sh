#!/usr/bin/env bash
# Compiles (once, cached by source, jars and javac) and runs one of this folder's Java programs
# against real log4j2 (Debian's 2.19 jars): the Java counterparts of what l4rs is compared with.
# Usage: run-java.sh CLASS [ARGS...]; CLASS.java is in this folder, or in JAVA_SOURCES with the
# other classes it uses (the java-syntax crate's tests keep theirs there). The JVM starts in UTC with
# the oracle's output environment (UTF-8, `\n`, locale en_US) and its own messages on stderr
# only (no perf-data file, whose "locked by another process" warning once reached stdout);
# ORACLE_JAVA_OPTS adds options. The run is stopped after JAVA_TIMEOUT seconds (default 600),
# so that a program caught in a loop fails a test rather than hanging it.
# Exit status: the program's, 3 when compiling fails, 124 when stopped.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ $# -ge 1 ] || { echo "usage: run-java.sh CLASS [ARGS...]" >&2; exit 2; }
CLASS=$1
shift
JAR_DIR=${LOG4J_JAR_DIR:-/usr/share/java}
CP="$JAR_DIR/log4j-api.jar:$JAR_DIR/log4j-core.jar:$JAR_DIR/disruptor.jar"
# Jackson, when installed: MutableThreadContextMapFilter reads its JSON file with it.
for jar in jackson-core jackson-databind jackson-annotations; do
    [ -r "$JAR_DIR/$jar.jar" ] && CP="$CP:$JAR_DIR/$jar.jar"
done
# JDBC drivers, when installed: JdbcRows.java inserts through them (.ci/setup/60-databases.sh).
for jar in xerial-sqlite-jdbc postgresql; do
    [ -r "$JAR_DIR/$jar.jar" ] && CP="$CP:$JAR_DIR/$jar.jar"
done
BUILD_ROOT=${ORACLE_BUILD_DIR:-${TMPDIR:-/tmp}/log4j2-oracle-build}
SOURCES=${JAVA_SOURCES:-$HERE}
[ -f "$SOURCES/$CLASS.java" ] || { echo "run-java.sh: $SOURCES/$CLASS.java is missing" >&2; exit 2; }
KEY=$( { cat "$SOURCES"/*.java; ls -lL "$JAR_DIR/log4j-api.jar" "$JAR_DIR/log4j-core.jar" 2>&1; javac -version 2>&1; } \
       | sha256sum | cut -c1-16)
BUILD="$BUILD_ROOT/$CLASS-$KEY"
if [ ! -f "$BUILD/$CLASS.class" ]; then
    mkdir -p "$BUILD_ROOT"
    TMP_BUILD=$(mktemp -d "$BUILD_ROOT/tmp.XXXXXX")
    if ! javac -nowarn -encoding UTF-8 -d "$TMP_BUILD" -cp "$CP" -sourcepath "$SOURCES" "$SOURCES/$CLASS.java" >&2; then
        rm -rf "$TMP_BUILD"
        echo "run-java.sh: compiling $CLASS.java failed" >&2
        exit 3
    fi
    # Another run may have finished the same build first; either copy will do.
    mv -T "$TMP_BUILD" "$BUILD" 2>/dev/null || rm -rf "$TMP_BUILD"
fi
# shellcheck disable=SC2206
EXTRA=(${ORACLE_JAVA_OPTS:-})
exec timeout "${JAVA_TIMEOUT:-600}" java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
    -XX:-UsePerfData -Xlog:disable -Xlog:all=warning:stderr -Dfile.encoding=UTF-8 -Duser.timezone=UTC \
    -Duser.language=en -Duser.country=US -Dline.separator=$'\n' \
    --add-opens java.base/java.nio=ALL-UNNAMED \
    --add-opens java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
    ${EXTRA[@]+"${EXTRA[@]}"} -cp "$BUILD:$CP" "$CLASS" "$@"
