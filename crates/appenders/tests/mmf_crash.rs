//! Kill-and-restart trials of the memory-mapped appenders: a child process (this test binary,
//! started with `L4RS_MMF_CRASH_CHILD` set) logs from two threads into a MemoryMappedFile and a
//! RollingMemoryMappedFile (small regions, a rollover every 16 KB) and is killed with SIGKILL;
//! then this process opens both appenders on the same files, which recovers them, and closes
//! them. A writer killed between its reservation and its copy leaves a run of NUL bytes inside
//! the data (the issue saw it in 2 of 5 such trials), and one killed during a rollover leaves a
//! staging file padded with NULs. After every restart:
//!
//! * no file holds a NUL byte (archives and staging leftovers included);
//! * no staging file is left;
//! * every event whose log call had returned (the child acknowledges each on stdout) is in
//!   each destination once, and each thread's events of each run are in order;
//! * what the kills cut short (records cut short, holes filled with spaces) stays within the
//!   records in flight: one per thread per kill.
//!
//! The loop is bounded: at most [`MAX_KILLS`] kills, and none started after [`TIME_BUDGET`].

mod rolling_support;

use std::collections::HashMap;
use std::io::Write as _;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use l4rs_appenders::RollingContext;
use l4rs_core::{status, Appender};
use rolling_support::{
    archives_then_current, build, contents, kill_after_acks, leftovers, log_now,
    rolling_memory_mapped_in, rolling_xml_with, walk, TempDir,
};

const CHILD_ENV: &str = "L4RS_MMF_CRASH_CHILD";
const RUN_ENV: &str = "L4RS_MMF_CRASH_RUN";
const THREADS: usize = 2;
const MAX_KILLS: u32 = 40;
const MIN_KILLS: u32 = 3;
const TIME_BUDGET: Duration = Duration::from_secs(20);
const PAYLOAD: &str = "payload-0123456789abcdef";

fn mmf_xml(dir: &Path) -> String {
    format!(
        r#"<MemoryMappedFile name="M" fileName="{}/mmf.log" regionLength="1024"/>"#,
        dir.display()
    )
}

fn rolling_xml(dir: &Path) -> String {
    let dir = dir.join("rolling");
    rolling_xml_with(
        "RollingMemoryMappedFile",
        &format!("{}/app.log", dir.display()),
        &format!("{}/app-%i.log", dir.display()),
        r#"regionLength="1024""#,
        r#"<SizeBasedTriggeringPolicy size="16 KB"/>
           <DefaultRolloverStrategy fileIndex="nomax"/>"#,
    )
}

/// The child: two threads log `R<run> T<thread> <sequence> <payload>` into both appenders until
/// killed,
/// acknowledging each event on stdout once both calls returned.
#[test]
fn child_entry() {
    let Ok(dir) = std::env::var(CHILD_ENV) else {
        return;
    };
    let dir = Path::new(&dir);
    let run: u32 = std::env::var(RUN_ENV).unwrap().parse().unwrap();
    let mmf = build(&mmf_xml(dir));
    let rolling: Arc<dyn Appender> = Arc::new(rolling_memory_mapped_in(
        &rolling_xml(dir),
        &RollingContext::default(),
    ));
    let threads: Vec<_> = (0..THREADS)
        .map(|thread| {
            let (mmf, rolling) = (Arc::clone(&mmf), Arc::clone(&rolling));
            std::thread::spawn(move || {
                for sequence in 0u64.. {
                    let line = format!("R{run} T{thread} {sequence} {PAYLOAD}");
                    log_now(mmf.as_ref(), &line);
                    log_now(rolling.as_ref(), &line);
                    if writeln!(std::io::stdout().lock(), "{thread} {sequence}").is_err() {
                        // The parent is gone: stop rather than fill the disk.
                        std::process::exit(1);
                    }
                }
            })
        })
        .collect();
    for thread in threads {
        let _ = thread.join();
    }
}

/// Opens both appenders on the files a killed child left (recovering them) and closes them;
/// returns how many holes the recovery reported filling, and how many staging files of an
/// interrupted rollover it archived.
fn restart(dir: &Path) -> (usize, usize) {
    let (appenders, records) = status::capture(|| {
        let mmf = build(&mmf_xml(dir));
        let rolling = rolling_memory_mapped_in(&rolling_xml(dir), &RollingContext::default());
        rolling.wait_for_actions();
        (mmf, rolling)
    });
    appenders.0.stop();
    appenders.1.stop();
    let staged = records
        .iter()
        .filter(|r| r.message.contains("left by an interrupted rollover"))
        .count();
    let holes = records
        .iter()
        .filter(|r| r.message.contains("run(s) of NUL bytes"))
        .map(|r| {
            let count = r.message.split("records: ").nth(1).unwrap_or_default();
            count
                .split(' ')
                .next()
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or_else(|| panic!("unexpected report {:?}", r.message))
        })
        .sum();
    (holes, staged)
}

