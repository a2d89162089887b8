//! `MutableThreadContextMapFilter` (alias `MutableContextMapFilter`): a ThreadContextMapFilter
//! whose pairs come from a JSON file and change while the program runs.

use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::time::{Duration, SystemTime};

use l4rs_config::context_map_file::FileStamp;

use arc_swap::ArcSwapOption;
use l4rs_config::context_map_file::{self, ContextMapFile};
use l4rs_config::model::FilterVerdicts;
use l4rs_core::{status, Filter, FilterResult, LogEvent};

use crate::ThreadContextMapFilter;

/// log4j2's `MutableThreadContextMapFilter`: the pairs of its file (`{"configs": {"key":
/// ["value", …]}}`) judged with `operator="or"` (one key with a listed value matches), and
/// NEUTRAL while the file holds none. With a poll interval, a thread of its own reads the file
/// again whenever its modification time moves forward, and the filter judges by the new pairs
/// from the next event on; a removed file leaves it NEUTRAL. Judging an event is one atomic
/// load and the plain filter's work.
pub struct MutableThreadContextMapFilter {
    current: Arc<Current>,
    /// Ends the polling thread when the filter goes (a reconfiguration or shutdown).
    stop: Arc<StopSignal>,
}

/// A polling thread's stop signal: set, and the thread's wait woken.
type StopSignal = (Mutex<bool>, Condvar);

/// The stop signals of the polling threads running, so that `l4rs::shutdown` can end them
/// while the stopped configuration still holds its filters.
static POLLERS: Mutex<Vec<Weak<StopSignal>>> = Mutex::new(Vec::new());

/// Ends every MutableThreadContextMapFilter's polling thread: the filters keep the pairs they
/// have, and read their files no more (`l4rs::shutdown`).
pub fn stop_polling() {
    let pollers = std::mem::take(&mut *POLLERS.lock().unwrap_or_else(|e| e.into_inner()));
    for stop in pollers.iter().filter_map(Weak::upgrade) {
        signal(&stop);
    }
}

/// Tells a polling thread to end.
fn signal(stop: &StopSignal) {
    let (stopped, wake) = stop;
    *stopped.lock().unwrap_or_else(|e| e.into_inner()) = true;
    wake.notify_all();
}

/// What the polling thread shares with the filter.
struct Current {
    filter: ArcSwapOption<ThreadContextMapFilter>,
    verdicts: FilterVerdicts,
}

impl MutableThreadContextMapFilter {
    /// The filter with the pairs read when the configuration was loaded (`initial`, from the
    /// file of stamp `read_at`); with `poll_seconds` above 0, a thread reads `location` again at
    /// that interval. A file that changed since it was read (a filter built later, for a
    /// route) is read again now.
    pub fn new(
        location: PathBuf,
        poll_seconds: u64,
        initial: Option<Vec<(String, Vec<String>)>>,
        read_at: Option<FileStamp>,
        verdicts: FilterVerdicts,
    ) -> MutableThreadContextMapFilter {
        let current = Arc::new(Current {
            filter: ArcSwapOption::from(
                initial.map(|pairs| Arc::new(ThreadContextMapFilter::new(pairs, true, verdicts))),
            ),
            verdicts,
        });
        let read = Read {
            stamp: read_at,
            when: SystemTime::now(),
        };
        let read = if context_map_file::stamp(&location) != read.stamp {
            current.refresh(&location, read)
        } else {
            read
        };
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        if poll_seconds > 0 {
            let weak = Arc::downgrade(&current);
            let stopping = Arc::clone(&stop);
            let interval = Duration::from_secs(poll_seconds);
            let spawned = std::thread::Builder::new()
                .name("l4rs-context-map-filter".to_string())
                .spawn(move || poll(weak, &stopping, location, interval, read));
            match spawned {
                Ok(_) => {
                    let mut pollers = POLLERS.lock().unwrap_or_else(|e| e.into_inner());
                    pollers.retain(|poller| poller.strong_count() > 0);
                    pollers.push(Arc::downgrade(&stop));
                }
                Err(error) => status::error(format_args!(
                    "MutableThreadContextMapFilter cannot watch its file: no thread: {error}"
                )),
            }
        }
        MutableThreadContextMapFilter { current, stop }
    }
}

/// What was read last: the file's stamp (`None` when nothing was) and when.
#[derive(Clone, Copy, Debug)]
struct Read {
    stamp: Option<FileStamp>,
    when: SystemTime,
}

/// File systems that keep modification times to the second (or two): a write within that
/// long of a read may leave the stamp as it was, so such a file is read again.
const STAMP_GRANULARITY: Duration = Duration::from_secs(2);

impl Read {
    /// True when the file as it is now may differ from what was read.
    fn is_stale(&self, now: Option<FileStamp>) -> bool {
        match (self.stamp, now) {
            (Some(read), Some(now)) => {
                read != now
                    || self
                        .when
                        .duration_since(read.modified)
                        .map_or(true, |age| age < STAMP_GRANULARITY)
            }
            (None, Some(_)) => true,
            (_, None) => false,
        }
    }
}

