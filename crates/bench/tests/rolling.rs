//! End to end: `l4rs-bench --config config-samples/log4j2-rolling.xml` with a tiny size limit,
//! so every rolling row rolls many times (gzip, zstd and direct-write archives); each row's
//! bytes/event must match a plain `<File>` row with the same layout on the same workload, as
//! the bench counts the current file and every rolled one (uncompressed).

use std::process::Command;

const ROLLING_LOGGERS: [&str; 3] = [
    "RollingFileLogger",
    "RollingRandomAccessFileLogger",
    "RollingMemoryMappedFileLogger",
];

/// The sample with its log folder moved to `dir`, a 256 KB size limit, retention high enough
/// that nothing is deleted during the run, and a `<File>` appender with the same layout
/// (logger `PlainLogger`) to compare with.
fn tiny_rolling_config(dir: &std::path::Path) -> String {
    let sample = include_str!("../../../config-samples/log4j2-rolling.xml");
    let replacements = [
        (
            r#"<Property name="logDir">target/test-output/rolling</Property>"#,
            format!(r#"<Property name="logDir">{}</Property>"#, dir.display()),
        ),
        (r#"size="100 MB""#, r#"size="256 KB""#.to_string()),
        (r#"size="256 MB""#, r#"size="256 KB""#.to_string()),
        (r#"max="20""#, r#"max="100000""#.to_string()),
        (r#"max="10""#, r#"max="100000""#.to_string()),
        (r#"exceeds="30""#, r#"exceeds="100000""#.to_string()),
        (r#"maxFiles="48""#, r#"maxFiles="100000""#.to_string()),
        (
            "    </Appenders>",
            r#"        <File name="Plain" fileName="${logDir}/plain.log"><PatternLayout pattern="${pattern}"/></File>
    </Appenders>"#
                .to_string(),
        ),
        (
            "        <Root level=\"error\"/>",
            r#"        <Logger name="PlainLogger" level="debug" additivity="false"><AppenderRef ref="Plain"/></Logger>
        <Root level="error"/>"#
                .to_string(),
        ),
    ];
    let mut text = sample.to_string();
    for (from, to) in replacements {
        assert!(text.contains(from), "the sample changed: no {from}");
        text = text.replace(from, &to);
    }
    text
}

#[test]
fn rolling_rows_count_every_rolled_byte() {
    let dir = std::env::temp_dir().join(format!("l4rs-bench-rolling-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("log4j2-rolling-tiny.xml");
    std::fs::write(&config, tiny_rolling_config(&dir)).unwrap();
    let mut loggers: Vec<&str> = ROLLING_LOGGERS.to_vec();
    loggers.push("PlainLogger");
    let output = Command::new(env!("CARGO_BIN_EXE_l4rs-bench"))
        .args(["--config", &config.display().to_string()])
        .args(["--logger", &loggers.join(",")])
        .args([
            "--threads",
            "2",
            "--warmup",
            "100ms",
            "--measure",
            "400ms",
            "--json",
        ])
        .args(["--dir", &dir.display().to_string()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let rows = report["rows"].as_array().unwrap();
    let bytes_per_event = |logger: &str| -> f64 {
        let row = rows
            .iter()
            .find(|r| r["appender"] == logger)
            .unwrap_or_else(|| panic!("no row for {logger}: {stdout}"));
        assert!(row["skipped"].is_null(), "{logger} skipped: {row}");
        assert!(row["events"].as_u64().unwrap() > 0, "{row}");
        row["bytes_per_event"]
            .as_f64()
            .unwrap_or_else(|| panic!("{logger}: bytes unknown: {row}"))
    };
    let plain = bytes_per_event("PlainLogger");
    assert!(plain > 100.0, "{plain}");
    for logger in ROLLING_LOGGERS {
        let rolling = bytes_per_event(logger);
        let ratio = rolling / plain;
        assert!(
            (0.8..=1.2).contains(&ratio),
            "{logger}: {rolling:.0} B/event vs File's {plain:.0} ({ratio:.2})"
        );
    }
    // The rows did roll: archives of each kind are there (the bench keeps user files).
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    for (suffix, what) in [(".log.gz", "app-"), (".log.zst", "raf."), (".log", "mmf-")] {
        let count = names
            .iter()
            .filter(|n| n.starts_with(what) && n.ends_with(suffix))
            .count();
        assert!(count >= 2, "{what}…{suffix}: {count} in {names:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
