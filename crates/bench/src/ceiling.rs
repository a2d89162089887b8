//! The kernel's ceiling for one row (`--ceiling`): the row's bytes handed to the OS event by
//! event, the way its appender hands them, with nothing else on the path.
//!
//! The raw probe ([`crate::disk`]) writes 1 MiB blocks into one file per thread: what the
//! folder takes in bulk. An immediate-flush appender cannot write that way: each event's bytes
//! reach the OS before the call returns (one `write(2)` per event into one shared file), and a
//! memory-mapped one copies each event into the same mapping. The ceiling does exactly that
//! and no more (no formatting, no routing, no locking of its own): the same number of writer
//! threads as the row has (one for an asynchronous row, whose single background thread does
//! all the writing, in log4j2 as in l4rs), the row's own bytes per event, the same warm-up and
//! window. A library that hands each event to the OS separately, with these bytes, cannot
//! beat it on this machine and folder (beyond the noise of one sample), so it bounds the
//! ratios of such libraries: a ceiling of 6× log4j2 means none of them can be 10× log4j2 here.
//! It does not bound a writer that batches several events per `write(2)` (docs/benchmarks.md
//! measures that separately).

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;

use crate::args::Options;
use crate::disk;
use crate::progress::Progress;
use crate::runner;
use crate::sample::{Mode, SampleAppender};
use crate::workload::Workload;

/// How an appender hands an event's bytes to the OS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// One `write(2)` per event into a file opened for appending (File and RandomAccessFile
    /// with the sample's `immediateFlush="true"`).
    Append,
    /// A copy into a shared mapping of the file, each writer at the position it reserved
    /// (MemoryMappedFile).
    Map,
}

/// Who writes: the row's own threads, or one background thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Writers {
    /// As many writers as the row has logging threads (a synchronous row).
    RowThreads,
    /// One writer, whatever the row's thread count (an asynchronous row's background thread).
    One,
}

/// What the ceiling of one sample row writes, and with how many threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// How the row's appender hands bytes to the OS.
    pub delivery: Delivery,
    /// Who writes them.
    pub writers: Writers,
}

impl Plan {
    /// A synchronous appender that appends: each logging thread `write(2)`s its own events.
    pub const APPEND_PER_CALL: Plan = Plan {
        delivery: Delivery::Append,
        writers: Writers::RowThreads,
    };

    /// The plan of `appender` in `mode` (the sample's three file appenders, immediate flush).
    pub fn for_sample(appender: &SampleAppender, mode: Mode) -> Plan {
        Plan {
            delivery: if appender.name == "MemoryMappedFile" {
                Delivery::Map
            } else {
                Delivery::Append
            },
            writers: if mode.is_async() {
                Writers::One
            } else {
                Writers::RowThreads
            },
        }
    }

    /// The writer threads for a row of `threads` logging threads.
    pub fn writer_count(&self, threads: usize) -> usize {
        match self.writers {
            Writers::RowThreads => threads.max(1),
            Writers::One => 1,
        }
    }

    /// For footnotes: `1 thread, one write(2) per event`.
    pub fn describe(&self, threads: usize) -> String {
        let writers = self.writer_count(threads);
        let how = match self.delivery {
            Delivery::Append => "one write(2) per event",
            Delivery::Map => "one copy per event into a shared mapping",
        };
        format!(
            "{writers} thread{}, {how}",
            if writers == 1 { "" } else { "s" }
        )
    }
}

/// Headroom the ceiling leaves free on the folder's filesystem (or a tenth of the free space,
/// when that is less).
const HEADROOM: u64 = 4 << 30;
/// Below this much room the ceiling does not run: its window would end at the cap.
const MIN_BYTES: u64 = 256 << 20;
/// The most the ceiling writes in one run, whatever the folder has free.
const MAX_BYTES: u64 = 64 << 30;

/// Runs `plan`'s ceiling in `dir` for a row of `threads` threads whose events are
/// `event_bytes` long on average, with the options' warm-up and window; deletes its file and
/// returns its operations per millisecond. Fails when the folder cannot take the run or the
/// run reached the folder's free space (its figure would be cut short).
pub fn measure(
    dir: &Path,
    plan: &Plan,
    threads: usize,
    event_bytes: usize,
    options: &Options,
    progress: &Progress,
) -> io::Result<f64> {
    let delete = |path: &Path| {
        let _ = std::fs::remove_file(path);
    };
    with_writer(dir, plan.delivery, event_bytes, delete, |workload| {
        let sample = runner::run(
            workload,
            plan.writer_count(threads),
            options.warmup,
            options.measure,
            progress,
            &|| {},
        );
        sample.ops as f64 / (sample.seconds * 1000.0).max(1e-9)
    })
}

