//! The rolling manager: one rolling destination, its policies checked on every write and the
//! rollover itself (the `rolling` module's documentation says how one runs).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};

use l4rs_config::model::{RollingSpec, RolloverStrategySpec, TriggeringPolicySpec};
use l4rs_core::status;

use crate::file_manager::{report_write_result, WriteError};
use crate::registry::Managed;
use crate::AppenderBuildError;

use super::actions::rollover_actions;
use super::archiver::Archiver;
use super::clock::{epoch_millis, RolloverClock};
use super::cron::CronTimer;
use super::delete::STAGING_SUFFIX;
use super::pattern::RuntimePattern;
use super::rename::rename_no_replace;
use super::worker::Worker;
use super::{compress, recover, RollingContext};
use super::{Backend, Factory, RETRY_DELAY_MS};

/// The last-modified time of `path` in epoch ms. log4j2's RollingFile reads the creation time
/// where the file system has one (its RollingRandomAccessFile the last write); Linux file
/// systems do not all record it, and a file appended to is best dated by its last write, which
/// also lets tools (and tests) set it (docs/compatibility.md, Deliberate differences).
fn file_time(path: &Path) -> Option<i64> {
    let modified = std::fs::metadata(path).ok()?.modified().ok()?;
    Some(epoch_millis(modified))
}

/// The time-based policy's settings.
#[derive(Clone, Copy)]
struct TimePolicy {
    interval: u32,
    modulate: bool,
    max_random_delay_ms: u64,
}

/// The state writers share and rollovers change.
struct State<B> {
    /// `None` once closed.
    backend: Option<Arc<B>>,
    /// The file written now.
    path: String,
    /// The time the current file's archive will be named with (log4j2's `nextFileTime`).
    file_time: i64,
    /// The index of the current file (direct write).
    index: i64,
    /// The last time the cron schedule fired (or the file time, before it first fires).
    last_fire: i64,
}

/// One rolling destination, shared by the appenders that name it.
pub(crate) struct RollingManager<B: Backend> {
    key: String,
    file_name: Option<String>,
    archiver: Arc<Archiver>,
    factory: Factory<B>,
    state: RwLock<State<B>>,
    max_size: u64,
    time_policy: Option<TimePolicy>,
    /// The next time boundary, `i64::MAX` without a time policy.
    next_rollover: AtomicI64,
    /// The clock's time before which a failed rollover is not retried.
    retry_after: AtomicI64,
    staging_sequence: AtomicU64,
    worker: Worker,
    cron: Mutex<Option<CronTimer>>,
    clock: Arc<dyn RolloverClock>,
    /// The appender's `maxRandomDelay`, in ms: how long a rollover's job may wait.
    max_random_delay_ms: u64,
}

fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|e| e.into_inner())
}

fn write<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|e| e.into_inner())
}

/// Why a rollover happens.
#[derive(Clone, Copy)]
pub(super) enum Cause {
    /// An event at this time found a policy triggered.
    Event(i64),
    /// The appender started (OnStartup, cron `evaluateOnStartup`). `footer` is false for
    /// `OnStartupTriggeringPolicy`: log4j2 skips the footer for that rollover, since the file
    /// it rolls is the one a previous run closed, footer included.
    Startup { footer: bool },
    /// The cron schedule fired at this time.
    Cron(i64),
}

impl<B: Backend + Send + Sync> RollingManager<B> {
    /// The registry key of `spec`: its `fileName`, or its `filePattern` for direct write.
    pub(crate) fn key(spec: &RollingSpec) -> String {
        spec.file_name
            .clone()
            .unwrap_or_else(|| spec.file_pattern.text.clone())
    }

