//! JsonTemplateLayout behind every kind of appender: File, RollingFile, an Async appender in
//! front of a File, and Console (in a child process); every line written parses as JSON, and
//! a synchronous log call through it allocates nothing in steady state.

use l4rs_tests::allocations::CountingAllocator;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(l4rs_tests::allocations::count);

#[test]
fn ecs_events_through_file_rolling_and_async_appenders() {
    let dir = l4rs_tests::fresh_output_dir("json-template-appenders");
    let xml = format!(
        r#"<Configuration><Appenders>
  <File name="F" fileName="{dir}/file.json"><JsonTemplateLayout/></File>
  <RollingFile name="R" fileName="{dir}/rolling.json" filePattern="{dir}/rolling-%i.json">
    <JsonTemplateLayout eventTemplateUri="classpath:JsonLayout.json" charset="UTF-8"/>
    <SizeBasedTriggeringPolicy size="1 MB"/>
  </RollingFile>
  <File name="AF" fileName="{dir}/async.json">
    <JsonTemplateLayout eventTemplateUri="classpath:GelfLayout.json"/>
  </File>
  <Async name="A"><AppenderRef ref="AF"/></Async>
</Appenders><Loggers>
  <Logger name="sync" level="debug" additivity="false"><AppenderRef ref="F"/></Logger>
  <Root level="info"><AppenderRef ref="R"/><AppenderRef ref="A"/></Root>
</Loggers></Configuration>"#,
        dir = dir.display()
    );
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).unwrap();
    let sync = l4rs::get_logger("sync");
    let other = l4rs::get_logger("other");
    let error = l4rs_tests::deep_throwable(20);
    let message = "naïve \"quoted\" message".to_string();
    l4rs::ThreadContext::put("user", "ann");
    let run = |count: usize| {
        for index in 0..count {
            if index % 5 == 0 {
                l4rs::debug!(sync, error = &error, "{message}");
            } else {
                l4rs::debug!(sync, "{message}");
            }
        }
    };
    run(1_000);
    let allocations = l4rs_tests::allocations::counted(|| run(5_000));
    for index in 0..50 {
        l4rs::info!(other, "event {index}");
    }
    l4rs::warn!(other, error = &error, "with an error");
    l4rs::shutdown();
    assert_eq!(allocations, 0, "allocations in 5,000 steady-state calls");

    let file = l4rs_tests::read_lines(&dir.join("file.json"));
    assert_eq!(file.len(), 6_000);
    let rolling = l4rs_tests::read_lines(&dir.join("rolling.json"));
    let asynchronous = l4rs_tests::read_lines(&dir.join("async.json"));
    assert_eq!((rolling.len(), asynchronous.len()), (51, 51));
    for line in file.iter().chain(&rolling).chain(&asynchronous) {
        let value: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert!(value.is_object(), "{line}");
    }
    let first: serde_json::Value = serde_json::from_str(&file[0]).unwrap();
    assert_eq!(first["message"], message.as_str());
    assert_eq!(first["log.level"], "DEBUG");
    assert_eq!(first["log.logger"], "sync");
    assert_eq!(first["user"], "ann");
    assert!(first["error.stack_trace"].as_str().is_some(), "{first}");
    let last: serde_json::Value = serde_json::from_str(&rolling[50]).unwrap();
    assert_eq!(last["level"], "WARN");
    assert_eq!(
        last["thrown"]["message"],
        error.message().unwrap_or_default()
    );
    let gelf: serde_json::Value = serde_json::from_str(&asynchronous[0]).unwrap();
    assert_eq!(gelf["short_message"], "event 0");
    assert_eq!(gelf["_user"], "ann");
}

#[test]
fn ecs_events_on_the_console_are_json_lines() {
    let dir = l4rs_tests::fresh_output_dir("json-template-console");
    let config = l4rs_tests::write_config(
        &dir,
        r#"<Configuration><Appenders>
  <Console name="C"><JsonTemplateLayout eventTemplateUri="classpath:EcsLayout.json"/></Console>
</Appenders><Loggers>
  <Logger name="discovery.Probe" level="info" additivity="false"><AppenderRef ref="C"/></Logger>
  <Root level="off"/>
</Loggers></Configuration>"#,
    );
    let run = l4rs_tests::run_discovery_probe(
        env!("CARGO_BIN_EXE_l4rs-discovery-probe"),
        "lazy",
        &dir,
        &[("LOG4RS_CONFIGURATION_FILE", &config)],
    );
    assert!(run.problems().is_empty(), "{run:?}");
    let messages: Vec<String> = run
        .output
        .iter()
        .map(|line| {
            let value: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
            assert_eq!(value["log.logger"], "discovery.Probe");
            value["message"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(messages, ["error line", "warn line", "info line"]);
}
