//! What the Kafka tests (tests/kafka_*.rs) share beside `l4rs_kafka::testing`'s broker and
//! consumer: their configuration and the reading of the records they log.

use std::collections::HashMap;

pub use l4rs_kafka::testing::{require_kafka_tools, Broker, Record};

/// A configuration whose root logger (`AsyncRoot` when `async_root`) writes to the Kafka
/// appender `kafka` with `attributes` (topic, syncSend, …), the layout `%t|%d{UNIX_MILLIS}|%m`
/// and the producer `properties` (name, value) after `bootstrap.servers`. `more_appenders` and
/// `root_ref` let a test put a Failover in front.
pub fn kafka_config(
    broker: &Broker,
    attributes: &str,
    properties: &[(&str, &str)],
    async_root: bool,
    more_appenders: &str,
    root_ref: &str,
) -> String {
    let properties: String = properties
        .iter()
        .map(|(name, value)| format!("\n    <Property name=\"{name}\">{value}</Property>"))
        .collect();
    let root = if async_root { "AsyncRoot" } else { "Root" };
    format!(
        r#"<Configuration status="WARN">
<Appenders>
  <Kafka name="kafka" {attributes}>
    <PatternLayout pattern="%t|%d{{UNIX_MILLIS}}|%m"/>
    <Property name="bootstrap.servers">{servers}</Property>{properties}
  </Kafka>
  {more_appenders}
</Appenders>
<Loggers><{root} level="info"><AppenderRef ref="{root_ref}"/></{root}></Loggers>
</Configuration>"#,
        servers = broker.bootstrap_servers(),
    )
}

/// One record's value, as the layout above wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logged {
    /// `%t`.
    pub thread: String,
    /// `%d{UNIX_MILLIS}`.
    pub millis: i64,
    /// `%m`.
    pub message: String,
}

/// Splits a record value written by [`kafka_config`]'s layout.
pub fn parse_value(record: &Record) -> Logged {
    let text = String::from_utf8(record.value.clone()).expect("UTF-8 value");
    let mut parts = text.splitn(3, '|');
    let thread = parts.next().unwrap_or_default().to_string();
    let millis = parts
        .next()
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("no millis in {text:?}"));
    let message = parts.next().unwrap_or_default().to_string();
    Logged {
        thread,
        millis,
        message,
    }
}

/// Messages `<prefix>-<n>` grouped by thread in the order the records were read, each
/// thread's numbers in order of offset within its partition; panics when a thread's events
/// span partitions.
pub fn sequences_by_thread(records: &[Record]) -> HashMap<String, Vec<u64>> {
    let mut sorted: Vec<&Record> = records.iter().collect();
    sorted.sort_by_key(|r| (r.partition, r.offset));
    let mut partitions: HashMap<String, i32> = HashMap::new();
    let mut sequences: HashMap<String, Vec<u64>> = HashMap::new();
    for record in sorted {
        let logged = parse_value(record);
        let partition = *partitions
            .entry(logged.thread.clone())
            .or_insert(record.partition);
        assert_eq!(partition, record.partition, "{logged:?} left its partition");
        let number = logged
            .message
            .rsplit('-')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no sequence number in {logged:?}"));
        sequences.entry(logged.thread).or_default().push(number);
    }
    sequences
}

/// Status records at WARN or above, collected from every thread (librdkafka reports from its
/// own) while the value lives.
pub struct StatusLog {
    records: std::sync::Arc<std::sync::Mutex<Vec<l4rs::core::status::StatusRecord>>>,
    _guard: l4rs::core::status::ListenerGuard,
}

impl StatusLog {
    /// Starts collecting.
    pub fn start() -> StatusLog {
        let records = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = std::sync::Arc::clone(&records);
        let guard = l4rs::core::status::add_listener(move |record| {
            if record.level.is_at_least_as_severe_as(l4rs::Level::WARN) {
                sink.lock().unwrap().push(record.clone());
            }
        });
        StatusLog {
            records,
            _guard: guard,
        }
    }

    /// The messages collected so far at `level` exactly.
    pub fn messages(&self, level: l4rs::Level) -> Vec<String> {
        self.records
            .lock()
            .unwrap()
            .iter()
            .filter(|record| record.level == level)
            .map(|record| record.message.clone())
            .collect()
    }
}