/// What the files of one destination hold, in the order they were written.
#[derive(Default)]
struct Parsed {
    /// Sequence numbers per (run, thread), in file order.
    sequences: HashMap<(u32, usize), Vec<u64>>,
    /// Records cut short.
    torn: usize,
    /// LINES of nothing but spaces: filled holes.
    holes: usize,
}

impl Parsed {
    fn read(files: &[std::path::PathBuf]) -> Parsed {
        let mut parsed = Parsed::default();
        for file in files {
            for line in contents(file).split('\n').filter(|line| !line.is_empty()) {
                if line.ends_with(' ') {
                    // A hole (no record ends with a space), after a record cut short or not.
                    if line.trim_start_matches(' ').is_empty() {
                        parsed.holes += 1;
                    } else {
                        parsed.torn += 1;
                    }
                } else if !parsed.record(line) {
                    // The next run started right after a record cut short at the end of the
                    // data: the whole record after the piece still counts. `R` only occurs at
                    // the start of a record.
                    parsed.torn += 1;
                    let _ = (1..line.len())
                        .filter(|&i| line.is_char_boundary(i))
                        .any(|i| parsed.record(&line[i..]));
                }
            }
        }
        parsed
    }

    fn record(&mut self, line: &str) -> bool {
        let fields: Vec<&str> = line.split(' ').collect();
        let [run, thread, sequence, payload] = fields[..] else {
            return false;
        };
        let (Some(run), Some(thread)) = (run.strip_prefix('R'), thread.strip_prefix('T')) else {
            return false;
        };
        match (run.parse(), thread.parse(), sequence.parse()) {
            (Ok(run), Ok(thread), Ok(sequence)) if payload == PAYLOAD => {
                self.sequences
                    .entry((run, thread))
                    .or_default()
                    .push(sequence);
                true
            }
            _ => false,
        }
    }
}

#[test]
fn every_restart_after_a_kill_leaves_no_nul_byte() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let dir = TempDir::new("mmf-crash");
    let started = Instant::now();
    let mut acknowledged: HashMap<(u32, usize), u64> = HashMap::new();
    let mut filled = 0;
    let mut staged = 0;
    let mut kills = 0;
    while kills < MAX_KILLS && (kills < MIN_KILLS || started.elapsed() < TIME_BUDGET) {
        let mut child = Command::new(std::env::current_exe().unwrap());
        child
            .args(["--exact", "child_entry", "--nocapture", "--test-threads=1"])
            .env(CHILD_ENV, dir.path())
            .env(RUN_ENV, kills.to_string());
        // Different amounts of logging, so the kills land at different points.
        let last = kill_after_acks(child, 300 + 450 * (kills as usize % 5));
        for (thread, sequence) in last {
            acknowledged.insert((kills, thread), sequence);
        }
        kills += 1;
        let (holes, staging_files) = restart(dir.path());
        filled += holes;
        staged += staging_files;
        for file in walk(dir.path()) {
            let bytes = std::fs::read(&file).unwrap();
            let nul = bytes.iter().position(|&b| b == 0);
            assert_eq!(nul, None, "{} after kill {kills}", file.display());
        }
        let leftovers = leftovers(dir.path());
        assert!(leftovers.is_empty(), "after kill {kills}: {leftovers:?}");
    }

    let destinations = [
        ("MemoryMappedFile", vec![dir.path().join("mmf.log")]),
        (
            "RollingMemoryMappedFile",
            archives_then_current(&dir.path().join("rolling"), "app-", "app.log"),
        ),
    ];
    for (name, files) in destinations {
        let parsed = Parsed::read(&files);
        for (&(run, thread), &last) in &acknowledged {
            let written = parsed
                .sequences
                .get(&(run, thread))
                .map_or(&[][..], Vec::as_slice);
            let expected: Vec<u64> = (0..written.len() as u64).collect();
            assert_eq!(
                written, expected,
                "{name}: run {run} thread {thread}: each event once, in order"
            );
            assert!(
                written.len() as u64 > last,
                "{name}: run {run} thread {thread}: event {last} returned, {} written",
                written.len()
            );
        }
        assert!(
            parsed.torn + parsed.holes <= THREADS * kills as usize,
            "{name}: {} records cut short and {} holes over {kills} kills",
            parsed.torn,
            parsed.holes
        );
        eprintln!(
            "{name}: {} records cut short, {} holes filled over {kills} kills",
            parsed.torn, parsed.holes
        );
    }
    eprintln!(
        "{kills} kills in {:.1} s; the restarts reported {filled} holes filled and archived \
         {staged} staging files",
        started.elapsed().as_secs_f64()
    );
}
