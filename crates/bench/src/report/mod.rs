//! Rows, and the ways they are shown: the table, `RESULT` lines, JSON and an SVG chart.

pub mod svg;
pub mod text;

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Bytes in the MB of every `MB/s` figure (2^20, as JMH's `gc.alloc.rate` and the Java harness).
pub const MB: f64 = 1024.0 * 1024.0;

/// The raw figures of one measured run; everything shown is derived from them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Measurement {
    /// Operations inside the producers' window.
    pub ops: u64,
    /// From the window's start until every event handed over was written (window + drain):
    /// what `ops` is divided by.
    pub seconds: f64,
    /// The producers' window alone, where known (its end is where the drain starts).
    pub window_seconds: Option<f64>,
    /// Bytes the producer threads (the logging calls) allocated inside the window.
    pub alloc_bytes: u64,
    /// Bytes every other thread (background writers) allocated from the window's start until
    /// the drain ended, where counted.
    pub background_alloc_bytes: Option<u64>,
    /// Allocations inside the window (`None` where the harness cannot count them: Java).
    pub alloc_count: Option<u64>,
    /// Events of the whole run, warm-up included.
    pub events: u64,
    /// Bytes the run added to its log file(s), warm-up included.
    pub bytes_written: u64,
    /// True when `bytes_written` could not be counted (a rolled archive that cannot be read,
    /// or one a retention policy deleted during the run): bytes/event, write MB/s and the
    /// share of raw are then shown as unknown rather than wrong.
    pub bytes_unknown: bool,
    /// Raw sequential write bandwidth of the folder, measured just before this run.
    pub raw_mb_per_s: Option<f64>,
    /// Events the asynchronous stages dropped during the run (`l4rs::dropped_events()`), where
    /// known; anything but 0 makes the row's figures meaningless.
    pub dropped: Option<u64>,
    /// Events the asynchronous queues accepted during the run, where known: with nothing
    /// dropped, every one of them was written before the drain returned.
    pub queued: Option<u64>,
    /// The row's kernel ceiling in operations per millisecond (`--ceiling`,
    /// [`crate::ceiling`]), where measured.
    pub ceiling_ops_per_ms: Option<f64>,
    /// The writer threads of that ceiling (the row's threads, or one for an asynchronous row).
    pub ceiling_writers: Option<usize>,
    /// Records a message broker received for the row (the Kafka rows), read back after it:
    /// every one of `events` must be there.
    pub received: Option<u64>,
}

impl Measurement {
    /// The figures of one run of the workload ([`crate::runner::run`]) that wrote
    /// `bytes_written` bytes; everything the runner does not know (raw bandwidth, queues,
    /// ceiling, broker) is left for the row to add.
    pub fn of_sample(sample: &crate::runner::Sample, bytes_written: u64) -> Measurement {
        Measurement {
            ops: sample.ops,
            seconds: sample.seconds,
            window_seconds: Some(sample.window_seconds),
            alloc_bytes: sample.alloc.bytes,
            alloc_count: Some(sample.alloc.count),
            background_alloc_bytes: Some(sample.background_alloc.bytes),
            events: sample.events,
            bytes_written,
            ..Measurement::default()
        }
    }

    /// Operations per millisecond, end to end (window + drain).
    pub fn ops_per_ms(&self) -> f64 {
        self.ops as f64 / (self.seconds * 1000.0).max(1e-9)
    }

    /// Time from the end of the producers' window until everything was written.
    pub fn drain_seconds(&self) -> Option<f64> {
        self.window_seconds
            .map(|window| (self.seconds - window).max(0.0))
    }

    /// Operations per millisecond inside the producers' window only: the rate of handing
    /// events over, which for an asynchronous logger says nothing about the file.
    pub fn handover_ops_per_ms(&self) -> f64 {
        let window = self.window_seconds.unwrap_or(self.seconds);
        self.ops as f64 / (window * 1000.0).max(1e-9)
    }

    /// Bytes the background threads allocated per operation, where counted.
    pub fn background_alloc_bytes_per_op(&self) -> Option<f64> {
        self.background_alloc_bytes
            .map(|bytes| bytes as f64 / self.ops.max(1) as f64)
    }

    /// Bytes allocated per operation.
    pub fn alloc_bytes_per_op(&self) -> f64 {
        if self.ops == 0 {
            0.0
        } else {
            self.alloc_bytes as f64 / self.ops as f64
        }
    }

    /// Allocations per operation, where counted.
    pub fn allocs_per_op(&self) -> Option<f64> {
        self.alloc_count
            .map(|count| count as f64 / self.ops.max(1) as f64)
    }

    /// The producers' allocation rate in MB/s, over their window (when they allocated).
    pub fn alloc_mb_per_s(&self) -> f64 {
        let window = self.window_seconds.unwrap_or(self.seconds);
        self.alloc_bytes as f64 / MB / window.max(1e-9)
    }

    /// Average size of one event in the file.
    pub fn bytes_per_event(&self) -> f64 {
        if self.events == 0 {
            0.0
        } else {
            self.bytes_written as f64 / self.events as f64
        }
    }

    /// Bytes logged per second during the window, in MB/s.
    pub fn write_mb_per_s(&self) -> f64 {
        self.bytes_per_event() * self.ops as f64 / self.seconds.max(1e-9) / MB
    }

    /// Events a broker should have received but did not (0 when all arrived), where counted.
    pub fn missing(&self) -> Option<u64> {
        self.received
            .map(|received| self.events.saturating_sub(received))
    }

    /// Share of the kernel ceiling this run reached, where the ceiling was measured.
    pub fn ceiling_share(&self) -> Option<f64> {
        self.ceiling_ops_per_ms
            .filter(|ceiling| *ceiling > 0.0)
            .map(|ceiling| self.ops_per_ms() / ceiling)
    }

    /// Share of the raw write bandwidth this run reached.
    pub fn limit_share(&self) -> Option<f64> {
        self.share_of_raw(self.write_mb_per_s())
    }

    /// Share of the raw write bandwidth the kernel ceiling reached (the most any library's
    /// `limit_share` could be in this run), where both were measured.
    pub fn ceiling_limit_share(&self) -> Option<f64> {
        let ceiling = self.ceiling_ops_per_ms?;
        self.share_of_raw(ceiling * 1000.0 * self.bytes_per_event() / MB)
    }

    fn share_of_raw(&self, mb_per_s: f64) -> Option<f64> {
        self.raw_mb_per_s
            .filter(|raw| *raw > 0.0 && !self.bytes_unknown)
            .map(|raw| mb_per_s / raw)
    }
}

