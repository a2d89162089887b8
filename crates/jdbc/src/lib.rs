//! l4rs's `<JDBC>` appender: log4j2 2.19's JdbcAppender, inserting one row per event into a
//! SQLite or PostgreSQL table.
//!
//! The statement is log4j2's, `insert into TABLE (COLUMNS) values (VALUES)`, with the columns
//! in log4j2's order (every `<ColumnMapping>`, then every `<Column>`); each value is bound per
//! event from the column's layout, the event's time, or written as the column's literal SQL.
//! Each event is one transaction, or, with a positive `bufferSize`, each full buffer (and each
//! end of an asynchronous stage's batch), as log4j2 commits them.
//!
//! Where l4rs differs from log4j2 (docs/appenders.md, "JDBC"):
//! * the connection is kept open between writes (log4j2 opens and closes one per write, for a
//!   pool to keep); it is re-made after a failure;
//! * a caller never waits for a reconnection: while the database cannot be reached, an event
//!   fails at once until `reconnectIntervalMillis` has passed since the last attempt (log4j2
//!   makes the caller wait for its reconnecting thread unless `immediateFail`);
//! * every wait for PostgreSQL is bounded (`connectTimeout`, and `socketTimeout` for each
//!   answer, 10 s by default where pgjdbc waits for ever);
//! * the columns are formatted on the calling thread before the appender's lock is taken;
//! * events that could not be inserted are never dropped silently: each failed call is an
//!   error the caller's `ignoreExceptions` and Failover see, and a buffer that could not be
//!   inserted is reported with its count;
//! * a row whose data the database refuses (a constraint, a value its column cannot hold)
//!   keeps the connection, and in a buffer fails alone: the other rows are inserted one by one
//!   (log4j2 reconnects, and loses the whole buffer).
//!
//! Events of the database clients' own loggers (`tokio_postgres`, `postgres_protocol`,
//! `postgres_types`, `rusqlite` and their modules) are refused (reported once), so that the
//! appender cannot feed itself; a flush or stop asked for on a thread inside the appender's own
//! `append` (the panic hook flushes every appender) returns at once instead of waiting for the
//! lock that thread holds.

mod database;
mod number;
mod row;
mod statement;
mod url;

/// Entry points for the fuzz targets under `fuzz/` (docs/robustness.md); compiled only with
/// `--cfg fuzzing`, which cargo-fuzz sets, so they are no part of the API.
#[cfg(fuzzing)]
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::statement::fuzz_numbered_placeholders;
    pub use crate::url::fuzz_connection_string;
}

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use l4rs_config::model::{JdbcColumnValue, JdbcSpec};
use l4rs_core::status::ReportLimit;
use l4rs_core::{status, AppendError, Appender, Layout, Level, LogEvent};

use database::{Batch, Connection, Statements};
use row::{Row, Source};
use url::Target;

/// The crates of the database clients l4rs uses, whose `log` targets are their module paths.
const CLIENT_CRATES: &[&str] = &[
    "tokio_postgres",
    "postgres_protocol",
    "postgres_types",
    "rusqlite",
];

/// True for a logger of one of [`CLIENT_CRATES`] (the crate itself or a module of it, not a
/// user's `postgres_migrate`).
fn is_client_logger(logger_name: &str) -> bool {
    CLIENT_CRATES.iter().any(|name| {
        logger_name
            .strip_prefix(name)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
    })
}

/// The Java exception log4j2's manager throws for a failed insert.
const INSERT_EXCEPTION: &str =
    "org.apache.logging.log4j.core.appender.db.DbAppenderLoggingException";

/// The Java exception log4j2's manager throws when it cannot connect.
const CONNECT_EXCEPTION: &str = "org.apache.logging.log4j.core.appender.AppenderLoggingException";

thread_local! {
    /// The calling thread's row, formatted before the appender's lock is taken and reused.
    static SCRATCH: RefCell<Row> = RefCell::new(Row::default());
    /// The appender (its address) whose `append` this thread is in, so that a flush or stop
    /// asked for meanwhile (the panic hook flushes every appender) does not wait for the lock
    /// the thread itself holds.
    static APPENDING: Cell<usize> = const { Cell::new(0) };
}

/// Marks the thread as inside one appender's `append` until dropped (also when unwinding).
struct InAppend {
    previous: usize,
}

impl InAppend {
    fn enter(appender: &JdbcAppender) -> InAppend {
        let previous = APPENDING.with(|cell| cell.replace(appender as *const _ as usize));
        InAppend { previous }
    }
}

impl Drop for InAppend {
    fn drop(&mut self) {
        let _ = APPENDING.try_with(|cell| cell.set(self.previous));
    }
}

