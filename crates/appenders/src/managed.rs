//! The appender side shared by every file appender: an appender is a name, a layout and a share
//! of a manager from a process-wide [`Registry`]. Formatting an event, the started check, the
//! end-of-batch flush, the error wording and giving the share back on stop (or drop) are the
//! same for all of them; only the manager differs.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use l4rs_core::{AppendError, Layout, LogEvent};

use crate::file_manager::WriteError;
use crate::registry::{Managed, Registry};

/// What a [`ManagedAppender`] needs from its manager.
pub(crate) trait AppenderManager: Managed + 'static {
    /// The manager's key in its registry.
    fn key(&self) -> &str;
    /// Where the bytes go, as append errors name it.
    fn destination(&self) -> String;
    /// Writes one record of `event`; with `flush` it reaches the OS (memory-mapped: the disk)
    /// before this returns.
    fn write_event(
        &self,
        event: &LogEvent<'_>,
        bytes: &[u8],
        flush: bool,
    ) -> Result<(), WriteError>;
    /// [`l4rs_core::Appender::flush`].
    fn flush_appender(&self) -> Result<(), WriteError>;
    /// True when [`AppenderManager::defer_flush`] may succeed, i.e. the manager can keep an
    /// immediate-flush record buffered until an asynchronous stage's batch ends.
    const DEFERS_FLUSH: bool = false;
    /// Leaves the flush of what was just written to the end of the calling asynchronous
    /// stage's batch ([`l4rs_core::batch`]); false (the default) when the caller must flush
    /// now.
    fn defer_flush(_this: &Arc<Self>) -> bool
    where
        Self: Sized,
    {
        false
    }
    /// True when an appender that stops while others keep the manager (a reconfiguration
    /// that keeps the destination) writes out what it left in the manager's buffer, so that
    /// its events do not wait for the next configuration's.
    const FLUSHES_ON_STOP: bool = false;
    /// The appender's `Debug` fields after its name, and the end of the `Debug` output.
    fn debug_fields(
        &self,
        out: &mut fmt::DebugStruct<'_, '_>,
        flush_each: bool,
        started: bool,
    ) -> fmt::Result;
}

/// What every file appender does with an event, on top of its share of a manager. The share is
/// given back to `registry` when the appender stops or is dropped, so buffered bytes and the
/// footer are not lost.
pub(crate) struct ManagedAppender<M: AppenderManager> {
    name: String,
    layout: Arc<dyn Layout>,
    pub(crate) manager: Arc<M>,
    registry: &'static Registry<String, M>,
    /// Flush after every event (`immediateFlush`, or nothing that could be left in a buffer);
    /// an event that ends a batch is always flushed.
    flush_each: bool,
    started: AtomicBool,
}

impl<M: AppenderManager> ManagedAppender<M> {
    /// A started appender over `manager`, a share acquired from `registry`.
    pub(crate) fn new(
        name: String,
        layout: Arc<dyn Layout>,
        manager: Arc<M>,
        registry: &'static Registry<String, M>,
        flush_each: bool,
    ) -> ManagedAppender<M> {
        ManagedAppender {
            name,
            layout,
            manager,
            registry,
            flush_each,
            started: AtomicBool::new(true),
        }
    }

    /// True when every event is flushed before [`ManagedAppender::append`] returns.
    pub(crate) fn flush_each(&self) -> bool {
        self.flush_each
    }

    fn error(&self, error: WriteError) -> AppendError {
        match error {
            WriteError::Closed => AppendError::NotStarted(self.name.clone()),
            WriteError::Io(source) => AppendError::Io {
                destination: self.manager.destination(),
                source,
            },
        }
    }

    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    pub(crate) fn append(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        if !self.started.load(Ordering::Acquire) {
            return Err(AppendError::NotStarted(self.name.clone()));
        }
        // log4j2 flushes after an event when immediateFlush is set or the event ends a batch
        // (an asynchronous stage found its queue empty). Behind an asynchronous stage the
        // immediate flush waits for the end of the stage's batch instead (see
        // `l4rs_core::batch` for why that keeps what immediateFlush promises).
        let deferring = M::DEFERS_FLUSH
            && self.flush_each
            && !event.end_of_batch
            && l4rs_core::batch::is_deferring();
        let flush = (self.flush_each || event.end_of_batch) && !deferring;
        let layout = self.layout.as_ref();
        let write = |bytes: &[u8]| self.manager.write_event(event, bytes, flush);
        match event
            .rendered
            .and_then(|rendered| rendered.text_for(&self.layout))
        {
            // Formatted by this layout on the caller's thread before a queue (l4rs_core::Rendered).
            Some(text) => crate::encode::with_encoded_text(layout, text, write),
            None => crate::encode::with_encoded(layout, |out| layout.format(event, out), write),
        }
        .map_err(|error| self.error(error))?;
        if deferring && !M::defer_flush(&self.manager) {
            return self.flush();
        }
        Ok(())
    }

    pub(crate) fn flush(&self) -> Result<(), AppendError> {
        self.manager
            .flush_appender()
            .map_err(|error| self.error(error))
    }

    pub(crate) fn stop(&self) {
        if self.started.swap(false, Ordering::AcqRel) {
            if M::FLUSHES_ON_STOP && !self.flush_each {
                if let Err(WriteError::Io(error)) = self.manager.flush_appender() {
                    l4rs_core::status::error(format_args!(
                        "Unable to write to stream {} for appender {} while stopping it: {error}",
                        self.manager.destination(),
                        self.name
                    ));
                }
            }
            self.registry.release(self.manager.key(), &self.manager);
        }
    }

    pub(crate) fn requires_location(&self) -> bool {
        self.layout.requires_location()
    }

    pub(crate) fn layout_rendering_ahead(&self) -> Option<Arc<dyn Layout>> {
        self.layout
            .renders_ahead()
            .then(|| Arc::clone(&self.layout))
    }

    /// The `Debug` output of the appender type `type_name`.
    pub(crate) fn debug(&self, type_name: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct(type_name);
        out.field("name", &self.name);
        self.manager.debug_fields(
            &mut out,
            self.flush_each,
            self.started.load(Ordering::Relaxed),
        )
    }
}

impl<M: AppenderManager> Drop for ManagedAppender<M> {
    /// An appender dropped without [`l4rs_core::Appender::stop`] still gives up its share of the
    /// file.
    fn drop(&mut self) {
        self.stop();
    }
}

/// The [`Appender`](l4rs_core::Appender) and `Debug` implementations of an appender type whose
/// `core` field is a [`ManagedAppender`].
macro_rules! managed_appender {
    ($appender:ident) => {
        impl l4rs_core::Appender for $appender {
            fn name(&self) -> &str {
                self.core.name()
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
                self.core.requires_location()
            }

            fn layout_rendering_ahead(&self) -> Option<std::sync::Arc<dyn l4rs_core::Layout>> {
                self.core.layout_rendering_ahead()
            }
        }

        impl std::fmt::Debug for $appender {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.core.debug(stringify!($appender), f)
            }
        }
    };
}

pub(crate) use managed_appender;
