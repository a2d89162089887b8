//! One latency row's figures, its `LATENCY` line (printed by l4rs's side and by the Java
//! harness alike, and read back), its JSON and the side-by-side table.

use std::fmt::Write as _;

use super::histogram::Histogram;

/// The percentiles reported (100 is the maximum), with their `LATENCY` key stems: `p99_9` is
/// the 99.9th percentile in nanoseconds as `p99_9_ns=…`.
pub const PERCENTILES: [(f64, &str); 11] = [
    (50.0, "p50"),
    (75.0, "p75"),
    (90.0, "p90"),
    (99.0, "p99"),
    (99.5, "p99_5"),
    (99.9, "p99_9"),
    (99.95, "p99_95"),
    (99.99, "p99_99"),
    (99.995, "p99_995"),
    (99.999, "p99_999"),
    (100.0, "max"),
];

/// The target: l4rs's p99.99 and maximum at most this share of log4j2's.
pub const TAIL_TARGET: f64 = 0.1;

/// One row's latency distribution.
#[derive(Clone, Debug, PartialEq)]
pub struct Latency {
    /// The row label (`File`, `AsyncLogger-File`, …).
    pub label: String,
    /// `l4rs`, `log4j2`, or one of the floors ([`super::floor`]).
    pub library: String,
    /// Worker threads.
    pub threads: usize,
    /// Calls offered per second by each thread.
    pub rate_per_thread: f64,
    /// Calls due in the window.
    pub due: u64,
    /// Calls timed.
    pub calls: u64,
    /// Nanoseconds at each of [`PERCENTILES`], in order.
    pub nanos: [u64; PERCENTILES.len()],
}

impl Latency {
    /// The figures of `histogram`.
    pub fn from_histogram(
        label: &str,
        library: &str,
        threads: usize,
        rate_per_thread: f64,
        due: u64,
        histogram: &Histogram,
    ) -> Latency {
        let mut nanos = [0; PERCENTILES.len()];
        for (slot, (p, _)) in nanos.iter_mut().zip(PERCENTILES) {
            *slot = if p >= 100.0 {
                histogram.max()
            } else {
                histogram.value_at(p)
            };
        }
        Latency {
            label: label.to_string(),
            library: library.to_string(),
            threads,
            rate_per_thread,
            due,
            calls: histogram.count(),
            nanos,
        }
    }

    /// Nanoseconds at `percentile` (one of [`PERCENTILES`]).
    pub fn at(&self, percentile: f64) -> Option<u64> {
        PERCENTILES
            .iter()
            .position(|(p, _)| *p == percentile)
            .map(|i| self.nanos[i])
    }

    /// `LATENCY appender=… threads=… lib=… rate_per_thread=… due=… calls=… p50_ns=… … max_ns=…`.
    pub fn line(&self) -> String {
        let mut out = format!(
            "LATENCY appender={} threads={} lib={} rate_per_thread={:.0} due={} calls={}",
            self.label.replace(char::is_whitespace, "_"),
            self.threads,
            self.library,
            self.rate_per_thread,
            self.due,
            self.calls
        );
        for ((_, key), value) in PERCENTILES.iter().zip(self.nanos) {
            let _ = write!(out, " {key}_ns={value}");
        }
        out
    }

    /// Reads a [`Latency::line`] back (from the Java harness or a test).
    pub fn parse(line: &str) -> Option<Latency> {
        let fields = crate::report::fields(line.strip_prefix("LATENCY ")?);
        let mut nanos = [0; PERCENTILES.len()];
        for (slot, (_, key)) in nanos.iter_mut().zip(PERCENTILES) {
            *slot = fields.get(format!("{key}_ns").as_str())?.parse().ok()?;
        }
        Some(Latency {
            label: fields.get("appender")?.to_string(),
            library: fields.get("lib")?.to_string(),
            threads: fields.get("threads")?.parse().ok()?,
            rate_per_thread: fields.get("rate_per_thread")?.parse().ok()?,
            due: fields.get("due")?.parse().ok()?,
            calls: fields.get("calls")?.parse().ok()?,
            nanos,
        })
    }

