//! The peers themselves (feature `peers`). Each is set up the way its documentation shows for
//! a plain log file, at DEBUG, with a pattern close to the sample's (time, level, thread,
//! location, message) where it has one, and prints the error the way its users usually do:
//! message, error and std's backtrace (captured at the bottom of the same 100-deep recursion
//! and resolved once), or ([`ErrorForm::Resolved`]) the same frames through the `Display` that
//! only copies pre-resolved names (`FramedError`, the `--tracing` rows' error). Synchronous peers are set to hand every event to the OS before the call
//! returns, as the sample's `immediateFlush="true"` appenders do.

use std::path::Path;
use std::sync::Mutex;

use crate::args::Options;
use crate::bench_message;
use crate::progress::Progress;
use crate::report::{Measurement, Outcome, Row};
use crate::runner;
use crate::workload::{fixture, Workload};

use super::{log_file, ErrorForm, Peer};
use crate::tracing_row::imp::framed_error;

/// A peer set up and ready to log; `finish` waits until every event is in the file.
trait PeerRun: Workload {
    fn finish(&self);
}

/// Runs the workload through `peer` in this process (the child).
pub(crate) fn run(
    peer: &Peer,
    form: ErrorForm,
    threads: usize,
    options: &Options,
    dir: &Path,
) -> Row {
    let path = log_file(dir, peer);
    let _ = std::fs::remove_file(&path);
    let _ = fixture();
    let started: Result<Box<dyn PeerRun>, String> = match peer.name {
        "log4rs" => log4rs_peer(&path, form),
        "spdlog-rs" => spdlog_peer(&path, form),
        "tracing" => tracing_peer(&path, form),
        "fast_log" => fast_log_peer(&path, form),
        "ftlog" => ftlog_peer(&path, form),
        other => Err(format!("unknown peer {other}")),
    };
    let outcome = match started {
        Err(reason) => Outcome::Skipped(reason),
        Ok(workload) => {
            let sample = runner::run(
                &*workload,
                threads,
                options.warmup,
                options.measure,
                &Progress::hidden(),
                // End to end, as l4rs's rows: the asynchronous peers' writers drain inside
                // the measured time.
                &|| workload.finish(),
            );
            Outcome::Measured(Measurement::of_sample(
                &sample,
                std::fs::metadata(&path).map_or(0, |m| m.len()),
            ))
        }
    };
    Row {
        label: form.label().into(),
        library: peer.name.into(),
        threads,
        asynchronous: peer.asynchronous,
        outcome,
    }
}

/// The workload through the `log` crate's macros, for the peers that are `log` backends.
struct LogCrate {
    /// Keeps ftlog's writer thread alive; dropping it flushes.
    guard: Mutex<Option<ftlog::LoggerGuard>>,
    form: ErrorForm,
}

impl Workload for LogCrate {
    fn plain(&self) {
        log::debug!(bench_message!());
    }

    fn with_error(&self) {
        match self.form {
            ErrorForm::Backtrace => {
                let f = fixture();
                log::debug!(concat!(bench_message!(), " {}\n{}"), f.error, f.backtrace);
            }
            ErrorForm::Resolved => log::debug!(concat!(bench_message!(), " {}"), framed_error()),
        }
    }
}

impl PeerRun for LogCrate {
    fn finish(&self) {
        log::logger().flush();
        if let Some(guard) = self.guard.lock().unwrap_or_else(|e| e.into_inner()).take() {
            drop(guard);
        }
    }
}

fn log_crate(guard: Option<ftlog::LoggerGuard>, form: ErrorForm) -> Box<dyn PeerRun> {
    Box::new(LogCrate {
        guard: Mutex::new(guard),
        form,
    })
}

