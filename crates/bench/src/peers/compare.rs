//! The peer table both ways: each peer's ops/ms with std's backtrace and with the pre-resolved
//! frames, each beside l4rs's File row of the same run, with what each comparison means.

use std::fmt::Write as _;

use super::{ErrorForm, PEERS};
use crate::report::Row;

/// The l4rs row the peers are compared with: the sample's synchronous File appender, which
/// like every synchronous peer hands each event to the OS before the call returns.
pub const L4RS_ROW: &str = "File";

/// One peer's two figures at one thread count.
#[derive(Clone, Debug, PartialEq)]
pub struct PeerPair {
    /// The peer's crate.
    pub peer: &'static str,
    /// Worker threads.
    pub threads: usize,
    /// True when the peer hands events to a background thread.
    pub asynchronous: bool,
    /// Its ops/ms with the error followed by std's `Backtrace` (`None`: skipped).
    pub backtrace: Option<f64>,
    /// Its ops/ms with the pre-resolved frames (`None`: skipped).
    pub resolved: Option<f64>,
    /// l4rs's File row at the same thread count (`None`: not run).
    pub l4rs: Option<f64>,
}

impl PeerPair {
    /// l4rs's ops/ms over the peer's, with std's backtrace.
    pub fn backtrace_ratio(&self) -> Option<f64> {
        ratio(self.l4rs, self.backtrace)
    }

    /// l4rs's ops/ms over the peer's, on equal terms.
    pub fn resolved_ratio(&self) -> Option<f64> {
        ratio(self.l4rs, self.resolved)
    }
}

fn ratio(ours: Option<f64>, theirs: Option<f64>) -> Option<f64> {
    match (ours, theirs) {
        (Some(ours), Some(theirs)) if theirs > 0.0 => Some(ours / theirs),
        _ => None,
    }
}

/// Pairs every peer's two rows with l4rs's File row, per thread count, in the peers' order.
pub fn pairs(rows: &[Row]) -> Vec<PeerPair> {
    let ops = |label: &str, library: &str, threads: usize| {
        rows.iter()
            .find(|r| r.label == label && r.library == library && r.threads == threads)
            .and_then(Row::measurement)
            .map(|m| m.ops_per_ms())
    };
    let mut thread_counts: Vec<usize> = rows
        .iter()
        .filter(|r| ErrorForm::ALL.iter().any(|f| f.label() == r.label))
        .map(|r| r.threads)
        .collect();
    thread_counts.dedup();
    let mut out = Vec::new();
    for threads in thread_counts {
        for peer in PEERS {
            out.push(PeerPair {
                peer: peer.name,
                threads,
                asynchronous: peer.asynchronous,
                backtrace: ops(ErrorForm::Backtrace.label(), peer.name, threads),
                resolved: ops(ErrorForm::Resolved.label(), peer.name, threads),
                l4rs: ops(L4RS_ROW, "l4rs", threads),
            });
        }
    }
    out
}

/// The comparison as text: one table per thread count and the lines saying what it means.
/// Empty when the run had no peer rows.
pub fn summary(rows: &[Row]) -> String {
    let pairs = pairs(rows);
    if pairs.is_empty() {
        return String::new();
    }
    let cell = |v: Option<f64>, unit: &str| v.map_or("-".to_string(), |v| format!("{v:.1}{unit}"));
    let mut out = String::new();
    let mut threads = 0;
    for pair in &pairs {
        if pair.threads != threads {
            threads = pair.threads;
            let _ = writeln!(
                out,
                "\npeers at {threads} threads beside l4rs's {L4RS_ROW} row ({} ops/ms); l4rs ÷ peer in ops/ms:",
                cell(pair.l4rs, "")
            );
            let _ = writeln!(
                out,
                "  {:<10} {:>14} {:>8} {:>16} {:>8}",
                "peer", "std Backtrace", "l4rs ÷", "resolved frames", "l4rs ÷"
            );
        }
        let _ = writeln!(
            out,
            "  {:<10} {:>14} {:>8} {:>16} {:>8}{}",
            pair.peer,
            cell(pair.backtrace, ""),
            cell(pair.backtrace_ratio(), "x"),
            cell(pair.resolved, ""),
            cell(pair.resolved_ratio(), "x"),
            if pair.asynchronous { "  async" } else { "" }
        );
    }
    out.push_str("(std Backtrace: the error then std::backtrace::Backtrace's Display, as Rust users write it; std demangles and formats every frame again on each event, so this column mostly measures std's rendering, not the peer)\n");
    out.push_str("(resolved frames: the same 101 frames resolved once and written by a Display that only copies them, the error l4rs's rows and the rust-peers harness use: the peers' logging machinery on equal terms with l4rs)\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Measurement, Outcome};

    fn row(label: &str, library: &str, ops: u64) -> Row {
        Row {
            label: label.into(),
            library: library.into(),
            threads: 4,
            asynchronous: false,
            outcome: Outcome::Measured(Measurement {
                ops,
                seconds: 1.0,
                window_seconds: Some(1.0),
                alloc_bytes: 0,
                alloc_count: Some(0),
                background_alloc_bytes: Some(0),
                events: ops,
                bytes_written: ops * 100,
                ..Measurement::default()
            }),
        }
    }

    /// l4rs's File row and spdlog-rs's rows both ways: 6× and 1.2× slower than l4rs.
    fn spdlog_both_ways() -> Vec<Row> {
        vec![
            row("File", "l4rs", 300_000),
            row("peer", "spdlog-rs", 50_000),
            row("peer-resolved", "spdlog-rs", 250_000),
        ]
    }

    #[test]
    fn each_peer_is_paired_with_both_forms_and_the_file_row() {
        let rows = spdlog_both_ways();
        let pairs = pairs(&rows);
        assert_eq!(pairs.len(), PEERS.len());
        let spdlog = pairs.iter().find(|p| p.peer == "spdlog-rs").unwrap();
        assert_eq!(spdlog.backtrace, Some(50.0));
        assert_eq!(spdlog.resolved, Some(250.0));
        assert_eq!(spdlog.backtrace_ratio(), Some(6.0));
        assert_eq!(spdlog.resolved_ratio(), Some(1.2));
        let log4rs = pairs.iter().find(|p| p.peer == "log4rs").unwrap();
        assert_eq!(log4rs.backtrace_ratio(), None);
    }

    #[test]
    fn the_summary_prints_both_columns_and_what_they_mean() {
        let rows = spdlog_both_ways();
        let text = summary(&rows);
        let spdlog = text.lines().find(|l| l.contains("spdlog-rs")).unwrap();
        assert!(
            spdlog.contains("6.0x") && spdlog.contains("1.2x"),
            "{spdlog}"
        );
        assert!(text.contains("std Backtrace:") && text.contains("resolved frames:"));
        assert_eq!(summary(&[row("File", "l4rs", 1)]), "");
    }
}
