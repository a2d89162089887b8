//! An enabled log call into a RELP Syslog appender allocates nothing in steady state, from one
//! thread and from four pipelining threads (each waiting for its own acknowledgement while
//! one of them reads the responses): the frame is built in the session's reused buffer and
//! the responses are read into reused buffers. The receiver is a real rsyslog (another
//! process, so its allocations are not counted). RELP over TLS is not covered: rustls
//! allocates its records, as for TCP (docs/appenders.md).

use std::sync::Barrier;

use l4rs_tests::allocations::CountingAllocator;
use l4rs_tests::rsyslog::Rsyslog;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(l4rs_tests::allocations::count);

#[test]
fn steady_state_relp_log_calls_do_not_allocate() {
    if !Rsyslog::relp_available() {
        return;
    }
    let dir = l4rs_tests::fresh_output_dir("relp-zero-allocation");
    let rsyslog = Rsyslog::start_relp(&dir.join("rsyslog"), None);
    let xml = l4rs_tests::root_config(
        r#"status="off""#,
        "debug",
        &format!(
            r#"<Syslog name="R" host="127.0.0.1" port="{}" protocol="RELP" format="RFC5424" appName="zero"/>"#,
            rsyslog.relp_port()
        ),
        &["R"],
    );
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).unwrap();
    let logger = l4rs::get_logger("RelpLogger");
    let message = "x".repeat(100);
    let run = |count: usize| {
        for _ in 0..count {
            l4rs::debug!(logger, "{message}");
            l4rs::trace!(logger, "disabled");
        }
    };
    run(500);
    let single = l4rs_tests::allocations::counted(|| run(2_000));
    // Four threads, started and warmed up before the count begins (`ready`), log between two
    // barriers, and end (their exit frees and may allocate) only after it.
    let barrier = || Barrier::new(5);
    let (ready, start, done, end) = (barrier(), barrier(), barrier(), barrier());
    let concurrent = std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                run(200);
                ready.wait();
                start.wait();
                run(1_000);
                done.wait();
                end.wait();
            });
        }
        ready.wait();
        let counted = l4rs_tests::allocations::counted(|| {
            start.wait();
            done.wait();
        });
        end.wait();
        counted
    });
    let received = rsyslog.received().len();
    l4rs::shutdown();
    assert_eq!(single, 0, "allocations in 2,000 steady-state calls");
    assert_eq!(concurrent, 0, "allocations in 4 × 1,000 concurrent calls");
    // Acknowledged before each call returned: all there.
    assert_eq!(received, 500 + 2_000 + 4 * 1_200);
}
