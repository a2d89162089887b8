//! A topic the broker does not have, with auto-creation off: a real refusal, not a stand-in.
//! tansu (the tests' broker) creates a topic when a metadata request allows it, and answers
//! UNKNOWN_TOPIC_OR_PARTITION when the request says `allow_auto_topic_creation=false`, which
//! librdkafka sends when the producer property `allow.auto.create.topics` is false. (A Kafka
//! broker with `auto.create.topics.enable=false` refuses every producer the same way.)
//!
//! Each send must fail with a status ERROR in log4j2's words naming the topic (the Java
//! producer's "Topic T not present in metadata after N ms."), after at most `max.block.ms`, never
//! hanging or panicking; synchronous sends behind a Failover put every event in its file;
//! asynchronous calls return at once and their failures are reported; the topic is never
//! created.

use std::time::{Duration, Instant};

use l4rs_tests::kafka::{kafka_config, log_numbered, numbered, Broker, KafkaTest};

const TOPIC: &str = "absent";
/// `max.block.ms`: how long librdkafka waits for the topic before it fails the records.
const MAX_BLOCK_MS: u64 = 1000;
/// The appender's timeout (`timeout.ms`), longer than `max.block.ms`.
const TIMEOUT_MS: u64 = 3000;

/// The producer properties: no auto-creation, short waits, quick reconnects.
fn properties() -> [(&'static str, String); 3] {
    [
        ("allow.auto.create.topics", "false".to_string()),
        ("max.block.ms", MAX_BLOCK_MS.to_string()),
        ("timeout.ms", TIMEOUT_MS.to_string()),
    ]
}

/// The status line of a failed send to the missing topic.
fn unknown_topic_error() -> String {
    format!(
        "Unable to write to Kafka in appender [kafka] org.apache.kafka.common.errors.TimeoutException: \
         Topic {TOPIC} not present in metadata after {MAX_BLOCK_MS} ms. The broker has no topic {TOPIC} \
         and does not create it: create the topic, or let the broker create it (its \
         auto.create.topics.enable, and the producer property allow.auto.create.topics)"
    )
}

/// Logs `prefix-0` … `prefix-(count-1)`, each call bounded by the timeout and a margin; returns
/// how long each took.
fn log_all(prefix: &str, count: usize) -> Vec<Duration> {
    log_numbered("kafka.unknown", prefix, count, Duration::from_secs(8))
}

#[test]
fn a_topic_the_broker_refuses_to_create_is_an_error_naming_it() {
    let Some(test) = KafkaTest::start("kafka-unknown-topic") else {
        return;
    };
    let broker = Broker::start().expect("start the broker");
    let fallback = test.dir.join("fallback.log");
    let owned = properties();
    let properties: Vec<(&str, &str)> = owned.iter().map(|(k, v)| (*k, v.as_str())).collect();

    // Synchronous, behind a Failover: each event goes to the file, Kafka's failure is reported.
    let failover = format!(
        r#"<File name="fallback" fileName="{}"><PatternLayout pattern="%m%n"/></File>
  <Failover name="failover" primary="kafka" retryIntervalSeconds="0">
    <Failovers><AppenderRef ref="fallback"/></Failovers>
  </Failover>"#,
        fallback.display()
    );
    let xml = kafka_config(
        &broker,
        &format!(r#"topic="{TOPIC}" ignoreExceptions="false""#),
        &properties,
        false,
        &failover,
        "failover",
    );
    test.load(&xml);
    let took = log_all("sync", 5);
    eprintln!("synchronous sends to the missing topic took {took:?}");
    let expected = unknown_topic_error();
    test.status
        .wait_for_errors(Duration::from_secs(10), |errors| errors.contains(&expected));
    // The first send waits for the topic (max.block.ms), not for the longer timeout.
    assert!(
        took[0] >= Duration::from_millis(MAX_BLOCK_MS / 2)
            && took[0] < Duration::from_millis(TIMEOUT_MS),
        "first send took {:?}",
        took[0]
    );
    // librdkafka remembers the topic as missing: the next sends fail at once.
    for later in &took[1..] {
        assert!(*later < Duration::from_millis(MAX_BLOCK_MS / 2), "{took:?}");
    }

    // Asynchronous: the calls return at once; the delivery reports say what failed.
    let xml = kafka_config(
        &broker,
        &format!(r#"topic="{TOPIC}" syncSend="false""#),
        &properties,
        true,
        "",
        "kafka",
    );
    test.load(&xml);
    let before = test.status.messages(l4rs::Level::ERROR).len();
    let started = Instant::now();
    log_all("async", 10);
    assert!(
        started.elapsed() < Duration::from_millis(MAX_BLOCK_MS),
        "asynchronous calls waited: {:?}",
        started.elapsed()
    );
    test.status
        .wait_for_errors(Duration::from_secs(10), |errors| errors.len() > before);
    let stopping = Instant::now();
    l4rs::shutdown();
    assert!(
        stopping.elapsed() < Duration::from_millis(TIMEOUT_MS + 2000),
        "stopping took {:?}",
        stopping.elapsed()
    );
    let errors = test.status.messages(l4rs::Level::ERROR);
    assert!(
        errors[before..]
            .iter()
            .all(|e| e.starts_with(&unknown_topic_error()) || e.contains("could not be delivered")),
        "{errors:?}"
    );

    assert_eq!(l4rs_tests::read_lines(&fallback), numbered("sync", 5));
    let topics = broker.topics().expect("list the topics");
    assert!(!topics.iter().any(|t| t == TOPIC), "created: {topics:?}");
}
