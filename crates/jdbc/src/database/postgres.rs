//! PostgreSQL through `tokio-postgres`, on a thread of the connection's own that runs a
//! single-threaded tokio runtime: the logging call hands its rows over and waits for the answer,
//! so it never runs a runtime itself (a call made inside a program's own tokio task would
//! otherwise panic), and every wait (the handshake, a statement, a commit) is bounded by a
//! timeout, so a server that stops answering fails the call instead of holding it.
//!
//! Every value is sent as text and the server converts it to its column's type, as pgjdbc's
//! `stringtype=unspecified` would: a number or a timestamp reaches a text column, and a
//! pattern's digits an integer column. A NUL character, which PostgreSQL refuses in text, is
//! sent as U+FFFD.

use std::borrow::Cow;
use std::error::Error;
use std::future::Future;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use bytes::BytesMut;
use tokio::runtime::Runtime;
use tokio_postgres::types::{Format, IsNull, ToSql, Type};
use tokio_postgres::{Client, NoTls, Statement};

use super::{parameter_limits, Batch, Database, Statements};
use crate::row::Value;
use crate::statement::numbered_placeholders;
use crate::url::PostgresTarget;

/// How a step that ran out of time is reported.
const NO_ANSWER: &str = "the server did not answer";

/// How much longer than its own timeouts the caller waits for the connection's thread.
const SLACK: Duration = Duration::from_secs(1);

/// One batch's parameters as text (`None`: NULL), row by row.
type TextRows = Vec<Vec<Option<String>>>;

/// An open PostgreSQL connection: its thread, and what the caller needs to bind values.
pub(super) struct Postgres {
    requests: Sender<TextRows>,
    answers: Receiver<Result<(), Refusal>>,
    /// The insert's parameter types, which choose how a timestamp is written.
    types: Vec<Type>,
    answer_timeout: Duration,
    zone: jiff::tz::TimeZone,
    /// The last insert ran out of time ([`Database::stalled`]).
    stalled: bool,
    /// The last insert failed on a row's data ([`Database::refused_data`]).
    refused_data: bool,
}

/// Why an insert failed, as the connection's thread reports it.
struct Refusal {
    message: String,
    /// The server refused a row's data (SQLSTATE classes 22, data exception, and 23,
    /// integrity constraint violation).
    data: bool,
}

/// What the connection's thread reports once it has connected and prepared.
struct Ready {
    types: Vec<Type>,
    limits: Vec<Option<usize>>,
}

/// Starts the connection's thread, which connects, prepares the insert and reads the declared
/// lengths of the character columns, and waits for it within the timeouts.
pub(super) fn connect(
    target: &PostgresTarget,
    statements: &Statements<'_>,
) -> Result<(Postgres, Vec<Option<usize>>), String> {
    let (ready_tx, ready_rx) = mpsc::channel();
    let (requests, requests_rx) = mpsc::channel::<TextRows>();
    let (answers_tx, answers) = mpsc::channel();
    let worker_target = target.clone();
    let insert = numbered_placeholders(statements.insert);
    let metadata = statements.metadata.map(str::to_string);
    let parameter_of_column = statements.parameter_of_column.to_vec();
    std::thread::Builder::new()
        .name("l4rs-jdbc-postgres".to_string())
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_io()
                .enable_time()
                .build()
            {
                Ok(runtime) => runtime,
                Err(error) => {
                    let _ =
                        ready_tx.send(Err(format!("cannot start the PostgreSQL client: {error}")));
                    return;
                }
            };
            let session = Session::open(&runtime, &worker_target, &insert);
            let session = match session.and_then(|session| {
                let limits = match &metadata {
                    Some(select) => session.limits(&runtime, select, &parameter_of_column)?,
                    None => Vec::new(),
                };
                Ok((session, limits))
            }) {
                Ok((session, limits)) => {
                    let types = session.insert.params().to_vec();
                    if ready_tx.send(Ok(Ready { types, limits })).is_err() {
                        return;
                    }
                    session
                }
                Err(error) => {
                    let _ = ready_tx.send(Err(error));
                    return;
                }
            };
            let mut session = session;
            // Ends when the appender drops the connection (the sender goes away).
            for rows in requests_rx {
                let answer = session.insert(&runtime, &rows);
                if answers_tx.send(answer).is_err() {
                    return;
                }
            }
        })
        .map_err(|error| format!("cannot start the PostgreSQL client's thread: {error}"))?;
    let connect_timeout = connect_timeout(target);
    // Connecting, the handshake, preparing, and the metadata query with one lookup a column.
    let steps = 3 + statements.parameter_of_column.len() as u32;
    let wait = connect_timeout + target.answer_timeout * steps + SLACK;
    let ready = match ready_rx.recv_timeout(wait) {
        Ok(ready) => ready?,
        Err(_) => {
            return Err(format!(
                "{NO_ANSWER} the connection within {} ms",
                wait.as_millis()
            ))
        }
    };
    Ok((
        Postgres {
            requests,
            answers,
            types: ready.types,
            answer_timeout: target.answer_timeout,
            // A `timestamp` column gets the local time, as pgjdbc sends a `java.sql.Timestamp`
            // in the JVM's default zone (the process's `TZ`).
            zone: jiff::tz::TimeZone::system(),
            stalled: false,
            refused_data: false,
        },
        ready.limits,
    ))
}

