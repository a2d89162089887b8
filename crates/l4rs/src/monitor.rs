//! `monitorInterval`: one background thread, shared by every configuration and started only
//! when one asks for it, that checks the configuration file and its `<MonitorResources>` for a
//! change every N seconds and then loads the file again (log4j2's `WatchManager` with a
//! `ConfigurationFileWatcher`).

use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use l4rs_config::Configuration;
use l4rs_core::status;

/// The name of the watcher thread.
const THREAD_NAME: &str = "l4rs-config-watcher";

/// What identifies one version of a watched file: a rewrite changes at least one of these
/// (the modification time alone can repeat within the file system's granularity).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stamp {
    modified: Option<SystemTime>,
    length: u64,
    inode: u64,
}

/// The version of `path` now; `None` when it cannot be read (missing).
pub(crate) fn stamp(path: &Path) -> Option<Stamp> {
    let metadata = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&metadata);
    #[cfg(not(unix))]
    let inode = 0;
    Some(Stamp {
        modified: metadata.modified().ok(),
        length: metadata.len(),
        inode,
    })
}

/// One watched file and the version last seen.
struct Watched {
    path: PathBuf,
    seen: Option<Stamp>,
}

/// What the configuration in force asks to watch.
struct Watch {
    /// The configuration file, loaded again on a change of any watched file.
    configuration: PathBuf,
    files: Vec<Watched>,
    interval: Duration,
    next_check: Instant,
}

#[derive(Default)]
struct State {
    watch: Option<Watch>,
    /// True while the thread runs (it may be on its way out after `stop`).
    running: bool,
    /// Set by `stop`: the thread leaves at its next wake-up.
    stopped: bool,
}

struct Monitor {
    state: Mutex<State>,
    wake: Condvar,
}

fn monitor() -> &'static Monitor {
    static MONITOR: OnceLock<Monitor> = OnceLock::new();
    MONITOR.get_or_init(|| Monitor {
        state: Mutex::new(State::default()),
        wake: Condvar::new(),
    })
}

fn lock() -> MutexGuard<'static, State> {
    monitor().state.lock().unwrap_or_else(|e| e.into_inner())
}

/// The files a configuration asks to watch, with its interval; `None` when it watches
/// nothing (`monitorInterval` 0, or a configuration that was not loaded from a file).
pub(crate) fn watched_files(configuration: &Configuration) -> Option<(Duration, Vec<PathBuf>)> {
    let source = configuration.source.as_ref()?;
    if configuration.monitor_interval_seconds == 0 {
        return None;
    }
    let files = std::iter::once(source.clone())
        .chain(configuration.monitor_resources.iter().cloned())
        .collect();
    Some((
        Duration::from_secs(u64::from(configuration.monitor_interval_seconds)),
        files,
    ))
}

/// What a configuration put in force tells of the version of its file.
pub(crate) enum SourceVersion {
    /// The file was read just now: its version taken before reading, so a rewrite landing
    /// while it loaded is seen at the next check.
    ReadAt(Option<Stamp>),
    /// The file was not read again (a change made from code), or the watcher took its version
    /// when it saw the change: the versions already seen stand.
    AsSeen,
}

/// Watches what `configuration` (just put in force) asks for, replacing what the previous one
/// asked; starts the thread the first time something is to be watched.
///
/// A file watched before keeps the version seen then, and an unchanged interval its next
/// check: re-stamping here would count as seen an edit made since the last check (a
/// `set_level` between an edit and the check, or a rewrite landing while the watcher loads),
/// and that edit would never be loaded. At worst a file loaded explicitly is loaded once more.
pub(crate) fn follow(configuration: &Configuration, source: SourceVersion) {
    let wanted = watched_files(configuration);
    let mut state = lock();
    let previous = state.watch.take();
    let seen_before = |path: &Path| {
        previous
            .as_ref()?
            .files
            .iter()
            .find(|file| file.path == path)
            .map(|file| file.seen)
    };
    let watch = wanted.map(|(interval, files)| {
        let configuration_file = configuration.source.clone().unwrap_or_default();
        let files = files
            .into_iter()
            .map(|path| {
                let seen = match &source {
                    SourceVersion::ReadAt(stamp) if path == configuration_file => *stamp,
                    _ => seen_before(&path).unwrap_or_else(|| stamp(&path)),
                };
                Watched { path, seen }
            })
            .collect();
        let next_check = match &previous {
            Some(previous) if previous.interval == interval => previous.next_check,
            _ => Instant::now() + interval,
        };
        Watch {
            configuration: configuration_file,
            files,
            interval,
            next_check,
        }
    });
    let wanted = watch.is_some();
    state.watch = watch;
    if wanted {
        state.stopped = false;
        if !state.running {
            match std::thread::Builder::new()
                .name(THREAD_NAME.to_string())
                .spawn(run)
            {
                Ok(_) => state.running = true,
                Err(error) => {
                    status::error(format_args!(
                        "Unable to start the configuration watcher thread: {error}; monitorInterval is ignored"
                    ));
                    state.watch = None;
                }
            }
        }
    }
    drop(state);
    monitor().wake.notify_all();
}

