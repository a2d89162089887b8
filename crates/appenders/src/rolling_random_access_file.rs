//! The RollingRandomAccessFile appender (log4j2's `RollingRandomAccessFileAppender`).

use std::sync::Arc;

use l4rs_config::model::RollingRandomAccessFileSpec;
use l4rs_core::Layout;

use crate::file_manager::{FileManager, FileOptions};
use crate::managed::ManagedAppender;
use crate::registry::Registry;
use crate::rolling::{file_options, RollingContext, RollingManager};
use crate::AppenderBuildError;

/// Every RollingRandomAccessFile manager of the process, by `fileName` (or `filePattern` for direct write).
pub(crate) static ROLLING_RANDOM_ACCESS_FILE_MANAGERS: Registry<
    String,
    RollingManager<FileManager>,
> = Registry::new();

/// Writes events to a file that is rolled over by its triggering policies, with log4j2's
/// `<RollingRandomAccessFile>` options.
///
/// The current file is written as the RandomAccessFile appender writes it: always through a
/// buffer (`bufferSize`, default 256 KiB) that `immediateFlush` (default true) drains after
/// every event; `append`, `filePermissions`, `fileOwner` and `fileGroup` apply too. Unlike the
/// plain RandomAccessFile appender, log4j2's rolling one writes the layout's header into every
/// new file, and so does l4rs; the footer ends each file when it is rolled or the appender
/// stops.
///
/// Before each event the policies are checked (size, time of the event, cron schedule); when
/// one triggers, the file is rolled first and the event goes into the new file. See the
/// `rolling` section of `docs/appenders.md` for strategies, compression and `<Delete>`.
/// Compression and deletion run on the appender's own worker thread; logging threads wait only
/// for the rename and the reopening.
pub struct RollingRandomAccessFileAppender {
    core: ManagedAppender<RollingManager<FileManager>>,
}

impl RollingRandomAccessFileAppender {
    /// Builds the appender named `name`, opening (or sharing) its manager, with the clock and
    /// the `filePattern` substitutor of `context`.
    pub fn with_context(
        name: impl Into<String>,
        spec: &RollingRandomAccessFileSpec,
        layout: Arc<dyn Layout>,
        context: &RollingContext,
    ) -> Result<RollingRandomAccessFileAppender, AppenderBuildError> {
        let rolling = &spec.rolling;
        // Always buffered, never created on demand: log4j2's RandomAccessFile manager.
        let options = FileOptions {
            append: spec.append,
            buffer_size: spec.buffer_size.max(1),
            ..file_options("RollingRandomAccessFileManager", rolling)
        };
        Ok(RollingRandomAccessFileAppender {
            core: crate::rolling::file_appender(
                name.into(),
                &ROLLING_RANDOM_ACCESS_FILE_MANAGERS,
                rolling,
                options,
                layout,
                context,
                spec.immediate_flush,
            )?,
        })
    }
}

crate::rolling::rolling_appender_common!(
    RollingRandomAccessFileAppender,
    RollingRandomAccessFileSpec
);
