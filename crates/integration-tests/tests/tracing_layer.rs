//! `tracing` events through `l4rs::tracing::layer()`: routed by target like l4rs's own calls
//! (hierarchy, levels, filters, additivity), fields and spans in `%X`/`%x`, location, many
//! threads, a panicking `Display`, reconfiguration, and the `log` bridge beside the layer.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

use tracing_subscriber::prelude::*;

/// Tests in this file replace the global configuration; they take turns.
static SERIAL: Mutex<()> = Mutex::new(());

/// Installs the layer as the process's subscriber, once.
fn install_layer() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        tracing_subscriber::registry()
            .with(l4rs::tracing::layer())
            .init()
    });
}

/// Takes this file's turn, writes `xml(dir)` into the fresh output folder `name`, puts it in
/// force and installs the layer; returns the folder.
fn configure(
    name: &str,
    xml: impl FnOnce(&str) -> String,
) -> (std::sync::MutexGuard<'static, ()>, PathBuf) {
    let guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = l4rs_tests::init_in_fresh_dir(name, xml);
    install_layer();
    (guard, dir)
}

fn lines(dir: &Path, file: &str) -> Vec<String> {
    l4rs_tests::read_lines(&dir.join(file))
}

#[test]
fn events_are_routed_by_target_with_levels_filters_and_additivity() {
    let (_turn, dir) = configure("tracing-routing", l4rs_tests::hierarchy_routing_config);
    tracing::debug!(target: "my_app::web", "inherits debug from {}", "my_app");
    tracing::trace!(target: "my_app::web", "trace is below debug");
    tracing::warn!(target: "my_app::web", "a warning");
    tracing::warn!(target: "my_app::web", "a secret warning");
    tracing::debug!(target: "my_app::db::pool", "pool opened");
    tracing::warn!(target: "my_app.quiet.inner", "dropped by the ERROR level");
    tracing::error!(target: "my_app::quiet::inner", "kept");
    tracing::info!(target: "elsewhere", "below root's error");
    tracing::error!(target: "elsewhere", "root's");
    l4rs::shutdown();
    assert_eq!(
        lines(&dir, "app.log"),
        [
            "my_app::web|DEBUG|inherits debug from my_app",
            "my_app::web|WARN|a warning",
            "my_app::web|WARN|a secret warning",
            "my_app::quiet::inner|ERROR|kept",
        ]
    );
    assert_eq!(
        lines(&dir, "warnings.log"),
        [
            "my_app::web|WARN|a warning",
            "my_app::quiet::inner|ERROR|kept"
        ]
    );
    assert_eq!(
        lines(&dir, "db.log"),
        ["my_app::db::pool|DEBUG|pool opened"]
    );
    assert_eq!(
        lines(&dir, "root.log"),
        [
            // `my_app` is additive: its events reach Root's appender whatever Root's level.
            "my_app::web|DEBUG|inherits debug from my_app",
            "my_app::web|WARN|a warning",
            "my_app::web|WARN|a secret warning",
            "my_app::quiet::inner|ERROR|kept",
            "elsewhere|ERROR|root's",
        ]
    );
}

/// A value whose `Display` panics.
struct Exploding;

impl std::fmt::Display for Exploding {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        panic!("Display of Exploding")
    }
}

/// A panic l4rs catches while formatting (a field's `Display`) is no crash: l4rs's panic hook
/// must not flush every appender for it, as it does for a panic nobody catches. A buffered
/// file shows which happened: nothing reaches the disk until something flushes it.
#[test]
fn only_an_uncaught_panic_makes_the_hook_flush_every_appender() {
    let (_turn, dir) = configure("tracing-caught-panic", |dir| {
        format!(
            r#"<Configuration><Appenders>
  <File name="Buffered" fileName="{dir}/buffered.log" immediateFlush="false" bufferSize="1048576">
    <PatternLayout pattern="%m%n"/>
  </File>
</Appenders><Loggers><Root level="info"><AppenderRef ref="Buffered"/></Root></Loggers></Configuration>"#
        )
    });
    let on_disk = || std::fs::metadata(dir.join("buffered.log")).map_or(0, |m| m.len());
    tracing::info!(target: "caught", "before");
    tracing::info!(target: "caught", value = %Exploding, "with a panicking field");
    assert_eq!(on_disk(), 0, "the caught panic flushed the buffered file");
    // A panic nobody catches (here ending a thread) is flushed for.
    let crashed = std::thread::spawn(|| panic!("a real crash")).join();
    assert!(crashed.is_err());
    assert_eq!(
        lines(&dir, "buffered.log"),
        ["before", "with a panicking field"]
    );
}

