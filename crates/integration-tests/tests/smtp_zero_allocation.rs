//! Keeping an event for the SMTP appender's next mail (an event its filter denies) allocates
//! nothing once the buffer has been through its size: the event is formatted into the thread's
//! reused buffers and copied into a kept buffer the appender reuses. (Sending a mail allocates
//! its message; mails are rare by design.)

use l4rs_tests::allocations::CountingAllocator;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(l4rs_tests::allocations::count);

#[test]
fn keeping_events_does_not_allocate() {
    let dir = l4rs_tests::fresh_output_dir("smtp-zero-allocation");
    // No server: no event reaches ERROR, so no mail is sent.
    let xml = r#"<Configuration><Appenders>
  <SMTP name="mail" smtpHost="127.0.0.1" smtpPort="1" to="ops@example.com" subject="%m" bufferSize="64">
    <PatternLayout pattern="%d %-5level %t %c - %msg%n"/>
  </SMTP>
  <SMTP name="html" smtpHost="127.0.0.1" smtpPort="1" to="ops@example.com" subject="%m" bufferSize="64"/>
</Appenders><Loggers><Root level="debug"><AppenderRef ref="mail"/><AppenderRef ref="html"/></Root></Loggers></Configuration>"#;
    l4rs::init_with_file(l4rs_tests::write_config(&dir, xml)).unwrap();
    let logger = l4rs::get_logger("SmtpLogger");
    let message = "x".repeat(100);
    let run = |count: usize| {
        for _ in 0..count {
            l4rs::warn!(logger, "{message}");
            l4rs::trace!(logger, "disabled");
        }
    };
    run(2_000);
    let allocations = l4rs_tests::allocations::counted(|| run(10_000));
    l4rs::shutdown();
    assert_eq!(allocations, 0, "allocations in 10,000 kept events");
}
