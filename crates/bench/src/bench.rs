//! The run: for each thread count and each appender (or `--logger`), the raw bandwidth of the
//! folder, then l4rs, then log4j2 (`--vs-log4j2`) right after on the same machine state; then
//! the peers (`--peers`); then the report.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::args::{self, Command, Options};
use crate::java::{self, Harness, JavaRun};
use crate::ours::{self, L4rsWorkload, DIR_PROPERTY, STUDY_CONFIG};
use crate::progress::Progress;
use crate::report::{self, Measurement, Outcome, Row};
use crate::{alloc, disk, peers, runner};

/// The raw bandwidth probe writes for half the measured window, within these bounds: long
/// enough to hit the same writeback throttling a row meets, short enough to keep runs quick.
const RAW_PROBE_MIN: Duration = Duration::from_millis(500);
const RAW_PROBE_MAX: Duration = Duration::from_secs(2);
/// At most this many bytes per raw probe (a fast tmpfs would otherwise fill memory).
const RAW_PROBE_CAP: u64 = 4 << 30;
/// A JVM's start and stop, for the progress estimate only.
const JVM_OVERHEAD_SECONDS: f64 = 1.5;

/// One benchmarked logger: the row label, the logger, and whether its files are deleted first.
struct Target {
    label: String,
    logger: String,
}

/// Parses `args` (without the program name), runs, prints, and returns the exit status.
pub fn main_with_args<I: IntoIterator<Item = String>>(args: I) -> i32 {
    match args::parse(args) {
        Err(message) => {
            eprintln!("l4rs-bench: {message}");
            2
        }
        Ok(Command::Help) => {
            print!("{}", args::USAGE);
            0
        }
        Ok(Command::Run(options)) => match &options.peer_child {
            Some(name) => peers::child(name, &options),
            None => match run(&options) {
                Ok(()) => 0,
                Err(message) => {
                    eprintln!("l4rs-bench: {message}");
                    1
                }
            },
        },
    }
}

/// The folder the bench keeps its configuration copy, Java classes and chart in.
pub fn output_base() -> PathBuf {
    crate::workspace_root().join("target/l4rs-bench")
}

/// The log folder: `--dir`, else `target/l4rs-bench/logs`; created and made absolute (the
/// Java harness and the configuration's `${sys:bench.dir}` get the same path).
pub fn log_dir(options: &Options) -> Result<PathBuf, String> {
    let dir = options
        .dir
        .clone()
        .unwrap_or_else(|| output_base().join("logs"));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    dir.canonicalize()
        .map_err(|e| format!("{}: {e}", dir.display()))
}

