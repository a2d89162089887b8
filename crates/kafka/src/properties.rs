//! The `<Property>` children of `<Kafka>`: Java producer names mapped onto librdkafka's.
//!
//! Most Java producer properties have the same name and meaning in librdkafka
//! (`bootstrap.servers`, `acks`, `linger.ms`, `batch.size`, `compression.type`, `client.id`,
//! `retries`, `request.timeout.ms`, `delivery.timeout.ms`, `enable.idempotence`,
//! `security.protocol`, `sasl.mechanism`, `ssl.keystore.location`, …) and pass unchanged. The
//! few that differ are renamed or converted here; those only the Java client or log4j2 reads are
//! taken out; librdkafka judges the rest, one property at a time, so that an unknown name is a
//! warning (as the Java client's `isn't a known config`) and a bad value an error naming it.

use std::time::Duration;

use rdkafka::config::ClientConfig;
use rdkafka::error::KafkaError;

/// log4j2's `KafkaManager.DEFAULT_TIMEOUT_MILLIS`.
const DEFAULT_TIMEOUT_MS: u64 = 30_000;
/// The Java producer's default `max.block.ms`: how long a send waits for room in the queue.
const DEFAULT_MAX_BLOCK_MS: u64 = 60_000;

/// What the properties configure, beside librdkafka's own configuration.
#[derive(Debug)]
pub(crate) struct ProducerSettings {
    /// The producer configuration for librdkafka.
    pub(crate) config: ClientConfig,
    /// log4j2's manager timeout: `timeout.ms`, else `request.timeout.ms`, else 30 s. A
    /// synchronous send waits this long for its acknowledgement; stopping flushes for this long.
    pub(crate) timeout: Duration,
    /// Java's `max.block.ms`: how long a send waits while librdkafka's queue is full.
    pub(crate) max_block: Duration,
    /// How long librdkafka waits for a topic the broker does not report before it fails the
    /// records queued for it (`topic.metadata.propagation.max.ms`; see [`apply_defaults`]).
    pub(crate) metadata_wait: Duration,
    /// What was reported while mapping: (is an error, message). An error means the producer
    /// must not be built.
    pub(crate) reports: Vec<(bool, String)>,
}

impl ProducerSettings {
    /// True when a property was refused (a bad value): the appender is not created.
    pub(crate) fn refused(&self) -> bool {
        self.reports.iter().any(|(error, _)| *error)
    }
}

/// Maps `properties` (Java names, in document order) onto a librdkafka configuration.
/// `sync_send` decides two defaults: see [`apply_defaults`].
pub(crate) fn producer_settings(
    properties: &[(String, String)],
    sync_send: bool,
) -> ProducerSettings {
    let mut settings = ProducerSettings {
        config: ClientConfig::new(),
        timeout: Duration::from_millis(DEFAULT_TIMEOUT_MS),
        max_block: Duration::from_millis(DEFAULT_MAX_BLOCK_MS),
        metadata_wait: Duration::from_millis(DEFAULT_MAX_BLOCK_MS),
        reports: Vec::new(),
    };
    let lookup = |name: &str| {
        properties
            .iter()
            .rev()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.trim())
    };
    // `Integers.parseInt`: log4j2 fails the manager on a value that is not a number; here the
    // default stays and the error says so.
    let timeout_source = ["timeout.ms", "request.timeout.ms"]
        .into_iter()
        .find_map(|name| lookup(name).map(|value| (name, value)));
    if let Some((name, value)) = timeout_source {
        match value.parse::<u64>() {
            Ok(ms) => settings.timeout = Duration::from_millis(ms),
            Err(_) => settings.reports.push((
                true,
                format!(
                    "Invalid value {value} for configuration {name}: Not a number of milliseconds"
                ),
            )),
        }
    }
    if let Some(value) = lookup("max.block.ms") {
        match value.parse::<u64>() {
            Ok(ms) => settings.max_block = Duration::from_millis(ms),
            Err(_) => settings.reports.push((
                true,
                format!("Invalid value {value} for configuration max.block.ms: Not a number of milliseconds"),
            )),
        }
    }
    for (name, value) in properties {
        match map_property(name, value) {
            Mapped::Set(key, value) => set_checked(&mut settings, name, &key, &value),
            Mapped::Consumed => {}
            Mapped::Unsupported(reason) => settings.reports.push((
                false,
                format!(
                    "The configuration '{name}' was supplied but isn't a known config. {reason}"
                ),
            )),
        }
    }
    apply_defaults(&mut settings, properties, sync_send);
    settings
}