/// Gives `run` a [`Workload`] whose every operation hands one event of `event_bytes` to the OS
/// by `delivery` into a scratch file in `dir`, then has `delete` delete the file (closed by
/// then). Used by [`measure`] and by `--latency`'s kernel floor. Fails when the folder cannot
/// take the run, a write failed, or the writes reached what the folder could spare (what `run`
/// measured would be cut short).
pub fn with_writer<R>(
    dir: &Path,
    delivery: Delivery,
    event_bytes: usize,
    delete: impl FnOnce(&Path),
    run: impl FnOnce(&dyn Workload) -> R,
) -> io::Result<R> {
    let path = scratch(dir);
    let _ = std::fs::remove_file(&path);
    let free = free_bytes(dir)?;
    let cap = free.saturating_sub(HEADROOM.min(free / 10)).min(MAX_BYTES);
    if cap < MIN_BYTES {
        return Err(io::Error::other(format!(
            "{} has too little free space for the scratch file of a ceiling or floor run ({} MiB)",
            dir.display(),
            free >> 20
        )));
    }
    let result = Target::open(&path, delivery, cap).and_then(|target| {
        let workload = CeilingWorkload::new(target, event_bytes, cap);
        let measured = run(&workload);
        workload.finish()?;
        if let Some(error) = workload.error.get() {
            return Err(io::Error::new(error.kind(), error.to_string()));
        }
        if workload.capped.load(Ordering::Relaxed) {
            return Err(io::Error::other(format!(
                "the scratch writer filled the {} MiB this folder could spare before its window ended",
                cap >> 20
            )));
        }
        Ok(measured)
    });
    delete(&path);
    result
}

/// The ceiling's file in `dir`.
pub(crate) fn scratch(dir: &Path) -> PathBuf {
    dir.join("l4rs-bench-ceiling.tmp")
}

/// Bytes an unprivileged writer may still add to the filesystem of `dir`.
fn free_bytes(dir: &Path) -> io::Result<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes())
        .map_err(|_| io::Error::other("the folder's path holds a NUL byte"))?;
    let mut stats = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `path` is a NUL-terminated string and `stats` a buffer statvfs fills on success.
    if unsafe { libc::statvfs(path.as_ptr(), stats.as_mut_ptr()) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: statvfs returned 0, so it filled `stats`.
    let stats = unsafe { stats.assume_init() };
    // Both are 32-bit on some targets, 64-bit here.
    #[allow(clippy::useless_conversion)]
    let (blocks, block_size) = (u64::from(stats.f_bavail), u64::from(stats.f_frsize));
    Ok(blocks.saturating_mul(block_size))
}

/// Where the writers put their bytes.
enum Target {
    /// The file, opened for appending.
    Append(File),
    /// The file, grown (sparsely) to the cap and mapped whole: each writer copies at the
    /// offset it reserved, so the kernel allocates and zeroes each page on first touch. The
    /// appender also reserves each region's blocks (`posix_fallocate`) and remaps region by
    /// region, which the ceiling skips: it does less than the appender, so it stays an upper
    /// bound. The price: should another process fill the disk during the run, a page fault
    /// here is a SIGBUS (the cap leaves the headroom free to make that unlikely).
    Map { file: File, map: memmap2::MmapRaw },
}

impl Target {
    fn open(path: &Path, delivery: Delivery, cap: u64) -> io::Result<Target> {
        match delivery {
            Delivery::Append => Ok(Target::Append(
                OpenOptions::new().create(true).append(true).open(path)?,
            )),
            Delivery::Map => {
                let file = OpenOptions::new()
                    .create(true)
                    .read(true)
                    .write(true)
                    .truncate(true)
                    .open(path)?;
                file.set_len(cap)?;
                let map = memmap2::MmapOptions::new()
                    .len(usize::try_from(cap).map_err(io::Error::other)?)
                    .map_raw(&file)?;
                Ok(Target::Map { file, map })
            }
        }
    }
}

/// The [`Workload`] of a ceiling: every operation, plain or with the error, writes one event of
/// the row's average size (the same bytes and the same number of hand-overs as the row).
struct CeilingWorkload {
    target: Target,
    event: Vec<u8>,
    /// Bytes reserved so far (the mapping's next free offset; a count for appends).
    reserved: AtomicU64,
    /// The most the run may write.
    cap: u64,
    /// Set once a writer would pass `cap`; from then on nobody writes.
    capped: AtomicBool,
    /// The first write error; from then on nobody writes.
    error: OnceLock<io::Error>,
}

impl CeilingWorkload {
    fn new(target: Target, event_bytes: usize, cap: u64) -> CeilingWorkload {
        CeilingWorkload {
            target,
            event: disk::log_like_bytes(event_bytes.max(1)),
            reserved: AtomicU64::new(0),
            cap,
            capped: AtomicBool::new(false),
            error: OnceLock::new(),
        }
    }

