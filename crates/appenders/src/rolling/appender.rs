//! The appender side shared by the three rolling appenders, and the memory-mapped backend.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use l4rs_core::{status, Layout, LogEvent};

use super::{Backend, RollingManager};
use crate::file_manager::{FileManager, WriteError};
use crate::managed::{AppenderManager, ManagedAppender};
use crate::mmf_manager::MemoryMappedFileManager;
use crate::registry::{Managed, Registry};

impl Backend for FileManager {
    fn write(&self, bytes: &[u8], flush: bool) -> Result<(), WriteError> {
        FileManager::write(self, bytes, flush)
    }

    fn flush_now(&self) -> Result<(), WriteError> {
        FileManager::flush(self)
    }

    fn size(&self) -> u64 {
        FileManager::size(self)
    }

    fn close_with(&self, footer: bool) {
        FileManager::close_with(self, footer);
    }
}

/// A memory-mapped file with the byte count rolling needs (every byte is in the page cache
/// once written, so all count).
pub(crate) struct MappedBackend {
    pub(crate) manager: MemoryMappedFileManager,
    written: AtomicU64,
}

impl MappedBackend {
    pub(crate) fn new(manager: MemoryMappedFileManager) -> MappedBackend {
        MappedBackend {
            manager,
            written: AtomicU64::new(0),
        }
    }
}

impl Managed for MappedBackend {
    fn flush(&self) {
        Managed::flush(&self.manager);
    }

    fn close(&self) {
        Managed::close(&self.manager);
    }
}

impl Backend for MappedBackend {
    /// `flush` is the end of a batch: the mapping is synced to the disk, as log4j2 does.
    fn write(&self, bytes: &[u8], flush: bool) -> Result<(), WriteError> {
        self.manager.write(bytes)?;
        self.written
            .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        if flush {
            self.manager.sync()?;
        }
        Ok(())
    }

    fn flush_now(&self) -> Result<(), WriteError> {
        self.manager.sync()
    }

    fn size(&self) -> u64 {
        self.manager.data_start() + self.written.load(Ordering::Relaxed)
    }

    fn close_with(&self, footer: bool) {
        self.manager.close_with(footer);
    }

    /// Cuts the padding off and fills the holes, as opening the file would have (see
    /// [`crate::mmf_manager::recover_killed_run`]); archived as it is when that fails.
    fn recover_leftover(&self, path: &std::path::Path) {
        let display = path.display().to_string();
        match crate::mmf_manager::recover_leftover(path, self.manager.region_length()) {
            Ok(recovered) => recovered.report(&display),
            Err(error) => status::error(format_args!(
                "{} ({display}) Unable to recover the data of a killed run, archiving it as it \
                 is: {}",
                crate::mmf_manager::MANAGER,
                crate::os_reason(&error)
            )),
        }
    }
}

/// A rolling appender's manager.
impl<B: Backend + Send + Sync> AppenderManager for RollingManager<B> {
    fn key(&self) -> &str {
        self.name()
    }

    fn destination(&self) -> String {
        self.current_path()
    }

    /// The event's time decides whether the file is rolled over first.
    fn write_event(
        &self,
        event: &LogEvent<'_>,
        bytes: &[u8],
        flush: bool,
    ) -> Result<(), WriteError> {
        self.write(event.timestamp.epoch_millis, bytes, flush)
    }

    fn flush_appender(&self) -> Result<(), WriteError> {
        self.flush()
    }

    fn debug_fields(
        &self,
        out: &mut fmt::DebugStruct<'_, '_>,
        _flush_each: bool,
        _started: bool,
    ) -> fmt::Result {
        out.field("current_file", &self.current_path())
            .finish_non_exhaustive()
    }
}

