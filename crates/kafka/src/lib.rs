//! l4rs's `<Kafka>` appender: log4j2 2.24's KafkaAppender on librdkafka.
//!
//! Each event is formatted by the appender's layout into the calling thread's reused buffers
//! (no lock held) and handed to librdkafka, which copies it into its own queue; the record's
//! value is the layout's bytes, its key the `key` attribute (resolved for every event when it
//! holds a lookup), its timestamp the event's time with `sendEventTimestamp`.
//!
//! * `syncSend="true"` (the default): the call returns once the broker acknowledged the
//!   record (as `acks` asks), or fails after the manager's timeout (`timeout.ms`, else
//!   `request.timeout.ms`, else 30 s), after `retryCount` more tries.
//! * `syncSend="false"`: the call returns once librdkafka queued the record; delivery failures
//!   are reported through the status logger as log4j2's callback reports them. Stopping the
//!   appender flushes the queue for at most the timeout and reports how many records could not
//!   be delivered.
//!
//! Producer properties use the Java client's names (see [`properties`](crate) for the mapping).
//! librdkafka's own log lines go to the status logger, never through l4rs's loggers, and events
//! of loggers named `rdkafka…` are refused as log4j2 refuses the Kafka client's own, so the
//! appender cannot feed itself.

use std::cell::RefCell;
use std::ffi::CString;
use std::os::raw::c_void;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use l4rs_config::model::KafkaSpec;
use l4rs_core::status::ReportLimit;
use l4rs_core::{status, AppendError, Appender, Interpolator, Layout, Level, LogEvent};
use rdkafka::config::FromClientConfigAndContext;
use rdkafka::producer::{BaseProducer, Producer};
use rdkafka::types::RDKafkaErrorCode;
use rdkafka_sys as rdsys;

mod delivery;
mod poller;
mod properties;

use delivery::{Context, Waiter};

/// Logger-name prefixes of the client's own events (log4j2 refuses `org.apache.kafka.clients`
/// and `org.apache.kafka.common`): rdkafka logs through the `log` crate under `rdkafka::…`.
const CLIENT_LOGGERS: &[&str] = &["rdkafka", "librdkafka"];
/// How long a synchronous send waits past the timeout for librdkafka's own verdict: it times
/// records out on a timer of its own, about once a second.
const REPORT_GRACE: Duration = Duration::from_millis(1500);

thread_local! {
    /// This thread's waiter for synchronous sends (see [`Waiter`]).
    static WAITER: RefCell<Option<Arc<Waiter>>> = const { RefCell::new(None) };
}

/// The record key.
enum Key {
    None,
    Fixed(Vec<u8>),
    /// Resolved for every event (log4j2: a key holding `${` goes through the substitutor).
    Lookup(String, Arc<dyn Interpolator>),
}

/// The appender behind `<Kafka>`.
pub struct KafkaAppender {
    name: String,
    topic: String,
    /// `topic` for librdkafka, made once so that a send allocates nothing.
    topic_c: CString,
    key: Key,
    sync_send: bool,
    send_event_timestamp: bool,
    retry_count: u32,
    timeout: Duration,
    max_block: Duration,
    layout: Arc<dyn Layout>,
    /// Declared before `producer`, so that the poll thread ends before the producer goes.
    _poller: poller::Poller,
    producer: BaseProducer<Context>,
    stopped: AtomicBool,
    /// Retries of a failed send (DEBUG): one line a second, with a count.
    retries: ReportLimit,
    /// Set once an event of the Kafka client's own loggers was refused: log4j2 warns for every
    /// such event, l4rs once.
    refused_client_event: AtomicBool,
}

/// Why the appender could not be built; the message is the status line to print.
#[derive(Debug)]
pub struct KafkaBuildError(pub String);

impl std::fmt::Display for KafkaBuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KafkaBuildError {}