/// log4j2's `<JDBC>` appender on SQLite or PostgreSQL.
pub struct JdbcAppender {
    name: String,
    /// How status lines name the manager (log4j2 prints its manager's name).
    manager: String,
    target: Target,
    insert: String,
    metadata: Option<String>,
    parameter_of_column: Vec<Option<usize>>,
    sources: Vec<Source>,
    /// Rows kept before they are inserted together (1 without buffering).
    buffer_size: usize,
    reconnect_interval: Option<Duration>,
    requires_location: bool,
    state: Mutex<State>,
    stopped: AtomicBool,
    /// Set once a client's own event was refused, so that the refusal is reported once.
    refused_client_event: AtomicBool,
    /// "Unable to write to database" lines: log4j2 prints one for every failed call, which
    /// buries the first during an outage; l4rs prints one a second with a count.
    write_failures: ReportLimit,
}

/// What the lock guards: the connection and the rows waiting for it.
struct State {
    /// Set by `stop` under the lock: a call that took the lock after it inserts nothing.
    stopped: bool,
    link: Link,
    /// Reused rows; the first `waiting` are waiting to be inserted.
    rows: Vec<Row>,
    waiting: usize,
}

/// Why waiting rows were not all inserted; each holds the Java exception log4j2 would throw,
/// as text.
enum Failure {
    /// The database could not be reached or stopped answering: every row is gone.
    Outage(String),
    /// The database refused a row's data; the text says how many rows of a batch it refused.
    Refused(String),
}

/// The connection, and when to try again without one.
struct Link {
    connection: Option<Connection>,
    /// No attempt to connect before this instant (after a failed one).
    retry_at: Option<Instant>,
    /// Failed calls since the database was last written, reported when it is written again.
    failed_since_success: u64,
}

impl JdbcAppender {
    /// The appender `spec` describes; `layouts` holds a built layout for each
    /// [`JdbcColumnValue::Text`] column, in column order. Fails, with the status line to
    /// print, when the connection string names a database l4rs cannot reach.
    pub fn new(
        name: &str,
        spec: &JdbcSpec,
        layouts: Vec<Arc<dyn Layout>>,
    ) -> Result<JdbcAppender, String> {
        let target = url::target(&spec.connection).map_err(|reason| {
            format!(
                "Could not create the JDBC appender {name}: {reason}; the appender is not created"
            )
        })?;
        let mut layouts = layouts.into_iter();
        let mut sources = Vec::new();
        let mut parameter_of_column = Vec::new();
        for column in &spec.columns {
            let source = match &column.value {
                JdbcColumnValue::Literal(_) => None,
                JdbcColumnValue::Text { binding, .. } => {
                    let layout = layouts.next().ok_or_else(|| {
                        format!("JDBC appender {name}: no layout for column {}", column.name)
                    })?;
                    Some(Source::Layout(layout, *binding))
                }
                JdbcColumnValue::EventTimestamp { .. } => Some(Source::Timestamp),
                JdbcColumnValue::MapMessageValue { .. } => Some(Source::Null),
            };
            parameter_of_column.push(source.as_ref().map(|_| sources.len()));
            sources.extend(source);
        }
        let requires_location = sources.iter().any(|source| match source {
            Source::Layout(layout, _) => layout.requires_location(),
            _ => false,
        });
        Ok(JdbcAppender {
            name: name.to_string(),
            manager: format!(
                "JdbcManager{{name={name}, bufferSize={}, tableName={}, connectionString={}}}",
                spec.buffer_size,
                spec.table_name,
                url::masked(&spec.connection.connection_string)
            ),
            target,
            insert: statement::insert(spec),
            metadata: spec
                .truncate_strings
                .then(|| statement::metadata_select(spec)),
            parameter_of_column,
            sources,
            buffer_size: (spec.buffer_size as usize).max(1),
            reconnect_interval: u64::try_from(spec.reconnect_interval_millis)
                .ok()
                .filter(|&millis| millis > 0)
                .map(Duration::from_millis),
            requires_location,
            state: Mutex::new(State {
                stopped: false,
                link: Link {
                    connection: None,
                    retry_at: None,
                    failed_since_success: 0,
                },
                rows: Vec::new(),
                waiting: 0,
            }),
            stopped: AtomicBool::new(false),
            refused_client_event: AtomicBool::new(false),
            write_failures: ReportLimit::per_second(),
        })
    }

