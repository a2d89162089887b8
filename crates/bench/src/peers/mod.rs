//! `--peers`: the same workload through the Rust logging crates people compare with.
//!
//! Each peer runs in a child process (`l4rs-bench --peer-child NAME …`): log4rs, fast_log and
//! ftlog install themselves as the process-wide `log` logger, which l4rs's own `log` bridge
//! already is in the parent, and one process per peer also keeps their global state and
//! background threads from touching the other rows. The child prints its `RESULT` line and the
//! parent reads it.
//!
//! The peers themselves are compiled only with the `peers` feature (they double the bench's
//! build time); without it [`AVAILABLE`] is false and `--peers` explains how to enable it.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::args::Options;
use crate::progress::Progress;
use crate::report::{parse_result_line, Outcome, Row};

pub mod compare;
#[cfg(feature = "peers")]
mod imp;

/// True when the peers are compiled in (the `peers` feature).
pub const AVAILABLE: bool = cfg!(feature = "peers");

/// A peer: its name, whether it writes from a background thread, and what it was set up with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peer {
    /// The crate's name (and the row's library).
    pub name: &'static str,
    /// True when log calls only hand the event to a background thread.
    pub asynchronous: bool,
    /// The output and the error idiom used, for the docs and `--help` readers.
    pub setup: &'static str,
}

/// The peers, in the order they run.
pub const PEERS: &[Peer] = &[
    Peer {
        name: "log4rs",
        asynchronous: false,
        setup: "FileAppender + PatternEncoder (date, level, pid, thread, module:line, message); log::debug!(\"{msg} {error}\\n{backtrace}\")",
    },
    Peer {
        name: "spdlog-rs",
        asynchronous: false,
        setup: "FileSink, default pattern with source location; spdlog::debug!(\"{msg} {error}\\n{backtrace}\")",
    },
    Peer {
        name: "tracing",
        asynchronous: false,
        setup: "tracing-subscriber fmt (thread names, file:line) writing to tracing_appender::rolling::never; debug!(error = %e, backtrace = %bt, msg)",
    },
    Peer {
        name: "fast_log",
        asynchronous: true,
        setup: "FileAppender (channel to a writer thread); log::debug!(\"{msg} {error}\\n{backtrace}\")",
    },
    Peer {
        name: "ftlog",
        asynchronous: true,
        setup: "FileAppender (channel to a writer thread, default random_drop off); log::debug!(\"{msg} {error}\\n{backtrace}\")",
    },
];

/// How a peer is handed the workload's error: the two terms `--peers` compares on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorForm {
    /// The error, then `std::backtrace::Backtrace`'s `Display`: what a Rust user writes, but
    /// std demangles and formats every frame from its raw symbol again on every event, a cost
    /// of std's, not of the peer's logging.
    Backtrace,
    /// The same 101 frames resolved once into names, files and lines and written by a
    /// `Display` that only copies them (the `--tracing` rows' error, and the shared
    /// rust-peers harness's): the peers and l4rs on equal terms.
    Resolved,
}

impl ErrorForm {
    /// Both forms, in the order their rows run.
    pub const ALL: [ErrorForm; 2] = [ErrorForm::Backtrace, ErrorForm::Resolved];

    /// The row label of a peer run with this form.
    pub fn label(self) -> &'static str {
        match self {
            ErrorForm::Backtrace => "peer",
            ErrorForm::Resolved => "peer-resolved",
        }
    }

    /// The `--peer-child` value naming `peer` with this form: `spdlog-rs`,
    /// `spdlog-rs+resolved`.
    pub fn child_name(self, peer: &Peer) -> String {
        match self {
            ErrorForm::Backtrace => peer.name.to_string(),
            ErrorForm::Resolved => format!("{}+resolved", peer.name),
        }
    }

    /// Reads a `--peer-child` value back into its peer and form.
    pub fn parse_child_name(name: &str) -> Option<(&'static Peer, ErrorForm)> {
        let (base, form) = match name.strip_suffix("+resolved") {
            Some(base) => (base, ErrorForm::Resolved),
            None => (name, ErrorForm::Backtrace),
        };
        PEERS.iter().find(|p| p.name == base).map(|p| (p, form))
    }
}

/// The log file of a peer inside the log folder.
pub fn log_file(dir: &Path, peer: &Peer) -> std::path::PathBuf {
    dir.join(format!("peer-{}.log", peer.name))
}

/// Runs `peer` with the error in `form` in a child process and turns its output into a row.
pub fn run_in_child(
    peer: &Peer,
    form: ErrorForm,
    threads: usize,
    options: &Options,
    dir: &Path,
    progress: &Progress,
) -> Row {
    run_child(
        &ChildRow {
            flag: "--peer-child",
            name: &form.child_name(peer),
            label: form.label(),
            library: peer.name,
            asynchronous: peer.asynchronous,
        },
        threads,
        options,
        dir,
        progress,
    )
}

