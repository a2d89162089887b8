//! The JDBC appender against real databases, read back with independent clients: SQLite files
//! (the `sqlite3` shell) and a PostgreSQL server started for the test (`psql`). Rows per event
//! and per buffer, log4j2's column kinds (pattern, literal, event timestamp, typed mappings),
//! `truncateStrings`, a missing table that appears later, a server that goes away and comes
//! back (calls fail at once in between, and the caller with `ignoreExceptions="false"` sees
//! each failure), and a database l4rs cannot reach.

use std::path::Path;
use std::time::{Duration, Instant};

use l4rs_tests::databases::{sqlite3, Postgres};
use l4rs_tests::{fresh_output_dir, now_millis, reported, serial, write_config};

/// Loads a configuration with one JDBC appender, `appender` (its XML), under the root at INFO.
fn init(dir: &Path, appender: &str) {
    let xml = format!(
        r#"<Configuration status="warn"><Appenders>{appender}</Appenders><Loggers><Root level="info"><AppenderRef ref="db"/></Root></Loggers></Configuration>"#
    );
    l4rs::init_with_file(write_config(dir, &xml)).expect("the configuration loads");
}

/// Logs `message` at `level` on logger `app`; `Err` when the appender handed its failure to
/// the caller.
fn log(level: l4rs::Level, message: &str) -> Result<(), String> {
    l4rs::get_logger("app")
        .log(level, None, None, None, format_args!("{message}"))
        .map_err(|error| error.to_string())
}

#[test]
fn sqlite_rows_per_event_with_log4j2s_columns() {
    let _turn = serial();
    let dir = fresh_output_dir("jdbc-sqlite-rows");
    let file = dir.join("logs.db");
    let Some(_) = sqlite3(
        &file,
        "create table logEntry (eventDate integer, literalColumn text, level varchar(10), logger text, message text, pid integer, exception text)",
    ) else {
        return;
    };
    init(
        &dir,
        &format!(
            r#"<JDBC name="db" tableName="logEntry" ignoreExceptions="false">
  <DriverManager connectionString="jdbc:sqlite:{}"/>
  <ColumnMapping name="pid" pattern="%pid" type="java.lang.Integer"/>
  <Column name="eventDate" isEventTimestamp="true"/>
  <Column name="literalColumn" literal="'Some Other Literal Value'"/>
  <Column name="level" pattern="%level"/>
  <Column name="logger" pattern="%logger"/>
  <Column name="message" pattern="%message" isUnicode="false"/>
  <Column name="exception" pattern="%ex{{full}}" isClob="true"/>
</JDBC>"#,
            file.display()
        ),
    );
    let before = now_millis();
    log(l4rs::Level::INFO, "first 'quoted' message").unwrap();
    log(l4rs::Level::WARN, "second; drop table logEntry; --").unwrap();
    let failure = std::io::Error::other("disk gone");
    l4rs::error!(l4rs::get_logger("app"), error = &failure, "third");
    let after = now_millis();
    l4rs::shutdown();
    let rows = sqlite3(
        &file,
        "select literalColumn, level, logger, message, pid = (select pid from logEntry limit 1), typeof(pid), length(exception) > 0 from logEntry order by rowid",
    )
    .unwrap();
    assert_eq!(
        rows,
        "Some Other Literal Value|INFO|app|first 'quoted' message|1|integer|0\n\
         Some Other Literal Value|WARN|app|second; drop table logEntry; --|1|integer|0\n\
         Some Other Literal Value|ERROR|app|third|1|integer|1\n"
    );
    let pid = sqlite3(&file, "select distinct pid from logEntry").unwrap();
    assert_eq!(pid.trim(), std::process::id().to_string());
    // xerial's default: a timestamp is stored as INTEGER milliseconds since the epoch.
    let dates = sqlite3(&file, "select eventDate from logEntry").unwrap();
    for date in dates.lines() {
        let millis: i64 = date.parse().expect("integer milliseconds");
        assert!(
            (before..=after).contains(&millis),
            "{millis} not in {before}..={after}"
        );
    }
}