#[test]
fn fields_and_spans_are_the_context_map_and_stack_and_the_location_is_the_call_site() {
    let (_turn, dir) = configure("tracing-context", |dir| {
        let files = [
            (
                "Fields",
                "%m|%X{user}|%X{attempt}|%X{ready}|%X{addr}|%X{peer}|%X{elapsed}%n",
            ),
            ("Map", "%m %X%n"),
            ("Stack", "%m %x|%notEmpty{[%X{request_id}]}%n"),
            ("Location", "%C|%F|%L|%M|%m%n"),
        ];
        let appenders = l4rs_tests::file_appenders(dir, &files);
        format!(
            r#"<Configuration><Appenders>{appenders}
  <File name="Json" fileName="{dir}/json.log"><JsonLayout compact="true" eventEol="true" properties="true"/></File>
</Appenders><Loggers>
  <Logger name="tracing_layer" level="trace" additivity="false">
    <AppenderRef ref="Fields"/><AppenderRef ref="Map"/><AppenderRef ref="Stack"/>
    <AppenderRef ref="Location"/><AppenderRef ref="Json"/>
  </Logger>
  <Root level="off"/>
</Loggers></Configuration>"#
        )
    });
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], 8080));
    tracing::info!(user = "ann", attempt = 3, ready = true, addr = %addr, peer = ?"bob", elapsed = 1.5, "login {}", "ok");
    let line = line!() - 1;
    l4rs::ThreadContext::put("tenant", "acme");
    {
        let outer = tracing::info_span!("request", request_id = 7, user = "outer");
        let _outer = outer.enter();
        let inner = tracing::debug_span!("query", table = "users", user = "inner");
        let _inner = inner.enter();
        tracing::info!("in both spans");
        tracing::info!(user = "event", "the event's field wins");
        inner.record("table", "orders");
        tracing::info!("after record");
    }
    l4rs::ThreadContext::clear_all();
    tracing::info!("no span, no field");
    tracing::info!(value = %Exploding, "a field whose Display panics");
    tracing::info!("message {}", Exploding);
    tracing::info!("logging goes on");
    l4rs::shutdown();
    assert_eq!(
        lines(&dir, "fields.log"),
        [
            "login ok|ann|3|true|127.0.0.1:8080|\"bob\"|1.5",
            "in both spans|inner|||||",
            "the event's field wins|event|||||",
            "after record|inner|||||",
            "no span, no field||||||",
            "a field whose Display panics||||||",
            "message [!!!panicked while formatting!!!]||||||",
            "logging goes on||||||",
        ]
    );
    assert_eq!(
        lines(&dir, "map.log"),
        [
            "login ok {addr=127.0.0.1:8080, attempt=3, elapsed=1.5, peer=\"bob\", ready=true, user=ann}",
            "in both spans {request_id=7, table=users, tenant=acme, user=inner}",
            "the event's field wins {request_id=7, table=users, tenant=acme, user=event}",
            "after record {request_id=7, table=orders, tenant=acme, user=inner}",
            "no span, no field {}",
            "a field whose Display panics {value=[!!!panicked while formatting!!!]}",
            "message [!!!panicked while formatting!!!] {}",
            "logging goes on {}",
        ]
    );
    assert_eq!(
        lines(&dir, "stack.log"),
        [
            "login ok []|",
            "in both spans [request, query]|[7]",
            "the event's field wins [request, query]|[7]",
            "after record [request, query]|[7]",
            "no span, no field []|",
            "a field whose Display panics []|",
            "message [!!!panicked while formatting!!!] []|",
            "logging goes on []|",
        ]
    );
    // JsonLayout's `contextMap` (`properties="true"`) has the same entries as `%X`.
    let context_maps: Vec<serde_json::Value> = lines(&dir, "json.log")
        .iter()
        .map(|line| {
            serde_json::from_str::<serde_json::Value>(line).expect("JSON")["contextMap"].clone()
        })
        .collect();
    assert_eq!(
        context_maps[0],
        serde_json::json!({"addr": "127.0.0.1:8080", "attempt": "3", "elapsed": "1.5", "peer": "\"bob\"", "ready": "true", "user": "ann"})
    );
    assert_eq!(
        context_maps[2],
        serde_json::json!({"request_id": "7", "table": "users", "tenant": "acme", "user": "event"})
    );
    assert_eq!(context_maps[4], serde_json::json!({}));
    let location = lines(&dir, "location.log");
    assert_eq!(
        location[0],
        format!("tracing_layer|tracing_layer.rs|{line}|?|login ok")
    );
}

