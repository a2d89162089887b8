//! What the three rolling appenders share: the rolling manager, its policies and strategies.
//!
//! # How a rollover runs
//!
//! Writers share a read lock on the manager's state and check the policies with two atomic
//! loads (the file's size against the size limit, the event's time against the next time
//! boundary) **before** they write, as log4j2 does, so the triggering event goes into the new
//! file. The writer that finds a policy triggered takes the lock exclusively, which waits for
//! the writes in flight, checks again (another thread may have rolled already) and then:
//!
//! 1. renames the current file to a hidden staging name next to it (`DefaultRolloverStrategy`),
//! 2. closes it through its descriptor: buffered bytes and the footer go into the renamed file
//!    (no footer for `OnStartupTriggeringPolicy`'s rollover, as in log4j2: that file is the
//!    previous run's, which ended it with its footer), a memory-mapped file is truncated to
//!    its data,
//! 3. opens the new file (with the header),
//! 4. queues the rest for the appender's worker thread: numbering the archives (`%i`), purging
//!    the oldest, moving the staged file to its archive name, compressing it and running the
//!    `<Delete>` actions.
//!
//! Logging threads wait only for steps 1–3. The worker runs the jobs one after the other, so
//! each sees the directory as the previous one left it, and stopping the appender waits for it.
//! With the appender's `maxRandomDelay`, each rollover's job waits a random 0 to that many
//! seconds first (on the [`RolloverClock`]), as log4j2 delays its asynchronous actions.
//! A rollover that cannot be done is reported through the status logger and writing goes on;
//! nothing is lost. Before step 1 the archive's target is checked (a directory in the way, a
//! path element that is a file, a directory that is not writable), so such a rollover leaves
//! the current file alone; when the new file cannot be opened the renamed file is put back.
//! What fails later, on the worker, is reported there and leaves the data in the staging file.
//!
//! A process killed between step 1 and the worker's move leaves staging files behind (and,
//! killed while compressing, a hidden partial archive): the next manager of the same file
//! archives the former and deletes the latter when it starts ([`recover`]).

mod actions;
mod appender;
mod archiver;
pub(crate) mod clock;
mod compress;
mod cron;
mod delete;
mod manager;
mod pattern;
mod posix_view;
#[cfg(fuzzing)]
pub use pattern::fuzz_file_pattern;
mod recover;
mod rename;
mod worker;

use std::path::Path;
use std::sync::Arc;

use l4rs_core::Interpolator;

use crate::file_manager::WriteError;
use crate::registry::Managed;
use crate::AppenderBuildError;

use clock::RolloverClock;

pub(crate) use actions::rollover_actions;
pub(crate) use appender::{file_appender, file_options, rolling_appender_common, MappedBackend};
pub(crate) use manager::RollingManager;

/// What a rolling appender takes from its surroundings besides its spec and layout.
#[derive(Clone)]
pub struct RollingContext {
    /// The clock the appender reads and waits on for everything but the events' own times: a
    /// `CronTriggeringPolicy`'s schedule, the start time of an appender (the current file's
    /// date, startup rollovers), the retry delay after a failed rollover and the random
    /// delays of `maxRandomDelay` (tests pass a [`ManualClock`](crate::ManualClock)).
    pub clock: Arc<dyn RolloverClock>,
    /// Resolves the `${…}` that `filePattern` keeps for rollover time (written `$${…}` in the
    /// configuration). The facade passes the configuration's substitutor
    /// ([`Configuration::substitutor`](l4rs_config::model::Configuration::substitutor)) so
    /// that configuration properties resolve as well as lookups, as in log4j2; the default
    /// knows lookups only.
    pub substitutor: Arc<dyn Interpolator>,
}

impl Default for RollingContext {
    /// The system clock and a substitutor without properties.
    fn default() -> RollingContext {
        RollingContext {
            clock: Arc::new(clock::SystemClock::default()),
            substitutor: Arc::new(l4rs_config::Substitutor::new(None)),
        }
    }
}

impl std::fmt::Debug for RollingContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RollingContext").finish_non_exhaustive()
    }
}

/// How long a failed rollover is not retried, so a lasting failure is reported once a second
/// rather than on every event.
const RETRY_DELAY_MS: i64 = 1000;

/// What a rolling manager needs from the manager of one file.
pub(crate) trait Backend: Managed + Sized + 'static {
    /// Writes one record; with `flush` it reaches the OS (or, memory-mapped, the disk) first.
    fn write(&self, bytes: &[u8], flush: bool) -> Result<(), WriteError>;
    /// [`l4rs_core::Appender::flush`].
    fn flush_now(&self) -> Result<(), WriteError>;
    /// The file's size by log4j2's accounting (what reached the OS, header aside).
    fn size(&self) -> u64;
    /// [`Managed::close`], with the layout's footer only with `footer` (it is left out for the
    /// rollover of `OnStartupTriggeringPolicy`).
    fn close_with(&self, footer: bool);
    /// Makes `path`, a staging file a killed process left, fit to be archived as this backend's
    /// files are after a rollover. Only a memory-mapped file needs it: a process killed between
    /// the rename and the close leaves the rest of its regions as NUL padding.
    fn recover_leftover(&self, _path: &Path) {}
}

/// Opens the manager of one file: `(path, append)`.
pub(crate) type Factory<B> = Box<dyn Fn(&str, bool) -> Result<B, AppenderBuildError> + Send + Sync>;
