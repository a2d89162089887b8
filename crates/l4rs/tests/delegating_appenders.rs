//! `<Null>`, `<Failover>`, `<Rewrite>` and `DynamicThresholdFilter` through the facade: started by `init`,
//! replaced by `reconfigure`, behind an AsyncLogger and an Async appender, and judged by
//! `l4rs check` through the same building code. One test, since the logging system is global.

use std::path::{Path, PathBuf};

use l4rs::{Level, ThreadContext};

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("l4rs-delegating-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_config(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("<Configuration>{body}</Configuration>")).unwrap();
    path
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// A Failover `fo` whose primary writes to `/dev/full` (opens, every write fails) and whose
/// failover writes `fallback`; `before_loggers` goes between the appenders and the loggers.
fn failover_config(fallback: &Path, extra_appenders: &str, loggers: &str) -> String {
    format!(
        r#"<Appenders>
  <File name="full" fileName="/dev/full" ignoreExceptions="false"><PatternLayout pattern="%m%n"/></File>
  <File name="fallback" fileName="{}"><PatternLayout pattern="%p %c %m%n"/></File>
  <Failover name="fo" primary="full" ignoreExceptions="false"><Failovers><AppenderRef ref="fallback"/></Failovers></Failover>
  {extra_appenders}
</Appenders><Loggers>{loggers}</Loggers>"#,
        fallback.display()
    )
}

#[test]
fn delegating_appenders_work_through_init_reconfigure_async_and_check() {
    let dir = scratch();

    // Synchronous: the primary fails, the failover takes the event, the caller sees no error.
    let sync_log = dir.join("sync.log");
    let sync = write_config(
        &dir,
        "sync.xml",
        &failover_config(
            &sync_log,
            r#"<Null name="quiet"/>"#,
            r#"<Logger name="app" level="info"><AppenderRef ref="fo"/></Logger>
<Logger name="muted" level="trace" additivity="false"><AppenderRef ref="quiet"/></Logger>
<Root level="error"/>"#,
        ),
    );
    l4rs::init_with_file(&sync).expect("sync configuration loads");
    let app = l4rs::get_logger("app");
    for n in 0..3 {
        app.log(Level::INFO, None, None, None, format_args!("sync {n}"))
            .expect("the failover wrote it");
    }
    l4rs::get_logger("muted")
        .log(Level::ERROR, None, None, None, format_args!("nowhere"))
        .expect("Null takes it");
    l4rs::flush();
    assert_eq!(
        read(&sync_log),
        "INFO app sync 0\nINFO app sync 1\nINFO app sync 2\n"
    );
    let mut names = l4rs::active_appenders();
    names.sort();
    assert_eq!(names, ["fallback", "fo", "full", "quiet"]);

    // Reconfigured: an AsyncLogger feeding an Async appender in front of the Failover (declared
    // before it), and a context-wide DynamicThresholdFilter that lets a user's DEBUG through.
    let async_log = dir.join("async.log");
    let asynchronous = write_config(
        &dir,
        "async.xml",
        &format!(
            r#"<DynamicThresholdFilter key="user" onMatch="ACCEPT" onMismatch="NEUTRAL"><KeyValuePair key="alice" value="debug"/></DynamicThresholdFilter>
{}"#,
            failover_config(
                &async_log,
                r#"<Async name="queue"><AppenderRef ref="fo"/></Async>"#,
                r#"<AsyncLogger name="app" level="info"><AppenderRef ref="queue"/></AsyncLogger>
<Root level="error"/>"#,
            )
            .replace(
                r#"<Appenders>"#,
                r#"<Appenders><Async name="front"><AppenderRef ref="fo"/></Async>"#,
            )
        ),
    );
    l4rs::reconfigure_with_file(&asynchronous).expect("async configuration loads");
    let app = l4rs::get_logger("app");
    app.log(
        Level::DEBUG,
        None,
        None,
        None,
        format_args!("bob debug dropped"),
    )
    .unwrap();
    ThreadContext::put("user", "alice");
    app.log(Level::DEBUG, None, None, None, format_args!("alice debug"))
        .unwrap();
    ThreadContext::remove("user");
    app.log(Level::WARN, None, None, None, format_args!("async warn"))
        .unwrap();
    l4rs::flush();
    assert_eq!(
        read(&async_log),
        "DEBUG app alice debug\nWARN app async warn\n"
    );
    // The first configuration's appenders were stopped: nothing more reaches sync.log.
    assert_eq!(read(&sync_log).lines().count(), 3);

    // Reconfigured again: a Rewrite in front of the Async appender, which feeds the Failover;
    // the rewritten level and context travel through the queue.
    let rewrite_log = dir.join("rewrite.log");
    let rewrite = write_config(
        &dir,
        "rewrite.xml",
        &format!(
            r#"<Appenders>
  <Rewrite name="tag">
    <PropertiesRewritePolicy><Property name="service" value="billing"/><Property name="who" value="$${{ctx:user:-nobody}}"/></PropertiesRewritePolicy>
    <AppenderRef ref="queue"/>
  </Rewrite>
  <Rewrite name="demote"><LoggerNameLevelRewritePolicy logger="noisy"><KeyValuePair key="ERROR" value="DEBUG"/></LoggerNameLevelRewritePolicy><AppenderRef ref="queue"/></Rewrite>
  <Async name="queue"><AppenderRef ref="fo"/></Async>
  <File name="full" fileName="/dev/full" ignoreExceptions="false"/>
  <File name="fallback" fileName="{}"><PatternLayout pattern="%p %c %X %m%n"/></File>
  <Failover name="fo" primary="full"><Failovers><AppenderRef ref="fallback"/></Failovers></Failover>
</Appenders><Loggers>
  <AsyncLogger name="app" level="info" additivity="false"><AppenderRef ref="tag"/></AsyncLogger>
  <Logger name="noisy" level="info" additivity="false"><AppenderRef ref="demote"/></Logger>
  <Root level="error"/>
</Loggers>"#,
            rewrite_log.display()
        ),
    );
    l4rs::reconfigure_with_file(&rewrite).expect("rewrite configuration loads");
    ThreadContext::put("user", "carol");
    l4rs::get_logger("app")
        .log(Level::INFO, None, None, None, format_args!("tagged"))
        .unwrap();
    ThreadContext::remove("user");
    l4rs::get_logger("noisy")
        .log(Level::ERROR, None, None, None, format_args!("demoted"))
        .unwrap();
    l4rs::flush();
    // Two queues (the AsyncLogger's, then the Async appender's) for one event, one for the
    // other: their order in the file is not fixed.
    let text = read(&rewrite_log);
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort_unstable();
    assert_eq!(
        lines,
        [
            "DEBUG noisy {} demoted",
            "INFO app {service=billing, user=carol, who=carol} tagged"
        ]
    );

    // `l4rs check` builds the same appenders, and reports a Failover whose primary is missing.
    let broken = l4rs::config::load_str(
        r#"<Configuration><Appenders>
  <File name="fallback" fileName="/nonexistent-l4rs-dir/never-created.log"/>
  <Failover name="fo" primary="missing"><Failovers><AppenderRef ref="fallback"/><AppenderRef ref="gone"/></Failovers></Failover>
  <Null name="n"/>
  <Rewrite name="rw"><AppenderRef ref="n"/><AppenderRef ref="absent"/></Rewrite>
</Appenders><Loggers><Root level="info"><AppenderRef ref="fo"/><AppenderRef ref="rw"/></Root></Loggers></Configuration>"#,
        None,
    )
    .expect("well-formed");
    let findings: Vec<String> = l4rs::check_configuration(&broken)
        .into_iter()
        .map(|finding| format!("{} {}", finding.subject, finding.message))
        .collect();
    assert!(
        findings
            .iter()
            .any(|f| f == "appender \"fo\" Unable to locate primary Appender missing"),
        "{findings:#?}"
    );
    assert!(
        findings
            .iter()
            .any(|f| f == "appender \"fo\" Failover appender gone is not configured"),
        "{findings:#?}"
    );
    assert!(
        findings
            .iter()
            .any(|f| f == "appender \"rw\" Appender absent cannot be located. Reference ignored"),
        "{findings:#?}"
    );
    assert!(
        !findings.iter().any(|f| f.contains("\"n\"")),
        "Null is fine: {findings:#?}"
    );
    assert!(
        !Path::new("/nonexistent-l4rs-dir").exists(),
        "checking created nothing"
    );

    // An Async and a Failover feeding each other: neither can be built first.
    let cycle = l4rs::config::load_str(
        r#"<Configuration><Appenders>
  <Async name="q"><AppenderRef ref="fo"/></Async>
  <Failover name="fo" primary="q"><Failovers><AppenderRef ref="n"/></Failovers></Failover>
  <Null name="n"/>
</Appenders><Loggers><Root level="info"><AppenderRef ref="n"/></Root></Loggers></Configuration>"#,
        None,
    )
    .expect("well-formed");
    let findings: Vec<String> = l4rs::check_configuration(&cycle)
        .into_iter()
        .map(|finding| finding.message)
        .collect();
    assert_eq!(
        findings,
        [
            "AsyncAppender q refers to itself through other appenders; the appender is not created",
            "FailoverAppender fo refers to itself through other appenders; the appender is not created"
        ]
    );

    l4rs::shutdown();
    let _ = std::fs::remove_dir_all(&dir);
}
