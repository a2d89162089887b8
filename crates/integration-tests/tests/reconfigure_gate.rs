//! The gate a reconfiguration closes while the configuration it replaces drains: what a call
//! does at it. Found by the review of reconfiguration (probes review_nested_reload.rs and
//! review_gated_loss.rs).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Serialises the tests of this file: they replace the one process-wide configuration.
fn turn() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}

/// A message argument that logs while it is formatted, after telling the test it started.
struct LogsWhileFormatted(Arc<AtomicBool>);

impl std::fmt::Display for LogsWhileFormatted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.store(true, Ordering::SeqCst);
        // Long enough for the reconfiguration to switch while the outer call is still here.
        std::thread::sleep(Duration::from_millis(300));
        let inner = l4rs::get_logger("inner");
        l4rs::info!(inner, "nested");
        f.write_str("outer")
    }
}

/// A nested log call made during a reload away from a configuration with queues sees the new
/// configuration, whose caller gate is closed until the outer call (on the old configuration)
/// returns: it must not wait there (that stalled the reload 10 s and lost the outer event).
#[test]
fn a_nested_call_during_a_reload_does_not_wait_at_the_gate() {
    let _turn = turn();
    let dir = l4rs_tests::fresh_output_dir("reconfigure-gate-nested");
    let out = dir.join("out.log");
    let file = format!(
        r#"<File name="F" fileName="{}"><PatternLayout pattern="%m%n"/></File>"#,
        out.display()
    );
    let with_queue = format!(
        r#"<Configuration><Appenders>{file}<Async name="Q"><AppenderRef ref="F"/></Async></Appenders><Loggers><Root level="info"><AppenderRef ref="Q"/></Root></Loggers></Configuration>"#
    );
    let synchronous = format!(
        r#"<Configuration><Appenders>{file}</Appenders><Loggers><Root level="info"><AppenderRef ref="F"/></Root></Loggers></Configuration>"#
    );
    let first = dir.join("first.xml");
    let second = dir.join("second.xml");
    std::fs::write(&first, with_queue).expect("write first");
    std::fs::write(&second, synchronous).expect("write second");
    l4rs::init_with_file(&first).expect("first configuration");

    let inside = Arc::new(AtomicBool::new(false));
    let logging = {
        let inside = Arc::clone(&inside);
        std::thread::spawn(move || {
            let outer = l4rs::get_logger("outer");
            l4rs::info!(outer, "{}", LogsWhileFormatted(inside));
        })
    };
    while !inside.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let started = Instant::now();
    l4rs::reconfigure_with_file(&second).expect("second configuration");
    let took = started.elapsed();
    logging.join().expect("logging thread");
    l4rs::shutdown();

    let text = std::fs::read_to_string(&out).expect("read output");
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort_unstable();
    assert_eq!(lines, ["nested", "outer"], "file: {text:?}");
    // The outer call sleeps 300 ms; the stall this guards against lasted 10 s.
    assert!(
        took < Duration::from_secs(5),
        "the reconfiguration took {took:?}"
    );
}

/// A message argument that keeps its call (on the old configuration) going while the test
/// logs through the new one.
struct Slow(Arc<AtomicBool>);

impl std::fmt::Display for Slow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.store(true, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(1500));
        f.write_str("slow")
    }
}

/// While the reload waits for a slow call on the old configuration, the new configuration's
/// non-blocking Async appender has its thread held at the gate: its callers must wait at the
/// caller gate rather than fill the queue and have events thrown away.
#[test]
fn a_non_blocking_queue_loses_nothing_while_the_gate_is_closed() {
    const EVENTS: usize = 200;
    let _turn = turn();
    let dir = l4rs_tests::fresh_output_dir("reconfigure-gate-non-blocking");
    let out = dir.join("out.log");
    let file = format!(
        r#"<File name="F" fileName="{}"><PatternLayout pattern="%m%n"/></File>"#,
        out.display()
    );
    let blocking = format!(
        r#"<Configuration><Appenders>{file}<Async name="Q"><AppenderRef ref="F"/></Async></Appenders><Loggers><Root level="info"><AppenderRef ref="Q"/></Root></Loggers></Configuration>"#
    );
    let non_blocking = format!(
        r#"<Configuration><Appenders>{file}<Async name="Q2" blocking="false" bufferSize="8"><AppenderRef ref="F"/></Async></Appenders><Loggers><Root level="info"><AppenderRef ref="Q2"/></Root></Loggers></Configuration>"#
    );
    let first = dir.join("first.xml");
    let second = dir.join("second.xml");
    std::fs::write(&first, blocking).expect("write first");
    std::fs::write(&second, non_blocking).expect("write second");
    l4rs::init_with_file(&first).expect("first configuration");

    let inside = Arc::new(AtomicBool::new(false));
    let slow = {
        let inside = Arc::clone(&inside);
        std::thread::spawn(move || {
            let logger = l4rs::get_logger("slow");
            l4rs::info!(logger, "{}", Slow(inside));
        })
    };
    while !inside.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let reload = std::thread::spawn(move || l4rs::reconfigure_with_file(&second));
    // Let the reload switch and close the gate before logging through the new configuration.
    std::thread::sleep(Duration::from_millis(300));
    let logger = l4rs::get_logger("fast");
    for i in 0..EVENTS {
        l4rs::info!(logger, "e{i}");
        // Paced so that the open queue (8 slots, non-blocking) keeps up: what is tested is the
        // closed gate, not a queue outrun by a tight loop.
        std::thread::sleep(Duration::from_millis(1));
    }
    slow.join().expect("slow thread");
    reload
        .join()
        .expect("reload thread")
        .expect("second configuration");
    l4rs::shutdown();

    let text = std::fs::read_to_string(&out).expect("read output");
    let fast: Vec<&str> = text.lines().filter(|line| line.starts_with('e')).collect();
    let expected: Vec<String> = (0..EVENTS).map(|i| format!("e{i}")).collect();
    assert_eq!(fast, expected, "file: {text:?}");
    assert!(text.lines().any(|line| line == "slow"), "file: {text:?}");
}
