//! `l4rs check` on GelfLayout, the CSV layouts and Rfc5424Layout's LoggerFields: the Graylog
//! sample is clean, and what log4j2 refuses is reported at its file:line:column with the fix.

use std::path::Path;
use std::process::Command;

fn check(config: &Path) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_l4rs"))
        .arg("check")
        .arg(config)
        .output()
        .expect("run l4rs check");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[test]
fn the_graylog_sample_is_clean() {
    let sample =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config-samples/gelf-graylog.xml");
    let (success, stdout) = check(&sample);
    assert!(success, "{stdout}");
    assert!(
        !stdout
            .lines()
            .any(|l| l.starts_with("error") || l.starts_with("warning")),
        "{stdout}"
    );
    assert!(
        stdout.contains("root -> INFO -> [Graylog, Console (≥WARN)]"),
        "{stdout}"
    );
}

#[test]
fn refused_layouts_are_reported_where_they_are() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("structured-layouts-check");
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("log4j2.xml");
    std::fs::write(
        &config,
        r#"<Configuration status="warn">
  <Appenders>
    <Console name="Gelf"><GelfLayout includeNullDelimiter="true"/></Console>
    <Console name="Csv"><CsvLogEventLayout format="excel" quoteMode="SOMETIMES"/></Console>
    <Console name="NoEscape"><CsvParameterLayout quoteMode="NONE"/></Console>
    <Console name="Fields"><Rfc5424Layout><LoggerFields bogus="1"><KeyValuePair key="k"/></LoggerFields></Rfc5424Layout></Console>
    <Console name="QuoteDelimiter"><CsvLogEventLayout delimiter="&quot;"/></Console>
    <Console name="EscapeDelimiter"><CsvParameterLayout format="MySQL" delimiter="\"/></Console>
    <Console name="LineBreak"><CsvLogEventLayout delimiter="&#10;"/></Console>
  </Appenders>
  <Loggers><Root level="info"><AppenderRef ref="Gelf"/></Root></Loggers>
</Configuration>
"#,
    )
    .unwrap();
    let (success, stdout) = check(&config);
    assert!(!success, "{stdout}");
    let at = |line: u32, text: &str| {
        let prefix = format!("{}:{line}:", config.display());
        stdout
            .lines()
            .any(|l| l.contains(&prefix) && l.contains(text))
    };
    assert!(
        at(3, "null delimiter cannot be used with compression"),
        "{stdout}"
    );
    assert!(at(3, "set compressionType=\"OFF\""), "{stdout}");
    assert!(at(4, "CSVFormat.Predefined.excel"), "{stdout}");
    assert!(
        at(
            4,
            "No enum constant org.apache.commons.csv.QuoteMode.SOMETIMES"
        ),
        "{stdout}"
    );
    assert!(
        at(5, "No quotes mode set but no escape character is set"),
        "{stdout}"
    );
    assert!(
        at(
            6,
            "LoggerFields contains an invalid element or attribute \"bogus\""
        ),
        "{stdout}"
    );
    assert!(at(6, "KeyValuePair needs both key and value"), "{stdout}");
    // commons-csv's CSVFormat.validate (1.9, the oracle's), at configuration time.
    assert!(
        at(
            7,
            "The quoteChar character and the delimiter cannot be the same ('\"')"
        ),
        "{stdout}"
    );
    assert!(at(7, "set delimiter or quote"), "{stdout}");
    assert!(
        at(
            8,
            "The escape character and the delimiter cannot be the same ('\\')"
        ),
        "{stdout}"
    );
    assert!(at(9, "The delimiter cannot be a line break"), "{stdout}");
}
