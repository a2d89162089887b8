//! `<PosixViewAttribute>`, the rollover action that sets the permissions, owner and group of
//! the files under a base path (log4j2's `PosixViewAttributeAction`), with its builder's
//! checks and messages. Its path conditions are `<Delete>`'s.

use super::binder::{Binder, MissingField};
use super::delete::{condition, is_condition};
use super::node::PNode;
use crate::model::PosixViewAttributeSpec;
use crate::plugins::Plugin;

const CLASS: &str =
    "org.apache.logging.log4j.core.appender.rolling.action.PosixViewAttributeAction";

/// Binds a `<PosixViewAttribute>`; `None` after log4j2's messages when it cannot be built. A
/// condition that cannot be bound drops the whole action (as for `<Delete>`): without it, the
/// action would change more files than configured.
pub(super) fn posix_view_attribute_action(
    binder: &mut Binder,
    mut node: PNode,
) -> Option<PosixViewAttributeSpec> {
    let inserted = node.attrs.len();
    let mut conditions = Vec::new();
    let mut failed = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if is_condition(&child) {
            conditions.extend(condition(binder, child, &mut failed));
        } else {
            // A log4j2 plugin l4rs lacks may be a condition: without it the action would
            // change more files. A `<ScriptCondition>` is none here: log4j2 builds it (and
            // refuses it, see `scripts.rs`), then finds no place for it and changes the files
            // the other conditions accept, with or without a script engine; so does l4rs.
            if child.canonical == Some(Plugin::ScriptCondition) {
                super::delete::script_condition(binder, child.clone());
            } else if child.is_plugin && child.canonical.is_none() {
                failed.push(child.position);
            }
            binder.refuse_child(&mut node, child);
        }
    }
    // The builder's fields in its order.
    let base_path = binder.string(&mut node, &["basePath"]);
    let follow_links = binder.boolean(&mut node, &["followLinks"], false);
    let max_depth = binder.int(&mut node, &["maxDepth"]).unwrap_or(1);
    let permissions_position = node.attr_position(&["filePermissions"]);
    let permissions = binder.string(&mut node, &["filePermissions"]);
    let owner = binder.string(&mut node, &["fileOwner"]);
    let group = binder.string(&mut node, &["fileGroup"]);
    // `@Required` takes an empty text for a missing one.
    let Some(base_path) = base_path.clone().filter(|path| !path.is_empty()) else {
        let missing =
            MissingField::attribute("basePath", "No base path provided").given_as(&base_path);
        binder.invalid_arguments(&node, CLASS, &[missing]);
        return None;
    };
    binder.finish(&node, inserted);
    let given = |value: &Option<String>| value.as_deref().is_some_and(|text| !text.is_empty());
    if !given(&permissions) && !given(&owner) && !given(&group) {
        binder.error_help(
            &node,
            "Posix file attribute view not valid because nor permissions, user or group defined.",
            format!("add filePermissions=\"rw-r-----\", fileOwner or fileGroup; the action on {base_path} is ignored"),
        );
        return None;
    }
    let mode = match permissions.as_deref() {
        None => None,
        Some(text) => match crate::posix::parse_permissions(text) {
            Some(mode) => Some(mode),
            None => {
                binder.builder_threw(
                    &node,
                    CLASS,
                    "java.lang.IllegalArgumentException: Invalid mode",
                    permissions_position,
                    format!("filePermissions takes nine characters such as rw-r-----; {text:?} is not one; the action on {base_path} is ignored"),
                );
                return None;
            }
        },
    };
    if let Some(first) = failed.first() {
        let at: Vec<String> = failed.iter().map(ToString::to_string).collect();
        binder.report(
            crate::Severity::Error,
            format!(
                "PosixViewAttribute action on {base_path} is not created: its condition at {} could not be used",
                at.join(", ")
            ),
            Some(&node),
            Some(*first),
            Some("without it the action would change more files than configured; fix the condition".to_string()),
        );
        return None;
    }
    Some(PosixViewAttributeSpec {
        base_path,
        max_depth: u32::try_from(max_depth).unwrap_or(0),
        follow_links,
        conditions,
        permissions: mode,
        // An empty one (with permissions given) is looked up, and fails, as in Java.
        owner,
        group,
    })
}
