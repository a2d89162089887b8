//! PostgreSQL through the `postgres` client. Every value is sent as text and the server
//! converts it to its column's type, as pgjdbc's `stringtype=unspecified` would: a number or a
//! timestamp reaches a text column, and a pattern's digits an integer column.

use std::borrow::Cow;
use std::error::Error;

use bytes::BytesMut;
use postgres::types::{Format, IsNull, ToSql, Type};
use postgres::{Client, NoTls, Statement};

use super::{parameter_limits, Batch, Database, Statements};
use crate::row::{value, Value};
use crate::statement::numbered_placeholders;

/// An open PostgreSQL connection with its prepared insert.
pub(super) struct Postgres {
    client: Client,
    insert: Statement,
    zone: jiff::tz::TimeZone,
}

/// Connects, prepares the insert and reads the declared lengths of the character columns.
pub(super) fn connect(
    config: &postgres::Config,
    statements: &Statements<'_>,
) -> Result<(Postgres, Vec<Option<usize>>), String> {
    let mut client = config.connect(NoTls).map_err(|e| full_message(&e))?;
    let insert = client
        .prepare(&numbered_placeholders(statements.insert))
        .map_err(|e| full_message(&e))?;
    let limits = match statements.metadata {
        Some(select) => {
            let select = client.prepare(select).map_err(|e| full_message(&e))?;
            let mut column_limits = Vec::with_capacity(select.columns().len());
            for column in select.columns() {
                column_limits.push(match (column.table_oid(), column.column_id()) {
                    (Some(table), Some(attribute)) => {
                        character_limit(&mut client, table, attribute)?
                    }
                    _ => None,
                });
            }
            parameter_limits(column_limits, statements.parameter_of_column)
        }
        None => Vec::new(),
    };
    Ok((
        Postgres {
            client,
            insert,
            // A `timestamp` column gets the local time, as pgjdbc sends a `java.sql.Timestamp`
            // in the JVM's default zone (the process's `TZ`).
            zone: jiff::tz::TimeZone::system(),
        },
        limits,
    ))
}

/// The declared length of a `varchar(n)` or `char(n)` column.
fn character_limit(
    client: &mut Client,
    table: u32,
    attribute: i16,
) -> Result<Option<usize>, String> {
    let row = client
        .query_opt(
            "select atttypmod, atttypid in ('varchar'::regtype, 'bpchar'::regtype) from pg_attribute where attrelid = $1 and attnum = $2",
            &[&table, &attribute],
        )
        .map_err(|e| full_message(&e))?;
    Ok(row.and_then(|row| {
        let modifier: i32 = row.get(0);
        let is_character: bool = row.get(1);
        // The type modifier of a character type is its length plus the 4-byte header.
        (is_character && modifier > 4).then(|| (modifier - 4) as usize)
    }))
}

/// The error with its causes (the server's message, or the I/O error under "error connecting").
fn full_message(error: &postgres::Error) -> String {
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
        let mut transaction = self.client.transaction().map_err(|e| full_message(&e))?;
        for row in batch.rows {
            let params: Vec<TextParameter<'_>> = batch
                .sources
                .iter()
                .enumerate()
                .map(|(index, source)| {
                    let limit = batch.limits.get(index).copied().flatten();
                    let ty = types.get(index).unwrap_or(&Type::TEXT);
                    TextParameter(as_text(value(source, row, index, limit), ty, &self.zone))
                })
                .collect();
            let references: Vec<&(dyn ToSql + Sync)> =
                params.iter().map(|p| p as &(dyn ToSql + Sync)).collect();
            let inserted = transaction
                .execute(&self.insert, &references)
                .map_err(|e| full_message(&e))?;
            if inserted == 0 {
                return Err("No records inserted in database table for log event".to_string());
            }
        }
        transaction.commit().map_err(|e| full_message(&e))
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

    postgres::types::to_sql_checked!();
}
