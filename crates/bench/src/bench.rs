//! The run: for each thread count, each mode and each appender (or `--logger`), the raw
//! bandwidth of the folder, then l4rs; then (`--vs-log4j2`) the raw bandwidth again and log4j2
//! with the same configuration file, so both see the same machine state; then the peers
//! (`--peers`); then the report.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::args::{self, Command, Mode, Options};
use crate::java::{self, Harness, JavaRun};
use crate::ours::{self, L4rsWorkload, DIR_PROPERTY};
use crate::progress::Progress;
use crate::report::{self, Measurement, Outcome, Row};
use crate::{alloc, ceiling, disk, peers, runner, tracing_row};

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
    if options.kafka {
        return crate::kafka_row::run(options);
    }
    let counting = alloc::is_counting();
    if !counting {
        eprintln!("l4rs-bench: warning: the counting allocator is not installed; allocation figures read 0");
    }
    let base = output_base();
    std::fs::create_dir_all(&base).map_err(|e| format!("{}: {e}", base.display()))?;
    let dir = log_dir(options)?;
    l4rs::config::set_system_property(DIR_PROPERTY, dir.display().to_string());

    let targets = targets(options, &base)?;
    if options.ceiling && options.config.is_some() {
        eprintln!("l4rs-bench: --ceiling measures the sample's rows only (their appenders are known); ignored with --config");
    }
    let mut java_rows_reason = None;
    let mut harness = None;
    if options.vs_log4j2 {
        match java::prepare(&base.join("java-classes")) {
            Ok(h) => harness = Some(h),
            Err(reason) => java_rows_reason = Some(reason),
        }
    }

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
    };
    let rounds: Vec<Vec<Row>> = (0..options.rounds)
        .map(|_| run_round(&plan, &mut harness))
        .collect();
    progress.finish();

    let folded = report::median_rounds(&rounds);
    let rows: Vec<Row> = folded.iter().map(|r| r.median.clone()).collect();
    let rounds_of_ratios = report::median_ratios(&rounds, "log4j2");
    let ratios: Vec<report::Ratio> = rounds_of_ratios.iter().map(|r| r.median.clone()).collect();
    let rounds_of_scaling = report::median_scaling(&rounds);
    let scaling: Vec<report::Scaling> =
        rounds_of_scaling.iter().map(|r| r.median.clone()).collect();
    let mut machine = machine_info(
        &dir,
        harness.as_ref().and_then(|h| h.version.clone()),
        counting,
    );
    machine["rounds"] = options.rounds.into();
    if options.json {
        println!("{}", report::json(&rows, &ratios, &scaling, &machine));
        // stdout holds only the JSON document; the chart's path goes to stderr.
        if let Some(chart) = write_chart(&base, &rows, &machine) {
            eprintln!("chart: {}", chart.display());
        }
        return Ok(());
    }
    println!(
        "l4rs-bench · {} · {} · logs in {}",
        machine["date"].as_str().unwrap_or(""),
        machine["cpu"].as_str().unwrap_or(""),
        dir.display()
    );
    println!(
        "workload: DEBUG, 100-char message, 20% with a 101-frame error rendered by %ex{{full}}; {} s warm-up, {} s measured, then drained (end to end)\n",
        options.warmup.as_secs_f64(),
        options.measure.as_secs_f64()
    );
    print!("{}", report::table(&rows));
    println!("(alloc B/op: the logging threads' own allocations; bg B/op: every other thread's, e.g. a queue's writer, until drained)");
    print!("{}", drop_summary(&rows));
    println!(
        "(raw MB/s: this folder's bandwidth just before each row, {}; of raw = write MB/s / raw MB/s)",
        disk::Probe::for_row(1, options.measure).describe()
    );
    print!("{}", ceiling_summary(&rows));
    if rows
        .iter()
        .filter_map(Row::measurement)
        .any(|m| m.limit_share().is_some_and(|s| s > 1.0))
    {
        println!("(a share above 100%: the row met less writeback throttling than the raw probe did; this disk's bandwidth varies a lot from second to second)");
    }
    if options.rounds > 1 {
        println!(
            "(the table shows each row's median round of {}; ops/ms of every round, in order:)",
            options.rounds
        );
        for row in &folded {
            println!(
                "(  {} · {} · {} threads: {})",
                row.median.label,
                row.median.library,
                row.median.threads,
                each_round(&row.per_round, 1, "", " / ")
            );
        }
    }
    if !rounds_of_ratios.is_empty() {
        println!();
        for rounds_of_ratio in &rounds_of_ratios {
            let ratio = &rounds_of_ratio.median;
            let each = median_of_rounds(&rounds_of_ratio.per_round, 1);
            println!(
                "{} at {} threads: l4rs is {:.1}x log4j2 in ops/ms{each}; allocated {:.0} B/op vs log4j2's {:.0} B/op (target >= {:.0}x or >= {:.0}% of raw: {}){}",
                ratio.label,
                ratio.threads,
                ratio.ops_ratio,
                ratio.ours_alloc_per_op,
                ratio.theirs_alloc_per_op,
                report::VS_OTHER_TARGET,
                report::LIMIT_SHARE_TARGET * 100.0,
                if ratio.target_met() { "met" } else { "missed" },
                ceiling_verdict(&rounds_of_ratio.each)
            );
        }
    }
    if !rounds_of_scaling.is_empty() {
        println!();
        for rounds_of_scaling in &rounds_of_scaling {
            let s = &rounds_of_scaling.median;
            let each = median_of_rounds(&rounds_of_scaling.per_round, 2);
            println!(
                "{} · {}: {} threads = {:.2}x its own {}-thread ops/ms{each} (target >= {:.1}x: {})",
                s.label,
                s.library,
                s.threads,
                s.ratio,
                s.base_threads,
                report::SCALING_TARGET,
                if s.ratio >= report::SCALING_TARGET {
                    "met"
                } else {
                    "missed"
                }
            );
        }
    }
    print!("{}", peers::compare::summary(&rows));
    let rounds_of_tracing = report::median_ratios(&rounds, tracing_row::FMT_LIBRARY);
    if !rounds_of_tracing.is_empty() {
        println!();
        for rounds_of_ratio in &rounds_of_tracing {
            let each = median_of_rounds(&rounds_of_ratio.per_round, 1);
            println!("{}", tracing_row::verdict(&rounds_of_ratio.median, &each));
        }
    }
    if let Some(reason) = &java_rows_reason {
        println!("\nlog4j2 rows skipped: {reason}");
    }
    if !ratios.is_empty() && short_for_quoting(options) {
        println!(
            "\n(these windows are short: log4j2's JIT may not have settled and l4rs may not yet pay the kernel's cost of new page-cache pages; figures to quote: --warmup {}s --measure {}s, or --rounds 3; see docs/benchmarks.md)",
            QUOTE_WARMUP.as_secs(),
            QUOTE_MEASURE.as_secs()
        );
    }
    println!();
    if options.rounds > 1 {
        for (index, round) in rounds.iter().enumerate() {
            for row in round {
                println!("{} round={}", row.result_line(), index + 1);
            }
        }
    } else {
        for row in &rows {
            println!("{}", row.result_line());
        }
    }
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
    } = *plan;
    let mut rows = Vec::new();
    for &threads in &options.threads {
        let probe = disk::Probe::for_row(threads, options.measure);
        for target in targets {
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

/// Each round's value with `decimals` digits (`-` where it has none), `unit` after it, joined
/// by `separator`.
fn each_round(values: &[Option<f64>], decimals: usize, unit: &str, separator: &str) -> String {
    let shown: Vec<String> = values
        .iter()
        .map(|value| value.map_or("-".to_string(), |v| format!("{v:.decimals$}{unit}")))
        .collect();
    shown.join(separator)
}

/// ` (median of the rounds: 8.0x 6.2x 7.4x)` after a ratio measured in several rounds; nothing
/// after one measured once.
fn median_of_rounds(ratios: &[Option<f64>], decimals: usize) -> String {
    if ratios.len() > 1 {
        format!(
            " (median of the rounds: {})",
            each_round(ratios, decimals, "x", " ")
        )
    } else {
        String::new()
    }
}

/// The warm-up and window of the log4j2 reference runs (`../shared/anchors/log4j2-java/run.sh`): shorter
/// ones give ratios against log4j2 that do not hold over a longer run.
const QUOTE_WARMUP: Duration = Duration::from_secs(5);
const QUOTE_MEASURE: Duration = Duration::from_secs(10);

/// True when a comparison with log4j2 ran with windows shorter than those reference runs'.
fn short_for_quoting(options: &Options) -> bool {
    options.warmup < QUOTE_WARMUP || options.measure < QUOTE_MEASURE
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
/// under `base`, where the Java harness reads it too), or the user's loggers.
fn targets(options: &Options, base: &Path) -> Result<Vec<Target>, String> {
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
            })
            .collect());
    }
    let mut targets = Vec::new();
    for &mode in &options.modes {
        let path = base.join(sample_config_file(mode));
        std::fs::write(&path, ours::sample_config(mode))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        for appender in &options.appenders {
            targets.push(Target {
                label: mode.label(appender),
                logger: appender.logger.to_string(),
                config: path.clone(),
                from_sample: true,
                ceiling: Some(ceiling::Plan::for_sample(appender, mode)),
            });
        }
    }
    Ok(targets)
}