    /// The row as JSON: its keys, and `percentiles_ns` keyed like the line.
    pub fn json(&self) -> serde_json::Value {
        let percentiles: serde_json::Map<String, serde_json::Value> = PERCENTILES
            .iter()
            .zip(self.nanos)
            .map(|((_, key), value)| (key.to_string(), value.into()))
            .collect();
        serde_json::json!({
            "appender": self.label,
            "library": self.library,
            "threads": self.threads,
            "rate_per_thread": self.rate_per_thread,
            "due": self.due,
            "calls": self.calls,
            "percentiles_ns": percentiles,
        })
    }
}

/// The columns of the table: p50, p99, p99.9, p99.99 and max.
const TABLE: [f64; 5] = [50.0, 99.0, 99.9, 99.99, 100.0];

/// Microseconds with three significant digits.
pub fn micros(nanos: u64) -> String {
    let us = nanos as f64 / 1000.0;
    if us >= 100.0 {
        format!("{us:.0}")
    } else if us >= 10.0 {
        format!("{us:.1}")
    } else {
        format!("{us:.2}")
    }
}

/// The rows side by side (each l4rs row followed by its log4j2 row and its floors), in
/// microseconds.
pub fn table(rows: &[Latency]) -> String {
    let mut cells = vec![vec![
        "appender".to_string(),
        "library".into(),
        "thr".into(),
        "rate/thr/s".into(),
        "calls".into(),
        "p50 µs".into(),
        "p99 µs".into(),
        "p99.9 µs".into(),
        "p99.99 µs".into(),
        "max µs".into(),
    ]];
    for row in rows {
        let mut line = vec![
            row.label.clone(),
            row.library.clone(),
            row.threads.to_string(),
            format!("{:.0}", row.rate_per_thread),
            if row.calls == row.due {
                row.calls.to_string()
            } else {
                format!("{} of {}", row.calls, row.due)
            },
        ];
        line.extend(TABLE.iter().map(|p| row.at(*p).map_or("-".into(), micros)));
        cells.push(line);
    }
    crate::report::columns(&cells, false)
}

/// For each l4rs row with a log4j2 row of the same label and threads: l4rs's p99.99 and max
/// as a share of log4j2's and, with `verdicts` (`--verdicts`), whether both are within
/// [`TAIL_TARGET`]; then each floor of that row ([`super::floor`]) as a share of log4j2's, which
/// says how small a share this machine allows any library.
pub fn comparisons(rows: &[Latency], verdicts: bool) -> Vec<String> {
    let mut lines = Vec::new();
    for ours in rows.iter().filter(|r| r.library == "l4rs") {
        let same_row = |r: &&Latency| r.label == ours.label && r.threads == ours.threads;
        let Some(theirs) = rows.iter().filter(same_row).find(|r| r.library == "log4j2") else {
            continue;
        };
        let Some((tail, max)) = tail_shares(ours, theirs) else {
            continue;
        };
        let met = tail <= TAIL_TARGET && max <= TAIL_TARGET;
        let target = format!("<= {TAIL_TARGET:.1}x");
        let verdict = crate::report::verdict_note(verdicts, &target, met);
        lines.push(format!(
            "{} at {} threads: l4rs's p99.99 = {tail:.2}x log4j2's, max = {max:.2}x{verdict}",
            ours.label, ours.threads,
        ));
        let floors = rows
            .iter()
            .filter(same_row)
            .filter(|r| super::floor::is_floor(&r.library));
        for floor in floors {
            let Some((tail, max)) = tail_shares(floor, theirs) else {
                continue;
            };
            // Only a call that does nothing says how short any call can be in this run; the
            // write(2) floor is one way of writing, which a library may beat by another.
            let no_op_over =
                floor.library == super::floor::NO_OP && (tail > TAIL_TARGET || max > TAIL_TARGET);
            let bound = if verdicts && no_op_over {
                format!(
                    " (over {TAIL_TARGET:.1}x: in this run, even a call that does nothing missed the target)"
                )
            } else {
                String::new()
            };
            lines.push(format!(
                "  {}: p99.99 = {tail:.2}x log4j2's, max = {max:.2}x{bound}",
                floor.library
            ));
        }
    }
    lines
}

