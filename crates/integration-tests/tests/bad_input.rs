//! Bad input never panics the caller: malformed XML falls back to the default configuration
//! with a positioned error, and message text is never interpreted.

use l4rs::core::status;

#[test]
fn malformed_xml_is_an_error_with_position_and_logging_goes_on() {
    let _guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = l4rs_tests::fresh_output_dir("bad-input");
    let path = l4rs_tests::write_config(
        &dir,
        "<Configuration>\n  <Appenders>\n    <File name=\"F\" fileName=\"x.log\">\n  </Appenders>\n</Configuration>\n",
    );
    let (result, _) = status::capture(|| l4rs::init_with_file(&path));
    let error = result.expect_err("malformed XML is reported");
    let text = error.to_string();
    // Line 4, column 3: the `</Appenders>` that arrives while `<File>` is still open.
    let expected = format!(
        "Error parsing {}:4:3: ill-formed document: expected `</File>`, but `</Appenders>` was found",
        path.display()
    );
    assert_eq!(text, expected);
    // The default configuration is in force: root at ERROR.
    let logger = l4rs::get_logger("anything");
    assert_eq!(logger.level(), l4rs::Level::ERROR);
    assert!(!logger.is_enabled(l4rs::Level::WARN));
}

#[test]
fn lookups_in_messages_print_literally() {
    let dir = l4rs_tests::fresh_output_dir("literal-messages");
    let xml = format!(
        r#"<Configuration><Appenders>
  <File name="F" fileName="{dir}/out.log"><PatternLayout pattern="%m%n"/></File>
</Appenders><Loggers><Root level="info"><AppenderRef ref="F"/></Root></Loggers></Configuration>"#,
        dir = dir.display()
    );
    let _guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).unwrap();
    let logger = l4rs::get_logger("literal");
    let user_input = "${jndi:ldap://x} ${env:HOME} %d {}";
    l4rs::info!(logger, "{user_input}");
    l4rs::info!(logger, "${{sys:out}}");
    l4rs::shutdown();
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("out.log")),
        vec!["${jndi:ldap://x} ${env:HOME} %d {}", "${sys:out}"]
    );
}

#[test]
fn unwritable_file_is_reported_and_other_appenders_work() {
    let dir = l4rs_tests::fresh_output_dir("unwritable");
    let xml = format!(
        r#"<Configuration><Appenders>
  <File name="Broken" fileName="{dir}"><PatternLayout pattern="%m%n"/></File>
  <File name="Good" fileName="{dir}/good.log"><PatternLayout pattern="%m%n"/></File>
</Appenders><Loggers><Root level="info"><AppenderRef ref="Broken"/><AppenderRef ref="Good"/></Root></Loggers></Configuration>"#,
        dir = dir.display()
    );
    let _guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let config = l4rs_tests::write_config(&dir, &xml);
    let (result, records) = status::capture(|| l4rs::init_with_file(&config));
    // The explicit init returns what it reported, after putting the rest in force.
    let Err(l4rs::Error::Invalid { file, messages }) = result else {
        panic!("the unwritable file is returned as an error: {result:?}");
    };
    assert_eq!(file, config);
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].contains(&dir.display().to_string()) && messages[0].contains("Is a directory"),
        "the real cause: {messages:?}"
    );
    assert_eq!(
        messages[1],
        "Unable to locate appender \"Broken\" for logger config \"root\""
    );
    for message in &messages {
        assert!(
            records
                .iter()
                .any(|r| r.level == l4rs::Level::ERROR && &r.message == message),
            "also reported: {message} in {records:?}"
        );
    }
    let logger = l4rs::get_logger("unwritable");
    l4rs::info!(logger, "still logged");
    l4rs::shutdown();
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("good.log")),
        vec!["still logged"]
    );
}

/// An unknown converter and a RegexFilter whose pattern does not compile are reported by the
/// layout and the filter as they are built; an explicit init returns them as errors, and still
/// prints them through the status logger (here to the configuration's `dest` file).
#[test]
fn layout_and_filter_build_errors_are_returned_and_still_printed() {
    let dir = l4rs_tests::fresh_output_dir("layout-filter-errors");
    let status_file = dir.join("status.log");
    let xml = format!(
        r#"<Configuration dest="{status}"><Appenders>
  <File name="Odd" fileName="{dir}/odd.log"><PatternLayout pattern="%m %qqq%n"/></File>
  <File name="Filtered" fileName="{dir}/filtered.log">
    <RegexFilter regex="(unclosed" onMatch="DENY" onMismatch="ACCEPT"/>
    <PatternLayout pattern="%m%n"/>
  </File>
  <File name="Good" fileName="{dir}/good.log"><PatternLayout pattern="%p %m%n"/></File>
</Appenders><Loggers><Root level="info">
  <AppenderRef ref="Odd"/><AppenderRef ref="Filtered"/><AppenderRef ref="Good"/>
</Root></Loggers></Configuration>"#,
        status = status_file.display(),
        dir = dir.display()
    );
    let _guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let config = l4rs_tests::write_config(&dir, &xml);
    let (result, records) = status::capture(|| l4rs::init_with_file(&config));
    status::set_destination(status::Destination::Stderr);
    let Err(l4rs::Error::Invalid { file, messages }) = result else {
        panic!("the layout and filter errors are returned: {result:?}");
    };
    assert_eq!(file, config);
    assert!(
        messages.iter().any(|m| m.contains("[qqq]")),
        "the unknown converter is named: {messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("(unclosed")),
        "the regex that does not compile is named: {messages:?}"
    );
    let printed = std::fs::read_to_string(&status_file).expect("status destination written");
    for message in &messages {
        assert!(
            printed.contains(&format!(" ERROR {message}\n")),
            "printed: {message} in {printed:?}"
        );
        assert!(
            records
                .iter()
                .any(|r| r.level == l4rs::Level::ERROR && &r.message == message),
            "an enclosing capture still sees it: {message} in {records:?}"
        );
    }
    // The rest of the configuration is in force: every appender still logs.
    let logger = l4rs::get_logger("layout-filter-errors");
    l4rs::info!(logger, "still logged");
    l4rs::shutdown();
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("good.log")),
        ["INFO still logged"]
    );
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("filtered.log")),
        ["still logged"]
    );
    let odd = l4rs_tests::read_lines(&dir.join("odd.log"));
    assert_eq!(odd.len(), 1, "{odd:?}");
    assert!(odd[0].starts_with("still logged "), "{odd:?}");
}

/// Tests in this file replace the global configuration; they take turns.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
