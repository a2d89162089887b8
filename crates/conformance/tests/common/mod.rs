//! What the conformance tests share: where the oracle and the scenarios are, whether the oracle
//! can run, and which `l4rs-replay` to run.

// Each test binary uses its own part of this module.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

pub(crate) use l4rs_test_support::workspace_root;

/// `shared/oracle` beside the checkout (see [`l4rs_test_support::shared::shared_root`]), or
/// `L4RS_ORACLE_DIR` (for a worktree that has no `shared/` beside it).
pub(crate) fn oracle_dir() -> PathBuf {
    match std::env::var_os("L4RS_ORACLE_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => l4rs_test_support::shared::shared_root().join("oracle"),
    }
}

/// Ok when Java, Debian's log4j2 jars and the oracle's files are all there.
pub(crate) fn oracle_available() -> Result<(), String> {
    l4rs_test_support::log4j2::available()?;
    for file in ["compare.py", "log4j2-java/run.sh"] {
        if !oracle_dir().join(file).exists() {
            return Err(format!("{} is missing", oracle_dir().join(file).display()));
        }
    }
    Ok(())
}

/// True when the oracle can run. Without it a test is skipped with a notice, except under CI
/// (`CI` set), where the missing oracle fails it.
pub(crate) fn require_oracle(what: &str) -> bool {
    match oracle_available() {
        Ok(()) => true,
        Err(missing) => {
            l4rs_test_support::shared::skip_or_fail(what, &missing);
            false
        }
    }
}

/// The `l4rs-replay` to run: `L4RS_REPLAY` if set, else the one built with this test.
pub(crate) fn replay_binary() -> PathBuf {
    match std::env::var_os("L4RS_REPLAY") {
        Some(path) if !path.is_empty() => {
            let path = PathBuf::from(path);
            assert!(
                path.is_file(),
                "L4RS_REPLAY={} is not a file",
                path.display()
            );
            path
        }
        _ => PathBuf::from(env!("CARGO_BIN_EXE_l4rs-replay")),
    }
}

/// JVM options for every oracle run, after any the caller set in `ORACLE_JAVA_OPTS`.
///
/// The JVM's own warnings go to stdout by default, where they would count as Console output:
/// one run printed `Cannot use file /tmp/hsperfdata_root/<pid> because it is locked by another
/// process` when a JVM in another PID namespace had left a file of the same pid. No perf-data
/// file at all, and JVM warnings on stderr, keep stdout to what the scenario's appenders print.
///
/// With Debian's Woodstox installed (`.ci/setup/40-xmlyaml.sh`), its jar and stax2-api are put
/// on the boot class path so that log4j2's XmlLayout writes through Woodstox, the StAX writer
/// jackson-dataformat-xml depends on and every Maven build of an application ships. `run.sh`
/// does not list it; without it Jackson falls back to the JDK's StAX writer, which cannot
/// pretty-print at all and writes random `zdef…` namespace prefixes in compact mode. With
/// Debian's JavaMail (`.ci/setup/50-smtp.sh`), it and the activation framework join them, so
/// that log4j2's SMTP appender can send (`smtp_mail.rs`).
pub(crate) fn oracle_java_opts() -> String {
    let mut ours = "-XX:-UsePerfData -Xlog:disable -Xlog:all=warning:stderr".to_string();
    let jars = Path::new("/usr/share/java");
    // Each group is added when all of it is installed: Woodstox and Stax2 for XmlLayout,
    // JavaMail and its activation framework for the SMTP appender.
    let groups: [&[&str]; 2] = [
        &["woodstox-core.jar", "stax2-api.jar"],
        &["javax.mail.jar", "javax.activation.jar"],
    ];
    let boot: Vec<String> = groups
        .iter()
        .filter(|group| group.iter().all(|jar| jars.join(jar).is_file()))
        .flat_map(|group| group.iter().map(|jar| jars.join(jar).display().to_string()))
        .collect();
    if !boot.is_empty() {
        ours.push_str(&format!(" -Xbootclasspath/a:{}", boot.join(":")));
    }
    match std::env::var("ORACLE_JAVA_OPTS") {
        Ok(theirs) if !theirs.trim().is_empty() => format!("{theirs} {ours}"),
        _ => ours,
    }
}

/// Runs the oracle's `compare.py`, `oracle` against `candidate`; prints and returns its report.
pub(crate) fn compare(
    oracle: &Path,
    candidate: &Path,
    options: &[&str],
    env: &[(&str, &str)],
    scenarios: &[PathBuf],
) -> String {
    let output = Command::new("python3")
        .env("ORACLE_JAVA_OPTS", oracle_java_opts())
        .envs(env.iter().copied())
        .arg(oracle_dir().join("compare.py"))
        .arg("--oracle")
        .arg(oracle)
        .arg("--candidate")
        .arg(candidate)
        .args(options)
        .args(scenarios)
        .output()
        .expect("run compare.py");
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    println!("{report}");
    eprintln!("{}", String::from_utf8_lossy(&output.stderr));
    report
}

