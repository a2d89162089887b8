//! The status logger: l4rs's own diagnostics, printed as log4j2's `StatusLogger` prints them.
//!
//! Configuration problems (malformed XML, unknown plugins, bad attribute values) and runtime
//! failures (a write that failed) are reported here, never as panics. A record is printed to
//! the destination (stderr by default) when its level passes the status level, in log4j2
//! 2.24's format: `2026-11-30 00:24:33,181 main WARN message`.
//!
//! The status level starts at ERROR, or at `LOG4J_STATUS_LOGGER_LEVEL` from the environment;
//! `LOG4J_DEBUG` (any value but `false`) forces TRACE, as `log4j2.debug` does. A configuration's
//! `status` attribute changes it with [`set_level`].
//!
//! Reports that can repeat for every event (an appender whose destination keeps failing) go
//! through a [`ReportLimit`].

use std::cell::RefCell;
use std::fmt;
use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::LocalKey;

use crate::{Level, Timestamp};

mod limit;
pub use limit::ReportLimit;

/// One status message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusRecord {
    /// Its severity.
    pub level: Level,
    /// The message text.
    pub message: String,
}

impl fmt::Display for StatusRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.level, self.message)
    }
}

/// Where printed status messages go (the configuration's `dest` attribute).
#[derive(Debug)]
pub enum Destination {
    /// Standard error (the default).
    Stderr,
    /// Standard output.
    Stdout,
    /// A file, appended to.
    File(File),
}

const UNSET: i32 = -1;
static LEVEL: AtomicI32 = AtomicI32::new(UNSET);

fn destination() -> &'static Mutex<Destination> {
    static DESTINATION: OnceLock<Mutex<Destination>> = OnceLock::new();
    DESTINATION.get_or_init(|| Mutex::new(Destination::Stderr))
}

/// A process-wide observer of status records (see [`add_listener`]).
type Listener = Arc<dyn Fn(&StatusRecord) + Send + Sync>;

/// The listeners, by the id their guard removes them with. [`LISTENER_COUNT`] mirrors the
/// length so that [`log`] checks for listeners with one atomic load, not a lock.
fn listeners() -> &'static Mutex<Vec<(u64, Listener)>> {
    static LISTENERS: OnceLock<Mutex<Vec<(u64, Listener)>>> = OnceLock::new();
    LISTENERS.get_or_init(|| Mutex::new(Vec::new()))
}

static LISTENER_COUNT: AtomicUsize = AtomicUsize::new(0);
static NEXT_LISTENER_ID: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static CAPTURES: RefCell<Vec<Vec<StatusRecord>>> = const { RefCell::new(Vec::new()) };
    /// The [`observe`] calls running on this thread: each one's minimum level and what it saw.
    static OBSERVERS: RefCell<Vec<(Level, Vec<StatusRecord>)>> = const { RefCell::new(Vec::new()) };
    /// How many [`muted`] calls are running on this thread.
    static MUTED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The level from the environment: `LOG4J_DEBUG` forces TRACE, else
/// `LOG4J_STATUS_LOGGER_LEVEL`, else ERROR.
pub fn default_level() -> Level {
    if let Ok(debug) = std::env::var("LOG4J_DEBUG") {
        if !debug.eq_ignore_ascii_case("false") {
            return Level::TRACE;
        }
    }
    std::env::var("LOG4J_STATUS_LOGGER_LEVEL")
        .ok()
        .and_then(|name| Level::from_name(&name).ok())
        .unwrap_or(Level::ERROR)
}

/// The current status level: records at least this severe are printed.
pub fn level() -> Level {
    let current = LEVEL.load(Ordering::Relaxed);
    if current == UNSET {
        let initial = default_level();
        LEVEL.store(initial.int_level(), Ordering::Relaxed);
        return initial;
    }
    Level::standard_from_int(current).unwrap_or(Level::ERROR)
}

/// Sets the status level (the configuration's `status` attribute). A `LOG4J_DEBUG` environment
/// forces TRACE regardless.
pub fn set_level(level: Level) {
    let effective = if default_level() == Level::TRACE {
        Level::TRACE
    } else {
        level
    };
    LEVEL.store(effective.int_level(), Ordering::Relaxed);
}

/// Sets where printed records go.
pub fn set_destination(new_destination: Destination) {
    *destination().lock().unwrap_or_else(|e| e.into_inner()) = new_destination;
}

