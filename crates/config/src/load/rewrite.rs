//! `<Rewrite>`: log4j2's RewriteAppender and its rewrite policies.

use l4rs_core::Level;

use super::appenders::delegating_appender;
use super::binder::Binder;
use super::filters::{is_filter, FilterSlot};
use super::loggers::build_appender_ref;
use super::node::PNode;
use crate::model::{AppenderKind, AppenderSpec, MapRewriteMode, RewritePolicySpec, RewriteSpec};
use crate::plugins::Plugin;

/// The rewrite policies l4rs implements.
const POLICIES: &[Plugin] = &[
    Plugin::MapRewritePolicy,
    Plugin::PropertiesRewritePolicy,
    Plugin::LoggerNameLevelRewritePolicy,
];

/// Builds one `<Rewrite>` element; `None` (after log4j2's message) when it cannot be built.
pub(crate) fn build_rewrite_appender(binder: &mut Binder, mut node: PNode) -> Option<AppenderSpec> {
    let inserted = node.attrs.len();
    let mut filter = FilterSlot::new();
    let mut appender_refs = Vec::new();
    let mut policy_seen = false;
    let mut policy = None;
    for child in std::mem::take(&mut node.children) {
        if child.canonical == Some(Plugin::AppenderRef) {
            if let Some(reference) = build_appender_ref(binder, child) {
                appender_refs.push(reference);
            }
        } else if child.canonical.is_some_and(|name| POLICIES.contains(&name)) && !policy_seen {
            policy_seen = true;
            policy = build_policy(binder, child);
        } else if is_filter(&child) {
            filter.offer(binder, &node, child);
        } else {
            binder.refuse_child(&mut node, child);
        }
    }
    let name = binder.string(&mut node, &["name"]);
    let ignore_exceptions = binder.parsed_boolean(&mut node, &["ignoreExceptions"], true);
    binder.finish(&node, inserted);
    let Some(name) = name else {
        binder.error(&node, "No name provided for RewriteAppender");
        return None;
    };
    let kind = AppenderKind::Rewrite(RewriteSpec {
        appender_refs,
        policy,
    });
    let appender = delegating_appender(name, ignore_exceptions, filter, kind, &node);
    Some(appender)
}

