//! Bad Kafka configurations get clear status messages and leave the rest running: an unknown
//! producer property is a warning in the Java client's words and is ignored; a bad value stops
//! the appender from being created; so does a topic name Kafka refuses. No broker is needed:
//! nothing is sent.

use l4rs_tests::kafka::KafkaTest;

#[test]
fn bad_properties_and_topics_are_reported() {
    let test = KafkaTest::offline("kafka-config-errors");
    let dir = &test.dir;
    let xml = format!(
        r#"<Configuration status="WARN"><Appenders>
  <Kafka name="unknown" topic="logs"><PatternLayout pattern="%m"/>
    <Property name="bootstrap.servers">127.0.0.1:1</Property>
    <Property name="no.such.property">1</Property>
  </Kafka>
  <Kafka name="badvalue" topic="logs"><PatternLayout pattern="%m"/>
    <Property name="bootstrap.servers">127.0.0.1:1</Property>
    <Property name="acks">banana</Property>
  </Kafka>
  <Kafka name="badtopic" topic="no spaces allowed"><PatternLayout pattern="%m"/>
    <Property name="bootstrap.servers">127.0.0.1:1</Property>
  </Kafka>
  <File name="file" fileName="{dir}/file.log"><PatternLayout pattern="%m%n"/></File>
</Appenders><Loggers><Root level="info"><AppenderRef ref="file"/></Root></Loggers></Configuration>"#,
        dir = dir.display()
    );
    // The appenders not created make it an error; the status records say which.
    assert!(test.try_load(&xml).is_err());
    let warnings = test.status.messages(l4rs::Level::WARN);
    assert!(
        warnings.iter().any(|w| w
            == "KafkaAppender unknown: The configuration 'no.such.property' was supplied but isn't a known config."),
        "{warnings:?}"
    );
    let errors = test.status.messages(l4rs::Level::ERROR);
    assert!(
        errors.iter().any(|e| e
            .starts_with("KafkaAppender badvalue: Invalid value banana for configuration acks: ")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.starts_with(
            "KafkaAppender badtopic: org.apache.kafka.common.errors.InvalidTopicException: Topic name \"no spaces allowed\" is illegal"
        )),
        "{errors:?}"
    );
    let active = l4rs::active_appenders();
    assert!(active.contains(&"unknown".to_string()), "{active:?}");
    assert!(!active.contains(&"badvalue".to_string()), "{active:?}");
    assert!(!active.contains(&"badtopic".to_string()), "{active:?}");
    // The rest keeps running.
    l4rs::info!(l4rs::get_logger("kafka.config"), "still logging");
    l4rs::shutdown();
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("file.log")),
        vec!["still logging".to_string()]
    );
}