/// Reports a record: prints it when its level passes the status level, and hands it to the
/// innermost [`capture`] running on this thread and to every [`add_listener`] listener,
/// regardless of level, and to every [`observe`] running on this thread whose level it passes.
pub fn log(level: Level, message: impl fmt::Display) {
    if MUTED.try_with(|muted| muted.get() > 0).unwrap_or(false) {
        return;
    }
    let capturing = CAPTURES
        .try_with(|captures| !captures.borrow().is_empty())
        .unwrap_or(false);
    let observing = OBSERVERS
        .try_with(|observers| {
            observers
                .borrow()
                .iter()
                .any(|(minimum, _)| level.is_at_least_as_severe_as(*minimum))
        })
        .unwrap_or(false);
    let listening = LISTENER_COUNT.load(Ordering::Acquire) > 0;
    let printing = level.is_at_least_as_severe_as(self::level());
    if !capturing && !observing && !listening && !printing {
        return;
    }
    let record = StatusRecord {
        level,
        message: message.to_string(),
    };
    if printing {
        print(&record);
    }
    if listening {
        notify_listeners(&record);
    }
    if observing {
        let _ = OBSERVERS.try_with(|observers| {
            for (minimum, seen) in observers.borrow_mut().iter_mut() {
                if level.is_at_least_as_severe_as(*minimum) {
                    seen.push(record.clone());
                }
            }
        });
    }
    if capturing {
        let _ = CAPTURES.try_with(|captures| {
            if let Some(innermost) = captures.borrow_mut().last_mut() {
                innermost.push(record);
            }
        });
    }
}

/// Reports an ERROR.
pub fn error(message: impl fmt::Display) {
    log(Level::ERROR, message);
}

/// Reports a WARN.
pub fn warn(message: impl fmt::Display) {
    log(Level::WARN, message);
}

/// Reports an INFO.
pub fn info(message: impl fmt::Display) {
    log(Level::INFO, message);
}

/// Reports a DEBUG.
pub fn debug(message: impl fmt::Display) {
    log(Level::DEBUG, message);
}

/// Runs `f` and returns, beside its result, every record reported on this thread meanwhile,
/// whatever its level (used by `l4rs check` and by tests). Printing is unchanged.
pub fn capture<R>(f: impl FnOnce() -> R) -> (R, Vec<StatusRecord>) {
    collect_during(&CAPTURES, Vec::new(), |records| records, f)
}

/// Runs `f` with every record reported on this thread dropped: not printed, captured, observed
/// or given to listeners. For work log4j2 does silently that l4rs does ahead of time (a
/// Routing appender looks at its routes' appenders before any event creates them, and
/// reports their problems when an event does).
pub fn muted<R>(f: impl FnOnce() -> R) -> R {
    struct Unmute;
    impl Drop for Unmute {
        fn drop(&mut self) {
            let _ = MUTED.try_with(|muted| muted.set(muted.get() - 1));
        }
    }
    let _ = MUTED.try_with(|muted| muted.set(muted.get() + 1));
    let _unmute = Unmute;
    f()
}

/// Runs `f` and returns, beside its result, the records at least as severe as `minimum` that
/// were reported on this thread meanwhile.
///
/// Unlike [`capture`], which hands each record to the innermost capture only, an observer takes
/// nothing away: the record is still printed and still reaches the captures, the listeners and
/// every enclosing observer. An explicit `init` uses it to return, as errors, what building a
/// configuration reported: a capture there would take those records from a capture the caller
/// runs around `init`.
pub fn observe<R>(minimum: Level, f: impl FnOnce() -> R) -> (R, Vec<StatusRecord>) {
    collect_during(&OBSERVERS, (minimum, Vec::new()), |(_, seen)| seen, f)
}

/// Pushes `entry` on this thread's `stack` while `f` runs (popped even if `f` panics), and
/// returns the records `log` gathered into it, which `records` finds in the entry.
fn collect_during<T: 'static, R>(
    stack: &'static LocalKey<RefCell<Vec<T>>>,
    entry: T,
    records: fn(&mut T) -> &mut Vec<StatusRecord>,
    f: impl FnOnce() -> R,
) -> (R, Vec<StatusRecord>) {
    struct PopOnDrop<T: 'static>(&'static LocalKey<RefCell<Vec<T>>>);
    impl<T> Drop for PopOnDrop<T> {
        fn drop(&mut self) {
            let _ = self.0.try_with(|stack| stack.borrow_mut().pop());
        }
    }
    stack.with(|entries| entries.borrow_mut().push(entry));
    let guard = PopOnDrop(stack);
    let result = f();
    let gathered = stack
        .with(|entries| {
            entries
                .borrow_mut()
                .last_mut()
                .map(|entry| std::mem::take(records(entry)))
        })
        .unwrap_or_default();
    drop(guard);
    (result, gathered)
}

/// Registers `listener` to receive every status record reported from now on, on **any**
/// thread and whatever its level, until the returned guard is dropped. Printing and
/// [`capture`] are unchanged.
///
/// [`capture`] sees only the calling thread; a listener also sees what background threads
/// report (a rolling appender's worker, a cron timer, an async appender's thread), which is
/// what tests of those threads need. The listener runs on the reporting thread, outside any
/// status lock, so it may itself report; it should be quick and must not block on the thread
/// that reports.
pub fn add_listener(listener: impl Fn(&StatusRecord) + Send + Sync + 'static) -> ListenerGuard {
    let id = NEXT_LISTENER_ID.fetch_add(1, Ordering::Relaxed);
    let mut list = listeners().lock().unwrap_or_else(|e| e.into_inner());
    list.push((id, Arc::new(listener)));
    LISTENER_COUNT.store(list.len(), Ordering::Release);
    ListenerGuard { id }
}

/// Keeps a listener of [`add_listener`] registered; dropping it removes the listener.
#[derive(Debug)]
#[must_use = "the listener is removed when the guard is dropped"]
pub struct ListenerGuard {
    id: u64,
}

