//! `--kafka`: the setup log4j2's performance guidance recommends for speed, an AsyncLogger in front of a message-queue
//! appender, measured beside the file appenders in the same run. Four rows, each the benchmark's
//! workload (the sample's pattern, one event in five with the 101-frame error) on the same
//! threads, one after the other:
//!
//! * `AsyncLogger + Kafka`: an `<AsyncLogger>` feeding `<Kafka syncSend="false">`;
//! * `Kafka (syncSend)`: a synchronous logger feeding `<Kafka>` (log4j2's default, syncSend);
//! * `AsyncLogger + File` and `File`: the sample's File appender behind an AsyncLogger and not.
//!
//! The broker is a local tansu (`l4rs_kafka::testing`), started on 127.0.0.1 by the bench and
//! stopped at the end. A row's time runs until its drain returned (`l4rs::flush()`, which for
//! Kafka waits until the broker acknowledged every record), so queued records count; the
//! records are then read back with kafka-python and counted: every event logged must be there.
//!
//! Compiled with the `kafka` feature; without it [`AVAILABLE`] is false and `--kafka` explains
//! how to enable it.

/// True when the rows are compiled in (the `kafka` feature).
pub const AVAILABLE: bool = cfg!(feature = "kafka");

/// The rows: (label, logger, appender, topic or `None` for the file).
pub const ROWS: [(&str, &str, &str, Option<&str>); 4] = [
    (
        "AsyncLogger + Kafka",
        "AsyncKafkaLogger",
        "AsyncKafka",
        Some("bench-async"),
    ),
    (
        "Kafka (syncSend)",
        "KafkaLogger",
        "SyncKafka",
        Some("bench-sync"),
    ),
    ("AsyncLogger + File", "AsyncFileLogger", "AsyncFile", None),
    ("File", "FileLogger", "File", None),
];

/// The configuration of the four rows: the sample's pattern and File appender (each row its own
/// file), the two Kafka appenders on `servers`.
pub fn config(dir: &str, servers: &str) -> String {
    let pattern = "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %pid %t %C.%M:%L - %msg %ex{full} %n";
    let kafka = |name: &str, topic: &str, sync: bool| {
        format!(
            r#"<Kafka name="{name}" topic="{topic}" syncSend="{sync}">
            <PatternLayout pattern="{pattern}"/>
            <Property name="bootstrap.servers">{servers}</Property>
            <Property name="timeout.ms">60000</Property>
        </Kafka>"#
        )
    };
    let file = |name: &str| {
        format!(
            r#"<File name="{name}" fileName="{dir}/kafka-bench-{name}.log"><PatternLayout pattern="{pattern}"/></File>"#
        )
    };
    let logger = |element: &str, name: &str, appender: &str| {
        format!(
            r#"<{element} name="{name}" level="debug" additivity="false"><AppenderRef ref="{appender}"/></{element}>"#
        )
    };
    format!(
        r#"<Configuration status="warn">
    <Appenders>
        {async_kafka}
        {sync_kafka}
        {async_file}
        {file}
    </Appenders>
    <Loggers>
        {l1}
        {l2}
        {l3}
        {l4}
        <Root level="off"/>
    </Loggers>
</Configuration>
"#,
        async_kafka = kafka("AsyncKafka", "bench-async", false),
        sync_kafka = kafka("SyncKafka", "bench-sync", true),
        async_file = file("AsyncFile"),
        file = file("File"),
        l1 = logger("AsyncLogger", "AsyncKafkaLogger", "AsyncKafka"),
        l2 = logger("Logger", "KafkaLogger", "SyncKafka"),
        l3 = logger("AsyncLogger", "AsyncFileLogger", "AsyncFile"),
        l4 = logger("Logger", "FileLogger", "File"),
    )
}

#[cfg(feature = "kafka")]
pub use enabled::run;

/// Without the `kafka` feature: says how to get it.
#[cfg(not(feature = "kafka"))]
pub fn run(_options: &crate::args::Options) -> Result<(), String> {
    Err("--kafka needs the kafka feature: cargo run --release -p l4rs-bench --features kafka -- --kafka".into())
}

#[cfg(feature = "kafka")]
mod enabled {
    use std::time::{Duration, Instant};

    use l4rs_kafka::testing::{require_kafka_tools, Broker};

    use super::{config, ROWS};
    use crate::args::Options;
    use crate::ours::L4rsWorkload;
    use crate::progress::Progress;
    use crate::runner;

