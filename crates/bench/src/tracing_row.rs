//! `--tracing`: the benchmark's workload sent through `tracing::debug!`, once into l4rs's
//! appenders by `l4rs::tracing::layer()` and once into `tracing-subscriber`'s fmt layer writing
//! a file (the `tracing` peer's setup), in the same run, one child process each (a `tracing`
//! subscriber is process-wide).
//!
//! Both rows are labelled [`LABEL`]; l4rs's is library `l4rs`, the other [`FMT_LIBRARY`], so
//! the report pairs them like an l4rs row and its log4j2 row. The events are the same
//! `tracing` calls, the error as `tracing`'s error value (`error = &e as &dyn Error`): an
//! error whose `Display` writes its message and then its 101 frames, resolved once, with no
//! allocation (as the rust-peers reference writers in `../shared/anchors/rust-peers` give theirs), so both
//! sides get the same text to write for the same price. The fmt layer writes it as the
//! `error` field; l4rs's layer makes it the event's throwable, and its configuration is the
//! File appender of `config-samples/log4j2-appender.xml` with its pattern (`%ex{full}`).
//!
//! Compiled with the `tracing` feature (which `peers` includes); without it [`AVAILABLE`] is
//! false and `--tracing` explains how to enable it.

use std::path::Path;

use crate::args::Options;
use crate::peers::ChildRow;
use crate::progress::Progress;
use crate::report::Row;

/// True when the rows are compiled in (the `tracing` feature).
pub const AVAILABLE: bool = cfg!(feature = "tracing");

/// The label of the rows of the benchmark's workload.
pub const LABEL: &str = "tracing-File";

/// The label of the rows of plain events only (no event carries the error).
pub const PLAIN_LABEL: &str = "tracing-File-plain";

/// The library name of the fmt layer's rows.
pub const FMT_LIBRARY: &str = "tracing-fmt";

/// The target against the fmt layer: at least this many times its ops/ms ...
pub const VS_FMT_TARGET: f64 = 1.5;

/// One `--tracing` row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TracingRow {
    /// The child's name (`--tracing-child NAME`) and its log file's.
    pub child: &'static str,
    /// `l4rs` or [`FMT_LIBRARY`].
    pub library: &'static str,
    /// [`LABEL`] or [`PLAIN_LABEL`].
    pub label: &'static str,
    /// False for the plain rows: every operation is the plain event.
    pub errors: bool,
}

/// The rows, each l4rs row right before its fmt row: the benchmark's workload (one event in five
/// with the error and backtrace fields, whose `Display` both sides pay alike), then plain events
/// only (what the layer itself costs).
pub const ROWS: [TracingRow; 4] = [
    TracingRow {
        child: "l4rs",
        library: "l4rs",
        label: LABEL,
        errors: true,
    },
    TracingRow {
        child: "fmt",
        library: FMT_LIBRARY,
        label: LABEL,
        errors: true,
    },
    TracingRow {
        child: "l4rs-plain",
        library: "l4rs",
        label: PLAIN_LABEL,
        errors: false,
    },
    TracingRow {
        child: "fmt-plain",
        library: FMT_LIBRARY,
        label: PLAIN_LABEL,
        errors: false,
    },
];

/// The log file of the child `name` inside the log folder (both l4rs rows write the file of
/// [`CONFIG`]).
pub fn log_file(dir: &Path, name: &str) -> std::path::PathBuf {
    if name.starts_with("l4rs") {
        dir.join("tracing-l4rs.log")
    } else {
        dir.join(format!("tracing-{name}.log"))
    }
}

/// The l4rs configuration of the `--tracing` row: the sample's File logger, appender and
/// pattern; the events' error field is their throwable, which `%ex{full}` prints.
pub const CONFIG: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!-- The tracing row of l4rs-bench: the File row of config-samples/log4j2-appender.xml for events sent through tracing::debug!. -->
<Configuration name="log4j2AppenderTracing" status="error">
    <Properties>
        <Property name="pattern">%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %pid %t %C.%M:%L - %msg %ex{full} %n</Property>
    </Properties>
    <Appenders>
        <File name="File" fileName="${sys:bench.dir}/tracing-l4rs.log">
            <PatternLayout pattern="${pattern}"/>
        </File>
    </Appenders>
    <Loggers>
        <Logger name="FileLogger" level="debug" additivity="false">
            <AppenderRef ref="File"/>
        </Logger>
        <Root level="error"/>
    </Loggers>
</Configuration>
"#;

/// Runs `row` in a child process.
pub fn run_in_child(
    row: &TracingRow,
    threads: usize,
    options: &Options,
    dir: &Path,
    progress: &Progress,
) -> Row {
    crate::peers::run_child(
        &ChildRow {
            flag: "--tracing-child",
            name: row.child,
            label: row.label,
            library: row.library,
            asynchronous: false,
        },
        threads,
        options,
        dir,
        progress,
    )
}

