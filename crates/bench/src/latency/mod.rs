//! `--latency`: tail latency at a fixed offered rate. Each row's threads call at a fixed rate
//! each ([`schedule`]), every call is timed from its scheduled start on the monotonic clock
//! into a preallocated [`histogram`], and l4rs's percentiles are printed beside log4j2's
//! (the Java harness runs the same schedule and histogram) and the machine's floors
//! ([`floor`]), with a chart ([`chart`]).
//!
//! The rate per thread is `--rate` when given; else half of log4j2's measured maximum for the
//! row (`--vs-log4j2`: a throughput run of the harness first), else half of l4rs's own.

pub mod chart;
pub mod floor;
pub mod histogram;
pub mod record;
pub mod result;
pub mod schedule;
pub mod settle;

use std::path::Path;

use crate::args::Options;
use crate::java::{self, Harness, JavaRun};
use crate::ours::{self, L4rsWorkload};
use crate::progress::Progress;
use crate::runner;
use crate::sample::{self, Mode, SampleAppender, DIR_PROPERTY, SAMPLE_APPENDERS};
use result::Latency;

/// The rows `--latency` runs unless `--appender` or `--mode` narrow the sample's nine: the
/// synchronous File and MemoryMappedFile appenders and File behind an AsyncLogger.
pub const DEFAULT_ROWS: [(Mode, &str); 3] = [
    (Mode::Sync, "File"),
    (Mode::Sync, "MemoryMappedFile"),
    (Mode::AsyncLogger, "File"),
];

/// The offered rate is this share of the measured maximum.
pub const RATE_SHARE: f64 = 0.5;

/// The (mode, appender) rows to run for `options`.
pub fn rows(options: &Options) -> Vec<(Mode, SampleAppender)> {
    let untouched = options.appenders == SAMPLE_APPENDERS && options.modes == Mode::ALL;
    if untouched {
        DEFAULT_ROWS
            .iter()
            .filter_map(|(mode, name)| {
                let appender = SAMPLE_APPENDERS.iter().find(|a| a.name == *name)?;
                Some((*mode, *appender))
            })
            .collect()
    } else {
        options
            .modes
            .iter()
            .flat_map(|mode| options.appenders.iter().map(move |a| (*mode, *a)))
            .collect()
    }
}

/// Calls per second per thread for a row whose maximum is `ops_per_ms` over `threads`.
pub fn rate_from_max(ops_per_ms: f64, threads: usize) -> f64 {
    ops_per_ms * 1000.0 / threads.max(1) as f64 * RATE_SHARE
}

