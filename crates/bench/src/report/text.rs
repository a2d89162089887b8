//! The text report of a throughput run: header, table, footnotes, the ratios against log4j2,
//! the thread-scaling ratios, the peer and `tracing` comparisons, and the `RESULT` lines.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use super::{AcrossRounds, Measurement, Ratio, Row, Scaling};
use crate::args::Options;
use crate::{disk, peers, tracing_row};

/// Everything the text report shows, as the run computed it.
pub struct Report<'a> {
    /// The run's options (windows, rounds).
    pub options: &'a Options,
    /// The log folder.
    pub dir: &'a Path,
    /// Date, processor and versions (see `bench::machine_info`).
    pub machine: &'a serde_json::Value,
    /// Every round's rows, in run order.
    pub rounds: &'a [Vec<Row>],
    /// Why the log4j2 rows were skipped, when they were asked for and could not run.
    pub java_skipped: Option<&'a str>,
}

/// The whole report as printed on stdout.
pub fn render(report: &Report<'_>) -> String {
    let Report {
        options,
        dir,
        machine,
        rounds,
        java_skipped,
    } = *report;
    let folded = super::median_rounds(rounds);
    let rows: Vec<Row> = folded.iter().map(|r| r.median.clone()).collect();
    let rounds_of_ratios = super::median_ratios(rounds, "log4j2");
    let rounds_of_scaling = super::median_scaling(rounds);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "l4rs-bench · {} · {} · logs in {}",
        machine["date"].as_str().unwrap_or(""),
        machine["cpu"].as_str().unwrap_or(""),
        dir.display()
    );
    if machine["free_page_reporting"].as_bool() == Some(true) {
        let _ = writeln!(out, "note: {}", crate::page_reporting::NOTE);
    }
    let _ = writeln!(
        out,
        "workload: DEBUG, 100-char message, 20% with a 101-frame error rendered by %ex{{full}}; {} s warm-up, {} s measured, then drained (end to end)\n",
        options.warmup.as_secs_f64(),
        options.measure.as_secs_f64()
    );
    out.push_str(&super::table(&rows));
    out.push_str("(alloc B/op: the logging threads' own allocations; bg B/op: every other thread's, e.g. a queue's writer, until drained)\n");
    out.push_str(&drop_summary(&rows));
    out.push_str(&received_summary(&rows));
    let _ = writeln!(
        out,
        "(raw MB/s: this folder's bandwidth just before each row, {}; of raw = write MB/s / raw MB/s)",
        disk::Probe::for_row(1, options.measure).describe()
    );
    out.push_str(&ceiling_summary(&rows));
    if rows
        .iter()
        .filter_map(Row::measurement)
        .any(|m| m.limit_share().is_some_and(|s| s > 1.0))
    {
        out.push_str("(a share above 100%: the row met less writeback throttling than the raw probe did; this disk's bandwidth varies a lot from second to second)\n");
    }
    if options.rounds > 1 {
        let _ = writeln!(
            out,
            "(the table shows each row's median round of {}; ops/ms of every round, in order:)",
            options.rounds
        );
        for row in &folded {
            let _ = writeln!(
                out,
                "(  {} · {} · {} threads: {})",
                row.median.label,
                row.median.library,
                row.median.threads,
                each_round(&row.per_round, 1, "", " / ")
            );
        }
    }
    out.push_str(&ratio_lines(&rounds_of_ratios, options.verdicts));
    out.push_str(&scaling_lines(&rounds_of_scaling, options.verdicts));
    out.push_str(&peers::compare::summary(&rows));
    let rounds_of_tracing = super::median_ratios(rounds, tracing_row::FMT_LIBRARY);
    if !rounds_of_tracing.is_empty() {
        out.push('\n');
        for rounds_of_ratio in &rounds_of_tracing {
            let each = median_of_rounds(&rounds_of_ratio.per_round, 1);
            let _ = writeln!(
                out,
                "{}",
                tracing_row::verdict(&rounds_of_ratio.median, &each, options.verdicts)
            );
        }
    }
    if let Some(reason) = java_skipped {
        let _ = writeln!(out, "\nlog4j2 rows skipped: {reason}");
    }
    if !rounds_of_ratios.is_empty() && short_for_quoting(options) {
        let _ = writeln!(
            out,
            "\n(these windows are short: log4j2's JIT may not have settled and l4rs may not yet pay the kernel's cost of new page-cache pages; figures to quote: --warmup {}s --measure {}s, or --rounds 3; see docs/benchmarks.md)",
            QUOTE_WARMUP.as_secs(),
            QUOTE_MEASURE.as_secs()
        );
    }
    out.push('\n');
    if options.rounds > 1 {
        for (index, round) in rounds.iter().enumerate() {
            for row in round {
                let _ = writeln!(out, "{} round={}", row.result_line(), index + 1);
            }
        }
    } else {
        for row in &rows {
            let _ = writeln!(out, "{}", row.result_line());
        }
    }
    out
}