/// A row that ran, or why it did not.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// It ran.
    Measured(Measurement),
    /// It could not run (missing appender, missing Java, peer failure, …).
    Skipped(String),
}

/// One line of the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The row label (sample rows) or logger name (`--config`).
    pub label: String,
    /// `l4rs`, `log4j2`, or the peer's crate name.
    pub library: String,
    /// Worker threads.
    pub threads: usize,
    /// True when the library hands events to a background thread (its ops/ms is then the rate
    /// of handing over, and its bytes reach the file later).
    pub asynchronous: bool,
    /// The figures, or why there are none.
    pub outcome: Outcome,
}

impl Row {
    /// The measurement, if the row ran.
    pub fn measurement(&self) -> Option<&Measurement> {
        match &self.outcome {
            Outcome::Measured(m) => Some(m),
            Outcome::Skipped(_) => None,
        }
    }

    /// The machine-readable line: `RESULT appender=… threads=… ops_per_ms=… …` with the keys
    /// the Java harness prints first, then the raw figures they were derived from; or
    /// `SKIPPED appender=… lib=… reason="…"`.
    pub fn result_line(&self) -> String {
        let label = self.label.replace(char::is_whitespace, "_");
        match &self.outcome {
            Outcome::Measured(m) => {
                let mut line = format!(
                    "RESULT appender={label} threads={} ops_per_ms={:.3} alloc_bytes_per_op={:.1} alloc_mb_per_s={:.1} bytes_per_event={} write_mb_per_s={} limit_share={}",
                    self.threads,
                    m.ops_per_ms(),
                    m.alloc_bytes_per_op(),
                    m.alloc_mb_per_s(),
                    known(m, m.bytes_per_event()),
                    known(m, m.write_mb_per_s()),
                    m.limit_share().map_or("na".to_string(), |s| format!("{s:.3}")),
                );
                let _ = write!(
                    line,
                    " lib={} async={} raw_mb_per_s={} allocs_per_op={} ops={} seconds={:.3} alloc_bytes={} events={} bytes_written={}",
                    self.library,
                    self.asynchronous,
                    m.raw_mb_per_s.map_or("na".to_string(), |r| format!("{r:.1}")),
                    m.allocs_per_op().map_or("na".to_string(), |a| format!("{a:.3}")),
                    m.ops,
                    m.seconds,
                    m.alloc_bytes,
                    m.events,
                    m.bytes_written,
                );
                // Optional figures, present only where the harness knows them.
                if m.bytes_unknown {
                    line.push_str(" bytes_unknown=true");
                }
                if let Some(window) = m.window_seconds {
                    let _ = write!(
                        line,
                        " window_seconds={window:.3} handover_ops_per_ms={:.3}",
                        m.handover_ops_per_ms()
                    );
                }
                if let Some(bytes) = m.background_alloc_bytes {
                    let _ = write!(
                        line,
                        " background_alloc_bytes={bytes} background_alloc_bytes_per_op={:.1}",
                        m.background_alloc_bytes_per_op().unwrap_or(0.0)
                    );
                }
                if let Some(queued) = m.queued {
                    let _ = write!(line, " queued={queued}");
                }
                if let Some(dropped) = m.dropped {
                    let _ = write!(line, " dropped={dropped}");
                }
                if let Some(received) = m.received {
                    let _ = write!(line, " received={received}");
                }
                if let (Some(ceiling), Some(share)) = (m.ceiling_ops_per_ms, m.ceiling_share()) {
                    let _ = write!(
                        line,
                        " ceiling_ops_per_ms={ceiling:.3} ceiling_share={share:.3}"
                    );
                    if let Some(writers) = m.ceiling_writers {
                        let _ = write!(line, " ceiling_writers={writers}");
                    }
                }
                line
            }
            Outcome::Skipped(reason) => format!(
                "SKIPPED appender={label} threads={} lib={} reason=\"{}\"",
                self.threads,
                self.library,
                reason.replace('"', "'")
            ),
        }
    }

    fn json(&self) -> serde_json::Value {
        let mut value = serde_json::json!({
            "appender": self.label,
            "library": self.library,
            "threads": self.threads,
            "asynchronous": self.asynchronous,
        });
        match &self.outcome {
            Outcome::Measured(m) => {
                value["ops_per_ms"] = m.ops_per_ms().into();
                value["alloc_bytes_per_op"] = m.alloc_bytes_per_op().into();
                value["allocs_per_op"] = m.allocs_per_op().into();
                value["alloc_mb_per_s"] = m.alloc_mb_per_s().into();
                let known = |v: f64| (!m.bytes_unknown).then_some(v);
                value["bytes_per_event"] = known(m.bytes_per_event()).into();
                value["write_mb_per_s"] = known(m.write_mb_per_s()).into();
                value["raw_mb_per_s"] = m.raw_mb_per_s.into();
                value["limit_share"] = m.limit_share().into();
                value["handover_ops_per_ms"] = m.handover_ops_per_ms().into();
                value["background_alloc_bytes_per_op"] = m.background_alloc_bytes_per_op().into();
                value["drain_seconds"] = m.drain_seconds().into();
                value["queued"] = m.queued.into();
                value["dropped"] = m.dropped.into();
                value["received"] = m.received.into();
                value["ceiling_ops_per_ms"] = m.ceiling_ops_per_ms.into();
                value["ceiling_share"] = m.ceiling_share().into();
                value["ceiling_writers"] = m.ceiling_writers.into();
                value["ops"] = m.ops.into();
                value["seconds"] = m.seconds.into();
                value["window_seconds"] = m.window_seconds.into();
                value["events"] = m.events.into();
                value["bytes_written"] = (!m.bytes_unknown).then_some(m.bytes_written).into();
            }
            Outcome::Skipped(reason) => value["skipped"] = reason.as_str().into(),
        }
        value
    }
}

/// Reads the raw figures back from a [`Row::result_line`] (a peer's child process) or from the
/// Java harness's `RESULT` line (which names `alloc_bytes` but no allocation count).
pub fn parse_result_line(line: &str) -> Option<(String, usize, Measurement)> {
    let fields = fields(line.trim().strip_prefix("RESULT ")?);
    let number = |key: &str| fields.get(key)?.parse::<f64>().ok();
    let integer = |key: &str| fields.get(key)?.parse::<u64>().ok();
    Some((
        fields.get("appender")?.to_string(),
        fields.get("threads")?.parse().ok()?,
        Measurement {
            ops: integer("ops")?,
            seconds: number("seconds")?,
            alloc_bytes: integer("alloc_bytes")?,
            alloc_count: fields
                .get("allocs_per_op")
                .and_then(|v| v.parse::<f64>().ok())
                .map(|per_op| (per_op * integer("ops").unwrap_or(0) as f64).round() as u64),
            events: integer("events")?,
            bytes_written: integer("bytes_written")?,
            bytes_unknown: fields.get("bytes_unknown") == Some(&"true"),
            raw_mb_per_s: number("raw_mb_per_s"),
            window_seconds: number("window_seconds"),
            background_alloc_bytes: integer("background_alloc_bytes"),
            dropped: integer("dropped"),
            queued: integer("queued"),
            ceiling_ops_per_ms: number("ceiling_ops_per_ms"),
            ceiling_writers: fields.get("ceiling_writers").and_then(|w| w.parse().ok()),
            received: integer("received"),
        },
    ))
}

