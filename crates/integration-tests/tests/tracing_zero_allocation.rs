//! `tracing` events through `l4rs::tracing::layer()` allocate nothing in steady state: the log4j2
//! appender benchmark's pattern into an immediate-flush File appender, as `zero_allocation.rs`
//! checks for l4rs's own macros; events without fields, a disabled `tracing::trace!`, and events
//! with fields inside an entered span (whose context map and stack reuse per-thread strings); and
//! `log` records through `tracing-log`'s `LogTracer`, enabled and disabled (whose `log.*` fields
//! are read into per-thread strings and whose loggers are cached per thread).

use l4rs_tests::allocations::CountingAllocator;
use tracing_subscriber::prelude::*;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(l4rs_tests::allocations::count);

#[test]
fn steady_state_tracing_events_do_not_allocate() {
    // The layer and `LogTracer` before l4rs's configuration: creating the layer makes l4rs's
    // `log` bridge wait, so `LogTracer` can take the `log` crate.
    tracing_subscriber::registry()
        .with(l4rs::tracing::layer())
        .init();
    tracing_log::LogTracer::init().expect("LogTracer takes the log crate");
    let dir = l4rs_tests::init_in_fresh_dir("tracing-zero-allocation", |dir| {
        format!(
            r#"<Configuration><Appenders>
  <File name="F" fileName="{dir}/out.log">
    <PatternLayout pattern="%d{{yyyy-MM-dd HH:mm:ss.SSS}} %-5level %pid %t %C.%M:%L - %msg %ex{{full}} %X %x%n"/>
  </File>
</Appenders><Loggers><Logger name="FileLogger" level="debug" additivity="false"><AppenderRef ref="F"/></Logger><Root level="off"/></Loggers></Configuration>"#
        )
    });
    // `log::debug!` passes `log`'s own maximum level and reaches the layer.
    assert_eq!(log::max_level(), log::LevelFilter::Debug);
    let error = std::io::Error::other("disk full");
    // Error values, which become the events' throwables: a `dyn Error` with a source is
    // converted into the thread's reused throwable, and an l4rs throwable is copied there
    // with its frames shared.
    // (`RequestFailed` is named from its `Debug` output, which the conversion reads without
    // allocating.)
    let failed = l4rs_tests::RequestFailed(std::io::Error::other("root cause"));
    let throwable = l4rs_tests::deep_throwable(100);
    // Creating a span allocates (its fields are rendered once, into its extensions); entering
    // it and logging inside it does not.
    let span = tracing::info_span!(target: "FileLogger", "request", id = 7, user = "ann");
    let run = |count: usize| {
        for index in 0..count {
            {
                let _entered = span.enter();
                tracing::debug!(target: "FileLogger", error = %error, attempt = index % 10, "with fields");
            }
            tracing::debug!(target: "FileLogger", "l4rs benchmark event: a fixed one-hundred-character message, logged at DEBUG level by every thread..");
            tracing::debug!(target: "FileLogger", "formatted {} of {}", index, count);
            tracing::debug!(target: "FileLogger", error = &failed as &dyn std::error::Error, "failed");
            tracing::debug!(target: "FileLogger", error = &throwable as &dyn std::error::Error, "deep");
            tracing::trace!(target: "FileLogger", "disabled {}", index);
            log::debug!(target: "FileLogger", "from log {}", index);
            // Through `LogTracer` to the layer, whose routing disables it (root is off).
            log::debug!(target: "elsewhere", "disabled log record {}", index);
        }
    };
    run(2_000);
    let allocations = l4rs_tests::allocations::counted(|| run(10_000));
    l4rs::shutdown();
    assert_eq!(allocations, 0, "allocations in 10,000 steady-state rounds");
    let lines = l4rs_tests::read_lines(&dir.join("out.log"));
    let events = 4 * 12_000 + 2 * 12_000;
    let frames = 12_000 * throwable.frames().len();
    // `%ex{full}` ends with a line break, so each event with a throwable has its `%X %x` on a
    // line of its own, after its cause (the `failed` event) or its frames (the `deep` one).
    assert_eq!(lines.len(), events + 12_000 * 3 + frames);
    assert!(
        lines[0]
            .ends_with(" - with fields  {attempt=0, error=disk full, id=7, user=ann} [request]"),
        "{}",
        lines[0]
    );
    assert!(
        lines[2].contains(" tracing_zero_allocation.?:")
            && lines[2].ends_with(" - formatted 0 of 2000  {} []"),
        "{}",
        lines[2]
    );
    assert!(
        lines[3].ends_with(" - failed RequestFailed: request failed")
            && lines[4] == "Caused by: std::io::error::Error: root cause"
            && lines[5] == " {} []",
        "{:?}",
        &lines[3..6]
    );
    // The first frame is where the support crate captured the throwable; its line is read from
    // the throwable itself, so editing the support crate does not break this test.
    let capture_site = format!("\tat {}", throwable.frames()[0]);
    assert!(
        capture_site
            .starts_with("\tat l4rs_test_support::throwables::deep_throwable(throwables.rs:"),
        "{capture_site:?}"
    );
    assert!(
        lines[6].ends_with(" - deep std::io::error::Error: benchmark throwable")
            && lines[7] == capture_site,
        "{:?}",
        &lines[6..8]
    );
    let from_log = 6 + throwable.frames().len() + 2;
    assert!(
        lines[from_log].contains(" tracing_zero_allocation.?:")
            && lines[from_log].ends_with(" - from log 0  {} []"),
        "{}",
        lines[from_log]
    );
}
