//! The RandomAccessFile appender (log4j2's `RandomAccessFileAppender`).
//!
//! log4j2 keeps a `RandomAccessFile` behind a 256 KiB byte buffer that is always in use; "flush"
//! means draining that buffer with one `write`, never an `fsync`. That is exactly the File
//! manager's buffered mode with a bigger buffer, so this appender runs on
//! [`FileManager`](crate::file_manager::FileManager) with log4j2's RandomAccessFile options,
//! kept in a registry of its own: a `<File>` and a `<RandomAccessFile>` naming the same path
//! are two managers in log4j2 too (their factories differ).
//!
//! The file is opened with `O_APPEND` rather than positioned once at its end as log4j2 does: the
//! bytes written are the same, and a file truncated behind our back (`logrotate`'s
//! `copytruncate`) is then continued at its new end instead of gaining a hole.

use std::sync::Arc;

use l4rs_config::model::RandomAccessFileSpec;
use l4rs_core::Layout;

use crate::file_manager::{FileManager, FileOptions};
use crate::managed::ManagedAppender;
use crate::registry::Registry;
use crate::AppenderBuildError;

/// Every RandomAccessFile manager of the process, by `fileName` as configured.
pub(crate) static RANDOM_ACCESS_FILE_MANAGERS: Registry<String, FileManager> = Registry::new();

/// The name log4j2 gives the manager in its messages.
pub(crate) const MANAGER: &str = "RandomAccessFileManager";

/// Writes events to a file through a large buffer, with log4j2's `<RandomAccessFile>` options.
///
/// * `append` (default true): false deletes the file when the appender is built and starts a
///   new one.
/// * `bufferSize` (default 262144): the buffer is always used. With `immediateFlush` (default
///   true) each event leaves it in **one** `write(2)` before `append` returns; otherwise events
///   wait until the buffer is full, an end-of-batch event arrives, [`Appender::flush`](l4rs_core::Appender::flush) is called
///   or the appender stops. A record at least as large as the buffer is written straight through
///   after what was buffered.
/// * Missing parent directories are created.
///
/// As in log4j2 2.19, the layout's footer is written when the last appender using the file
/// stops, but its **header is never written**: log4j2 hands it to a stream that discards it,
/// and l4rs keeps the files byte-identical.
///
/// Appenders naming the same `fileName` share one manager (one descriptor, one buffer, the
/// first appender's footer). Each event is formatted outside any lock into the thread's reused
/// buffers; lines written concurrently are never torn or interleaved and each thread's lines
/// keep their order.
pub struct RandomAccessFileAppender {
    core: ManagedAppender<FileManager>,
}

impl RandomAccessFileAppender {
    /// Builds the appender named `name`, opening (or sharing) the file's manager.
    ///
    /// Directory and open failures are errors worded as log4j2's status logger reports them,
    /// e.g. `RandomAccessFileManager (logs/app.log) java.io.IOException: Could not create
    /// directory …`.
    pub fn new(
        name: impl Into<String>,
        spec: &RandomAccessFileSpec,
        layout: Arc<dyn Layout>,
    ) -> Result<RandomAccessFileAppender, AppenderBuildError> {
        let name = name.into();
        let options = FileOptions {
            manager: MANAGER,
            header: false,
            append: spec.append,
            buffered: true,
            // A zero-sized buffer could hold nothing; log4j2 would fail on every write. One byte
            // keeps the manager's invariants and writes every record straight through.
            buffer_size: spec.buffer_size.max(1),
            locking: false,
            create_on_demand: false,
            permissions: None,
            owner: None,
            group: None,
        };
        let manager = RANDOM_ACCESS_FILE_MANAGERS.acquire(&spec.file_name, || {
            if !spec.append {
                // log4j2 deletes the file before opening it when not appending, so the new file
                // is a new inode (a reader still holding the old one keeps the old contents).
                // Only a missing file is an expected failure; anything else will resurface as
                // an error when the file is opened.
                let _ = std::fs::remove_file(&spec.file_name);
            }
            FileManager::create(&spec.file_name, options, Arc::clone(&layout))
        })?;
        Ok(RandomAccessFileAppender {
            core: ManagedAppender::new(
                name,
                layout,
                manager,
                &RANDOM_ACCESS_FILE_MANAGERS,
                spec.immediate_flush,
            ),
        })
    }

    /// The `fileName` written to.
    pub fn file_name(&self) -> &str {
        self.core.manager.file_name()
    }

    /// True when every event reaches the OS before [`Appender::append`](l4rs_core::Appender::append) returns.
    pub fn is_immediate_flush(&self) -> bool {
        self.core.flush_each()
    }
}

crate::managed::managed_appender!(RandomAccessFileAppender);

#[cfg(test)]
mod tests;
