//! Hostile and broken configurations, end to end: every input class that once aborted, hung or
//! exhausted a process now completes within bounded time and memory, through `l4rs check` and
//! through `init`, and the two agree on whether the file has errors.
//!
//! Each case runs in child processes with an address-space limit and a deadline, so a
//! regression shows up as a failed test instead of taking the test runner down: `l4rs check` is
//! the real binary, and `init` runs in this test binary re-executed in child mode (the
//! [`child`] test, which does nothing unless [`CHILD_CONFIG`] is set). Children run their work on
//! a test thread, whose stack is the 2 MiB a spawned thread gets by default.

use std::fs::File;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The configuration file a child initializes l4rs with.
const CHILD_CONFIG: &str = "L4RS_HOSTILE_CHILD_CONFIG";
/// A file holding the logger name a child logs one event through (a file, because a name of
/// 80 000 segments is longer than one environment string may be).
const CHILD_LOGGER_FILE: &str = "L4RS_HOSTILE_CHILD_LOGGER_FILE";
/// What one child may take, wall clock (debug builds, a busy 2-core machine).
const DEADLINE: Duration = Duration::from_secs(90);
/// What one child may map: far below what any of the blow-ups needed.
const ADDRESS_SPACE: u64 = 3 << 30;

/// The child mode: initializes l4rs with the configuration named by [`CHILD_CONFIG`], says
/// whether that reported errors, logs one event and shuts down.
#[test]
fn child() {
    let Some(config) = std::env::var_os(CHILD_CONFIG) else {
        return;
    };
    match l4rs::init_with_file(&config) {
        Ok(()) => println!("init: ok"),
        Err(error) => println!("init: error: {error}"),
    }
    let name = std::env::var_os(CHILD_LOGGER_FILE)
        .map(|file| std::fs::read_to_string(file).expect("read the logger name"))
        .unwrap_or_else(|| "hostile".to_string());
    let logger = l4rs::get_logger(&name);
    l4rs::error!(logger, "probe event");
    l4rs::shutdown();
    println!("child: done");
}

/// How one child process ended.
struct Outcome {
    /// The exit code; `None` when a signal ended it.
    code: Option<i32>,
    signal: Option<i32>,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

impl Outcome {
    fn describe(&self) -> String {
        let cut = |text: &str| text.chars().take(3000).collect::<String>();
        format!(
            "code {:?}, signal {:?}, {:?}\nstdout:\n{}\nstderr:\n{}",
            self.code,
            self.signal,
            self.elapsed,
            cut(&self.stdout),
            cut(&self.stderr)
        )
    }
}

/// Runs `command` with the address-space limit, its output in files (a full pipe cannot stall
/// it), and kills it at the deadline.
fn run_bounded(mut command: Command, dir: &Path, label: &str) -> Outcome {
    let stdout_path = dir.join(format!("{label}.stdout"));
    let stderr_path = dir.join(format!("{label}.stderr"));
    command
        .stdin(Stdio::null())
        .stdout(File::create(&stdout_path).expect("create stdout file"))
        .stderr(File::create(&stderr_path).expect("create stderr file"));
    // SAFETY: setrlimit is async-signal-safe and touches no state of the parent.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: ADDRESS_SPACE,
                rlim_max: ADDRESS_SPACE,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let started = Instant::now();
    let mut child = command.spawn().expect("spawn the child");
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the child") {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{label} did not finish within {DEADLINE:?}; stdout so far:\n{}",
                std::fs::read_to_string(&stdout_path).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Outcome {
        code: status.code(),
        signal: status.signal(),
        stdout: std::fs::read_to_string(&stdout_path).unwrap_or_default(),
        stderr: std::fs::read_to_string(&stderr_path).unwrap_or_default(),
        elapsed: started.elapsed(),
    }
}

/// `l4rs check` on `config`.
fn check(config: &Path, dir: &Path) -> Outcome {
    let mut command = Command::new(env!("CARGO_BIN_EXE_l4rs"));
    command.arg("check").arg(config).current_dir(dir);
    run_bounded(command, dir, "check")
}

/// `init_with_file(config)` then one event through `logger`, in a child process.
fn init(config: &Path, dir: &Path, logger: Option<&str>) -> Outcome {
    let mut command = Command::new(std::env::current_exe().expect("this test binary"));
    command
        .args(["--exact", "child", "--nocapture", "--test-threads=1"])
        .env(CHILD_CONFIG, config)
        .current_dir(dir);
    match logger {
        Some(name) => {
            let file = dir.join("logger-name.txt");
            std::fs::write(&file, name).expect("write the logger name");
            command.env(CHILD_LOGGER_FILE, file)
        }
        None => command.env_remove(CHILD_LOGGER_FILE),
    };
    run_bounded(command, dir, "init")
}

/// A fresh, empty directory for one case.
fn case_dir(name: &str) -> PathBuf {
    l4rs_test_support::fresh_dir_at(
        Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("hostile-configs")
            .join(name),
    )
}

/// What a case expects of both paths.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Expect {
    /// Both report errors.
    Errors,
    /// Both accept the file.
    Clean,
    /// Whatever they decide, they decide the same.
    Agreement,
    /// `init` decides by what exists when it runs (a FIFO's reader), so `check` only warns.
    CheckWarns,
}