/// The `key=value` fields of a `RESULT` or `LATENCY` line after its first word: one token per
/// field, so values hold no spaces (labels have theirs replaced, see [`Row::result_line`]).
/// Tokens without `=` are skipped; a repeated key keeps its last value.
pub fn fields(rest: &str) -> BTreeMap<&str, &str> {
    rest.split_whitespace()
        .filter_map(|field| field.split_once('='))
        .collect()
}

/// The rows as a fixed-width table.
pub fn table(rows: &[Row]) -> String {
    let header = [
        "appender",
        "library",
        "thr",
        "ops/ms",
        "alloc B/op",
        "alloc MB/s",
        "bg B/op",
        "drain ms",
        "B/event",
        "write MB/s",
        "raw MB/s",
        "of raw",
        "note",
    ];
    let mut cells: Vec<Vec<String>> = vec![header.iter().map(|h| h.to_string()).collect()];
    for row in rows {
        let mut line = vec![
            row.label.clone(),
            row.library.clone(),
            row.threads.to_string(),
        ];
        match &row.outcome {
            Outcome::Measured(m) => {
                line.extend([
                    format!("{:.1}", m.ops_per_ms()),
                    format!("{:.1}", m.alloc_bytes_per_op()),
                    format!("{:.1}", m.alloc_mb_per_s()),
                    m.background_alloc_bytes_per_op()
                        .map_or("-".into(), |b| format!("{b:.1}")),
                    m.drain_seconds()
                        .map_or("-".into(), |d| format!("{:.1}", d * 1000.0)),
                    if m.bytes_unknown {
                        "?".into()
                    } else {
                        format!("{:.0}", m.bytes_per_event())
                    },
                    if m.bytes_unknown {
                        "?".into()
                    } else {
                        format!("{:.1}", m.write_mb_per_s())
                    },
                    m.raw_mb_per_s.map_or("-".into(), |r| format!("{r:.0}")),
                    m.limit_share()
                        .map_or("-".into(), |s| format!("{:.0}%", s * 100.0)),
                    note(row, m),
                ]);
            }
            Outcome::Skipped(reason) => {
                line.extend(std::iter::repeat_n("-".to_string(), 9));
                line.push(format!("skipped: {reason}"));
            }
        }
        cells.push(line);
    }
    columns(&cells, true)
}