    /// True when this thread is inside this appender's `append` (see [`APPENDING`]).
    fn is_appending_here(&self) -> bool {
        APPENDING
            .try_with(|cell| cell.get() == self as *const _ as usize)
            .unwrap_or(false)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves rows and a connection that are still usable.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Formats `event`'s parameters into `row`.
    fn format(&self, event: &LogEvent<'_>, row: &mut Row) {
        row.texts.resize_with(self.sources.len(), String::new);
        for (text, source) in row.texts.iter_mut().zip(&self.sources) {
            text.clear();
            if let Source::Layout(layout, _) = source {
                layout.format(event, text);
            }
        }
        row.epoch_millis = event.timestamp.epoch_millis;
        row.bound.set(false);
    }

    /// Inserts the waiting rows; they are gone afterwards, inserted or not (log4j2 clears its
    /// buffer either way). The error is the Java exception log4j2 would throw, as text.
    fn insert_waiting(&self, state: &mut State) -> Result<(), String> {
        if state.waiting == 0 {
            return Ok(());
        }
        let result = self.insert_rows(&mut state.link, &state.rows[..state.waiting]);
        let count = std::mem::take(&mut state.waiting);
        let link = &mut state.link;
        match result {
            Ok(()) => {
                if link.failed_since_success > 0 {
                    status::warn(format_args!(
                        "JDBC appender {} is writing to the database again; {} calls failed while it could not",
                        self.name, link.failed_since_success
                    ));
                    link.failed_since_success = 0;
                }
                Ok(())
            }
            Err(Failure::Refused(exception)) => Err(exception),
            Err(Failure::Outage(exception)) => {
                link.failed_since_success += 1;
                if count > 1 {
                    Err(format!(
                        "{exception} ({count} buffered events were not inserted)"
                    ))
                } else {
                    Err(exception)
                }
            }
        }
    }

    /// One attempt, and after a failed insert one more on a new connection, as log4j2's
    /// manager reconnects once and writes again.
    fn insert_rows(&self, link: &mut Link, rows: &[Row]) -> Result<(), Failure> {
        let connection = self.connected(link).map_err(Failure::Outage)?;
        let Err(first_error) = self.insert_on(connection, rows) else {
            return Ok(());
        };
        if connection.database.refused_data() {
            // The connection is sound: keep it, and let a refused row fail alone.
            return Err(Failure::Refused(self.insert_one_by_one(
                connection,
                rows,
                first_error,
            )));
        }
        let stalled = connection.database.stalled();
        link.connection = None;
        if stalled {
            // The server stopped answering: another attempt now would hold the caller for
            // another timeout, so the next one waits for the reconnection interval.
            link.retry_at = self
                .reconnect_interval
                .map(|interval| Instant::now() + interval);
            return Err(Failure::Outage(format!(
                "{INSERT_EXCEPTION}: Failed to insert record for log event in JDBC manager: {first_error}"
            )));
        }
        link.retry_at = None;
        match self.connected(link) {
            Ok(connection) => self
                .insert_on(connection, rows)
                .map_err(|second| {
                    link.connection = None;
                    Failure::Outage(format!("{INSERT_EXCEPTION}: Failed to insert record for log event in JDBC manager: {second} (first attempt: {first_error})"))
                }),
            Err(_) => Err(Failure::Outage(format!(
                "{INSERT_EXCEPTION}: Failed to insert record for log event in JDBC manager: {first_error}"
            ))),
        }
    }

    /// After the database refused a row's data in a batch of `rows`: each row in a transaction
    /// of its own, so that only the refused ones are lost. The error counts them.
    fn insert_one_by_one(
        &self,
        connection: &mut Connection,
        rows: &[Row],
        first: String,
    ) -> String {
        let exception = format!(
            "{INSERT_EXCEPTION}: Failed to insert record for log event in JDBC manager: {first}"
        );
        if rows.len() < 2 {
            return exception;
        }
        let refused = rows
            .iter()
            .filter(|row| {
                self.insert_on(connection, std::slice::from_ref(*row))
                    .is_err()
            })
            .count();
        format!(
            "{exception} ({refused} of {} buffered events were refused; the others were inserted one by one)",
            rows.len()
        )
    }

    fn insert_on(&self, connection: &mut Connection, rows: &[Row]) -> Result<(), String> {
        connection.database.insert(&Batch {
            rows,
            sources: &self.sources,
            limits: &connection.limits,
        })
    }

    /// The open connection, or a new one; while an earlier attempt failed less than
    /// `reconnectIntervalMillis` ago, fails at once.
    fn connected<'s>(&self, state: &'s mut Link) -> Result<&'s mut Connection, String> {
        if state.connection.is_none() {
            if let Some(retry_at) = state.retry_at {
                let now = Instant::now();
                if now < retry_at {
                    return Err(format!(
                        "{CONNECT_EXCEPTION}: Error writing to JDBC Manager '{}': JDBC connection not available; the next attempt is in {} ms",
                        self.manager,
                        (retry_at - now).as_millis()
                    ));
                }
            }
            let statements = Statements {
                insert: &self.insert,
                metadata: self.metadata.as_deref(),
                parameter_of_column: &self.parameter_of_column,
            };
            match database::connect(&self.target, &statements) {
                Ok(connection) => {
                    state.retry_at = None;
                    state.connection = Some(connection);
                }
                Err(reason) => {
                    state.retry_at = self
                        .reconnect_interval
                        .map(|interval| Instant::now() + interval);
                    let first = state.failed_since_success == 0;
                    if first {
                        status::error(format_args!(
                            "Cannot connect the JDBC appender {} to {}: {reason} (help: check that the database is running and the table exists; events fail until it can connect, tried again every {})",
                            self.name,
                            self.manager,
                            self.reconnect_interval
                                .map_or("event".to_string(), |interval| format!("{} ms", interval.as_millis()))
                        ));
                    }
                    return Err(format!(
                        "{CONNECT_EXCEPTION}: Cannot connect and prepare: {reason}"
                    ));
                }
            }
        }
        Ok(state.connection.as_mut().expect("connected above"))
    }

    /// The failure of a call, reported as log4j2's database appender reports it before its
    /// error handler does (at most once a second).
    fn failed(&self, exception: String) -> AppendError {
        self.write_failures.report(
            Level::ERROR,
            format_args!(
                "Unable to write to database [{}] for appender [{}]. {exception}",
                self.manager, self.name
            ),
        );
        AppendError::Failed(exception)
    }
}

