# The JDBC appender's tests (crates/integration-tests/tests/jdbc.rs, crates/conformance/tests/
# jdbc_rows.rs): PostgreSQL's server and psql (the tests start a throwaway cluster on
# 127.0.0.1 themselves; the package's own service is not needed), the sqlite3 shell that reads
# the SQLite files back, and the JDBC drivers log4j2 inserts through in the comparison
# (xerial's SQLite driver; pgjdbc).
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! command -v psql >/dev/null \
    || ! command -v sqlite3 >/dev/null || ! command -v runuser >/dev/null; then
    ci_apt_install postgresql sqlite3 util-linux
fi
if ! [ -r /usr/share/java/sqlite-jdbc.jar ] || ! [ -r /usr/share/java/postgresql.jar ]; then
    ci_apt_install libxerial-sqlite-jdbc-java libpostgresql-jdbc-java
fi