impl KafkaAppender {
    /// Builds the appender `name` of `spec`: maps the producer properties (unknown names are
    /// reported as warnings, bad values as errors that stop the build) and starts the producer.
    /// No connection is made yet: a broker that is down is found out by the first sends.
    pub fn new(
        name: &str,
        spec: &KafkaSpec,
        layout: Arc<dyn Layout>,
        interpolator: Arc<dyn Interpolator>,
    ) -> Result<KafkaAppender, KafkaBuildError> {
        let settings = properties::producer_settings(&spec.properties, spec.sync_send);
        for (error, message) in &settings.reports {
            let level = if *error { Level::ERROR } else { Level::WARN };
            status::log(level, format_args!("KafkaAppender {name}: {message}"));
        }
        if settings.refused() {
            return Err(KafkaBuildError(format!(
                "Could not create the Kafka producer of appender {name}: fix the property values above; the appender is not created"
            )));
        }
        if let Err(reason) = validate_topic(&spec.topic) {
            return Err(KafkaBuildError(format!(
                "KafkaAppender {name}: org.apache.kafka.common.errors.InvalidTopicException: Topic name \"{}\" is illegal, {reason}; the appender is not created",
                spec.topic
            )));
        }
        let topic_c = CString::new(spec.topic.as_str()).expect("validated: no NUL");
        let producer = BaseProducer::from_config_and_context(
            &settings.config,
            Context::new(name, &spec.topic, settings.metadata_wait),
        )
        .map_err(|error| {
            KafkaBuildError(format!(
                "Could not create the Kafka producer of appender {name}: {error}"
            ))
        })?;
        // SAFETY: the poller is stopped (dropped) before the producer: see the field order.
        let poller = unsafe {
            poller::Poller::start(
                producer.client().native_ptr(),
                std::sync::Arc::clone(producer.context()),
            )
        }
        .map_err(|error| {
            KafkaBuildError(format!(
                "Could not start the Kafka poll thread of appender {name}: {error}"
            ))
        })?;
        let key = match &spec.key {
            None => Key::None,
            Some(text) if text.contains("${") => Key::Lookup(text.clone(), interpolator),
            Some(text) => Key::Fixed(text.as_bytes().to_vec()),
        };
        Ok(KafkaAppender {
            name: name.to_string(),
            topic: spec.topic.clone(),
            topic_c,
            key,
            sync_send: spec.sync_send,
            send_event_timestamp: spec.send_event_timestamp,
            retry_count: spec.retry_count,
            timeout: settings.timeout,
            max_block: settings.max_block,
            layout,
            _poller: poller,
            producer,
            stopped: AtomicBool::new(false),
            retries: ReportLimit::per_second(),
            refused_client_event: AtomicBool::new(false),
        })
    }

    /// The topic records go to.
    pub fn topic(&self) -> &str {
        &self.topic
    }

    /// Records librdkafka still holds (queued or awaiting acknowledgement).
    pub fn in_flight(&self) -> usize {
        usize::try_from(self.producer.in_flight_count()).unwrap_or(0)
    }