/// How many scenarios a `compare.py` report passes (its `PASS ` lines).
pub(crate) fn passed_count(report: &str) -> usize {
    report
        .lines()
        .filter(|line| line.starts_with("PASS "))
        .count()
}

/// The scenario names listed in `crates/conformance/tests/<file>`: one per line, a reason after `#`.
pub(crate) fn listed_scenarios(file: &str) -> BTreeSet<String> {
    let path = workspace_root().join("crates/conformance/tests").join(file);
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.split('#').next())
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_string)
        .collect()
}

/// The scenarios (folders with a `log4j2.xml`) in `roots`, sorted by path.
pub(crate) fn scenarios_under(roots: &[PathBuf]) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for root in roots {
        if let Ok(entries) = std::fs::read_dir(root) {
            for entry in entries.flatten() {
                if entry.path().join("log4j2.xml").exists() {
                    dirs.push(entry.path());
                }
            }
        }
    }
    dirs.sort();
    dirs
}

/// A scenario's name: its folder's name.
pub(crate) fn scenario_name(dir: &Path) -> String {
    dir.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Where one side's replay of `scenario` writes (`oracle` for log4j2's, else l4rs's), in the
/// temporary folder and named after the test (`label`); it does not exist yet, as a replay
/// creates its own output folder.
pub(crate) fn replay_output_dir(label: &str, scenario: &Path, oracle: bool) -> PathBuf {
    let out = std::env::temp_dir().join(format!(
        "l4rs-{label}-{}-{}-{}",
        if oracle { "oracle" } else { "l4rs" },
        std::process::id(),
        scenario_name(scenario)
    ));
    let _ = std::fs::remove_dir_all(&out);
    out
}

/// Runs one side's replay, `command scenario out` (`oracle` for log4j2's, with the oracle's
/// JVM options), in the scenario's time zone, and returns its stderr. Panics when it fails.
pub(crate) fn replay_into(command: &Path, scenario: &Path, out: &Path, oracle: bool) -> String {
    replay_into_with_env(command, scenario, out, oracle, &[])
}

/// [`replay_into`] with `env` added to the replay's environment (both libraries read log4j2's
/// properties from `LOG4J_…` variables).
pub(crate) fn replay_into_with_env(
    command: &Path,
    scenario: &Path,
    out: &Path,
    oracle: bool,
    env: &[(&str, &str)],
) -> String {
    let mut process = Command::new(command);
    process
        .arg(scenario)
        .arg(out)
        .envs(env.iter().copied())
        .env("TZ", scenario_timezone(scenario));
    if oracle {
        process.env("ORACLE_JAVA_OPTS", oracle_java_opts());
    }
    let output = process.output().expect("run a replay");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "{} failed on {}: {stderr}",
        command.display(),
        scenario.display()
    );
    stderr
}

/// Writes `files` under `out` before a replay: each a path under the output folder, its text
/// and its modification time, which a scenario's seed cannot carry (seeds are copied when the
/// replay starts).
pub(crate) fn stage_files(out: &Path, files: &[(&str, &str, std::time::SystemTime)]) {
    for (path, text, modified) in files {
        let path = out.join(path);
        std::fs::create_dir_all(path.parent().expect("a file under the folder"))
            .expect("create the staged file's folder");
        std::fs::write(&path, text).expect("write a staged file");
        std::fs::File::options()
            .write(true)
            .open(&path)
            .and_then(|file| file.set_modified(*modified))
            .expect("date a staged file");
    }
}

/// Every file under `dir` but the replay's own notes, by relative path, with its bytes read as
/// ISO-8859-1 (ASCII text reads as itself).
pub(crate) fn files_under(dir: &Path) -> std::collections::BTreeMap<String, String> {
    let mut found = std::collections::BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).expect("read an output folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let relative = path
                .strip_prefix(dir)
                .expect("under dir")
                .display()
                .to_string();
            if relative != "replay-meta.json" {
                let bytes = std::fs::read(&path).expect("read a file a replay left");
                // Each byte as one character: any charset is compared byte for byte, and two
                // files read alike only when their bytes are alike.
                found.insert(relative, bytes.into_iter().map(char::from).collect());
            }
        }
    }
    found
}

/// The time zone a scenario runs in (`scenario.json`'s `timezone`, else UTC).
pub(crate) fn scenario_timezone(dir: &Path) -> String {
    l4rs_conformance::scenario::read_settings(dir)
        .map(|settings| settings.timezone)
        .unwrap_or_else(|_| "UTC".to_string())
}

/// The status logger's levels, as its lines spell them.
pub(crate) const LEVELS: &[&str] = &["FATAL", "ERROR", "WARN", "INFO", "DEBUG", "TRACE"];

/// True for `yyyy-MM-dd` (`date`) and `HH:mm:ss,SSS` (`time`), the status logger's timestamp.
fn is_timestamp(date: &str, time: &str) -> bool {
    let shaped = |text: &str, shape: &str| {
        text.len() == shape.len()
            && text.bytes().zip(shape.bytes()).all(|(c, s)| match s {
                b'9' => c.is_ascii_digit(),
                _ => c == s,
            })
    };
    shaped(date, "9999-99-99") && shaped(time, "99:99:99,999")
}

