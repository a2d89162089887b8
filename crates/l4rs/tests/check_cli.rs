//! `l4rs check FILE`: diagnostics with their positions, the routing tree, and the exit status.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh, empty directory for one test's files.
fn fresh_dir(name: &str) -> PathBuf {
    l4rs_test_support::fresh_dir_at(
        Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("check-cli")
            .join(name),
    )
}

/// What one `l4rs check` run printed, and whether it succeeded.
struct Checked {
    success: bool,
    stdout: String,
}

impl Checked {
    /// What the finished `l4rs check` process `output` printed, and whether it succeeded.
    fn from_output(output: &std::process::Output) -> Self {
        Checked {
            success: output.status.success(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        }
    }

    /// Asserts that the run succeeded, showing what it printed if not.
    #[track_caller]
    fn assert_succeeded(&self) {
        assert!(self.success, "{}", self.stdout);
    }

    /// Asserts that the run failed, showing what it printed if not.
    #[track_caller]
    fn assert_failed(&self) {
        assert!(!self.success, "{}", self.stdout);
    }

    /// Asserts that the run printed `text`, showing what it printed if not.
    #[track_caller]
    fn assert_printed(&self, text: &str) {
        assert!(self.stdout.contains(text), "{}", self.stdout);
    }

    /// Asserts that some line starting with `error: ` satisfies `matches`, showing what the run
    /// printed if none does.
    #[track_caller]
    fn assert_some_error(&self, matches: impl Fn(&str) -> bool) {
        let errors = lines_starting(&self.stdout, "error: ");
        assert!(errors.iter().any(|l| matches(l)), "{}", self.stdout);
    }

    /// The lines printed from the first that starts with `heading` on.
    fn lines_from(&self, heading: &str) -> Vec<&str> {
        self.stdout
            .lines()
            .skip_while(|l| !l.starts_with(heading))
            .collect()
    }
}

/// Writes `xml`, with `{dir}` standing for `dir`, to `dir/log4j2.xml`, and returns its path.
fn write_config(dir: &Path, xml: &str) -> PathBuf {
    let config = dir.join("log4j2.xml");
    let xml = xml.replace("{dir}", &dir.display().to_string());
    std::fs::write(&config, xml).expect("write the configuration");
    config
}

/// Runs `l4rs check` on `config` and waits for it.
fn run_check(config: &Path) -> Checked {
    run_check_with_env(config, &[])
}

/// [`run_check`] with `env` added to its environment.
fn run_check_with_env(config: &Path, env: &[(&str, &str)]) -> Checked {
    let output = Command::new(env!("CARGO_BIN_EXE_l4rs"))
        .arg("check")
        .arg(config)
        .envs(env.iter().copied())
        .output()
        .expect("run l4rs check");
    Checked::from_output(&output)
}

/// Writes `xml` (with `{dir}` standing for `dir`) to `dir/log4j2.xml` and runs `l4rs check` on
/// it.
fn check(dir: &Path, xml: &str) -> (PathBuf, Checked) {
    let config = write_config(dir, xml);
    let checked = run_check(&config);
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
        r#"<Configuration status="warn">
  <Appenders>
    <Console name="Out"><PatternLayout pattern="%d %p %c - %m%n"/></Console>
    <File name="Db" fileName="{dir}/db.log"><PatternLayout pattern="%m%n"/></File>
  </Appenders>
  <Loggers>
    <Logger name="my_app.db" level="debug" additivity="false"><AppenderRef ref="Db"/></Logger>
    <Root level="info"><AppenderRef ref="Out"/></Root>
  </Loggers>
</Configuration>
"#,
    );
    checked.assert_succeeded();
    assert!(
        lines_starting(&checked.stdout, "error").is_empty(),
        "{}",
        checked.stdout
    );
    let routing = checked.lines_from("routing (logger -> level -> appenders):");
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
fn the_context_selector_shows_in_the_routing_and_an_unknown_one_is_an_error() {
    let dir = fresh_dir("context-selector");
    let config = write_config(
        &dir,
        r#"<Configuration><Appenders><Console name="Out"/></Appenders>
  <Loggers><Logger name="app" level="debug"/><Root level="info"><AppenderRef ref="Out"/></Root></Loggers>
</Configuration>
"#,
    );
    let selector = "org.apache.logging.log4j.core.async.AsyncLoggerContextSelector";
    let checked = run_check_with_env(&config, &[("LOG4J_CONTEXT_SELECTOR", selector)]);
    checked.assert_succeeded();
    let routing = checked.lines_from("routing (logger -> level -> appenders):");
    for name in ["root", "app"] {
        let line = routing
            .iter()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("a {name} line: {}", checked.stdout));
        assert!(line.ends_with(" async"), "{line}");
    }
    checked.assert_printed("(every logger is asynchronous");
    let plain = run_check(&config);
    assert!(!plain.stdout.contains(" async"), "{}", plain.stdout);
    let unknown = run_check_with_env(&config, &[("LOG4J_CONTEXT_SELECTOR", "com.example.Nope")]);
    unknown.assert_failed();
    unknown.assert_some_error(|l| l.contains("Unable to create custom ContextSelector"));
}

