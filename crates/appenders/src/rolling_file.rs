//! The RollingFile appender (log4j2's `RollingFileAppender`).

use std::sync::Arc;

use l4rs_config::model::RollingFileSpec;
use l4rs_core::Layout;

use crate::file_manager::{FileManager, FileOptions};
use crate::managed::ManagedAppender;
use crate::registry::Registry;
use crate::rolling::{file_options, RollingContext, RollingManager};
use crate::AppenderBuildError;

/// Every RollingFile manager of the process, by `fileName` (or `filePattern` for direct write).
pub(crate) static ROLLING_FILE_MANAGERS: Registry<String, RollingManager<FileManager>> =
    Registry::new();

/// Writes events to a file that is rolled over by its triggering policies, with log4j2's
/// `<RollingFile>` options.
///
/// The current file is written exactly as the File appender writes (`append`, `bufferedIo`,
/// `bufferSize`, `immediateFlush`, `createOnDemand`, `filePermissions`, `fileOwner`,
/// `fileGroup`; `locking` is accepted and ignored, as in log4j2). Every file gets the layout's
/// header when it is started and its footer when it is rolled or the appender stops.
///
/// Before each event the policies are checked (size, time of the event, cron schedule); when
/// one triggers, the file is rolled first and the event goes into the new file. See the
/// `rolling` section of `docs/appenders.md` for strategies, compression and `<Delete>`.
/// Compression and deletion run on the appender's own worker thread; logging threads wait only
/// for the rename and the reopening.
pub struct RollingFileAppender {
    core: ManagedAppender<RollingManager<FileManager>>,
}

impl RollingFileAppender {
    /// Builds the appender named `name`, opening (or sharing) its manager, with the clock and
    /// the `filePattern` substitutor of `context`.
    pub fn with_context(
        name: impl Into<String>,
        spec: &RollingFileSpec,
        layout: Arc<dyn Layout>,
        context: &RollingContext,
    ) -> Result<RollingFileAppender, AppenderBuildError> {
        let rolling = &spec.rolling;
        let options = FileOptions {
            append: spec.append,
            buffered: spec.buffered_io,
            buffer_size: spec.buffer_size.max(1),
            create_on_demand: spec.create_on_demand,
            ..file_options("RollingFileManager", rolling)
        };
        Ok(RollingFileAppender {
            core: crate::rolling::file_appender(
                name.into(),
                &ROLLING_FILE_MANAGERS,
                rolling,
                options,
                layout,
                context,
                spec.immediate_flush || !spec.buffered_io,
            )?,
        })
    }
}

crate::rolling::rolling_appender_common!(RollingFileAppender, RollingFileSpec);
