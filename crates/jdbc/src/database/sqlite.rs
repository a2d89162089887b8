//! SQLite through rusqlite, stored as the xerial JDBC driver (3.40) stores what log4j2 binds:
//! text as TEXT; an `Integer`, `Long` or `Short` as an INTEGER; a `Double` or `Float` as a
//! REAL (the float widened; NaN is NULL, as SQLite binds it); a `Byte`, `BigInteger` or
//! `BigDecimal` as its `toString()` TEXT (xerial's `setObject` binds the text of any class it
//! does not list, and `setBigDecimal` binds the text), which the column's affinity may turn
//! into a number; booleans as 1 or 0; and timestamps as INTEGER milliseconds since the epoch
//! (xerial's default `date_class`).

use std::time::Duration;

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, OpenFlags, ToSql};

use super::{parameter_limits, Batch, Database, Statements};
use crate::row::{declared_text_length, Value};

/// An open SQLite database.
pub(super) struct Sqlite {
    connection: Connection,
    insert: String,
    /// The last insert failed on a row's data ([`Database::refused_data`]).
    refused_data: bool,
}

/// True for SQLite's refusals of a row's data rather than of the connection.
fn is_data_refusal(error: &rusqlite::Error) -> bool {
    matches!(
        error.sqlite_error_code(),
        Some(
            rusqlite::ErrorCode::ConstraintViolation
                | rusqlite::ErrorCode::TypeMismatch
                | rusqlite::ErrorCode::TooBig
        )
    )
}

/// Opens `path` (creating the file, as xerial does), sets its pragmas, checks the insert and
/// reads the declared lengths of the text columns.
pub(super) fn connect(
    path: &str,
    busy_timeout: Duration,
    pragmas: &[(String, String)],
    statements: &Statements<'_>,
) -> Result<(Sqlite, Vec<Option<usize>>), String> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let connection = Connection::open_with_flags(path, flags).map_err(|e| e.to_string())?;
    connection
        .busy_timeout(busy_timeout)
        .map_err(|e| e.to_string())?;
    for (name, value) in pragmas {
        // `name` is an identifier (checked when the URL was read); the value is quoted.
        let quoted = value.replace('\'', "''");
        connection
            .execute_batch(&format!("PRAGMA {name}='{quoted}'"))
            .map_err(|e| format!("PRAGMA {name}: {e}"))?;
    }
    // Prepared now so that a missing table or column is reported when connecting.
    connection
        .prepare_cached(statements.insert)
        .map_err(|e| e.to_string())?;
    let limits = match statements.metadata {
        Some(select) => {
            let statement = connection.prepare(select).map_err(|e| e.to_string())?;
            let columns = statement.columns();
            parameter_limits(
                columns
                    .iter()
                    .map(|column| column.decl_type().and_then(declared_text_length)),
                statements.parameter_of_column,
            )
        }
        None => Vec::new(),
    };
    Ok((
        Sqlite {
            connection,
            insert: statements.insert.to_string(),
            refused_data: false,
        },
        limits,
    ))
}

impl Database for Sqlite {
    fn insert(&mut self, batch: &Batch<'_>) -> Result<(), String> {
        let result = self.insert_rows(batch);
        self.refused_data = matches!(&result, Err(error) if is_data_refusal(error));
        result.map_err(|error| error.to_string())
    }

    fn refused_data(&self) -> bool {
        self.refused_data
    }
}

impl Sqlite {
    fn insert_rows(&mut self, batch: &Batch<'_>) -> rusqlite::Result<()> {
        let transaction = self.connection.transaction()?;
        {
            let mut statement = transaction.prepare_cached(&self.insert)?;
            for row in batch.rows {
                for index in 0..batch.sources.len() {
                    statement.raw_bind_parameter(index + 1, Bound(batch.value(row, index)))?;
                }
                row.bound.set(true);
                if statement.raw_execute()? == 0 {
                    // An insert that inserts nothing (a trigger's doing) is refused data.
                    return Err(rusqlite::Error::SqliteFailure(
                        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT),
                        Some("No records inserted in database table for log event".to_string()),
                    ));
                }
            }
        }
        // Dropping an uncommitted transaction rolls it back, so a failed batch leaves nothing.
        transaction.commit()
    }
}

/// A value as SQLite stores it.
struct Bound<'a>(Value<'a>);

impl ToSql for Bound<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        use rusqlite::types::Value as Owned;
        Ok(match &self.0 {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Text(text) => ToSqlOutput::Borrowed(ValueRef::Text(text.as_bytes())),
            Value::Integer(number) | Value::Timestamp(number) => {
                ToSqlOutput::Owned(Owned::Integer(*number))
            }
            Value::Byte(number) => ToSqlOutput::Owned(Owned::Text(number.to_string())),
            Value::BigInteger(digits) => ToSqlOutput::Borrowed(ValueRef::Text(digits.as_bytes())),
            Value::BigDecimal(decimal) => ToSqlOutput::Owned(Owned::Text(decimal.java_string())),
            Value::Double(number) => ToSqlOutput::Owned(Owned::Real(*number)),
            Value::Float(number) => ToSqlOutput::Owned(Owned::Real(f64::from(*number))),
            Value::Boolean(flag) => ToSqlOutput::Owned(Owned::Integer(i64::from(*flag))),
        })
    }
}