#[test]
fn malformed_xml_is_reported_with_file_line_and_column() {
    let dir = fresh_dir("malformed");
    let (config, checked) = check(
        &dir,
        "<Configuration>\n  <Appenders>\n    <File name=\"F\" fileName=\"x.log\">\n  </Appenders>\n</Configuration>\n",
    );
    checked.assert_failed();
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
    checked.assert_failed();
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
        r#"<Configuration>
  <Appenders><File name="F" fileName="{dir}"/></Appenders>
  <Loggers><Root level="info"><AppenderRef ref="F"/></Root></Loggers>
</Configuration>
"#,
    );
    checked.assert_failed();
    let errors = lines_starting(&checked.stdout, "error: ");
    // log4j2's two reports: the file cannot be opened, so the appender is not there for root.
    assert_eq!(errors.len(), 2, "{}", checked.stdout);
    let file = dir.display();
    assert!(
        errors[0].ends_with(&format!(
            ":2:14: appender \"F\": FileManager ({file}) java.io.FileNotFoundException: {file} (Is a directory) (help: fileName names a directory; name a file in it, e.g. {file}/app.log)"
        )),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].ends_with(":3:31: Unable to locate appender \"F\" for logger config \"root\""),
        "{}",
        errors[1]
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
    checked.assert_failed();
    let prefix = format!("error: {}:3:5: appender \"Out\": ", config.display());
    let errors = lines_starting(&checked.stdout, "error: ");
    // log4j2 reports an unknown converter twice: the specifier, then its position.
    assert_eq!(errors.len(), 3, "{}", checked.stdout);
    assert!(
        errors.iter().all(|line| line.starts_with(&prefix)),
        "{}",
        checked.stdout
    );
    checked.assert_some_error(|l| l.contains("[qqq]"));
    checked.assert_some_error(|l| l.contains("(unclosed"));
    checked.assert_printed("\n3 error(s)");
}

/// Every path under `dir` (links not followed), to show what a step created.
fn tree(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).expect("read the test directory") {
            let path = entry.expect("a directory entry").path();
            let is_dir = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
            if is_dir {
                pending.push(path.clone());
            }
            found.push(path);
        }
    }
    found.sort();
    found
}

/// Runs `l4rs check` on `config`, killed after `limit`: `None` when it had to be killed.
fn check_within(config: &Path, limit: Duration) -> Option<Checked> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_l4rs"))
        .arg("check")
        .arg(config)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run l4rs check");
    let started = Instant::now();
    while child.try_wait().expect("wait for l4rs check").is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("collect l4rs check");
    Some(Checked::from_output(&output))
}

/// Held by the tests that call `init`: the configuration in force is the process's, so they
/// take turns.
static INIT: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs `l4rs::init_with_file(config)` on a thread, given up after `limit`: `None` when it did
/// not return in time; otherwise the errors it returned (empty for `Ok`).
fn init_within(config: &Path, limit: Duration) -> Option<Vec<String>> {
    let (sender, receiver) = std::sync::mpsc::channel();
    let config = config.to_path_buf();
    std::thread::spawn(move || {
        let messages = match l4rs::init_with_file(&config) {
            Ok(()) => Vec::new(),
            Err(l4rs::Error::Invalid { messages, .. }) => messages,
            Err(other) => vec![other.to_string()],
        };
        let _ = sender.send(messages);
    });
    receiver.recv_timeout(limit).ok()
}