    fn write_event(&self) {
        if self.capped.load(Ordering::Relaxed) || self.error.get().is_some() {
            return;
        }
        let len = self.event.len() as u64;
        let at = self.reserved.fetch_add(len, Ordering::Relaxed);
        if at + len > self.cap {
            self.capped.store(true, Ordering::Relaxed);
            return;
        }
        match &self.target {
            Target::Append(file) => {
                let mut file: &File = file;
                if let Err(error) = file.write_all(&self.event) {
                    let _ = self.error.set(error);
                }
            }
            Target::Map { map, .. } => {
                // SAFETY: `at + len <= cap`, the mapping's length, and the range starting at
                // `at` was reserved by this call alone, so no other writer touches it.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        self.event.as_ptr(),
                        map.as_mut_ptr().add(at as usize),
                        self.event.len(),
                    );
                }
            }
        }
    }

    /// Bytes written: every reservation that fit under the cap (they form a prefix, all of one
    /// event's length).
    fn written(&self) -> u64 {
        let len = self.event.len() as u64;
        self.reserved
            .load(Ordering::Relaxed)
            .min(self.cap / len * len)
    }

    /// Cuts a mapped file back to what was written, as the appender does at close.
    fn finish(&self) -> io::Result<()> {
        if let Target::Map { file, .. } = &self.target {
            file.set_len(self.written())?;
        }
        Ok(())
    }
}

impl Workload for CeilingWorkload {
    fn plain(&self) {
        self.write_event();
    }

    fn with_error(&self) {
        self.write_event();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::SAMPLE_APPENDERS;
    use std::time::Duration;

    fn options() -> Options {
        Options {
            warmup: Duration::from_millis(20),
            measure: Duration::from_millis(60),
            ..Options::default()
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("l4rs-bench-ceiling-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_plan_follows_the_appender_and_the_mode() {
        let [file, raf, mmf] = SAMPLE_APPENDERS;
        assert_eq!(
            Plan::for_sample(&file, Mode::Sync),
            Plan {
                delivery: Delivery::Append,
                writers: Writers::RowThreads
            }
        );
        assert_eq!(
            Plan::for_sample(&raf, Mode::AsyncAppender).delivery,
            Delivery::Append
        );
        let mapped = Plan::for_sample(&mmf, Mode::AsyncLogger);
        assert_eq!(mapped.delivery, Delivery::Map);
        assert_eq!(mapped.writer_count(64), 1);
        assert_eq!(Plan::for_sample(&mmf, Mode::Sync).writer_count(64), 64);
        assert_eq!(
            mapped.describe(4),
            "1 thread, one copy per event into a shared mapping"
        );
        assert_eq!(
            Plan::for_sample(&file, Mode::Sync).describe(4),
            "4 threads, one write(2) per event"
        );
    }

    #[test]
    fn each_delivery_writes_whole_events_and_cleans_up() {
        for delivery in [Delivery::Append, Delivery::Map] {
            let dir = temp_dir(&format!("{delivery:?}"));
            let path = scratch(&dir);
            let target = Target::open(&path, delivery, 1 << 20).unwrap();
            let workload = CeilingWorkload::new(target, 100, 1 << 20);
            std::thread::scope(|scope| {
                for _ in 0..3 {
                    scope.spawn(|| {
                        for _ in 0..50 {
                            workload.plain();
                            workload.with_error();
                        }
                    });
                }
            });
            workload.finish().unwrap();
            let written = std::fs::read(&path).unwrap();
            assert_eq!(written.len(), 300 * 100, "{delivery:?}");
            let event = disk::log_like_bytes(100);
            assert!(
                written.chunks(100).all(|chunk| chunk == event),
                "{delivery:?}"
            );
            assert!(!workload.capped.load(Ordering::Relaxed));
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    #[test]
    fn a_run_past_the_cap_stops_writing_and_says_so() {
        let dir = temp_dir("cap");
        let path = scratch(&dir);
        let workload =
            CeilingWorkload::new(Target::open(&path, Delivery::Map, 1000).unwrap(), 300, 1000);
        for _ in 0..5 {
            workload.plain();
        }
        assert!(workload.capped.load(Ordering::Relaxed));
        workload.finish().unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 900);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn measures_a_rate_and_leaves_nothing_behind() {
        let dir = temp_dir("measure");
        let plan = Plan {
            delivery: Delivery::Append,
            writers: Writers::RowThreads,
        };
        let ops_per_ms = measure(&dir, &plan, 2, 200, &options(), &Progress::hidden()).unwrap();
        assert!(ops_per_ms > 0.0);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