#[test]
fn context_map_filters_read_fields_and_span_fields() {
    let (_turn, dir) = configure("tracing-context-filters", |dir| {
        let appenders = l4rs_tests::file_appenders(dir, &[("Gold", "%m%n"), ("All", "%m%n")]);
        // The Eu appender's own filter: one of two keys is enough.
        let eu = format!(
            r#"<File name="Eu" fileName="{dir}/eu.log"><PatternLayout pattern="%m%n"/>
  <ContextMapFilter operator="or"><KeyValuePair key="region" value="eu"/><KeyValuePair key="tenant" value="eu-gold"/></ContextMapFilter>
</File>"#
        );
        format!(
            r#"<Configuration><Appenders>{appenders}{eu}</Appenders><Loggers>
  <Logger name="tracing_layer" level="trace" additivity="false">
    <ThreadContextMapFilter onMatch="NEUTRAL" onMismatch="DENY"><KeyValuePair key="audited" value="true"/></ThreadContextMapFilter>
    <AppenderRef ref="Gold"><ThreadContextMapFilter><KeyValuePair key="tenant" value="gold"/></ThreadContextMapFilter></AppenderRef>
    <AppenderRef ref="Eu"/><AppenderRef ref="All"/>
  </Logger>
  <Root level="off"/>
</Loggers></Configuration>"#
        )
    });
    tracing::info!(audited = true, tenant = "gold", "gold, audited");
    tracing::info!(tenant = "gold", "gold, not audited: the logger denies it");
    {
        let request = tracing::info_span!("request", tenant = "gold", region = "eu");
        let _request = request.enter();
        tracing::info!(audited = true, "in a gold eu span");
        tracing::info!(audited = true, tenant = "silver", "the event's tenant wins");
    }
    l4rs::ThreadContext::put("audited", "true");
    tracing::info!(tenant = "eu-gold", "audited by the thread's context");
    l4rs::ThreadContext::clear_all();
    l4rs::shutdown();
    assert_eq!(
        lines(&dir, "gold.log"),
        ["gold, audited", "in a gold eu span"]
    );
    assert_eq!(
        lines(&dir, "eu.log"),
        [
            "in a gold eu span",
            "the event's tenant wins",
            "audited by the thread's context"
        ]
    );
    assert_eq!(
        lines(&dir, "all.log"),
        [
            "gold, audited",
            "in a gold eu span",
            "the event's tenant wins",
            "audited by the thread's context"
        ]
    );
}