fn run(options: &Options) -> Result<(), String> {
    if options.peers && !peers::AVAILABLE {
        return Err("--peers needs the peers feature: cargo run --release -p l4rs-bench --features peers -- --peers".into());
    }
    let counting = alloc::is_counting();
    if !counting {
        eprintln!("l4rs-bench: warning: the counting allocator is not installed; allocation figures read 0");
    }
    let base = output_base();
    std::fs::create_dir_all(&base).map_err(|e| format!("{}: {e}", base.display()))?;
    let dir = log_dir(options)?;
    l4rs::config::set_system_property(DIR_PROPERTY, dir.display().to_string());

    let (config, study) = match &options.config {
        Some(path) => (path.clone(), false),
        None => {
            let path = base.join("log4j2-appender.xml");
            std::fs::write(&path, STUDY_CONFIG).map_err(|e| format!("{}: {e}", path.display()))?;
            (path, true)
        }
    };
    let targets: Vec<Target> = if study {
        options
            .appenders
            .iter()
            .map(|a| Target {
                label: a.name.to_string(),
                logger: a.logger.to_string(),
            })
            .collect()
    } else {
        options
            .loggers
            .iter()
            .map(|l| Target {
                label: l.clone(),
                logger: l.clone(),
            })
            .collect()
    };

    let mut java_rows_reason = None;
    let mut harness = None;
    if options.vs_log4j2 {
        match java::prepare(&base.join("java-classes")) {
            Ok(h) => harness = Some(h),
            Err(reason) => java_rows_reason = Some(reason),
        }
    }

    let window = (options.warmup + options.measure).as_secs_f64();
    let probe = (options.measure / 2).clamp(RAW_PROBE_MIN, RAW_PROBE_MAX);
    let raw = probe.as_secs_f64();
    let per_target = raw
        + window
        + if harness.is_some() {
            window + JVM_OVERHEAD_SECONDS
        } else {
            0.0
        };
    let peer_count = if options.peers { peers::PEERS.len() } else { 0 };
    let total = options.threads.len() as f64
        * (targets.len() as f64 * per_target + peer_count as f64 * (raw + window + 0.5));
    let progress = if options.json {
        Progress::hidden()
    } else {
        Progress::new(total)
    };

    let mut rows = Vec::new();
    for &threads in &options.threads {
        for target in &targets {
            if study {
                // Deleted before the probe too: the dirty pages of a deleted file are dropped,
                // not written back, so the probe does not pay for this row's previous output.
                delete_files(&config, &target.logger);
            }
            progress.step(&format!("{} · raw write bandwidth", target.label), raw);
            let raw_mb_per_s = disk::raw_write_bandwidth(&dir, probe, RAW_PROBE_CAP).ok();
            progress.step(
                &format!("{} · l4rs · {threads} threads", target.label),
                window,
            );
            let mut row = l4rs_row(&config, study, target, threads, options, &progress);
            attach_raw(&mut row, raw_mb_per_s);
            rows.push(row);
            if options.vs_log4j2 {
                progress.step(
                    &format!("{} · log4j2 · {threads} threads", target.label),
                    window + JVM_OVERHEAD_SECONDS,
                );
                let mut row = java_row(
                    harness.as_mut(),
                    java_rows_reason.as_deref(),
                    &config,
                    study,
                    target,
                    threads,
                    options,
                    &dir,
                );
                attach_raw(&mut row, raw_mb_per_s);
                rows.push(row);
            }
        }
        if options.peers {
            for peer in peers::PEERS {
                let _ = std::fs::remove_file(peers::log_file(&dir, peer));
                progress.step(&format!("{} · raw write bandwidth", peer.name), raw);
                let raw_mb_per_s = disk::raw_write_bandwidth(&dir, probe, RAW_PROBE_CAP).ok();
                progress.step(&format!("{} · {threads} threads", peer.name), window + 0.5);
                let mut row = peers::run_in_child(peer, threads, options, &dir, &progress);
                attach_raw(&mut row, raw_mb_per_s);
                rows.push(row);
            }
        }
    }
    progress.finish();

    let ratios = report::ratios(&rows, "log4j2");
    let machine = machine_info(
        &dir,
        harness.as_ref().and_then(|h| h.version.clone()),
        counting,
    );
    if options.json {
        println!("{}", report::json(&rows, &ratios, &machine));
        return Ok(());
    }
    println!(
        "l4rs-bench · {} · {} · logs in {}",
        machine["date"].as_str().unwrap_or(""),
        machine["cpu"].as_str().unwrap_or(""),
        dir.display()
    );
    println!(
        "workload: DEBUG, 100-char message, 20% with a 101-frame error rendered by %ex{{full}}; {} s warm-up, {} s measured\n",
        options.warmup.as_secs_f64(),
        options.measure.as_secs_f64()
    );
    print!("{}", report::table(&rows));
    if rows
        .iter()
        .filter_map(Row::measurement)
        .any(|m| m.limit_share().is_some_and(|s| s > 1.0))
    {
        println!("(a share above 100%: the raw probe met heavier writeback throttling than the row did; this disk's bandwidth varies a lot from second to second)");
    }
    if !ratios.is_empty() {
        println!();
        for ratio in &ratios {
            println!(
                "{} at {} threads: l4rs is {:.1}x log4j2 in ops/ms",
                ratio.label, ratio.threads, ratio.ops_ratio
            );
        }
    }
    if let Some(reason) = &java_rows_reason {
        println!("\nlog4j2 rows skipped: {reason}");
    }
    println!();
    for row in &rows {
        println!("{}", row.result_line());
    }
    let chart = base.join("l4rs-bench.svg");
    let title = format!(
        "l4rs-bench · {} · {}",
        machine["date"].as_str().unwrap_or(""),
        machine["cpu"].as_str().unwrap_or("")
    );
    match std::fs::write(&chart, report::svg(&rows, &title)) {
        Ok(()) => println!("\nchart: {}", chart.display()),
        Err(e) => eprintln!("l4rs-bench: cannot write {}: {e}", chart.display()),
    }
    Ok(())
}

