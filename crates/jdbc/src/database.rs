//! A connection the appender inserts rows through, one kind per database l4rs reaches.

mod postgres;
mod sqlite;

use crate::row::{value, Row, Source, Value};
use crate::url::Target;

/// What a batch is inserted with: the rows, where each parameter comes from, and the
/// character limit of each text parameter's column (log4j2's `truncateStrings`).
pub(crate) struct Batch<'a> {
    /// The rows, inserted in order.
    pub(crate) rows: &'a [Row],
    /// Each parameter's source, in parameter order.
    pub(crate) sources: &'a [Source],
    /// Each parameter's column limit, in parameter order (shorter than `sources` when the
    /// database declared no limits).
    pub(crate) limits: &'a [Option<usize>],
}

impl Batch<'_> {
    /// The value parameter `index` of `row` is bound to; text a number parameter cannot read
    /// is reported the first time the row is bound only.
    pub(crate) fn value<'r>(&self, row: &'r Row, index: usize) -> Value<'r> {
        let limit = self.limits.get(index).copied().flatten();
        value(&self.sources[index], row, index, limit, !row.bound.get())
    }
}

/// An open connection with its prepared insert.
pub(crate) trait Database: Send {
    /// Inserts `batch` in one transaction, as log4j2 commits each write (one row) or each
    /// flushed buffer; nothing is inserted when it fails.
    fn insert(&mut self, batch: &Batch<'_>) -> Result<(), String>;

    /// True when the last insert failed because the server stopped answering: trying again at
    /// once on a new connection would hold the caller for another timeout.
    fn stalled(&self) -> bool {
        false
    }

    /// True when the last insert failed because the database refused a row's data (a
    /// constraint, a value its column cannot hold): the connection is sound, and the other
    /// rows of a batch can still be inserted.
    fn refused_data(&self) -> bool;
}

/// The statements a connection prepares.
pub(crate) struct Statements<'a> {
    /// log4j2's insert, with `?` placeholders.
    pub(crate) insert: &'a str,
    /// log4j2's metadata query, when `truncateStrings` asks for the columns' lengths.
    pub(crate) metadata: Option<&'a str>,
    /// Which parameter each column of the metadata query feeds (`None`: a literal column).
    pub(crate) parameter_of_column: &'a [Option<usize>],
}

/// An open connection and the limits of its text columns.
pub(crate) struct Connection {
    /// The connection.
    pub(crate) database: Box<dyn Database>,
    /// Each parameter's column limit ([`Batch::limits`]).
    pub(crate) limits: Vec<Option<usize>>,
}

/// Connects to `target`, prepares the insert and reads the text columns' limits.
pub(crate) fn connect(target: &Target, statements: &Statements<'_>) -> Result<Connection, String> {
    let (database, limits) = match target {
        Target::Sqlite {
            path,
            busy_timeout,
            pragmas,
        } => sqlite::connect(path, *busy_timeout, pragmas, statements)
            .map(|(db, limits)| (Box::new(db) as Box<dyn Database>, limits))?,
        Target::Postgres(target) => postgres::connect(target, statements)
            .map(|(db, limits)| (Box::new(db) as Box<dyn Database>, limits))?,
    };
    Ok(Connection { database, limits })
}

/// The limits of the parameters, given the limit of each metadata column.
fn parameter_limits(
    column_limits: impl IntoIterator<Item = Option<usize>>,
    parameter_of_column: &[Option<usize>],
) -> Vec<Option<usize>> {
    let count = parameter_of_column.iter().flatten().count();
    let mut limits = vec![None; count];
    for (limit, parameter) in column_limits.into_iter().zip(parameter_of_column) {
        if let Some(parameter) = parameter {
            limits[*parameter] = limit;
        }
    }
    limits
}
