//! The rows a JDBC appender inserts, compared with log4j2's: the same configuration and the
//! same events go through log4j2 2.19 (`crates/conformance/java/JdbcRows.java`) and through
//! l4rs, into two tables of the same schema, and the tables must hold the same rows:
//! - SQLite, log4j2 through xerial's driver, two files read back with the `sqlite3` shell;
//! - PostgreSQL, log4j2 through pgjdbc, two tables of a server started for the test, read
//!   back with `psql`.
//!
//! Compared: the statement's column order, literal SQL, text cut to a `VARCHAR(n)`'s length, a
//! `ColumnMapping` converted to `java.lang.Integer` (NULL when it does not parse), the event
//! timestamp (INTEGER milliseconds in SQLite, local time in a PostgreSQL `timestamp`; checked
//! to fall inside each run), an event below the root's level, and a buffer of two rows with
//! one left to flush when logging stops.
//!
//! `isUnicode="false"` on every `<Column>`: xerial's driver refuses `setNString`, so with the
//! default every log4j2 insert into SQLite fails (`SQLFeatureNotSupportedException`), where
//! l4rs inserts the text (docs/appenders.md, "JDBC").
//!
//! Skipped with a notice without Java, Debian's log4j2 jars, the JDBC drivers, the sqlite3
//! shell or PostgreSQL, except under CI.

use std::ops::RangeInclusive;
use std::path::Path;

use l4rs_tests::databases::{sqlite3, Postgres};
use l4rs_tests::now_millis;

/// The table both sides insert into.
const SCHEMA: &str = "create table logs (at integer, level varchar(5), logger text, message text, n integer, k text, short varchar(4))";

/// The events: level, the thread context's `n`, message.
const EVENTS: &[(&str, &str, &str)] = &[
    ("INFO", "1", "hello world"),
    ("WARN", "x", "ünïcödé 'quoted' ?"),
    ("DEBUG", "2", "below the root's level"),
    ("ERROR", "-3", "third; drop table logs; --"),
    ("FATAL", "4", "fourth"),
    // The fifth row waits in the buffer of two until logging stops.
    ("INFO", "5", "fifth"),
];

/// The configuration, writing to table `table` of the database `url` names.
fn configuration(url: &str, table: &str) -> String {
    format!(
        r#"<Configuration status="warn"><Appenders>
<JDBC name="db" tableName="{table}" bufferSize="2" ignoreExceptions="false">
  <DriverManager connectionString="{url}"/>
  <ColumnMapping name="n" pattern="%X{{n}}" type="java.lang.Integer"/>
  <Column name="at" isEventTimestamp="true"/>
  <Column name="level" pattern="%level" isUnicode="false"/>
  <Column name="logger" pattern="%logger" isUnicode="false"/>
  <Column name="message" pattern="%m" isUnicode="false"/>
  <Column name="k" literal="'lit'"/>
  <Column name="short" pattern="%m" isUnicode="false"/>
</JDBC></Appenders><Loggers><Root level="info"><AppenderRef ref="db"/></Root></Loggers></Configuration>"#
    )
}

/// Logs [`EVENTS`] through log4j2 (JdbcRows.java) with `java_config`, then through l4rs with
/// `l4rs_config`; the time windows of the two runs, in milliseconds since the epoch.
fn replay_both(
    dir: &Path,
    java_config: &str,
    l4rs_config: &str,
) -> (RangeInclusive<i64>, RangeInclusive<i64>) {
    let _turn = l4rs_tests::serial();
    let input: String = EVENTS
        .iter()
        .map(|(level, n, message)| format!("{level}|{n}|{message}\n"))
        .collect();
    let java_path = dir.join("log4j2.xml");
    std::fs::write(&java_path, java_config).unwrap();
    let before = now_millis();
    let output = l4rs_test_support::log4j2::run_java_program(
        "JdbcRows",
        &[java_path.to_str().unwrap()],
        input.as_bytes(),
    );
    let java_window = before..=now_millis();
    assert!(
        output.status.success(),
        "JdbcRows: {}",
        String::from_utf8_lossy(&output.stderr)
    );

    let l4rs_path = dir.join("l4rs.xml");
    std::fs::write(&l4rs_path, l4rs_config).unwrap();
    let before = now_millis();
    l4rs::init_with_file(&l4rs_path).expect("the configuration loads");
    let logger = l4rs::get_logger("app");
    for (level, n, message) in EVENTS {
        l4rs::ThreadContext::put("n", *n);
        let level = l4rs::Level::from_name(level).unwrap();
        logger
            .log(level, None, None, None, format_args!("{message}"))
            .unwrap();
    }
    l4rs::shutdown();
    (java_window, before..=now_millis())
}

