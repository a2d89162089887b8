//! The panic hook l4rs installs flushes every appender, except on l4rs's own background
//! threads: there the queue catches the panic of the appender it was calling (which may still
//! hold its own lock), and waiting for other queues from that thread could stall the one it
//! serves. A buffered File appender shows whether a flush ran: its line reaches the file only
//! when flushed.

use std::sync::Arc;
use std::time::Duration;

use l4rs_async::{AsyncQueue, Enqueued, QueueFullPolicy, QueueOptions, WaitStrategy};
use l4rs_core::{Level, LogEvent, Message};

#[test]
fn the_hook_skips_the_flush_on_background_threads_only() {
    let dir = std::env::temp_dir().join(format!("l4rs-panic-hook-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let held = dir.join("held.log");
    let _ = std::fs::remove_file(&held);
    let config = dir.join("log4j2.xml");
    std::fs::write(
        &config,
        format!(
            r#"<Configuration><Appenders>
  <File name="Held" fileName="{}" immediateFlush="false" bufferSize="1048576">
    <PatternLayout pattern="%m%n"/>
  </File>
</Appenders><Loggers><Root level="info"><AppenderRef ref="Held"/></Root></Loggers></Configuration>"#,
            held.display()
        ),
    )
    .unwrap();
    l4rs::init_with_file(&config).expect("configuration loads and installs the hook");
    l4rs::info!(l4rs::get_logger("held"), "buffered line");
    let contents = || std::fs::read_to_string(&held).unwrap();
    assert_eq!(contents(), "", "buffered until a flush");

    // An appender panicking on a queue's thread: the hook runs there and must not flush.
    let handler = |event: &LogEvent<'_>, _tag: u64| {
        if event.message.as_str() == Some("boom") {
            panic!("an appender fails on the background thread");
        }
    };
    let queue = AsyncQueue::start(
        QueueOptions {
            name: "panicking".to_string(),
            thread_name: "panicking-dispatcher".to_string(),
            capacity: 4,
            blocking: true,
            policy: QueueFullPolicy::Block,
            wait_strategy: WaitStrategy::default(),
        },
        Arc::new(handler),
    )
    .unwrap();
    for text in ["boom", "after"] {
        let event = LogEvent::new("t", Level::INFO, Message::Text(text));
        assert_eq!(queue.enqueue(&event, 0, false), Enqueued::Queued);
    }
    assert!(
        queue.drain(Some(Duration::from_secs(30))),
        "the queue went on"
    );
    assert_eq!(queue.stats().panicked, 1);
    assert_eq!(contents(), "", "no flush from the background thread's hook");

    // A panic on an ordinary thread does flush.
    let outcome = std::thread::spawn(|| panic!("an application thread fails")).join();
    assert!(outcome.is_err());
    assert_eq!(contents(), "buffered line\n");
    queue.stop(None);
    l4rs::shutdown();
    let _ = std::fs::remove_dir_all(&dir);
}
