//! The RollingMemoryMappedFile appender: MemoryMappedFile with rollover (an l4rs extension).

use std::sync::Arc;

use l4rs_config::model::RollingMemoryMappedFileSpec;
use l4rs_core::Layout;

use crate::managed::ManagedAppender;
use crate::memory_mapped_file::valid_region_length;
use crate::mmf_manager::MemoryMappedFileManager;
use crate::registry::Registry;
use crate::rolling::{MappedBackend, RollingContext, RollingManager};
use crate::AppenderBuildError;

/// Every RollingMemoryMappedFile manager of the process, by `fileName` (or `filePattern` for direct write).
pub(crate) static ROLLING_MEMORY_MAPPED_FILE_MANAGERS: Registry<
    String,
    RollingManager<MappedBackend>,
> = Registry::new();

/// Writes events into a memory-mapped file that is rolled over by its triggering policies:
/// log4j2 has no rolling variant of `<MemoryMappedFile>`, l4rs adds `<RollingMemoryMappedFile>`
/// with the RollingFile appender's policies, strategies, compression and actions.
///
/// The current file is written exactly as the MemoryMappedFile appender writes it (`append`,
/// `regionLength`, `immediateFlush` accepted and without effect): writers reserve their bytes
/// with one atomic addition and copy them into the mapping in parallel, and they share a read
/// lock on the rolling state that only a rollover takes exclusively (it is what lets the
/// rollover wait for the copies in flight; its cost is measured in `docs/appenders.md`). A rollover waits for the
/// copies in flight, writes the footer, truncates the file to its data (no NUL padding is ever
/// archived, not even from a rollover a kill interrupted: the next start recovers its file as
/// MemoryMappedFile recovers one at open), then starts a new mapped file. As for MemoryMappedFile, the header is never
/// written. The size policy counts the bytes written, which are all in the page cache.
pub struct RollingMemoryMappedFileAppender {
    core: ManagedAppender<RollingManager<MappedBackend>>,
}

impl RollingMemoryMappedFileAppender {
    /// Builds the appender named `name`, opening (or sharing) its manager, with the clock and
    /// the `filePattern` substitutor of `context`.
    pub fn with_context(
        name: impl Into<String>,
        spec: &RollingMemoryMappedFileSpec,
        layout: Arc<dyn Layout>,
        context: &RollingContext,
    ) -> Result<RollingMemoryMappedFileAppender, AppenderBuildError> {
        let name = name.into();
        let rolling = &spec.rolling;
        let region_length = valid_region_length(&name, spec.region_length);
        let factory_layout = Arc::clone(&layout);
        let manager = ROLLING_MEMORY_MAPPED_FILE_MANAGERS.acquire_shared(
            &RollingManager::<MappedBackend>::key(rolling),
            || {
                RollingManager::create(
                    rolling,
                    spec.append,
                    Box::new(move |path, append| {
                        MemoryMappedFileManager::create(
                            path,
                            append,
                            region_length,
                            Arc::clone(&factory_layout),
                        )
                        .map(MappedBackend::new)
                    }),
                    context,
                )
            },
        )?;
        Ok(RollingMemoryMappedFileAppender {
            // Every byte is in the page cache at once; syncing waits for an end of batch.
            core: ManagedAppender::new(
                name,
                layout,
                manager,
                &ROLLING_MEMORY_MAPPED_FILE_MANAGERS,
                false,
            ),
        })
    }
}

#[cfg(test)]
impl RollingMemoryMappedFileAppender {
    /// The manager of the file written now, for tests that stall its writers.
    pub(crate) fn current_backend(&self) -> Arc<MappedBackend> {
        self.core
            .manager
            .current_backend()
            .expect("the appender has a file open")
    }
}

crate::rolling::rolling_appender_common!(
    RollingMemoryMappedFileAppender,
    RollingMemoryMappedFileSpec
);
