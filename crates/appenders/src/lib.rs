//! l4rs appenders: where formatted events end up.
//!
//! This crate provides log4j2's `<Console>` ([`ConsoleAppender`]), `<File>` ([`FileAppender`]),
//! `<RandomAccessFile>` ([`RandomAccessFileAppender`]) and `<MemoryMappedFile>`
//! ([`MemoryMappedFileAppender`]) appenders, their rolling variants `<RollingFile>`
//! ([`RollingFileAppender`]), `<RollingRandomAccessFile>` ([`RollingRandomAccessFileAppender`])
//! and l4rs's own `<RollingMemoryMappedFile>` ([`RollingMemoryMappedFileAppender`]), and
//! `<Null>` ([`NullAppender`]) and `<CountingNoOp>` ([`CountingNoOpAppender`]), with log4j2's options, output and sharing rules,
//! built for speed:
//!
//! * an event is formatted outside any lock, into the calling thread's reused buffers, so
//!   steady-state logging allocates nothing;
//! * with immediate flush (the default) an event reaches the OS in **one** `write(2)` before
//!   `append` returns, on an `O_APPEND` descriptor that concurrent writers share without a lock;
//! * buffered files take a short lock only to copy the bytes (and, once per buffer, to write it);
//! * memory-mapped files take no lock at all: writers reserve their bytes with one atomic
//!   addition and copy them into the mapping in parallel;
//! * concurrent lines are never torn or interleaved, and each thread's lines keep their order.
//!
//! Like log4j2, every destination has one *manager* per process, shared by all appenders that
//! name it (same `fileName`, or same console target): the first appender's layout writes the
//! header when the manager is created and the footer when the last appender using it stops
//! (RandomAccessFile and MemoryMappedFile lose the header, as in log4j2 2.19).
//!
//! [`build_appender`] builds an appender from its configuration. Filters, `ignoreExceptions`
//! and the status reporting of append errors are the caller's business. At process exit, call
//! [`Appender::stop`] on every appender; [`flush_all`] and [`stop_all`] also reach managers whose
//! appenders are out of reach.

use std::io;
use std::sync::Arc;

use l4rs_config::model::{AppenderKind, AppenderSpec};
use l4rs_core::{Appender, Layout};

mod check;
mod client_stream;
mod console;
mod counting_no_op;
mod encode;
mod error;
mod file;
mod file_manager;
mod http;
mod managed;
mod memory_mapped_file;
mod mmf_manager;
mod mmf_regions;
mod mmf_sync;
mod null;
mod posix;
mod random_access_file;
mod registry;
mod replaced;
mod rolling;
mod rolling_file;
mod rolling_memory_mapped_file;
mod rolling_random_access_file;
mod scheduling;
mod smtp;
mod socket;
mod takeover;
mod target;

/// Entry points for the fuzz targets under `fuzz/` (docs/robustness.md); compiled only with
/// `--cfg fuzzing`, which cargo-fuzz sets, so they are no part of the API.
#[cfg(fuzzing)]
#[doc(hidden)]
pub mod fuzzing {
    pub use crate::http::{fuzz_http_response, FuzzedResponse, FUZZ_KEPT_BODY};
    pub use crate::rolling::fuzz_file_pattern;
    pub use crate::smtp::{fuzz_mail, FuzzedMail};
    pub use crate::socket::{fuzz_relp_frames, fuzz_store};
}

pub use check::check_appender;
pub use console::ConsoleAppender;
pub use counting_no_op::CountingNoOpAppender;
/// Also used by appenders outside this crate (l4rs-kafka) to format an event into the calling
/// thread's reused buffers.
pub use encode::with_encoded;
pub use error::AppenderBuildError;
pub use file::FileAppender;
pub use http::HttpAppender;
/// Kept here for the callers that open files as appenders do; it lives in `l4rs-core` so that
/// configuration loading uses the same function.
pub use l4rs_core::fs::open_without_waiting;
pub use memory_mapped_file::{MemoryMappedFileAppender, MAX_REGION_LENGTH, MIN_REGION_LENGTH};
pub use null::NullAppender;
pub use random_access_file::RandomAccessFileAppender;
pub use rolling::clock::{ManualClock, RolloverClock, SystemClock};
pub use rolling::RollingContext;
pub use rolling_file::RollingFileAppender;
pub use rolling_memory_mapped_file::RollingMemoryMappedFileAppender;
pub use rolling_random_access_file::RollingRandomAccessFileAppender;
pub use smtp::SmtpAppender;
pub use socket::SocketAppender;

/// Builds the appender `spec` describes, formatting with `layout` (the caller builds the layout,
/// since it depends on the layout crate and the configuration's substitutor). Rolling
/// appenders resolve the `$${…}` of their `filePattern` with lookups only; the facade, which
/// has the configuration, calls [`build_appender_with`] so that its properties resolve too.
pub fn build_appender(
    spec: &AppenderSpec,
    layout: Arc<dyn Layout>,
) -> Result<Arc<dyn Appender>, AppenderBuildError> {
    build_appender_with(spec, layout, &RollingContext::default())
}