    /// Opens the current file and applies the startup policies.
    pub(crate) fn create(
        spec: &RollingSpec,
        append: bool,
        factory: Factory<B>,
        context: &RollingContext,
    ) -> Result<Arc<RollingManager<B>>, AppenderBuildError> {
        let clock = Arc::clone(&context.clock);
        let pattern = RuntimePattern::new(&spec.file_pattern, Arc::clone(&context.substitutor));
        let key = Self::key(spec);
        if let Some(suffix) = pattern.compression() {
            if !compress::SUPPORTED.contains(&suffix) {
                // The configuration already warned, with the attribute's position.
                status::debug(format_args!(
                    "{key}: {suffix} compression is not available in l4rs; rolled files keep their uncompressed name"
                ));
            }
        }
        let mut max_size = u64::MAX;
        let mut time_policy = None;
        let mut on_startup = None;
        let mut cron = None;
        for policy in &spec.policies {
            match policy {
                TriggeringPolicySpec::Size { max_size: limit } => max_size = max_size.min(*limit),
                TriggeringPolicySpec::Time {
                    interval,
                    modulate,
                    max_random_delay_seconds,
                } => {
                    time_policy = Some(TimePolicy {
                        interval: *interval,
                        modulate: *modulate,
                        max_random_delay_ms: max_random_delay_seconds.saturating_mul(1000),
                    })
                }
                TriggeringPolicySpec::OnStartup { min_size } => on_startup = Some(*min_size),
                TriggeringPolicySpec::Cron {
                    schedule,
                    evaluate_on_startup,
                } => cron = Some((schedule.clone(), *evaluate_on_startup)),
            }
        }
        let actions = rollover_actions(&key, &spec.strategy);
        let archiver = Arc::new(Archiver {
            name: key.clone(),
            pattern,
            strategy: spec.strategy.clone(),
            actions,
            rename_empty: AtomicBool::new(false),
        });
        let now = clock.now_millis();
        // The current file, and the time it is dated with.
        let (path, index, existing_time) = match &spec.file_name {
            Some(file_name) => (file_name.clone(), 0, file_time(Path::new(file_name))),
            None => {
                let index = archiver
                    .pattern
                    .existing(now)
                    .keys()
                    .next_back()
                    .copied()
                    .unwrap_or(1);
                let path = archiver.pattern.format_uncompressed(now, index);
                let time = file_time(Path::new(&path));
                (path, index, time)
            }
        };
        let dated = if append {
            existing_time.unwrap_or(now)
        } else {
            now
        };
        let (next_rollover, file_time) = match time_policy {
            Some(policy) => archiver
                .pattern
                .next_period(dated, policy.interval, policy.modulate)
                .map_or((i64::MAX, dated), |(next, file_time)| {
                    (
                        clock.after_random_delay(next, policy.max_random_delay_ms),
                        file_time,
                    )
                }),
            None => (i64::MAX, period_start(&archiver.pattern, dated)),
        };
        let backend = factory(&path, append)?;
        let manager = Arc::new(RollingManager {
            key,
            file_name: spec.file_name.clone(),
            archiver,
            factory,
            state: RwLock::new(State {
                backend: Some(Arc::new(backend)),
                path,
                file_time,
                index,
                last_fire: dated,
            }),
            max_size,
            time_policy,
            next_rollover: AtomicI64::new(next_rollover),
            retry_after: AtomicI64::new(0),
            staging_sequence: AtomicU64::new(0),
            worker: Worker::start(
                &spec.file_name.clone().unwrap_or_else(|| Self::key(spec)),
                Arc::clone(&clock),
            ),
            cron: Mutex::new(None),
            clock: Arc::clone(&clock),
            max_random_delay_ms: spec.max_random_delay_seconds.saturating_mul(1000),
        });
        if matches!(spec.strategy, RolloverStrategySpec::Default { .. }) {
            if let Some(file_name) = &spec.file_name {
                manager.recover(Path::new(file_name), now);
            }
        }
        let size = manager.current_size();
        // OnStartupTriggeringPolicy rolls files older than this process.
        let predates_process =
            existing_time.is_some_and(|time| time < l4rs_core::time::process_start_millis());
        let size = i64::try_from(size).unwrap_or(i64::MAX);
        let on_startup_rolls =
            matches!(on_startup, Some(min_size) if append && predates_process && size >= min_size);
        if on_startup_rolls && on_startup == Some(0) {
            manager.archiver.rename_empty.store(true, Ordering::Relaxed);
        }
        let mut cron_rolls = false;
        if let Some((schedule, evaluate_on_startup)) = &cron {
            if *evaluate_on_startup && append {
                if let Some(time) = existing_time {
                    // A fire time passed since the file was last written.
                    cron_rolls = schedule
                        .next_after(time, &jiff::tz::TimeZone::system())
                        .is_some_and(|fire| fire <= now);
                }
            }
        }
        if on_startup_rolls || cron_rolls {
            // log4j2 initializes the policies in document order, and the first rollover dates
            // the new file now, so a second policy finds nothing to roll. Only
            // OnStartupTriggeringPolicy's rollover leaves the footer out.
            let footer = !on_startup_rolls || (cron_rolls && cron_precedes_on_startup(spec));
            manager.roll(Cause::Startup { footer });
        }
        if let Some((schedule, _)) = cron {
            let timer = CronTimer::start(Arc::downgrade(&manager), schedule, clock);
            *manager.cron.lock().unwrap_or_else(|e| e.into_inner()) = timer;
        }
        Ok(manager)
    }