/// One row of the table: a configuration (written with `{dir}` standing for the row's
/// directory), what to put in the directory first, and what both paths must say.
struct Row {
    name: &'static str,
    prepare: fn(&Path),
    appenders: &'static str,
    refs: &'static str,
    /// Texts every error (of check and of init) is made of: each error contains one, and each
    /// text is in some error of both.
    errors: &'static [&'static str],
    /// A text check must print as a WARN.
    warning: Option<&'static str>,
}

const ROWS: &[Row] = &[
    Row {
        name: "good",
        prepare: |_| {},
        appenders: r#"<File name="F" fileName="{dir}/logs/app.log"/><Console name="C"/>"#,
        refs: r#"<AppenderRef ref="F"/><AppenderRef ref="C"/>"#,
        errors: &[],
        warning: None,
    },
    Row {
        name: "symlink-loop",
        prepare: |dir| {
            std::os::unix::fs::symlink("loop-b", dir.join("loop-a")).unwrap();
            std::os::unix::fs::symlink("loop-a", dir.join("loop-b")).unwrap();
        },
        appenders: r#"<File name="F" fileName="{dir}/loop-a"/>"#,
        refs: r#"<AppenderRef ref="F"/>"#,
        errors: &[
            "loop-a (Too many levels of symbolic links)",
            "Unable to locate appender \"F\" for logger config \"root\"",
        ],
        warning: None,
    },
    Row {
        name: "empty-name",
        prepare: |_| {},
        appenders: r#"<File name="F" fileName=""/>"#,
        refs: r#"<AppenderRef ref="F"/>"#,
        errors: &[
            "The parameter is null: fileName",
            "field 'fileName' has invalid value ''",
            "Null object returned for File in Appenders.",
            "Unable to locate appender \"F\" for logger config \"root\"",
        ],
        warning: None,
    },
    Row {
        name: "unresolved-lookup-then-dot-dot",
        prepare: |_| {},
        appenders: r#"<File name="F" fileName="{dir}/${sys:catalina.home}/../logs/app.log"/>
    <RollingFile name="R" fileName="{dir}/${sys:catalina.home}/../logs/r.log" filePattern="{dir}/r-%i.log"><SizeBasedTriggeringPolicy size="1MB"/></RollingFile>"#,
        refs: r#"<AppenderRef ref="F"/><AppenderRef ref="R"/>"#,
        errors: &[
            "/../logs/app.log (No such file or directory)",
            "Unable to create file ",
            "Unable to locate appender \"F\" for logger config \"root\"",
            "Unable to locate appender \"R\" for logger config \"root\"",
        ],
        warning: None,
    },
    Row {
        name: "directory",
        prepare: |dir| std::fs::create_dir(dir.join("a-directory")).unwrap(),
        appenders: r#"<RandomAccessFile name="F" fileName="{dir}/a-directory"/>"#,
        refs: r#"<AppenderRef ref="F"/>"#,
        errors: &[
            "a-directory (Is a directory)",
            "Unable to locate appender \"F\" for logger config \"root\"",
        ],
        warning: None,
    },
    Row {
        // log4j2 builds the first F (opening its file) before the second replaces it.
        name: "replaced-appender",
        prepare: |dir| std::fs::create_dir(dir.join("a-directory")).unwrap(),
        appenders: r#"<File name="F" fileName="{dir}/a-directory"/><File name="F" fileName="{dir}/ok.log"/>"#,
        refs: r#"<AppenderRef ref="F"/>"#,
        errors: &["a-directory (Is a directory)"],
        warning: None,
    },
    Row {
        // Memory-mapping a character device fails; log4j2 does not create the appender.
        name: "memory-mapped-device",
        prepare: |_| {},
        appenders: r#"<MemoryMappedFile name="F" fileName="/dev/null"/>"#,
        refs: r#"<AppenderRef ref="F"/>"#,
        errors: &[
            "MemoryMappedFileManager (/dev/null) java.io.IOException: No such device",
            "Unable to locate appender \"F\" for logger config \"root\"",
        ],
        warning: None,
    },
    Row {
        name: "parent-is-a-file",
        prepare: |dir| std::fs::write(dir.join("plain"), "").unwrap(),
        appenders: r#"<File name="F" fileName="{dir}/plain/app.log"/>"#,
        refs: r#"<AppenderRef ref="F"/>"#,
        errors: &[
            "plain exists and is not a directory. Unable to create directory.",
            "Unable to locate appender \"F\" for logger config \"root\"",
        ],
        warning: None,
    },
    Row {
        name: "socket",
        prepare: |dir| {
            // Leaked so the socket file stays (closing the listener keeps it too, but this is
            // explicit about what the row needs).
            std::mem::forget(std::os::unix::net::UnixListener::bind(dir.join("socket")).unwrap());
        },
        appenders: r#"<File name="F" fileName="{dir}/socket"/>"#,
        refs: r#"<AppenderRef ref="F"/>"#,
        errors: &[
            "socket (No such device or address)",
            "Unable to locate appender \"F\" for logger config \"root\"",
        ],
        warning: None,
    },
];