/// A row measured in a child process of this program (`l4rs-bench FLAG NAME …`).
pub struct ChildRow<'a> {
    /// The hidden option that makes the child run the row (`--peer-child`).
    pub flag: &'a str,
    /// The row's name, the option's value.
    pub name: &'a str,
    /// The row's label.
    pub label: &'a str,
    /// The row's library.
    pub library: &'a str,
    /// True when log calls only hand the event to a background thread.
    pub asynchronous: bool,
}

/// Runs `child` in a child process and turns its output into a row.
pub fn run_child(
    child: &ChildRow<'_>,
    threads: usize,
    options: &Options,
    dir: &Path,
    progress: &Progress,
) -> Row {
    let row = |outcome| Row {
        label: child.label.into(),
        library: child.library.into(),
        threads,
        asynchronous: child.asynchronous,
        outcome,
    };
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => return row(Outcome::Skipped(format!("cannot find this program: {e}"))),
    };
    let child = Command::new(exe)
        .args([child.flag, child.name, "--threads", &threads.to_string()])
        .arg("--warmup")
        .arg(format!("{}ms", options.warmup.as_millis()))
        .arg("--measure")
        .arg(format!("{}ms", options.measure.as_millis()))
        .arg("--dir")
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return row(Outcome::Skipped(format!("cannot start the peer: {e}"))),
    };
    let window = (options.warmup + options.measure).as_secs_f64() + 0.5;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) => {
                progress.set_fraction(start.elapsed().as_secs_f64() / window);
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(_) => break None,
        }
    };
    let mut stdout = String::new();
    let mut stderr = String::new();
    if let Some(mut out) = child.stdout.take() {
        let _ = out.read_to_string(&mut stdout);
    }
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut stderr);
    }
    for line in stdout.lines() {
        if let Some((_, _, measurement)) = parse_result_line(line) {
            return row(Outcome::Measured(measurement));
        }
        if let Some(reason) = line.strip_prefix("SKIPPED ") {
            return row(Outcome::Skipped(reason.to_string()));
        }
    }
    row(Outcome::Skipped(format!(
        "the peer process printed no RESULT (status {status:?}): {}",
        stderr.lines().take(3).collect::<Vec<_>>().join(" / ")
    )))
}

/// The child side: runs one peer and prints its `RESULT` (or `SKIPPED`) line. Returns the exit
/// status.
pub fn child(name: &str, options: &Options) -> i32 {
    let Some((peer, form)) = ErrorForm::parse_child_name(name) else {
        println!("SKIPPED appender=peer lib={name} reason=\"unknown peer\"");
        return 2;
    };
    let threads = options.threads.first().copied().unwrap_or(4);
    let dir = match crate::bench::log_dir(options) {
        Ok(dir) => dir,
        Err(reason) => {
            println!("SKIPPED appender=peer threads={threads} lib={name} reason=\"{reason}\"");
            return 1;
        }
    };
    let row = run_here(peer, form, threads, options, &dir);
    println!("{}", row.result_line());
    0
}

#[cfg(feature = "peers")]
fn run_here(peer: &Peer, form: ErrorForm, threads: usize, options: &Options, dir: &Path) -> Row {
    imp::run(peer, form, threads, options, dir)
}

#[cfg(not(feature = "peers"))]
fn run_here(peer: &Peer, form: ErrorForm, threads: usize, _options: &Options, _dir: &Path) -> Row {
    Row {
        label: form.label().into(),
        library: peer.name.into(),
        threads,
        asynchronous: peer.asynchronous,
        outcome: Outcome::Skipped("built without the peers feature".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_peer_is_listed_once_and_the_asynchronous_ones_are_marked() {
        let names: Vec<_> = PEERS.iter().map(|p| p.name).collect();
        assert_eq!(
            names,
            ["log4rs", "spdlog-rs", "tracing", "fast_log", "ftlog"]
        );
        let asynchronous: Vec<_> = PEERS
            .iter()
            .filter(|p| p.asynchronous)
            .map(|p| p.name)
            .collect();
        assert_eq!(asynchronous, ["fast_log", "ftlog"]);
    }

    #[test]
    fn child_names_carry_the_error_form_and_read_back() {
        for peer in PEERS {
            for form in ErrorForm::ALL {
                let name = form.child_name(peer);
                assert_eq!(ErrorForm::parse_child_name(&name), Some((peer, form)));
            }
        }
        assert_eq!(
            ErrorForm::child_name(ErrorForm::Resolved, &PEERS[1]),
            "spdlog-rs+resolved"
        );
        assert_eq!(ErrorForm::parse_child_name("nolog+resolved"), None);
        assert_ne!(ErrorForm::Backtrace.label(), ErrorForm::Resolved.label());
    }
}