/// The time allowed for reaching the server.
fn connect_timeout(target: &PostgresTarget) -> Duration {
    target
        .config
        .get_connect_timeout()
        .copied()
        .unwrap_or(target.answer_timeout)
}

/// `future` on `runtime`, or an error once `timeout` has passed.
fn bounded<T>(
    runtime: &Runtime,
    timeout: Duration,
    what: &str,
    future: impl Future<Output = Result<T, tokio_postgres::Error>>,
) -> Result<T, String> {
    match runtime.block_on(async { tokio::time::timeout(timeout, future).await }) {
        Ok(result) => result.map_err(|e| full_message(&e)),
        Err(_) => Err(format!(
            "{NO_ANSWER} {what} within {} ms (socketTimeout)",
            timeout.as_millis()
        )),
    }
}

/// The client on the connection's thread, with its prepared insert.
struct Session {
    client: Client,
    insert: Statement,
    answer_timeout: Duration,
}

impl Session {
    /// Connects and prepares `insert` (with `$n` placeholders).
    fn open(runtime: &Runtime, target: &PostgresTarget, insert: &str) -> Result<Session, String> {
        // The connect timeout covers reaching the host; the handshake after it gets the answer
        // timeout too (tokio-postgres bounds the first part only).
        let (client, connection) = bounded(
            runtime,
            connect_timeout(target) + target.answer_timeout,
            "the connection",
            target.config.connect(NoTls),
        )?;
        // Driven while the thread waits in `block_on`; its error is the next step's error.
        runtime.spawn(async move {
            let _ = connection.await;
        });
        let insert = bounded(
            runtime,
            target.answer_timeout,
            "the insert's preparation",
            client.prepare(insert),
        )?;
        Ok(Session {
            client,
            insert,
            answer_timeout: target.answer_timeout,
        })
    }

    /// The limit of each parameter's column, from log4j2's metadata query.
    fn limits(
        &self,
        runtime: &Runtime,
        select: &str,
        parameter_of_column: &[Option<usize>],
    ) -> Result<Vec<Option<usize>>, String> {
        let select = bounded(
            runtime,
            self.answer_timeout,
            "the metadata query",
            self.client.prepare(select),
        )?;
        let mut column_limits = Vec::with_capacity(select.columns().len());
        for column in select.columns() {
            column_limits.push(match (column.table_oid(), column.column_id()) {
                (Some(table), Some(attribute)) => {
                    self.character_limit(runtime, table, attribute)?
                }
                _ => None,
            });
        }
        Ok(parameter_limits(column_limits, parameter_of_column))
    }

    /// The declared length of a `varchar(n)` or `char(n)` column.
    fn character_limit(
        &self,
        runtime: &Runtime,
        table: u32,
        attribute: i16,
    ) -> Result<Option<usize>, String> {
        let params: [&(dyn ToSql + Sync); 2] = [&table, &attribute];
        let row = bounded(
            runtime,
            self.answer_timeout,
            "the metadata query",
            self.client.query_opt(
                "select atttypmod, atttypid in ('varchar'::regtype, 'bpchar'::regtype) from pg_attribute where attrelid = $1 and attnum = $2",
                &params,
            ),
        )?;
        Ok(row.and_then(|row| {
            let modifier: i32 = row.get(0);
            let is_character: bool = row.get(1);
            // The type modifier of a character type is its length plus the 4-byte header.
            (is_character && modifier > 4).then(|| (modifier - 4) as usize)
        }))
    }