    /// Runs the four rows at each `--threads` count and prints their table.
    pub fn run(options: &Options) -> Result<(), String> {
        if !require_kafka_tools("l4rs-bench --kafka") {
            return Err(
                "--kafka needs the tansu broker and kafka-python (.ci/setup/30-kafka.sh)".into(),
            );
        }
        let dir = crate::bench::log_dir(options)?;
        let broker = Broker::start().map_err(|e| format!("starting the broker: {e}"))?;
        for (_, _, _, topic) in ROWS {
            if let Some(topic) = topic {
                broker
                    .create_topic(topic, 1)
                    .map_err(|e| format!("creating {topic}: {e}"))?;
            }
        }
        let path = crate::bench::output_base().join("log4j2-kafka.xml");
        std::fs::create_dir_all(crate::bench::output_base()).map_err(|e| e.to_string())?;
        std::fs::write(
            &path,
            config(&dir.display().to_string(), &broker.bootstrap_servers()),
        )
        .map_err(|e| format!("{}: {e}", path.display()))?;
        l4rs::init_with_file(&path).map_err(|e| e.to_string())?;
        let progress = Progress::hidden();
        println!(
            "| threads | row | ops/ms | bytes/event | alloc B/op (producers) | alloc B/op (background) | events | received by the broker | drain after the window |"
        );
        println!("|---|---|---|---|---|---|---|---|---|");
        let mut received_so_far = [0usize; 2];
        let mut bytes_so_far = [0u64; 2];
        for &threads in &options.threads {
            for (label, logger, appender, topic) in ROWS {
                let file = dir.join(format!("kafka-bench-{appender}.log"));
                let file_before = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
                let workload = L4rsWorkload::new(logger);
                let drain_started = std::cell::Cell::new(None);
                let sample = runner::run(
                    &workload,
                    threads,
                    options.warmup,
                    options.measure,
                    &progress,
                    &|| {
                        drain_started.set(Some(Instant::now()));
                        l4rs::flush();
                    },
                );
                let drain = drain_started.get().map_or(Duration::ZERO, |t| t.elapsed());
                let (bytes, received) = match topic {
                    Some(topic) => {
                        let index = usize::from(topic == "bench-sync");
                        let expected = received_so_far[index] + sample.events as usize;
                        let (count, bytes) = broker
                            .count(topic, expected, Duration::from_secs(300))
                            .map_err(|e| format!("reading {topic} back: {e}"))?;
                        let new = count.saturating_sub(received_so_far[index]);
                        // The topic also holds the records of the earlier thread counts.
                        let bytes = bytes - bytes_so_far[index];
                        received_so_far[index] = count;
                        bytes_so_far[index] += bytes;
                        (bytes, Some(new as u64))
                    }
                    None => (
                        std::fs::metadata(&file)
                            .map(|m| m.len())
                            .unwrap_or(0)
                            .saturating_sub(file_before),
                        None,
                    ),
                };
                let ops_per_ms = sample.ops as f64 / (sample.seconds * 1000.0);
                let per_op = |b: u64| b as f64 / sample.ops.max(1) as f64;
                println!(
                    "| {threads} | {label} | {ops_per_ms:.0} | {:.0} | {:.1} | {:.1} | {} | {} | {:.0} ms |",
                    bytes as f64 / sample.events.max(1) as f64,
                    per_op(sample.alloc.bytes),
                    per_op(sample.background_alloc.bytes),
                    sample.events,
                    received.map_or("(file)".to_string(), |n| {
                        if n == sample.events {
                            format!("{n} (all)")
                        } else {
                            format!("{n} (**{} missing**)", sample.events as i64 - n as i64)
                        }
                    }),
                    drain.as_secs_f64() * 1000.0,
                );
                if let Some(n) = received {
                    if n != sample.events {
                        return Err(format!(
                            "{label}: the broker received {n} records of {} events",
                            sample.events
                        ));
                    }
                }
            }
        }
        l4rs::shutdown();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rows_configuration_loads_cleanly_with_one_logger_per_row() {
        let xml = config("/tmp/l4rs-kafka-bench", "127.0.0.1:9092");
        let configuration = l4rs::config::load_str(&xml, None).expect("well-formed");
        let errors: Vec<_> = configuration
            .diagnostics
            .iter()
            .filter(|d| d.severity == l4rs::config::Severity::Error)
            .map(|d| d.message.clone())
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        for (_, logger, appender, _) in ROWS {
            let route = crate::ours::route(&configuration, logger);
            assert!(
                route.appenders.iter().any(|name| name == appender),
                "{logger} -> {:?}",
                route.appenders
            );
        }
    }
}