    /// Settles the partial archives of killed processes (see [`recover`]), then archives the
    /// staging files of `current` they left, on the worker and before any rollover of this
    /// manager, so they take their place as older archives.
    ///
    /// The settling must be done before the first staging file is handed over. A finished
    /// partial's index is free on disk until it is renamed into place; a staging file
    /// numbered before that takes the index, and the settling then either finds the staging
    /// file's uncompressed archive under the partial's source name and deletes the partial as
    /// unfinished, or renames it over the new archive. One archive was lost either way.
    fn recover(&self, current: &Path, now: i64) {
        // Dated by its last write: the period its events belong to.
        let leftovers: Vec<(PathBuf, i64)> = recover::staging_leftovers(current)
            .into_iter()
            .map(|staging| {
                let time = period_start(&self.archiver.pattern, file_time(&staging).unwrap_or(now));
                (staging, time)
            })
            .collect();
        // Partial archives lie where their archives go, which a `%d` in a directory moves
        // from period to period: the current one's, and those the leftovers will go to.
        let archive_dir = |time: i64| {
            let archive = self.archiver.pattern.format(time, 1);
            recover::parent_dir(Path::new(&archive)).to_path_buf()
        };
        let mut dirs = vec![recover::parent_dir(current).to_path_buf(), archive_dir(now)];
        dirs.extend(leftovers.iter().map(|(_, time)| archive_dir(*time)));
        dirs.sort();
        dirs.dedup();
        for dir in dirs {
            for settled in recover::settle_partial_archives(&dir) {
                match settled {
                    recover::Settled::Deleted(partial) => status::warn(format_args!(
                        "RollingFileManager ({}) deleted {}, a compression interrupted by the end of its process",
                        self.key,
                        partial.display()
                    )),
                    recover::Settled::Placed(archive) => status::warn(format_args!(
                        "RollingFileManager ({}) completed {}, an archive whose process ended before renaming it",
                        self.key,
                        archive.display()
                    )),
                    recover::Settled::Aside { archive, target } => status::warn(format_args!(
                        "RollingFileManager ({}) put {} aside: an archive whose process ended before renaming it to {}, which exists and is not replaced",
                        self.key,
                        archive.display(),
                        target.display()
                    )),
                    recover::Settled::Kept { partial, target } => status::error(format_args!(
                        "RollingFileManager ({}) left {}, an archive whose process ended before renaming it: {} exists and is not replaced; move the archive to a free name by hand",
                        self.key,
                        partial.display(),
                        target.display()
                    )),
                }
            }
        }
        let backend = read(&self.state).backend.clone();
        for (staging, archive_time) in leftovers {
            status::warn(format_args!(
                "RollingFileManager ({}) archiving {}, left by an interrupted rollover",
                self.key,
                staging.display()
            ));
            if let Some(backend) = &backend {
                backend.recover_leftover(&staging);
            }
            let archiver = Arc::clone(&self.archiver);
            self.worker
                .submit(Box::new(move || archiver.place(&staging, archive_time)));
        }
    }