/// `ours`'s p99.99 and maximum as shares of `theirs`.
fn tail_shares(ours: &Latency, theirs: &Latency) -> Option<(f64, f64)> {
    let share = |p: f64| {
        let (a, b) = (ours.at(p)? as f64, theirs.at(p)? as f64);
        (b > 0.0).then_some(a / b)
    };
    Some((share(99.99)?, share(100.0)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(library: &str, scale: u64) -> Latency {
        let mut h = Histogram::new();
        for value in 1..=100_000u64 {
            h.record(value * scale);
        }
        Latency::from_histogram("File", library, 4, 35_000.0, 100_000, &h)
    }

    #[test]
    fn the_line_round_trips_and_names_every_percentile() {
        let row = sample("l4rs", 10);
        let line = row.line();
        assert!(line.starts_with("LATENCY appender=File threads=4 lib=l4rs rate_per_thread=35000"));
        for key in [
            "p50_ns=",
            "p99_ns=",
            "p99_9_ns=",
            "p99_99_ns=",
            "max_ns=1000000",
        ] {
            assert!(line.contains(key), "{key}: {line}");
        }
        assert_eq!(Latency::parse(&line), Some(row));
        assert_eq!(Latency::parse("RESULT appender=File"), None);
        assert_eq!(Latency::parse("LATENCY appender=File threads=4"), None);
    }

    #[test]
    fn percentiles_come_from_the_histogram() {
        let row = sample("l4rs", 1);
        assert_eq!(row.calls, 100_000);
        assert_eq!(row.at(100.0), Some(100_000));
        let p99 = row.at(99.0).unwrap();
        assert!((99_000..=99_000 + 99_000 / 128).contains(&p99), "{p99}");
        assert_eq!(row.at(42.0), None);
        let mut sorted = row.nanos;
        sorted.sort_unstable();
        assert_eq!(sorted, row.nanos);
    }

    #[test]
    fn json_holds_the_same_figures() {
        let row = sample("log4j2", 3);
        let json = row.json();
        assert_eq!(json["library"], "log4j2");
        assert_eq!(json["calls"], 100_000);
        assert_eq!(json["percentiles_ns"]["max"], 300_000);
        assert_eq!(json["percentiles_ns"]["p99_99"], row.at(99.99).unwrap());
    }

    #[test]
    fn the_table_and_the_verdict_pair_l4rs_with_log4j2() {
        let rows = [sample("l4rs", 1), sample("log4j2", 20)];
        let text = table(&rows);
        assert_eq!(text.lines().count(), 4);
        assert!(text.lines().nth(2).unwrap().starts_with("File      l4rs"));
        let verdicts = comparisons(&rows, true);
        assert_eq!(verdicts.len(), 1);
        assert!(
            verdicts[0].contains("max = 0.05x") && verdicts[0].ends_with("met)"),
            "{}",
            verdicts[0]
        );
        let close = [sample("l4rs", 1), sample("log4j2", 2)];
        assert!(verdicts_of(&close).ends_with("missed)"));
        assert!(comparisons(&[sample("l4rs", 1)], true).is_empty());
        // Without --verdicts the same figures, no pass/fail.
        assert!(
            comparisons(&rows, false)[0].ends_with("max = 0.05x"),
            "{:?}",
            comparisons(&rows, false)
        );
    }

    #[test]
    fn each_floor_is_read_against_log4j2s_tail() {
        let rows = [
            sample("l4rs", 4),
            sample("log4j2", 20),
            sample(super::super::floor::NO_OP, 3),
            sample(super::super::floor::WRITE_ONLY, 4),
        ];
        let lines = comparisons(&rows, true);
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines[0].ends_with("missed)"), "{}", lines[0]);
        // 3/20 of log4j2's tail is above the 0.1 target: no library could meet it here.
        assert_eq!(
            lines[1],
            "  floor:no-op: p99.99 = 0.15x log4j2's, max = 0.15x (over 0.1x: in this run, even a call that does nothing missed the target)"
        );
        assert_eq!(
            lines[2],
            // Over the target too, but one way of writing bounds nothing: no note.
            "  floor:write(2): p99.99 = 0.20x log4j2's, max = 0.20x"
        );
    }

    fn verdicts_of(rows: &[Latency]) -> String {
        comparisons(rows, true).join("")
    }

    #[test]
    fn microseconds_keep_three_digits() {
        assert_eq!(micros(1_234), "1.23");
        assert_eq!(micros(12_345), "12.3");
        assert_eq!(micros(1_234_567), "1235");
    }
}
