//! Formatting ahead of a queue (`l4rs.asyncRenderAhead=true`): where an AsyncLogger's or an
//! Async appender's events all go to one file appender, they are formatted on the calling
//! threads before they are queued. The files must be exactly what the same configuration
//! writes with the formatting left to the queue's thread (the default): the same lines, each
//! thread's in its order.

use std::path::Path;

use l4rs::Throwable;

const THREADS: usize = 4;
const PER_THREAD: usize = 300;
/// The files of [`config`], each behind an AsyncLogger of its name: name, appender element,
/// the AsyncLogger's other attributes.
const FILES: &[(&str, &str, &str)] = &[
    ("located", "File", r#"includeLocation="true""#),
    ("hidden", "File", ""),
    ("mapped", "MemoryMappedFile", ""),
    ("buffered", "RandomAccessFile", ""),
];
/// Every file's pattern: the calling thread, the location, the MDC, the message and the trace.
const PATTERN: &str = "%t|%-5p|%C.%M:%L|%X{user}|%m|%ex{short}%n";

/// The configuration, its files in `dir`: [`FILES`] behind AsyncLoggers, and `queued.log`
/// behind an Async appender with its location.
fn config(dir: &Path) -> String {
    let dir = dir.display();
    let mut appenders = String::new();
    let mut loggers = String::new();
    for (name, element, attributes) in FILES {
        appenders.push_str(&format!(
            r#"<{element} name="{name}" fileName="{dir}/{name}.log"><PatternLayout pattern="{PATTERN}"/></{element}>"#
        ));
        loggers.push_str(&format!(
            r#"<AsyncLogger name="{name}" level="info" additivity="false" {attributes}><AppenderRef ref="{name}"/></AsyncLogger>"#
        ));
    }
    format!(
        r#"<Configuration status="warn">
  <Appenders>
    {appenders}
    <File name="queued" fileName="{dir}/queued.log"><PatternLayout pattern="{PATTERN}"/></File>
    <Async name="Queue" includeLocation="true"><AppenderRef ref="queued"/></Async>
  </Appenders>
  <Loggers>
    {loggers}
    <Logger name="queued" level="info" additivity="false"><AppenderRef ref="Queue"/></Logger>
    <Root level="off"/>
  </Loggers>
</Configuration>"#
    )
}

/// Logs the same events into every file from [`THREADS`] threads: levels, an MDC value, and an
/// error with a trace on every seventh.
fn log_everything() {
    let error = Throwable::new("app::Failure")
        .with_message("disk on fire")
        .with_frames(l4rs_tests::deep_throwable(3).frames().to_vec());
    std::thread::scope(|scope| {
        for thread in 0..THREADS {
            let error = &error;
            std::thread::Builder::new()
                .name(format!("worker-{thread}"))
                .spawn_scoped(scope, move || {
                    l4rs::ThreadContext::put("user", format!("user{thread}"));
                    for index in 0..PER_THREAD {
                        for name in FILES.iter().map(|file| file.0).chain(["queued"]) {
                            let logger = l4rs::get_logger(name);
                            if index % 7 == 0 {
                                l4rs::error!(logger, error = error, "{index} failed");
                            } else if index % 2 == 0 {
                                l4rs::warn!(logger, "{index} is even");
                            } else {
                                l4rs::info!(logger, "{index}");
                            }
                        }
                    }
                })
                .unwrap();
        }
    });
    l4rs::flush();
}

/// The lines of `file` in `dir`, after checking that each thread's are in the order it logged
/// them.
fn lines(dir: &Path, file: &str) -> Vec<String> {
    let lines = l4rs_tests::read_lines(&dir.join(format!("{file}.log")));
    let record_lines: Vec<&String> = lines.iter().filter(|l| l.starts_with("worker-")).collect();
    assert_eq!(
        record_lines.len(),
        THREADS * PER_THREAD,
        "{file}: every event"
    );
    for thread in 0..THREADS {
        let prefix = format!("worker-{thread}|");
        let indices: Vec<usize> = record_lines
            .iter()
            .filter(|line| line.starts_with(&prefix))
            .map(|line| {
                let message = line.split('|').nth(4).expect("a message field");
                message
                    .split(' ')
                    .next()
                    .unwrap()
                    .parse()
                    .expect("an index")
            })
            .collect();
        assert_eq!(
            indices,
            (0..PER_THREAD).collect::<Vec<_>>(),
            "{file} {prefix}"
        );
    }
    lines
}

#[test]
fn formatting_ahead_of_a_queue_writes_what_the_queues_thread_would() {
    let ahead = l4rs_tests::fresh_output_dir("async-render-ahead/on");
    let behind = l4rs_tests::fresh_output_dir("async-render-ahead/off");
    // The switch by the name users set it with.
    l4rs::set_system_property("l4rs.asyncRenderAhead", "true");
    l4rs::init_with_file(l4rs_tests::write_config(&ahead, &config(&ahead))).expect("loads");
    log_everything();
    let events = (THREADS * PER_THREAD) as u64;
    let rendered = |queue: &str| l4rs_tests::queue_stats(queue).rendered_ahead;
    assert_eq!(rendered("AsyncLoggerConfig"), FILES.len() as u64 * events);
    assert_eq!(rendered("AsyncAppender Queue"), events);
    l4rs::clear_system_property("l4rs.asyncRenderAhead");
    l4rs::reconfigure_with_file(l4rs_tests::write_config(&behind, &config(&behind)))
        .expect("reloads");
    log_everything();
    assert_eq!(rendered("AsyncLoggerConfig"), 0, "off by default");
    assert_eq!(rendered("AsyncAppender Queue"), 0);
    l4rs::shutdown();
    for file in FILES.iter().map(|file| file.0).chain(["queued"]) {
        let (mut on, mut off) = (lines(&ahead, file), lines(&behind, file));
        let sample = on
            .iter()
            .find(|line| line.starts_with("worker-0|ERROR"))
            .cloned()
            .expect("an error line");
        // What the pattern prints, checked once, so that both runs cannot be wrong alike.
        assert!(
            sample.contains("|user0|0 failed| app::Failure: disk on fire"),
            "{sample}"
        );
        // Only `located` and the Async appender include the location.
        let location = if matches!(file, "located" | "queued") {
            "|async_render_ahead.log_everything:"
        } else {
            "|?.:|"
        };
        assert!(
            sample.contains(location),
            "{file}: the location only where it is included: {sample}"
        );
        on.sort();
        off.sort();
        assert!(on == off, "{file}: the same lines either way");
    }
}