/// The file name of the sample configuration's variant in `mode`.
pub fn sample_config_file(mode: Mode) -> String {
    match mode {
        Mode::Sync => "log4j2-appender.xml".to_string(),
        other => format!("log4j2-appender-{}.xml", other.cli_name()),
    }
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

/// What the kernel ceiling says of a ratio measured in `rounds` (each round's counterpart):
/// `; the ceiling is 7.3x log4j2: out of reach of per-event writes here`, with the largest
/// ceiling and each round's (`-` for a round without one) after several rounds. Out of reach
/// only when every round had a ceiling and none left the target within reach; nothing
/// without any ceiling.
fn ceiling_verdict(rounds: &[report::Ratio]) -> String {
    let ceilings: Vec<Option<f64>> = rounds.iter().map(|r| r.ceiling_ratio).collect();
    let Some(highest) = ceilings.iter().flatten().copied().max_by(f64::total_cmp) else {
        return String::new();
    };
    let verdicts: Vec<Option<bool>> = rounds.iter().map(|r| r.target_reachable()).collect();
    let verdict = if verdicts.contains(&Some(true)) {
        ""
    } else if verdicts.contains(&None) {
        " (not every round has a ceiling, so no verdict)"
    } else {
        ": the target is out of reach of per-event writes here"
    };
    let each = if ceilings.len() > 1 {
        format!(" at most (rounds: {})", each_round(&ceilings, 1, "x", " "))
    } else {
        String::new()
    };
    format!("; the ceiling is {highest:.1}x log4j2{each}{verdict}")
}

/// One footnote line per row with a kernel ceiling (`--ceiling`): the ceiling, how it was
/// written, and the share of it the row reached.
fn ceiling_summary(rows: &[Row]) -> String {
    let mut out = String::new();
    for row in rows {
        let Some(m) = row.measurement() else {
            continue;
        };
        if let (Some(ceiling), Some(share), Some(writers)) =
            (m.ceiling_ops_per_ms, m.ceiling_share(), m.ceiling_writers)
        {
            let _ = writeln!(
                out,
                "(ceiling of {} at {} threads: {ceiling:.1} ops/ms, its {:.0} B events handed to the OS one by one by {writers} writer thread{} with nothing else on the path; l4rs reached {:.0}% of it)",
                row.label,
                row.threads,
                m.bytes_per_event(),
                if writers == 1 { "" } else { "s" },
                share * 100.0
            );
        }
    }
    if rows
        .iter()
        .filter_map(Row::measurement)
        .any(|m| m.ceiling_share().is_some_and(|s| s > 1.0))
    {
        out.push_str("(a share above 100%: one ceiling run is a sample of a noisy machine, not a hard bound; a row beyond it counts as within reach)\n");
    }
    out
}

/// Lines saying whether the asynchronous rows lost anything: the figures of a row that dropped
/// events would flatter it, so this is printed under every table that has such rows.
fn drop_summary(rows: &[Row]) -> String {
    let checked: Vec<(&Row, &Measurement)> = rows
        .iter()
        .filter(|r| r.library == "l4rs" && r.asynchronous)
        .filter_map(|r| Some((r, r.measurement()?)))
        .collect();
    if checked.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    let lossy: Vec<String> = checked
        .iter()
        .filter(|(_, m)| m.dropped != Some(0) || m.queued.is_some_and(|q| q < m.events))
        .map(|(r, m)| {
            format!(
                "{} ({} threads): dropped_events() = {}, queued {} of {} events",
                r.label,
                r.threads,
                m.dropped.map_or("unknown".to_string(), |d| d.to_string()),
                m.queued.map_or("?".to_string(), |q| q.to_string()),
                m.events
            )
        })
        .collect();
    if lossy.is_empty() {
        out.push_str(&format!(
            "(asynchronous l4rs rows: l4rs::flush() drained every queue; dropped_events() = 0 on all {} of them)\n",
            checked.len()
        ));
    } else {
        for line in lossy {
            out.push_str(&format!("WARNING: events lost or not queued: {line}\n"));
        }
    }
    out
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

fn l4rs_row(target: &Target, threads: usize, options: &Options, progress: &Progress) -> Row {
    let row = |asynchronous, outcome| Row {
        label: target.label.clone(),
        library: "l4rs".into(),
        threads,
        asynchronous,
        outcome,
    };
    let route = match planned_route(&target.config, &target.logger) {
        Ok(route) => route,
        Err(reason) => return row(false, Outcome::Skipped(reason)),
    };
    l4rs::shutdown();
    if target.from_sample {
        for file in &route.files {
            let _ = std::fs::remove_file(file);
        }
    }
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
        &wait_for_empty_queues,
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
            ops: sample.ops,
            seconds: sample.seconds,
            window_seconds: Some(sample.window_seconds),
            alloc_bytes: sample.alloc.bytes,
            alloc_count: Some(sample.alloc.count),
            background_alloc_bytes: Some(sample.background_alloc.bytes),
            events: sample.events,
            bytes_written: *written.as_ref().unwrap_or(&0),
            bytes_unknown: written.is_err(),
            raw_mb_per_s: None,
            dropped: Some(dropped),
            queued,
            ceiling_ops_per_ms: None,
            ceiling_writers: None,
        }),
    )
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
    let row = |asynchronous, outcome| Row {
        label: target.label.clone(),
        library: "log4j2".into(),
        threads,
        asynchronous,
        outcome,
    };
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
    if target.from_sample {
        for file in &route.files {
            let _ = std::fs::remove_file(file);
        }
    }
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn async_row(dropped: Option<u64>, queued: Option<u64>) -> Row {
        Row {
            label: "AsyncLogger-File".into(),
            library: "l4rs".into(),
            threads: 4,
            asynchronous: true,
            outcome: Outcome::Measured(Measurement {
                ops: 10,
                seconds: 1.0,
                events: 20,
                dropped,
                queued,
                ..Measurement::default()
            }),
        }
    }

    #[test]
    fn the_drop_summary_confirms_or_warns() {
        assert_eq!(drop_summary(&[]), "");
        let clean = drop_summary(&[async_row(Some(0), Some(20))]);
        assert!(clean.contains("dropped_events() = 0 on all 1"), "{clean}");
        let lossy = drop_summary(&[async_row(Some(3), Some(20))]);
        assert!(
            lossy.starts_with("WARNING") && lossy.contains("= 3"),
            "{lossy}"
        );
        let short = drop_summary(&[async_row(Some(0), Some(19))]);
        assert!(short.contains("queued 19 of 20"), "{short}");
    }

    #[test]
    fn each_mode_has_its_own_configuration_file() {
        let names: Vec<String> = Mode::ALL.iter().map(|m| sample_config_file(*m)).collect();
        assert_eq!(
            names,
            [
                "log4j2-appender.xml",
                "log4j2-appender-async-logger.xml",
                "log4j2-appender-async-appender.xml"
            ]
        );
    }

    #[test]
    fn the_ceiling_says_when_the_target_is_out_of_reach() {
        let ratio = |ceiling_ratio, ceiling_limit_share| report::Ratio {
            label: "File".into(),
            threads: 4,
            other: "log4j2".into(),
            ops_ratio: 3.5,
            ours_alloc_per_op: 0.0,
            theirs_alloc_per_op: 16_000.0,
            ours_limit_share: Some(0.1),
            ceiling_ratio,
            ceiling_limit_share,
        };
        assert_eq!(ceiling_verdict(&[ratio(None, None)]), "");
        assert_eq!(ceiling_verdict(&[]), "");
        assert_eq!(
            ceiling_verdict(&[ratio(Some(7.34), Some(0.2))]),
            "; the ceiling is 7.3x log4j2: the target is out of reach of per-event writes here"
        );
        // Below 10x, but the ceiling reaches 80% of the raw bandwidth, which the target
        // also accepts.
        assert_eq!(
            ceiling_verdict(&[ratio(Some(7.34), Some(0.85))]),
            "; the ceiling is 7.3x log4j2"
        );
        assert_eq!(
            ceiling_verdict(&[ratio(Some(12.0), Some(0.2))]),
            "; the ceiling is 12.0x log4j2"
        );
        // Several rounds: the largest ceiling, each round's, and out of reach only when it
        // was in every round.
        let (low, lower, high) = (
            ratio(Some(8.5), Some(0.2)),
            ratio(Some(9.6), Some(0.2)),
            ratio(Some(10.4), Some(0.2)),
        );
        assert_eq!(
            ceiling_verdict(&[low.clone(), lower.clone()]),
            "; the ceiling is 9.6x log4j2 at most (rounds: 8.5x 9.6x): the target is out of reach of per-event writes here"
        );
        let without = ratio(None, None);
        assert_eq!(
            ceiling_verdict(&[low.clone(), without]),
            "; the ceiling is 8.5x log4j2 at most (rounds: 8.5x -) (not every round has a ceiling, so no verdict)"
        );
        assert_eq!(
            ceiling_verdict(&[low, high, lower]),
            "; the ceiling is 10.4x log4j2 at most (rounds: 8.5x 10.4x 9.6x)"
        );
    }

    #[test]
    fn each_ceiling_gets_a_footnote_with_the_share_reached() {
        let row = |label: &str, ceiling| Row {
            label: label.into(),
            library: "l4rs".into(),
            threads: 4,
            asynchronous: false,
            outcome: Outcome::Measured(Measurement {
                ops: 1_000_000,
                seconds: 2.0,
                events: 1000,
                bytes_written: 1_204_000,
                ceiling_ops_per_ms: ceiling,
                ceiling_writers: Some(4),
                ..Measurement::default()
            }),
        };
        let summary = ceiling_summary(&[row("File", Some(625.0)), row("RandomAccessFile", None)]);
        assert_eq!(
            summary,
            "(ceiling of File at 4 threads: 625.0 ops/ms, its 1204 B events handed to the OS one by one by 4 writer threads with nothing else on the path; l4rs reached 80% of it)\n"
        );
    }

    #[test]
    fn the_probe_goes_where_the_row_writes() {
        let dir = std::env::temp_dir();
        assert_eq!(probe_folder(&[dir.join("some.log")]), Some(dir.clone()));
        assert_eq!(probe_folder(&[]), None);
        assert_eq!(probe_folder(&[dir.join("no-such-folder-l4rs/x.log")]), None);
    }

    #[test]
    fn each_round_shows_missing_rounds() {
        assert_eq!(
            each_round(&[Some(8.04), None, Some(12.5)], 1, "x", " "),
            "8.0x - 12.5x"
        );
        assert_eq!(each_round(&[Some(0.805)], 2, "x", " "), "0.81x");
        assert_eq!(median_of_rounds(&[Some(7.0)], 1), "");
        assert_eq!(
            median_of_rounds(&[Some(7.0), Some(9.04)], 1),
            " (median of the rounds: 7.0x 9.0x)"
        );
    }

    #[test]
    fn only_windows_as_long_as_the_log4j2_reference_runs_are_quotable() {
        let mut options = Options::default();
        assert!(short_for_quoting(&options));
        options.warmup = QUOTE_WARMUP;
        assert!(short_for_quoting(&options));
        options.measure = QUOTE_MEASURE;
        assert!(!short_for_quoting(&options));
        options.measure = Duration::from_secs(30);
        assert!(!short_for_quoting(&options));
    }
}