impl Appender for JdbcAppender {
    fn name(&self) -> &str {
        &self.name
    }

    fn append(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        if self.stopped.load(Ordering::Acquire) {
            return Err(AppendError::NotStarted(self.name.clone()));
        }
        if is_client_logger(event.logger_name) {
            // The clients log the statements they run (with their parameters, which are other
            // events' text): inserting those would feed the appender its own work.
            if !self.refused_client_event.swap(true, Ordering::Relaxed) {
                status::warn(format_args!(
                    "Recursive logging from [{}] for appender [{}]; the database client's own events are not written to the database (this is reported once)",
                    event.logger_name, self.name
                ));
            }
            return Ok(());
        }
        let _in_append = InAppend::enter(self);
        let mut fallback = None;
        let result = SCRATCH.with(|scratch| {
            // A layout that logs would re-enter; it then formats into a row of its own.
            let mut borrowed = scratch.try_borrow_mut();
            let row = match borrowed.as_deref_mut() {
                Ok(row) => row,
                Err(_) => fallback.insert(Row::default()),
            };
            self.format(event, row);
            let mut state = self.lock();
            let state = &mut *state;
            if state.stopped {
                return Err(None);
            }
            let slot = state.waiting;
            if state.rows.len() <= slot {
                state.rows.push(Row::default());
            }
            state.rows[slot].copy_from(row);
            state.waiting += 1;
            if state.waiting >= self.buffer_size || event.end_of_batch {
                self.insert_waiting(state).map_err(Some)
            } else {
                Ok(())
            }
        });
        result.map_err(|exception| match exception {
            Some(exception) => self.failed(exception),
            None => AppendError::NotStarted(self.name.clone()),
        })
    }

    fn flush(&self) -> Result<(), AppendError> {
        if self.is_appending_here() {
            return Ok(());
        }
        let mut state = self.lock();
        self.insert_waiting(&mut state)
            .map_err(|exception| self.failed(exception))
    }

    fn stop(&self) {
        if self.stopped.swap(true, Ordering::AcqRel) || self.is_appending_here() {
            return;
        }
        let mut state = self.lock();
        state.stopped = true;
        if let Err(exception) = self.insert_waiting(&mut state) {
            status::error(format_args!(
                "Unable to write to database [{}] for appender [{}] while stopping. {exception}",
                self.manager, self.name
            ));
        }
        state.link.connection = None;
    }

    fn requires_location(&self) -> bool {
        self.requires_location
    }
}

#[cfg(test)]
mod tests {
    use super::is_client_logger;

    #[test]
    fn only_the_clients_own_loggers_are_refused() {
        for client in [
            "tokio_postgres",
            "tokio_postgres::query",
            "rusqlite::trace",
            "postgres_protocol",
        ] {
            assert!(is_client_logger(client), "{client}");
        }
        for user in [
            "postgres_migrate",
            "rusqlite_pool::x",
            "app::tokio_postgres",
            "",
            "postgres",
        ] {
            assert!(!is_client_logger(user), "{user}");
        }
    }
}