/// `l4rs check` and `init_with_file` on the same files report the same errors, neither hangs,
/// and check leaves the folder as it found it.
#[test]
fn check_reports_what_init_reports() {
    let _turn = INIT.lock().unwrap_or_else(|e| e.into_inner());
    let limit = Duration::from_secs(20);
    for row in ROWS {
        let dir = fresh_dir(&format!("same-{}", row.name));
        (row.prepare)(&dir);
        let config = write_config(
            &dir,
            &format!(
                "<Configuration>\n  <Appenders>\n    {}\n  </Appenders>\n  <Loggers><Root level=\"info\">{}</Root></Loggers>\n</Configuration>\n",
                row.appenders, row.refs
            ),
        );
        let before = tree(&dir);
        let checked = check_within(&config, limit)
            .unwrap_or_else(|| panic!("{}: l4rs check did not finish", row.name));
        assert_eq!(tree(&dir), before, "{}: check changed the folder", row.name);
        let init_errors = init_within(&config, limit)
            .unwrap_or_else(|| panic!("{}: init did not finish", row.name));
        let check_errors = lines_starting(&checked.stdout, "error: ");
        assert_eq!(
            checked.success,
            row.errors.is_empty(),
            "{}: {}",
            row.name,
            checked.stdout
        );
        assert_eq!(
            check_errors.len(),
            init_errors.len(),
            "{}: check:\n{}\ninit: {init_errors:#?}",
            row.name,
            checked.stdout
        );
        // Each init error is one of check's (check adds the position and the element).
        for error in &init_errors {
            assert!(
                check_errors
                    .iter()
                    .any(|line| line.contains(error.as_str())),
                "{}: init's {error:?} is not among check's:\n{}",
                row.name,
                checked.stdout
            );
        }
        for expected in row.errors {
            assert!(
                init_errors.iter().any(|e| e.contains(expected)),
                "{}: {expected:?} not in {init_errors:#?}",
                row.name
            );
        }
        for error in init_errors.iter().map(String::as_str).chain(check_errors) {
            assert!(
                row.errors.iter().any(|expected| error.contains(expected)),
                "{}: unexpected error {error:?}",
                row.name
            );
        }
        if let Some(warning) = row.warning {
            assert!(
                lines_starting(&checked.stdout, "warning: ")
                    .iter()
                    .any(|l| l.contains(warning)),
                "{}: {}",
                row.name,
                checked.stdout
            );
        }
        if row.errors.is_empty() {
            assert_eq!(checked.stdout.lines().last(), Some("ok"), "{}", row.name);
            assert!(
                checked.stdout.contains("root -> INFO -> [F, C]"),
                "{}",
                checked.stdout
            );
        }
    }
}