#[test]
fn sqlite_buffered_rows_wait_for_a_full_buffer_and_the_flush() {
    let _turn = serial();
    let dir = fresh_output_dir("jdbc-sqlite-buffer");
    let file = dir.join("logs.db");
    let Some(_) = sqlite3(&file, "create table logs (message varchar(5), whole text)") else {
        return;
    };
    init(
        &dir,
        &format!(
            r#"<JDBC name="db" tableName="logs" bufferSize="3">
  <DriverManager connectionString="jdbc:sqlite:{}"/>
  <Column name="message" pattern="%m"/>
  <Column name="whole" pattern="%m"/>
</JDBC>"#,
            file.display()
        ),
    );
    let count = || sqlite3(&file, "select count(*) from logs").unwrap();
    log(l4rs::Level::INFO, "one-long").unwrap();
    log(l4rs::Level::INFO, "two").unwrap();
    assert_eq!(count(), "0\n", "two rows wait in the buffer");
    log(l4rs::Level::INFO, "three").unwrap();
    assert_eq!(
        count(),
        "3\n",
        "the third fills the buffer: one transaction"
    );
    log(l4rs::Level::INFO, "four").unwrap();
    assert_eq!(count(), "3\n");
    l4rs::flush();
    assert_eq!(count(), "4\n", "flush inserts what waits");
    l4rs::shutdown();
    // truncateStrings (default true) cuts text to the column's declared VARCHAR(5).
    assert_eq!(
        sqlite3(&file, "select message, whole from logs order by rowid").unwrap(),
        "one-l|one-long\ntwo|two\nthree|three\nfour|four\n"
    );
}

#[test]
fn sqlite_missing_table_fails_each_call_until_it_exists() {
    let _turn = serial();
    let dir = fresh_output_dir("jdbc-sqlite-missing-table");
    let file = dir.join("logs.db");
    if sqlite3(&file, "select 1").is_none() {
        return;
    }
    init(
        &dir,
        &format!(
            r#"<JDBC name="db" tableName="late" ignoreExceptions="false" reconnectIntervalMillis="200">
  <DriverManager connectionString="jdbc:sqlite:{}"/>
  <Column name="message" pattern="%m"/>
</JDBC>"#,
            file.display()
        ),
    );
    let (result, messages) = reported(|| log(l4rs::Level::INFO, "lost"));
    let error = result.unwrap_err();
    assert!(error.contains("no such table: late"), "{error}");
    assert!(
        messages.iter().any(|m| m.starts_with("Cannot connect the JDBC appender db to JdbcManager{name=db, bufferSize=0, tableName=late, connectionString=jdbc:sqlite:")
            && m.contains("no such table: late")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("Unable to write to database [JdbcManager{name=db")),
        "{messages:?}"
    );
    // Within the interval, a call fails at once, without trying.
    let (result, _) = reported(|| log(l4rs::Level::INFO, "also lost"));
    assert!(result
        .unwrap_err()
        .contains("JDBC connection not available"));
    sqlite3(&file, "create table late (message text)").unwrap();
    std::thread::sleep(Duration::from_millis(250));
    let (result, messages) = reported(|| log(l4rs::Level::INFO, "kept"));
    result.unwrap();
    assert!(
        messages
            .iter()
            .any(|m| m == "JDBC appender db is writing to the database again; 2 calls failed while it could not"),
        "{messages:?}"
    );
    l4rs::shutdown();
    assert_eq!(
        sqlite3(&file, "select message from late").unwrap(),
        "kept\n"
    );
}

#[test]
fn a_database_l4rs_cannot_reach_is_reported_and_the_rest_runs() {
    let _turn = serial();
    let dir = fresh_output_dir("jdbc-h2");
    let xml = r#"<Configuration status="warn"><Appenders>
<JDBC name="db" tableName="t"><DriverManager connectionString="jdbc:h2:mem:Log4j"/><Column name="m" pattern="%m"/></JDBC>
<Null name="other"/></Appenders>
<Loggers><Root level="info"><AppenderRef ref="other"/><AppenderRef ref="db"/></Root></Loggers></Configuration>"#;
    let result = l4rs::init_with_file(write_config(&dir, xml));
    let Err(l4rs::Error::Invalid { messages, .. }) = result else {
        panic!("{result:?}")
    };
    assert!(
        messages[0].starts_with(
            "Could not create the JDBC appender db: l4rs cannot connect to `jdbc:h2:` databases (help:"
        ),
        "{messages:?}"
    );
    assert!(
        messages[0].ends_with("the appender is not created"),
        "{messages:?}"
    );
    log(l4rs::Level::INFO, "goes nowhere, fails nothing").unwrap();
    l4rs::shutdown();
}