    /// The registry key.
    pub(crate) fn name(&self) -> &str {
        &self.key
    }

    /// The file written now.
    pub(crate) fn current_path(&self) -> String {
        read(&self.state).path.clone()
    }

    fn current_size(&self) -> u64 {
        read(&self.state)
            .backend
            .as_ref()
            .map_or(0, |backend| backend.size())
    }

    /// Writes one record of an event at `time` (epoch ms), rolling over first when a policy
    /// says so.
    pub(crate) fn write(&self, time: i64, bytes: &[u8], flush: bool) -> Result<(), WriteError> {
        {
            let state = read(&self.state);
            let backend = state.backend.as_ref().ok_or(WriteError::Closed)?;
            if !self.triggered(time, backend.size()) {
                return backend.write(bytes, flush);
            }
        }
        self.roll(Cause::Event(time));
        let state = read(&self.state);
        state
            .backend
            .as_ref()
            .ok_or(WriteError::Closed)?
            .write(bytes, flush)
    }

    /// [`l4rs_core::Appender::flush`] on the current file.
    pub(crate) fn flush(&self) -> Result<(), WriteError> {
        let state = read(&self.state);
        state
            .backend
            .as_ref()
            .ok_or(WriteError::Closed)?
            .flush_now()
    }

    /// Waits until the compression and deletion queued so far are done.
    pub(crate) fn wait_for_actions(&self) {
        self.worker.wait_idle();
    }

    fn triggered(&self, time: i64, size: u64) -> bool {
        (size > self.max_size || time >= self.next_rollover.load(Ordering::Acquire))
            && !self.retry_pending()
    }

    fn retry_pending(&self) -> bool {
        let after = self.retry_after.load(Ordering::Relaxed);
        after != 0 && self.clock.now_millis() < after
    }

    /// When the job a rollover leaves for the worker may start: now, or after the random
    /// delay of the appender's `maxRandomDelay`.
    fn job_due(&self) -> i64 {
        if self.max_random_delay_ms == 0 {
            return i64::MIN;
        }
        self.clock
            .after_random_delay(self.clock.now_millis(), self.max_random_delay_ms)
    }

    /// Rolls over if `cause` still calls for it once the state is held exclusively.
    pub(super) fn roll(&self, cause: Cause) {
        let mut state = write(&self.state);
        let Some(backend) = state.backend.clone() else {
            return;
        };
        let archive_time = state.file_time;
        let footer = !matches!(cause, Cause::Startup { footer: false });
        let new_time = match cause {
            Cause::Event(time) => {
                let time_hit = time >= self.next_rollover.load(Ordering::Acquire);
                if !(time_hit || backend.size() > self.max_size) || self.retry_pending() {
                    return;
                }
                match (time_hit, self.time_policy) {
                    (true, Some(policy)) => {
                        if let Some((next, file_time)) = self.archiver.pattern.next_period(
                            time,
                            policy.interval,
                            policy.modulate,
                        ) {
                            let next = self
                                .clock
                                .after_random_delay(next, policy.max_random_delay_ms);
                            self.next_rollover.store(next, Ordering::Release);
                            state.file_time = file_time;
                        }
                    }
                    (false, Some(_)) => {}
                    (_, None) => state.file_time = period_start(&self.archiver.pattern, time),
                }
                time
            }
            Cause::Startup { .. } => self.clock.now_millis(),
            Cause::Cron(fire) => {
                // The archive is dated with the previous fire time: the period it covers.
                let archive = state.last_fire;
                state.last_fire = fire;
                state.file_time = period_start(&self.archiver.pattern, fire);
                return self.rollover(&mut state, &backend, archive, fire, true);
            }
        };
        self.rollover(&mut state, &backend, archive_time, new_time, footer);
    }

