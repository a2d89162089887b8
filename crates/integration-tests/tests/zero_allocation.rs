//! An enabled log call through the facade allocates nothing in steady state: the log4j2 appender
//! benchmark's pattern, with and without a 101-frame throwable, into an immediate-flush File
//! appender.

use l4rs_tests::allocations::CountingAllocator;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(l4rs_tests::allocations::count);

#[test]
fn steady_state_log_calls_do_not_allocate() {
    let dir = l4rs_tests::fresh_output_dir("zero-allocation");
    let xml = format!(
        r#"<Configuration><Appenders>
  <File name="F" fileName="{dir}/out.log">
    <PatternLayout pattern="%d{{yyyy-MM-dd HH:mm:ss.SSS}} %-5level %pid %t %C.%M:%L - %msg %ex{{full}} %n"/>
  </File>
</Appenders><Loggers><Root level="debug"><AppenderRef ref="F"/></Root></Loggers></Configuration>"#,
        dir = dir.display()
    );
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).unwrap();
    let logger = l4rs::get_logger("FileLogger");
    let error = l4rs_tests::deep_throwable(100);
    let message = "x".repeat(100);
    let run = |count: usize| {
        for index in 0..count {
            if index % 5 == 0 {
                l4rs::debug!(logger, error = &error, "{message}");
            } else {
                l4rs::debug!(logger, "{message}");
            }
            l4rs::trace!(logger, "disabled {}", index);
        }
    };
    run(2_000);
    let allocations = l4rs_tests::allocations::counted(|| run(10_000));
    l4rs::shutdown();
    assert_eq!(allocations, 0, "allocations in 10,000 steady-state calls");
    let lines = l4rs_tests::read_lines(&dir.join("out.log"));
    assert!(lines.len() > 12_000, "{} lines", lines.len());
}