    /// Inserts `rows` in one transaction.
    fn insert(&mut self, runtime: &Runtime, rows: &TextRows) -> Result<(), Refusal> {
        let (client, insert) = (&mut self.client, &self.insert);
        let steps = async move {
            let transaction = client.transaction().await?;
            for row in rows {
                let params: Vec<TextParameter<'_>> = row
                    .iter()
                    .map(|text| TextParameter(text.as_deref()))
                    .collect();
                let references: Vec<&(dyn ToSql + Sync)> =
                    params.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
                if transaction.execute(insert, &references).await? == 0 {
                    return Ok(false);
                }
            }
            transaction.commit().await.map(|()| true)
        };
        let answer =
            runtime.block_on(async { tokio::time::timeout(self.answer_timeout, steps).await });
        match answer {
            Ok(Ok(true)) => Ok(()),
            Ok(Ok(false)) => Err(Refusal {
                message: "No records inserted in database table for log event".to_string(),
                data: true,
            }),
            Ok(Err(error)) => Err(Refusal {
                data: error.code().is_some_and(|state| {
                    state.code().starts_with("22") || state.code().starts_with("23")
                }),
                message: full_message(&error),
            }),
            Err(_) => Err(Refusal {
                message: format!(
                    "{NO_ANSWER} the insert within {} ms (socketTimeout)",
                    self.answer_timeout.as_millis()
                ),
                data: false,
            }),
        }
    }
}

/// The error with its causes (the server's message, or the I/O error under "error connecting").
fn full_message(error: &tokio_postgres::Error) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = cause.source();
    }
    message
}

impl Database for Postgres {
    fn insert(&mut self, batch: &Batch<'_>) -> Result<(), String> {
        let rows: TextRows = batch
            .rows
            .iter()
            .map(|row| {
                let texts = (0..batch.sources.len())
                    .map(|index| {
                        let ty = self.types.get(index).unwrap_or(&Type::TEXT);
                        as_text(batch.value(row, index), ty, &self.zone)
                            .map(|text| text.replace('\0', "\u{FFFD}"))
                    })
                    .collect();
                row.bound.set(true);
                texts
            })
            .collect();
        self.stalled = false;
        self.refused_data = false;
        if self.requests.send(rows).is_err() {
            return Err("the PostgreSQL client's thread has ended".to_string());
        }
        let wait = self.answer_timeout + SLACK;
        let answer = match self.answers.recv_timeout(wait) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(refusal)) => {
                self.refused_data = refusal.data;
                Err(refusal.message)
            }
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "{NO_ANSWER} the insert within {} ms (socketTimeout)",
                wait.as_millis()
            )),
            Err(RecvTimeoutError::Disconnected) => {
                Err("the PostgreSQL client's thread has ended".to_string())
            }
        };
        self.stalled = matches!(&answer, Err(message) if message.starts_with(NO_ANSWER));
        answer
    }

    fn stalled(&self) -> bool {
        self.stalled
    }

    fn refused_data(&self) -> bool {
        self.refused_data
    }
}

/// `value` as the text PostgreSQL reads for a parameter of type `ty`.
fn as_text<'a>(value: Value<'a>, ty: &Type, zone: &jiff::tz::TimeZone) -> Option<Cow<'a, str>> {
    Some(match value {
        Value::Null => return None,
        Value::Text(text) => Cow::Borrowed(text),
        Value::Integer(number) => Cow::Owned(number.to_string()),
        Value::Real(number) if number.is_nan() => Cow::Borrowed("NaN"),
        Value::Real(number) if number.is_infinite() => Cow::Borrowed(if number > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        }),
        Value::Real(number) => Cow::Owned(number.to_string()),
        Value::Boolean(flag) => Cow::Borrowed(if flag { "true" } else { "false" }),
        Value::Timestamp(millis) => {
            if matches!(*ty, Type::INT8 | Type::INT4 | Type::NUMERIC) {
                return Some(Cow::Owned(millis.to_string()));
            }
            let instant =
                jiff::Timestamp::from_millisecond(millis).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
            Cow::Owned(if *ty == Type::TIMESTAMPTZ {
                instant.strftime("%Y-%m-%d %H:%M:%S%.3f+00").to_string()
            } else {
                instant
                    .to_zoned_datetime(zone.clone())
                    .strftime("%Y-%m-%d %H:%M:%S%.3f")
                    .to_string()
            })
        }
    })
}

/// A parameter sent in PostgreSQL's text format, whatever its type.
#[derive(Debug)]
struct TextParameter<'a>(Option<&'a str>);

impl ToSql for TextParameter<'_> {
    fn to_sql(
        &self,
        _ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        match &self.0 {
            None => Ok(IsNull::Yes),
            Some(text) => {
                out.extend_from_slice(text.as_bytes());
                Ok(IsNull::No)
            }
        }
    }

    fn accepts(_ty: &Type) -> bool {
        true
    }

    fn encode_format(&self, _ty: &Type) -> Format {
        Format::Text
    }

    tokio_postgres::types::to_sql_checked!();
}
