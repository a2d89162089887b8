//! What the Kafka tests (tests/kafka_*.rs) share beside `l4rs_test_support::kafka`'s broker and
//! consumer: their start (tools, output directory, status records, loading a configuration),
//! their configuration, the events they log and the reading of the records back.

use std::cell::Cell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub use l4rs_test_support::kafka::{require_kafka_tools, Broker, Record};

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

impl StatusLog {
    /// Panics unless an ERROR starting with `prefix` was collected.
    pub fn assert_error_starting_with(&self, prefix: &str) {
        let errors = self.messages(l4rs::Level::ERROR);
        assert!(
            errors.iter().any(|e| e.starts_with(prefix)),
            "no ERROR starting with {prefix:?}: {errors:?}"
        );
    }

    /// Waits, at most `timeout`, until `ready` holds for the ERRORs collected so far; panics
    /// with them when it did not.
    pub fn wait_for_errors(&self, timeout: Duration, ready: impl Fn(&[String]) -> bool) {
        let deadline = Instant::now() + timeout;
        loop {
            let errors = self.messages(l4rs::Level::ERROR);
            if ready(&errors) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "not the ERRORs awaited within {timeout:?}: {errors:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// One Kafka test's setting: a fresh output directory, the status records collected from its
/// start, and the configurations it loads.
pub struct KafkaTest {
    /// The test's output directory (`target/test-output/<name>`).
    pub dir: PathBuf,
    /// WARN and ERROR status records since the start.
    pub status: StatusLog,
    loaded: Cell<bool>,
}

impl KafkaTest {
    /// Starts the test `name` when the broker and the consumer are installed; otherwise prints
    /// a notice and returns `None` (panics under CI: see [`require_kafka_tools`]).
    pub fn start(name: &str) -> Option<KafkaTest> {
        require_kafka_tools(&format!("the Kafka test {name}")).then(|| KafkaTest::offline(name))
    }

    /// Starts the test `name`, which needs no broker.
    pub fn offline(name: &str) -> KafkaTest {
        KafkaTest {
            dir: crate::fresh_output_dir(name),
            status: StatusLog::start(),
            loaded: Cell::new(false),
        }
    }

    /// Writes `xml` into the output directory and loads it: `init` the first time, a
    /// reconfiguration after. Panics when it does not load.
    pub fn load(&self, xml: &str) {
        self.try_load(xml).expect("the configuration loads");
    }

    /// [`KafkaTest::load`] for a configuration whose errors the test expects: what `init` or
    /// the reconfiguration returned.
    pub fn try_load(&self, xml: &str) -> Result<(), l4rs::Error> {
        let path = crate::write_config(&self.dir, xml);
        if self.loaded.replace(true) {
            l4rs::reconfigure_with_file(path)
        } else {
            l4rs::init_with_file(path)
        }
    }
}

/// A started broker with `topic` created (`partitions` partitions).
pub fn broker_with_topic(topic: &str, partitions: u32) -> Broker {
    let broker = Broker::start().expect("start the broker");
    broker
        .create_topic(topic, partitions)
        .expect("create the topic");
    broker
}

/// Logs `prefix-0` … `prefix-(count-1)` at INFO through the logger `logger`, each call within
/// `bound` (panics when one takes longer: it hung); returns how long each call took.
pub fn log_numbered(logger: &str, prefix: &str, count: usize, bound: Duration) -> Vec<Duration> {
    let logger = l4rs::get_logger(logger);
    (0..count)
        .map(|n| {
            let started = Instant::now();
            l4rs::info!(logger, "{}-{}", prefix, n);
            let took = started.elapsed();
            assert!(took < bound, "{prefix}-{n} hung: {took:?}");
            took
        })
        .collect()
}

/// `prefix-0` … `prefix-(count-1)`: what [`log_numbered`] logs.
pub fn numbered(prefix: &str, count: usize) -> Vec<String> {
    (0..count).map(|n| format!("{prefix}-{n}")).collect()
}

/// The messages of `records`, in the order read.
pub fn messages(records: &[Record]) -> Vec<String> {
    records.iter().map(|r| parse_value(r).message).collect()
}

/// Runs `threads` threads named `<thread_prefix>-<i>`, each logging `event-0` …
/// `event-(per_thread-1)` through the logger `logger`, and waits for them.
pub fn log_from_threads(
    logger: &'static str,
    thread_prefix: &str,
    threads: usize,
    per_thread: u64,
) {
    let handles: Vec<_> = (0..threads)
        .map(|thread| {
            std::thread::Builder::new()
                .name(format!("{thread_prefix}-{thread}"))
                .spawn(move || {
                    let logger = l4rs::get_logger(logger);
                    for n in 0..per_thread {
                        l4rs::info!(logger, "event-{}", n);
                    }
                })
                .expect("spawn a logging thread")
        })
        .collect();
    for handle in handles {
        handle.join().expect("a logging thread panicked");
    }
}

/// Checks that `records` hold every event of [`log_from_threads`]' `threads` threads (named
/// `<thread_prefix>-<i>`) exactly once, each thread's in order within one partition.
pub fn assert_each_thread_in_order(
    records: &[Record],
    thread_prefix: &str,
    threads: usize,
    per_thread: u64,
) {
    let sequences = sequences_by_thread(records);
    assert_eq!(sequences.len(), threads, "threads seen");
    let in_order: Vec<u64> = (0..per_thread).collect();
    for (thread, numbers) in &sequences {
        assert!(thread.starts_with(thread_prefix), "{thread}");
        assert!(
            *numbers == in_order,
            "{thread}: not every event once and in order"
        );
    }
}
