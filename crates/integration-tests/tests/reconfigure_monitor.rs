//! `monitorInterval`: the watcher thread picks up a rewritten file, a broken rewrite keeps the
//! running configuration until the next good one, a change of a `<MonitorResource>` reloads
//! the configuration file, and the thread exists only while something is watched.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use l4rs::core::status;
use l4rs::Level;

/// Serialises the tests of this file: they replace the one process-wide configuration.
fn turn() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}

/// A configuration watched every second (plus `extra`, when given) whose root writes `out.log`
/// with `pattern`.
fn config(dir: &Path, pattern: &str, extra: Option<&Path>) -> String {
    let resources = extra.map_or(String::new(), |extra| {
        format!(
            r#"<MonitorResources><MonitorResource uri="file://{}"/></MonitorResources>"#,
            extra.display()
        )
    });
    format!(
        r#"<Configuration monitorInterval="1">{resources}<Appenders><File name="Out" fileName="{}/out.log"><PatternLayout pattern="{pattern}"/></File></Appenders><Loggers><Root level="info"><AppenderRef ref="Out"/></Root></Loggers></Configuration>"#,
        dir.display()
    )
}

/// Replaces `path` by a new file holding `text` (written beside it, then renamed, as
/// deployment tools do), so the watcher never reads half a file.
fn replace(path: &Path, text: &str) {
    let next = path.with_extension("next");
    std::fs::write(&next, text).expect("write");
    std::fs::rename(&next, path).expect("rename");
}

