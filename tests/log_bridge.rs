//! The `log` crate's macros reach l4rs loggers named by their target.

#[test]
fn log_macros_route_by_target_and_module_path() {
    let dir = l4rs_tests::fresh_output_dir("log-bridge");
    let xml = format!(
        r#"<Configuration>
  <Appenders>
    <File name="Named" fileName="{dir}/named.log"><PatternLayout pattern="%c %p %m%n"/></File>
    <File name="Module" fileName="{dir}/module.log"><PatternLayout pattern="%c %p %C:%L %m%n"/></File>
  </Appenders>
  <Loggers>
    <Logger name="FileLogger" level="info" additivity="false"><AppenderRef ref="Named"/></Logger>
    <Logger name="log_bridge" level="debug" additivity="false"><AppenderRef ref="Module"/></Logger>
    <Root level="off"/>
  </Loggers>
</Configuration>"#,
        dir = dir.display()
    );
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).unwrap();
    log::info!(target: "FileLogger", "through log, {} args", 2);
    log::debug!(target: "FileLogger", "below info");
    log::debug!("plain debug");
    let line = line!() - 1;
    log::trace!("plain trace is below debug");
    l4rs::shutdown();
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("named.log")),
        vec!["FileLogger INFO through log, 2 args"]
    );
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("module.log")),
        vec![format!("log_bridge DEBUG log_bridge:{line} plain debug")]
    );
}