/// Runs `l4rs check` and `init` on `config`, asserting that both end normally within the
/// bounds, that the child logged its event, and that they agree on errors as `expect` says.
/// Returns both outcomes for further checks.
fn both(dir: &Path, config: &Path, logger: Option<&str>, expect: Expect) -> (Outcome, Outcome) {
    let checked = check(config, dir);
    assert!(
        checked.signal.is_none() && matches!(checked.code, Some(0 | 1)),
        "l4rs check ended abnormally: {}",
        checked.describe()
    );
    let started = init(config, dir, logger);
    assert!(
        started.signal.is_none() && started.code == Some(0),
        "init ended abnormally: {}",
        started.describe()
    );
    assert!(
        started.stdout.contains("child: done"),
        "the child did not finish its work: {}",
        started.describe()
    );
    let check_errors = checked.code == Some(1);
    let init_errors = started.stdout.contains("init: error");
    if expect == Expect::CheckWarns {
        assert!(
            !check_errors && checked.stdout.contains("warning:"),
            "expected a warning: {}",
            checked.describe()
        );
        return (checked, started);
    }
    assert_eq!(
        check_errors,
        init_errors,
        "l4rs check and init disagree on errors\ncheck: {}\ninit: {}",
        checked.describe(),
        started.describe()
    );
    match expect {
        Expect::Errors => assert!(check_errors, "expected errors: {}", checked.describe()),
        Expect::Clean => assert!(!check_errors, "expected no errors: {}", checked.describe()),
        Expect::Agreement | Expect::CheckWarns => {}
    }
    if check_errors {
        assert!(
            names_a_file_position(&checked.stdout),
            "check's errors should name the file and position: {}",
            checked.describe()
        );
    }
    (checked, started)
}