#[test]
fn four_threads_of_50_000_events_are_all_written_in_order() {
    let (_turn, dir) = configure("tracing-threads", |dir| {
        l4rs_tests::files_config(
            dir,
            &[("Out", "%t %m%n")],
            &[("load", "debug", "Out")],
            r#"<Root level="off"/>"#,
        )
    });
    const THREADS: usize = 4;
    const EVENTS: usize = 50_000;
    let workers: Vec<_> = (0..THREADS)
        .map(|thread| {
            std::thread::Builder::new()
                .name(format!("worker-{thread}"))
                .spawn(move || {
                    for index in 0..EVENTS {
                        tracing::debug!(target: "load", "{index}");
                    }
                })
                .expect("spawn")
        })
        .collect();
    for worker in workers {
        worker.join().expect("worker");
    }
    l4rs::shutdown();
    let lines = lines(&dir, "out.log");
    assert_eq!(lines.len(), THREADS * EVENTS);
    let mut next = [0usize; THREADS];
    for line in &lines {
        let (thread, index) = line.split_once(' ').expect("two words");
        let thread: usize = thread["worker-".len()..].parse().expect("thread number");
        assert_eq!(
            index.parse::<usize>().expect("index"),
            next[thread],
            "{line}"
        );
        next[thread] += 1;
    }
    assert_eq!(next, [EVENTS; THREADS]);
}

#[test]
fn call_sites_are_judged_again_when_the_configuration_changes() {
    let config = |dir: &str, level: &str| {
        l4rs_tests::files_config(
            dir,
            &[("Out", "%p %m%n")],
            &[("switch", level, "Out")],
            r#"<Root level="off"/>"#,
        )
    };
    let (_turn, dir) = configure("tracing-reconfigure", |dir| config(dir, "info"));
    let emit = |text: &str| {
        // One call site for every round, so its cached interest is what is tested.
        tracing::debug!(target: "switch", "debug {text}");
        tracing::info!(target: "switch", "info {text}");
    };
    emit("under info");
    assert_eq!(
        tracing::level_filters::LevelFilter::current(),
        tracing::level_filters::LevelFilter::INFO
    );
    let path = l4rs_tests::write_config(&dir, &config(&dir.display().to_string(), "debug"));
    l4rs::init_with_file(&path).unwrap();
    emit("under debug");
    let path = l4rs_tests::write_config(&dir, &config(&dir.display().to_string(), "warn"));
    l4rs::init_with_file(&path).unwrap();
    emit("under warn");
    l4rs::shutdown();
    assert_eq!(
        lines(&dir, "out.log"),
        [
            "INFO info under info",
            "DEBUG debug under debug",
            "INFO info under debug"
        ]
    );
}

#[test]
fn a_log_record_beside_the_layer_is_written_once() {
    let (_turn, dir) = configure("tracing-log-bridge", |dir| {
        l4rs_tests::files_config(
            dir,
            &[("Out", "%c %p %m%n")],
            &[("both", "info", "Out")],
            r#"<Root level="off"/>"#,
        )
    });
    tracing::info!(target: "both", "from tracing");
    log::info!(target: "both", "from log");
    l4rs::shutdown();
    assert_eq!(
        lines(&dir, "out.log"),
        ["both INFO from tracing", "both INFO from log"]
    );
}

/// An error whose `Display` panics.
#[derive(Debug)]
struct ExplodingError;

impl std::fmt::Display for ExplodingError {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        panic!("Display of ExplodingError")
    }
}

impl std::error::Error for ExplodingError {}