/// Logs `probe N` every 50 ms until the last line of out.log satisfies `done`, for at most
/// 10 s (the watcher checks every second); returns the lines.
fn log_until(dir: &Path, done: impl Fn(&str) -> bool) -> Vec<String> {
    let logger = l4rs::get_logger("probe");
    let deadline = Instant::now() + Duration::from_secs(10);
    for index in 0.. {
        l4rs::info!(logger, "probe {index}");
        l4rs::flush();
        let lines = l4rs_tests::read_lines(&dir.join("out.log"));
        if lines.last().is_some_and(|line| done(line)) {
            return lines;
        }
        assert!(
            Instant::now() < deadline,
            "no reload within 10 s; lines: {lines:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    unreachable!()
}

fn start(name: &str, extra: Option<&Path>) -> (PathBuf, PathBuf) {
    let dir = l4rs_tests::fresh_output_dir(name);
    let path = l4rs_tests::write_config(&dir, &config(&dir, "v1 %m%n", extra));
    l4rs::init_with_file(&path).expect("configuration loads cleanly");
    (dir, path)
}

#[test]
fn a_rewrite_is_picked_up_and_a_broken_one_keeps_the_running_configuration() {
    let _turn = turn();
    let (dir, path) = start("reconfigure-monitor-rewrite", None);
    replace(&path, &config(&dir, "v2 %m%n", None));
    log_until(&dir, |line| line.starts_with("v2 "));

    let records = status::GlobalCapture::start();
    replace(
        &path,
        "<Configuration monitorInterval=\"1\"><Appenders>\n<File name=",
    );
    // Two checks of the watcher at least: the broken file is reported once, and v2 goes on.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !records
        .records()
        .iter()
        .any(|r| r.level == Level::ERROR && r.message.starts_with("Error parsing"))
    {
        assert!(Instant::now() < deadline, "the broken file is not reported");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(1500));
    let errors: Vec<String> = records
        .records()
        .into_iter()
        .filter(|r| r.level == Level::ERROR)
        .map(|r| r.message)
        .collect();
    assert_eq!(errors.len(), 1, "reported once: {errors:?}");
    // log4j2's words, with the file and the position.
    let expected = format!("Error parsing {0} (help: {0}:2:", path.display());
    assert!(errors[0].starts_with(&expected), "{errors:?}");
    let lines = log_until(&dir, |line| line.starts_with("v2 "));
    assert!(lines.iter().all(|line| !line.starts_with("v3 ")));

    replace(&path, &config(&dir, "v3 %m%n", None));
    let lines = log_until(&dir, |line| line.starts_with("v3 "));
    // One file throughout: nothing truncated, every line under one layout or the next.
    assert!(lines[0].starts_with("v1 ") || lines[0].starts_with("v2 "));
    assert!(lines.iter().all(|line| !line.contains('\0')));
}

#[test]
fn a_change_of_a_monitor_resource_reloads_the_configuration_file() {
    let _turn = turn();
    let dir = l4rs_tests::fresh_output_dir("reconfigure-monitor-resource");
    let extra = dir.join("extra.properties");
    std::fs::write(&extra, "a=1\n").expect("write");
    let path = l4rs_tests::write_config(&dir, &config(&dir, "v1 %m%n", Some(&extra)));
    l4rs::init_with_file(&path).expect("configuration loads cleanly");
    replace(&extra, "a=2\n");
    // A change made from code after the edit and before the watcher's next check: only a
    // reload from the file undoes it, and putting it in force must not count the edit as seen.
    l4rs::set_root_level(Level::ERROR).expect("level set");
    let probe = l4rs::get_logger("probe");
    assert_eq!(probe.level(), Level::ERROR);
    let deadline = Instant::now() + Duration::from_secs(10);
    while probe.level() != Level::INFO {
        assert!(
            Instant::now() < deadline,
            "the resource change reloaded nothing"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn an_edit_before_a_reconfiguration_from_code_is_still_loaded() {
    let _turn = turn();
    let (dir, path) = start("reconfigure-monitor-pending", None);
    replace(&path, &config(&dir, "v2 %m%n", None));
    // Before the watcher's next check: a change from code, then a reload of another file that
    // watches the same one, neither of which is the edit.
    l4rs::set_level("other", Level::DEBUG).expect("level set");
    let lines = log_until(&dir, |line| line.starts_with("v2 "));
    assert!(lines[0].starts_with("v1 "), "{lines:?}");
}

#[test]
fn the_watcher_thread_runs_only_while_something_is_watched() {
    let _turn = turn();
    let watcher = || {
        l4rs_tests::thread_names()
            .iter()
            .any(|name| name == "l4rs-config-wat")
    };
    let (dir, path) = start("reconfigure-monitor-thread", None);
    assert!(watcher(), "{:?}", l4rs_tests::thread_names());
    // A configuration without monitorInterval leaves the thread idle: the file watched
    // before is not any more, and a rewrite of it loads nothing.
    let quiet = dir.join("quiet.xml");
    std::fs::write(
        &quiet,
        config(&dir, "q %m%n", None).replace(" monitorInterval=\"1\"", ""),
    )
    .expect("write");
    l4rs::reconfigure_with_file(&quiet).expect("loads");
    replace(&path, &config(&dir, "v2 %m%n", None));
    std::thread::sleep(Duration::from_millis(1500));
    let lines = log_until(&dir, |line| line.starts_with("q "));
    assert!(
        lines.iter().all(|line| !line.starts_with("v2 ")),
        "{lines:?}"
    );
    assert!(
        watcher(),
        "idle, not gone: {:?}",
        l4rs_tests::thread_names()
    );
    // Shutdown ends it, and what is logged afterwards reaches no file.
    l4rs::shutdown();
    let deadline = Instant::now() + Duration::from_secs(5);
    while watcher() {
        assert!(Instant::now() < deadline, "the watcher outlived shutdown");
        std::thread::sleep(Duration::from_millis(20));
    }
    l4rs::info!(l4rs::get_logger("probe"), "after shutdown");
    l4rs::flush();
    let lines = l4rs_tests::read_lines(&dir.join("out.log"));
    assert!(
        lines.iter().all(|line| !line.contains("after shutdown")),
        "{lines:?}"
    );
}
