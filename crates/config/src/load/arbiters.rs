//! Arbiters: conditional parts of the configuration, resolved before anything else is built.
//!
//! As in log4j2, an arbiter whose condition holds is replaced by its children, which are
//! appended after the parent's other children (not put back in place); a `<Select>` keeps the
//! children of its first arbiter that holds (`<DefaultArbiter>` always does).

use super::binder::Binder;
use super::node::PNode;
use crate::plugins::{self, Plugin};
use crate::substitute;

/// Replaces the arbiters anywhere below `node`.
pub(crate) fn process(binder: &mut Binder, node: &mut PNode) {
    let mut kept = Vec::new();
    let mut added = Vec::new();
    let mut changed = false;
    for mut child in std::mem::take(&mut node.children) {
        if !plugins::is_arbiter(&child.name) {
            process(binder, &mut child);
            kept.push(child);
            continue;
        }
        changed = true;
        if child.canonical == Some(Plugin::Select) {
            added.extend(select(binder, child));
        } else if evaluate(binder, &mut child) {
            process(binder, &mut child);
            added.append(&mut child.children);
        }
    }
    if changed {
        kept.append(&mut added);
    }
    node.children = kept;
}

fn select(binder: &mut Binder, mut node: PNode) -> Vec<PNode> {
    let inserted = node.attrs.len();
    binder.finish(&node, inserted);
    for mut child in std::mem::take(&mut node.children) {
        if !plugins::is_arbiter(&child.name) || child.canonical == Some(Plugin::Select) {
            let message = format!(
                "Invalid Node {} for Select. Must be a Condition",
                child.name
            );
            binder.error(&child, message);
            continue;
        }
        if evaluate(binder, &mut child) {
            process(binder, &mut child);
            return child.children;
        }
    }
    Vec::new()
}

/// Builds one arbiter and says whether its condition holds.
fn evaluate(binder: &mut Binder, node: &mut PNode) -> bool {
    let inserted = node.attrs.len();
    let lower = node.name.to_ascii_lowercase();
    let holds = match lower.as_str() {
        "defaultarbiter" => true,
        "systempropertyarbiter" | "environmentarbiter" => {
            let name = binder.string(node, &["propertyName"]);
            let expected = binder.string(node, &["propertyValue"]);
            let actual = name.and_then(|name| {
                if lower == "environmentarbiter" {
                    std::env::var(name).ok()
                } else {
                    substitute::system_property(&name)
                }
            });
            match (actual, expected) {
                (Some(actual), Some(expected)) => actual == expected,
                (Some(_), None) => true,
                (None, _) => false,
            }
        }
        // No Java class is ever present in a Rust process.
        "classarbiter" => {
            let _ = binder.string(node, &["className"]);
            false
        }
        _ => {
            binder.unsupported(node);
            node.attrs.clear();
            false
        }
    };
    binder.finish(node, inserted);
    holds
}