/// Builds a rewrite policy; `None` after log4j2's message when it refuses to (the Rewrite
/// appender is then built without a policy, and passes events unchanged).
pub(crate) fn build_policy(binder: &mut Binder, mut node: PNode) -> Option<RewritePolicySpec> {
    let inserted = node.attrs.len();
    let children = std::mem::take(&mut node.children);
    match node.canonical {
        Some(Plugin::MapRewritePolicy) => {
            let mode = binder.string(&mut node, &["mode"]);
            let pairs = key_value_pairs(binder, &node, children);
            binder.finish(&node, inserted);
            // `Mode.valueOf`: exact, case-sensitive constant names.
            let mode = match mode.as_deref() {
                None | Some("Add") => MapRewriteMode::Add,
                Some("Update") => MapRewriteMode::Update,
                Some(other) => {
                    binder.factory_failure(
                        &node,
                        "org.apache.logging.log4j.core.appender.rewrite.MapRewritePolicy",
                        &format!("java.lang.IllegalArgumentException: No enum constant org.apache.logging.log4j.core.appender.rewrite.MapRewritePolicy.Mode.{other}"),
                        Some("mode is Add or Update (case-sensitive); the policy is not created".to_string()),
                    );
                    return None;
                }
            };
            if pairs.is_empty() {
                binder.error(
                    &node,
                    "keys and values must be specified for the MapRewritePolicy",
                );
                return None;
            }
            let mut valid = Vec::new();
            for (key, value) in pairs {
                match (key, value) {
                    (None, _) => binder.error(&node, "A null key is not valid in MapRewritePolicy"),
                    (Some(key), None) => binder.error(
                        &node,
                        format!("A null value for key {key} is not allowed in MapRewritePolicy"),
                    ),
                    (Some(key), Some(value)) => {
                        valid.retain(|(existing, _): &(String, String)| *existing != key);
                        valid.push((key, value));
                    }
                }
            }
            if valid.is_empty() {
                binder.error(
                    &node,
                    "MapRewritePolicy is not configured with any valid key value pairs",
                );
                return None;
            }
            // INFO: log4j2 says nothing, so the status output stays log4j2's at the usual
            // levels, while `l4rs check` and a verbose status still explain the no-op.
            binder.report(
                crate::Severity::Info,
                "MapRewritePolicy rewrites only MapMessages, which l4rs events never carry: events pass through it unchanged",
                Some(&node),
                None,
                Some("to add context-map entries, use PropertiesRewritePolicy".to_string()),
            );
            Some(RewritePolicySpec::Map { mode, pairs: valid })
        }
        Some(Plugin::PropertiesRewritePolicy) => {
            let mut properties: Vec<(String, String)> = Vec::new();
            for child in children {
                if child.canonical != Some(Plugin::Property) {
                    binder.unusable_child(&node, &child);
                    continue;
                }
                if let Some((name, value)) = property(binder, child) {
                    // log4j2 keeps them in a HashMap keyed by the property object; the last
                    // one of a name is what the event ends up with in practice.
                    properties.retain(|(existing, _)| *existing != name);
                    properties.push((name, value));
                }
            }
            binder.finish(&node, inserted);
            if properties.is_empty() {
                binder.error(
                    &node,
                    "Properties must be specified for the PropertiesRewritePolicy",
                );
                return None;
            }
            Some(RewritePolicySpec::Properties(properties))
        }
        _ => {
            let logger = binder.string(&mut node, &["logger"]);
            let pairs = key_value_pairs(binder, &node, children);
            binder.finish(&node, inserted);
            let Some(logger) = logger else {
                // log4j2 builds it and fails on every event (`startsWith(null)`).
                binder.error_help(
                    &node,
                    "LoggerNameLevelRewritePolicy has no logger attribute",
                    "add logger=\"…\" (a logger-name prefix); without it log4j2 fails on every event, l4rs leaves events unchanged",
                );
                return None;
            };
            // `Level.getLevel(upper-cased name)`: an unknown name is null, which never matches.
            let level = |name: Option<String>| {
                name.and_then(|name| Level::from_name(&name.to_uppercase()).ok())
            };
            let mut levels: Vec<(Level, Level)> = Vec::new();
            for (from, to) in pairs {
                if let (Some(from), Some(to)) = (level(from), level(to)) {
                    levels.retain(|(existing, _)| *existing != from);
                    levels.push((from, to));
                }
            }
            Some(RewritePolicySpec::LoggerNameLevel { logger, levels })
        }
    }
}

/// The `<KeyValuePair>` children, in order; other children are reported.
fn key_value_pairs(
    binder: &mut Binder,
    parent: &PNode,
    children: Vec<PNode>,
) -> Vec<(Option<String>, Option<String>)> {
    let mut pairs = Vec::new();
    for mut child in children {
        if child.canonical == Some(Plugin::KeyValuePair) {
            pairs.push(super::key_value_pair(binder, &mut child));
        } else {
            binder.unusable_child(parent, &child);
        }
    }
    pairs
}

/// A `<Property name="…" value="…"/>` (or with the value as element text), substituted at
/// configuration time; `None` after log4j2's message when it has no name.
pub(crate) fn property(binder: &mut Binder, mut node: PNode) -> Option<(String, String)> {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let name = binder.string(&mut node, &["name"]);
    let value = match node.value.clone().filter(|text| !text.is_empty()) {
        Some(text) => {
            let _ = binder.string(&mut node, &["value"]);
            let position = node.position;
            binder.substitute(&text, &node, position)
        }
        None => binder.string(&mut node, &["value"]).unwrap_or_default(),
    };
    binder.finish(&node, inserted);
    let Some(name) = name else {
        binder.factory_failure(
            &node,
            "org.apache.logging.log4j.core.config.Property",
            "java.lang.IllegalArgumentException: Property name cannot be null",
            Some("add name=\"…\"; the property is not set".to_string()),
        );
        return None;
    };
    Some((name, value))
}