/// One line per l4rs row beside its log4j2 row: the ops/ms ratio and both allocations, the
/// kernel ceiling's ratio where measured, and with `verdicts` whether the throughput target
/// was met and is within reach.
fn ratio_lines(rounds_of_ratios: &[AcrossRounds<Ratio>], verdicts: bool) -> String {
    let mut out = String::new();
    if rounds_of_ratios.is_empty() {
        return out;
    }
    out.push('\n');
    for rounds_of_ratio in rounds_of_ratios {
        let ratio = &rounds_of_ratio.median;
        let each = median_of_rounds(&rounds_of_ratio.per_round, 1);
        let target = format!(
            ">= {:.0}x or >= {:.0}% of raw",
            super::VS_OTHER_TARGET,
            super::LIMIT_SHARE_TARGET * 100.0
        );
        let verdict = super::verdict_note(verdicts, &target, ratio.target_met());
        let _ = writeln!(
            out,
            "{} at {} threads: l4rs is {:.1}x log4j2 in ops/ms{each}; allocated {:.0} B/op vs log4j2's {:.0} B/op{verdict}{}",
            ratio.label,
            ratio.threads,
            ratio.ops_ratio,
            ratio.ours_alloc_per_op,
            ratio.theirs_alloc_per_op,
            ceiling_verdict(&rounds_of_ratio.each, verdicts)
        );
    }
    out
}

