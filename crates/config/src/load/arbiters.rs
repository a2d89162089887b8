//! Arbiters: conditional parts of the configuration, resolved before anything else is built.
//!
//! As in log4j2, an arbiter whose condition holds is replaced by its children, which are
//! appended after the parent's other children (not put back in place); a `<Select>` keeps the
//! children of its first arbiter that holds, a `<DefaultArbiter>`'s only when no other does. A
//! `<ScriptArbiter>` never holds: l4rs runs no scripts.

use super::binder::Binder;
use super::node::PNode;
use super::scripts::{build_script, is_script, refuse, ScriptUser};
use crate::plugins::{self, Plugin};
use crate::spring_profiles;
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
        } else if child.canonical == Some(Plugin::ScriptArbiter) {
            script_arbiter(binder, &mut child);
            // log4j2's arbiter is null, and asking it throws; the children are dropped, not
            // included as the message says, and the arbiters among them are still processed.
            binder.error_help(
                &child,
                "Exception processing class org.apache.logging.log4j.core.config.arbiters.ScriptArbiter: Ignoring and including children",
                "the arbiter's elements are dropped, as log4j2 drops them",
            );
            process(binder, &mut child);
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
    // log4j2 builds every arbiter of the Select, then takes the first that holds other than a
    // `<DefaultArbiter>`, else the `<DefaultArbiter>`, wherever it stands.
    let mut chosen = None;
    let mut default = None;
    for mut child in std::mem::take(&mut node.children) {
        if !plugins::is_arbiter(&child.name) || child.canonical == Some(Plugin::Select) {
            let message = format!(
                "Invalid Node {} for Select. Must be a Condition",
                child.name
            );
            binder.error(&child, message);
            continue;
        }
        if child.canonical == Some(Plugin::ScriptArbiter) {
            // log4j2 throws on the null arbiter and leaves the whole parent's arbiters
            // unprocessed; l4rs counts it false and goes on.
            script_arbiter(binder, &mut child);
            continue;
        }
        let holds = evaluate(binder, &mut child);
        if child.canonical == Some(Plugin::DefaultArbiter) {
            default.get_or_insert(child);
        } else if holds && chosen.is_none() {
            chosen = Some(child);
        }
    }
    match chosen.or(default) {
        Some(mut child) => {
            process(binder, &mut child);
            child.children
        }
        None => Vec::new(),
    }
}

/// `<ScriptArbiter>`: its first script element is built and taken out of its children, then
/// it is refused as log4j2 refuses it without a script engine (see `scripts.rs`).
fn script_arbiter(binder: &mut Binder, node: &mut PNode) {
    // log4j2 reports leftover attributes as it makes the builder, before `build()` makes the
    // script.
    let inserted = node.attrs.len();
    binder.finish(node, inserted);
    let script = node
        .children
        .iter()
        .position(is_script)
        .map(|index| node.children.remove(index))
        .and_then(|script| build_script(binder, script));
    refuse(binder, node, script.as_ref(), ScriptUser::Arbiter);
}

/// `<SpringProfile name="…">`: whether its profile expressions hold for the profiles in
/// effect (`crate::spring_profiles`). Without a name (or with an empty one) it never holds, as
/// in log4j2; an expression Spring refuses is reported, and the arbiter does not hold.
fn spring_profile(binder: &mut Binder, node: &mut PNode) -> bool {
    let Some(names) = binder
        .string(node, &["name"])
        .filter(|names| !names.is_empty())
    else {
        return false;
    };
    // log4j2 substitutes the attribute, then its builder substitutes the result again, so
    // `$${spring:profiles.active}` reads the lookup.
    let names = binder.substitute(&names, node, node.position);
    match spring_profiles::parse_profiles(&names) {
        Ok(expression) => expression.holds(&spring_profiles::profiles_in_effect()),
        Err(error) => {
            binder.error_help(
                node,
                error.to_string(),
                "write profile names joined by & or | (not both without parentheses), ! to negate; the arbiter's elements are dropped",
            );
            false
        }
    }
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
        "springprofile" => spring_profile(binder, node),
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
