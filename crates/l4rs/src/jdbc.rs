//! `<JDBC>`: built with l4rs-jdbc when the `jdbc` feature is on; without it, the
//! configuration still loads and the appender is reported as not available.

use std::sync::Arc;

use l4rs_config::model::{AppenderSpec, JdbcColumnValue, JdbcSpec};
use l4rs_config::Configuration;
use l4rs_core::{Appender, Layout};

/// The layouts of `jdbc`'s text columns, in column order (each column's own: a `pattern`
/// is a PatternLayout that does not append the exception).
pub(crate) fn column_layouts(
    jdbc: &JdbcSpec,
    configuration: &Configuration,
    console: bool,
    uses_nano_clock: &mut bool,
) -> Vec<Arc<dyn Layout>> {
    jdbc.columns
        .iter()
        .filter_map(|column| match &column.value {
            JdbcColumnValue::Text { layout, .. } => {
                let (layout, uses_nano_time) =
                    crate::context::build_layout(Some(layout), configuration, console);
                *uses_nano_clock |= uses_nano_time;
                Some(layout)
            }
            _ => None,
        })
        .collect()
}

/// Builds the JDBC appender `spec` describes; the error is the status line to print.
#[cfg(feature = "jdbc")]
pub(crate) fn build_jdbc_appender(
    spec: &AppenderSpec,
    jdbc: &JdbcSpec,
    layouts: Vec<Arc<dyn Layout>>,
) -> Result<Arc<dyn Appender>, String> {
    l4rs_jdbc::JdbcAppender::new(&spec.name, jdbc, layouts)
        .map(|appender| Arc::new(appender) as Arc<dyn Appender>)
}

/// Without the `jdbc` feature: the appender is not created, and the message says how to get it.
#[cfg(not(feature = "jdbc"))]
pub(crate) fn build_jdbc_appender(
    spec: &AppenderSpec,
    _jdbc: &JdbcSpec,
    _layouts: Vec<Arc<dyn Layout>>,
) -> Result<Arc<dyn Appender>, String> {
    Err(format!(
        "JdbcAppender {} is not created: this program was built without l4rs's `jdbc` feature (help: add features = [\"jdbc\"] to the l4rs dependency)",
        spec.name
    ))
}
