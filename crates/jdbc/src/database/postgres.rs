//! PostgreSQL through `tokio-postgres`, on a thread of the connection's own that runs a
//! single-threaded tokio runtime: the logging call hands its rows over and waits for the answer,
//! so it never runs a runtime itself (a call made inside a program's own tokio task would
//! otherwise panic), and every wait (the handshake, a statement, a commit) is bounded by a
//! timeout, so a server that stops answering fails the call instead of holding it.
//!
//! Every value is sent as text and the server converts it to its column's type, as pgjdbc's
//! `stringtype=unspecified` would: a number or a timestamp reaches a text column, and a
//! pattern's digits an integer column. A number mapping's text is chosen by the parameter's
//! type so that the column stores what it stores from pgjdbc, which sends each Java class as
//! its own type (`Integer` an `integer`, `Short` and `Byte` a `smallint`, `Long` a `bigint`,
//! `BigInteger` and `BigDecimal` a `numeric`, `Float` a `real`, `Double` a `double precision`)
//! and lets the server cast it to the column's: a `Float` in a `double precision` column is
//! the float widened (`0.10000000149011612`), in a `numeric` column six significant digits. A
//! NUL character, which PostgreSQL refuses in text, is sent as U+FFFD.

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
use crate::number::JavaDecimal;
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
        Value::Byte(number) => Cow::Owned(number.to_string()),
        Value::BigInteger(digits) => digits,
        Value::Double(number) => double_text(number, ty),
        Value::Float(number) => float_text(number, ty),
        Value::BigDecimal(decimal) => Cow::Owned(decimal_text(&decimal, ty)),
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

/// The longest whole number l4rs writes out for an integer column: longer ones are out of
/// every integer type's range, and fail as pgjdbc's value would.
const LONGEST_WHOLE: usize = 1_000;

/// The longest plain `numeric` text: PostgreSQL's `numeric` holds at most 131072 digits before
/// the point and 16383 after.
const LONGEST_NUMERIC: usize = 131_072 + 16_383;

/// True for PostgreSQL's integer types.
fn is_integer(ty: &Type) -> bool {
    matches!(*ty, Type::INT2 | Type::INT4 | Type::INT8)
}

/// NaN and the infinities as PostgreSQL spells them (its integer types refuse them, as they
/// refuse pgjdbc's `double`).
fn special(number: f64) -> Option<Cow<'static, str>> {
    if number.is_nan() {
        Some(Cow::Borrowed("NaN"))
    } else if number.is_infinite() {
        Some(Cow::Borrowed(if number > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        }))
    } else {
        None
    }
}

/// A `java.lang.Double`, which pgjdbc sends as a `double precision`: the text that stores what
/// PostgreSQL's cast from `double precision` to `ty` stores.
fn double_text(number: f64, ty: &Type) -> Cow<'static, str> {
    if let Some(text) = special(number) {
        return text;
    }
    Cow::Owned(match *ty {
        // `rint`, then the type's range check.
        _ if is_integer(ty) => format!("{:.0}", number.round_ties_even()),
        Type::FLOAT4 => {
            let narrowed = number as f32;
            if narrowed.is_infinite() || (narrowed == 0.0 && number != 0.0) {
                // Out of `real`'s range: refused either way.
                format!("{number:e}")
            } else {
                format!("{narrowed:e}")
            }
        }
        Type::FLOAT8 => format!("{number:e}"),
        // `float8_numeric` keeps 15 significant digits (`%.15g`).
        Type::NUMERIC => significant_digits(number, 15),
        // `float8out`: the shortest text that reads back the same.
        _ => postgres_float_text(&format!("{number:e}"), 15),
    })
}

/// A `java.lang.Float`, which pgjdbc sends as a `real`: the text that stores what PostgreSQL's
/// cast from `real` to `ty` stores (a `double precision` column gets the float widened).
fn float_text(number: f32, ty: &Type) -> Cow<'static, str> {
    let widened = f64::from(number);
    if let Some(text) = special(widened) {
        return text;
    }
    Cow::Owned(match *ty {
        _ if is_integer(ty) => format!("{:.0}", widened.round_ties_even()),
        Type::FLOAT4 => format!("{number:e}"),
        Type::FLOAT8 => format!("{widened:e}"),
        // `float4_numeric` keeps 6 significant digits (`%.6g`).
        Type::NUMERIC => significant_digits(widened, 6),
        // `float4out`.
        _ => postgres_float_text(&format!("{number:e}"), 6),
    })
}

/// A `java.math.BigDecimal`, which pgjdbc sends as a `numeric`: the text that stores what
/// PostgreSQL's cast from `numeric` to `ty` stores.
fn decimal_text(decimal: &JavaDecimal, ty: &Type) -> String {
    if is_integer(ty) {
        // Rounded half away from zero, then the type's range check.
        return decimal
            .rounded_whole(LONGEST_WHOLE)
            .unwrap_or_else(|| decimal.java_string());
    }
    match *ty {
        // These read Java's text (`1E+3`, `1.50`) as they read the `numeric`.
        Type::NUMERIC | Type::FLOAT4 | Type::FLOAT8 => decimal.java_string(),
        // `numeric_out`: plain, with the scale's places.
        _ => decimal
            .plain_string(LONGEST_NUMERIC)
            .unwrap_or_else(|| decimal.java_string()),
    }
}

/// `number` with `digits` significant digits and no trailing zeros, as C's `%.Ng` keeps them
/// (in Rust's exponent notation, which PostgreSQL reads).
fn significant_digits(number: f64, digits: usize) -> String {
    let text = format!("{:.*e}", digits - 1, number);
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let mantissa = if mantissa.contains('.') {
        mantissa.trim_end_matches('0').trim_end_matches('.')
    } else {
        mantissa
    };
    format!("{mantissa}e{exponent}")
}