/// Whether the watcher is still to load `path` on a change: false once [`stop`] ran or another
/// configuration replaced the one loaded from it, for a change seen before that.
pub(crate) fn still_watching(path: &Path) -> bool {
    let state = lock();
    !state.stopped
        && state
            .watch
            .as_ref()
            .is_some_and(|watch| watch.configuration == path)
}

/// Stops watching (at shutdown): the thread leaves at once, without waiting for its interval.
pub(crate) fn stop() {
    let mut state = lock();
    state.stopped = true;
    state.watch = None;
    drop(state);
    monitor().wake.notify_all();
}

/// The watcher thread: sleeps until the next check (or indefinitely while nothing is watched),
/// and loads the configuration again when a watched file changed.
fn run() {
    let mut state = lock();
    loop {
        if state.stopped {
            state.running = false;
            return;
        }
        let now = Instant::now();
        let due = match &state.watch {
            None => None,
            Some(watch) if now < watch.next_check => Some(watch.next_check - now),
            Some(_) => Some(Duration::ZERO),
        };
        match due {
            None => {
                state = monitor()
                    .wake
                    .wait(state)
                    .unwrap_or_else(|e| e.into_inner());
            }
            Some(wait) if !wait.is_zero() => {
                state = monitor()
                    .wake
                    .wait_timeout(state, wait)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
            Some(_) => {
                let Some(changed) = check(&mut state) else {
                    continue;
                };
                // Not under the lock: putting the configuration in force calls `follow`.
                drop(state);
                crate::lifecycle::reload_on_change(&changed);
                state = lock();
            }
        }
    }
}

/// Compares each watched file with the version last seen and schedules the next check; returns
/// the configuration file to load again when one changed. The new versions count as seen
/// whether or not they load, so a broken file is reported once and the next write is picked up.
fn check(state: &mut State) -> Option<PathBuf> {
    let watch = state.watch.as_mut()?;
    watch.next_check = Instant::now() + watch.interval;
    let mut changed = false;
    for file in &mut watch.files {
        let now = stamp(&file.path);
        // A file that disappeared is no change to load (log4j2's watcher waits for it to
        // come back); one that appears or is rewritten is.
        if now.is_some() && now != file.seen {
            changed = true;
        }
        file.seen = now;
    }
    changed.then(|| watch.configuration.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_file_configuration_with_an_interval_is_watched() {
        let mut configuration =
            l4rs_config::load_str("<Configuration monitorInterval=\"7\"/>", None).expect("parses");
        assert!(watched_files(&configuration).is_none(), "no file");
        configuration.source = Some(PathBuf::from("/etc/log4j2.xml"));
        configuration.monitor_resources = vec![PathBuf::from("/etc/extra.xml")];
        assert_eq!(
            watched_files(&configuration),
            Some((
                Duration::from_secs(7),
                vec![
                    PathBuf::from("/etc/log4j2.xml"),
                    PathBuf::from("/etc/extra.xml")
                ]
            ))
        );
        configuration.monitor_interval_seconds = 0;
        assert!(watched_files(&configuration).is_none(), "interval 0");
    }

    #[test]
    fn a_rewrite_of_the_same_length_within_the_same_second_is_a_change() {
        let dir = std::env::temp_dir().join(format!("l4rs-monitor-stamp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join("a.xml");
        std::fs::write(&file, "one").expect("write");
        let first = stamp(&file);
        // Replaced by rename, as editors and deployment tools do: a new inode.
        let next = dir.join("a.xml.new");
        std::fs::write(&next, "two").expect("write");
        std::fs::rename(&next, &file).expect("rename");
        assert_ne!(stamp(&file), first);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