/// Lays `cells` out as a fixed-width table, the first line being the header: the first two
/// columns left-aligned, the others right-aligned, two spaces apart, trailing spaces trimmed,
/// a rule under the header. With `free_last` the last column (a note) is not padded and the
/// rule reaches 4 characters into it.
pub fn columns(cells: &[Vec<String>], free_last: bool) -> String {
    let count = cells.first().map_or(0, Vec::len);
    let padded = if free_last {
        count.saturating_sub(1)
    } else {
        count
    };
    let widths: Vec<usize> = (0..padded)
        .map(|c| {
            cells
                .iter()
                .map(|l| l.get(c).map_or(0, |cell| cell.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for (index, line) in cells.iter().enumerate() {
        for (c, cell) in line.iter().enumerate() {
            match widths.get(c) {
                None => out.push_str(cell),
                Some(&w) if c < 2 => {
                    let _ = write!(out, "{cell:<w$}  ");
                }
                Some(&w) => {
                    let _ = write!(out, "{cell:>w$}  ");
                }
            }
        }
        let trimmed = out.trim_end_matches(' ').len();
        out.truncate(trimmed);
        out.push('\n');
        if index == 0 {
            let rule: usize =
                widths.iter().map(|w| w + 2).sum::<usize>() + if free_last { 4 } else { 0 };
            out.push_str(&"-".repeat(rule));
            out.push('\n');
        }
    }
    out
}

/// The table's last column: asynchronous, and any event an asynchronous stage lost.
/// `value` with one decimal, or `na` when the row's bytes are unknown.
fn known(m: &Measurement, value: f64) -> String {
    if m.bytes_unknown {
        "na".to_string()
    } else {
        format!("{value:.1}")
    }
}

fn note(row: &Row, m: &Measurement) -> String {
    let mut note = String::new();
    if row.asynchronous {
        note.push_str("async");
    }
    if m.bytes_unknown {
        let _ = write!(
            note,
            "{}bytes written unknown: rolled files deleted or unreadable (reason on stderr)",
            if note.is_empty() { "" } else { ", " }
        );
    }
    if let Some(dropped) = m.dropped.filter(|d| *d > 0) {
        let _ = write!(
            note,
            "{}DROPPED {dropped} events",
            if note.is_empty() { "" } else { ", " }
        );
    }
    if let (Some(received), Some(missing)) = (m.received, m.missing()) {
        let separator = if note.is_empty() { "" } else { ", " };
        if missing == 0 {
            let _ = write!(note, "{separator}broker received all {received}");
        } else {
            let _ = write!(
                note,
                "{separator}broker received {received}: MISSING {missing} events"
            );
        }
    }
    note
}

/// l4rs's ops/ms over another library's, for each appender and thread count both ran.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratio {
    /// Appender or logger name.
    pub label: String,
    /// Worker threads.
    pub threads: usize,
    /// The library compared with.
    pub other: String,
    /// l4rs ops/ms ÷ the other's ops/ms.
    pub ops_ratio: f64,
    /// l4rs's allocated bytes per operation (producer threads).
    pub ours_alloc_per_op: f64,
    /// The other's allocated bytes per operation (its worker threads).
    pub theirs_alloc_per_op: f64,
    /// The share of the raw write bandwidth the l4rs row reached, when it was measured.
    pub ours_limit_share: Option<f64>,
    /// The l4rs row's kernel ceiling ÷ the other's ops/ms, where the ceiling was measured:
    /// the largest ratio any library could reach in this run.
    pub ceiling_ratio: Option<f64>,
    /// The share of the raw write bandwidth the l4rs row's ceiling reached, where measured.
    pub ceiling_limit_share: Option<f64>,
}

/// The throughput target l4rs sets itself against log4j2: this many times its ops/ms ...
pub const VS_OTHER_TARGET: f64 = 10.0;
/// ... unless the disk caps l4rs first: then at least this share of the raw bandwidth.
pub const LIMIT_SHARE_TARGET: f64 = 0.8;

impl Ratio {
    /// Whether the row meets the throughput target: [`VS_OTHER_TARGET`] times the other
    /// library, or [`LIMIT_SHARE_TARGET`] of the raw bandwidth measured beside it.
    pub fn target_met(&self) -> bool {
        self.ops_ratio >= VS_OTHER_TARGET
            || self
                .ours_limit_share
                .is_some_and(|share| share >= LIMIT_SHARE_TARGET)
    }

    /// Whether the kernel ceiling measured beside the row leaves the target within reach of
    /// per-event writes (`None` without a ceiling): false when even the ceiling is below
    /// [`VS_OTHER_TARGET`] times the other library and below [`LIMIT_SHARE_TARGET`] of the raw
    /// bandwidth, and the row itself did not meet the target (a ceiling is one sample).
    pub fn target_reachable(&self) -> Option<bool> {
        let ceiling = self.ceiling_ratio?;
        Some(
            self.target_met()
                || ceiling >= VS_OTHER_TARGET
                || self
                    .ceiling_limit_share
                    .is_some_and(|share| share >= LIMIT_SHARE_TARGET),
        )
    }
}

/// The end of a line that judges a figure against `target` (`>= 10x`): ` (target >= 10x: met)`
/// or `… missed)` with `--verdicts` (`shown`), nothing without: the report states figures and
/// leaves judging them to whoever asks.
pub fn verdict_note(shown: bool, target: &str, met: bool) -> String {
    if shown {
        format!(" (target {target}: {})", if met { "met" } else { "missed" })
    } else {
        String::new()
    }
}

/// The ratios of l4rs against `other` (e.g. `log4j2`).
pub fn ratios(rows: &[Row], other: &str) -> Vec<Ratio> {
    rows.iter()
        .filter(|row| row.library == "l4rs")
        .filter_map(|ours| {
            let theirs = rows.iter().find(|r| {
                r.library == other && r.label == ours.label && r.threads == ours.threads
            })?;
            let (a, b) = (ours.measurement()?, theirs.measurement()?);
            (b.ops_per_ms() > 0.0).then(|| Ratio {
                label: ours.label.clone(),
                threads: ours.threads,
                other: other.to_string(),
                ops_ratio: a.ops_per_ms() / b.ops_per_ms(),
                ours_alloc_per_op: a.alloc_bytes_per_op(),
                theirs_alloc_per_op: b.alloc_bytes_per_op(),
                ours_limit_share: a.limit_share(),
                ceiling_ratio: a.ceiling_ops_per_ms.map(|c| c / b.ops_per_ms()),
                ceiling_limit_share: a.ceiling_limit_share(),
            })
        })
        .collect()
}

/// One figure across rounds: the round whose value is the median, and every round's value in
/// round order (`None` where that round has no such figure, e.g. a row that did not run).
#[derive(Clone, Debug, PartialEq)]
pub struct AcrossRounds<T> {
    /// The median round's item, with all of that round's figures (a real measurement, not a
    /// mix of several rounds).
    pub median: T,
    /// The value of each round.
    pub per_round: Vec<Option<f64>>,
    /// The item's counterpart in each round that has one, in round order (for figures other
    /// than the folded one).
    pub each: Vec<T>,
}

/// Folds items measured in several rounds (each round the same items in the same order) into
/// one [`AcrossRounds`] per item of the first round: `same` finds an item's counterpart in
/// each round, `value` is what the median is taken of.
fn across_rounds<T: Clone>(
    rounds: &[Vec<T>],
    same: impl Fn(&T, &T) -> bool,
    value: impl Fn(&T) -> Option<f64>,
) -> Vec<AcrossRounds<T>> {
    let Some(first) = rounds.first() else {
        return Vec::new();
    };
    first
        .iter()
        .map(|item| {
            let counterparts: Vec<&T> = rounds
                .iter()
                .filter_map(|round| round.iter().find(|other| same(item, other)))
                .collect();
            let per_round = counterparts.iter().map(|c| value(c)).collect();
            let each = counterparts.iter().map(|c| (*c).clone()).collect();
            let valued: Vec<&T> = counterparts
                .into_iter()
                .filter(|c| value(c).is_some())
                .collect();
            let median = lower_median(valued, |c| value(c).unwrap_or(0.0)).unwrap_or(item);
            AcrossRounds {
                median: median.clone(),
                per_round,
                each,
            }
        })
        .collect()
}

/// The rows of several rounds, each folded to its median round by ops/ms.
pub fn median_rounds(rounds: &[Vec<Row>]) -> Vec<AcrossRounds<Row>> {
    across_rounds(
        rounds,
        |a, b| a.label == b.label && a.library == b.library && a.threads == b.threads,
        |row| row.measurement().map(Measurement::ops_per_ms),
    )
}

/// The ratios of l4rs against `other` in each round, paired within the round (each log4j2 row
/// runs right after its l4rs row, so both saw the same machine), folded to their median.
pub fn median_ratios(rounds: &[Vec<Row>], other: &str) -> Vec<AcrossRounds<Ratio>> {
    let per_round: Vec<Vec<Ratio>> = rounds.iter().map(|round| ratios(round, other)).collect();
    across_rounds(
        &per_round,
        |a, b| a.label == b.label && a.threads == b.threads,
        |ratio| Some(ratio.ops_ratio),
    )
}

/// The thread-scaling ratios of each round (both thread counts of a ratio ran in the same
/// round), folded to their median.
pub fn median_scaling(rounds: &[Vec<Row>]) -> Vec<AcrossRounds<Scaling>> {
    let per_round: Vec<Vec<Scaling>> = rounds.iter().map(|round| scaling(round)).collect();
    across_rounds(
        &per_round,
        |a, b| a.label == b.label && a.library == b.library && a.threads == b.threads,
        |s| Some(s.ratio),
    )
}

/// The median of `items` by `key`: the middle one of an odd count, the lower middle one of an
/// even count, so the result is always one of the items.
fn lower_median<T>(mut items: Vec<T>, key: impl Fn(&T) -> f64) -> Option<T> {
    items.sort_by(|a, b| key(a).total_cmp(&key(b)));
    let middle = items.len().checked_sub(1)? / 2;
    items.into_iter().nth(middle)
}

/// The scaling target l4rs sets itself: at many threads no worse than this share of the same row's
/// figure at the fewest threads. Reported beside the ratio, never enforced.
pub const SCALING_TARGET: f64 = 0.8;

/// One row's ops/ms at a higher thread count over its own ops/ms at the run's lowest one.
#[derive(Clone, Debug, PartialEq)]
pub struct Scaling {
    /// Appender or logger name.
    pub label: String,
    /// The library.
    pub library: String,
    /// The lowest thread count this row ran with (the reference).
    pub base_threads: usize,
    /// The higher thread count.
    pub threads: usize,
    /// ops/ms at `threads` ÷ ops/ms at `base_threads`.
    pub ratio: f64,
}

/// For every row label and library measured at several thread counts: each higher count
/// against the lowest (e.g. 64 threads against 4).
pub fn scaling(rows: &[Row]) -> Vec<Scaling> {
    let mut out = Vec::new();
    for row in rows {
        let Some(m) = row.measurement() else { continue };
        let base = rows
            .iter()
            .filter(|r| r.label == row.label && r.library == row.library)
            .filter_map(|r| Some((r.threads, r.measurement()?)))
            .min_by_key(|(threads, _)| *threads);
        if let Some((base_threads, base)) = base {
            if base_threads < row.threads && base.ops_per_ms() > 0.0 {
                out.push(Scaling {
                    label: row.label.clone(),
                    library: row.library.clone(),
                    base_threads,
                    threads: row.threads,
                    ratio: m.ops_per_ms() / base.ops_per_ms(),
                });
            }
        }
    }
    out
}

/// The whole report as one JSON document.
///
/// With `verdicts` (`--verdicts`) each ratio also says whether it met l4rs's target
/// (`target_met`, `target_reachable`, and the scaling `target`).
pub fn json(
    rows: &[Row],
    ratios: &[Ratio],
    scaling: &[Scaling],
    machine: &serde_json::Value,
    verdicts: bool,
) -> String {
    let document = serde_json::json!({
        "machine": machine,
        "rows": rows.iter().map(Row::json).collect::<Vec<_>>(),
        "ratios": ratios.iter().map(|r| {
            let mut ratio = serde_json::json!({
                "appender": r.label, "threads": r.threads, "vs": r.other, "ops_ratio": r.ops_ratio,
                "alloc_bytes_per_op": r.ours_alloc_per_op, "vs_alloc_bytes_per_op": r.theirs_alloc_per_op,
                "limit_share": r.ours_limit_share,
                "ceiling_ratio": r.ceiling_ratio, "ceiling_limit_share": r.ceiling_limit_share,
            });
            if verdicts {
                ratio["target_met"] = r.target_met().into();
                ratio["target_reachable"] = r.target_reachable().into();
            }
            ratio
        }).collect::<Vec<_>>(),
        "scaling": scaling.iter().map(|s| {
            let mut scaling = serde_json::json!({
                "appender": s.label, "library": s.library, "base_threads": s.base_threads,
                "threads": s.threads, "ops_ratio": s.ratio,
            });
            if verdicts {
                scaling["target"] = SCALING_TARGET.into();
                scaling["target_met"] = (s.ratio >= SCALING_TARGET).into();
            }
            scaling
        }).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&document).unwrap_or_default()
}

/// A horizontal bar chart of ops/ms, one bar per measured row, annotated with the share of the
/// raw disk bandwidth; self-contained SVG.
pub fn svg(rows: &[Row], title: &str) -> String {
    const BAR_WIDTH: f64 = 460.0;
    const ROW_HEIGHT: f64 = 26.0;
    const TOP: f64 = 56.0;
    let measured: Vec<(&Row, &Measurement)> = rows
        .iter()
        .filter_map(|row| Some((row, row.measurement()?)))
        .collect();
    let names: Vec<String> = measured.iter().map(|(row, _)| chart_label(row)).collect();
    // The label column is as wide as the longest label, so none is cut at the left edge.
    let left = names
        .iter()
        .map(|name| label_width(name))
        .fold(120.0f64, f64::max)
        + 20.0;
    let max = measured
        .iter()
        .map(|(_, m)| m.ops_per_ms())
        .fold(0.0f64, f64::max)
        .max(1e-9);
    let height = TOP + ROW_HEIGHT * measured.len().max(1) as f64 + 40.0;
    let width = left + BAR_WIDTH + 220.0;
    let mut out = svg::Header {
        width,
        height,
        font_size: 13,
        title,
        title_size: 16,
        title_y: 24.0,
        notes: &[(
            44.0,
            "operations per millisecond (longer is better); right: share of the raw write bandwidth measured beside it",
        )],
    }
    .render();
    for (index, ((row, m), name)) in measured.iter().zip(&names).enumerate() {
        let y = TOP + ROW_HEIGHT * index as f64;
        let length = (m.ops_per_ms() / max * BAR_WIDTH).max(1.0);
        let colour = match row.library.as_str() {
            "l4rs" => "#2b7bb9",
            "log4j2" => "#d9822b",
            _ => "#7a7a7a",
        };
        let _ = writeln!(
            out,
            r#"<text x="{x}" y="{ty}" text-anchor="end">{name}</text><rect x="{left}" y="{y}" width="{length:.1}" height="{h}" fill="{colour}"/><text x="{vx:.1}" y="{ty}">{ops:.1}{share}</text>"#,
            x = left - 8.0,
            ty = y + 15.0,
            name = svg::escape(name),
            h = ROW_HEIGHT - 8.0,
            vx = left + length + 6.0,
            ops = m.ops_per_ms(),
            share = m
                .limit_share()
                .map_or(String::new(), |s| format!("  ({:.0}% of raw)", s * 100.0)),
        );
    }
    if measured.is_empty() {
        let _ = writeln!(out, r#"<text x="12" y="{TOP}">no row was measured</text>"#);
    }
    out.push_str(svg::END);
    out
}

/// A chart row's label: appender, library, threads and mode.
fn chart_label(row: &Row) -> String {
    format!(
        "{} · {} · {} thr{}",
        row.label,
        row.library,
        row.threads,
        if row.asynchronous { " · async" } else { "" }
    )
}

/// A generous estimate of `text`'s width in pixels at the chart's 13 px sans-serif: 8 px a
/// character is wider than the average glyph of the common sans-serif fonts, so the estimate
/// errs towards room to spare.
fn label_width(text: &str) -> f64 {
    text.chars().count() as f64 * 8.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_is_named_only_when_asked_for() {
        assert_eq!(verdict_note(true, ">= 10x", true), " (target >= 10x: met)");
        assert_eq!(
            verdict_note(true, "<= 0.1x", false),
            " (target <= 0.1x: missed)"
        );
        assert_eq!(verdict_note(false, ">= 10x", true), "");
    }

    fn measured(library: &str, ops: u64) -> Row {
        Row {
            label: "File".into(),
            library: library.into(),
            threads: 4,
            asynchronous: false,
            outcome: Outcome::Measured(Measurement {
                ops,
                seconds: 2.0,
                alloc_bytes: 0,
                alloc_count: Some(0),
                events: ops * 2,
                bytes_written: ops * 2 * 1000,
                raw_mb_per_s: Some(1000.0),
                ..Measurement::default()
            }),
        }
    }

    fn at(threads: usize, label: &str, library: &str, ops: u64) -> Row {
        Row {
            label: label.into(),
            threads,
            ..measured(library, ops)
        }
    }

    #[test]
    fn rounds_fold_to_their_median_round_and_paired_ratios() {
        let round =
            |ours: u64, theirs: u64| vec![measured("l4rs", ours), measured("log4j2", theirs)];
        // ops/ms is ops / 2 s / 1000: l4rs 400, 600, 500; log4j2 50, 100, 40.
        let rounds = [
            round(800_000, 100_000),
            round(1_200_000, 200_000),
            round(1_000_000, 80_000),
        ];
        let rows = median_rounds(&rounds);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].median, rounds[2][0]);
        assert_eq!(rows[0].per_round, [Some(400.0), Some(600.0), Some(500.0)]);
        assert_eq!(rows[1].median, rounds[0][1]);
        // Per round 8x, 6x, 12.5x: the median is the first round's 8x, not 500 / 50 = 10x
        // (the ratio of the median rows, which were measured in different rounds).
        let ratios = median_ratios(&rounds, "log4j2");
        assert_eq!(ratios.len(), 1);
        assert_eq!(ratios[0].per_round, [Some(8.0), Some(6.0), Some(12.5)]);
        assert_eq!(ratios[0].median.ops_ratio, 8.0);
        // Each round's own ratio comes along, for figures other than the folded one.
        let each: Vec<f64> = ratios[0].each.iter().map(|r| r.ops_ratio).collect();
        assert_eq!(each, [8.0, 6.0, 12.5]);
        assert!(!ratios[0].median.target_met());
    }

    #[test]
    fn each_round_keeps_only_the_same_label_and_thread_count() {
        // Round 1 also has RandomAccessFile and a 64-thread File pair; round 2 lacks File.
        let rounds = [
            vec![
                at(4, "RandomAccessFile", "l4rs", 900_000),
                at(4, "RandomAccessFile", "log4j2", 100_000),
                at(64, "File", "l4rs", 700_000),
                at(64, "File", "log4j2", 100_000),
                at(4, "File", "l4rs", 800_000),
                at(4, "File", "log4j2", 100_000),
            ],
            vec![
                at(64, "File", "l4rs", 500_000),
                at(64, "File", "log4j2", 100_000),
            ],
            vec![
                at(4, "File", "l4rs", 600_000),
                at(4, "File", "log4j2", 100_000),
            ],
        ];
        let folded = median_ratios(&rounds, "log4j2");
        let file = folded
            .iter()
            .find(|r| r.median.label == "File" && r.median.threads == 4)
            .unwrap();
        let each: Vec<(&str, usize, f64)> = file
            .each
            .iter()
            .map(|r| (r.label.as_str(), r.threads, r.ops_ratio))
            .collect();
        assert_eq!(each, [("File", 4, 8.0), ("File", 4, 6.0)]);
    }

    #[test]
    fn scaling_is_paired_within_each_round() {
        // ops/ms per round: 4 threads 400, 600, 500; 64 threads 380, 300, 400, i.e. 0.95x,
        // 0.5x, 0.8x. The paired median is round 3's 0.8x, not 380 / 500 = 0.76x (the median
        // rows, measured in different rounds).
        let round =
            |four: u64, many: u64| vec![at(4, "File", "l4rs", four), at(64, "File", "l4rs", many)];
        let rounds = [
            round(800_000, 760_000),
            round(1_200_000, 600_000),
            round(1_000_000, 800_000),
        ];
        let folded = median_scaling(&rounds);
        assert_eq!(folded.len(), 1);
        assert_eq!(folded[0].per_round, [Some(0.95), Some(0.5), Some(0.8)]);
        assert_eq!(folded[0].median, scaling(&rounds[2])[0]);
    }

    #[test]
    fn an_even_number_of_rounds_takes_the_lower_middle_one() {
        assert_eq!(lower_median(vec![3.0, 1.0, 4.0, 2.0], |x| *x), Some(2.0));
        assert_eq!(lower_median(Vec::<f64>::new(), |x| *x), None);
        let rounds = [
            vec![measured("l4rs", 10)],
            vec![Row {
                outcome: Outcome::Skipped("no java".into()),
                ..measured("l4rs", 1)
            }],
        ];
        let rows = median_rounds(&rounds);
        assert_eq!(rows[0].median, rounds[0][0]);
        assert_eq!(rows[0].per_round, [Some(0.005), None]);
    }

    #[test]
    fn the_ceiling_bounds_what_any_library_could_reach() {
        // l4rs 500 ops/ms, log4j2 100 ops/ms, 1000-byte events, a 1000 MB/s raw probe.
        let with_ceiling = |ceiling: Option<f64>| {
            let mut ours = measured("l4rs", 1_000_000);
            if let Outcome::Measured(m) = &mut ours.outcome {
                m.ceiling_ops_per_ms = ceiling;
            }
            ratios(&[ours, measured("log4j2", 200_000)], "log4j2")
                .pop()
                .unwrap()
        };
        let none = with_ceiling(None);
        assert_eq!((none.ceiling_ratio, none.target_reachable()), (None, None));
        // 700 ops/ms: 7x log4j2 and 667 MB/s, 67% of raw: no library reaches the target.
        let low = with_ceiling(Some(700.0));
        assert_eq!(low.ceiling_ratio, Some(7.0));
        assert!((low.ceiling_limit_share.unwrap() - 700_000.0 * 1000.0 / MB / 1000.0).abs() < 1e-9);
        assert_eq!(low.target_reachable(), Some(false));
        // 900 ops/ms: only 9x, but 858 MB/s is 86% of raw, which the target also accepts.
        assert_eq!(with_ceiling(Some(900.0)).target_reachable(), Some(true));
        assert_eq!(with_ceiling(Some(1200.0)).target_reachable(), Some(true));
        // A row that met the target is within reach whatever its ceiling sample said.
        let mut met = with_ceiling(Some(700.0));
        met.ops_ratio = 10.5;
        assert_eq!(met.target_reachable(), Some(true));
    }

    #[test]
    fn the_ceiling_goes_into_result_lines_and_back() {
        let mut row = measured("l4rs", 1_000_000);
        let line = row.result_line();
        assert!(!line.contains("ceiling"), "{line}");
        if let Outcome::Measured(m) = &mut row.outcome {
            m.ceiling_ops_per_ms = Some(700.0);
            m.ceiling_writers = Some(1);
        }
        let line = row.result_line();
        assert!(
            line.ends_with(" ceiling_ops_per_ms=700.000 ceiling_share=0.714 ceiling_writers=1"),
            "{line}"
        );
        let (_, _, back) = parse_result_line(&line).unwrap();
        assert_eq!(back.ceiling_ops_per_ms, Some(700.0));
        assert_eq!(back.ceiling_writers, Some(1));
        assert!((back.ceiling_share().unwrap() - 500.0 / 700.0).abs() < 1e-12);
        assert_eq!(row.json()["ceiling_ops_per_ms"], 700.0);
    }

    #[test]
    fn derived_figures() {
        let m = measured("l4rs", 1_000_000).measurement().copied().unwrap();
        assert_eq!(m.ops_per_ms(), 500.0);
        assert_eq!(m.bytes_per_event(), 1000.0);
        let write = 1000.0 * 1_000_000.0 / 2.0 / MB;
        assert!((m.write_mb_per_s() - write).abs() < 1e-9);
        assert!((m.limit_share().unwrap() - write / 1000.0).abs() < 1e-12);
        assert_eq!(m.alloc_bytes_per_op(), 0.0);
        assert_eq!(m.allocs_per_op(), Some(0.0));
    }

    #[test]
    fn result_lines_start_with_the_java_keys_and_round_trip() {
        let row = measured("l4rs", 1_000_000);
        let line = row.result_line();
        assert!(
            line.starts_with("RESULT appender=File threads=4 ops_per_ms=500.000 alloc_bytes_per_op=0.0 alloc_mb_per_s=0.0 bytes_per_event=1000.0 write_mb_per_s=476.8 limit_share=0.477 lib=l4rs async=false"),
            "{line}"
        );
        let (label, threads, back) = parse_result_line(&line).unwrap();
        assert_eq!((label.as_str(), threads), ("File", 4));
        assert_eq!(back.ops, 1_000_000);
        assert_eq!(back.events, 2_000_000);
        assert_eq!(back.alloc_count, Some(0));
        assert_eq!(back.raw_mb_per_s, Some(1000.0));
    }

    #[test]
    fn columns_align_names_left_figures_right_and_leave_the_note_free() {
        let cells = |rows: &[&[&str]]| -> Vec<Vec<String>> {
            rows.iter()
                .map(|r| r.iter().map(|c| c.to_string()).collect())
                .collect()
        };
        let table = cells(&[
            &["row", "lib", "ops", "note"],
            &["File", "l4rs", "12.5", "async, long note"],
            &["RandomAccessFile", "x", "3", ""],
        ]);
        assert_eq!(
            columns(&table, true),
            "row               lib    ops  note\n\
             ----------------------------------\n\
             File              l4rs  12.5  async, long note\n\
             RandomAccessFile  x        3\n"
        );
        assert_eq!(
            columns(&table[..2], false),
            "row   lib    ops              note\n\
             ------------------------------------\n\
             File  l4rs  12.5  async, long note\n"
        );
        assert_eq!(columns(&[], true), "");
    }

    #[test]
    fn a_runners_sample_gives_the_figures_it_knows() {
        let sample = crate::runner::Sample {
            ops: 1000,
            window_seconds: 2.0,
            seconds: 2.5,
            alloc: crate::alloc::AllocSnapshot {
                bytes: 64,
                count: 2,
            },
            background_alloc: crate::alloc::AllocSnapshot { bytes: 8, count: 1 },
            events: 1400,
        };
        let m = Measurement::of_sample(&sample, 1_400_000);
        assert_eq!(
            m,
            Measurement {
                ops: 1000,
                seconds: 2.5,
                window_seconds: Some(2.0),
                alloc_bytes: 64,
                alloc_count: Some(2),
                background_alloc_bytes: Some(8),
                events: 1400,
                bytes_written: 1_400_000,
                ..Measurement::default()
            }
        );
        assert_eq!(m.bytes_per_event(), 1000.0);
        assert_eq!(m.drain_seconds(), Some(0.5));
    }

    #[test]
    fn fields_are_the_key_value_tokens_of_a_line() {
        let fields = fields("appender=File threads=4 stray ops=1 ops=2 reason=a=b");
        let pairs: Vec<(&str, &str)> = fields.into_iter().collect();
        assert_eq!(
            pairs,
            [
                ("appender", "File"),
                ("ops", "2"),
                ("reason", "a=b"),
                ("threads", "4")
            ]
        );
        assert!(super::fields("").is_empty());
    }

    #[test]
    fn java_lines_parse_without_an_allocation_count() {
        let line = "RESULT appender=File threads=4 ops_per_ms=20.0 alloc_bytes_per_op=16000 alloc_mb_per_s=1.0 bytes_per_event=9000 write_mb_per_s=1.0 ops=100000 seconds=5.000 alloc_bytes=1600000000 events=140000 bytes_written=1260000000 lib=log4j2";
        let (_, _, m) = parse_result_line(line).unwrap();
        assert_eq!(m.alloc_count, None);
        assert_eq!(m.alloc_bytes_per_op(), 16000.0);
        assert_eq!(m.raw_mb_per_s, None);
        assert!(parse_result_line("INFO java=17").is_none());
    }

    #[test]
    fn skipped_rows_say_why() {
        let row = Row {
            outcome: Outcome::Skipped("appender \"RandomAccessFile\" not built".into()),
            ..measured("l4rs", 1)
        };
        assert_eq!(
            row.result_line(),
            "SKIPPED appender=File threads=4 lib=l4rs reason=\"appender 'RandomAccessFile' not built\""
        );
        assert!(table(&[row]).contains("skipped: appender \"RandomAccessFile\" not built"));
    }

    #[test]
    fn table_has_a_header_and_one_line_per_row() {
        let text = table(&[measured("l4rs", 1_000_000), measured("log4j2", 50_000)]);
        let lines: Vec<_> = text.lines().collect();
        assert_eq!(lines.len(), 4);
        assert!(lines[0].starts_with("appender  library"));
        assert!(lines[2].contains("500.0") && lines[2].contains("48%"));
        assert!(lines[3].contains("25.0"));
    }

    #[test]
    fn ratios_pair_rows_by_appender_and_threads() {
        let rows = [measured("l4rs", 1_000_000), measured("log4j2", 50_000)];
        let ratios = ratios(&rows, "log4j2");
        assert_eq!(ratios.len(), 1);
        assert_eq!(ratios[0].ops_ratio, 20.0);
        assert_eq!(ratios[0].theirs_alloc_per_op, 0.0);
        assert!(super::ratios(&rows, "log4rs").is_empty());
    }

    #[test]
    fn the_throughput_target_is_ten_times_or_most_of_the_disk() {
        // 2_000_000 ops in 2 s, two 1000-byte events each: 954 MB/s of a 1000 MB/s probe.
        let disk_bound = ratios(
            &[measured("l4rs", 2_000_000), measured("log4j2", 1_000_000)],
            "log4j2",
        );
        assert_eq!(disk_bound[0].ops_ratio, 2.0);
        assert!(disk_bound[0].target_met());
        let ours_slow = Row {
            outcome: match measured("l4rs", 100_000).outcome {
                Outcome::Measured(m) => Outcome::Measured(Measurement {
                    raw_mb_per_s: None,
                    ..m
                }),
                other => other,
            },
            ..measured("l4rs", 100_000)
        };
        let slow = ratios(&[ours_slow.clone(), measured("log4j2", 20_000)], "log4j2");
        assert_eq!(slow[0].ops_ratio, 5.0);
        assert!(!slow[0].target_met());
        let fast = ratios(&[ours_slow, measured("log4j2", 10_000)], "log4j2");
        assert!(fast[0].target_met());
    }

    #[test]
    fn svg_label_column_fits_the_longest_label() {
        let long = Row {
            label: "AsyncLogger-RandomAccessFile".into(),
            asynchronous: true,
            ..measured("l4rs", 1_000_000)
        };
        let label = chart_label(&long);
        let chart = svg(&[measured("log4j2", 50_000), long], "t");
        // Every bar starts right of the longest label's estimated width: nothing is cut.
        for bar in chart.split("<rect x=\"").skip(1) {
            let x: f64 = bar.split('"').next().unwrap().parse().unwrap();
            assert!(
                x >= label_width(&label),
                "bar at {x} overlaps a {label:?} label"
            );
        }
        assert!(chart.contains(&svg::escape(&label)));
    }

    #[test]
    fn svg_and_json_hold_every_measured_row() {
        let rows = [measured("l4rs", 1_000_000), measured("log4j2", 50_000)];
        let chart = svg(&rows, "a <title>");
        assert!(chart.starts_with("<svg") && chart.trim_end().ends_with("</svg>"));
        assert_eq!(chart.matches("<rect x=").count(), 2);
        assert!(chart.contains("a &lt;title&gt;"));
        let doc: serde_json::Value = serde_json::from_str(&json(
            &rows,
            &ratios(&rows, "log4j2"),
            &scaling(&rows),
            &serde_json::json!({}),
            false,
        ))
        .unwrap();
        assert_eq!(doc["rows"].as_array().unwrap().len(), 2);
        assert_eq!(doc["ratios"][0]["ops_ratio"], 20.0);
        assert!(doc["ratios"][0].get("target_met").is_none());
        let judged: serde_json::Value = serde_json::from_str(&json(
            &rows,
            &ratios(&rows, "log4j2"),
            &scaling(&rows),
            &serde_json::json!({}),
            true,
        ))
        .unwrap();
        assert_eq!(judged["ratios"][0]["target_met"], true);
        assert!(doc["scaling"].as_array().unwrap().is_empty());
    }

    #[test]
    fn end_to_end_rates_include_the_drain() {
        let m = Measurement {
            ops: 1_000_000,
            seconds: 2.5,
            window_seconds: Some(2.0),
            background_alloc_bytes: Some(3_000_000),
            queued: Some(1_200_000),
            dropped: Some(0),
            ..Measurement::default()
        };
        assert_eq!(m.ops_per_ms(), 400.0);
        assert_eq!(m.handover_ops_per_ms(), 500.0);
        assert_eq!(m.drain_seconds(), Some(0.5));
        assert_eq!(m.background_alloc_bytes_per_op(), Some(3.0));
        let row = Row {
            asynchronous: true,
            outcome: Outcome::Measured(m),
            ..measured("l4rs", 1)
        };
        let line = row.result_line();
        assert!(
            line.contains(" window_seconds=2.000 handover_ops_per_ms=500.000"),
            "{line}"
        );
        assert!(line.contains(" background_alloc_bytes=3000000 background_alloc_bytes_per_op=3.0"));
        assert!(line.ends_with(" queued=1200000 dropped=0"), "{line}");
        let (_, _, back) = parse_result_line(&line).unwrap();
        assert_eq!(back, m);
        let text = table(&[row]);
        assert!(text.lines().nth(1).unwrap().starts_with("---"));
        assert!(
            text.contains("500.0") && text.trim_end().ends_with("async"),
            "{text}"
        );
    }

    #[test]
    fn the_brokers_count_goes_into_the_note_the_result_line_and_the_json() {
        let mut row = measured("l4rs", 1000);
        row.asynchronous = true;
        if let Outcome::Measured(m) = &mut row.outcome {
            m.received = Some(m.events);
        }
        assert!(table(&[row.clone()]).contains("async, broker received all 2000"));
        let line = row.result_line();
        assert!(line.ends_with(" received=2000"), "{line}");
        assert_eq!(parse_result_line(&line).unwrap().2.received, Some(2000));
        assert_eq!(row.json()["received"], 2000);
        if let Outcome::Measured(m) = &mut row.outcome {
            m.received = Some(1990);
        }
        assert_eq!(row.measurement().unwrap().missing(), Some(10));
        assert!(table(&[row]).contains("broker received 1990: MISSING 10 events"));
        assert_eq!(measured("l4rs", 1).measurement().unwrap().missing(), None);
    }

    #[test]
    fn dropped_events_are_flagged_in_the_table() {
        let mut row = measured("l4rs", 1000);
        row.asynchronous = true;
        if let Outcome::Measured(m) = &mut row.outcome {
            m.dropped = Some(12);
        }
        assert!(table(&[row]).contains("async, DROPPED 12 events"));
    }

    #[test]
    fn scaling_compares_each_row_with_its_own_lowest_thread_count() {
        let rows = [
            at(4, "File", "l4rs", 1000),
            at(4, "File", "log4j2", 100),
            at(64, "File", "l4rs", 900),
            at(64, "File", "log4j2", 50),
            at(64, "AsyncLogger-File", "l4rs", 700),
        ];
        let found = scaling(&rows);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(
            (
                found[0].library.as_str(),
                found[0].base_threads,
                found[0].threads
            ),
            ("l4rs", 4, 64)
        );
        assert!((found[0].ratio - 0.9).abs() < 1e-12);
        assert!((found[1].ratio - 0.5).abs() < 1e-12);
    }
}