    /// Steps 1–4 of the module documentation, with the state held exclusively. The closed
    /// file gets the layout's footer only with `footer`.
    fn rollover(
        &self,
        state: &mut State<B>,
        backend: &Arc<B>,
        archive_time: i64,
        new_time: i64,
        footer: bool,
    ) {
        match &self.archiver.strategy {
            RolloverStrategySpec::Default { .. } => {
                let current = state.path.clone();
                // A target that cannot take the archive fails the rollover before the
                // current file is touched, so logging goes on in it. With `%i` the index is
                // chosen by the worker; its directory is what can be checked here.
                let target = self.archiver.pattern.format_uncompressed(archive_time, 1);
                let blocked =
                    recover::archive_blocked(Path::new(&target), self.archiver.pattern.has_index());
                if let Some(reason) = blocked {
                    self.failed(format_args!(
                        "Unable to roll {current} over to {target}: {reason}; writing on in {current}"
                    ));
                    return;
                }
                let staging = match self.stage(&current) {
                    Ok(staging) => staging,
                    Err(error) => {
                        self.failed(format_args!(
                            "Unable to rename {current} for the rollover: {error}"
                        ));
                        return;
                    }
                };
                backend.close_with(footer);
                match (self.factory)(&current, true) {
                    Ok(new_backend) => state.backend = Some(Arc::new(new_backend)),
                    Err(error) => {
                        // Put the file back and go on writing into it.
                        let back = std::fs::rename(&staging, &current);
                        self.failed(format_args!(
                            "Unable to open a new {current} after the rollover, writing on in the current file: {error}{}",
                            back.err().map(|e| format!(" (and it could not be moved back from {}: {e})", staging.display())).unwrap_or_default()
                        ));
                        self.reopen(state, &current);
                        return;
                    }
                }
                let archiver = Arc::clone(&self.archiver);
                self.worker.submit_at(
                    self.job_due(),
                    Box::new(move || {
                        archiver.place(&staging, archive_time);
                        archiver.run_actions();
                    }),
                );
            }
            RolloverStrategySpec::DirectWrite { max_files, .. } => {
                let old_path = state.path.clone();
                let pattern = &self.archiver.pattern;
                let same_period = pattern.format(archive_time, 0) == pattern.format(new_time, 0);
                let index = if same_period {
                    state.index + 1
                } else {
                    pattern
                        .existing(new_time)
                        .keys()
                        .next_back()
                        .map_or(1, |last| last + 1)
                };
                let new_path = pattern.format_uncompressed(new_time, index);
                if new_path == old_path {
                    self.failed(format_args!(
                        "Attempt to roll {old_path} over to itself is ignored: the file pattern {} has no %i and the period has not changed",
                        pattern.text()
                    ));
                    return;
                }
                backend.close_with(footer);
                match (self.factory)(&new_path, true) {
                    Ok(new_backend) => {
                        state.backend = Some(Arc::new(new_backend));
                        state.path = new_path;
                        state.index = index;
                    }
                    Err(error) => {
                        self.failed(format_args!(
                            "Unable to open {new_path} for the rollover, writing on in {old_path}: {error}"
                        ));
                        self.reopen(state, &old_path);
                        return;
                    }
                }
                let archiver = Arc::clone(&self.archiver);
                let max_files = *max_files;
                self.worker.submit_at(
                    self.job_due(),
                    Box::new(move || {
                        archiver.finish_direct(&old_path, archive_time, max_files);
                        archiver.run_actions();
                    }),
                );
            }
        }
        self.retry_after.store(0, Ordering::Relaxed);
    }

