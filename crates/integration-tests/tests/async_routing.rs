//! Routing at run time through asynchronous stages: filters and `<AppenderRef>` levels and
//! filters on an AsyncLogger and on an Async appender, the Async appender's own filter,
//! additivity of an AsyncLogger against a synchronous root, and an ancestor's denying filter,
//! all as log4j2 routes them.

use std::path::PathBuf;
use std::sync::OnceLock;

/// A filter denying messages that contain `word`, neutral otherwise.
fn deny(word: &str) -> String {
    format!(r#"<RegexFilter regex=".*{word}.*" onMatch="DENY" onMismatch="NEUTRAL"/>"#)
}

fn setup() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        l4rs_tests::init_in_fresh_dir("async-routing", |dir| {
            let files = l4rs_tests::file_appenders(
                dir,
                &[
                    "Own", "RefLevel", "RefFilter", "ALevel", "AFilter", "AAll", "Gated", "Alone",
                    "Shared", "Ancestor", "Child", "RootOut",
                ]
                .map(|name| (name, "%c %p %m%n")),
            );
            format!(
                r#"<Configuration status="warn">
  <Appenders>
    {files}
    <Async name="Refs">
      <AppenderRef ref="ALevel" level="warn"/>
      <AppenderRef ref="AFilter">{secret}</AppenderRef>
      <AppenderRef ref="AAll"/>
    </Async>
    <Async name="OwnFilter"><ThresholdFilter level="error"/><AppenderRef ref="Gated"/></Async>
  </Appenders>
  <Loggers>
    <AsyncLogger name="own" level="debug" additivity="false">
      <ThresholdFilter level="warn"/>
      <AppenderRef ref="Own"/>
    </AsyncLogger>
    <AsyncLogger name="refs" level="debug" additivity="false">
      <AppenderRef ref="RefLevel" level="error"/>
      <AppenderRef ref="RefFilter">{secret}</AppenderRef>
    </AsyncLogger>
    <Logger name="async.refs" level="debug" additivity="false"><AppenderRef ref="Refs"/></Logger>
    <AsyncLogger name="async.refs.behind" level="debug" additivity="true"/>
    <Logger name="async.filtered" level="debug" additivity="false">
      <AppenderRef ref="OwnFilter"/>
    </Logger>
    <AsyncLogger name="alone" level="info" additivity="false"><AppenderRef ref="Alone"/></AsyncLogger>
    <AsyncLogger name="shared" level="info"><AppenderRef ref="Shared"/></AsyncLogger>
    <AsyncLogger name="ancestor" level="info">
      {blocked}
      <AppenderRef ref="Ancestor"/>
    </AsyncLogger>
    <AsyncLogger name="ancestor.child" level="info"><AppenderRef ref="Child"/></AsyncLogger>
    <Root level="info"><AppenderRef ref="RootOut"/></Root>
  </Loggers>
</Configuration>"#,
                secret = deny("secret"),
                blocked = deny("blocked"),
            )
        })
    })
}

/// The lines of the appender `name`'s file (its name in lower case, as
/// [`l4rs_tests::file_appenders`] names it).
fn lines(name: &str) -> Vec<String> {
    l4rs_tests::read_lines(&setup().join(format!("{}.log", name.to_lowercase())))
}

#[test]
fn an_async_loggers_own_filter_applies() {
    setup();
    let logger = l4rs::get_logger("own.x");
    l4rs::info!(logger, "below the filter");
    l4rs::warn!(logger, "passes");
    l4rs::flush();
    assert_eq!(lines("Own"), ["own.x WARN passes"]);
}

#[test]
fn appender_ref_levels_and_filters_on_an_async_logger() {
    setup();
    let logger = l4rs::get_logger("refs");
    l4rs::warn!(logger, "plain warn");
    l4rs::error!(logger, "plain error");
    l4rs::error!(logger, "a secret error");
    l4rs::flush();
    assert_eq!(
        lines("RefLevel"),
        ["refs ERROR plain error", "refs ERROR a secret error"]
    );
    assert_eq!(
        lines("RefFilter"),
        ["refs WARN plain warn", "refs ERROR plain error"]
    );
}

#[test]
fn appender_ref_levels_and_filters_on_an_async_appender() {
    setup();
    // Through a synchronous logger, and through an AsyncLogger without appenders of its own
    // (which routes as a synchronous one, to its parent's Async appender).
    for name in ["async.refs", "async.refs.behind"] {
        let logger = l4rs::get_logger(name);
        l4rs::info!(logger, "plain info");
        l4rs::warn!(logger, "a secret warn");
    }
    l4rs::flush();
    assert_eq!(
        lines("ALevel"),
        [
            "async.refs WARN a secret warn",
            "async.refs.behind WARN a secret warn"
        ]
    );
    assert_eq!(
        lines("AFilter"),
        [
            "async.refs INFO plain info",
            "async.refs.behind INFO plain info"
        ]
    );
    assert_eq!(lines("AAll").len(), 4, "{:?}", lines("AAll"));
}

#[test]
fn an_async_appenders_own_filter_applies_before_the_queue() {
    setup();
    let logger = l4rs::get_logger("async.filtered");
    l4rs::warn!(logger, "filtered out");
    l4rs::error!(logger, "queued");
    l4rs::flush();
    assert_eq!(lines("Gated"), ["async.filtered ERROR queued"]);
    let queue = l4rs_tests::queue_stats("AsyncAppender OwnFilter");
    assert_eq!(
        queue.enqueued, 1,
        "the filtered event never reached the queue"
    );
}

#[test]
fn additivity_of_an_async_logger_against_a_synchronous_root() {
    setup();
    l4rs::info!(l4rs::get_logger("alone.child"), "kept to itself");
    l4rs::info!(l4rs::get_logger("shared.child"), "also at the root");
    // The synchronous root above the split is written before the call returns.
    assert!(lines("RootOut").contains(&"shared.child INFO also at the root".to_string()));
    l4rs::flush();
    assert_eq!(lines("Alone"), ["alone.child INFO kept to itself"]);
    assert_eq!(lines("Shared"), ["shared.child INFO also at the root"]);
    let root = lines("RootOut");
    assert!(
        !root.iter().any(|line| line.contains("kept to itself")),
        "{root:?}"
    );
    assert_eq!(
        root.iter()
            .filter(|l| l.contains("also at the root"))
            .count(),
        1
    );
}

#[test]
fn a_denying_filter_on_an_ancestor_stops_the_walk_there() {
    setup();
    let logger = l4rs::get_logger("ancestor.child");
    l4rs::info!(logger, "blocked above");
    l4rs::info!(logger, "goes all the way");
    l4rs::flush();
    assert_eq!(
        lines("Child"),
        [
            "ancestor.child INFO blocked above",
            "ancestor.child INFO goes all the way"
        ]
    );
    assert_eq!(lines("Ancestor"), ["ancestor.child INFO goes all the way"]);
    let root = lines("RootOut");
    assert!(
        !root.iter().any(|line| line.contains("blocked above")),
        "{root:?}"
    );
    assert!(root.contains(&"ancestor.child INFO goes all the way".to_string()));
}
