//! End to end: `l4rs-bench --latency` with smoke windows (100 ms), through the binary: every
//! call of the window is timed and reported in a `LATENCY` line; with the JDK (always under
//! CI, whose `.ci/setup/00-oracle.sh` installs it and Debian's log4j2 jars) the Java harness
//! runs the same schedule and prints the same line. The machine's floors (a no-op call, and
//! `write(2)` only for this synchronous File row) follow with the same schedule.

use std::process::Command;

use l4rs_bench::latency::floor::{NO_OP, WRITE_ONLY};
use l4rs_bench::latency::result::Latency;

/// Runs the bench with `extra` arguments on File at 2 threads and 2000 calls/s per thread, in
/// a folder of its own, and returns its `LATENCY` lines and its whole stdout.
fn latency_run(name: &str, extra: &[&str]) -> (Vec<Latency>, String) {
    let dir = std::env::temp_dir().join(format!("l4rs-bench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_l4rs-bench"))
        .args(["--latency", "--appender", "File", "--mode", "sync"])
        .args(["--threads", "2", "--rate", "2000"])
        .args(["--warmup", "50ms", "--measure", "100ms"])
        .arg("--dir")
        .arg(&dir)
        .args(extra)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
    (stdout.lines().filter_map(Latency::parse).collect(), stdout)
}

fn check(row: &Latency, library: &str) {
    assert_eq!(row.library, library);
    assert_eq!((row.label.as_str(), row.threads), ("File", 2));
    assert_eq!(row.rate_per_thread, 2000.0);
    // 2 threads × 2000 calls/s × 100 ms, all timed.
    assert_eq!(row.due, 400, "{row:?}");
    assert_eq!(row.calls, row.due, "{row:?}");
    let mut sorted = row.nanos;
    sorted.sort_unstable();
    assert_eq!(sorted, row.nanos, "percentiles must not decrease: {row:?}");
    assert!(row.at(50.0).unwrap() > 0);
}

#[test]
fn l4rs_rows_time_every_scheduled_call() {
    let (rows, stdout) = latency_run("latency", &[]);
    assert_eq!(rows.len(), 3, "{stdout}");
    check(&rows[0], "l4rs");
    check(&rows[1], NO_OP);
    check(&rows[2], WRITE_ONLY);
    assert!(
        stdout.contains("p99.99 µs") && stdout.contains("(--rate)"),
        "{stdout}"
    );
    assert!(stdout.contains("chart: "), "{stdout}");
}

#[test]
fn log4j2_rows_time_every_scheduled_call_the_same_way() {
    let missing = l4rs_bench::java::prepare(
        &std::env::temp_dir().join(format!("l4rs-bench-latency-java-{}", std::process::id())),
    )
    .err();
    if let Some(missing) = missing {
        assert!(
            std::env::var("CI").unwrap_or_default().is_empty(),
            "the JDK and log4j2 jars are required under CI but: {missing}"
        );
        eprintln!("skipping the log4j2 latency row: {missing}");
        return;
    }
    let (rows, stdout) = latency_run("latency-vs", &["--vs-log4j2"]);
    assert_eq!(rows.len(), 4, "{stdout}");
    check(&rows[0], "l4rs");
    check(&rows[1], "log4j2");
    check(&rows[2], NO_OP);
    check(&rows[3], WRITE_ONLY);
    assert!(
        stdout.contains("File at 2 threads: l4rs's p99.99 = "),
        "{stdout}"
    );
    assert!(
        stdout.contains("  floor:no-op: p99.99 = ")
            && stdout.contains("  floor:write(2): p99.99 = "),
        "{stdout}"
    );
}