    /// Reopens `path` (appending) after a failed rollover closed it.
    fn reopen(&self, state: &mut State<B>, path: &str) {
        match (self.factory)(path, true) {
            Ok(backend) => state.backend = Some(Arc::new(backend)),
            Err(error) => {
                status::error(format_args!(
                    "Unable to reopen {path} after a failed rollover: {error}"
                ));
                state.backend = None;
            }
        }
    }

    fn failed(&self, message: std::fmt::Arguments<'_>) {
        status::error(format_args!("RollingFileManager ({}) {message}", self.key));
        self.retry_after
            .store(self.clock.now_millis() + RETRY_DELAY_MS, Ordering::Relaxed);
    }

    /// Renames `current` to a fresh staging name and returns it. A staging name can be in
    /// use: process ids are reused (a restarted container's process is often pid 1 again),
    /// and a killed process of the same id may have left staging files, whose events nothing
    /// else holds. Those are skipped, never replaced.
    fn stage(&self, current: &str) -> std::io::Result<PathBuf> {
        const ATTEMPTS: usize = 1 << 16;
        let mut taken = 0;
        loop {
            let staging = self.staging_path(current);
            match rename_no_replace(Path::new(current), &staging) {
                Ok(()) => return Ok(staging),
                Err(error)
                    if error.kind() == std::io::ErrorKind::AlreadyExists && taken < ATTEMPTS =>
                {
                    taken += 1
                }
                Err(error) => return Err(error),
            }
        }
    }

    /// A hidden name beside `current`, unique in this process.
    fn staging_path(&self, current: &str) -> PathBuf {
        let path = Path::new(current);
        let base = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let sequence = self.staging_sequence.fetch_add(1, Ordering::Relaxed);
        let name = format!(".{base}.{}-{sequence}{STAGING_SUFFIX}", std::process::id());
        path.with_file_name(name)
    }

    /// The file name the manager was created with (`None`: direct write).
    pub(crate) fn file_name(&self) -> Option<&str> {
        self.file_name.as_deref()
    }
}

#[cfg(test)]
impl<B: Backend + Send + Sync> RollingManager<B> {
    /// The backend written now (`None` once closed).
    pub(crate) fn current_backend(&self) -> Option<Arc<B>> {
        read(&self.state).backend.clone()
    }
}

/// Whether `spec` lists a `CronTriggeringPolicy` before its `OnStartupTriggeringPolicy`.
fn cron_precedes_on_startup(spec: &RollingSpec) -> bool {
    let position =
        |wanted: fn(&TriggeringPolicySpec) -> bool| spec.policies.iter().position(wanted);
    match (
        position(|p| matches!(p, TriggeringPolicySpec::Cron { .. })),
        position(|p| matches!(p, TriggeringPolicySpec::OnStartup { .. })),
    ) {
        (Some(cron), Some(on_startup)) => cron < on_startup,
        _ => false,
    }
}

/// The start of the period `time` falls in, for patterns with a date; `time` otherwise.
fn period_start(pattern: &RuntimePattern, time: i64) -> i64 {
    pattern
        .next_period(time, 1, false)
        .map_or(time, |(_, start)| start)
}

impl<B: Backend + Send + Sync> Managed for RollingManager<B> {
    fn flush(&self) {
        report_write_result(&self.key, RollingManager::flush(self));
    }

    /// Stops the cron timer, closes the current file (footer) and waits for the worker.
    fn close(&self) {
        if let Some(timer) = self.cron.lock().unwrap_or_else(|e| e.into_inner()).take() {
            timer.stop();
        }
        let backend = write(&self.state).backend.take();
        if let Some(backend) = backend {
            backend.close();
        }
        self.worker.stop();
    }
}