fn attach_raw(row: &mut Row, raw_mb_per_s: Option<f64>) {
    if let Outcome::Measured(m) = &mut row.outcome {
        m.raw_mb_per_s = raw_mb_per_s;
    }
}

/// Deletes the files `logger` writes (the study's rows start from no file, as the study's).
fn delete_files(config: &Path, logger: &str) {
    if let Ok(route) = planned_route(config, logger) {
        for file in &route.files {
            let _ = std::fs::remove_file(file);
        }
    }
}

/// Loads the configuration without starting it, to find the logger's route.
fn planned_route(config: &Path, logger: &str) -> Result<ours::Route, String> {
    let configuration = l4rs::config::load_file(config).map_err(|e| e.to_string())?;
    Ok(ours::route(&configuration, logger))
}

fn l4rs_row(
    config: &Path,
    study: bool,
    target: &Target,
    threads: usize,
    options: &Options,
    progress: &Progress,
) -> Row {
    let row = |outcome| Row {
        label: target.label.clone(),
        library: "l4rs".into(),
        threads,
        asynchronous: false,
        outcome,
    };
    let route = match planned_route(config, &target.logger) {
        Ok(route) => route,
        Err(reason) => return row(Outcome::Skipped(reason)),
    };
    l4rs::shutdown();
    if study {
        for file in &route.files {
            let _ = std::fs::remove_file(file);
        }
    }
    let problems = ours::restart(config).err();
    let missing = ours::missing_appenders(&route, &l4rs::active_appenders());
    if !missing.is_empty() {
        l4rs::shutdown();
        return row(Outcome::Skipped(format!(
            "appender {} is not available in this build of l4rs, so {} would write nowhere{}",
            missing.join(", "),
            target.logger,
            problems.map_or(String::new(), |p| format!(" ({p})"))
        )));
    }
    let before = ours::total_size(&route.files);
    let workload = L4rsWorkload::new(&target.logger);
    let sample = runner::run(
        &workload,
        threads,
        options.warmup,
        options.measure,
        progress,
    );
    l4rs::shutdown();
    let written = ours::total_size(&route.files).saturating_sub(before);
    row(Outcome::Measured(Measurement {
        ops: sample.ops,
        seconds: sample.seconds,
        alloc_bytes: sample.alloc.bytes,
        alloc_count: Some(sample.alloc.count),
        events: sample.events,
        bytes_written: written,
        raw_mb_per_s: None,
    }))
}

#[allow(clippy::too_many_arguments)] // one call site; a struct would only rename them
fn java_row(
    harness: Option<&mut Harness>,
    unavailable: Option<&str>,
    config: &Path,
    study: bool,
    target: &Target,
    threads: usize,
    options: &Options,
    dir: &Path,
) -> Row {
    let row = |outcome| Row {
        label: target.label.clone(),
        library: "log4j2".into(),
        threads,
        asynchronous: false,
        outcome,
    };
    let Some(harness) = harness else {
        return row(Outcome::Skipped(
            unavailable.unwrap_or("no Java harness").to_string(),
        ));
    };
    let route = match planned_route(config, &target.logger) {
        Ok(route) => route,
        Err(reason) => return row(Outcome::Skipped(reason)),
    };
    if study {
        for file in &route.files {
            let _ = std::fs::remove_file(file);
        }
    }
    let outcome = harness.run(&JavaRun {
        config,
        logger: &target.logger,
        label: &target.label,
        files: &route.files,
        dir,
        threads,
        warmup: options.warmup,
        measure: options.measure,
    });
    row(match outcome {
        Ok(measurement) => Outcome::Measured(measurement),
        Err(reason) => Outcome::Skipped(reason),
    })
}

/// Date, processor, cores, kernel and versions, for the report's header and JSON.
fn machine_info(dir: &Path, java: Option<String>, counting: bool) -> serde_json::Value {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    serde_json::json!({
        "date": jiff::Timestamp::now().strftime("%Y-%m-%d %H:%M UTC").to_string(),
        "cpu": format!("{cpu}, {cores} cores"),
        "kernel": kernel,
        "log_dir": dir.display().to_string(),
        "l4rs": env!("CARGO_PKG_VERSION"),
        "java": java,
        "allocations_counted": counting,
    })
}
