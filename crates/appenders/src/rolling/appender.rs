//! The appender side shared by the three rolling appenders, and the memory-mapped backend.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use l4rs_core::{AppendError, Layout, LogEvent};

use super::{Backend, RollingManager};
use crate::file_manager::{FileManager, WriteError};
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
}

/// What every rolling appender does with an event, on top of its manager.
pub(crate) struct RollingCore<B: Backend + Send + Sync> {
    pub(crate) name: String,
    pub(crate) layout: Arc<dyn Layout>,
    pub(crate) manager: Arc<RollingManager<B>>,
    pub(crate) registry: &'static Registry<String, RollingManager<B>>,
    /// Drain to the OS after every event (`immediateFlush`, or no buffering).
    pub(crate) flush_each: bool,
    pub(crate) started: AtomicBool,
}

impl<B: Backend + Send + Sync> RollingCore<B> {
    fn error(&self, error: WriteError) -> AppendError {
        match error {
            WriteError::Closed => AppendError::NotStarted(self.name.clone()),
            WriteError::Io(source) => AppendError::Io {
                destination: self.manager.current_path(),
                source,
            },
        }
    }

    pub(crate) fn append(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        if !self.started.load(Ordering::Acquire) {
            return Err(AppendError::NotStarted(self.name.clone()));
        }
        let flush = self.flush_each || event.end_of_batch;
        let time = event.timestamp.epoch_millis;
        crate::encode::with_encoded(
            self.layout.as_ref(),
            |out| self.layout.format(event, out),
            |bytes| self.manager.write(time, bytes, flush),
        )
        .map_err(|error| self.error(error))
    }

    pub(crate) fn flush(&self) -> Result<(), AppendError> {
        self.manager.flush().map_err(|error| self.error(error))
    }

    pub(crate) fn stop(&self) {
        if self.started.swap(false, Ordering::AcqRel) {
            self.registry.release(self.manager.name(), &self.manager);
        }
    }
}

/// The parts of the three rolling appenders that are the same: the constructors that default
/// the [`RollingContext`](super::RollingContext), accessors and the
/// [`Appender`](l4rs_core::Appender) implementation over their [`RollingCore`]. Each appender
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

        impl l4rs_core::Appender for $appender {
            fn name(&self) -> &str {
                &self.core.name
            }

            fn append(
                &self,
                event: &l4rs_core::LogEvent<'_>,
            ) -> Result<(), l4rs_core::AppendError> {
                self.core.append(event)
            }

            fn flush(&self) -> Result<(), l4rs_core::AppendError> {
                self.core.flush()
            }

            fn stop(&self) {
                self.core.stop();
            }

            fn requires_location(&self) -> bool {
                self.core.layout.requires_location()
            }
        }

        impl Drop for $appender {
            /// An appender dropped without stopping still gives up its share of the file.
            fn drop(&mut self) {
                self.core.stop();
            }
        }

        impl std::fmt::Debug for $appender {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($appender))
                    .field("name", &self.core.name)
                    .field("current_file", &self.core.manager.current_path())
                    .finish_non_exhaustive()
            }
        }
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
            .and_then(crate::file_manager::parse_permissions),
        owner: rolling.file_owner.clone(),
        group: rolling.file_group.clone(),
    }
}

/// Opens (or shares) the rolling manager of a RollingFile or RollingRandomAccessFile appender,
/// whose files are [`FileManager`]s created with `options`.
pub(crate) fn file_manager(
    registry: &'static Registry<String, RollingManager<FileManager>>,
    rolling: &l4rs_config::model::RollingSpec,
    options: crate::file_manager::FileOptions,
    layout: &Arc<dyn Layout>,
    context: &super::RollingContext,
) -> Result<Arc<RollingManager<FileManager>>, crate::AppenderBuildError> {
    let factory_layout = Arc::clone(layout);
    let append = options.append;
    registry.acquire_shared(&RollingManager::<FileManager>::key(rolling), || {
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
    })
}