/// True when `text` names a position in one of the case's XML files (`….xml:LINE:`): the main
/// file, or the included file where the problem is.
fn names_a_file_position(text: &str) -> bool {
    text.match_indices(".xml:").any(|(at, found)| {
        text[at + found.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    })
}

/// A configuration with one console appender and `body` inside `<Appenders>` after it; the
/// root logs to the console.
fn with_appenders(body: &str) -> String {
    format!(
        r#"<Configuration status="warn">
  <Appenders>
    <Console name="Out"><PatternLayout pattern="%p %c - %m%n"/></Console>
    {body}
  </Appenders>
  <Loggers>
    <Root level="info"><AppenderRef ref="Out"/></Root>
  </Loggers>
</Configuration>
"#
    )
}

/// A configuration whose only appender is a file in `dir` with `pattern`.
fn file_with_pattern(dir: &Path, pattern: &str) -> String {
    format!(
        r#"<Configuration status="warn">
  <Appenders>
    <File name="F" fileName="{}/out.log"><PatternLayout pattern="{pattern}"/></File>
  </Appenders>
  <Loggers><Root level="info"><AppenderRef ref="F"/></Root></Loggers>
</Configuration>
"#,
        dir.display()
    )
}

/// [`file_with_pattern`] with `properties` (`<Property>` elements) declared first.
fn file_with_properties(dir: &Path, properties: &str, pattern: &str) -> String {
    file_with_pattern(dir, pattern).replacen(
        "<Appenders>",
        &format!("<Properties>{properties}</Properties>\n  <Appenders>"),
        1,
    )
}

/// A configuration whose only appender is a file named `file_name`, as written.
fn file_named(file_name: &str) -> String {
    format!(
        r#"<Configuration status="warn">
  <Appenders>
    <File name="F" fileName="{file_name}"><PatternLayout pattern="%m%n"/></File>
  </Appenders>
  <Loggers><Root level="info"><AppenderRef ref="F"/></Root></Loggers>
</Configuration>
"#
    )
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write the configuration");
    path
}

#[test]
fn twenty_thousand_nested_elements_are_refused() {
    let dir = case_dir("deep-nesting");
    let depth = 20_000;
    let mut xml = String::from("<Configuration><Properties>");
    xml.push_str(&"<Property name=\"p\">".repeat(depth));
    xml.push_str(&"</Property>".repeat(depth));
    xml.push_str("</Properties><Loggers><Root level=\"info\"/></Loggers></Configuration>\n");
    let config = write(&dir, "log4j2.xml", &xml);
    both(&dir, &config, None, Expect::Errors);
}

#[test]
fn an_impossible_async_buffer_size_is_refused() {
    let dir = case_dir("async-buffer");
    let xml = with_appenders(
        r#"<Async name="A" bufferSize="2147483647"><AppenderRef ref="Out"/></Async>"#,
    );
    let config = write(&dir, "log4j2.xml", &xml);
    both(&dir, &config, None, Expect::Errors);
}

#[test]
fn huge_padding_widths_finish() {
    for (label, pattern) in [
        ("left-overflow", "%-99999999999999999999c%n"),
        ("right-overflow", "%99999999999999999999c%n"),
        ("two-million", "%2000000c%n"),
        ("negative-max-length", "%maxLen{%m}{-5}%n"),
    ] {
        let dir = case_dir(&format!("padding-{label}"));
        let config = write(&dir, "log4j2.xml", &file_with_pattern(&dir, pattern));
        let (_, started) = both(&dir, &config, None, Expect::Agreement);
        assert!(
            started.elapsed < DEADLINE,
            "{label}: {}",
            started.describe()
        );
    }
}

#[test]
fn two_hundred_thousand_loggers_load() {
    let dir = case_dir("many-loggers");
    let loggers: String = (0..200_000)
        .map(|i| {
            format!("    <Logger name=\"com.example.service{i}.component\" level=\"debug\"/>\n")
        })
        .collect();
    let xml = with_appenders("").replacen("  <Loggers>\n", &format!("  <Loggers>\n{loggers}"), 1);
    let config = write(&dir, "log4j2.xml", &xml);
    both(
        &dir,
        &config,
        Some("com.example.service199999.component.x"),
        Expect::Clean,
    );
}

#[test]
fn an_xinclude_fan_out_is_bounded() {
    let dir = case_dir("xinclude-fan-out");
    let depth = 10;
    for level in 0..depth {
        let include = format!(
            "<xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"level{}.xml\"/>",
            level + 1
        );
        write(
            &dir,
            &format!("level{level}.xml"),
            &format!("<Properties>{}</Properties>\n", include.repeat(4)),
        );
    }
    write(
        &dir,
        &format!("level{depth}.xml"),
        "<Properties><Property name=\"leaf\">x</Property></Properties>\n",
    );
    let xml = "<Configuration xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n  <xi:include href=\"level0.xml\"/>\n  <Loggers><Root level=\"info\"/></Loggers>\n</Configuration>\n";
    let config = write(&dir, "log4j2.xml", xml);
    both(&dir, &config, None, Expect::Errors);
}

#[test]
fn a_billion_laughs_from_properties_is_bounded() {
    let dir = case_dir("billion-laughs");
    let mut properties = String::from("<Property name=\"p0\">lol</Property>");
    for level in 1..10 {
        let value = format!("${{p{}}}", level - 1).repeat(10);
        properties.push_str(&format!("<Property name=\"p{level}\">{value}</Property>"));
    }
    let xml = file_with_properties(&dir, &properties, "${p9} %m%n");
    let config = write(&dir, "log4j2.xml", &xml);
    both(&dir, &config, None, Expect::Errors);
}

#[test]
fn ten_thousand_nested_defaults_are_bounded() {
    let dir = case_dir("nested-defaults");
    let depth = 10_000;
    let value = format!("{}x{}", "${x:-".repeat(depth), "}".repeat(depth));
    let properties = format!("<Property name=\"deep\">{value}</Property>");
    let xml = file_with_properties(&dir, &properties, "${deep} %m%n");
    let config = write(&dir, "log4j2.xml", &xml);
    both(&dir, &config, None, Expect::Errors);
}

#[test]
fn a_logger_name_with_eighty_thousand_dots_resolves() {
    let dir = case_dir("many-dots");
    let config = write(&dir, "log4j2.xml", &with_appenders(""));
    let dots = "a.".repeat(80_000);
    let colons = "a::".repeat(80_000);
    let (_, started) = both(&dir, &config, Some(&dots), Expect::Clean);
    assert!(started.stdout.contains("child: done"));
    both(&dir, &config, Some(&colons), Expect::Clean);
}

#[test]
fn a_symlink_loop_as_file_name_is_an_error_in_both() {
    let dir = case_dir("symlink-loop");
    std::os::unix::fs::symlink(dir.join("b.log"), dir.join("a.log")).expect("symlink a");
    std::os::unix::fs::symlink(dir.join("a.log"), dir.join("b.log")).expect("symlink b");
    let xml = file_named(&dir.join("a.log").display().to_string());
    let config = write(&dir, "log4j2.xml", &xml);
    both(&dir, &config, None, Expect::Errors);
}

#[test]
fn a_file_name_of_three_thousand_components_is_an_error_in_both() {
    let dir = case_dir("deep-file-name");
    let file_name = format!("{}/nodir/{}x.log", dir.display(), "a/".repeat(3_000));
    let config = write(&dir, "log4j2.xml", &file_named(&file_name));
    let (checked, _) = both(&dir, &config, None, Expect::Errors);
    assert!(
        checked.stdout.contains("File name too long"),
        "{}",
        checked.describe()
    );
}

#[test]
fn a_file_name_just_below_path_max_finishes() {
    let dir = case_dir("deepest-file-name");
    // Every missing parent used to be resolved again from the root: cubic, 34 s at 2,100.
    let room = libc::PATH_MAX as usize - dir.as_os_str().len() - "/nodir/x.log".len();
    let file_name = format!("{}/nodir/{}x.log", dir.display(), "a/".repeat(room / 2 - 1));
    let config = write(&dir, "log4j2.xml", &file_named(&file_name));
    let (checked, started) = both(&dir, &config, None, Expect::Agreement);
    for outcome in [&checked, &started] {
        assert!(
            outcome.elapsed < Duration::from_secs(30),
            "{}",
            outcome.describe()
        );
    }
}

#[test]
fn an_empty_file_name_is_an_error_in_both() {
    let dir = case_dir("empty-file-name");
    let config = write(&dir, "log4j2.xml", &file_named(""));
    both(&dir, &config, None, Expect::Errors);
}

#[test]
fn a_fifo_as_file_name_never_hangs() {
    let dir = case_dir("fifo");
    let fifo = dir.join("pipe.log");
    let path = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0, "mkfifo");
    let config = write(&dir, "log4j2.xml", &file_named(&fifo.display().to_string()));
    let (_, started) = both(&dir, &config, None, Expect::CheckWarns);
    assert!(
        started.stdout.contains("init: error"),
        "init refuses a FIFO nobody reads: {}",
        started.describe()
    );
}

#[test]
fn an_unresolved_system_property_path_is_an_error_in_both() {
    let dir = case_dir("unresolved-sys");
    let xml = file_named("${sys:l4rs.hostile.unset.home}/../logs/app.log");
    let config = write(&dir, "log4j2.xml", &xml);
    both(&dir, &config, None, Expect::Errors);
}

#[test]
fn comments_before_the_xml_declaration_are_malformed() {
    let dir = case_dir("late-declaration");
    let xml = format!(
        "<!-- written by a tool -->\n<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{}",
        with_appenders("")
    );
    let config = write(&dir, "log4j2.xml", &xml);
    both(&dir, &config, None, Expect::Errors);
}
