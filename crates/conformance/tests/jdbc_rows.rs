//! The rows a JDBC appender inserts, compared with log4j2's: the same configuration and the
//! same events go through log4j2 2.19 with xerial's SQLite JDBC driver
//! (`crates/conformance/java/JdbcRows.java`) and through l4rs, each into a fresh SQLite file
//! of the same schema, and the two tables must hold the same rows, read with the `sqlite3`
//! shell: the statement's column order, literal SQL, text cut to a `VARCHAR(n)`'s length,
//! a `ColumnMapping` converted to `java.lang.Integer` (NULL when it does not parse), the event
//! timestamp stored as INTEGER milliseconds (compared by type and by falling inside the run),
//! and a buffer of two rows flushed when logging stops.
//!
//! `isUnicode="false"` on every `<Column>`: xerial's driver refuses `setNString`, so with the
//! default every log4j2 insert into SQLite fails (`SQLFeatureNotSupportedException`), where
//! l4rs inserts the text (docs/appenders.md, "JDBC").
//!
//! Skipped with a notice without Java, Debian's log4j2 jars, xerial's driver or the sqlite3
//! shell, except under CI.

use std::path::Path;

use l4rs_tests::databases::sqlite3;
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

/// The configuration, writing to `file`.
fn configuration(file: &Path) -> String {
    format!(
        r#"<Configuration status="warn"><Appenders>
<JDBC name="db" tableName="logs" bufferSize="2" ignoreExceptions="false">
  <DriverManager connectionString="jdbc:sqlite:{}"/>
  <ColumnMapping name="n" pattern="%X{{n}}" type="java.lang.Integer"/>
  <Column name="at" isEventTimestamp="true"/>
  <Column name="level" pattern="%level" isUnicode="false"/>
  <Column name="logger" pattern="%logger" isUnicode="false"/>
  <Column name="message" pattern="%m" isUnicode="false"/>
  <Column name="k" literal="'lit'"/>
  <Column name="short" pattern="%m" isUnicode="false"/>
</JDBC></Appenders><Loggers><Root level="info"><AppenderRef ref="db"/></Root></Loggers></Configuration>"#,
        file.display()
    )
}

/// The rows of `file` but for the timestamp, which must be INTEGER milliseconds within
/// `window`.
fn rows(file: &Path, window: std::ops::RangeInclusive<i64>) -> String {
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
    if !l4rs_test_support::log4j2::require("the JDBC comparison with log4j2") {
        return;
    }
    let jar_dir = std::env::var("LOG4J_JAR_DIR").unwrap_or_else(|_| "/usr/share/java".into());
    if !Path::new(&jar_dir).join("xerial-sqlite-jdbc.jar").exists() {
        l4rs_test_support::shared::skip_or_fail(
            "the JDBC comparison with log4j2",
            "xerial's SQLite JDBC driver is not installed (.ci/setup/60-databases.sh installs it)",
        );
        return;
    }
    let dir = l4rs_test_support::TempDir::new("jdbc-rows");
    let java_file = dir.path().join("log4j2.db");
    let l4rs_file = dir.path().join("l4rs.db");
    if sqlite3(&java_file, SCHEMA).is_none() {
        return;
    }
    sqlite3(&l4rs_file, SCHEMA).unwrap();
    let input: String = EVENTS
        .iter()
        .map(|(level, n, message)| format!("{level}|{n}|{message}\n"))
        .collect();

    let java_config = dir.path().join("log4j2.xml");
    std::fs::write(&java_config, configuration(&java_file)).unwrap();
    let before = now_millis();
    let output = l4rs_test_support::log4j2::run_java_program(
        "JdbcRows",
        &[java_config.to_str().unwrap()],
        input.as_bytes(),
    );
    let java_window = before..=now_millis();
    assert!(
        output.status.success(),
        "JdbcRows: {}",
        String::from_utf8_lossy(&output.stderr)
    );

    let l4rs_config = dir.path().join("l4rs.xml");
    std::fs::write(&l4rs_config, configuration(&l4rs_file)).unwrap();
    let before = now_millis();
    l4rs::init_with_file(&l4rs_config).expect("the configuration loads");
    let logger = l4rs::get_logger("app");
    for (level, n, message) in EVENTS {
        l4rs::ThreadContext::put("n", *n);
        let level = l4rs::Level::from_name(level).unwrap();
        logger
            .log(level, None, None, None, format_args!("{message}"))
            .unwrap();
    }
    l4rs::shutdown();
    let l4rs_window = before..=now_millis();

    let expected = rows(&java_file, java_window);
    assert_eq!(expected.lines().count(), 5, "log4j2 inserted: {expected}");
    assert_eq!(rows(&l4rs_file, l4rs_window), expected);
}
