//! Every oracle scenario's configuration loads, and only the scenarios about configuration
//! errors produce diagnostics.

use std::path::PathBuf;

use l4rs_config::{load_file, set_system_property, Severity};
use l4rs_test_support::shared::shared_path;

/// The scenarios whose configurations are wrong on purpose, with the messages log4j2 prints.
const EXPECTED: &[(&str, &[&str])] = &[(
    "151-config-errors-tolerated",
    &[
        "Console contains an invalid element or attribute \"colour\"",
        "No appender name provided",
        "Could not create plugin of type class org.apache.logging.log4j.core.appender.ConsoleAppender for element Console org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element Console are invalid: field 'name' has invalid value 'null'",
        "Error while converting string [8k] to type [int]. Using default value [null]. java.lang.NumberFormatException: For input string: \"8k\"",
        "Null object returned for Console in Appenders.",
        "Error while converting string [verbose] to type [class org.apache.logging.log4j.Level]. Using default value [null]. java.lang.IllegalArgumentException: Unknown level constant [VERBOSE].",
    ],
)];

#[test]
fn every_scenario_configuration_loads_without_unexpected_diagnostics() {
    let Some(dir) = shared_path("oracle/scenarios", "the oracle scenarios' configurations") else {
        return;
    };
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    set_system_property("out", "/tmp/l4rs-config-scenario-out");
    let mut checked = 0;
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    // Custom levels are process-wide: scenarios that declare one (120 declares VERBOSE) must
    // come after the scenarios that expect it to be unknown.
    paths.sort_by_key(|path| {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        (
            !EXPECTED.iter().any(|(expected, _)| *expected == name),
            name,
        )
    });
    for scenario in paths {
        let file = scenario.join("log4j2.xml");
        if !file.is_file() {
            continue;
        }
        let name = scenario.file_name().unwrap().to_string_lossy().to_string();
        let config = load_file(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
        let messages: Vec<&str> = config
            .diagnostics
            .iter()
            .filter(|d| d.severity != Severity::Info)
            .map(|d| d.message.as_str())
            .collect();
        let expected = EXPECTED
            .iter()
            .find(|(scenario, _)| *scenario == name)
            .map_or(&[][..], |(_, messages)| *messages);
        assert_eq!(messages, expected, "{name}");
        assert!(!config.is_default, "{name}");
        checked += 1;
    }
    l4rs_core::status::set_level(l4rs_core::Level::ERROR);
    assert!(checked >= 50, "only {checked} scenarios found");
}