/// What becomes of one Java property.
enum Mapped {
    /// Set this librdkafka property to this value.
    Set(String, String),
    /// Read by log4j2 or by the appender itself, not by the client.
    Consumed,
    /// The Java client knows it, librdkafka has nothing like it: warned about and ignored.
    Unsupported(&'static str),
}

/// The librdkafka equivalent of one Java producer property.
fn map_property(name: &str, value: &str) -> Mapped {
    let set = |key: &str, value: &str| Mapped::Set(key.to_string(), value.to_string());
    match name {
        // log4j2's own timeout, and the Java-only blocking bound, both read above.
        "timeout.ms" | "max.block.ms" => Mapped::Consumed,
        // The appender always sends bytes: log4j2 sets the byte-array serializers itself.
        "key.serializer" | "value.serializer" => Mapped::Consumed,
        "buffer.memory" => match value.trim().parse::<u64>() {
            // Bytes in Java, kilobytes in librdkafka (at least 1).
            Ok(bytes) => set(
                "queue.buffering.max.kbytes",
                &(bytes / 1024).max(1).to_string(),
            ),
            Err(_) => set("queue.buffering.max.kbytes", value),
        },
        "max.request.size" => set("message.max.bytes", value),
        "receive.buffer.bytes" => set("socket.receive.buffer.bytes", value),
        "send.buffer.bytes" => set("socket.send.buffer.bytes", value),
        // librdkafka reads PEM files (or a PKCS#12 keystore), not Java KeyStores.
        "ssl.truststore.location" => set("ssl.ca.location", value),
        "ssl.truststore.password" | "ssl.truststore.type" | "ssl.keystore.type" => {
            Mapped::Unsupported("librdkafka reads PEM certificates (ssl.ca.location) and PKCS#12 keystores; it has no password or type for them")
        }
        "sasl.jaas.config" => Mapped::Unsupported(
            "librdkafka takes the credentials as sasl.username and sasl.password",
        ),
        "interceptor.classes" | "metric.reporters" | "partitioner.class" => {
            Mapped::Unsupported("Java classes cannot be loaded by librdkafka")
        }
        _ => set(name, value),
    }
}

/// Sets `key` to `value` after asking librdkafka whether it takes it: an unknown name is a
/// warning and is left out (the Java client's rule); a bad value is an error.
fn set_checked(settings: &mut ProducerSettings, name: &str, key: &str, value: &str) {
    let mut probe = ClientConfig::new();
    probe.set(key, value);
    match probe.create_native_config() {
        Ok(_) => {
            settings.config.set(key, value);
        }
        Err(KafkaError::ClientConfig(_, description, _, _))
            if description.starts_with("No such configuration property") =>
        {
            settings.reports.push((
                false,
                format!("The configuration '{name}' was supplied but isn't a known config."),
            ));
        }
        Err(error) => {
            let shown = if name == key {
                String::new()
            } else {
                format!(" (librdkafka's {key})")
            };
            settings.reports.push((
                true,
                format!(
                    "Invalid value {value} for configuration {name}{shown}: {}",
                    reason(&error)
                ),
            ));
        }
    }
}

/// librdkafka's description of a configuration error, without rdkafka's wrapping.
fn reason(error: &KafkaError) -> String {
    match error {
        KafkaError::ClientConfig(_, description, _, _) => description.clone(),
        other => other.to_string(),
    }
}

/// Defaults that differ from librdkafka's, each for a reason of log4j2's:
///
/// * `linger.ms` 0 unless set: log4j2 sets the Java producer's `batch.size` to 0, so a record
///   is sent as soon as it is produced rather than after librdkafka's 5 ms of lingering (a
///   synchronous send would otherwise wait those 5 ms every time);
/// * with `syncSend`, `message.timeout.ms` is the manager's timeout unless
///   `delivery.timeout.ms` / `message.timeout.ms` is set: a record whose send timed out is then
///   also given up by librdkafka, so it is not delivered later, behind the caller's back (and
///   behind a Failover appender that already wrote it elsewhere);
/// * `topic.metadata.propagation.max.ms` is `max.block.ms` unless set: the Java producer waits
///   that long for a topic's metadata before it fails the send with "Topic T not present in
///   metadata after N ms."; librdkafka's own wait (30 s) is the same bound under another name.
///   With `syncSend` it is cut to the timeout, so that a topic the broker does not have fails
///   the send as an unknown topic (naming it) rather than as a timed-out message.
fn apply_defaults(
    settings: &mut ProducerSettings,
    properties: &[(String, String)],
    sync_send: bool,
) {
    let given = |name: &str| properties.iter().any(|(key, _)| key == name);
    if !given("linger.ms") && !given("queue.buffering.max.ms") {
        settings.config.set("linger.ms", "0");
    }
    if sync_send && !given("delivery.timeout.ms") && !given("message.timeout.ms") {
        // librdkafka wants at least 1 ms, and at least `linger.ms`.
        let ms = settings.timeout.as_millis().clamp(1, i32::MAX as u128);
        settings.config.set("message.timeout.ms", ms.to_string());
    }
    let propagation = "topic.metadata.propagation.max.ms";
    match properties.iter().rev().find(|(key, _)| key == propagation) {
        Some((_, value)) => {
            if let Ok(ms) = value.trim().parse::<u64>() {
                settings.metadata_wait = Duration::from_millis(ms);
            }
        }
        None => {
            let mut wait = settings.max_block;
            if sync_send {
                wait = wait.min(settings.timeout);
            }
            // librdkafka takes 1 ms to about 24 days.
            let ms = wait.as_millis().clamp(1, i32::MAX as u128);
            settings.metadata_wait = Duration::from_millis(ms as u64);
            settings.config.set(propagation, ms.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn java_names_pass_or_are_renamed() {
        let settings = producer_settings(
            &props(&[
                ("bootstrap.servers", "127.0.0.1:1"),
                ("acks", "all"),
                ("compression.type", "gzip"),
                ("buffer.memory", "33554432"),
                ("max.request.size", "2000000"),
                (
                    "key.serializer",
                    "org.apache.kafka.common.serialization.ByteArraySerializer",
                ),
            ]),
            true,
        );
        assert!(settings.reports.is_empty(), "{:?}", settings.reports);
        assert_eq!(
            settings.config.get("bootstrap.servers"),
            Some("127.0.0.1:1")
        );
        assert_eq!(settings.config.get("acks"), Some("all"));
        assert_eq!(
            settings.config.get("queue.buffering.max.kbytes"),
            Some("32768")
        );
        assert_eq!(settings.config.get("message.max.bytes"), Some("2000000"));
        assert_eq!(settings.config.get("key.serializer"), None);
        assert_eq!(settings.config.get("linger.ms"), Some("0"));
        assert_eq!(settings.config.get("message.timeout.ms"), Some("30000"));
    }

    #[test]
    fn log4j2_reads_its_timeout_from_timeout_ms_then_request_timeout_ms() {
        let both = producer_settings(
            &props(&[("request.timeout.ms", "700"), ("timeout.ms", "1500")]),
            false,
        );
        assert_eq!(both.timeout, Duration::from_millis(1500));
        assert_eq!(both.config.get("request.timeout.ms"), Some("700"));
        // Asynchronous sends keep librdkafka's own message timeout.
        assert_eq!(both.config.get("message.timeout.ms"), None);
        let request = producer_settings(&props(&[("request.timeout.ms", "700")]), true);
        assert_eq!(request.timeout, Duration::from_millis(700));
        assert_eq!(request.config.get("message.timeout.ms"), Some("700"));
    }

    #[test]
    fn a_missing_topic_is_waited_for_as_long_as_max_block_ms() {
        // Asynchronous: Java's max.block.ms (60 s by default) bounds the wait for metadata.
        let default = producer_settings(&[], false);
        assert_eq!(
            default.metadata_wait,
            Duration::from_millis(DEFAULT_MAX_BLOCK_MS)
        );
        assert_eq!(
            default.config.get("topic.metadata.propagation.max.ms"),
            Some("60000")
        );
        let set = producer_settings(&props(&[("max.block.ms", "1200")]), false);
        assert_eq!(
            set.config.get("topic.metadata.propagation.max.ms"),
            Some("1200")
        );
        // Synchronous: never past the timeout, so the send fails as an unknown topic.
        let sync = producer_settings(&props(&[("timeout.ms", "900")]), true);
        assert_eq!(sync.metadata_wait, Duration::from_millis(900));
        assert_eq!(
            sync.config.get("topic.metadata.propagation.max.ms"),
            Some("900")
        );
        // librdkafka's own name wins.
        let own = producer_settings(
            &props(&[("topic.metadata.propagation.max.ms", "250")]),
            true,
        );
        assert_eq!(own.metadata_wait, Duration::from_millis(250));
        assert_eq!(
            own.config.get("topic.metadata.propagation.max.ms"),
            Some("250")
        );
    }

    #[test]
    fn an_unknown_name_is_a_warning_and_a_bad_value_an_error() {
        let settings = producer_settings(
            &props(&[
                ("no.such.thing", "1"),
                ("acks", "banana"),
                ("linger.ms", "soon"),
            ]),
            true,
        );
        assert!(settings.refused());
        let messages: Vec<&str> = settings.reports.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(
            settings.reports[0],
            (
                false,
                "The configuration 'no.such.thing' was supplied but isn't a known config."
                    .to_string()
            )
        );
        assert!(
            messages[1].starts_with("Invalid value banana for configuration acks: "),
            "{messages:?}"
        );
        assert!(
            messages[2].starts_with("Invalid value soon for configuration linger.ms: "),
            "{messages:?}"
        );
        assert_eq!(settings.config.get("no.such.thing"), None);
    }

    #[test]
    fn java_only_security_settings_are_explained() {
        let settings = producer_settings(
            &props(&[
                ("sasl.jaas.config", "x"),
                ("receive.buffer.bytes", "65536"),
                ("ssl.truststore.location", "/ca.pem"),
            ]),
            true,
        );
        assert!(
            settings.reports[0].1.contains("sasl.username"),
            "{:?}",
            settings.reports
        );
        assert_eq!(
            settings.config.get("socket.receive.buffer.bytes"),
            Some("65536")
        );
        // This build has no OpenSSL: librdkafka refuses the renamed property, and says so.
        assert!(
            settings.reports[1]
                .1
                .starts_with("Invalid value /ca.pem for configuration ssl.truststore.location (librdkafka's ssl.ca.location): "),
            "{:?}",
            settings.reports
        );
    }
}