/// A FIFO as `fileName` hangs neither path: check reports it as a WARN (whether a reader has
/// it open when the service starts cannot be known in advance) and init, with no reader,
/// refuses the appender at once; with a reader, init writes into it.
#[test]
fn a_fifo_hangs_neither_check_nor_init() {
    let _turn = INIT.lock().unwrap_or_else(|e| e.into_inner());
    let limit = Duration::from_secs(20);
    let dir = fresh_dir("fifo");
    let fifo = dir.join("pipe");
    l4rs_test_support::make_fifo(&fifo);
    let config = write_config(
        &dir,
        r#"<Configuration>
  <Appenders><File name="F" fileName="{dir}/pipe"><PatternLayout pattern="%m%n"/></File></Appenders>
  <Loggers><Root level="info"><AppenderRef ref="F"/></Root></Loggers>
</Configuration>
"#,
    );
    let before = tree(&dir);
    let checked = check_within(&config, limit).expect("l4rs check did not finish on a FIFO");
    assert_eq!(tree(&dir), before);
    checked.assert_succeeded();
    let warnings = lines_starting(&checked.stdout, "warning: ");
    assert!(
        warnings.len() == 1 && warnings[0].contains("is a FIFO"),
        "{}",
        checked.stdout
    );

    let errors = init_within(&config, limit).expect("init did not finish on a FIFO");
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(
        errors[0].contains(
            "(No such device or address): it is a FIFO that no process has open for reading"
        ),
        "{errors:#?}"
    );
    assert!(
        errors[1].contains("Unable to locate appender \"F\""),
        "{errors:#?}"
    );

    // The status logger's `dest` is opened the same way: no reader, no wait.
    let dest_config = dir.join("dest.xml");
    std::fs::write(
        &dest_config,
        format!(
            r#"<Configuration dest="{}"><Loggers><Root level="info"/></Loggers></Configuration>"#,
            fifo.display()
        ),
    )
    .unwrap();
    assert_eq!(init_within(&dest_config, limit), Some(Vec::new()));

    use std::io::Read as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    assert_eq!(init_within(&config, limit), Some(Vec::new()));
    let logger = l4rs::get_logger("any");
    l4rs::info!(logger, "through the pipe");
    let mut received = [0u8; 64];
    let length = reader.read(&mut received).unwrap();
    assert_eq!(&received[..length], b"through the pipe\n");
    l4rs::shutdown();
}

/// An `<Async>` queue of 2^31-1 slots cannot be allocated: init refuses it with an ERROR (the
/// loader bounds `bufferSize`) and check reports the same error, since it goes through the same
/// loader and builder.
#[test]
fn an_impossible_async_buffer_size_is_reported_by_both() {
    let _turn = INIT.lock().unwrap_or_else(|e| e.into_inner());
    let dir = fresh_dir("async-buffer");
    let config = write_config(
        &dir,
        r#"<Configuration>
  <Appenders><Console name="C"/><Async name="A" bufferSize="2147483647"><AppenderRef ref="C"/></Async></Appenders>
  <Loggers><Root level="info"><AppenderRef ref="A"/></Root></Loggers>
</Configuration>
"#,
    );
    let checked = check_within(&config, Duration::from_secs(20)).expect("check finishes");
    checked.assert_failed();
    let check_errors = lines_starting(&checked.stdout, "error: ");
    assert!(
        check_errors
            .iter()
            .any(|l| l.contains("bufferSize") || l.contains("2147483647")),
        "{}",
        checked.stdout
    );
    let errors = init_within(&config, Duration::from_secs(20)).expect("init finishes");
    assert_eq!(
        errors.len(),
        check_errors.len(),
        "{errors:#?}\n{}",
        checked.stdout
    );
    for error in &errors {
        assert!(
            check_errors.iter().any(|l| l.contains(error.as_str())),
            "{error}\n{}",
            checked.stdout
        );
    }
}