    /// Waits, at most `timeout`, until librdkafka holds no record (each was acknowledged or
    /// given up, and its report served by the poll thread). rdkafka's `flush` would poll the
    /// queue itself, on this thread and with its allocating event handling.
    fn wait_until_flushed(&self, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        let native = self.producer.client().native_ptr();
        loop {
            // SAFETY: `native` is the live producer; a zero timeout only checks the queue.
            let done = unsafe { rdsys::rd_kafka_flush(native, 0) }
                == rdsys::rd_kafka_resp_err_t::RD_KAFKA_RESP_ERR_NO_ERROR;
            if done || Instant::now() >= deadline {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// One send of `value` (log4j2's `tryAppend`): queues the record and, with `syncSend`,
    /// waits for its acknowledgement.
    fn try_send(&self, key: Option<&[u8]>, value: &[u8], timestamp: i64) -> Result<(), String> {
        let waiter = if self.sync_send {
            let waiter = WAITER
                .try_with(|slot| Arc::clone(slot.borrow_mut().get_or_insert_with(Default::default)))
                .unwrap_or_default();
            waiter.reset();
            Some(waiter)
        } else {
            None
        };
        self.enqueue(key, value, timestamp, waiter.as_ref())?;
        let Some(waiter) = waiter else {
            return Ok(());
        };
        match waiter.wait(self.timeout + REPORT_GRACE) {
            Some(result) => result,
            None => {
                // The report may still come; this thread's next send needs a fresh waiter.
                let _ = WAITER.try_with(|slot| slot.borrow_mut().take());
                Err(format!(
                    "java.util.concurrent.TimeoutException: no acknowledgement within {} ms",
                    self.timeout.as_millis()
                ))
            }
        }
    }

    /// Hands the record to librdkafka, waiting (at most `max.block.ms`, as the Java client)
    /// while its queue is full.
    fn enqueue(
        &self,
        key: Option<&[u8]>,
        value: &[u8],
        timestamp: i64,
        waiter: Option<&Arc<Waiter>>,
    ) -> Result<(), String> {
        let mut deadline = None;
        loop {
            let opaque = delivery::opaque(waiter);
            match self.produce(key, value, timestamp, opaque) {
                Ok(()) => return Ok(()),
                Err(code) => {
                    delivery::reclaim(opaque);
                    if code != RDKafkaErrorCode::QueueFull {
                        return Err(self.producer.context().failure(code));
                    }
                    let deadline = *deadline.get_or_insert_with(|| Instant::now() + self.max_block);
                    if Instant::now() >= deadline {
                        return Err(format!(
                            "org.apache.kafka.common.errors.TimeoutException: the producer's queue stayed full for {} ms (max.block.ms)",
                            self.max_block.as_millis()
                        ));
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
        }
    }

    /// `rd_kafka_produceva` with the record's parts: unlike rdkafka's `send`, nothing is
    /// allocated on this side (librdkafka copies the key and value into its own memory).
    fn produce(
        &self,
        key: Option<&[u8]>,
        value: &[u8],
        timestamp: i64,
        opaque: usize,
    ) -> Result<(), RDKafkaErrorCode> {
        use rdsys::rd_kafka_vtype_t as V;
        let vu =
            |vtype: V, u: rdsys::rd_kafka_vu_s__bindgen_ty_1| rdsys::rd_kafka_vu_t { vtype, u };
        let mem = |bytes: Option<&[u8]>| rdsys::rd_kafka_vu_s__bindgen_ty_1 {
            mem: rdsys::rd_kafka_vu_s__bindgen_ty_1__bindgen_ty_1 {
                ptr: bytes.map_or(std::ptr::null_mut(), |b| b.as_ptr() as *mut c_void),
                size: bytes.map_or(0, <[u8]>::len),
            },
        };
        let values = [
            vu(
                V::RD_KAFKA_VTYPE_TOPIC,
                rdsys::rd_kafka_vu_s__bindgen_ty_1 {
                    cstr: self.topic_c.as_ptr(),
                },
            ),
            vu(
                V::RD_KAFKA_VTYPE_MSGFLAGS,
                rdsys::rd_kafka_vu_s__bindgen_ty_1 {
                    i: rdsys::RD_KAFKA_MSG_F_COPY,
                },
            ),
            vu(V::RD_KAFKA_VTYPE_VALUE, mem(Some(value))),
            vu(V::RD_KAFKA_VTYPE_KEY, mem(key)),
            vu(
                V::RD_KAFKA_VTYPE_OPAQUE,
                rdsys::rd_kafka_vu_s__bindgen_ty_1 {
                    ptr: opaque as *mut c_void,
                },
            ),
            vu(
                V::RD_KAFKA_VTYPE_TIMESTAMP,
                rdsys::rd_kafka_vu_s__bindgen_ty_1 { i64_: timestamp },
            ),
        ];
        let native = self.producer.client().native_ptr();
        // SAFETY: every pointer in `values` outlives the call (librdkafka copies the key and
        // value, `RD_KAFKA_MSG_F_COPY`, and the topic name); `native` is the live producer.
        let error = unsafe { rdsys::rd_kafka_produceva(native, values.as_ptr(), values.len()) };
        if error.is_null() {
            return Ok(());
        }
        // SAFETY: `error` is the non-null error object librdkafka returned, destroyed once.
        let code = unsafe {
            let code = rdsys::rd_kafka_error_code(error);
            rdsys::rd_kafka_error_destroy(error);
            code
        };
        Err(code.into())
    }

    /// log4j2's `append`: `tryAppend`, then up to `retryCount` more tries, then the error.
    fn send(&self, event: &LogEvent<'_>, value: &[u8]) -> Result<(), String> {
        let resolved;
        let key = match &self.key {
            Key::None => None,
            Key::Fixed(bytes) => Some(bytes.as_slice()),
            Key::Lookup(text, interpolator) => {
                // The substitutor returns a new string: one allocation per event.
                resolved = interpolator.interpolate(text, Some(event));
                Some(resolved.as_bytes())
            }
        };
        // 0 lets librdkafka stamp the record with the time it is produced, as the Java client
        // stamps a record whose timestamp is null.
        let timestamp = if self.send_event_timestamp {
            event.timestamp.epoch_millis
        } else {
            0
        };
        let mut result = self.try_send(key, value, timestamp);
        let mut attempt = 0;
        while let Err(error) = &result {
            if attempt >= self.retry_count {
                break;
            }
            attempt += 1;
            self.retries.report(
                Level::DEBUG,
                format_args!(
                    "Unable to write to Kafka in appender [{}], retry attempt [{attempt}/{}]. {error}",
                    self.name, self.retry_count
                ),
            );
            result = self.try_send(key, value, timestamp);
        }
        result
    }
}

/// Kafka's rule for a topic name (`org.apache.kafka.common.internals.Topic.validate`), checked
/// when the appender is built: a broker refuses such a topic, so every send would fail.
fn validate_topic(topic: &str) -> Result<(), &'static str> {
    if topic.is_empty() {
        return Err("it can't be empty");
    }
    if topic == "." || topic == ".." {
        return Err("it can't be '.' or '..'");
    }
    if topic.len() > 249 {
        return Err("it can't be longer than 249 characters");
    }
    if !topic
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
    {
        return Err("it contains a character other than ASCII alphanumerics, '.', '_' and '-'");
    }
    Ok(())
}

impl Appender for KafkaAppender {
    fn name(&self) -> &str {
        &self.name
    }

    fn append(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        if self.stopped.load(Ordering::Acquire) {
            return Err(AppendError::NotStarted(self.name.clone()));
        }
        if CLIENT_LOGGERS
            .iter()
            .any(|prefix| event.logger_name.starts_with(prefix))
        {
            if !self.refused_client_event.swap(true, Ordering::Relaxed) {
                status::warn(format_args!(
                    "Recursive logging from [{}] for appender [{}].",
                    event.logger_name, self.name
                ));
            }
            return Ok(());
        }
        let result = l4rs_appenders::with_encoded(
            self.layout.as_ref(),
            |out| self.layout.format(event, out),
            |bytes| self.send(event, bytes),
        );
        let Err(error) = result else {
            return Ok(());
        };
        // log4j2's `error("Unable to write to Kafka in appender [" + name + "]", event, e)`:
        // the appender's error handler reports it, and throws it on when exceptions are not
        // ignored, where AppenderControl's handler is asked again. Both ask the one limit.
        Err(AppendError::Reported {
            message: format!("Unable to write to Kafka in appender [{}]", self.name),
            exception: error.to_string(),
        })
    }

    /// Waits (at most the timeout) until every queued record is acknowledged or given up.
    fn flush(&self) -> Result<(), AppendError> {
        self.wait_until_flushed(self.timeout);
        Ok(())
    }

    /// log4j2's `releaseSub`: flushes for at most the timeout, then reports the records that
    /// could not be delivered (those still queued are given up).
    fn stop(&self) {
        if self.stopped.swap(true, Ordering::AcqRel) {
            return;
        }
        self.wait_until_flushed(self.timeout);
        self.producer
            .context()
            .stopped
            .store(true, Ordering::Relaxed);
        let undelivered = self.in_flight();
        let failed = self
            .producer
            .context()
            .failed
            .load(std::sync::atomic::Ordering::Relaxed);
        if undelivered > 0 {
            status::error(format_args!(
                "KafkaAppender {}: {undelivered} records could not be delivered to topic {} within {} ms of stopping; they are lost",
                self.name,
                self.topic,
                self.timeout.as_millis()
            ));
        }
        status::debug(format_args!(
            "KafkaAppender {} stopped: {undelivered} records undelivered at shutdown, {failed} failed before",
            self.name
        ));
    }

    fn requires_location(&self) -> bool {
        self.layout.requires_location()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct MessageOnly;

    impl Layout for MessageOnly {
        fn format(&self, event: &LogEvent<'_>, out: &mut String) {
            use std::fmt::Write;
            let _ = write!(out, "{}", event.message);
        }
    }

    struct Verbatim;

    impl Interpolator for Verbatim {
        fn interpolate(&self, text: &str, _: Option<&LogEvent<'_>>) -> String {
            text.to_string()
        }
    }

    #[test]
    fn the_clients_own_events_are_refused_and_reported_once() {
        let spec = KafkaSpec {
            topic: "t".to_string(),
            key: None,
            sync_send: true,
            send_event_timestamp: false,
            retry_count: 0,
            // Never contacted: the refused events are not sent.
            properties: vec![("bootstrap.servers".to_string(), "127.0.0.1:9".to_string())],
        };
        let appender =
            KafkaAppender::new("kafka", &spec, Arc::new(MessageOnly), Arc::new(Verbatim))
                .expect("built without a broker");
        let ((), records) = status::capture(|| {
            for _ in 0..3 {
                let event = LogEvent::new(
                    "rdkafka::client",
                    Level::WARN,
                    l4rs_core::Message::Text("m"),
                );
                assert!(appender.append(&event).is_ok());
            }
        });
        let messages: Vec<&str> = records.iter().map(|r| r.message.as_str()).collect();
        assert_eq!(
            messages,
            ["Recursive logging from [rdkafka::client] for appender [kafka]."]
        );
    }

    /// Names each side of every clause of the rule.
    #[test]
    fn topic_names_follow_kafkas_rule() {
        for valid in [
            "valid",
            "TOPIC",
            "nAmEs",
            "ar6",
            "VaL1d",
            "_0-9_.",
            "...",
            "a".repeat(249).as_str(),
        ] {
            assert_eq!(validate_topic(valid), Ok(()), "{valid}");
        }
        for invalid in [
            "",
            ".",
            "..",
            "foo bar",
            "..\\",
            "foo:bar",
            "foo=bar",
            "a".repeat(250).as_str(),
        ] {
            assert!(validate_topic(invalid).is_err(), "{invalid}");
        }
    }
}
