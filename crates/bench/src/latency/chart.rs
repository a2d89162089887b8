//! The latency-distribution chart: for each row, l4rs's and log4j2's latency and the row's
//! floors ([`super::floor`]) (log axis) against the percentile (log axis of 1 / (1 − p), so
//! 90%, 99%, 99.9%, … are evenly apart and the tail gets the room), one panel per row, as
//! HdrHistogram's plots draw it.

use std::fmt::Write as _;

use super::floor;
use super::result::{Latency, PERCENTILES};
use crate::report::svg::{self, escape};

const PANEL_WIDTH: f64 = 560.0;
const PANEL_HEIGHT: f64 = 230.0;
const LEFT: f64 = 80.0;
const TOP: f64 = 84.0;
/// Room under each panel for its axis labels and its legend (up to four lines: l4rs, log4j2
/// and the row's two floors).
const GAP: f64 = 140.0;
/// Where the maximum is drawn: one decade past 99.999%.
const MAX_DECADES: f64 = 6.0;

/// The x position (in decades of 1 / (1 − p)) of percentile `p`.
pub fn decades(p: f64) -> f64 {
    if p >= 100.0 {
        MAX_DECADES
    } else {
        (1.0 / (1.0 - p / 100.0)).log10()
    }
}

fn colour(library: &str) -> (&'static str, &'static str) {
    match library {
        "l4rs" => ("#2b7bb9", ""),
        "log4j2" => ("#d9822b", r#" stroke-dasharray="7 4""#),
        floor::WRITE_ONLY => ("#3a9a5b", r#" stroke-dasharray="2 3""#),
        _ => ("#7a7a7a", r#" stroke-dasharray="2 3""#),
    }
}

fn unit(decade: i32) -> String {
    match decade {
        d if d < 3 => format!("{} ns", 10u64.pow(d.max(0) as u32)),
        d if d < 6 => format!("{} µs", 10u64.pow((d - 3) as u32)),
        d if d < 9 => format!("{} ms", 10u64.pow((d - 6) as u32)),
        d => format!("{} s", 10u64.pow((d - 9) as u32)),
    }
}

/// The chart as an SVG document.
pub fn svg(rows: &[Latency], title: &str) -> String {
    let mut panels: Vec<(String, usize)> = Vec::new();
    for row in rows {
        let key = (row.label.clone(), row.threads);
        if !panels.contains(&key) {
            panels.push(key);
        }
    }
    let width = LEFT + PANEL_WIDTH + 40.0;
    let height = TOP + (PANEL_HEIGHT + GAP) * panels.len().max(1) as f64;
    let mut out = svg::Header {
        width,
        height,
        font_size: 12,
        title,
        title_size: 15,
        title_y: 22.0,
        notes: &[
            (
                42.0,
                "latency of each call from its scheduled start (log scale, lower is better)",
            ),
            (
                58.0,
                "by percentile, log scale of 1 / (1 − p); solid l4rs, dashed log4j2, dotted floors",
            ),
        ],
    }
    .render();
    if panels.is_empty() {
        let _ = writeln!(out, r#"<text x="12" y="{TOP}">no row was measured</text>"#);
    }
    for (index, (label, threads)) in panels.iter().enumerate() {
        let series: Vec<&Latency> = rows
            .iter()
            .filter(|r| &r.label == label && r.threads == *threads && r.calls > 0)
            .collect();
        let top = TOP + (PANEL_HEIGHT + GAP) * index as f64;
        panel(&mut out, label, *threads, &series, top);
    }
    out.push_str(svg::END);
    out
}

fn panel(out: &mut String, label: &str, threads: usize, series: &[&Latency], top: f64) {
    let values = series.iter().flat_map(|s| s.nanos).filter(|v| *v > 0);
    let low = values.clone().min().unwrap_or(100).max(1) as f64;
    let high = values.max().unwrap_or(1_000_000).max(2) as f64;
    let y_min = low.log10().floor() as i32;
    let y_max = (high.log10().ceil() as i32).max(y_min + 1);
    let y = |nanos: u64| {
        let v = (nanos.max(1) as f64).log10();
        top + PANEL_HEIGHT - (v - y_min as f64) / (y_max - y_min) as f64 * PANEL_HEIGHT
    };
    let x = |p: f64| LEFT + decades(p) / MAX_DECADES * PANEL_WIDTH;
    let _ = writeln!(
        out,
        r#"<text x="{LEFT}" y="{:.1}" font-size="13" font-weight="bold">{} · {threads} threads</text>"#,
        top - 10.0,
        escape(label)
    );
    let _ = writeln!(
        out,
        r##"<rect x="{LEFT}" y="{top:.1}" width="{PANEL_WIDTH}" height="{PANEL_HEIGHT}" fill="none" stroke="#999"/>"##
    );
    for decade in y_min..=y_max {
        let ty =
            top + PANEL_HEIGHT - (decade - y_min) as f64 / (y_max - y_min) as f64 * PANEL_HEIGHT;
        let _ = writeln!(
            out,
            r##"<line x1="{LEFT}" x2="{:.1}" y1="{ty:.1}" y2="{ty:.1}" stroke="#e3e3e3"/><text x="{:.1}" y="{:.1}" text-anchor="end" fill="#444">{}</text>"##,
            LEFT + PANEL_WIDTH,
            LEFT - 6.0,
            ty + 4.0,
            unit(decade)
        );
    }
    for (p, name) in [
        (50.0, "50%"),
        (90.0, "90%"),
        (99.0, "99%"),
        (99.9, "99.9%"),
        (99.99, "99.99%"),
        (99.999, "99.999%"),
        (100.0, "max"),
    ] {
        let tx = x(p);
        let _ = writeln!(
            out,
            r##"<line x1="{tx:.1}" x2="{tx:.1}" y1="{top:.1}" y2="{:.1}" stroke="#e3e3e3"/><text x="{tx:.1}" y="{:.1}" text-anchor="middle" fill="#444">{name}</text>"##,
            top + PANEL_HEIGHT,
            top + PANEL_HEIGHT + 16.0
        );
    }
    for (rank, s) in series.iter().enumerate() {
        let (stroke, dash) = colour(&s.library);
        let points: Vec<String> = PERCENTILES
            .iter()
            .zip(s.nanos)
            .map(|((p, _), v)| format!("{:.1},{:.1}", x(*p), y(v)))
            .collect();
        let _ = writeln!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{stroke}" stroke-width="2"{dash}/>"#,
            points.join(" ")
        );
        // The legend, under the panel's axis labels, with the row's p99.99 and max.
        let ly = top + PANEL_HEIGHT + 40.0 + 18.0 * rank as f64;
        let _ = writeln!(
            out,
            r#"<line x1="{:.1}" x2="{:.1}" y1="{:.1}" y2="{:.1}" stroke="{stroke}" stroke-width="2"{dash}/><text x="{:.1}" y="{ly:.1}">{} · {:.0} calls/s per thread · p99.99 {} · max {}</text>"#,
            LEFT + 10.0,
            LEFT + 34.0,
            ly - 4.0,
            ly - 4.0,
            LEFT + 40.0,
            escape(&s.library),
            s.rate_per_thread,
            s.at(99.99).map_or("-".into(), duration),
            s.at(100.0).map_or("-".into(), duration),
        );
    }
}

/// Nanoseconds as a duration with three significant digits and a unit that fits: `850 ns`,
/// `1.23 µs`, `16.2 ms`, `1.50 s`.
pub fn duration(nanos: u64) -> String {
    let value = nanos as f64;
    let (scaled, unit) = if value < 1e3 {
        return format!("{nanos} ns");
    } else if value < 1e6 {
        (value / 1e3, "µs")
    } else if value < 1e9 {
        (value / 1e6, "ms")
    } else {
        (value / 1e9, "s")
    };
    if scaled >= 100.0 {
        format!("{scaled:.0} {unit}")
    } else if scaled >= 10.0 {
        format!("{scaled:.1} {unit}")
    } else {
        format!("{scaled:.2} {unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::latency::histogram::Histogram;

    fn row(label: &str, library: &str, scale: u64) -> Latency {
        let mut h = Histogram::new();
        for value in 1..=10_000u64 {
            h.record(value * scale);
        }
        Latency::from_histogram(label, library, 4, 1000.0, 10_000, &h)
    }

    #[test]
    fn percentiles_are_decades_of_the_tail() {
        assert!((decades(90.0) - 1.0).abs() < 1e-9);
        assert!((decades(99.99) - 4.0).abs() < 1e-9);
        assert_eq!(decades(100.0), MAX_DECADES);
        assert!(decades(50.0) < decades(75.0));
    }

    #[test]
    fn one_panel_per_row_with_a_line_per_library() {
        let rows = [
            row("File", "l4rs", 1),
            row("File", "log4j2", 30),
            row("File", floor::NO_OP, 1),
            row("AsyncLogger-File", "l4rs", 2),
        ];
        let svg = svg(&rows, "latency & <test>");
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<polyline").count(), 4);
        // The floor is drawn grey and dotted, and named in its panel's legend.
        assert!(svg.contains(r##"stroke="#7a7a7a" stroke-width="2" stroke-dasharray="2 3""##));
        assert!(svg.contains("floor:no-op · 1000 calls/s per thread"));
        assert!(svg.contains("File · 4 threads") && svg.contains("AsyncLogger-File · 4 threads"));
        assert!(svg.contains("latency &amp; &lt;test&gt;"));
        assert!(svg.contains("stroke-dasharray"));
        assert!(svg.contains(">max<") && svg.contains(">99.99%<"));
        assert!(super::svg(&[], "x").contains("no row was measured"));
    }

    #[test]
    fn legend_durations_pick_their_unit() {
        assert_eq!(duration(850), "850 ns");
        assert_eq!(duration(1_234), "1.23 µs");
        assert_eq!(duration(16_170_000), "16.2 ms");
        assert_eq!(duration(469_444_000), "469 ms");
        assert_eq!(duration(1_500_000_000), "1.50 s");
    }

    #[test]
    fn the_axis_is_labelled_in_time_units() {
        assert_eq!(unit(2), "100 ns");
        assert_eq!(unit(3), "1 µs");
        assert_eq!(unit(7), "10 ms");
        assert_eq!(unit(9), "1 s");
    }
}
