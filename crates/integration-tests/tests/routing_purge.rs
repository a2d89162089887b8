//! `<IdlePurgePolicy>`: an appender a route created is stopped (its footer written, its file
//! closed) once no event used it for `timeToLive`, from the policy's own thread; the next event
//! of the key creates a new one. A referenced appender is never purged, and a key in use is
//! kept. Intervals are milliseconds; every wait is bounded.

use std::path::Path;
use std::time::{Duration, Instant};

/// Waits (at most 10 s) until `file` holds `count` lines equal to `line`.
fn wait_for_lines(file: &Path, line: &str, count: usize) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let found = std::fs::read_to_string(file)
            .unwrap_or_default()
            .lines()
            .filter(|l| *l == line)
            .count();
        if found >= count {
            return found == count;
        }
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn footers(file: &Path) -> usize {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter(|l| *l == "closed")
        .count()
}

#[test]
fn idle_route_appenders_are_stopped_and_recreated() {
    let dir = l4rs_tests::fresh_output_dir("routing-purge");
    let xml = format!(
        r#"<Configuration status="warn">
  <Appenders>
    <File name="shared" fileName="{dir}/shared.log"><PatternLayout pattern="%m%n" footer="closed%n"/></File>
    <Routing name="R">
      <Routes pattern="$${{ctx:user}}">
        <Route key="ref" ref="shared"/>
        <Route>
          <File name="u-${{ctx:user}}" fileName="{dir}/${{ctx:user}}.log">
            <PatternLayout pattern="%m%n" footer="closed%n"/>
          </File>
        </Route>
      </Routes>
      <IdlePurgePolicy timeToLive="500" checkInterval="50" timeUnit="milliseconds"/>
    </Routing>
  </Appenders>
  <Loggers><Root level="info"><AppenderRef ref="R"/></Root></Loggers>
</Configuration>"#,
        dir = dir.display()
    );
    let capture = l4rs::core::status::GlobalCapture::start();
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).expect("loads");
    let logger = l4rs::get_logger("app");
    let log_as = |user: &str, message: &str| {
        l4rs::ThreadContext::put("user", user);
        l4rs::info!(logger, "{message}");
    };
    log_as("idle", "idle 1");
    log_as("ref", "ref 1");
    // `busy` is used every 10 ms, far within the time to live (so a loaded machine does not
    // purge it), while `idle` is left alone.
    let start = Instant::now();
    while footers(&dir.join("idle.log")) == 0 && start.elapsed() < Duration::from_secs(10) {
        log_as("busy", "busy");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        wait_for_lines(&dir.join("idle.log"), "closed", 1),
        "the idle route's appender was stopped: {:?}",
        std::fs::read_to_string(dir.join("idle.log"))
    );
    assert!(
        start.elapsed() >= Duration::from_millis(400),
        "purged after {:?}, before its time to live",
        start.elapsed()
    );
    assert_eq!(footers(&dir.join("busy.log")), 0, "a key in use is kept");
    // The purge's debug lines name the route's key in log4j2's words (IdlePurgePolicy.purge,
    // RoutingAppender.deleteAppender), then the appender.
    let purge_lines: Vec<String> = capture
        .records()
        .into_iter()
        .map(|record| record.message)
        .filter(|message| message.contains(" route ") || message.starts_with("Removing appender"))
        .collect();
    assert_eq!(
        purge_lines,
        [
            "Removing appender idle",
            "Deleting route with idle key ",
            "Stopping route with idle key",
            "Stopping appender u-idle of route idle",
        ]
    );
    // The next event of the key creates a new appender, which continues the file.
    log_as("idle", "idle 2");
    assert!(
        wait_for_lines(&dir.join("idle.log"), "closed", 2),
        "the new appender is purged in turn"
    );
    assert_eq!(
        footers(&dir.join("shared.log")),
        0,
        "a referenced appender is never purged"
    );
    l4rs::shutdown();
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("idle.log")),
        ["idle 1", "closed", "idle 2", "closed"]
    );
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("shared.log")),
        ["ref 1", "closed"]
    );
    assert_eq!(
        footers(&dir.join("busy.log")),
        1,
        "stopped with the configuration"
    );
}