/// The child side: runs the row `name` and prints its `RESULT` (or `SKIPPED`) line. Returns
/// the exit status.
pub fn child(name: &str, options: &Options) -> i32 {
    let threads = options.threads.first().copied().unwrap_or(4);
    let Some(row) = ROWS.iter().find(|row| row.child == name) else {
        println!("SKIPPED appender={LABEL} lib={name} reason=\"unknown row\"");
        return 2;
    };
    let dir = match crate::bench::log_dir(options) {
        Ok(dir) => dir,
        Err(reason) => {
            println!(
                "SKIPPED appender={} threads={threads} lib={} reason=\"{reason}\"",
                row.label, row.library
            );
            return 1;
        }
    };
    let row = run_here(row, threads, options, &dir);
    println!("{}", row.result_line());
    0
}

#[cfg(feature = "tracing")]
fn run_here(row: &TracingRow, threads: usize, options: &Options, dir: &Path) -> Row {
    imp::run(row, threads, options, dir)
}

#[cfg(not(feature = "tracing"))]
fn run_here(row: &TracingRow, threads: usize, _: &Options, _: &Path) -> Row {
    Row {
        label: row.label.into(),
        library: row.library.into(),
        threads,
        asynchronous: false,
        outcome: crate::report::Outcome::Skipped("built without the tracing feature".into()),
    }
}

/// The line of one pairing: ops/ms ratio and bytes allocated per operation, and with
/// `verdicts` (`--verdicts`) whether [`VS_FMT_TARGET`] and 0 B/op were met.
pub fn verdict(ratio: &crate::report::Ratio, each_round: &str, verdicts: bool) -> String {
    let met = ratio.ops_ratio >= VS_FMT_TARGET && ratio.ours_alloc_per_op == 0.0;
    let target = format!(">= {VS_FMT_TARGET}x and 0 B/op");
    let verdict = crate::report::verdict_note(verdicts, &target, met);
    format!(
        "{} at {} threads: l4rs's tracing layer is {:.1}x tracing-subscriber's fmt layer in ops/ms{each_round}; allocated {:.0} B/op vs {:.0} B/op{verdict}",
        ratio.label,
        ratio.threads,
        ratio.ops_ratio,
        ratio.ours_alloc_per_op,
        ratio.theirs_alloc_per_op,
    )
}

#[cfg(feature = "tracing")]
pub(crate) mod imp {
    use std::path::Path;

    use crate::args::Options;
    use crate::bench_message;
    use crate::progress::Progress;
    use crate::report::{Measurement, Outcome, Row};
    use crate::runner;
    use crate::workload::{fixture, Workload};

    /// The workload's error as one value for every `tracing` subscriber: its `Display` is its
    /// message, then its 101 frames as Java prints them (`\n\tat module::function(file:line)`),
    /// written straight from the frames resolved once, without allocating. A subscriber that
    /// prints the error (the fmt layer) and one that makes it a throwable (l4rs's, through the
    /// same `Display`) write the same text.
    #[derive(Debug)]
    pub(crate) struct FramedError {
        frames: &'static [l4rs::StackFrame],
    }