/// Where a row's rate came from, for the report.
#[derive(Clone, Debug, PartialEq)]
pub enum RateSource {
    /// `--rate`.
    Given,
    /// Half of this library's measured maximum, in ops/ms.
    HalfOf(&'static str, f64),
}

/// Runs the latency rows, prints the report, writes the chart.
pub fn run(options: &Options) -> Result<(), String> {
    if options.config.is_some() {
        return Err("--latency runs the sample's rows (config-samples/log4j2-appender.xml); it does not take --config".into());
    }
    let base = crate::bench::output_base();
    std::fs::create_dir_all(&base).map_err(|e| format!("{}: {e}", base.display()))?;
    let dir = crate::bench::log_dir(options)?;
    l4rs::config::set_system_property(DIR_PROPERTY, dir.display().to_string());
    let (mut harness, java_missing) = java::prepare_if(options.vs_log4j2, &base);
    let mut results = Vec::new();
    let mut sources = Vec::new();
    for &threads in &options.threads {
        for (mode, appender) in rows(options) {
            let config = base.join(sample::config_file(mode));
            std::fs::write(&config, sample::config(mode))
                .map_err(|e| format!("{}: {e}", config.display()))?;
            let label = mode.label(&appender);
            let row = Row {
                label: &label,
                logger: appender.logger,
                config: &config,
                dir: &dir,
                threads,
            };
            if !options.json {
                eprintln!("l4rs-bench --latency: {label} · {threads} threads");
            }
            let (rate, source) = match options.rate {
                Some(rate) => (rate, RateSource::Given),
                None => match harness.as_mut() {
                    Some(h) => {
                        let max = java_max(h, &row, options)?;
                        (
                            rate_from_max(max, threads),
                            RateSource::HalfOf("log4j2", max),
                        )
                    }
                    None => {
                        let max = l4rs_max(&row, options)?;
                        (rate_from_max(max, threads), RateSource::HalfOf("l4rs", max))
                    }
                },
            };
            let floors = floor::Run {
                label: &label,
                threads,
                rate_per_thread: rate,
                warmup: options.warmup,
                measure: options.measure,
            };
            // The no-op floor brackets the libraries' windows, one window before and one
            // after, so that a floor taken while the kernel writes their files back (or while
            // anything else disturbs the machine) does not stand for the machine's own tail.
            let no_op_before = floors.no_op();
            let (ours, event_bytes) = l4rs_latency(&row, rate, options)?;
            results.push(ours);
            if let Some(h) = harness.as_mut() {
                match java_latency(h, &row, rate, options) {
                    Ok(latency) => results.push(latency),
                    Err(reason) => eprintln!("l4rs-bench: log4j2 {label}: {reason}"),
                }
            }
            results.push(floor::quieter(no_op_before, floors.no_op()));
            let plan = crate::ceiling::Plan::for_sample(&appender, mode);
            if plan == crate::ceiling::Plan::APPEND_PER_CALL {
                match floors.write_only(&dir, event_bytes, !options.no_quiet_wait) {
                    Ok(latency) => results.push(latency),
                    Err(reason) => eprintln!("l4rs-bench: {label}: no write(2) floor: {reason}"),
                }
            }
            sources.push((label.clone(), threads, rate, source));
        }
    }
    let chart = base.join("l4rs-bench-latency.svg");
    let title = format!(
        "l4rs-bench --latency · {}",
        jiff::Timestamp::now().strftime("%Y-%m-%d %H:%M UTC")
    );
    if let Err(e) = std::fs::write(&chart, chart::svg(&results, &title)) {
        eprintln!("l4rs-bench: cannot write {}: {e}", chart.display());
    }
    if options.json {
        let rows: Vec<_> = results.iter().map(Latency::json).collect();
        println!("{}", serde_json::json!({ "latency": rows }));
        eprintln!("chart: {}", chart.display());
        return Ok(());
    }
    println!(
        "latency at a fixed offered rate: each call timed from its scheduled start (a stalled call makes the ones due behind it late, and that counts); {} s warm-up, {} s measured",
        options.warmup.as_secs_f64(),
        options.measure.as_secs_f64()
    );
    // The pauses that reporting causes after each row's deletion are what the quiet waits are
    // for; a reader of the windows should know the machine has them.
    if crate::page_reporting::free_page_reporting(Path::new("/")) == Some(true) {
        println!("note: {}", crate::page_reporting::NOTE);
    }
    for (label, threads, rate, source) in &sources {
        let why = match source {
            RateSource::Given => "--rate".to_string(),
            RateSource::HalfOf(library, max) => {
                format!("half of {library}'s measured maximum, {max:.1} ops/ms")
            }
        };
        println!("  {label} at {threads} threads: {rate:.0} calls/s per thread ({why})");
    }
    println!();
    print!("{}", result::table(&results));
    for verdict in result::comparisons(&results, options.verdicts) {
        println!("{verdict}");
    }
    if let Some(reason) = java_missing {
        println!("\nlog4j2 rows skipped: {reason}");
    }
    println!();
    for latency in &results {
        println!("{}", latency.line());
    }
    println!("\nchart: {}", chart.display());
    Ok(())
}

/// One row of a latency run.
struct Row<'a> {
    label: &'a str,
    logger: &'a str,
    config: &'a Path,
    dir: &'a Path,
    threads: usize,
}

fn fresh_files(row: &Row<'_>, options: &Options) -> Result<Vec<std::path::PathBuf>, String> {
    let configuration = l4rs::config::load_file(row.config).map_err(|e| e.to_string())?;
    let route = ours::route(&configuration, row.logger);
    // Left by an earlier run (`--keep-logs`, or one stopped midway): a large deletion is
    // waited for as after a row.
    settle::delete(&route.files, !options.no_quiet_wait);
    Ok(route.files)
}

