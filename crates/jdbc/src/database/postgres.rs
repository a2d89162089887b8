//! PostgreSQL through `tokio-postgres`, on a single-threaded runtime of the connection's own:
//! every wait (the handshake, a statement, a commit) is bounded by a timeout, so a server that
//! stops answering fails the call instead of holding it. Every value is sent as text and the
//! server converts it to its column's type, as pgjdbc's `stringtype=unspecified` would: a
//! number or a timestamp reaches a text column, and a pattern's digits an integer column.

use std::borrow::Cow;
use std::error::Error;
use std::future::Future;
use std::time::Duration;

use bytes::BytesMut;
use tokio::runtime::Runtime;
use tokio::task::JoinHandle;
use tokio_postgres::types::{Format, IsNull, ToSql, Type};
use tokio_postgres::{Client, NoTls, Statement};

use super::{parameter_limits, Batch, Database, Statements};
use crate::row::{value, Value};
use crate::statement::numbered_placeholders;
use crate::url::PostgresTarget;

/// An open PostgreSQL connection with its prepared insert.
pub(super) struct Postgres {
    runtime: Runtime,
    client: Client,
    /// The task that drives the connection's socket; aborted when the connection is dropped.
    connection: JoinHandle<()>,
    insert: Statement,
    answer_timeout: Duration,
    zone: jiff::tz::TimeZone,
    /// The last insert ran out of time ([`Database::stalled`]).
    stalled: bool,
}

/// How a step that ran out of time is reported.
const NO_ANSWER: &str = "the server did not answer";

impl Drop for Postgres {
    fn drop(&mut self) {
        self.connection.abort();
    }
}

/// `future`, or an error once `timeout` has passed.
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

/// Connects, prepares the insert and reads the declared lengths of the character columns.
pub(super) fn connect(
    target: &PostgresTarget,
    statements: &Statements<'_>,
) -> Result<(Postgres, Vec<Option<usize>>), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| format!("cannot start the PostgreSQL client: {e}"))?;
    // The connect timeout covers reaching the host; the handshake after it gets the answer
    // timeout too (tokio-postgres bounds the first part only).
    let connect_timeout = target
        .config
        .get_connect_timeout()
        .copied()
        .unwrap_or(target.answer_timeout);
    let (client, connection) = bounded(
        &runtime,
        connect_timeout + target.answer_timeout,
        "the connection",
        target.config.connect(NoTls),
    )?;
    let connection = runtime.spawn(async move {
        // Its error is the next statement's error.
        let _ = connection.await;
    });
    let postgres = Postgres {
        insert: match bounded(
            &runtime,
            target.answer_timeout,
            "the insert's preparation",
            client.prepare(&numbered_placeholders(statements.insert)),
        ) {
            Ok(insert) => insert,
            Err(error) => {
                connection.abort();
                return Err(error);
            }
        },
        runtime,
        client,
        connection,
        answer_timeout: target.answer_timeout,
        // A `timestamp` column gets the local time, as pgjdbc sends a `java.sql.Timestamp`
        // in the JVM's default zone (the process's `TZ`).
        zone: jiff::tz::TimeZone::system(),
        stalled: false,
    };
    let limits = match statements.metadata {
        Some(select) => {
            let select = postgres.bounded("the metadata query", |client| client.prepare(select))?;
            let mut column_limits = Vec::with_capacity(select.columns().len());
            for column in select.columns() {
                column_limits.push(match (column.table_oid(), column.column_id()) {
                    (Some(table), Some(attribute)) => postgres.character_limit(table, attribute)?,
                    _ => None,
                });
            }
            parameter_limits(column_limits, statements.parameter_of_column)
        }
        None => Vec::new(),
    };
    Ok((postgres, limits))
}

impl Postgres {
    /// `step` on the client, bounded by the answer timeout.
    fn bounded<'c, T, F>(
        &'c self,
        what: &str,
        step: impl FnOnce(&'c Client) -> F,
    ) -> Result<T, String>
    where
        F: Future<Output = Result<T, tokio_postgres::Error>> + 'c,
    {
        bounded(&self.runtime, self.answer_timeout, what, step(&self.client))
    }

    /// The declared length of a `varchar(n)` or `char(n)` column.
    fn character_limit(&self, table: u32, attribute: i16) -> Result<Option<usize>, String> {
        let params: [&(dyn ToSql + Sync); 2] = [&table, &attribute];
        let row = self.bounded("the metadata query", |client| {
            client.query_opt(
                "select atttypmod, atttypid in ('varchar'::regtype, 'bpchar'::regtype) from pg_attribute where attrelid = $1 and attnum = $2",
                &params,
            )
        })?;
        Ok(row.and_then(|row| {
            let modifier: i32 = row.get(0);
            let is_character: bool = row.get(1);
            // The type modifier of a character type is its length plus the 4-byte header.
            (is_character && modifier > 4).then(|| (modifier - 4) as usize)
        }))
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
        let types = self.insert.params().to_vec();
        let params: Vec<Vec<TextParameter<'_>>> = batch
            .rows
            .iter()
            .map(|row| {
                batch
                    .sources
                    .iter()
                    .enumerate()
                    .map(|(index, source)| {
                        let limit = batch.limits.get(index).copied().flatten();
                        let ty = types.get(index).unwrap_or(&Type::TEXT);
                        TextParameter(as_text(value(source, row, index, limit), ty, &self.zone))
                    })
                    .collect()
            })
            .collect();
        let (client, insert) = (&mut self.client, &self.insert);
        let steps = async move {
            let transaction = client.transaction().await?;
            for row in &params {
                let references: Vec<&(dyn ToSql + Sync)> =
                    row.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
                if transaction.execute(insert, &references).await? == 0 {
                    return Ok(false);
                }
            }
            transaction.commit().await.map(|()| true)
        };
        let result = bounded(&self.runtime, self.answer_timeout, "the insert", steps);
        self.stalled = matches!(&result, Err(message) if message.starts_with(NO_ANSWER));
        match result? {
            true => Ok(()),
            false => Err("No records inserted in database table for log event".to_string()),
        }
    }

    fn stalled(&self) -> bool {
        self.stalled
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
struct TextParameter<'a>(Option<Cow<'a, str>>);

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