#[test]
fn an_error_field_is_the_throwable_as_with_l4rs_macros() {
    let (_turn, dir) = configure("tracing-error-field", |dir| {
        format!(
            r#"<Configuration status="warn">
  <Appenders>
    <File name="Text" fileName="{dir}/text.log">
      <PatternLayout pattern="%p %m %X%n%ex{{full}}---%n%throwable{{short}}|%ex{{1}}%n"/>
    </File>
    <File name="Json" fileName="{dir}/json.log"><JsonLayout compact="true" eventEol="true" stacktraceAsString="true"/></File>
  </Appenders>
  <Loggers>
    <Root level="info"><AppenderRef ref="Text"/><AppenderRef ref="Json"/></Root>
  </Loggers>
</Configuration>"#
        )
    });
    let error = l4rs_tests::RequestFailed(std::io::Error::other("disk full"));
    let throwable = l4rs_tests::deep_throwable(3);
    let logger = l4rs::get_logger("errors");
    // Each pair: through `tracing` (the error as `tracing`'s error value, the idiom its
    // subscribers read as an error), then through l4rs's macro with the same `dyn Error`
    // (a `tracing` subscriber sees the error as `dyn Error` only, so its type is named as
    // l4rs names a `dyn Error`).
    tracing::error!(target: "errors", error = &error as &dyn std::error::Error, attempt = 2, "upload");
    l4rs::error!(logger, error = &error as &dyn std::error::Error, "upload");
    // An l4rs throwable passed as a `tracing` error keeps its frames.
    tracing::error!(target: "errors", error = &throwable as &dyn std::error::Error, "deep");
    l4rs::error!(logger, error = &throwable, "deep");
    // `%`: a `Display` value, not an error to `tracing`: a context entry, no throwable.
    tracing::error!(target: "errors", error = %error, "as text");
    // Only the first error value is the throwable; the next one is a context entry.
    let second = std::io::Error::other("second");
    tracing::error!(target: "errors", error = &error as &dyn std::error::Error, also = &second as &dyn std::error::Error, "two");
    // An error whose `Display` panics is no throwable, and logging goes on.
    tracing::error!(target: "errors", error = &ExplodingError as &dyn std::error::Error, "exploding");
    tracing::error!(target: "errors", "after");
    l4rs::shutdown();

    let text = std::fs::read_to_string(dir.join("text.log")).expect("text.log");
    // One event: from its `ERROR ` to the next event's.
    let event = |index: usize| -> String {
        let start = text
            .match_indices("ERROR ")
            .nth(index)
            .map(|(at, _)| at)
            .expect("event");
        let end = text[start + 1..]
            .find("\nERROR ")
            .map_or(text.len(), |at| start + 1 + at + 1);
        text[start..end].to_string()
    };
    // The context map of the tracing event has its other field, not the error.
    assert_eq!(
        event(0).replacen(" {attempt=2}", " {}", 1),
        event(1),
        "{text}"
    );
    assert!(event(0).starts_with("ERROR upload {attempt=2}\n"), "{text}");
    assert!(
        event(0).contains("\nCaused by: std::io::error::Error: disk full\n"),
        "{text}"
    );
    assert!(
        event(0).contains("RequestFailed: request failed\n"),
        "{text}"
    );
    assert_eq!(event(2), event(3), "{text}");
    assert!(
        event(2).contains("\tat "),
        "frames of the throwable: {text}"
    );
    assert!(
        event(4).starts_with("ERROR as text {error=request failed}\n---\n|"),
        "{text}"
    );
    assert!(event(5).starts_with("ERROR two {also=second}\n"), "{text}");
    assert!(event(5).contains("RequestFailed: request failed"), "{text}");
    assert!(
        event(6).starts_with("ERROR exploding {error=[!!!panicked while formatting!!!]}\n---\n|"),
        "{text}"
    );
    assert!(event(7).starts_with("ERROR after {}\n"), "{text}");

    // JsonLayout's `thrown`: the same for the tracing event and the macro's.
    let json = l4rs_tests::read_lines(&dir.join("json.log"));
    let thrown = |line: &str| -> String {
        let value: serde_json::Value = serde_json::from_str(line).expect("JSON");
        value["thrown"].to_string()
    };
    assert_ne!(thrown(&json[0]), "null", "{}", json[0]);
    assert!(thrown(&json[0]).contains("disk full"), "{}", json[0]);
    assert_eq!(thrown(&json[0]), thrown(&json[1]));
    assert_eq!(thrown(&json[2]), thrown(&json[3]));
    assert_eq!(thrown(&json[4]), "null");
}