impl Drop for ListenerGuard {
    fn drop(&mut self) {
        let mut list = listeners().lock().unwrap_or_else(|e| e.into_inner());
        list.retain(|(id, _)| *id != self.id);
        LISTENER_COUNT.store(list.len(), Ordering::Release);
    }
}

/// Collects every status record reported on any thread while it lives: [`add_listener`] with
/// a list behind it, for tests that wait for a background thread's report.
#[derive(Debug)]
pub struct GlobalCapture {
    records: Arc<Mutex<Vec<StatusRecord>>>,
    _guard: ListenerGuard,
}

impl GlobalCapture {
    /// Starts collecting.
    pub fn start() -> GlobalCapture {
        let records = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&records);
        let guard = add_listener(move |record| {
            sink.lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(record.clone())
        });
        GlobalCapture {
            records,
            _guard: guard,
        }
    }

    /// The records collected so far, oldest first.
    pub fn records(&self) -> Vec<StatusRecord> {
        self.records
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

fn notify_listeners(record: &StatusRecord) {
    // Called outside the lock, so a listener that reports (or adds a listener) cannot deadlock.
    let snapshot: Vec<Listener> = listeners()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .map(|(_, listener)| Arc::clone(listener))
        .collect();
    for listener in snapshot {
        listener(record);
    }
}

fn print(record: &StatusRecord) {
    let mut line = String::with_capacity(64 + record.message.len());
    write_local_timestamp(Timestamp::now(), &mut line);
    line.push(' ');
    line.push_str(std::thread::current().name().unwrap_or("Thread"));
    line.push(' ');
    line.push_str(record.level.name());
    line.push(' ');
    line.push_str(&record.message);
    line.push('\n');
    let mut target = destination().lock().unwrap_or_else(|e| e.into_inner());
    let _ = match &mut *target {
        Destination::Stderr => std::io::stderr().write_all(line.as_bytes()),
        Destination::Stdout => std::io::stdout().write_all(line.as_bytes()),
        Destination::File(file) => file.write_all(line.as_bytes()),
    };
}

/// `yyyy-MM-dd HH:mm:ss,SSS` in the local time zone, as log4j2 2.24's status logger prints.
fn write_local_timestamp(now: Timestamp, out: &mut String) {
    let seconds = now.epoch_seconds() as libc::time_t;
    // SAFETY: `localtime_r` only writes into the zeroed `tm` we own.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    unsafe {
        libc::localtime_r(&seconds, &mut tm);
    }
    let _ = fmt::Write::write_fmt(
        out,
        format_args!(
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02},{:03}",
            tm.tm_year + 1900,
            tm.tm_mon + 1,
            tm.tm_mday,
            tm.tm_hour,
            tm.tm_min,
            tm.tm_sec,
            now.nano_of_second() / 1_000_000
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_sees_every_level_and_nests() {
        let ((), outer) = capture(|| {
            debug("quiet detail");
            let ((), inner) = capture(|| error("inner problem"));
            assert_eq!(inner.len(), 1);
            assert_eq!(inner[0].level, Level::ERROR);
        });
        assert_eq!(outer.len(), 1);
        assert_eq!(outer[0].message, "quiet detail");
    }

    #[test]
    fn observers_keep_records_for_enclosing_captures_and_observers() {
        let ((), captured) = capture(|| {
            let ((), outer) = observe(Level::WARN, || {
                let ((), inner) = observe(Level::ERROR, || {
                    debug("too quiet for either observer");
                    warn("seen by the outer observer only");
                    error("seen by both");
                });
                assert_eq!(
                    inner,
                    vec![StatusRecord {
                        level: Level::ERROR,
                        message: "seen by both".to_string()
                    }]
                );
            });
            let messages: Vec<&str> = outer.iter().map(|r| r.message.as_str()).collect();
            assert_eq!(
                messages,
                ["seen by the outer observer only", "seen by both"]
            );
        });
        // The capture still received everything, the observers took nothing away.
        assert_eq!(captured.len(), 3);
        let ((), after) = observe(Level::ERROR, || {});
        assert!(after.is_empty(), "an observer ends with its closure");
    }

    #[test]
    fn listeners_see_records_from_other_threads_until_dropped() {
        let capture = GlobalCapture::start();
        std::thread::spawn(|| debug("from a background thread"))
            .join()
            .unwrap();
        assert!(capture
            .records()
            .iter()
            .any(|r| r.message == "from a background thread" && r.level == Level::DEBUG));
        drop(capture);
        let seen = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&seen);
        let guard = add_listener(move |record| {
            if record.message == "counted" {
                counter.fetch_add(1, Ordering::Relaxed);
            }
        });
        debug("counted");
        drop(guard);
        debug("counted");
        assert_eq!(seen.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn timestamps_use_log4j2_status_format() {
        let mut out = String::new();
        write_local_timestamp(Timestamp::from_millis(1_351_866_842_781), &mut out);
        assert_eq!(out.len(), "2012-11-02 14:34:02,781".len());
        assert!(out.ends_with(",781"));
    }
}
