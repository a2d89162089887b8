//! `<Delete>`, the rollover action of `DefaultRolloverStrategy` and
//! `DirectWriteRolloverStrategy`, with its path conditions (`IfFileName`, `IfLastModified`,
//! `IfAccumulatedFileCount`, `IfAccumulatedFileSize`, `IfAny`, `IfAll`, `IfNot`) and
//! `SortByModificationTime`.

use l4rs_java_syntax::regex::{translate_whole, JavaRegexError};

use super::binder::Binder;
use super::node::PNode;
use super::scripts::{is_script, refuse, ScriptSlot, ScriptUser};
use crate::model::{DeleteSpec, PathConditionSpec};
use crate::plugins::Plugin;
use crate::rolling::{glob_to_regex, parse_age, parse_size};
use crate::Severity;

/// Binds a `<Delete>`. `None` after an error when it cannot be used as written: a missing
/// `basePath`, no condition at all, or any condition (nested ones too) that cannot be bound.
/// log4j2 drops a condition it cannot build and deletes with the others, which deletes more
/// than the configuration says (with none left, everything under `basePath`); l4rs drops the
/// whole action instead, so a typo never widens a deletion.
pub(super) fn delete_action(binder: &mut Binder, mut node: PNode) -> Option<DeleteSpec> {
    let inserted = node.attrs.len();
    let mut conditions = Vec::new();
    let mut failed = Vec::new();
    let mut recent_first = true;
    let mut script_condition_seen = false;
    for mut child in std::mem::take(&mut node.children) {
        if child.canonical == Some(Plugin::SortByModificationTime) {
            let child_inserted = child.attrs.len();
            recent_first = binder.boolean(&mut child, &["recentFirst"], true);
            binder.finish(&child, child_inserted);
        } else if is_condition(&child) {
            conditions.extend(condition(binder, child, &mut failed));
        } else if child.canonical == Some(Plugin::ScriptCondition) {
            // log4j2 refuses it (l4rs runs no scripts, see `scripts.rs`) and deletes by the
            // other conditions alone, which is more than configured. It builds a second one
            // too, then finds no place for it.
            failed.push(child.position);
            if std::mem::replace(&mut script_condition_seen, true) {
                script_condition(binder, child.clone());
                binder.unusable_child(&node, &child);
            } else {
                script_condition(binder, child);
            }
        } else {
            failed.push(child.position);
            binder.unusable_child(&node, &child);
        }
    }
    let base_path = binder.string(&mut node, &["basePath"]);
    let max_depth = binder.int(&mut node, &["maxDepth"]).unwrap_or(1);
    let follow_links = binder.boolean(&mut node, &["followLinks"], false);
    let test_mode = binder.boolean(&mut node, &["testMode"], false);
    binder.finish(&node, inserted);
    let Some(base_path) = base_path else {
        binder.error_help(
            &node,
            "No basePath provided for Delete",
            "add basePath=\"…\"; the action is ignored",
        );
        return None;
    };
    if let Some(first) = failed.first() {
        let at: Vec<String> = failed.iter().map(ToString::to_string).collect();
        binder.report(
            Severity::Error,
            format!(
                "Delete action on {base_path} is not created: its condition at {} could not be used",
                at.join(", ")
            ),
            Some(&node),
            Some(*first),
            Some("without it the action would delete more than configured; fix the condition and nothing is deleted meanwhile".to_string()),
        );
        return None;
    }
    if conditions.is_empty() {
        binder.error_help(
            &node,
            format!("Missing Delete conditions: unconditional Delete not supported (basePath {base_path})"),
            "add a condition such as <IfFileName glob=\"app-*.log.gz\"/>; the action is ignored",
        );
        return None;
    }
    Some(DeleteSpec {
        base_path,
        max_depth: u32::try_from(max_depth).unwrap_or(0),
        follow_links,
        test_mode,
        conditions,
        recent_first,
    })
}

/// `<ScriptCondition>`: its script is read, then it is refused as log4j2 refuses it without a
/// script engine.
pub(super) fn script_condition(binder: &mut Binder, mut node: PNode) {
    let inserted = node.attrs.len();
    let mut slot = ScriptSlot::default();
    for child in std::mem::take(&mut node.children) {
        if is_script(&child) {
            slot.offer(binder, &mut node, child);
        } else {
            node.refused.push(child);
        }
    }
    binder.finish(&node, inserted);
    refuse(binder, &node, slot.script.as_ref(), ScriptUser::Condition);
}

pub(super) fn is_condition(node: &PNode) -> bool {
    matches!(
        node.canonical,
        Some(
            Plugin::IfFileName
                | Plugin::IfLastModified
                | Plugin::IfAccumulatedFileCount
                | Plugin::IfAccumulatedFileSize
                | Plugin::IfAll
                | Plugin::IfAny
                | Plugin::IfNot
        )
    )
}

