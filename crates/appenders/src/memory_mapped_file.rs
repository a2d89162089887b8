//! The MemoryMappedFile appender (log4j2's `MemoryMappedFileAppender`).

use std::fmt;
use std::sync::Arc;

use l4rs_config::model::MemoryMappedFileSpec;
use l4rs_core::{status, Layout, LogEvent};

use crate::file_manager::WriteError;
use crate::managed::{AppenderManager, ManagedAppender};
use crate::mmf_manager::{MemoryMappedFileManager, MEMORY_MAPPED_FILE_MANAGERS};
use crate::AppenderBuildError;

/// The smallest region log4j2 maps.
pub const MIN_REGION_LENGTH: u64 = 256;
/// The largest region log4j2 maps (1 GiB).
pub const MAX_REGION_LENGTH: u64 = 1 << 30;

/// Writes events into a memory-mapped file, with log4j2's `<MemoryMappedFile>` options.
///
/// * `append` (default true): false deletes the file when the appender is built. With true,
///   writing continues where the data ends, **after cutting off the NUL padding** that a killed
///   process leaves behind (log4j2 continues after the padding), and the runs of NUL bytes its
///   writers left inside the data (records reserved and never copied) are overwritten with
///   spaces ending in a newline; `docs/appenders.md` ("MemoryMappedFile after a crash") gives
///   the rule that tells them from NUL bytes of messages, and its limits.
/// * `regionLength` (default 33554432): the size of each mapping, clamped to [256 B, 1 GiB] and
///   rounded up to a power of two, each adjustment reported at INFO as log4j2 words it.
/// * `immediateFlush` is accepted and, as in log4j2 (whose builder hands `false` to the
///   appender whatever the attribute says), changes nothing: every event is in the page cache,
///   safe from a process crash, the moment `append` returns, which is what immediate flush
///   guarantees for the other file appenders. Syncing to the disk after every event (`msync`)
///   would cost a disk round trip per event; like log4j2, the data is synced on
///   [`Appender::flush`](l4rs_core::Appender::flush) and when an event ends an asynchronous
///   stage's batch. That sync runs on the file's syncer thread, coalesced, instead of making
///   the stage wait for the disk as log4j2 does (`docs/appenders.md` says what an OS crash can
///   lose because of it).
///
/// Each region's disk blocks are reserved before it is mapped, so a full disk is reported by
/// the status logger when the next region is needed (events that do not fit fail and are
/// reported, and writing resumes once space returns) instead of killing the process with
/// SIGBUS. On stop the file is truncated to the bytes written, after the layout's footer. As in
/// log4j2 2.19 the header is never written.
///
/// Concurrent writers reserve their bytes with one atomic addition and copy them into the
/// mapping in parallel, without a lock; lines are never torn or interleaved and each thread's
/// lines keep their order. Appenders naming the same `fileName` share one manager.
pub struct MemoryMappedFileAppender {
    core: ManagedAppender<MemoryMappedFileManager>,
    immediate_flush: bool,
}

impl MemoryMappedFileAppender {
    /// Builds the appender named `name`, opening (or sharing) the file's manager and mapping
    /// its first region.
    ///
    /// Directory and open failures are errors worded as log4j2 reports them, e.g.
    /// `MemoryMappedFileManager (logs/app.log) java.io.IOException: Could not create directory …`.
    /// A disk too full for the first region is reported, not an error: the appender retries.
    pub fn new(
        name: impl Into<String>,
        spec: &MemoryMappedFileSpec,
        layout: Arc<dyn Layout>,
    ) -> Result<MemoryMappedFileAppender, AppenderBuildError> {
        let name = name.into();
        let region_length = valid_region_length(&name, spec.region_length);
        let manager = MEMORY_MAPPED_FILE_MANAGERS.acquire(&spec.file_name, || {
            MemoryMappedFileManager::create(
                &spec.file_name,
                spec.append,
                region_length,
                Arc::clone(&layout),
            )
        })?;
        Ok(MemoryMappedFileAppender {
            // Every event is in the page cache at once; syncing waits for an end of batch.
            core: ManagedAppender::new(name, layout, manager, &MEMORY_MAPPED_FILE_MANAGERS, false),
            immediate_flush: spec.immediate_flush,
        })
    }

    /// The `fileName` written to.
    pub fn file_name(&self) -> &str {
        self.core.manager.file_name()
    }

    /// The region length in use (that of the appender that opened the file).
    pub fn region_length(&self) -> u64 {
        self.core.manager.region_length()
    }

    /// The `immediateFlush` attribute as configured; it does not change how events are written
    /// (see the type's documentation).
    pub fn is_immediate_flush(&self) -> bool {
        self.immediate_flush
    }
}

#[cfg(test)]
impl MemoryMappedFileAppender {
    /// The manager, for tests that stall or fail its writers.
    pub(crate) fn manager(&self) -> Arc<MemoryMappedFileManager> {
        Arc::clone(&self.core.manager)
    }
}

crate::managed::managed_appender!(MemoryMappedFileAppender);

/// log4j2's region length rules: clamped to [256, 1 GiB], then rounded up to a power of two,
/// each change reported at INFO.
pub(crate) fn valid_region_length(name: &str, requested: i64) -> u64 {
    if requested > MAX_REGION_LENGTH as i64 {
        status::info(format_args!(
            "MemoryMappedAppender[{name}] Reduced region length from {requested} to max length: {MAX_REGION_LENGTH}"
        ));
        return MAX_REGION_LENGTH;
    }
    if requested < MIN_REGION_LENGTH as i64 {
        status::info(format_args!(
            "MemoryMappedAppender[{name}] Expanded region length from {requested} to min length: {MIN_REGION_LENGTH}"
        ));
        return MIN_REGION_LENGTH;
    }
    let requested = requested as u64;
    let rounded = requested.next_power_of_two();
    if rounded != requested {
        status::info(format_args!(
            "MemoryMappedAppender[{name}] Rounded up region length from {requested} to next power of two: {rounded}"
        ));
    }
    rounded
}

/// A MemoryMappedFile appender's manager.
impl AppenderManager for MemoryMappedFileManager {
    fn key(&self) -> &str {
        self.file_name()
    }

    fn destination(&self) -> String {
        self.file_name().to_string()
    }

    /// `flush` is the end of a batch: log4j2 then forces the mapping to the disk and waits for
    /// it. On an asynchronous stage's thread the sync is handed to the file's syncer thread
    /// instead ([`crate::mmf_sync`]), so the stage goes on writing meanwhile; where the errors
    /// must come back with the event (`l4rs_core::batch::without_deferring`) it waits.
    fn write_event(&self, _: &LogEvent<'_>, bytes: &[u8], flush: bool) -> Result<(), WriteError> {
        self.write(bytes)?;
        if flush {
            if l4rs_core::batch::is_deferring() {
                self.request_sync();
            } else {
                self.sync()?;
            }
        }
        Ok(())
    }

    /// Syncs the file to the disk (`fdatasync`, the equivalent of log4j2's `force()`): its
    /// bytes are in the OS already.
    fn flush_appender(&self) -> Result<(), WriteError> {
        self.sync()
    }

    fn debug_fields(
        &self,
        out: &mut fmt::DebugStruct<'_, '_>,
        _flush_each: bool,
        started: bool,
    ) -> fmt::Result {
        out.field("file_name", &self.file_name())
            .field("region_length", &self.region_length())
            .field("started", &started)
            .finish()
    }
}

#[cfg(test)]
mod tests;
