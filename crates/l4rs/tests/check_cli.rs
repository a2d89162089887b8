//! `l4rs check FILE`: diagnostics with their positions, the routing tree, and the exit status.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh, empty directory for one test's files.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("check-cli")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the test directory");
    dir
}

/// What one `l4rs check` run printed, and whether it succeeded.
struct Checked {
    success: bool,
    stdout: String,
}

/// Writes `xml` to `dir/log4j2.xml` and runs `l4rs check` on it.
fn check(dir: &Path, xml: &str) -> (PathBuf, Checked) {
    let config = dir.join("log4j2.xml");
    std::fs::write(&config, xml).expect("write the configuration");
    let output = Command::new(env!("CARGO_BIN_EXE_l4rs"))
        .arg("check")
        .arg(&config)
        .output()
        .expect("run l4rs check");
    let checked = Checked {
        success: output.status.success(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
    };
    (config, checked)
}

/// The lines of `text` that start with `prefix`.
fn lines_starting<'t>(text: &'t str, prefix: &str) -> Vec<&'t str> {
    text.lines().filter(|l| l.starts_with(prefix)).collect()
}

#[test]
fn a_clean_file_prints_its_routing_and_succeeds() {
    let dir = fresh_dir("clean");
    let (_, checked) = check(
        &dir,
        &format!(
            r#"<Configuration status="warn">
  <Appenders>
    <Console name="Out"><PatternLayout pattern="%d %p %c - %m%n"/></Console>
    <File name="Db" fileName="{}/db.log"><PatternLayout pattern="%m%n"/></File>
  </Appenders>
  <Loggers>
    <Logger name="my_app.db" level="debug" additivity="false"><AppenderRef ref="Db"/></Logger>
    <Root level="info"><AppenderRef ref="Out"/></Root>
  </Loggers>
</Configuration>
"#,
            dir.display()
        ),
    );
    assert!(checked.success, "{}", checked.stdout);
    assert!(
        lines_starting(&checked.stdout, "error").is_empty(),
        "{}",
        checked.stdout
    );
    let routing: Vec<&str> = checked
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("routing (logger -> level -> appenders):"))
        .collect();
    assert!(routing.len() > 2, "{}", checked.stdout);
    let root = routing
        .iter()
        .find(|l| l.contains("root"))
        .expect("a root line");
    assert!(root.contains("INFO") && root.contains("Out"), "{root}");
    let db = routing
        .iter()
        .find(|l| l.contains("my_app.db"))
        .expect("a my_app.db line");
    assert!(db.contains("DEBUG") && db.contains("Db"), "{db}");
    assert_eq!(checked.stdout.lines().last(), Some("ok"));
    // Checking creates nothing.
    assert!(!dir.join("db.log").exists());
}

#[test]
fn malformed_xml_is_reported_with_file_line_and_column() {
    let dir = fresh_dir("malformed");
    let (config, checked) = check(
        &dir,
        "<Configuration>\n  <Appenders>\n    <File name=\"F\" fileName=\"x.log\">\n  </Appenders>\n</Configuration>\n",
    );
    assert!(!checked.success, "{}", checked.stdout);
    let errors = lines_starting(&checked.stdout, "error: ");
    assert_eq!(errors.len(), 1, "{}", checked.stdout);
    let position = format!("{}:4:", config.display());
    assert!(errors[0].contains(&position), "{}", errors[0]);
}

#[test]
fn a_missing_appender_ref_fails() {
    let dir = fresh_dir("missing-ref");
    let (config, checked) = check(
        &dir,
        r#"<Configuration>
  <Appenders><Console name="Out"/></Appenders>
  <Loggers>
    <Root level="info"><AppenderRef ref="Out"/><AppenderRef ref="Nowhere"/></Root>
  </Loggers>
</Configuration>
"#,
    );
    assert!(!checked.success, "{}", checked.stdout);
    assert_eq!(
        lines_starting(&checked.stdout, "error: "),
        [format!(
            "error: {}:4:48: Unable to locate appender \"Nowhere\" for logger config \"root\"",
            config.display()
        )],
        "{}",
        checked.stdout
    );
}

#[test]
fn a_directory_as_file_name_fails() {
    let dir = fresh_dir("directory");
    let (_, checked) = check(
        &dir,
        &format!(
            r#"<Configuration>
  <Appenders><File name="F" fileName="{}"/></Appenders>
  <Loggers><Root level="info"><AppenderRef ref="F"/></Root></Loggers>
</Configuration>
"#,
            dir.display()
        ),
    );
    assert!(!checked.success, "{}", checked.stdout);
    let errors = lines_starting(&checked.stdout, "error: ");
    assert_eq!(errors.len(), 1, "{}", checked.stdout);
    assert!(
        errors[0].contains(":2:14: appender \"F\" cannot write") && errors[0].contains("directory"),
        "{}",
        errors[0]
    );
}

#[test]
fn layout_and_filter_errors_found_when_starting_are_reported() {
    let dir = fresh_dir("start-errors");
    let (config, checked) = check(
        &dir,
        r#"<Configuration>
  <Appenders>
    <Console name="Out">
      <PatternLayout pattern="%d %qqq %m%n"/>
      <RegexFilter regex="(unclosed" onMatch="DENY" onMismatch="NEUTRAL"/>
    </Console>
  </Appenders>
  <Loggers><Root level="info"><AppenderRef ref="Out"/></Root></Loggers>
</Configuration>
"#,
    );
    assert!(!checked.success, "{}", checked.stdout);
    let prefix = format!("error: {}:3:5: appender \"Out\": ", config.display());
    let errors = lines_starting(&checked.stdout, "error: ");
    // log4j2 reports an unknown converter twice: the specifier, then its position.
    assert_eq!(errors.len(), 3, "{}", checked.stdout);
    assert!(
        errors.iter().all(|line| line.starts_with(&prefix)),
        "{}",
        checked.stdout
    );
    assert!(
        errors.iter().any(|l| l.contains("[qqq]")),
        "{}",
        checked.stdout
    );
    assert!(
        errors.iter().any(|l| l.contains("(unclosed")),
        "{}",
        checked.stdout
    );
    assert!(
        checked.stdout.contains("\n3 error(s)"),
        "{}",
        checked.stdout
    );
}

#[test]
fn json_layouts_are_checked_and_keep_their_appender() {
    let dir = fresh_dir("json-layout");
    let clean = r#"<Configuration status="warn">
  <Appenders>
    <Console name="Json"><JsonLayout compact="true" eventEol="true" properties="true">
      <KeyValuePair key="service" value="orders"/>
    </JsonLayout></Console>
  </Appenders>
  <Loggers><Root level="info"><AppenderRef ref="Json"/></Root></Loggers>
</Configuration>
"#;
    let (_, checked) = check(&dir, clean);
    assert!(checked.success, "{}", checked.stdout);
    assert!(
        checked
            .stdout
            .lines()
            .any(|l| l.contains("root") && l.contains("Json")),
        "the appender is kept: {}",
        checked.stdout
    );
    let (config, checked) = check(&dir, &clean.replace("compact=", "compcat="));
    assert!(!checked.success, "{}", checked.stdout);
    let errors = lines_starting(&checked.stdout, "error");
    assert!(
        errors.iter().any(
            |l| l.starts_with(&format!("error: {}:3:", config.display()))
                && l.contains(r#"JsonLayout contains an invalid element or attribute "compcat""#)
        ),
        "{}",
        checked.stdout
    );
}