fn l4rs_max(row: &Row<'_>, options: &Options) -> Result<f64, String> {
    let files = fresh_files(row, options)?;
    ours::restart(row.config)?;
    let sample = runner::run(
        &L4rsWorkload::new(row.logger),
        row.threads,
        options.warmup,
        options.measure,
        &Progress::hidden(),
        &crate::bench::wait_for_empty_queues,
    );
    l4rs::shutdown();
    remove(&files, options);
    Ok(sample.ops as f64 / (sample.seconds * 1000.0).max(1e-9))
}

/// l4rs's latency for `row`, and the bytes per event its files received (for the `write(2)`
/// floor).
fn l4rs_latency(row: &Row<'_>, rate: f64, options: &Options) -> Result<(Latency, usize), String> {
    let files = fresh_files(row, options)?;
    ours::restart(row.config)?;
    let recorded = record::run(
        &L4rsWorkload::new(row.logger),
        row.threads,
        rate,
        options.warmup,
        options.measure,
        &crate::bench::wait_for_empty_queues,
        &|| settle::write_back(&files),
    );
    l4rs::shutdown();
    let written: u64 = files
        .iter()
        .filter_map(|file| std::fs::metadata(file).ok())
        .map(|metadata| metadata.len())
        .sum();
    let event_bytes = (written / recorded.calls_made.max(1)).max(1) as usize;
    remove(&files, options);
    if recorded.alloc_bytes > 0 {
        eprintln!(
            "l4rs-bench: {}: the timed calls allocated {} B",
            row.label, recorded.alloc_bytes
        );
    }
    let latency = Latency::from_histogram(
        row.label,
        "l4rs",
        row.threads,
        rate,
        recorded.due,
        &recorded.histogram,
    );
    Ok((latency, event_bytes))
}

fn java_run<'a>(
    row: &'a Row<'a>,
    files: &'a [std::path::PathBuf],
    options: &Options,
) -> JavaRun<'a> {
    JavaRun {
        config: row.config,
        logger: row.logger,
        label: row.label,
        files,
        dir: row.dir,
        threads: row.threads,
        warmup: options.warmup,
        measure: options.measure,
    }
}

fn java_max(harness: &mut Harness, row: &Row<'_>, options: &Options) -> Result<f64, String> {
    let files = fresh_files(row, options)?;
    let measured = harness.run(&java_run(row, &files, options));
    remove(&files, options);
    measured
        .map(|m| m.ops_per_ms())
        .map_err(|reason| format!("log4j2's maximum for {}: {reason}", row.label))
}

fn java_latency(
    harness: &mut Harness,
    row: &Row<'_>,
    rate: f64,
    options: &Options,
) -> Result<Latency, String> {
    let files = fresh_files(row, options)?;
    let measured = harness.run_latency(&java_run(row, &files, options), rate);
    remove(&files, options);
    measured
}

/// Deletes a row's files once measured, unless `--keep-logs`, and waits for the machine to
/// go quiet after a large deletion unless `--no-quiet-wait` ([`settle::delete`]).
fn remove(files: &[std::path::PathBuf], options: &Options) {
    if !options.keep_logs {
        settle::delete(files, !options.no_quiet_wait);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_rows_are_file_mapped_file_and_async_logger_file() {
        let labels: Vec<String> = rows(&Options::default())
            .iter()
            .map(|(mode, a)| mode.label(a))
            .collect();
        assert_eq!(labels, ["File", "MemoryMappedFile", "AsyncLogger-File"]);
        let narrowed = Options {
            appenders: vec![SAMPLE_APPENDERS[1]],
            modes: vec![Mode::Sync, Mode::AsyncAppender],
            ..Options::default()
        };
        let labels: Vec<String> = rows(&narrowed)
            .iter()
            .map(|(mode, a)| mode.label(a))
            .collect();
        assert_eq!(
            labels,
            ["RandomAccessFile", "AsyncAppender-RandomAccessFile"]
        );
    }

    #[test]
    fn the_rate_is_half_the_maximum_shared_by_the_threads() {
        // 280 ops/ms over 4 threads is 70 000 calls/s each; half is 35 000.
        assert_eq!(rate_from_max(280.0, 4), 35_000.0);
        assert_eq!(rate_from_max(10.0, 0), 5_000.0);
    }
}