/// A file this process may not write, and a directory it may not create, are errors worded as
/// opening them fails. Checked as an unprivileged user: root may write anything.
#[test]
fn unwritable_files_and_directories_are_errors() {
    use std::os::unix::fs::PermissionsExt as _;
    use std::os::unix::process::CommandExt as _;

    let dir = fresh_dir("unwritable");
    let locked = dir.join("locked");
    std::fs::create_dir(&locked).unwrap();
    let read_only = locked.join("read-only.log");
    std::fs::write(&read_only, "kept\n").unwrap();
    std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    let config = write_config(
        &dir,
        r#"<Configuration>
  <Appenders><File name="F" fileName="{dir}/locked/read-only.log"/><File name="G" fileName="{dir}/locked/sub/new.log"/></Appenders>
  <Loggers><Root level="info"><AppenderRef ref="F"/><AppenderRef ref="G"/></Root></Loggers>
</Configuration>
"#,
    );
    let mut command = Command::new(env!("CARGO_BIN_EXE_l4rs"));
    command.arg("check").arg(&config);
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        // `nobody`: root's writes are never refused.
        command.uid(65534).gid(65534);
    }
    let checked = Checked::from_output(&command.output().expect("run l4rs check"));
    let stdout = &checked.stdout;
    let errors = lines_starting(stdout, "error: ");
    let file = read_only.display();
    checked.assert_failed();
    assert!(
        errors[0].ends_with(&format!(
            "appender \"F\": FileManager ({file}) java.io.FileNotFoundException: {file} (Permission denied) (help: this process may not write there: change the file's permissions or owner, or name a file in a writable directory)"
        )),
        "{stdout}"
    );
    assert!(
        errors[1].ends_with(&format!(
            "java.io.IOException: Could not create directory {}/sub (Permission denied) (help: create the directory, or let this process write into its parent)",
            locked.display()
        )),
        "{stdout}"
    );
    assert_eq!(errors.len(), 4, "{stdout}");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn the_monitor_interval_and_the_watched_files_are_shown() {
    let dir = fresh_dir("monitor");
    let extra = dir.join("extra.properties");
    let (config, checked) = check(
        &dir,
        r#"<Configuration monitorInterval="30">
  <MonitorResources><MonitorResource uri="file://{dir}/extra.properties"/></MonitorResources>
  <Appenders><Console name="Out"/></Appenders>
  <Loggers><Root level="info"><AppenderRef ref="Out"/></Root></Loggers>
</Configuration>
"#,
    );
    checked.assert_succeeded();
    let shown: Vec<&str> = checked
        .lines_from("monitor interval:")
        .into_iter()
        .take(3)
        .collect();
    let expected = [
        "monitor interval: 30 s; a change of any of these files reloads the configuration:"
            .to_string(),
        format!("  {}", config.display()),
        format!("  {}", extra.display()),
    ];
    assert_eq!(shown, expected, "{}", checked.stdout);

    let (_, unwatched) = check(
        &dir,
        r#"<Configuration><Loggers><Root level="info"/></Loggers></Configuration>"#,
    );
    assert_eq!(
        lines_starting(&unwatched.stdout, "monitor interval:"),
        ["monitor interval: 0 (not watched; set monitorInterval to reload on changes)"]
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
    checked.assert_succeeded();
    assert!(
        checked
            .stdout
            .lines()
            .any(|l| l.contains("root") && l.contains("Json")),
        "the appender is kept: {}",
        checked.stdout
    );
    let (config, checked) = check(&dir, &clean.replace("compact=", "compcat="));
    checked.assert_failed();
    checked.assert_some_error(|l| {
        l.starts_with(&format!("error: {}:3:", config.display()))
            && l.contains(r#"JsonLayout contains an invalid element or attribute "compcat""#)
    });
}

/// A Socket appender is judged without connecting (its receiver may be down while the file is
/// checked): its TLS stores are loaded, so a JKS store, a missing file or a store that is no
/// PKCS12 file are reported, while an unreachable host is not.
#[test]
fn socket_stores_are_loaded_and_receivers_are_not_contacted() {
    let dir = fresh_dir("socket");
    std::fs::write(dir.join("not-a-store.p12"), "plain text").unwrap();
    let started = Instant::now();
    let (_, checked) = check(
        &dir,
        r#"<Configuration status="warn">
  <Appenders>
    <Socket name="Down" host="127.0.0.1" port="9"><PatternLayout/></Socket>
    <Socket name="Jks" host="127.0.0.1" port="6514" protocol="SSL"><PatternLayout/>
      <Ssl><TrustStore location="{dir}/trust.jks" type="JKS" password="changeit"/></Ssl></Socket>
    <Syslog name="Bad" host="127.0.0.1" protocol="SSL">
      <Ssl><TrustStore location="{dir}/not-a-store.p12" password="changeit"/></Ssl></Syslog>
    <Syslog name="Missing" host="127.0.0.1" protocol="SSL">
      <Ssl><TrustStore location="{dir}/missing.pem" type="PEM"/></Ssl></Syslog>
  </Appenders>
  <Loggers>
    <Root level="info"><AppenderRef ref="Down"/><AppenderRef ref="Jks"/><AppenderRef ref="Bad"/><AppenderRef ref="Missing"/></Root>
  </Loggers>
</Configuration>
"#,
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    checked.assert_failed();
    for expected in [
        "KeyStore type JKS for location",
        "keytool -importkeystore",
        &format!(
            "Something is wrong with the format of the keystore or the given password for location {}/not-a-store.p12",
            dir.display()
        ),
        &format!("The keystore file {}/missing.pem is not found", dir.display()),
    ] {
        assert!(checked.stdout.contains(expected), "{expected}\n{}", checked.stdout);
    }
    assert!(
        !checked.stdout.contains(r#"appender "Down""#),
        "{}",
        checked.stdout
    );
}

/// An Http appender is judged without sending: the stores of an `https` URL are loaded, so a
/// missing trust store is reported, while a server that is not there is not contacted.
#[test]
fn http_stores_are_loaded_and_servers_are_not_contacted() {
    let dir = fresh_dir("http");
    let started = Instant::now();
    let (_, checked) = check(
        &dir,
        r#"<Configuration status="warn">
  <Appenders>
    <Http name="Down" url="http://127.0.0.1:9/in"><PatternLayout/></Http>
    <Http name="Missing" url="https://127.0.0.1:9/in"><JsonLayout/>
      <Ssl><TrustStore location="{dir}/missing.pem" type="PEM"/></Ssl></Http>
  </Appenders>
  <Loggers>
    <Root level="info"><AppenderRef ref="Down"/><AppenderRef ref="Missing"/></Root>
  </Loggers>
</Configuration>
"#,
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    checked.assert_failed();
    let missing = format!(
        "The keystore file {}/missing.pem is not found",
        dir.display()
    );
    assert!(checked.stdout.contains(&missing), "{}", checked.stdout);
    assert!(
        !checked.stdout.contains(r#"appender "Down""#),
        "{}",
        checked.stdout
    );
}

/// `protocol="RELP"` (an l4rs extension) is a known protocol value for `l4rs check`: judged
/// like TCP (its TLS stores loaded, the receiver not contacted); a misspelt protocol lists it
/// among the allowed values.
#[test]
fn relp_is_a_protocol_check_knows() {
    let dir = fresh_dir("relp");
    let started = Instant::now();
    let (config, checked) = check(
        &dir,
        r#"<Configuration status="warn">
  <Appenders>
    <Syslog name="Relp" host="127.0.0.1" port="9" protocol="RELP" format="RFC5424"/>
    <Syslog name="RelpTls" host="127.0.0.1" port="9" protocol="relp">
      <Ssl><TrustStore location="{dir}/missing.pem" type="PEM"/></Ssl></Syslog>
    <Socket name="Typo" host="127.0.0.1" port="9" protocol="RELPP"><PatternLayout/></Socket>
  </Appenders>
  <Loggers>
    <Root level="info"><AppenderRef ref="Relp"/><AppenderRef ref="RelpTls"/><AppenderRef ref="Typo"/></Root>
  </Loggers>
</Configuration>
"#,
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    checked.assert_failed();
    checked.assert_printed(&format!(
        "The keystore file {}/missing.pem is not found",
        dir.display()
    ));
    checked.assert_printed("allowed: TCP, SSL, UDP, RELP");
    let relp = format!("{}:3:", config.display());
    assert!(
        !checked.stdout.lines().any(|line| line.contains(&relp)),
        "the plain RELP appender is fine: {}",
        checked.stdout
    );
}

#[test]
fn routing_appenders_show_their_routes_and_their_appenders_are_judged() {
    let dir = fresh_dir("routing");
    let (config, checked) = check(
        &dir,
        r#"<Configuration status="warn">
  <Appenders>
    <File name="Gold" fileName="{dir}/gold.log"/>
    <Routing name="ByTenant">
      <Routes pattern="$${ctx:tenant}">
        <Route key="gold" ref="Gold"/>
        <Route key="bad"><File name="bad-${ctx:tenant}" fileName="{dir}/x.log"><PatternLayout pattern="%q"/></File></Route>
        <Route><File name="t-${ctx:tenant}" fileName="{dir}/${ctx:tenant}.log"/></Route>
      </Routes>
      <IdlePurgePolicy timeToLive="2" timeUnit="seconds"/>
    </Routing>
  </Appenders>
  <Loggers><Root level="info"><AppenderRef ref="ByTenant"/></Root></Loggers>
</Configuration>
"#,
    );
    // The bad route's layout is reported at the Routing element, although no event has
    // created the route's appender yet.
    checked.assert_failed();
    checked.assert_some_error(|line| {
        line.contains(&format!("{}:4:5: appender \"ByTenant\"", config.display()))
            && line.contains("[q]")
    });
    let routes: Vec<&str> = checked
        .lines_from("Routing appender")
        .into_iter()
        .take(5)
        .collect();
    assert_eq!(
        routes,
        [
            "Routing appender ByTenant: key: ${ctx:tenant} (substituted for every event)",
            "  'gold' -> appender Gold",
            "  'bad' -> a new File per key, built by the key's first event",
            "  any other key -> a new File per key, built by the key's first event",
            "  idle per-key appenders stopped after 2000 ms (looked at again after 2000 ms when none is left)",
        ],
        "{}",
        checked.stdout
    );
    // Checking creates nothing.
    assert!(!dir.join("x.log").exists() && !dir.join("gold.log").exists());
}

#[test]
fn xml_and_yaml_layouts_are_checked_and_keep_their_appenders() {
    let dir = fresh_dir("xml-yaml-layout");
    let clean = r#"<Configuration status="warn">
  <Appenders>
    <Console name="Xml"><XmlLayout compact="true" complete="true" properties="true">
      <KeyValuePair key="service" value="orders"/>
    </XmlLayout></Console>
    <Console name="Yaml"><YamlLayout locationInfo="true" charset="UTF-16" header="h"/></Console>
  </Appenders>
  <Loggers><Root level="info"><AppenderRef ref="Xml"/><AppenderRef ref="Yaml"/></Root></Loggers>
</Configuration>
"#;
    let (_, checked) = check(&dir, clean);
    checked.assert_succeeded();
    for appender in ["Xml", "Yaml"] {
        assert!(
            checked
                .stdout
                .lines()
                .any(|l| l.contains("root") && l.contains(appender)),
            "{appender} is kept: {}",
            checked.stdout
        );
    }
    // `propertiesAsList` belongs to JsonLayout's builder only, as in log4j2.
    let (config, checked) = check(
        &dir,
        &clean.replace("<YamlLayout ", r#"<YamlLayout propertiesAsList="true" "#),
    );
    checked.assert_failed();
    checked.assert_some_error(|l| {
        l.starts_with(&format!("error: {}:6:", config.display()))
            && l.contains(
                r#"YamlLayout contains an invalid element or attribute "propertiesAsList""#,
            )
    });
}

#[test]
fn json_template_layouts_are_built_and_their_template_errors_named() {
    let dir = fresh_dir("json-template-layout");
    let clean = r#"<Configuration status="warn">
  <Appenders>
    <Console name="Ecs"><JsonTemplateLayout eventTemplateUri="classpath:EcsLayout.json">
      <EventTemplateAdditionalField key="service.name" value="orders"/>
    </JsonTemplateLayout></Console>
  </Appenders>
  <Loggers><Root level="info"><AppenderRef ref="Ecs"/></Root></Loggers>
</Configuration>
"#;
    let (_, checked) = check(&dir, clean);
    checked.assert_succeeded();
    let broken = clean.replace(
        r#"eventTemplateUri="classpath:EcsLayout.json""#,
        r#"eventTemplate='{"level": {"$resolver": "levle"}}'"#,
    );
    let (config, checked) = check(&dir, &broken);
    checked.assert_failed();
    checked.assert_some_error(|l| {
        l.contains(&format!("JsonTemplateLayout at {}:3:25", config.display()))
            && l.contains("unknown resolver: levle (at /level)")
    });
}

#[test]
fn the_ecs_sample_configuration_checks_clean() {
    let sample =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config-samples/json-template-ecs.xml");
    let checked = run_check(&sample);
    checked.assert_succeeded();
    checked.assert_printed("EcsLogger -> DEBUG -> [Ecs]");
}
