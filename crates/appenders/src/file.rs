//! The File appender (log4j2's `FileAppender`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use l4rs_config::model::FileSpec;
use l4rs_core::{status, AppendError, Appender, Layout, LogEvent};

use crate::file_manager::{parse_permissions, FileManager, FileOptions, WriteError, FILE_MANAGERS};
use crate::AppenderBuildError;

/// Writes events to a file, with log4j2's `<File>` options.
///
/// * `append` (default true): false truncates the file when the appender is built.
/// * `bufferedIo` (true), `bufferSize` (8192) and `immediateFlush` (true): events reach the OS
///   before `append` returns unless buffering is on *and* immediate flush is off; then they wait
///   in the buffer until it fills, an end-of-batch event arrives, [`Appender::flush`] is called,
///   or the appender stops.
/// * `locking`: an OS write lock around each write; it turns buffering off, with log4j2's WARN.
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
    name: String,
    layout: Arc<dyn Layout>,
    manager: Arc<FileManager>,
    immediate_flush: bool,
    started: AtomicBool,
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
        let mut buffered = spec.buffered_io;
        if spec.locking && buffered {
            status::warn(format_args!(
                "Locking and buffering are mutually exclusive. No buffering will occur for {}",
                spec.file_name
            ));
            buffered = false;
        }
        if !buffered && spec.buffer_size > 0 {
            status::warn(format_args!(
                "The bufferSize is set to {} but bufferedIo is false: false",
                spec.buffer_size
            ));
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
        let options = FileOptions {
            manager: "FileManager",
            header: true,
            append: spec.append,
            buffered,
            buffer_size: spec.buffer_size,
            locking: spec.locking,
            create_on_demand: spec.create_on_demand,
            permissions,
            owner: spec.file_owner.clone(),
            group: spec.file_group.clone(),
        };
        let manager = FILE_MANAGERS.acquire(&spec.file_name, || {
            FileManager::create(&spec.file_name, options, Arc::clone(&layout))
        })?;
        Ok(FileAppender {
            name,
            layout,
            // An appender flushes after each event unless it may leave events in a buffer;
            // with a shared manager that has no buffer there is nothing to leave.
            immediate_flush: spec.immediate_flush || !buffered || !manager.is_buffered(),
            manager,
            started: AtomicBool::new(true),
        })
    }

    /// The `fileName` written to.
    pub fn file_name(&self) -> &str {
        self.manager.file_name()
    }

    /// True when every event reaches the OS before [`Appender::append`] returns.
    pub fn is_immediate_flush(&self) -> bool {
        self.immediate_flush
    }

    fn error(&self, error: WriteError) -> AppendError {
        match error {
            WriteError::Closed => AppendError::NotStarted(self.name.clone()),
            WriteError::Io(source) => AppendError::Io {
                destination: self.manager.file_name().to_string(),
                source,
            },
        }
    }
}

impl Appender for FileAppender {
    fn name(&self) -> &str {
        &self.name
    }

    fn append(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        if !self.started.load(Ordering::Acquire) {
            return Err(AppendError::NotStarted(self.name.clone()));
        }
        // log4j2 flushes after an event when immediateFlush is set or the event ends a batch.
        let flush = self.immediate_flush || event.end_of_batch;
        crate::encode::with_encoded(
            self.layout.as_ref(),
            |out| self.layout.format(event, out),
            |bytes| self.manager.write(bytes, flush),
        )
        .map_err(|error| self.error(error))
    }

    fn flush(&self) -> Result<(), AppendError> {
        self.manager.flush().map_err(|error| self.error(error))
    }

    fn stop(&self) {
        if self.started.swap(false, Ordering::AcqRel) {
            FILE_MANAGERS.release(self.manager.file_name(), &self.manager);
        }
    }

    fn requires_location(&self) -> bool {
        self.layout.requires_location()
    }
}

impl Drop for FileAppender {
    /// An appender dropped without [`Appender::stop`] still gives up its share of the file, so
    /// buffered bytes and the footer are not lost.
    fn drop(&mut self) {
        self.stop();
    }
}

impl std::fmt::Debug for FileAppender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileAppender")
            .field("name", &self.name)
            .field("file_name", &self.manager.file_name())
            .field("immediate_flush", &self.immediate_flush)
            .field("started", &self.started.load(Ordering::Relaxed))
            .finish()
    }
}