/// [`build_appender`] with the [`RollingContext`] rolling appenders are built with (the
/// configuration's substitutor, a test clock); other appenders ignore it.
pub fn build_appender_with(
    spec: &AppenderSpec,
    layout: Arc<dyn Layout>,
    rolling: &RollingContext,
) -> Result<Arc<dyn Appender>, AppenderBuildError> {
    let name = spec.name.clone();
    let unsupported = |kind| Err(AppenderBuildError::Unsupported { kind });
    let appender: Arc<dyn Appender> = match &spec.kind {
        AppenderKind::Console(console) => Arc::new(ConsoleAppender::new(name, console, layout)?),
        AppenderKind::File(file) => Arc::new(FileAppender::new(name, file, layout)?),
        AppenderKind::RandomAccessFile(file) => {
            Arc::new(RandomAccessFileAppender::new(name, file, layout)?)
        }
        AppenderKind::MemoryMappedFile(file) => {
            Arc::new(MemoryMappedFileAppender::new(name, file, layout)?)
        }
        AppenderKind::RollingFile(file) => Arc::new(RollingFileAppender::with_context(
            name, file, layout, rolling,
        )?),
        AppenderKind::RollingRandomAccessFile(file) => Arc::new(
            RollingRandomAccessFileAppender::with_context(name, file, layout, rolling)?,
        ),
        AppenderKind::RollingMemoryMappedFile(file) => Arc::new(
            RollingMemoryMappedFileAppender::with_context(name, file, layout, rolling)?,
        ),
        AppenderKind::Null => Arc::new(NullAppender::new(name)),
        AppenderKind::CountingNoOp => Arc::new(CountingNoOpAppender::new(name)),
        // Built by the facade with l4rs-async: it refers to other appenders by name.
        AppenderKind::Async(_) => return unsupported("Async"),
        AppenderKind::Failover(_) => return unsupported("Failover"),
        AppenderKind::Rewrite(_) => return unsupported("Rewrite"),
        AppenderKind::Socket(socket) => Arc::new(SocketAppender::new(name, socket, layout)?),
        AppenderKind::Routing(_) => return unsupported("Routing"),
        // Built by the facade with l4rs-kafka, behind the `kafka` feature of `l4rs`.
        AppenderKind::Kafka(_) => return unsupported("Kafka"),
        // Built by the facade: its subject is a PatternLayout of its own.
        AppenderKind::Smtp(_) => return unsupported("SMTP"),
        // Built by the facade: its header values are resolved with the configuration's lookups.
        AppenderKind::Http(_) => return unsupported("Http"),
        // Built by the facade with l4rs-jdbc, behind the `jdbc` feature of `l4rs`.
        AppenderKind::Jdbc(_) => return unsupported("JDBC"),
    };
    Ok(appender)
}

/// Leaves the file of `spec`, an appender that a later one of the same name replaced, as
/// log4j2 leaves it, without building the appender: log4j2 built it before the later one
/// replaced it, so its file was opened (parent directories made, truncated unless `append`; a
/// memory-mapped file grown by one region of a valid length, reported as building reports it)
/// and nothing is written to it. Appenders without a file, or whose file `createOnDemand`
/// defers, are left alone.
pub fn open_replaced_file(spec: &AppenderSpec) -> Result<(), AppenderBuildError> {
    replaced::open_replaced_file(spec)
}

/// True when building `spec` now would open its file beside a live manager of another kind
/// (the appender on the file changed type across a reconfiguration). The caller then builds
/// [`continuing_spec`] of it once the configuration that had the file has stopped; see the
/// `takeover` module for why.
pub fn held_by_another_kind(spec: &AppenderSpec) -> bool {
    takeover::held_by_another_kind(spec)
}

/// `spec` as it is built to take a file over from another kind of appender: `append` set, so
/// the file continues at its end.
pub fn continuing_spec(spec: &AppenderSpec) -> AppenderSpec {
    takeover::continuing(spec)
}

/// [`open_replaced_file`] without side effects, for `l4rs check`: the error opening the file
/// would fail with (judged as opening judges it first), and nothing is opened or created.
pub fn check_replaced_file(spec: &AppenderSpec) -> Result<(), AppenderBuildError> {
    replaced::check_replaced_file(spec)
}

/// Writes out the buffer of every file in use (and syncs memory-mapped files to the disk). Safe
/// from any thread at any time, including a panic hook; failures are reported through the status
/// logger.
pub fn flush_all() {
    for registry in registries() {
        registry.flush_all();
    }
}

/// Closes every file and console stream in use, whoever still uses them: buffers are written,
/// footers too, and files are closed. Appenders still holding them then fail with
/// [`l4rs_core::AppendError::NotStarted`]. This is the last resort for process exit when the
/// appenders themselves cannot be stopped; stopping each appender does the same, one share at
/// a time.
pub fn stop_all() {
    for registry in registries() {
        registry.close_all();
    }
    console::close_all();
}

/// Every registry of managers but the consoles', in the order [`flush_all`] and [`stop_all`]
/// go through them: the file managers', then the sockets'.
fn registries() -> impl Iterator<Item = &'static dyn registry::AnyRegistry> {
    let sockets: &'static dyn registry::AnyRegistry = &socket::SOCKET_MANAGERS;
    takeover::file_registries().into_iter().chain([sockets])
}

/// Locks `mutex`, whether or not a panicking holder poisoned it, so that what it guards stays
/// usable after a panic elsewhere.
pub(crate) fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The OS's description of an I/O error, without Rust's ` (os error N)` suffix, as Java prints
/// it in exception messages.
pub(crate) fn os_reason(error: &io::Error) -> String {
    let text = error.to_string();
    match (error.raw_os_error(), text.rfind(" (os error ")) {
        (Some(_), Some(index)) => text[..index].to_string(),
        _ => text,
    }
}

#[cfg(test)]
mod test_support;