#[test]
fn postgres_rows_types_truncation_and_an_outage() {
    let _turn = serial();
    let dir = fresh_output_dir("jdbc-postgres");
    let Some(mut server) = Postgres::start(&dir.join("server")) else {
        return;
    };
    server
        .psql(
            "create table logs (id serial primary key, at timestamptz, local_at timestamp, level varchar(5), short varchar(8), message text, pid integer, flag boolean, constant text)",
        )
        .unwrap();
    init(
        &dir,
        &format!(
            r#"<JDBC name="db" tableName="logs" ignoreExceptions="false" reconnectIntervalMillis="100">
  <DriverManager connectionString="{}"/>
  <ColumnMapping name="at" type="java.sql.Timestamp"/>
  <ColumnMapping name="pid" pattern="%pid" type="java.lang.Integer"/>
  <ColumnMapping name="flag" pattern="true" type="java.lang.Boolean"/>
  <Column name="local_at" isEventTimestamp="true"/>
  <Column name="level" pattern="%level"/>
  <Column name="short" pattern="%m"/>
  <Column name="message" pattern="%m"/>
  <Column name="constant" literal="'it''s ? constant'"/>
</JDBC>"#,
            server.jdbc_url()
        ),
    );
    let before = now_millis();
    log(l4rs::Level::INFO, "a message longer than eight").unwrap();
    // From inside a program's own tokio task, where running a runtime on the calling thread
    // would panic; and with a NUL, which PostgreSQL refuses in text (sent as U+FFFD).
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(async { log(l4rs::Level::WARN, "äöü ünïcödé\0") })
        .unwrap();
    let after = now_millis();
    assert_eq!(
        server
            .psql("select level, short, message, pid, flag, constant from logs order by id")
            .unwrap(),
        format!(
            "INFO|a messag|a message longer than eight|{pid}|t|it's ? constant\nWARN|äöü ünïc|äöü ünïcödé\u{FFFD}|{pid}|t|it's ? constant\n",
            pid = std::process::id()
        )
    );
    let times = server
        .psql("select (extract(epoch from at) * 1000)::bigint, (extract(epoch from local_at at time zone current_setting('TimeZone')) * 1000)::bigint from logs")
        .unwrap();
    for line in times.lines() {
        for field in line.split('|') {
            let millis: i64 = field.parse().unwrap();
            assert!(
                (before..=after).contains(&millis),
                "{line}: {before}..={after}"
            );
        }
    }
    server.stop();
    // The server is gone: each call fails, and none waits for a reconnection.
    let outage_started = Instant::now();
    let (results, messages) = reported(|| {
        (0..5)
            .map(|i| {
                let start = Instant::now();
                let result = log(l4rs::Level::ERROR, &format!("during the outage {i}"));
                (result, start.elapsed())
            })
            .collect::<Vec<_>>()
    });
    for (result, elapsed) in &results {
        assert!(result.is_err(), "{result:?}");
        assert!(
            *elapsed < Duration::from_secs(5),
            "a call waited {elapsed:?}"
        );
    }
    // One line a second, where log4j2 prints one per call.
    let outage = outage_started.elapsed();
    let unable = messages
        .iter()
        .filter(|m| m.starts_with("Unable to write to database [JdbcManager{name=db"))
        .count();
    assert!(
        (1..=1 + outage.as_secs() as usize).contains(&unable),
        "{unable} lines in {outage:?}: {messages:?}"
    );
    // Back again: the next call after the interval reconnects, and its row is inserted.
    server.restart();
    std::thread::sleep(Duration::from_millis(150));
    let (result, messages) = reported(|| log(l4rs::Level::INFO, "after the outage"));
    result.unwrap();
    assert!(
        messages.iter().any(|m| m == "JDBC appender db is writing to the database again; 5 calls failed while it could not"),
        "{messages:?}"
    );
    l4rs::shutdown();
    assert_eq!(
        server
            .psql("select count(*), max(message) from logs where message like 'after%' or message like 'during%'")
            .unwrap(),
        "1|after the outage\n"
    );
}

#[test]
fn a_postgres_server_that_never_answers_cannot_hold_a_call() {
    let _turn = serial();
    let dir = fresh_output_dir("jdbc-postgres-silent");
    // It accepts the connection and never reads or answers.
    let silent = l4rs_tests::net::TcpReceiver::start_not_reading();
    init(
        &dir,
        &format!(
            r#"<JDBC name="db" tableName="logs" ignoreExceptions="false">
  <DriverManager connectionString="jdbc:postgresql://127.0.0.1:{}/logs?user=u&amp;connectTimeout=1&amp;socketTimeout=1"/>
  <Column name="message" pattern="%m"/>
</JDBC>"#,
            silent.port()
        ),
    );
    let start = Instant::now();
    let (result, messages) = reported(|| log(l4rs::Level::INFO, "to nobody"));
    let elapsed = start.elapsed();
    let error = result.unwrap_err();
    assert!(
        error.contains("the server did not answer the connection within 2000 ms (socketTimeout)"),
        "{error}"
    );
    assert!(
        elapsed < Duration::from_secs(10),
        "the call waited {elapsed:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("Cannot connect the JDBC appender db")),
        "{messages:?}"
    );
    l4rs::shutdown();
}

