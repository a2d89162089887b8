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
//! The number mappings: one `ColumnMapping` per Java number class (`Integer`, `Long`, `Short`,
//! `Byte`, `BigInteger`, `Double`, `Float`, `BigDecimal`) of the same context value, over
//! values at the edges of each class's grammar and range; SQLite's columns have no declared
//! type, so that each keeps exactly what the driver bound (its `typeof` is compared), and
//! PostgreSQL's hold each class in its natural type and some in `real`, `numeric` and integer
//! columns, where the server's casts from pgjdbc's types decide what is stored (rows a cast
//! refuses are missing on both sides).
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

/// Logs `events` through log4j2 (JdbcRows.java) with `java_config`, then through l4rs with
/// `l4rs_config`; the time windows of the two runs, in milliseconds since the epoch.
fn replay_both(
    dir: &Path,
    java_config: &str,
    l4rs_config: &str,
    events: &[(&str, &str, &str)],
) -> (RangeInclusive<i64>, RangeInclusive<i64>) {
    let _turn = l4rs_tests::serial();
    let input: String = events
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
    for (level, n, message) in events {
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
        EVENTS,
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
        EVENTS,
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

/// The number mappings: column, Java class.
const NUMBER_MAPPINGS: &[(&str, &str)] = &[
    ("i", "java.lang.Integer"),
    ("l", "java.lang.Long"),
    ("s", "java.lang.Short"),
    ("b", "java.lang.Byte"),
    ("bi", "java.math.BigInteger"),
    ("d", "java.lang.Double"),
    ("f", "java.lang.Float"),
    ("bd", "java.math.BigDecimal"),
];

/// The context values every number mapping converts: each class's range limits and one
/// beyond, signs, leading zeros, whitespace, Java's `NaN` and `Infinity` (and a spelling Java
/// refuses), exponents, hexadecimal, suffixes, Unicode digits, rounding ties, a 30-digit
/// number, `float` and `double` limits, and empty text.
const NUMBER_VALUES: &[&str] = &[
    "0",
    "-0",
    "+1",
    "00012",
    "127",
    "128",
    "-128",
    "-129",
    "32767",
    "32768",
    "-32768",
    "-32769",
    "2147483647",
    "2147483648",
    "-2147483648",
    "-2147483649",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "123456789012345678901234567890",
    "-123456789012345678901234567890",
    " 1",
    "1 ",
    "\t2\t",
    "NaN",
    "-NaN",
    "Infinity",
    "-Infinity",
    "inf",
    "1e3",
    "1E+3",
    "1e-7",
    "0x10",
    "0x1.8p1",
    "-0x1p-2f",
    "1.5d",
    "1.5",
    "2.5",
    "-1.5",
    "1.50",
    ".5",
    "1.",
    "0.1",
    "0.05",
    "-0.06",
    "5e-2",
    "0.30000000000000004",
    "16777217",
    "9007199254740993",
    "123456789.123456789",
    "3.4028235e38",
    "3.4028236e38",
    "1e-46",
    "1e-45",
    "1e309",
    "4.9e-324",
    "1E+400",
    "",
    "\u{663}",
    "\u{ff13}",
    "\u{663}.\u{665}",
    "1_000",
    "x",
];

/// The number values as events: `INFO`, the value, its index as the message.
fn number_events() -> Vec<(&'static str, &'static str, String)> {
    NUMBER_VALUES
        .iter()
        .enumerate()
        .map(|(index, value)| ("INFO", *value, index.to_string()))
        .collect()
}

/// A `<JDBC>` appender named `name` writing the message and `mappings` (column, Java class)
/// of the context value `n` to `table`.
fn number_appender(name: &str, url: &str, table: &str, mappings: &[(&str, &str)]) -> String {
    let columns: String = mappings
        .iter()
        .map(|(column, class)| {
            format!(r#"<ColumnMapping name="{column}" pattern="%X{{n}}" type="{class}"/>"#)
        })
        .collect();
    format!(
        r#"<JDBC name="{name}" tableName="{table}">
  <DriverManager connectionString="{url}"/>{columns}
  <Column name="m" pattern="%m" isUnicode="false"/>
</JDBC>"#
    )
}

/// A configuration of `appenders` (body, name), all referenced by the root logger.
fn number_configuration(appenders: &[(String, &str)]) -> String {
    let bodies: String = appenders.iter().map(|(body, _)| body.as_str()).collect();
    let refs: String = appenders
        .iter()
        .map(|(_, name)| format!(r#"<AppenderRef ref="{name}"/>"#))
        .collect();
    format!(
        r#"<Configuration status="warn"><Appenders>{bodies}</Appenders><Loggers><Root level="info">{refs}</Root></Loggers></Configuration>"#
    )
}

/// Logs the number events through both sides.
fn replay_numbers(dir: &Path, java_config: &str, l4rs_config: &str) {
    let events = number_events();
    let events: Vec<(&str, &str, &str)> = events
        .iter()
        .map(|(level, n, message)| (*level, *n, message.as_str()))
        .collect();
    replay_both(dir, java_config, l4rs_config, &events);
}

/// Compares the lines of two results one by one, naming the value of each differing row.
fn assert_same_rows(what: &str, actual: &str, expected: &str) {
    for (actual, expected) in actual.lines().zip(expected.lines()) {
        let value = expected
            .split('|')
            .next()
            .and_then(|index| index.trim().parse::<usize>().ok())
            .and_then(|index| NUMBER_VALUES.get(index));
        assert_eq!(
            actual, expected,
            "{what}, value {value:?}: l4rs's row, then log4j2's"
        );
    }
    assert_eq!(
        actual.lines().count(),
        expected.lines().count(),
        "{what}: l4rs's rows:\n{actual}\nlog4j2's:\n{expected}"
    );
}

#[test]
fn sqlite_number_mappings_match_log4j2s() {
    if !drivers_present("xerial-sqlite-jdbc.jar") {
        return;
    }
    let dir = l4rs_test_support::TempDir::new("jdbc-rows-numbers");
    let java_file = dir.path().join("log4j2.db");
    let l4rs_file = dir.path().join("l4rs.db");
    let columns: Vec<&str> = NUMBER_MAPPINGS.iter().map(|(column, _)| *column).collect();
    // No declared types: no affinity, so each column keeps what the driver bound.
    let schema = format!("create table numbers (m text, {})", columns.join(", "));
    if sqlite3(&java_file, &schema).is_none() {
        return;
    }
    sqlite3(&l4rs_file, &schema).unwrap();
    let config = |file: &Path| {
        let url = format!("jdbc:sqlite:{}", file.display());
        number_configuration(&[(
            number_appender("db", &url, "numbers", NUMBER_MAPPINGS),
            "db",
        )])
    };
    replay_numbers(dir.path(), &config(&java_file), &config(&l4rs_file));
    let shown: Vec<String> = columns
        .iter()
        .map(|c| {
            format!(
                "typeof({c}) || ':' || case typeof({c}) when 'real' then printf('%!.17g', {c}) else quote({c}) end"
            )
        })
        .collect();
    let select = format!("select m, {} from numbers order by rowid", shown.join(", "));
    let expected = sqlite3(&java_file, &select).unwrap();
    assert_eq!(
        expected.lines().count(),
        NUMBER_VALUES.len(),
        "log4j2 inserted: {expected}"
    );
    let actual = sqlite3(&l4rs_file, &select).unwrap();
    assert_same_rows(
        &format!("numbers (m, {})", columns.join(", ")),
        &actual,
        &expected,
    );
}

/// PostgreSQL's columns for the number test: column, Java class, column type. Each class in
/// its natural type, and `Float` and `Double` also in `real` and `numeric`, where the server
/// casts pgjdbc's value. No character column: log4j2's `truncateStrings` binds a number's
/// Java `toString()` there, which l4rs does not do yet (docs/appenders.md, "JDBC").
const POSTGRES_NUMBER_COLUMNS: &[(&str, &str, &str)] = &[
    ("i", "java.lang.Integer", "integer"),
    ("l", "java.lang.Long", "bigint"),
    ("s", "java.lang.Short", "smallint"),
    ("b", "java.lang.Byte", "smallint"),
    ("bi", "java.math.BigInteger", "numeric"),
    ("d", "java.lang.Double", "double precision"),
    ("f", "java.lang.Float", "double precision"),
    ("bd", "java.math.BigDecimal", "numeric"),
    ("f4", "java.lang.Float", "real"),
    ("fn", "java.lang.Float", "numeric"),
    ("dn", "java.lang.Double", "numeric"),
];

/// Columns whose casts refuse some values (out of range), in a second table so that a
/// refused row loses only them.
const POSTGRES_REFUSING_COLUMNS: &[(&str, &str, &str)] = &[
    ("d4", "java.lang.Double", "real"),
    ("bd4", "java.math.BigDecimal", "real"),
    ("fi", "java.lang.Float", "integer"),
    ("di", "java.lang.Double", "bigint"),
    ("bdi", "java.math.BigDecimal", "bigint"),
    ("bis", "java.math.BigInteger", "smallint"),
];

#[test]
fn postgres_number_mappings_match_log4j2s() {
    if !drivers_present("postgresql.jar") {
        return;
    }
    let dir = l4rs_test_support::TempDir::new("jdbc-rows-postgres-numbers");
    let Some(server) = Postgres::start(&dir.path().join("server")) else {
        return;
    };
    let tables = [
        ("numbers", POSTGRES_NUMBER_COLUMNS),
        ("refusing", POSTGRES_REFUSING_COLUMNS),
    ];
    for side in ["java", "l4rs"] {
        for (table, columns) in tables {
            let declared: Vec<String> = columns
                .iter()
                .map(|(column, _, ty)| format!("{column} {ty}"))
                .collect();
            server
                .psql(&format!(
                    "create table {side}_{table} (id serial, m text, {})",
                    declared.join(", ")
                ))
                .unwrap();
        }
    }
    let config = |side: &str| {
        let appenders: Vec<(String, &str)> = tables
            .iter()
            .map(|(table, columns)| {
                let mappings: Vec<(&str, &str)> = columns
                    .iter()
                    .map(|(column, class, _)| (*column, *class))
                    .collect();
                let body = number_appender(
                    table,
                    &server.jdbc_url(),
                    &format!("{side}_{table}"),
                    &mappings,
                );
                (body, *table)
            })
            .collect();
        number_configuration(&appenders)
    };
    replay_numbers(dir.path(), &config("java"), &config("l4rs"));
    for (table, columns) in tables {
        let names: Vec<&str> = columns.iter().map(|(column, _, _)| *column).collect();
        let shown: Vec<String> = names
            .iter()
            .map(|column| format!("coalesce({column}::text, 'NULL')"))
            .collect();
        let select = |side: &str| {
            format!(
                "select m, {} from {side}_{table} order by id",
                shown.join(", ")
            )
        };
        let expected = server.psql(&select("java")).unwrap();
        if table == "numbers" {
            assert_eq!(
                expected.lines().count(),
                NUMBER_VALUES.len(),
                "log4j2 inserted: {expected}"
            );
        } else {
            assert!(expected.lines().count() > 10, "log4j2 inserted: {expected}");
        }
        let actual = server.psql(&select("l4rs")).unwrap();
        assert_same_rows(
            &format!("{table} (m, {})", names.join(", ")),
            &actual,
            &expected,
        );
    }
}
