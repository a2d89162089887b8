//! Without any configuration file, l4rs uses log4j2's default configuration: ERROR and above to
//! the console with `%d{HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n`.

#[test]
fn no_configuration_means_errors_to_the_console() {
    std::env::remove_var("LOG4RS_CONFIGURATION_FILE");
    std::env::remove_var("LOG4J_CONFIGURATION_FILE");
    let dir = l4rs_tests::fresh_output_dir("default-configuration");
    std::env::set_current_dir(&dir).unwrap();
    let logger = l4rs::get_logger("a.b.C");
    assert_eq!(logger.level(), l4rs::Level::ERROR);
    assert!(logger.is_enabled(l4rs::Level::ERROR));
    assert!(!logger.is_enabled(l4rs::Level::WARN));
    assert_eq!(
        l4rs::active_appenders(),
        vec!["DefaultConsole-1".to_string()]
    );
}