    impl std::fmt::Display for FramedError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            std::fmt::Display::fmt(&fixture().error, f)?;
            for frame in self.frames {
                f.write_str("\n\tat ")?;
                if !frame.class.is_empty() {
                    f.write_str(&frame.class)?;
                    f.write_str(match frame.style {
                        l4rs::core::throwable::FrameStyle::Java => ".",
                        l4rs::core::throwable::FrameStyle::Rust => "::",
                    })?;
                }
                f.write_str(&frame.method)?;
                match &frame.file {
                    Some(file) if frame.line >= 0 => write!(f, "({file}:{})", frame.line)?,
                    Some(file) => write!(f, "({file})")?,
                    None => f.write_str("(Unknown Source)")?,
                }
            }
            Ok(())
        }
    }

    impl std::error::Error for FramedError {}

    /// The workload's error as the rows pass it.
    pub(crate) fn framed_error() -> &'static FramedError {
        static ERROR: std::sync::OnceLock<FramedError> = std::sync::OnceLock::new();
        ERROR.get_or_init(|| FramedError {
            frames: fixture().throwable.frames(),
        })
    }

    /// The workload as `tracing` calls to the sample's File logger, the error as `tracing`'s error
    /// value. With `errors` false every operation is the plain event.
    pub(crate) struct TracingCalls {
        pub errors: bool,
    }

    impl Workload for TracingCalls {
        #[inline(never)]
        fn plain(&self) {
            tracing::debug!(target: "FileLogger", bench_message!());
        }

        #[inline(never)]
        fn with_error(&self) {
            if !self.errors {
                return self.plain();
            }
            let error: &(dyn std::error::Error + 'static) = framed_error();
            tracing::debug!(target: "FileLogger", error, bench_message!());
        }
    }

    /// Installs tracing-subscriber's fmt layer writing `path`: the `tracing` peer's setup.
    pub(crate) fn install_fmt(path: &Path) -> Result<(), String> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let name = path.file_name().unwrap_or_default();
        // `rolling::never` is tracing-appender's plain file; it writes each event straight to
        // the file (no buffer), as an immediate-flush appender.
        let writer = tracing_appender::rolling::never(dir, name);
        let subscriber = tracing_subscriber::fmt()
            .with_writer(writer)
            .with_max_level(tracing::Level::DEBUG)
            .with_thread_names(true)
            .with_file(true)
            .with_line_number(true)
            .finish();
        tracing::subscriber::set_global_default(subscriber).map_err(|e| e.to_string())
    }

    /// Puts the row's configuration in force and installs l4rs's layer.
    fn install_l4rs(dir: &Path) -> Result<(), String> {
        use tracing_subscriber::prelude::*;
        let config = dir.join("log4j2-tracing.xml");
        std::fs::write(&config, super::CONFIG).map_err(|e| format!("{}: {e}", config.display()))?;
        l4rs::config::set_system_property(crate::sample::DIR_PROPERTY, dir.display().to_string());
        l4rs::init_with_file(&config).map_err(|e| e.to_string())?;
        tracing_subscriber::registry()
            .with(l4rs::tracing::layer())
            .try_init()
            .map_err(|e| e.to_string())
    }

    /// Runs `row` in this (child) process.
    pub(crate) fn run(
        row: &super::TracingRow,
        threads: usize,
        options: &Options,
        dir: &Path,
    ) -> Row {
        let path = super::log_file(dir, row.child);
        let _ = std::fs::remove_file(&path);
        let _ = framed_error();
        let installed = if row.library == "l4rs" {
            install_l4rs(dir)
        } else {
            install_fmt(&path)
        };
        let outcome = match installed {
            Err(reason) => Outcome::Skipped(reason),
            Ok(()) => {
                let sample = runner::run(
                    &TracingCalls { errors: row.errors },
                    threads,
                    options.warmup,
                    options.measure,
                    &Progress::hidden(),
                    &|| {},
                );
                l4rs::shutdown();
                Outcome::Measured(Measurement::of_sample(
                    &sample,
                    std::fs::metadata(&path).map_or(0, |m| m.len()),
                ))
            }
        };
        Row {
            label: row.label.into(),
            library: row.library.into(),
            threads,
            asynchronous: false,
            outcome,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Ratio;

    fn ratio(ops_ratio: f64, ours_alloc_per_op: f64) -> Ratio {
        Ratio {
            label: LABEL.into(),
            threads: 4,
            other: FMT_LIBRARY.into(),
            ops_ratio,
            ours_alloc_per_op,
            theirs_alloc_per_op: 120.0,
            ours_limit_share: None,
            ceiling_ratio: None,
            ceiling_limit_share: None,
        }
    }

    #[test]
    fn each_l4rs_row_is_followed_by_its_fmt_row() {
        for pair in ROWS.chunks(2) {
            assert_eq!(pair[0].library, "l4rs");
            assert_eq!(pair[1].library, FMT_LIBRARY);
            assert_eq!(
                (pair[0].label, pair[0].errors),
                (pair[1].label, pair[1].errors)
            );
        }
        assert_eq!(
            log_file(Path::new("/x"), "l4rs-plain"),
            Path::new("/x/tracing-l4rs.log")
        );
        assert_eq!(
            log_file(Path::new("/x"), "fmt-plain"),
            Path::new("/x/tracing-fmt-plain.log")
        );
    }

    #[test]
    fn the_verdict_needs_the_ratio_and_no_allocation() {
        assert_eq!(
            verdict(&ratio(2.04, 0.0), "", true),
            "tracing-File at 4 threads: l4rs's tracing layer is 2.0x tracing-subscriber's fmt layer in ops/ms; allocated 0 B/op vs 120 B/op (target >= 1.5x and 0 B/op: met)"
        );
        assert!(verdict(&ratio(1.4, 0.0), "", true).ends_with("missed)"));
        assert!(verdict(&ratio(3.0, 8.0), "", true).ends_with("missed)"));
        assert!(verdict(&ratio(2.04, 0.0), "", false).ends_with("vs 120 B/op"));
    }

    #[test]
    fn the_configuration_is_the_sample_file_row() {
        let configuration = l4rs::config::load_str(CONFIG, None).expect("parses");
        assert!(
            configuration.diagnostics.is_empty(),
            "{:?}",
            configuration.diagnostics
        );
        let sample = include_str!("../../../config-samples/log4j2-appender.xml");
        let pattern = |xml: &str| {
            let start = xml.find(r#"name="pattern">"#).expect("a pattern property") + 15;
            xml[start..start + xml[start..].find("</Property>").unwrap()].to_string()
        };
        assert_eq!(pattern(CONFIG), pattern(sample));
        assert!(CONFIG.contains(r#"<Logger name="FileLogger" level="debug" additivity="false">"#));
    }

    #[cfg(feature = "tracing")]
    #[test]
    fn the_error_displays_its_frames_as_the_workload_throwable_prints_them() {
        let throwable = &crate::workload::fixture().throwable;
        let mut expected = throwable.message().expect("a message").to_string();
        for frame in throwable.frames() {
            expected.push_str("\n\tat ");
            frame.write_to(&mut expected);
        }
        assert_eq!(imp::framed_error().to_string(), expected);
        assert_eq!(
            throwable.frames().len(),
            crate::workload::RECURSION_DEPTH + 1
        );
    }
}
