//! The File appender (log4j2's `FileAppender`).

use std::fmt;
use std::sync::Arc;

use l4rs_config::model::FileSpec;
use l4rs_core::{status, Layout, LogEvent};

use crate::file_manager::{FileManager, FileOptions, WriteError, FILE_MANAGERS};
use crate::managed::{AppenderManager, ManagedAppender};
use crate::posix::parse_permissions;
use crate::AppenderBuildError;

/// Writes events to a file, with log4j2's `<File>` options.
///
/// * `append` (default true): false truncates the file when the appender is built.
/// * `bufferedIo` (true), `bufferSize` (8192) and `immediateFlush` (true): events reach the OS
///   before `append` returns unless buffering is on *and* immediate flush is off; then they wait
///   in the buffer until it fills, an end-of-batch event arrives, [`Appender::flush`](l4rs_core::Appender::flush) is called,
///   or the appender stops.
/// * `locking`: an OS write lock around each write; it turns buffering off, with log4j2's WARN
///   (the configuration loader gives it, and the WARN about the unused `bufferSize`).
/// * `createOnDemand`: the file is created by the first write (or by the footer).
/// * `filePermissions`, `fileOwner`, `fileGroup`: applied whenever the file is opened.
///
/// The header is written when the file is new or truncated (with `createOnDemand`: when it is
/// empty at the first write); the footer when the last appender using the file stops. All File
/// appenders of the process that name the same `fileName` share one manager, and so one file
/// descriptor, one buffer, and the first appender's header and footer.
///
/// Each event is formatted outside any lock into the thread's reused buffer. Lines written
/// concurrently are never torn or interleaved, and each thread's lines keep their order.
pub struct FileAppender {
    core: ManagedAppender<FileManager>,
}

impl FileAppender {
    /// Builds the appender named `name`, opening (or sharing) the file's manager.
    ///
    /// An invalid `filePermissions` is reported as a WARN and ignored; owner and group failures
    /// are reported when the file is opened. Directory and open failures are errors, worded as
    /// log4j2's status logger reports them.
    pub fn new(
        name: impl Into<String>,
        spec: &FileSpec,
        layout: Arc<dyn Layout>,
    ) -> Result<FileAppender, AppenderBuildError> {
        let name = name.into();
        let options = file_options(&name, spec);
        let buffered = options.buffered;
        let manager = FILE_MANAGERS.acquire(&spec.file_name, || {
            FileManager::create(&spec.file_name, options, Arc::clone(&layout))
        })?;
        // An appender flushes after each event unless it may leave events in a buffer; with a
        // shared manager that has no buffer there is nothing to leave.
        let immediate_flush = spec.immediate_flush || !buffered || !manager.is_buffered();
        Ok(FileAppender {
            core: ManagedAppender::new(name, layout, manager, &FILE_MANAGERS, immediate_flush),
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

crate::managed::managed_appender!(FileAppender);

/// The options the File appender `name` opens its manager with, after log4j2's adjustments;
/// what they warn about is reported (building and `l4rs check` both come through here).
pub(crate) fn file_options(name: &str, spec: &FileSpec) -> FileOptions {
    // A spec from the configuration loader has been through this already, so this warns
    // only for specs built in code. The loader alone also reports a bufferSize that
    // buffering off makes useless, so that is said once.
    let mut settled = spec.clone();
    if let Some(warning) = settled.give_locking_precedence() {
        status::warn(format_args!("{warning}"));
    }
    let permissions = spec.file_permissions.as_deref().and_then(|text| {
        let parsed = parse_permissions(text);
        if parsed.is_none() {
            status::warn(format_args!(
                "Invalid filePermissions \"{text}\" for appender {name}: expected nine characters \
                 such as rw-r-----; the file's permissions are left as they are"
            ));
        }
        parsed
    });
    FileOptions {
        manager: "FileManager",
        header: true,
        append: spec.append,
        buffered: settled.buffered_io,
        buffer_size: spec.buffer_size,
        locking: spec.locking,
        create_on_demand: spec.create_on_demand,
        permissions,
        owner: spec.file_owner.clone(),
        group: spec.file_group.clone(),
    }
}

/// A File or RandomAccessFile appender's manager.
impl AppenderManager for FileManager {
    fn key(&self) -> &str {
        self.file_name()
    }

    fn destination(&self) -> String {
        self.file_name().to_string()
    }

    fn write_event(&self, _: &LogEvent<'_>, bytes: &[u8], flush: bool) -> Result<(), WriteError> {
        self.write(bytes, flush)
    }

    fn flush_appender(&self) -> Result<(), WriteError> {
        self.flush()
    }

    const DEFERS_FLUSH: bool = true;

    fn defer_flush(this: &Arc<Self>) -> bool {
        FileManager::defer_flush(this)
    }

    fn debug_fields(
        &self,
        out: &mut fmt::DebugStruct<'_, '_>,
        flush_each: bool,
        started: bool,
    ) -> fmt::Result {
        out.field("file_name", &self.file_name())
            .field("immediate_flush", &flush_each)
            .field("started", &started)
            .finish()
    }
}

#[cfg(test)]
mod tests;