/// Reads the file every `interval` until the filter is gone.
fn poll(
    current: Weak<Current>,
    stop: &StopSignal,
    location: PathBuf,
    interval: Duration,
    mut read: Read,
) {
    let (stopped, wake) = stop;
    loop {
        let guard = stopped.lock().unwrap_or_else(|e| e.into_inner());
        let (guard, _) = wake
            .wait_timeout_while(guard, interval, |stopped| !*stopped)
            .unwrap_or_else(|e| e.into_inner());
        if *guard {
            return;
        }
        drop(guard);
        let Some(current) = current.upgrade() else {
            return;
        };
        read = current.refresh(&location, read);
    }
}

impl Current {
    /// Reads the file when it may have changed since `read` (or is gone), as log4j2's monitor
    /// does when its modification time moves forward; returns what was read last.
    fn refresh(&self, location: &std::path::Path, read: Read) -> Read {
        let now = context_map_file::stamp(location);
        if now.is_none() {
            if self.filter.load().is_some() {
                status::info(format_args!("Filter configuration was removed"));
                self.filter.store(None);
            }
            return Read {
                stamp: None,
                when: SystemTime::now(),
            };
        }
        if !read.is_stale(now) {
            return read;
        }
        let when = SystemTime::now();
        let (file, stamp) = context_map_file::read(location, &mut |warning| {
            status::warn(warning);
        });
        match file {
            ContextMapFile::Pairs(pairs) => {
                let changed = self
                    .filter
                    .load()
                    .as_ref()
                    .is_none_or(|filter| filter.pairs() != pairs.as_slice());
                if changed {
                    status::info(format_args!(
                        "Filter configuration was updated: {} keys from {}",
                        pairs.len(),
                        location.display()
                    ));
                    self.filter.store(Some(Arc::new(ThreadContextMapFilter::new(
                        pairs,
                        true,
                        self.verdicts,
                    ))));
                }
            }
            ContextMapFile::Empty => self.filter.store(None),
            // Gone between the two looks: the next poll sees it so.
            ContextMapFile::NotFound => {}
            // log4j2 keeps its pairs when the file cannot be read; a half-written file is
            // read again at the next poll (its stamp is not kept).
            ContextMapFile::Invalid(reason) => status::warn(reason),
        }
        Read { stamp, when }
    }
}

impl std::fmt::Debug for MutableThreadContextMapFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MutableThreadContextMapFilter")
            .field("filter", &self.current.filter.load())
            .field("verdicts", &self.current.verdicts)
            .finish()
    }
}

impl Filter for MutableThreadContextMapFilter {
    fn filter(&self, event: &LogEvent<'_>) -> FilterResult {
        match &*self.current.filter.load() {
            Some(filter) => filter.filter(event),
            None => FilterResult::Neutral,
        }
    }
}

impl Drop for MutableThreadContextMapFilter {
    fn drop(&mut self) {
        signal(&self.stop);
    }
}

#[cfg(test)]
mod tests {
    use l4rs_core::{ContextMap, Level};

    use super::*;
    use crate::test_support::*;

    fn judge(filter: &MutableThreadContextMapFilter, user: &str) -> FilterResult {
        let mut map = ContextMap::default();
        map.insert("user", user);
        let mut event = event(Level::INFO, "m");
        event.context_map = &map;
        filter.filter(&event)
    }

    fn verdicts() -> FilterVerdicts {
        FilterVerdicts {
            on_match: FilterResult::Accept,
            on_mismatch: FilterResult::Deny,
        }
    }

