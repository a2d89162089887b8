//! `<PatternLayout>` with its selectors and `<Replace>`.

use super::binder::Binder;
use super::node::PNode;
use crate::model::{
    LayoutSpec, PatternLayoutSpec, PatternSelectorKind, PatternSelectorSpec, ReplaceSpec,
};

/// True when a child element occupies an appender's layout slot.
pub(crate) fn is_layout(node: &PNode) -> bool {
    node.name.to_ascii_lowercase().ends_with("layout")
}

/// Builds a layout element; `None` (after a diagnostic) for layouts l4rs does not implement.
pub(crate) fn build_layout(binder: &mut Binder, node: PNode) -> Option<LayoutSpec> {
    match node.canonical {
        Some("PatternLayout") => Some(LayoutSpec::Pattern(build_pattern_layout(binder, node))),
        _ => {
            binder.unsupported(&node);
            None
        }
    }
}

fn build_pattern_layout(binder: &mut Binder, mut node: PNode) -> PatternLayoutSpec {
    let inserted = node.attrs.len();
    let defaults = PatternLayoutSpec::default();
    let mut selector = None;
    let mut selector_seen = false;
    let mut replace = None;
    let mut replace_seen = false;
    for child in std::mem::take(&mut node.children) {
        let lower = child.name.to_ascii_lowercase();
        if lower.ends_with("patternselector") && !selector_seen {
            selector_seen = true;
            selector = build_selector(binder, child);
        } else if child.canonical == Some("Replace") && !replace_seen {
            replace_seen = true;
            replace = build_replace(binder, child);
        } else {
            binder.unusable_child(&node, &child);
        }
    }
    let spec = PatternLayoutSpec {
        pattern: binder
            .string(&mut node, &["pattern"])
            .unwrap_or(defaults.pattern),
        selector,
        replace,
        charset: binder.charset(&mut node, &["charset"]),
        always_write_exceptions: binder.boolean(&mut node, &["alwaysWriteExceptions"], true),
        disable_ansi: binder.boolean(&mut node, &["disableAnsi"], false),
        no_console_no_ansi: binder.boolean(&mut node, &["noConsoleNoAnsi"], false),
        header: binder.string(&mut node, &["header"]),
        footer: binder.string(&mut node, &["footer"]),
        // Both are known only once the loggers are built; the loader fills them in.
        ..defaults
    };
    binder.finish(&node, inserted);
    spec
}

fn build_selector(binder: &mut Binder, mut node: PNode) -> Option<PatternSelectorSpec> {
    let kind = match node.canonical {
        Some("MarkerPatternSelector") => PatternSelectorKind::Marker,
        Some("LevelPatternSelector") => PatternSelectorKind::Level,
        _ => {
            binder.unsupported(&node);
            return None;
        }
    };
    let inserted = node.attrs.len();
    let mut matches = Vec::new();
    let mut complete = true;
    for mut child in std::mem::take(&mut node.children) {
        if child.canonical != Some("PatternMatch") {
            binder.unusable_child(&node, &child);
            continue;
        }
        let child_inserted = child.attrs.len();
        let key = binder.string(&mut child, &["key"]);
        let pattern = binder.string(&mut child, &["pattern"]);
        binder.finish(&child, child_inserted);
        match (key, pattern) {
            (Some(key), Some(pattern)) => matches.push((key, pattern)),
            (key, _) => {
                complete = false;
                let missing = if key.is_none() { "key" } else { "pattern" };
                binder.error(
                    &child,
                    format!("Could not create plugin of type class org.apache.logging.log4j.core.layout.PatternMatch for element PatternMatch: field '{missing}' has invalid value 'null'"),
                );
            }
        }
    }
    let default_pattern = binder.string(&mut node, &["defaultPattern"]);
    let spec = PatternSelectorSpec {
        kind,
        matches,
        default_pattern: default_pattern.clone().unwrap_or_default(),
        always_write_exceptions: binder.boolean(&mut node, &["alwaysWriteExceptions"], true),
        disable_ansi: binder.boolean(&mut node, &["disableAnsi"], false),
        no_console_no_ansi: binder.boolean(&mut node, &["noConsoleNoAnsi"], false),
    };
    binder.finish(&node, inserted);
    let java_class = match kind {
        PatternSelectorKind::Marker => "MarkerPatternSelector",
        PatternSelectorKind::Level => "LevelPatternSelector",
    };
    if default_pattern.is_none() || !complete {
        // log4j2 cannot parse a null pattern and builds no selector at all.
        binder.error(
            &node,
            format!("Could not create plugin of type class org.apache.logging.log4j.core.layout.{java_class} for element {}: java.lang.IllegalArgumentException: Cannot parse pattern 'null'", node.name),
        );
        return None;
    }
    Some(spec)
}

fn build_replace(binder: &mut Binder, mut node: PNode) -> Option<ReplaceSpec> {
    let inserted = node.attrs.len();
    for child in std::mem::take(&mut node.children) {
        binder.unusable_child(&node, &child);
    }
    let regex = binder.string(&mut node, &["regex"]);
    let replacement = binder.string(&mut node, &["replacement"]);
    binder.finish(&node, inserted);
    match (regex, replacement) {
        (Some(regex), Some(replacement)) => Some(ReplaceSpec { regex, replacement }),
        (None, _) => {
            binder.error(&node, "A regular expression is required for replacement");
            None
        }
        (Some(_), None) => {
            binder.error(
                &node,
                "A replacement string is required to perform replacement",
            );
            None
        }
    }
}
