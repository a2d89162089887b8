//! `<Failover>`: log4j2's FailoverAppender, which hands an event the primary appender could not
//! write to the next of its failovers.

use super::appenders::delegating_appender;
use super::binder::{parse_java_integer, Binder};
use super::filters::{is_filter, FilterSlot};
use super::loggers::build_appender_ref;
use super::node::PNode;
use crate::model::{AppenderKind, AppenderSpec, FailoverSpec};
use crate::plugins::Plugin;

/// `FailoverAppender.DEFAULT_INTERVAL_SECONDS`.
const DEFAULT_RETRY_INTERVAL_SECONDS: u64 = 60;

/// Builds one `<Failover>` element; `None` (after log4j2's message) when it cannot be built.
pub(crate) fn build_failover_appender(
    binder: &mut Binder,
    mut node: PNode,
) -> Option<AppenderSpec> {
    let inserted = node.attrs.len();
    let mut filter = FilterSlot::new();
    let mut failovers: Option<Vec<String>> = None;
    for child in std::mem::take(&mut node.children) {
        if child.canonical == Some(Plugin::Failovers) && failovers.is_none() {
            failovers = build_failovers(binder, child);
        } else if is_filter(&child) {
            filter.offer(binder, &node, child);
        } else {
            binder.refuse_child(&mut node, child);
        }
    }
    let name = binder.string(&mut node, &["name"]);
    let primary = binder.string(&mut node, &["primary"]);
    let retry_names = ["retryIntervalSeconds", "retryInterval"];
    let retry_position = node.attr_position(&retry_names);
    let retry = binder.string(&mut node, &retry_names);
    let ignore_exceptions = binder.parsed_boolean(&mut node, &["ignoreExceptions"], true);
    binder.finish(&node, inserted);
    let Some(name) = name else {
        binder.error(&node, "A name for the Appender must be specified");
        return None;
    };
    let Some(primary) = primary else {
        binder.error_help(
            &node,
            "A primary Appender must be specified",
            format!("add primary=\"…\" naming the appender {name} writes to first; the appender is not created"),
        );
        return None;
    };
    let Some(failovers) = failovers.filter(|names| !names.is_empty()) else {
        binder.error_help(
            &node,
            "At least one failover Appender must be specified",
            "add <Failovers><AppenderRef ref=\"…\"/></Failovers>; the appender is not created",
        );
        return None;
    };
    let retry_interval_seconds = match retry {
        None => DEFAULT_RETRY_INTERVAL_SECONDS,
        Some(text) => match parse_java_integer(text.trim()).filter(|n| i32::try_from(*n).is_ok()) {
            Some(seconds) if seconds >= 0 => seconds as u64,
            Some(_) => {
                binder.report(
                    crate::Severity::Warning,
                    format!("Interval {text} is less than zero. Using default"),
                    Some(&node),
                    retry_position,
                    None,
                );
                DEFAULT_RETRY_INTERVAL_SECONDS
            }
            None => {
                binder.report(
                    crate::Severity::Error,
                    format!(
                        "Could not parse \"{text}\" as an integer,  using default value {DEFAULT_RETRY_INTERVAL_SECONDS}: java.lang.NumberFormatException: For input string: \"{text}\""
                    ),
                    Some(&node),
                    retry_position,
                    Some("retryIntervalSeconds is a whole number of seconds".to_string()),
                );
                DEFAULT_RETRY_INTERVAL_SECONDS
            }
        },
    };
    let kind = AppenderKind::Failover(FailoverSpec {
        primary,
        failovers,
        retry_interval_seconds,
    });
    let appender = delegating_appender(name, ignore_exceptions, filter, kind, &node);
    Some(appender)
}

/// `<Failovers>`: the names its `<AppenderRef>` children give (their levels and filters are
/// not used, as in log4j2). `None` after log4j2's error when it has none.
fn build_failovers(binder: &mut Binder, mut node: PNode) -> Option<Vec<String>> {
    let inserted = node.attrs.len();
    let mut names = Vec::new();
    let mut failed = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if child.canonical == Some(Plugin::AppenderRef) {
            if let Some(reference) = binder.build_child(child, &mut failed, build_appender_ref) {
                names.push(reference.appender);
            }
        } else {
            binder.unusable_child(&node, &child);
        }
    }
    binder.null_children(&node, &failed);
    binder.finish(&node, inserted);
    if names.is_empty() && failed.is_empty() {
        binder.error(&node, "failovers must contain an appender reference");
        return None;
    }
    Some(names)
}