#[test]
fn a_postgres_server_that_hangs_mid_connection_fails_the_call_within_the_socket_timeout() {
    let _turn = serial();
    let dir = fresh_output_dir("jdbc-postgres-hang");
    let Some(server) = Postgres::start(&dir.join("server")) else {
        return;
    };
    server.psql("create table logs (message text)").unwrap();
    init(
        &dir,
        &format!(
            r#"<JDBC name="db" tableName="logs" ignoreExceptions="false" reconnectIntervalMillis="60000">
  <DriverManager connectionString="{}&amp;socketTimeout=1"/>
  <Column name="message" pattern="%m"/>
</JDBC>"#,
            server.jdbc_url()
        ),
    );
    log(l4rs::Level::INFO, "before").unwrap();
    server.pause();
    let start = Instant::now();
    let (result, _) = reported(|| log(l4rs::Level::INFO, "while it hangs"));
    let first = start.elapsed();
    let error = result.unwrap_err();
    assert!(
        error.contains("the server did not answer the insert within 1000 ms (socketTimeout)"),
        "{error}"
    );
    // The connection is dropped and no new one is tried inside the interval: the next call
    // fails at once instead of waiting for another timeout.
    let start = Instant::now();
    let (result, _) = reported(|| log(l4rs::Level::INFO, "also while it hangs"));
    let second = start.elapsed();
    assert!(result
        .unwrap_err()
        .contains("JDBC connection not available"));
    server.resume();
    assert!(
        first < Duration::from_secs(10),
        "the first call waited {first:?}"
    );
    assert!(
        second < Duration::from_secs(2),
        "the second call waited {second:?}"
    );
    l4rs::shutdown();
    assert_eq!(server.psql("select message from logs").unwrap(), "before\n");
}

/// Logs `a`, `bad` (which the table refuses) and `c` through a JDBC appender with a buffer of
/// three writing to `url`; the third call's error must count one refused row, and the table
/// must hold the other two (read back by `rows`). Its whole-number column `n` reads the
/// message, which is no number: each row's conversion warning is printed once, not again when
/// the rows are retried one by one.
fn a_refused_row_fails_alone(dir: &Path, url: &str, rows: impl Fn() -> String) {
    init(
        dir,
        &format!(
            r#"<JDBC name="db" tableName="logs" bufferSize="3" ignoreExceptions="false">
  <DriverManager connectionString="{url}"/>
  <Column name="message" pattern="%m"/>
  <ColumnMapping name="n" pattern="%m" type="java.lang.Long"/>
</JDBC>"#
        ),
    );
    log(l4rs::Level::INFO, "a").unwrap();
    log(l4rs::Level::INFO, "bad").unwrap();
    let (result, messages) = reported(|| log(l4rs::Level::INFO, "c"));
    let error = result.unwrap_err();
    assert!(
        error.ends_with(
            "(1 of 3 buffered events were refused; the others were inserted one by one)"
        ),
        "{error}"
    );
    let warnings: Vec<&String> = messages
        .iter()
        .filter(|m| m.starts_with("Error while converting string"))
        .collect();
    assert_eq!(
        warnings,
        [
            "Error while converting string [a] to type [class java.lang.Long]. Using default value [null].",
            "Error while converting string [bad] to type [class java.lang.Long]. Using default value [null].",
            "Error while converting string [c] to type [class java.lang.Long]. Using default value [null].",
        ],
        "{messages:?}"
    );
    // The connection was kept: the next row goes in without a reconnection message.
    let (result, messages) = reported(|| log(l4rs::Level::INFO, "d").map(|()| l4rs::flush()));
    result.unwrap();
    assert_eq!(
        messages,
        ["Error while converting string [d] to type [class java.lang.Long]. Using default value [null]."]
    );
    l4rs::shutdown();
    assert_eq!(rows(), "a\nc\nd\n");
}

#[test]
fn a_row_sqlite_refuses_is_lost_alone() {
    let _turn = serial();
    let dir = fresh_output_dir("jdbc-sqlite-refused");
    let file = dir.join("logs.db");
    let Some(_) = sqlite3(
        &file,
        "create table logs (message text check (message <> 'bad'), n integer)",
    ) else {
        return;
    };
    a_refused_row_fails_alone(&dir, &format!("jdbc:sqlite:{}", file.display()), || {
        sqlite3(&file, "select message from logs order by rowid").unwrap()
    });
}

#[test]
fn a_row_postgres_refuses_is_lost_alone() {
    let _turn = serial();
    let dir = fresh_output_dir("jdbc-postgres-refused");
    let Some(server) = Postgres::start(&dir.join("server")) else {
        return;
    };
    server
        .psql("create table logs (id serial, message text check (message <> 'bad'), n bigint)")
        .unwrap();
    a_refused_row_fails_alone(&dir, &server.jdbc_url(), || {
        server.psql("select message from logs order by id").unwrap()
    });
}