/// Rust's shortest exponent notation (`-1.25e-7`) as PostgreSQL's `float4out`/`float8out`
/// print the same digits: positional when the exponent is from -4 to `fixed_below` - 1,
/// otherwise with an exponent of at least two digits (`1.25e-07`, `1e+16`).
fn postgres_float_text(shortest: &str, fixed_below: i32) -> String {
    let (negative, shortest) = match shortest.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, shortest),
    };
    let (mantissa, exponent) = shortest.split_once('e').unwrap_or((shortest, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let mut out = String::with_capacity(digits.len() + 8);
    if negative {
        out.push('-');
    }
    if (-4..fixed_below).contains(&exponent) {
        if exponent < 0 {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-exponent - 1) as usize));
            out.push_str(&digits);
        } else {
            let integer = exponent as usize + 1;
            if digits.len() <= integer {
                out.push_str(&digits);
                out.extend(std::iter::repeat_n('0', integer - digits.len()));
            } else {
                out.push_str(&digits[..integer]);
                out.push('.');
                out.push_str(&digits[integer..]);
            }
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push_str(&format!(
            "e{}{:02}",
            if exponent < 0 { '-' } else { '+' },
            exponent.abs()
        ));
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::java_big_decimal;

    fn text(value: Value<'_>, ty: &Type) -> Option<String> {
        as_text(value, ty, &jiff::tz::TimeZone::UTC).map(Cow::into_owned)
    }

    /// Each expectation is what pgjdbc's value of that Java class became in a PostgreSQL 15
    /// column of that type (measured; the conformance test compares a subset live).
    #[test]
    fn floats_store_what_the_cast_from_real_stores() {
        let float = |number: f32, ty: &Type| text(Value::Float(number), ty).unwrap();
        assert_eq!(float(0.1, &Type::FLOAT8), "1.0000000149011612e-1");
        assert_eq!(float(0.1, &Type::FLOAT4), "1e-1");
        assert_eq!(float(0.1, &Type::TEXT), "0.1");
        assert_eq!(float(0.1, &Type::NUMERIC), "1e-1");
        assert_eq!(float(2147483648.0, &Type::NUMERIC), "2.14748e9");
        assert_eq!(float(2147483648.0, &Type::TEXT), "2.1474836e+09");
        assert_eq!(float(2147483648.0, &Type::INT8), "2147483648");
        assert_eq!(float(1e-5, &Type::TEXT), "1e-05");
        assert_eq!(float(16777216.0, &Type::TEXT), "1.6777216e+07");
        assert_eq!(float(32768.0, &Type::TEXT), "32768");
        assert_eq!(float(1.5, &Type::INT4), "2");
        assert_eq!(float(2.5, &Type::INT4), "2");
        assert_eq!(float(-0.0, &Type::TEXT), "-0");
        assert_eq!(float(f32::NAN, &Type::FLOAT8), "NaN");
        assert_eq!(float(f32::NEG_INFINITY, &Type::TEXT), "-Infinity");
    }

    #[test]
    fn doubles_store_what_the_cast_from_double_precision_stores() {
        let double = |number: f64, ty: &Type| text(Value::Double(number), ty).unwrap();
        assert_eq!(double(0.30000000000000004, &Type::NUMERIC), "3e-1");
        assert_eq!(
            double(123456789.12345679, &Type::NUMERIC),
            "1.23456789123457e8"
        );
        assert_eq!(
            double(123456789.12345679, &Type::TEXT),
            "123456789.12345679"
        );
        assert_eq!(double(1e16, &Type::TEXT), "1e+16");
        assert_eq!(double(1e10, &Type::TEXT), "10000000000");
        assert_eq!(double(5e-324, &Type::TEXT), "5e-324");
        assert_eq!(double(0.001, &Type::TEXT), "0.001");
        assert_eq!(double(1e-5, &Type::TEXT), "1e-05");
        assert_eq!(
            double(9.007199254740992e15, &Type::TEXT),
            "9.007199254740992e+15"
        );
        assert_eq!(double(16777217.0, &Type::FLOAT4), "1.6777216e7");
        assert_eq!(double(3.5e38, &Type::FLOAT4), "3.5e38");
        assert_eq!(double(0.5, &Type::INT2), "0");
        assert_eq!(double(-1.5, &Type::INT2), "-2");
        assert_eq!(double(f64::INFINITY, &Type::NUMERIC), "Infinity");
    }

    #[test]
    fn big_decimals_store_what_the_cast_from_numeric_stores() {
        let decimal = |number: &str, ty: &Type| {
            text(Value::BigDecimal(java_big_decimal(number).unwrap()), ty).unwrap()
        };
        assert_eq!(decimal("1e3", &Type::NUMERIC), "1E+3");
        assert_eq!(decimal("1e3", &Type::TEXT), "1000");
        assert_eq!(decimal("1.50", &Type::TEXT), "1.50");
        assert_eq!(decimal("1e-7", &Type::VARCHAR), "0.0000001");
        assert_eq!(decimal(".5", &Type::INT4), "1");
        assert_eq!(decimal("-2.5", &Type::INT8), "-3");
        assert_eq!(decimal("3.4028236e38", &Type::FLOAT4), "3.4028236E+38");
    }

    #[test]
    fn whole_numbers_are_their_digits() {
        assert_eq!(text(Value::Integer(-5), &Type::FLOAT4).unwrap(), "-5");
        assert_eq!(text(Value::Byte(-128), &Type::INT2).unwrap(), "-128");
        assert_eq!(
            text(
                Value::BigInteger(Cow::Borrowed("123456789012345678901234567890")),
                &Type::NUMERIC
            )
            .unwrap(),
            "123456789012345678901234567890"
        );
    }
}