/// The status lines in `stderr`, as `LEVEL message`: lines of the status logger
/// (`<date> <time> <thread> LEVEL message`), and of log4j2's fallback logger used before a
/// configuration exists (`LEVEL StatusLogger message`). Everything else (stack traces, the XML
/// parser's own output, l4rs-replay's diagnostics) is not a status message. With `strip_help`
/// an l4rs ` (help: …)` ending is cut off.
pub(crate) fn status_lines(
    stderr: &str,
    scenario: &Path,
    out: &Path,
    strip_help: bool,
) -> Vec<String> {
    let scenario = scenario.display().to_string();
    let out = out.display().to_string();
    stderr
        .lines()
        .filter_map(|line| {
            let parts: Vec<&str> = line.splitn(5, ' ').collect();
            let (level, message) = match parts.as_slice() {
                [date, time, _thread, level, message] if is_timestamp(date, time) => {
                    (*level, *message)
                }
                [level, "StatusLogger", ..] => (*level, line.splitn(3, ' ').nth(2)?),
                _ => return None,
            };
            if !LEVELS.contains(&level) {
                return None;
            }
            let message = match message.find(" (help: ") {
                Some(index) if strip_help => &message[..index],
                _ => message,
            };
            let message = message
                .replace(&out, "<OUT>")
                .replace(&scenario, "<SCENARIO>");
            Some(format!("{level} {message}"))
        })
        .collect()
}

/// An HtmlLayout page, `text`, with the digits of the session start time, and with `elapsed_time` those of the time
/// column (which then holds only a number), written `#`.
pub(crate) fn mask_html_clock_readings(text: &str, elapsed_time: bool) -> String {
    let mask = |line: &str| line.replace(|c: char| c.is_ascii_digit(), "#");
    let mut masked = Vec::new();
    let mut after_row_start = false;
    for line in text.split('\n') {
        let elapsed_cell = elapsed_time
            && after_row_start
            && line
                .strip_prefix("<td>")
                .and_then(|rest| rest.strip_suffix("</td>"))
                .is_some_and(|cell| cell.trim_start_matches('-').parse::<i64>().is_ok());
        if line.starts_with("Log session start time ") || elapsed_cell {
            masked.push(mask(line));
        } else {
            masked.push(line.to_string());
        }
        after_row_start = line == "<tr>";
    }
    masked.join("\n")
}

/// Copies the scenario folder `scenario` into `into` with each `(placeholder, value)` written
/// into its configuration: a receiver's port, known only once the receiver listens.
pub(crate) fn materialize(scenario: &Path, into: &Path, values: &[(&str, String)]) {
    let _ = std::fs::remove_dir_all(into);
    std::fs::create_dir_all(into).expect("the scenario's copy");
    for file in ["events.jsonl", "scenario.json"] {
        if scenario.join(file).exists() {
            std::fs::copy(scenario.join(file), into.join(file)).expect("copy");
        }
    }
    let mut xml = std::fs::read_to_string(scenario.join("log4j2.xml")).expect("log4j2.xml");
    for (placeholder, value) in values {
        xml = xml.replace(placeholder, value);
    }
    std::fs::write(into.join("log4j2.xml"), xml).expect("write log4j2.xml");
}

/// What one scenario gave through log4j2 (`theirs`) and through l4rs (`ours`).
pub(crate) struct BothReplays<T> {
    /// The scenario's name.
    pub name: String,
    /// What the oracle's replay gave.
    pub theirs: T,
    /// What `l4rs-replay` gave.
    pub ours: T,
}

/// Replays every scenario under `root` (`crates/conformance/tests/<root>`) through the oracle,
/// then through `l4rs-replay`, each with `replay(command, scenario, work, oracle)` in a work
/// folder of its own under `target/test-output/<label>/<scenario>/`; `replay` starts what the
/// scenario talks to and returns what it compares. `None` when `replay` does (a server it needs
/// is missing, after its notice).
pub(crate) fn replay_both<T>(
    root: &str,
    label: &str,
    replay: impl Fn(&Path, &Path, &Path, bool) -> Option<T>,
) -> Option<Vec<BothReplays<T>>> {
    let work_root = workspace_root().join("target/test-output").join(label);
    let mut replays = Vec::new();
    for scenario in scenarios_under(&[workspace_root().join("crates/conformance/tests").join(root)])
    {
        let name = scenario_name(&scenario);
        let work = work_root.join(&name);
        let theirs = replay(
            &oracle_dir().join("log4j2-java/run.sh"),
            &scenario,
            &work.join("log4j2"),
            true,
        )?;
        let ours = replay(&replay_binary(), &scenario, &work.join("l4rs"), false)?;
        replays.push(BothReplays { name, theirs, ours });
    }
    Some(replays)
}
