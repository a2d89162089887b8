//! `<Loggers>`, `<Logger>`, `<Root>` (and their async forms) and `<AppenderRef>`.

use super::binder::{Binder, MissingField};
use super::filters::{is_filter, FilterSlot};
use super::node::PNode;
use super::LastByName;
use crate::model::{AppenderRefSpec, LoggerSpec};
use crate::plugins::Plugin;

/// What `<Loggers>` produced.
pub(crate) enum LoggersOutcome {
    /// The root (if any) and the named loggers (later duplicates already replaced earlier ones).
    Built {
        root: Option<LoggerSpec>,
        loggers: Vec<LoggerSpec>,
    },
    /// Two roots: log4j2's Loggers factory throws and the whole element is lost.
    MultipleRoots,
}

pub(crate) fn build_loggers(binder: &mut Binder, mut node: PNode) -> LoggersOutcome {
    let inserted = node.attrs.len();
    let mut root = None;
    let mut roots = 0;
    let mut loggers = LastByName::new();
    let mut failed = Vec::new();
    for child in std::mem::take(&mut node.children) {
        match child.canonical {
            Some(kind @ (Plugin::Root | Plugin::AsyncRoot)) => {
                roots += 1;
                root = build_logger(binder, child, true, kind == Plugin::AsyncRoot);
            }
            Some(kind @ (Plugin::Logger | Plugin::AsyncLogger)) => {
                let stub = child.stub();
                match build_logger(binder, child, false, kind == Plugin::AsyncLogger) {
                    Some(logger) => {
                        loggers.push(&logger.name.clone(), logger);
                    }
                    None => failed.push(stub),
                }
            }
            _ => binder.unusable_child(&node, &child),
        }
    }
    binder.null_children(&node, &failed);
    binder.finish(&node, inserted);
    if roots > 1 {
        binder.factory_failure(
            &node,
            "org.apache.logging.log4j.core.config.LoggersPlugin",
            "java.lang.IllegalStateException: Configuration has multiple root loggers. There can be only one.",
            Some("keep a single <Root>; log4j2 discards the whole <Loggers> element and uses the default configuration".to_string()),
        );
        return LoggersOutcome::MultipleRoots;
    }
    LoggersOutcome::Built {
        root,
        loggers: loggers.into_vec(),
    }
}

fn build_logger(
    binder: &mut Binder,
    mut node: PNode,
    is_root: bool,
    asynchronous: bool,
) -> Option<LoggerSpec> {
    let inserted = node.attrs.len();
    // Logger properties add context data per event, which no scenario covers; log4j2 accepts
    // them on every logger.
    let (appender_refs, filter, failed_refs) =
        bind_refs_and_filter(binder, &mut node, |_, child| {
            (child.canonical != Some(Plugin::Property)).then_some(child)
        });
    // The builder's fields in log4j2's order: additivity, level, levelAndRefs, loggerName,
    // includeLocation, then the appender refs.
    // A Boolean builder attribute (Boolean.valueOf): "yes" or "1" turn additivity off.
    let additivity = binder.boolean(&mut node, &["additivity"], true);
    let level = binder.level(&mut node, &["level"]);
    if binder.string(&mut node, &["levelAndRefs"]).is_some() {
        binder.report(
            crate::Severity::Warning,
            "levelAndRefs is only supported by the properties format; the attribute is ignored",
            Some(&node),
            None,
            None,
        );
    }
    let name = if is_root {
        Some(String::new())
    } else {
        binder.string(&mut node, &["name"])
    };
    if name.is_none() {
        binder.error(&node, "Loggers cannot be configured without a name");
    }
    let include_location = binder
        .string(&mut node, &["includeLocation"])
        .map(|value| value.eq_ignore_ascii_case("true"));
    binder.null_children(&node, &failed_refs);
    let Some(name) = name else {
        let class = if asynchronous {
            "org.apache.logging.log4j.core.async.AsyncLoggerConfig"
        } else {
            "org.apache.logging.log4j.core.config.LoggerConfig"
        };
        // The message of the missing name was given above, in the builder's field order.
        let missing = MissingField::reported("loggerName").added_as("name=\"…\"");
        binder.invalid_arguments(&node, class, &[missing]);
        return None;
    };
    binder.finish(&node, inserted);
    Some(LoggerSpec {
        name,
        level,
        additivity,
        include_location,
        asynchronous,
        appender_refs,
        filter: filter.filter,
        position: Some(node.position),
    })
}

/// Binds the children shared by loggers and the Async appender: `<AppenderRef>`s and one filter.
/// Any other child goes to `other`, in document order with the rest (log4j2 builds children in
/// that order, so their messages come in it), which hands back the ones it has no use for; those
/// are reported as unusable. The refs that could not be built are returned too, for the
/// parent's "Null object" report.
pub(super) fn bind_refs_and_filter(
    binder: &mut Binder,
    node: &mut PNode,
    mut other: impl FnMut(&mut Binder, PNode) -> Option<PNode>,
) -> (Vec<AppenderRefSpec>, FilterSlot, Vec<PNode>) {
    let mut appender_refs = Vec::new();
    let mut filter = FilterSlot::new();
    let mut failed = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if child.canonical == Some(Plugin::AppenderRef) {
            if let Some(reference) = binder.build_child(child, &mut failed, build_appender_ref) {
                appender_refs.push(reference);
            }
        } else if is_filter(&child) {
            filter.offer(binder, node, child);
        } else if let Some(unused) = other(binder, child) {
            binder.unusable_child(node, &unused);
        }
    }
    (appender_refs, filter, failed)
}

pub(super) fn build_appender_ref(binder: &mut Binder, mut node: PNode) -> Option<AppenderRefSpec> {
    let inserted = node.attrs.len();
    let mut filter = FilterSlot::new();
    for child in std::mem::take(&mut node.children) {
        if is_filter(&child) {
            filter.offer(binder, &node, child);
        } else {
            binder.unusable_child(&node, &child);
        }
    }
    let appender = binder.string(&mut node, &["ref"]);
    let level = binder.level(&mut node, &["level"]);
    binder.finish(&node, inserted);
    let Some(appender) = appender else {
        binder.error(&node, "Appender references must contain a reference");
        return None;
    };
    Some(AppenderRefSpec {
        appender,
        level,
        filter: filter.filter,
        position: Some(node.position),
    })
}