/// Skips (or fails, under CI) without the oracle or `jar`, a JDBC driver.
fn drivers_present(jar: &str) -> bool {
    if !l4rs_test_support::log4j2::require("the JDBC comparison with log4j2") {
        return false;
    }
    let jar_dir = std::env::var("LOG4J_JAR_DIR").unwrap_or_else(|_| "/usr/share/java".into());
    if !Path::new(&jar_dir).join(jar).exists() {
        l4rs_test_support::shared::skip_or_fail(
            "the JDBC comparison with log4j2",
            &format!("{jar} is not installed (.ci/setup/60-databases.sh installs it)"),
        );
        return false;
    }
    true
}

/// The rows of `file` but for the timestamp, which must be INTEGER milliseconds within
/// `window`.
fn rows(file: &Path, window: RangeInclusive<i64>) -> String {
    let times = sqlite3(file, "select typeof(at), at from logs").unwrap();
    for line in times.lines() {
        let (kind, millis) = line.split_once('|').unwrap();
        assert_eq!(kind, "integer", "{file:?}: {line}");
        let millis: i64 = millis.parse().unwrap();
        assert!(
            window.contains(&millis),
            "{file:?}: {millis} not in {window:?}"
        );
    }
    sqlite3(
        file,
        "select level, logger, message, n, typeof(n), k, short from logs order by rowid",
    )
    .unwrap()
}

#[test]
fn sqlite_rows_match_log4j2s() {
    if !drivers_present("xerial-sqlite-jdbc.jar") {
        return;
    }
    let dir = l4rs_test_support::TempDir::new("jdbc-rows");
    let java_file = dir.path().join("log4j2.db");
    let l4rs_file = dir.path().join("l4rs.db");
    if sqlite3(&java_file, SCHEMA).is_none() {
        return;
    }
    sqlite3(&l4rs_file, SCHEMA).unwrap();
    let url = |file: &Path| format!("jdbc:sqlite:{}", file.display());
    let (java_window, l4rs_window) = replay_both(
        dir.path(),
        &configuration(&url(&java_file), "logs"),
        &configuration(&url(&l4rs_file), "logs"),
    );
    let expected = rows(&java_file, java_window);
    assert_eq!(expected.lines().count(), 5, "log4j2 inserted: {expected}");
    assert_eq!(rows(&l4rs_file, l4rs_window), expected);
}

/// The rows of PostgreSQL table `table` but for the timestamp, which must fall within
/// `window` read in the zone `offset_seconds` east of UTC (a `timestamp` column holds the
/// writer's local time: the JVM runs in UTC, l4rs in the process's zone).
fn postgres_rows(
    server: &Postgres,
    table: &str,
    window: RangeInclusive<i64>,
    offset_seconds: i64,
) -> String {
    let times = server
        .psql(&format!(
            "select (extract(epoch from at) * 1000)::bigint from {table}"
        ))
        .unwrap();
    for line in times.lines() {
        let millis = line.parse::<i64>().unwrap() - offset_seconds * 1000;
        assert!(
            window.contains(&millis),
            "{table}: {millis} not in {window:?}"
        );
    }
    server
        .psql(&format!(
            "select level, logger, message, coalesce(n::text, 'NULL'), k, short from {table} order by id"
        ))
        .unwrap()
}

#[test]
fn postgres_rows_match_log4j2s() {
    if !drivers_present("postgresql.jar") {
        return;
    }
    let dir = l4rs_test_support::TempDir::new("jdbc-rows-postgres");
    let Some(server) = Postgres::start(&dir.path().join("server")) else {
        return;
    };
    for table in ["java_logs", "l4rs_logs"] {
        server
            .psql(&format!(
                "create table {table} (id serial, at timestamp, level varchar(5), logger text, message text, n integer, k text, short varchar(4))"
            ))
            .unwrap();
    }
    let (java_window, l4rs_window) = replay_both(
        dir.path(),
        &configuration(&server.jdbc_url(), "java_logs"),
        &configuration(&server.jdbc_url(), "l4rs_logs"),
    );
    let local_offset = jiff::tz::TimeZone::system()
        .to_offset(jiff::Timestamp::now())
        .seconds() as i64;
    let expected = postgres_rows(&server, "java_logs", java_window, 0);
    assert_eq!(expected.lines().count(), 5, "log4j2 inserted: {expected}");
    assert_eq!(
        postgres_rows(&server, "l4rs_logs", l4rs_window, local_offset),
        expected
    );
}