/// Binds one path condition; `None` after an error when it cannot be used, with its position
/// (or that of a nested condition that cannot) in `failed`: the `<Delete>` is then dropped.
pub(super) fn condition(
    binder: &mut Binder,
    mut node: PNode,
    failed: &mut Vec<crate::Position>,
) -> Option<PathConditionSpec> {
    let inserted = node.attrs.len();
    let failed_before = failed.len();
    let mut nested = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if is_condition(&child) {
            nested.extend(condition(binder, child, failed));
        } else {
            failed.push(child.position);
            binder.unusable_child(&node, &child);
        }
    }
    let nested_failed = failed.len() > failed_before;
    let spec = match node.canonical {
        Some(Plugin::IfFileName) => {
            let glob_position = node.attr_position(&["glob"]);
            let regex_position = node.attr_position(&["regex"]);
            let glob = binder.string(&mut node, &["glob"]);
            let regex = binder.string(&mut node, &["regex"]);
            let translated = match (glob, regex) {
                (Some(glob), _) => {
                    let glob = glob.strip_prefix("glob:").unwrap_or(&glob).to_string();
                    glob_to_regex(&glob).map_err(|reason| (reason, glob_position))
                }
                (None, Some(regex)) => {
                    // PathMatcher's `regex:` is java.util.regex, tested with `matches()`.
                    let regex = regex.strip_prefix("regex:").unwrap_or(&regex).to_string();
                    translate_whole(&regex)
                        .and_then(|translated| {
                            regex::Regex::new(&translated)
                                .map(|_| translated)
                                .map_err(JavaRegexError::from_compile_error)
                        })
                        .map_err(|error| {
                            (
                                format!("Invalid regex \"{regex}\": {error}"),
                                regex_position,
                            )
                        })
                }
                (None, None) => Err((
                    "Specify either a path glob or a regular expression. Both cannot be null."
                        .to_string(),
                    None,
                )),
            };
            match translated {
                Ok(regex) => Some(PathConditionSpec::FileName { regex, nested }),
                Err((reason, position)) => {
                    binder.report(
                        Severity::Error,
                        reason,
                        Some(&node),
                        position,
                        Some("the Delete action is not created".to_string()),
                    );
                    None
                }
            }
        }
        Some(Plugin::IfLastModified) => required_parsed(
            binder,
            &mut node,
            "age",
            parse_age,
            "write e.g. age=\"30d\" or \"PT12H\"; the Delete action is not created",
            "IfLastModified needs an age, e.g. age=\"30d\"; the Delete action is not created",
        )
        .map(|age_millis| PathConditionSpec::LastModified { age_millis, nested }),
        Some(Plugin::IfAccumulatedFileCount) => match binder.int(&mut node, &["exceeds"]) {
            Some(count) if count > 0 => Some(PathConditionSpec::AccumulatedFileCount {
                exceeds: count as u64,
                nested,
            }),
            _ => {
                binder.error(&node, "Count must be a positive integer but was not set or is not positive; the Delete action is not created");
                None
            }
        },
        Some(Plugin::IfAccumulatedFileSize) => required_parsed(
            binder,
            &mut node,
            "exceeds",
            parse_size,
            "write e.g. exceeds=\"100 MB\"; the Delete action is not created",
            "IfAccumulatedFileSize needs exceeds=\"…\"; the Delete action is not created",
        )
        .map(|exceeds| PathConditionSpec::AccumulatedFileSize { exceeds, nested }),
        Some(Plugin::IfAll) => Some(PathConditionSpec::All(nested)),
        Some(Plugin::IfAny) => Some(PathConditionSpec::Any(nested)),
        // A nested condition that failed was reported already.
        _ if nested_failed => None,
        _ => {
            let mut nested = nested.into_iter();
            match (nested.next(), nested.next()) {
                (Some(only), None) => Some(PathConditionSpec::Not(Box::new(only))),
                _ => {
                    binder.error(
                        &node,
                        "IfNot needs exactly one nested condition; the Delete action is not created",
                    );
                    None
                }
            }
        }
    };
    binder.finish(&node, inserted);
    if spec.is_none() && !nested_failed {
        failed.push(node.position);
    }
    if nested_failed {
        None
    } else {
        spec
    }
}

/// A required attribute read by `parse`: an unreadable value is an error at the attribute with
/// `help`, a missing one the error `missing` at the element.
fn required_parsed<T>(
    binder: &mut Binder,
    node: &mut PNode,
    name: &str,
    parse: impl FnOnce(&str) -> Result<T, String>,
    help: &str,
    missing: &str,
) -> Option<T> {
    let position = node.attr_position(&[name]);
    match binder.string(node, &[name]).map(|text| parse(&text)) {
        Some(Ok(value)) => Some(value),
        Some(Err(reason)) => {
            binder.report(
                Severity::Error,
                reason,
                Some(&*node),
                position,
                Some(help.to_string()),
            );
            None
        }
        None => {
            binder.error(node, missing);
            None
        }
    }
}