/// One line per row run at several thread counts: its ops/ms against its own lowest count's,
/// and with `verdicts` whether it met [`super::SCALING_TARGET`].
fn scaling_lines(rounds_of_scaling: &[AcrossRounds<Scaling>], verdicts: bool) -> String {
    let mut out = String::new();
    if rounds_of_scaling.is_empty() {
        return out;
    }
    out.push('\n');
    for rounds_of_scaling in rounds_of_scaling {
        let s = &rounds_of_scaling.median;
        let each = median_of_rounds(&rounds_of_scaling.per_round, 2);
        let verdict = super::verdict_note(
            verdicts,
            &format!(">= {:.1}x", super::SCALING_TARGET),
            s.ratio >= super::SCALING_TARGET,
        );
        let _ = writeln!(
            out,
            "{} · {}: {} threads = {:.2}x its own {}-thread ops/ms{each}{verdict}",
            s.label, s.library, s.threads, s.ratio, s.base_threads,
        );
    }
    out
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
pub fn median_of_rounds(ratios: &[Option<f64>], decimals: usize) -> String {
    if ratios.len() > 1 {
        format!(
            " (median of the rounds: {})",
            each_round(ratios, decimals, "x", " ")
        )
    } else {
        String::new()
    }
}

/// The warm-up and window of the log4j2 reference runs (`../shared/anchors/log4j2-java/run.sh`):
/// shorter ones give ratios against log4j2 that do not hold over a longer run.
const QUOTE_WARMUP: Duration = Duration::from_secs(5);
const QUOTE_MEASURE: Duration = Duration::from_secs(10);

/// True when a comparison with log4j2 ran with windows shorter than those reference runs'.
fn short_for_quoting(options: &Options) -> bool {
    options.warmup < QUOTE_WARMUP || options.measure < QUOTE_MEASURE
}

/// What the kernel ceiling says of a ratio measured in `rounds` (each round's counterpart):
/// `; the ceiling is 7.3x log4j2: out of reach of per-event writes here`, with the largest
/// ceiling and each round's (`-` for a round without one) after several rounds. Out of reach
/// only when every round had a ceiling and none left the target within reach; nothing
/// without any ceiling. Without `verdicts` only the ceiling's ratio.
fn ceiling_verdict(rounds: &[Ratio], verdicts: bool) -> String {
    let ceilings: Vec<Option<f64>> = rounds.iter().map(|r| r.ceiling_ratio).collect();
    let Some(highest) = ceilings.iter().flatten().copied().max_by(f64::total_cmp) else {
        return String::new();
    };
    let reachable: Vec<Option<bool>> = rounds.iter().map(|r| r.target_reachable()).collect();
    let verdict = if !verdicts || reachable.contains(&Some(true)) {
        ""
    } else if reachable.contains(&None) {
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

/// A line saying whether the broker received every event of the rows that log to one (the
/// Kafka rows): a row whose records did not all arrive would flatter its figures.
fn received_summary(rows: &[Row]) -> String {
    let counted: Vec<(&Row, &Measurement)> = rows
        .iter()
        .filter_map(|r| Some((r, r.measurement()?)))
        .filter(|(_, m)| m.received.is_some())
        .collect();
    if counted.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    let missing: Vec<&(&Row, &Measurement)> = counted
        .iter()
        .filter(|(_, m)| m.missing() != Some(0))
        .collect();
    if missing.is_empty() {
        let _ = writeln!(
            out,
            "(broker rows: the broker received every event logged, read back after each of the {} rows)",
            counted.len()
        );
    }
    for (row, m) in missing {
        let _ = writeln!(
            out,
            "WARNING: the broker received {} of {} events of {} ({} threads): {} missing",
            m.received.unwrap_or(0),
            m.events,
            row.label,
            row.threads,
            m.missing().unwrap_or(0)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Outcome;

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
    fn the_ceiling_says_when_the_target_is_out_of_reach() {
        let ratio = |ceiling_ratio, ceiling_limit_share| Ratio {
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
        assert_eq!(ceiling_verdict(&[ratio(None, None)], true), "");
        assert_eq!(ceiling_verdict(&[], true), "");
        assert_eq!(
            ceiling_verdict(&[ratio(Some(7.34), Some(0.2))], true),
            "; the ceiling is 7.3x log4j2: the target is out of reach of per-event writes here"
        );
        // Without --verdicts: the ceiling's ratio, no judgement.
        assert_eq!(
            ceiling_verdict(&[ratio(Some(7.34), Some(0.2))], false),
            "; the ceiling is 7.3x log4j2"
        );
        // Below 10x, but the ceiling reaches 80% of the raw bandwidth, which the target
        // also accepts.
        assert_eq!(
            ceiling_verdict(&[ratio(Some(7.34), Some(0.85))], true),
            "; the ceiling is 7.3x log4j2"
        );
        assert_eq!(
            ceiling_verdict(&[ratio(Some(12.0), Some(0.2))], true),
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
            ceiling_verdict(&[low.clone(), lower.clone()], true),
            "; the ceiling is 9.6x log4j2 at most (rounds: 8.5x 9.6x): the target is out of reach of per-event writes here"
        );
        let without = ratio(None, None);
        assert_eq!(
            ceiling_verdict(&[low.clone(), without], true),
            "; the ceiling is 8.5x log4j2 at most (rounds: 8.5x -) (not every round has a ceiling, so no verdict)"
        );
        assert_eq!(
            ceiling_verdict(&[low, high, lower], true),
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

    #[test]
    fn the_received_summary_confirms_or_warns() {
        let kafka = |received| Row {
            label: "AsyncLogger-Kafka".into(),
            outcome: match async_row(Some(0), Some(20)).outcome {
                Outcome::Measured(m) => Outcome::Measured(Measurement { received, ..m }),
                other => other,
            },
            ..async_row(Some(0), Some(20))
        };
        assert_eq!(received_summary(&[async_row(Some(0), Some(20))]), "");
        let all = received_summary(&[kafka(Some(20))]);
        assert!(all.contains("received every event logged"), "{all}");
        let short = received_summary(&[kafka(Some(17))]);
        assert_eq!(
            short,
            "WARNING: the broker received 17 of 20 events of AsyncLogger-Kafka (4 threads): 3 missing\n"
        );
    }

    #[test]
    fn the_report_has_the_table_the_ratios_and_one_result_line_per_row() {
        let l4rs = async_row(Some(0), Some(20));
        let log4j2 = Row {
            library: "log4j2".into(),
            ..async_row(None, None)
        };
        let rounds = vec![vec![l4rs.clone(), log4j2]];
        let options = Options::default();
        let machine = serde_json::json!({"date": "2026-12-01 00:00 UTC", "cpu": "cpu, 2 cores"});
        let report = Report {
            options: &options,
            dir: Path::new("/tmp/logs"),
            machine: &machine,
            rounds: &rounds,
            java_skipped: None,
        };
        let text = render(&report);
        assert!(
            text.starts_with(
                "l4rs-bench · 2026-12-01 00:00 UTC · cpu, 2 cores · logs in /tmp/logs\n"
            ),
            "{text}"
        );
        assert!(text.contains(&crate::report::table(&rounds[0])), "{text}");
        assert!(text.contains("dropped_events() = 0 on all 1"), "{text}");
        assert!(
            text.contains("AsyncLogger-File at 4 threads: l4rs is 1.0x log4j2 in ops/ms"),
            "{text}"
        );
        // Default windows are shorter than the reference runs': the reminder is printed.
        assert!(text.contains("these windows are short"), "{text}");
        // Pass/fail verdicts only with --verdicts.
        assert!(!text.contains("target"), "{text}");
        let judged = render(&Report {
            options: &Options {
                verdicts: true,
                ..Options::default()
            },
            ..report
        });
        assert!(
            judged.contains("vs log4j2's 0 B/op (target >= 10x or >= 80% of raw: missed)"),
            "{judged}"
        );
        let results: Vec<&str> = text.lines().filter(|l| l.starts_with("RESULT ")).collect();
        assert_eq!(results, [l4rs.result_line(), rounds[0][1].result_line()]);
        // The free page reporting note only for a machine found reporting.
        assert!(!text.contains("free page reporting"), "{text}");
        let mut reporting = machine.clone();
        reporting["free_page_reporting"] = true.into();
        let noted = render(&Report {
            machine: &reporting,
            ..report
        });
        let second_line = noted.lines().nth(1).unwrap_or_default();
        assert_eq!(
            second_line,
            format!("note: {}", crate::page_reporting::NOTE),
            "{noted}"
        );
    }
}
