//! The RollingRandomAccessFile appender (log4j2's `RollingRandomAccessFileAppender`).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use l4rs_config::model::RollingRandomAccessFileSpec;
use l4rs_core::Layout;

use crate::file_manager::{parse_permissions, FileManager, FileOptions};
use crate::registry::Registry;
use crate::rolling::clock::{RolloverClock, SystemClock};
use crate::rolling::{RollingCore, RollingManager};
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
    core: RollingCore<FileManager>,
}

impl RollingRandomAccessFileAppender {
    /// Builds the appender named `name`, opening (or sharing) its manager.
    pub fn new(
        name: impl Into<String>,
        spec: &RollingRandomAccessFileSpec,
        layout: Arc<dyn Layout>,
    ) -> Result<RollingRandomAccessFileAppender, AppenderBuildError> {
        Self::with_clock(name, spec, layout, Arc::new(SystemClock::default()))
    }

    /// [`RollingRandomAccessFileAppender::new`] with the clock a `CronTriggeringPolicy` waits on (tests
    /// pass a [`ManualClock`](crate::ManualClock)).
    pub fn with_clock(
        name: impl Into<String>,
        spec: &RollingRandomAccessFileSpec,
        layout: Arc<dyn Layout>,
        clock: Arc<dyn RolloverClock>,
    ) -> Result<RollingRandomAccessFileAppender, AppenderBuildError> {
        let rolling = &spec.rolling;
        let options = FileOptions {
            manager: "RollingRandomAccessFileManager",
            header: true,
            append: spec.append,
            buffered: true,
            buffer_size: spec.buffer_size.max(1),
            locking: false,
            create_on_demand: false,
            permissions: rolling
                .file_permissions
                .as_deref()
                .and_then(parse_permissions),
            owner: rolling.file_owner.clone(),
            group: rolling.file_group.clone(),
        };
        let manager = crate::rolling::file_manager(
            &ROLLING_RANDOM_ACCESS_FILE_MANAGERS,
            rolling,
            options,
            &layout,
            clock,
        )?;
        Ok(RollingRandomAccessFileAppender {
            core: RollingCore {
                name: name.into(),
                layout,
                manager,
                registry: &ROLLING_RANDOM_ACCESS_FILE_MANAGERS,
                flush_each: spec.immediate_flush,
                started: AtomicBool::new(true),
            },
        })
    }
}

crate::rolling::rolling_appender_common!(RollingRandomAccessFileAppender);