/// The parts of the three rolling appenders that are the same: the constructors that default
/// the [`RollingContext`](super::RollingContext), accessors and the
/// [`Appender`](l4rs_core::Appender) implementation over their `core`, a
/// [`ManagedAppender`](crate::managed::ManagedAppender) of a [`RollingManager`]. Each appender
/// writes its own `with_context`, the one place where the three differ.
macro_rules! rolling_appender_common {
    ($appender:ident, $spec:ty) => {
        impl $appender {
            /// Builds the appender named `name`, opening (or sharing) its manager, with the
            /// system clock; `$${…}` in `filePattern` resolves lookups but no configuration
            /// properties (see [`Self::with_context`]).
            pub fn new(
                name: impl Into<String>,
                spec: &$spec,
                layout: std::sync::Arc<dyn l4rs_core::Layout>,
            ) -> Result<$appender, crate::AppenderBuildError> {
                Self::with_context(name, spec, layout, &crate::RollingContext::default())
            }

            /// [`Self::new`] with the clock a `CronTriggeringPolicy` waits on (tests pass a
            /// [`ManualClock`](crate::ManualClock)).
            pub fn with_clock(
                name: impl Into<String>,
                spec: &$spec,
                layout: std::sync::Arc<dyn l4rs_core::Layout>,
                clock: std::sync::Arc<dyn crate::RolloverClock>,
            ) -> Result<$appender, crate::AppenderBuildError> {
                let context = crate::RollingContext {
                    clock,
                    ..crate::RollingContext::default()
                };
                Self::with_context(name, spec, layout, &context)
            }

            /// The `fileName` as configured (`None`: direct write to the pattern's files).
            pub fn file_name(&self) -> Option<&str> {
                self.core.manager.file_name()
            }

            /// The file written now.
            pub fn current_file(&self) -> String {
                self.core.manager.current_path()
            }

            /// Waits until the compression and deletion of the rollovers so far are done.
            pub fn wait_for_actions(&self) {
                self.core.manager.wait_for_actions();
            }
        }

        crate::managed::managed_appender!($appender);
    };
}

pub(crate) use rolling_appender_common;

/// The [`FileOptions`](crate::file_manager::FileOptions) every rolling file starts from: a
/// header in each new file, no locking, and the `rolling` permissions and ownership. Callers
/// set `append`, buffering and `createOnDemand` from their own spec.
pub(crate) fn file_options(
    manager: &'static str,
    rolling: &l4rs_config::model::RollingSpec,
) -> crate::file_manager::FileOptions {
    crate::file_manager::FileOptions {
        manager,
        header: true,
        append: true,
        buffered: true,
        buffer_size: 8192,
        locking: false,
        create_on_demand: false,
        permissions: rolling
            .file_permissions
            .as_deref()
            .and_then(crate::posix::parse_permissions),
        owner: rolling.file_owner.clone(),
        group: rolling.file_group.clone(),
    }
}

/// The core of a RollingFile or RollingRandomAccessFile appender named `name`: a share of the
/// rolling manager in `registry` (opened if need be), whose files are [`FileManager`]s created
/// with `options`.
pub(crate) fn file_appender(
    name: String,
    registry: &'static Registry<String, RollingManager<FileManager>>,
    rolling: &l4rs_config::model::RollingSpec,
    options: crate::file_manager::FileOptions,
    layout: Arc<dyn Layout>,
    context: &super::RollingContext,
    flush_each: bool,
) -> Result<ManagedAppender<RollingManager<FileManager>>, crate::AppenderBuildError> {
    let factory_layout = Arc::clone(&layout);
    let append = options.append;
    let manager = registry.acquire_shared(&RollingManager::<FileManager>::key(rolling), || {
        RollingManager::create(
            rolling,
            append,
            Box::new(move |path, append| {
                let options = crate::file_manager::FileOptions {
                    append,
                    ..options.clone()
                };
                FileManager::create(path, options, Arc::clone(&factory_layout))
            }),
            context,
        )
    })?;
    Ok(ManagedAppender::new(
        name, layout, manager, registry, flush_each,
    ))
}
