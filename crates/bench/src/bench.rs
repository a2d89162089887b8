//! The run: for each thread count, each mode and each appender (or `--logger`), the raw
//! bandwidth of the folder, then l4rs; then (`--vs-log4j2`) the raw bandwidth again and log4j2
//! with the same configuration file, so both see the same machine state; then the peers
//! (`--peers`); then the report.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::args::{self, Command, KafkaRows, Options};
use crate::java::{self, Harness, JavaRun};
use crate::ours::{self, L4rsWorkload};
use crate::progress::Progress;
use crate::report::{self, Measurement, Outcome, Row};
use crate::sample::{self, Mode, DIR_PROPERTY};
use crate::{alloc, ceiling, disk, kafka_row, peers, runner, tracing_row};

/// At most this many bytes per raw probe round (a fast tmpfs would otherwise fill memory);
/// the probe itself is [`disk::Probe::for_row`].
const RAW_PROBE_CAP: u64 = 4 << 30;
/// A JVM's start and stop, for the progress estimate only.
const JVM_OVERHEAD_SECONDS: f64 = 1.5;

/// One benchmarked row: its label, the configuration file and logger it runs, and whether it
/// is one of the sample's (whose files the bench may delete).
struct Target {
    label: String,
    logger: String,
    config: PathBuf,
    from_sample: bool,
    /// How the row's kernel ceiling is measured (sample rows, whose appender is known).
    ceiling: Option<ceiling::Plan>,
    /// For a Kafka row, its mode: the row's configuration is written before each run, on a
    /// topic of its own ([`kafka_row`]).
    kafka: Option<Mode>,
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
        Ok(Command::Run(options)) => match (&options.peer_child, &options.tracing_child) {
            (Some(name), _) => peers::child(name, &options),
            (None, Some(name)) => tracing_row::child(name, &options),
            (None, None) => match run(&options) {
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
    if options.tracing && !tracing_row::AVAILABLE {
        return Err("--tracing needs the tracing feature: cargo run --release -p l4rs-bench --features tracing -- --tracing".into());
    }
    if options.latency {
        return crate::latency::run(options);
    }
    let counting = alloc::is_counting();
    if !counting {
        eprintln!("l4rs-bench: warning: the counting allocator is not installed; allocation figures read 0");
    }
    let base = output_base();
    std::fs::create_dir_all(&base).map_err(|e| format!("{}: {e}", base.display()))?;
    let dir = log_dir(options)?;
    l4rs::config::set_system_property(DIR_PROPERTY, dir.display().to_string());

    let broker = start_broker(options)?;
    let targets = targets(options, &base, broker.is_some())?;
    if options.ceiling && options.config.is_some() {
        eprintln!("l4rs-bench: --ceiling measures the sample's rows only (their appenders are known); ignored with --config");
    }
    let (mut harness, java_rows_reason) = java::prepare_if(options.vs_log4j2, &base);

    let window = (options.warmup + options.measure).as_secs_f64();
    // Every thread count's probe takes as long (only its writer count changes).
    let raw = disk::Probe::for_row(1, options.measure)
        .duration()
        .as_secs_f64();
    let per_target = raw
        + window
        + if harness.is_some() {
            raw + window + JVM_OVERHEAD_SECONDS
        } else {
            0.0
        }
        + if options.ceiling && options.config.is_none() {
            window
        } else {
            0.0
        };
    let peer_count = if options.peers {
        peers::PEERS.len() * peers::ErrorForm::ALL.len()
    } else {
        0
    } + if options.tracing {
        tracing_row::ROWS.len()
    } else {
        0
    };
    let total = (options.rounds * options.threads.len()) as f64
        * (targets.len() as f64 * per_target + peer_count as f64 * (raw + window + 0.5));
    let progress = if options.json {
        Progress::hidden()
    } else {
        Progress::new(total)
    };

    let plan = RoundPlan {
        options,
        targets: &targets,
        dir: &dir,
        java_unavailable: java_rows_reason.as_deref(),
        raw,
        window,
        progress: &progress,
        broker: broker.as_ref(),
    };
    let rounds: Vec<Vec<Row>> = (0..options.rounds)
        .map(|_| run_round(&plan, &mut harness))
        .collect();
    progress.finish();

    let mut machine = machine_info(
        &dir,
        harness.as_ref().and_then(|h| h.version.clone()),
        counting,
    );
    machine["rounds"] = options.rounds.into();
    let rows: Vec<Row> = report::median_rounds(&rounds)
        .into_iter()
        .map(|r| r.median)
        .collect();
    if options.json {
        let ratios: Vec<report::Ratio> = report::median_ratios(&rounds, "log4j2")
            .into_iter()
            .map(|r| r.median)
            .collect();
        let scaling: Vec<report::Scaling> = report::median_scaling(&rounds)
            .into_iter()
            .map(|r| r.median)
            .collect();
        println!(
            "{}",
            report::json(&rows, &ratios, &scaling, &machine, options.verdicts)
        );
        // stdout holds only the JSON document; the chart's path goes to stderr.
        if let Some(chart) = write_chart(&base, &rows, &machine) {
            eprintln!("chart: {}", chart.display());
        }
        return Ok(());
    }
    print!(
        "{}",
        report::text::render(&report::text::Report {
            options,
            dir: &dir,
            machine: &machine,
            rounds: &rounds,
            java_skipped: java_rows_reason.as_deref(),
        })
    );
    if let Some(chart) = write_chart(&base, &rows, &machine) {
        println!("\nchart: {}", chart.display());
    }
    Ok(())
}

/// What every round of a run shares.
struct RoundPlan<'a> {
    options: &'a Options,
    targets: &'a [Target],
    dir: &'a Path,
    /// Why the log4j2 rows cannot run, when asked for and the harness is missing.
    java_unavailable: Option<&'a str>,
    /// Seconds one raw-bandwidth probe takes (for the progress bar).
    raw: f64,
    /// Seconds of warm-up plus window (for the progress bar).
    window: f64,
    progress: &'a Progress,
    /// The local broker of the Kafka rows, when the run has them.
    broker: Option<&'a kafka_row::Broker>,
}

/// Runs every row once: each thread count, each target (l4rs, then log4j2 when asked), then
/// the peers.
fn run_round(plan: &RoundPlan<'_>, harness: &mut Option<Harness>) -> Vec<Row> {
    let RoundPlan {
        options,
        targets,
        dir,
        java_unavailable,
        raw,
        window,
        progress,
        broker,
    } = *plan;
    let mut rows = Vec::new();
    for &threads in &options.threads {
        let probe = disk::Probe::for_row(threads, options.measure);
        for target in targets {
            if let Some(mode) = target.kafka {
                // No raw probe or ceiling: the row's bytes go to the broker, not to a disk.
                progress.step(
                    &format!("{} · l4rs · {threads} threads", target.label),
                    window,
                );
                rows.push(kafka_l4rs_row(
                    target, mode, broker, threads, options, progress,
                ));
                if options.vs_log4j2 {
                    rows.push(Row {
                        label: target.label.clone(),
                        library: "log4j2".into(),
                        threads,
                        asynchronous: mode.is_async(),
                        outcome: Outcome::Skipped(
                            "log4j2's Kafka appender needs the kafka-clients jar, which the Java harness does not load".into(),
                        ),
                    });
                }
                continue;
            }
            let route = planned_route(&target.config, &target.logger);
            // The probe writes where this row's files go (a user configuration may log
            // elsewhere than --dir).
            let probe_dir = route
                .as_ref()
                .ok()
                .and_then(|r| {
                    // A direct-write rolling appender has no fileName: its pattern's folder.
                    let rolled: Vec<PathBuf> = r.rolled.iter().map(PathBuf::from).collect();
                    probe_folder(&r.files).or_else(|| probe_folder(&rolled))
                })
                .unwrap_or_else(|| dir.to_path_buf());
            if target.from_sample {
                // Deleted before the probe too: the dirty pages of a deleted file are dropped,
                // not written back, so the probe does not pay for an earlier run's output.
                delete_files(&target.config, &target.logger);
            }
            progress.step(&format!("{} · raw write bandwidth", target.label), raw);
            let raw_mb_per_s = disk::probe_bandwidth(&probe_dir, &probe, RAW_PROBE_CAP).ok();
            progress.step(
                &format!("{} · l4rs · {threads} threads", target.label),
                window,
            );
            let mut row = l4rs_row(target, threads, options, progress);
            attach_raw(&mut row, raw_mb_per_s);
            let ours = rows.len();
            rows.push(row);
            if target.from_sample && !options.keep_logs {
                delete_files(&target.config, &target.logger);
            }
            if options.vs_log4j2 {
                let mut raw_mb_per_s = None;
                if harness.is_some() {
                    progress.step(&format!("{} · raw write bandwidth", target.label), raw);
                    raw_mb_per_s = disk::probe_bandwidth(&probe_dir, &probe, RAW_PROBE_CAP).ok();
                }
                progress.step(
                    &format!("{} · log4j2 · {threads} threads", target.label),
                    window + JVM_OVERHEAD_SECONDS,
                );
                let mut row = java_row(
                    harness.as_mut(),
                    java_unavailable,
                    target,
                    threads,
                    options,
                    dir,
                );
                attach_raw(&mut row, raw_mb_per_s);
                rows.push(row);
                if target.from_sample && !options.keep_logs {
                    delete_files(&target.config, &target.logger);
                }
            }
            if options.ceiling {
                measure_ceiling(target, &mut rows[ours], &probe_dir, options, progress);
            }
        }
        if options.peers {
            // Both error forms (see `peers::compare`), std's backtrace first.
            for (form, peer) in peers::ErrorForm::ALL
                .iter()
                .flat_map(|form| peers::PEERS.iter().map(move |peer| (*form, peer)))
            {
                let _ = std::fs::remove_file(peers::log_file(dir, peer));
                progress.step(&format!("{} · raw write bandwidth", peer.name), raw);
                let raw_mb_per_s = disk::probe_bandwidth(dir, &probe, RAW_PROBE_CAP).ok();
                progress.step(&format!("{} · {threads} threads", peer.name), window + 0.5);
                let mut row = peers::run_in_child(peer, form, threads, options, dir, progress);
                attach_raw(&mut row, raw_mb_per_s);
                rows.push(row);
                if !options.keep_logs {
                    let _ = std::fs::remove_file(peers::log_file(dir, peer));
                }
            }
        }
        if options.tracing {
            // l4rs's layer, then the fmt layer right after it, each beside the raw bandwidth.
            for tracing in &tracing_row::ROWS {
                let file = tracing_row::log_file(dir, tracing.child);
                let _ = std::fs::remove_file(&file);
                progress.step(&format!("{} · raw write bandwidth", tracing.label), raw);
                let raw_mb_per_s = disk::probe_bandwidth(dir, &probe, RAW_PROBE_CAP).ok();
                progress.step(
                    &format!(
                        "{} · {} · {threads} threads",
                        tracing.label, tracing.library
                    ),
                    window + 0.5,
                );
                let mut row = tracing_row::run_in_child(tracing, threads, options, dir, progress);
                attach_raw(&mut row, raw_mb_per_s);
                rows.push(row);
                if !options.keep_logs {
                    let _ = std::fs::remove_file(&file);
                }
            }
        }
    }
    rows
}

/// Writes the run's SVG chart under `base`; its path, or `None` after saying why not.
fn write_chart(base: &Path, rows: &[Row], machine: &serde_json::Value) -> Option<PathBuf> {
    let chart = base.join("l4rs-bench.svg");
    let title = format!(
        "l4rs-bench · {} · {}",
        machine["date"].as_str().unwrap_or(""),
        machine["cpu"].as_str().unwrap_or("")
    );
    match std::fs::write(&chart, report::svg(rows, &title)) {
        Ok(()) => Some(chart),
        Err(e) => {
            eprintln!("l4rs-bench: cannot write {}: {e}", chart.display());
            None
        }
    }
}

/// Measures `target`'s kernel ceiling with the bytes per event its l4rs row wrote, and
/// attaches it to that row; says on stderr why not when it cannot.
fn measure_ceiling(
    target: &Target,
    ours: &mut Row,
    dir: &Path,
    options: &Options,
    progress: &Progress,
) {
    let Some(plan) = &target.ceiling else {
        return;
    };
    let threads = ours.threads;
    let Outcome::Measured(m) = &mut ours.outcome else {
        return;
    };
    if m.bytes_unknown || m.events == 0 {
        eprintln!(
            "l4rs-bench: {}: no ceiling without the row's bytes per event",
            target.label
        );
        return;
    }
    progress.step(
        &format!("{} · ceiling · {}", target.label, plan.describe(threads)),
        (options.warmup + options.measure).as_secs_f64(),
    );
    let event_bytes = m.bytes_per_event().round() as usize;
    match ceiling::measure(dir, plan, threads, event_bytes, options, progress) {
        Ok(ops_per_ms) => {
            m.ceiling_ops_per_ms = Some(ops_per_ms);
            m.ceiling_writers = Some(plan.writer_count(threads));
        }
        Err(reason) => eprintln!("l4rs-bench: {}: no ceiling: {reason}", target.label),
    }
}

fn attach_raw(row: &mut Row, raw_mb_per_s: Option<f64>) {
    if let Outcome::Measured(m) = &mut row.outcome {
        m.raw_mb_per_s = raw_mb_per_s;
    }
}

/// The rows to run: the sample's file appenders in each mode (each mode's configuration written
/// under `base`, where the Java harness reads it too) and, with `kafka`, the Kafka row of each
/// mode that has one; or the user's loggers.
fn targets(options: &Options, base: &Path, kafka: bool) -> Result<Vec<Target>, String> {
    if let Some(config) = &options.config {
        return Ok(options
            .loggers
            .iter()
            .map(|logger| Target {
                label: logger.clone(),
                logger: logger.clone(),
                config: config.clone(),
                from_sample: false,
                ceiling: None,
                kafka: None,
            })
            .collect());
    }
    let mut targets = Vec::new();
    for &mode in &options.modes {
        let path = base.join(sample::config_file(mode));
        std::fs::write(&path, sample::config(mode))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        for appender in &options.appenders {
            targets.push(Target {
                label: mode.label(appender),
                logger: appender.logger.to_string(),
                config: path.clone(),
                from_sample: true,
                ceiling: Some(ceiling::Plan::for_sample(appender, mode)),
                kafka: None,
            });
        }
        if kafka && kafka_row::MODES.contains(&mode) {
            targets.push(Target {
                label: kafka_row::label(mode),
                logger: kafka_row::LOGGER.to_string(),
                config: base.join(kafka_row::config_file(mode)),
                from_sample: false,
                ceiling: None,
                kafka: Some(mode),
            });
        }
    }
    Ok(targets)
}

/// The folder of the first file a row writes (made absolute against the working folder), if
/// it exists: the raw probe belongs on the same filesystem.
fn probe_folder(files: &[PathBuf]) -> Option<PathBuf> {
    let file = files.first()?;
    let absolute = if file.is_absolute() {
        file.clone()
    } else {
        std::env::current_dir().ok()?.join(file)
    };
    let folder = absolute.parent()?.to_path_buf();
    folder.is_dir().then_some(folder)
}

/// Deletes the files `logger` writes (the sample rows start from no file, as in the JMH benchmark the sample comes from).
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

/// `library`'s row of `target` at `threads` threads.
fn target_row(
    target: &Target,
    library: &str,
    threads: usize,
    asynchronous: bool,
    outcome: Outcome,
) -> Row {
    Row {
        label: target.label.clone(),
        library: library.into(),
        threads,
        asynchronous,
        outcome,
    }
}

/// Deletes the sample's log files of `route`, so that a row starts from empty files (a
/// `--config` row's files are the user's and stay).
fn clear_sample_files(target: &Target, route: &ours::Route) {
    if target.from_sample {
        for file in &route.files {
            let _ = std::fs::remove_file(file);
        }
    }
}

fn l4rs_row(target: &Target, threads: usize, options: &Options, progress: &Progress) -> Row {
    let row = |asynchronous, outcome| target_row(target, "l4rs", threads, asynchronous, outcome);
    let route = match planned_route(&target.config, &target.logger) {
        Ok(route) => route,
        Err(reason) => return row(false, Outcome::Skipped(reason)),
    };
    l4rs::shutdown();
    clear_sample_files(target, &route);
    // A rolling route is measured from its files at rest, before the restart: starting may
    // roll the current file (OnStartupTriggeringPolicy) into an archive that the rolling
    // worker is still compressing, while renames and compression keep the total, so the
    // files before the restart and after the shutdown (which joins that worker) compare
    // exactly. Other files are measured after the restart, as `append="false"` truncates.
    let rolling = !route.rolled.is_empty();
    let at_rest = rolling.then(|| ours::Written::snapshot(&route));
    // Files a retention policy deletes during the row take their bytes out of the count.
    let deletions = ours::DeletionWatch::start(&route);
    let problems = ours::restart(&target.config).err();
    // A broker row's events are delivered once the broker acknowledged them: its drain waits
    // for that too (`l4rs::flush()`), a file row's ends when its queues are empty.
    let flush_to_broker = || {
        wait_for_empty_queues();
        l4rs::flush();
    };
    let drain: &dyn Fn() = if target.kafka.is_some() {
        &flush_to_broker
    } else {
        &wait_for_empty_queues
    };
    let missing = ours::missing_appenders(&route, &l4rs::active_appenders());
    if !missing.is_empty() {
        l4rs::shutdown();
        return row(
            route.asynchronous,
            Outcome::Skipped(format!(
                "appender {} is not available in this build of l4rs, so {} would write nowhere{}",
                missing.join(", "),
                target.logger,
                problems.map_or(String::new(), |p| format!(" ({p})"))
            )),
        );
    }
    let before = at_rest.unwrap_or_else(|| ours::Written::snapshot(&route));
    // The queues' counters start with the configuration (restarted above); the dropped count
    // is process-wide, so its growth over the row is what this row lost.
    let dropped_before = l4rs::dropped_events();
    let workload = L4rsWorkload::new(&target.logger);
    let sample = runner::run(
        &workload,
        threads,
        options.warmup,
        options.measure,
        progress,
        drain,
    );
    // Outside the clock: flush() drains again (a no-op now) and flushes every appender, which
    // for MemoryMappedFile means msync to the disk, a durability step no row pays per event
    // and log4j2's harness does not time either.
    l4rs::flush();
    let stats = l4rs::async_queue_stats();
    let dropped = l4rs::dropped_events().saturating_sub(dropped_before);
    l4rs::shutdown();
    let after = ours::Written::snapshot(&route);
    let written = deletions
        .map_or(Ok(()), |watch| watch.check(&route, &after))
        .and_then(|()| after.added_since(&before));
    if let Err(reason) = &written {
        eprintln!("l4rs-bench: {}: {reason}", target.label);
    }
    let queued = (!stats.is_empty()).then(|| stats.iter().map(|s| s.enqueued).sum::<u64>());
    row(
        route.asynchronous,
        Outcome::Measured(Measurement {
            bytes_unknown: written.is_err(),
            dropped: Some(dropped),
            queued,
            ..Measurement::of_sample(&sample, *written.as_ref().unwrap_or(&0))
        }),
    )
}

/// A Kafka row: a fresh topic and the row's configuration on it, the l4rs row, then the
/// topic read back: the broker's count, and its records' bytes as the bytes written.
fn kafka_l4rs_row(
    target: &Target,
    mode: Mode,
    broker: Option<&kafka_row::Broker>,
    threads: usize,
    options: &Options,
    progress: &Progress,
) -> Row {
    let skipped = |reason: String| Row {
        label: target.label.clone(),
        library: "l4rs".into(),
        threads,
        asynchronous: mode.is_async(),
        outcome: Outcome::Skipped(reason),
    };
    let Some(broker) = broker else {
        return skipped("no Kafka broker".into());
    };
    let topic = match broker.prepare(mode, &target.config) {
        Ok(topic) => topic,
        Err(reason) => return skipped(reason),
    };
    let mut row = l4rs_row(target, threads, options, progress);
    if let Outcome::Measured(m) = &mut row.outcome {
        match broker.received(&topic, m.events) {
            Ok((count, bytes)) => {
                m.received = Some(count);
                m.bytes_written = bytes;
                m.bytes_unknown = false;
            }
            Err(reason) => {
                eprintln!("l4rs-bench: {}: {reason}", target.label);
                m.bytes_unknown = true;
            }
        }
    }
    row
}

/// The broker of the Kafka rows, started when the run has them: asked for and unavailable is
/// an error; available only "if available" and missing tools is a note on stderr.
fn start_broker(options: &Options) -> Result<Option<kafka_row::Broker>, String> {
    let wanted = options
        .modes
        .iter()
        .any(|mode| kafka_row::MODES.contains(mode));
    match options.kafka {
        KafkaRows::Off => Ok(None),
        KafkaRows::Asked if !wanted => Err(format!(
            "the Kafka rows run in the {} modes; --mode leaves none of them",
            kafka_row::MODES.map(Mode::cli_name).join(" and ")
        )),
        KafkaRows::Asked => kafka_row::Broker::start().map(Some),
        KafkaRows::IfAvailable if !wanted || !kafka_row::AVAILABLE => Ok(None),
        KafkaRows::IfAvailable => match kafka_row::Broker::start() {
            Ok(broker) => Ok(Some(broker)),
            Err(reason) => {
                eprintln!("l4rs-bench: note: no Kafka rows: {reason}");
                Ok(None)
            }
        },
    }
}

/// The end of an l4rs row's measured time: every asynchronous queue is empty, i.e. each event
/// handed over has been through its appenders and is in the OS (the background thread's
/// end-of-batch flush included); a synchronous configuration has no queue and returns at once.
/// Polled every 200 µs, so the drain is timed to well under a millisecond. A queue that does
/// not drain within a minute is left to the `l4rs::flush()` that follows.
pub fn wait_for_empty_queues() {
    let limit = Instant::now() + Duration::from_secs(60);
    while Instant::now() < limit && l4rs::async_queue_stats().iter().any(|s| s.len > 0) {
        std::thread::sleep(Duration::from_micros(200));
    }
}

fn java_row(
    harness: Option<&mut Harness>,
    unavailable: Option<&str>,
    target: &Target,
    threads: usize,
    options: &Options,
    dir: &Path,
) -> Row {
    let row = |asynchronous, outcome| target_row(target, "log4j2", threads, asynchronous, outcome);
    let route = match planned_route(&target.config, &target.logger) {
        Ok(route) => route,
        Err(reason) => return row(false, Outcome::Skipped(reason)),
    };
    let Some(harness) = harness else {
        return row(
            route.asynchronous,
            Outcome::Skipped(unavailable.unwrap_or("no Java harness").to_string()),
        );
    };
    clear_sample_files(target, &route);
    let outcome = harness.run(&JavaRun {
        config: &target.config,
        logger: &target.logger,
        label: &target.label,
        files: &route.files,
        dir,
        threads,
        warmup: options.warmup,
        measure: options.measure,
    });
    row(
        route.asynchronous,
        match outcome {
            Ok(measurement) => Outcome::Measured(measurement),
            Err(reason) => Outcome::Skipped(reason),
        },
    )
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
        "free_page_reporting": crate::page_reporting::free_page_reporting(Path::new("/")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_goes_where_the_row_writes() {
        let dir = std::env::temp_dir();
        assert_eq!(probe_folder(&[dir.join("some.log")]), Some(dir.clone()));
        assert_eq!(probe_folder(&[]), None);
        assert_eq!(probe_folder(&[dir.join("no-such-folder-l4rs/x.log")]), None);
    }
}
