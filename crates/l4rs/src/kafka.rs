//! `<Kafka>`: built with l4rs-kafka when the `kafka` feature is on; without it, the
//! configuration still loads and the appender is reported as not available.

use std::sync::Arc;

use l4rs_config::model::{AppenderSpec, KafkaSpec};
use l4rs_core::{Appender, Interpolator, Layout};

/// Builds the Kafka appender `spec` describes; the error is the status line to print.
#[cfg(feature = "kafka")]
pub(crate) fn build_kafka_appender(
    spec: &AppenderSpec,
    kafka: &KafkaSpec,
    layout: Arc<dyn Layout>,
    interpolator: Arc<dyn Interpolator>,
) -> Result<Arc<dyn Appender>, String> {
    l4rs_kafka::KafkaAppender::new(&spec.name, kafka, layout, interpolator)
        .map(|appender| Arc::new(appender) as Arc<dyn Appender>)
        .map_err(|error| error.to_string())
}

/// Without the `kafka` feature: the appender is not created, and the message says how to get it.
#[cfg(not(feature = "kafka"))]
pub(crate) fn build_kafka_appender(
    spec: &AppenderSpec,
    _kafka: &KafkaSpec,
    _layout: Arc<dyn Layout>,
    _interpolator: Arc<dyn Interpolator>,
) -> Result<Arc<dyn Appender>, String> {
    Err(format!(
        "KafkaAppender {} is not created: this program was built without l4rs's `kafka` feature (help: add features = [\"kafka\"] to the l4rs dependency and install librdkafka, e.g. Debian's librdkafka-dev)",
        spec.name
    ))
}
