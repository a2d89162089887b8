//! What librdkafka reports back: delivery results (handed to the waiting caller of a
//! synchronous send, or reported for an asynchronous one) and the client's own log lines, which
//! go to the status logger rather than through l4rs's loggers (where they could reach this
//! appender again).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use l4rs_core::status::ReportLimit;
use l4rs_core::{status, Level};
use rdkafka::client::ClientContext;
use rdkafka::config::RDKafkaLogLevel;
use rdkafka::error::KafkaError;
use rdkafka::producer::{DeliveryResult, ProducerContext};
use rdkafka::types::RDKafkaErrorCode;

/// Where the caller of a synchronous send waits for its record's delivery report. One per
/// thread, reused: a send hands librdkafka a counted reference as the record's opaque pointer.
#[derive(Default)]
pub(crate) struct Waiter {
    /// The report: `None` until it arrives, then the error text of a failed delivery or
    /// `Ok(())`.
    report: Mutex<Option<Result<(), String>>>,
    arrived: Condvar,
}

impl Waiter {
    /// Clears the previous report before a new send.
    pub(crate) fn reset(&self) {
        *self.report.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// Waits at most `timeout` for the report; `None` when it did not come.
    pub(crate) fn wait(&self, timeout: Duration) -> Option<Result<(), String>> {
        let deadline = Instant::now() + timeout;
        let mut report = self.report.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(result) = report.take() {
                return Some(result);
            }
            let left = deadline.checked_duration_since(Instant::now())?;
            report = self
                .arrived
                .wait_timeout(report, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn deliver(&self, result: Result<(), String>) {
        *self.report.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        self.arrived.notify_all();
    }
}

/// Turns a waiter into the opaque pointer a record carries (0 for none).
pub(crate) fn opaque(waiter: Option<&Arc<Waiter>>) -> usize {
    waiter.map_or(0, |waiter| Arc::into_raw(Arc::clone(waiter)) as usize)
}

/// Takes back the reference [`opaque`] gave away, when librdkafka refused the record.
pub(crate) fn reclaim(opaque: usize) {
    if opaque != 0 {
        // SAFETY: `opaque` came from `Arc::into_raw` in `opaque` and was not handed back yet.
        drop(unsafe { Arc::from_raw(opaque as *const Waiter) });
    }
}

/// The producer's context: delivery reports and librdkafka's log.
pub(crate) struct Context {
    /// The appender's name, for messages.
    pub(crate) appender: String,
    /// The topic records go to, for messages.
    topic: String,
    /// How long librdkafka waits for a topic the broker does not report, for messages.
    metadata_wait: Duration,
    /// Asynchronous records that librdkafka gave up on.
    pub(crate) failed: AtomicU64,
    /// Delivery failures of asynchronous sends.
    pub(crate) failures: ReportLimit,
    /// librdkafka's log lines and errors.
    pub(crate) client_log: ReportLimit,
    /// Set when the appender stopped: librdkafka may still retry connections until the
    /// producer is dropped, which is no news any more.
    pub(crate) stopped: std::sync::atomic::AtomicBool,
}

impl Context {
    pub(crate) fn new(appender: &str, topic: &str, metadata_wait: Duration) -> Context {
        Context {
            appender: appender.to_string(),
            topic: topic.to_string(),
            metadata_wait,
            failed: AtomicU64::new(0),
            failures: ReportLimit::per_second(),
            client_log: ReportLimit::per_second(),
            stopped: std::sync::atomic::AtomicBool::new(false),
        }
    }
}

impl Context {
    /// The reason a send failed with `code`, as the status line says it. A topic the broker
    /// does not have (and does not create) is said in the Java producer's words, naming the
    /// topic, with the fix; other codes are librdkafka's description.
    pub(crate) fn failure(&self, code: RDKafkaErrorCode) -> String {
        match code {
            // librdkafka's verdict after `topic.metadata.propagation.max.ms` (and at once for
            // later records, until a metadata refresh finds the topic), or the broker's own.
            RDKafkaErrorCode::UnknownTopic | RDKafkaErrorCode::UnknownTopicOrPartition => {
                format!(
                    "org.apache.kafka.common.errors.TimeoutException: Topic {topic} not present in metadata after {ms} ms. \
                     The broker has no topic {topic} and does not create it: create the topic, or let the broker create it \
                     (its auto.create.topics.enable, and the producer property allow.auto.create.topics)",
                    topic = self.topic,
                    ms = self.metadata_wait.as_millis()
                )
            }
            code => code.to_string(),
        }
    }

    /// A delivery report: wakes the waiting caller of a synchronous send (a non-zero
    /// `opaque`), or reports a failed asynchronous one.
    pub(crate) fn report(&self, opaque: usize, outcome: Result<(), String>) {
        if opaque != 0 {
            // SAFETY: a non-zero opaque is a reference made by `opaque`, given back once here.
            let waiter = unsafe { Arc::from_raw(opaque as *const Waiter) };
            waiter.deliver(outcome);
        } else if let Err(error) = outcome {
            self.failed.fetch_add(1, Ordering::Relaxed);
            // log4j2's callback: `LOGGER.error("Unable to write to Kafka in appender [" + name + "]", e)`.
            self.failures.report(
                Level::ERROR,
                format_args!(
                    "Unable to write to Kafka in appender [{}] {error}",
                    self.appender
                ),
            );
        }
    }

    /// One of librdkafka's log lines, at its syslog level.
    pub(crate) fn client_line(&self, syslog_level: i32, facility: &str, text: &str) {
        if self.stopped.load(Ordering::Relaxed) {
            return;
        }
        let level = match syslog_level {
            i32::MIN..=3 => Level::ERROR,
            4 => Level::WARN,
            5 | 6 => Level::INFO,
            _ => Level::DEBUG,
        };
        if level.is_at_least_as_severe_as(status::level()) {
            self.client_log.report(
                level,
                format_args!(
                    "Kafka appender [{}]: librdkafka {facility}: {text}",
                    self.appender
                ),
            );
        }
    }

    /// One of librdkafka's errors (connection failures while the broker is down, …). The Java
    /// client logs them as WARN ("Broker may not be available"); the sends that fail because
    /// of them are the errors.
    pub(crate) fn client_error(&self, error: &str, reason: &str) {
        if self.stopped.load(Ordering::Relaxed) {
            return;
        }
        self.client_log.report(
            Level::WARN,
            format_args!("Kafka appender [{}]: {error}: {reason}", self.appender),
        );
    }
}

/// rdkafka calls these only while the producer is dropped (its final purge and poll); the
/// poll thread (`crate::poller`) serves everything before.
impl ClientContext for Context {
    fn log(&self, level: RDKafkaLogLevel, fac: &str, log_message: &str) {
        let syslog_level = match level {
            RDKafkaLogLevel::Emerg => 0,
            RDKafkaLogLevel::Alert => 1,
            RDKafkaLogLevel::Critical => 2,
            RDKafkaLogLevel::Error => 3,
            RDKafkaLogLevel::Warning => 4,
            RDKafkaLogLevel::Notice => 5,
            RDKafkaLogLevel::Info => 6,
            RDKafkaLogLevel::Debug => 7,
        };
        self.client_line(syslog_level, fac, log_message);
    }

    fn error(&self, error: KafkaError, reason: &str) {
        self.client_error(&error.to_string(), reason);
    }
}

impl ProducerContext for Context {
    type DeliveryOpaque = usize;

    fn delivery(&self, result: &DeliveryResult<'_>, opaque: usize) {
        let outcome = match result {
            Ok(_) => Ok(()),
            Err((error, _)) => Err(match error.rdkafka_error_code() {
                Some(code) => self.failure(code),
                None => error.to_string(),
            }),
        };
        self.report(opaque, outcome);
    }
}
