//! `<Loggers>`, `<Logger>`, `<Root>` (and their async forms) and `<AppenderRef>`.

use super::binder::Binder;
use super::filters::{is_filter, FilterSlot};
use super::node::PNode;
use crate::model::{AppenderRefSpec, LoggerSpec};

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
    let mut loggers: Vec<LoggerSpec> = Vec::new();
    for child in std::mem::take(&mut node.children) {
        match child.canonical {
            Some(kind @ ("Root" | "AsyncRoot")) => {
                roots += 1;
                root = build_logger(binder, child, true, kind == "AsyncRoot");
            }
            Some(kind @ ("Logger" | "AsyncLogger")) => {
                if let Some(logger) = build_logger(binder, child, false, kind == "AsyncLogger") {
                    loggers.retain(|existing| existing.name != logger.name);
                    loggers.push(logger);
                }
            }
            _ => binder.unusable_child(&node, &child),
        }
    }
    binder.finish(&node, inserted);
    if roots > 1 {
        binder.error_help(
            &node,
            "Configuration has multiple root loggers. There can be only one.",
            "keep a single <Root>; log4j2 discards the whole <Loggers> element and uses the default configuration",
        );
        return LoggersOutcome::MultipleRoots;
    }
    LoggersOutcome::Built { root, loggers }
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
    let (appender_refs, filter) = bind_refs_and_filter(binder, &mut node, |child| {
        child.canonical == Some("Property")
    });
    let name = if is_root {
        Some(String::new())
    } else {
        binder.string(&mut node, &["name"])
    };
    let level = binder.level(&mut node, &["level"]);
    // A Boolean builder attribute (Boolean.valueOf): "yes" or "1" turn additivity off.
    let additivity = binder.boolean(&mut node, &["additivity"], true);
    let include_location = binder
        .string(&mut node, &["includeLocation"])
        .map(|value| value.eq_ignore_ascii_case("true"));
    if binder.string(&mut node, &["levelAndRefs"]).is_some() {
        binder.report(
            crate::Severity::Warning,
            "levelAndRefs is only supported by the properties format; the attribute is ignored",
            Some(&node),
            None,
            None,
        );
    }
    binder.finish(&node, inserted);
    let Some(name) = name else {
        binder.error_help(
            &node,
            "Loggers cannot be configured without a name",
            format!("Arguments given for element {} are invalid: field 'loggerName' has invalid value 'null'; the logger is not created", node.name),
        );
        return None;
    };
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
/// Children that `ignored` accepts are dropped silently; any other child is reported as unusable.
pub(super) fn bind_refs_and_filter(
    binder: &mut Binder,
    node: &mut PNode,
    ignored: impl Fn(&PNode) -> bool,
) -> (Vec<AppenderRefSpec>, FilterSlot) {
    let mut appender_refs = Vec::new();
    let mut filter = FilterSlot::new();
    for child in std::mem::take(&mut node.children) {
        if child.canonical == Some("AppenderRef") {
            if let Some(reference) = build_appender_ref(binder, child) {
                appender_refs.push(reference);
            }
        } else if is_filter(&child) {
            filter.offer(binder, node, child);
        } else if !ignored(&child) {
            binder.unusable_child(node, &child);
        }
    }
    (appender_refs, filter)
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