fn log4rs_peer(path: &Path, form: ErrorForm) -> Result<Box<dyn PeerRun>, String> {
    use log4rs::append::file::FileAppender;
    use log4rs::config::{Appender, Config, Root};
    use log4rs::encode::pattern::PatternEncoder;
    // log4rs's FileAppender flushes after every record (its BufWriter is only a staging area).
    let file = FileAppender::builder()
        .encoder(Box::new(PatternEncoder::new(
            "{d(%Y-%m-%d %H:%M:%S%.3f)} {l:<5} {P} {T} {M}:{L} - {m} {n}",
        )))
        .build(path)
        .map_err(|e| e.to_string())?;
    let config = Config::builder()
        .appender(Appender::builder().build("file", Box::new(file)))
        .build(
            Root::builder()
                .appender("file")
                .build(log::LevelFilter::Debug),
        )
        .map_err(|e| e.to_string())?;
    log4rs::init_config(config).map_err(|e| e.to_string())?;
    Ok(log_crate(None, form))
}

fn fast_log_peer(path: &Path, form: ErrorForm) -> Result<Box<dyn PeerRun>, String> {
    // A bounded channel, as fast_log's README recommends: callers wait when the writer thread
    // falls behind instead of queueing without limit.
    fast_log::init(
        fast_log::Config::new()
            .file(&path.display().to_string())
            .level(log::LevelFilter::Debug)
            .chan_len(Some(100_000)),
    )
    .map_err(|e| e.to_string())?;
    Ok(log_crate(None, form))
}

fn ftlog_peer(path: &Path, form: ErrorForm) -> Result<Box<dyn PeerRun>, String> {
    // Bounded and blocking when full, so no event is dropped and the file holds them all.
    let guard = ftlog::builder()
        .max_log_level(log::LevelFilter::Debug)
        .root_log_level(log::LevelFilter::Debug)
        .bounded(100_000, true)
        .root(ftlog::appender::FileAppender::new(path))
        .try_init()
        .map_err(|e| e.to_string())?;
    Ok(log_crate(Some(guard), form))
}

struct Spdlog {
    logger: std::sync::Arc<spdlog::Logger>,
    form: ErrorForm,
}

impl Workload for Spdlog {
    fn plain(&self) {
        spdlog::debug!(logger: self.logger, bench_message!());
    }

    fn with_error(&self) {
        match self.form {
            ErrorForm::Backtrace => {
                let f = fixture();
                spdlog::debug!(logger: self.logger, concat!(bench_message!(), " {}\n{}"), f.error, f.backtrace);
            }
            ErrorForm::Resolved => {
                spdlog::debug!(logger: self.logger, concat!(bench_message!(), " {}"), framed_error());
            }
        }
    }
}

impl PeerRun for Spdlog {
    fn finish(&self) {
        self.logger.flush();
    }
}

fn spdlog_peer(path: &Path, form: ErrorForm) -> Result<Box<dyn PeerRun>, String> {
    use spdlog::sink::FileSink;
    use spdlog::LevelFilter;
    let sink = FileSink::builder()
        .path(path)
        .build_arc()
        .map_err(|e| e.to_string())?;
    // FileSink buffers; flushing on every record is what immediateFlush means.
    let logger = spdlog::Logger::builder()
        .sink(sink)
        .level_filter(LevelFilter::All)
        .flush_level_filter(LevelFilter::All)
        .build_arc()
        .map_err(|e| e.to_string())?;
    Ok(Box::new(Spdlog { logger, form }))
}

/// The `tracing` peer: the `--tracing` row's calls into tracing-subscriber's fmt layer (the
/// resolved form), or the error and std's backtrace as two display fields.
struct Tracing {
    form: ErrorForm,
}

impl Workload for Tracing {
    fn plain(&self) {
        crate::tracing_row::imp::TracingCalls { errors: true }.plain();
    }

    fn with_error(&self) {
        match self.form {
            ErrorForm::Backtrace => {
                let f = fixture();
                tracing::debug!(target: "FileLogger", error = %f.error, backtrace = %f.backtrace, bench_message!());
            }
            ErrorForm::Resolved => {
                crate::tracing_row::imp::TracingCalls { errors: true }.with_error()
            }
        }
    }
}

impl PeerRun for Tracing {
    fn finish(&self) {}
}

fn tracing_peer(path: &Path, form: ErrorForm) -> Result<Box<dyn PeerRun>, String> {
    crate::tracing_row::imp::install_fmt(path)?;
    Ok(Box::new(Tracing { form }))
}
