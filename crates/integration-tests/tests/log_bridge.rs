//! The `log` crate's macros reach l4rs loggers named by their target, and a target's `::`
//! separators match logger names written with `.` or `::`.

#[test]
fn log_macros_route_by_target_and_module_path() {
    let dir = l4rs_tests::fresh_output_dir("log-bridge");
    let xml = l4rs_tests::files_config(
        dir.display(),
        &[
            ("Named", "%c %p %m%n"),
            ("Module", "%c %p %C.%M:%L %F %m%n"),
        ],
        &[
            ("FileLogger", "info", "Named"),
            ("log_bridge", "debug", "Module"),
        ],
        r#"<Root level="off"/>"#,
    );
    let _guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
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
        // `log` records no function: `%M` prints `?`, as for a `tracing` event.
        vec![format!(
            "log_bridge DEBUG log_bridge.?:{line} log_bridge.rs plain debug"
        )]
    );
}

/// Plain `log::` calls from here have the target `log_bridge::nested::pool`.
mod nested {
    pub(crate) mod pool {
        pub(crate) fn log_from_module() {
            log::info!("plain info from a nested module");
        }
    }
}

#[test]
fn double_colon_targets_match_dotted_and_double_colon_logger_names() {
    let _guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    for (case, separator) in [("dotted", "."), ("double-colon", "::")] {
        let dir = l4rs_tests::fresh_output_dir(&format!("log-bridge-{case}"));
        let pattern = "%c %p %m%n";
        let (db, nested) = (
            format!("my_app{separator}db"),
            format!("log_bridge{separator}nested"),
        );
        let xml = l4rs_tests::files_config(
            dir.display(),
            &[("Db", pattern), ("Nested", pattern), ("Root", pattern)],
            &[(&db, "debug", "Db"), (&nested, "info", "Nested")],
            r#"<Root level="warn"><AppenderRef ref="Root"/></Root>"#,
        );
        l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).unwrap();
        log::debug!(target: "my_app::db::pool", "pool has {} connections", 4);
        log::trace!(target: "my_app::db::pool", "below the db logger's debug");
        log::debug!(target: "my_app::dbx", "a sibling with a longer name is not under my_app.db");
        nested::pool::log_from_module();
        l4rs::shutdown();
        assert_eq!(
            l4rs_tests::read_lines(&dir.join("db.log")),
            ["my_app::db::pool DEBUG pool has 4 connections"],
            "{case}"
        );
        assert_eq!(
            l4rs_tests::read_lines(&dir.join("nested.log")),
            ["log_bridge::nested::pool INFO plain info from a nested module"],
            "{case}"
        );
        assert!(
            l4rs_tests::read_lines(&dir.join("root.log")).is_empty(),
            "{case}"
        );
    }
}

/// Tests in this file replace the global configuration; they take turns.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn log_max_level_follows_the_most_verbose_logger_of_the_configuration() {
    let _guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = l4rs_tests::fresh_output_dir("log-bridge-max-level");
    let config = |root: &str, logger: &str, context_filter: &str| {
        format!(
            r#"<Configuration>
  {context_filter}
  <Appenders>
    <File name="F" fileName="{dir}/max.log"><PatternLayout pattern="%p %m%n"/></File>
  </Appenders>
  <Loggers>
    <Logger name="chatty" level="{logger}"/>
    <Root level="{root}"><AppenderRef ref="F"/></Root>
  </Loggers>
</Configuration>"#,
            dir = dir.display()
        )
    };
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &config("warn", "info", ""))).unwrap();
    assert_eq!(log::max_level(), log::LevelFilter::Info);
    log::info!(target: "chatty", "kept");
    log::debug!(target: "chatty", "disabled by log's own check");
    l4rs::init_with_file(l4rs_tests::write_config(
        &dir,
        &config("error", "error", ""),
    ))
    .unwrap();
    assert_eq!(log::max_level(), log::LevelFilter::Error);
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &config("trace", "off", ""))).unwrap();
    assert_eq!(log::max_level(), log::LevelFilter::Trace);
    // A context-wide filter sees every event first, whatever the loggers' levels.
    let filter = r#"<ThresholdFilter level="trace" onMatch="NEUTRAL" onMismatch="DENY"/>"#;
    l4rs::init_with_file(l4rs_tests::write_config(
        &dir,
        &config("off", "off", filter),
    ))
    .unwrap();
    assert_eq!(log::max_level(), log::LevelFilter::Trace);
    l4rs::shutdown();
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("max.log")),
        vec!["INFO kept"]
    );
}