    #[test]
    fn follows_the_file_as_it_changes_and_is_neutral_without_pairs() {
        let dir = l4rs_test_support::TempDir::new("mutable-context-map");
        let file = dir.path().join("pairs.json");
        let filter = MutableThreadContextMapFilter::new(file.clone(), 1, None, None, verdicts());
        assert_eq!(judge(&filter, "alice"), FilterResult::Neutral);
        let wait_for = |expected: FilterResult, user: &str| {
            let deadline = std::time::Instant::now() + Duration::from_secs(10);
            while judge(&filter, user) != expected && std::time::Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
            assert_eq!(judge(&filter, user), expected, "{user}");
        };
        std::fs::write(&file, r#"{"configs": {"user": ["alice"]}}"#).unwrap();
        wait_for(FilterResult::Accept, "alice");
        assert_eq!(judge(&filter, "bob"), FilterResult::Deny);
        // A later write (a newer modification time) replaces the pairs.
        std::thread::sleep(Duration::from_millis(1100));
        std::fs::write(&file, r#"{"configs": {"user": ["bob"]}}"#).unwrap();
        wait_for(FilterResult::Accept, "bob");
        assert_eq!(judge(&filter, "alice"), FilterResult::Deny);
        std::fs::remove_file(&file).unwrap();
        wait_for(FilterResult::Neutral, "bob");
    }

    #[test]
    fn the_polling_thread_ends_with_the_filter() {
        let dir = l4rs_test_support::TempDir::new("mutable-context-map-drop");
        // The longest interval a configuration can give (`pollInterval` is a Java long).
        let filter = Arc::new(MutableThreadContextMapFilter::new(
            dir.path().join("none.json"),
            i64::MAX as u64,
            None,
            None,
            verdicts(),
        ));
        let weak = Arc::downgrade(&filter.current);
        drop(filter);
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while weak.upgrade().is_some() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(
            weak.upgrade().is_none(),
            "the thread still holds the filter's state"
        );
    }

    /// Files log4j2 and l4rs read alike, each asked about the same context maps
    /// (`Log4j2Answers.java contextmap`); a missing file is the one kept difference.
    #[test]
    fn mutable_context_map_against_log4j2() {
        if !l4rs_test_support::log4j2::require("MutableThreadContextMapFilter against log4j2") {
            return;
        }
        let dir = l4rs_test_support::TempDir::new("mutable-context-map-log4j2");
        let files = [
            (
                "users",
                r#"{"configs": {"user": ["alice", "bob"], "tenant": ["t9"]}, "other": 1}"#,
            ),
            ("numbers", r#"{"configs": {"id": [7, 8.5, true, "x"]}}"#),
            (
                "nulls",
                r#"{"configs": {"user": ["carol", null], "gone": [null]}}"#,
            ),
            ("empty", r#"{"configs": {}}"#),
            ("noconfigs", r#"{"nothing": {"user": ["alice"]}}"#),
            ("nullconfigs", r#"{"configs": null}"#),
            ("null", "null"),
            ("blank", ""),
            ("broken", r#"{"configs": {"user": ["alice"]"#),
            ("scalar", r#"{"configs": {"user": "alice"}}"#),
            ("array", "[1, 2]"),
            (
                "duplicate",
                r#"{"configs": {"user": ["alice"], "user": ["bob"]}}"#,
            ),
            (
                "unicode",
                r#"{"configs": {"usér": ["zoë", "\u00e9t\u00e9"]}}"#,
            ),
            ("decimals", r#"{"configs": {"amount": [7.50, 1E2, -0.0]}}"#),
            ("bom", "\u{feff}{\"configs\": {\"user\": [\"alice\"]}}"),
        ];
        let maps: [&[(&str, &str)]; 14] = [
            &[("amount", "7.50")],
            &[("amount", "7.5")],
            &[("amount", "1E2")],
            &[("amount", "-0.0")],
            &[],
            &[("user", "alice")],
            &[("user", "bob"), ("tenant", "t1")],
            &[("tenant", "t9")],
            &[("user", "Alice")],
            &[("user", "carol")],
            &[("id", "7"), ("other", "1")],
            &[("id", "8.5")],
            &[("id", "true")],
            &[("usér", "zoë"), ("user", "été")],
        ];
        let mut questions = Vec::new();
        let mut ours = Vec::new();
        for (name, text) in files {
            let path = dir.path().join(format!("{name}.json"));
            std::fs::write(&path, text).expect("write");
            let (read, read_at) = context_map_file::read(&path, &mut |_| {});
            let initial = match read {
                ContextMapFile::Pairs(pairs) => Some(pairs),
                _ => None,
            };
            let filter =
                MutableThreadContextMapFilter::new(path.clone(), 0, initial, read_at, verdicts());
            for map in maps {
                let mut question = path.display().to_string();
                let mut context = ContextMap::default();
                for (key, value) in map {
                    question.push_str(&format!("\t{key}={value}"));
                    context.insert(*key, *value);
                }
                questions.push(question);
                let mut event = event(Level::INFO, "m");
                event.context_map = &context;
                ours.push(format!("{:?}", filter.filter(&event)).to_ascii_uppercase());
            }
        }
        let theirs = l4rs_test_support::log4j2::answers("contextmap", &questions);
        let differing: Vec<String> = questions
            .iter()
            .zip(theirs.iter().zip(&ours))
            .filter(|(_, (theirs, ours))| theirs != ours)
            .map(|(question, (theirs, ours))| format!("{question}: log4j2 {theirs}, l4rs {ours}"))
            .collect();
        assert!(differing.is_empty(), "{differing:#?}");

        // The kept difference: log4j2 2.19 reads a missing file as a URL, fails to build the
        // filter (ClassCastException) and so filters nothing; l4rs's filter is NEUTRAL.
        let missing = dir.path().join("missing.json").display().to_string();
        let answer =
            l4rs_test_support::log4j2::answers("contextmap", &[format!("{missing}\tuser=alice")]);
        assert!(
            answer[0].starts_with("refused: java.lang.ClassCastException"),
            "{answer:?}"
        );
    }
}
