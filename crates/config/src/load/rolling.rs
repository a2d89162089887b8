//! `<RollingFile>`, `<RollingRandomAccessFile>` and `<RollingMemoryMappedFile>`: their own
//! attributes, their triggering policies, rollover strategies and `<Delete>` actions.
//!
//! Values log4j2 only notices at run time (a `filePattern` with an unknown converter, a size
//! or schedule it cannot read) are checked here, so each mistake is reported with its
//! position; where log4j2 goes on with a default (10 MB, daily at midnight), so does l4rs.

use super::binder::Binder;
use super::node::PNode;
use crate::model::{
    ActionSpec, AppenderKind, DeleteSpec, FileIndexOrder, PathConditionSpec, RollingFileSpec,
    RollingMemoryMappedFileSpec, RollingRandomAccessFileSpec, RollingSpec, RolloverStrategySpec,
    TriggeringPolicySpec,
};
use crate::rolling::{glob_to_regex, parse_age, parse_size, CronExpression, FilePattern};
use crate::Severity;

/// `SizeBasedTriggeringPolicy`'s default: 10 MB.
/// The compression suffixes log4j2 knows (through Commons Compress) and l4rs has no codec for.
const UNCOMPRESSED_SUFFIXES: &[&str] = &[".bz2", ".xz", ".pack200"];

const DEFAULT_MAX_SIZE: u64 = 10 * 1024 * 1024;
/// `CronTriggeringPolicy`'s default schedule: daily at midnight.
const DEFAULT_SCHEDULE: &str = "0 0 0 * * ?";
/// `DefaultRolloverStrategy`'s default `max`.
const DEFAULT_MAX: u32 = 7;
/// `Deflater.DEFAULT_COMPRESSION`.
const DEFAULT_COMPRESSION_LEVEL: i32 = -1;
/// The RollingFile appender's default buffer (`log4j2.encoderByteBufferSize`).
const DEFAULT_BUFFER_SIZE: usize = 8192;
/// `RollingRandomAccessFileManager.DEFAULT_BUFFER_SIZE`.
const RANDOM_ACCESS_BUFFER_SIZE: usize = 256 * 1024;
/// `MemoryMappedFileManager`'s default region: 32 MiB.
const DEFAULT_REGION_LENGTH: i64 = 32 * 1024 * 1024;

/// True for the rolling appenders' element names.
pub(crate) fn is_rolling_appender(canonical: &str) -> bool {
    matches!(
        canonical,
        "RollingFile" | "RollingRandomAccessFile" | "RollingMemoryMappedFile"
    )
}

/// True for the children a rolling appender takes beside its layout and filter.
pub(crate) fn is_rolling_child(child: &PNode) -> bool {
    is_policy(child) || is_strategy(child)
}

fn is_policy(node: &PNode) -> bool {
    matches!(
        node.canonical,
        Some(
            "Policies"
                | "SizeBasedTriggeringPolicy"
                | "TimeBasedTriggeringPolicy"
                | "OnStartupTriggeringPolicy"
                | "CronTriggeringPolicy"
                | "NoOpTriggeringPolicy"
        )
    )
}

fn is_strategy(node: &PNode) -> bool {
    matches!(
        node.canonical,
        Some("DefaultRolloverStrategy" | "DirectWriteRolloverStrategy")
    )
}

/// Binds a rolling appender's own attributes and `children` (its policies and strategy).
/// `None` after an error diagnostic when log4j2 would not create the appender.
pub(crate) fn rolling_kind(
    binder: &mut Binder,
    node: &mut PNode,
    canonical: &str,
    children: Vec<PNode>,
) -> Option<AppenderKind> {
    let file_name = binder.string(node, &["fileName"]);
    let pattern_attr_position = node
        .attrs
        .iter()
        .find(|attr| attr.name.eq_ignore_ascii_case("filePattern"))
        .map(|attr| attr.position);
    let file_pattern = binder.string(node, &["filePattern"]);
    let append = binder.boolean(node, &["append"], true);
    let immediate_flush = binder.boolean(node, &["immediateFlush"], true);
    let buffer_size = binder
        .int(node, &["bufferSize"])
        .map(|size| usize::try_from(size).unwrap_or(0));
    let file_permissions = binder.string(node, &["filePermissions"]);
    let file_owner = binder.string(node, &["fileOwner"]);
    let file_group = binder.string(node, &["fileGroup"]);
    // log4j2 accepts these on every rolling appender; `bufferedIo`, `createOnDemand` and
    // `locking` belong to RollingFile (where `locking` is ignored), `regionLength` to l4rs's
    // RollingMemoryMappedFile.
    let buffered_io = binder.boolean(node, &["bufferedIo"], true);
    let create_on_demand = binder.boolean(node, &["createOnDemand"], false);
    let _ = binder.string(node, &["locking"]);
    let region_length = if canonical == "RollingMemoryMappedFile" {
        binder.int(node, &["regionLength"]).map(i64::from)
    } else {
        None
    };

    let mut policies = Vec::new();
    let mut policy_seen = false;
    let mut strategy_node = None;
    for child in children {
        if is_policy(&child) && !policy_seen {
            policy_seen = true;
            policy(binder, child, &mut policies);
        } else if is_strategy(&child) && strategy_node.is_none() {
            strategy_node = Some(child);
        } else {
            binder.unexpected_child(node, &child);
        }
    }

    let name = node
        .attrs
        .iter()
        .find(|attr| attr.name.eq_ignore_ascii_case("name"))
        .map_or_else(|| "null".to_string(), |attr| attr.value.clone());
    let Some(pattern_text) = file_pattern else {
        binder.error_help(
            node,
            format!("No filename pattern provided for FileAppender with name {name}"),
            format!(
                "add filePattern=\"…\" to <{}>; the appender is not created",
                node.name
            ),
        );
        return None;
    };
    let file_pattern = match FilePattern::parse(&pattern_text) {
        Ok(pattern) => pattern,
        Err(reason) => {
            binder.report(
                Severity::Error,
                reason,
                Some(node),
                pattern_attr_position,
                Some("the appender is not created".to_string()),
            );
            return None;
        }
    };
    if let Some(suffix) = file_pattern
        .compression_suffix()
        .filter(|suffix| UNCOMPRESSED_SUFFIXES.contains(suffix))
    {
        // log4j2 needs Commons Compress for these and, without it, fails the compression at
        // every rollover; l4rs has no codec for them, says so once here and rolls uncompressed.
        binder.report(
            Severity::Warning,
            format!("{suffix} compression is not available in l4rs (filePattern \"{pattern_text}\")"),
            Some(node),
            pattern_attr_position,
            Some(format!(
                "rolled files keep their uncompressed name, without {suffix}; use .gz, .zip or .zst to compress"
            )),
        );
    }
    if !policy_seen {
        binder.error_help(
            node,
            format!("A TriggeringPolicy must be provided for appender {name}"),
            "add <Policies> with e.g. <SizeBasedTriggeringPolicy size=\"10 MB\"/>; the appender is not created",
        );
        return None;
    }
    let time_based = policies
        .iter()
        .any(|policy| matches!(policy, TriggeringPolicySpec::Time { .. }));
    if time_based && file_pattern.frequency().is_none() {
        binder.report(
            Severity::Error,
            format!(
                "TimeBasedTriggeringPolicy needs a %d{{…}} with a time unit in filePattern \"{pattern_text}\" (java.lang.IllegalStateException: Pattern does not contain a date)"
            ),
            Some(node),
            pattern_attr_position,
            Some("the appender is not created".to_string()),
        );
        return None;
    }
    let strategy = match strategy_node {
        Some(strategy) => rollover_strategy(binder, strategy)?,
        None if file_name.is_some() => default_strategy(DEFAULT_MAX, 1, FileIndexOrder::Max),
        None => RolloverStrategySpec::DirectWrite {
            max_files: None,
            compression_level: DEFAULT_COMPRESSION_LEVEL,
            actions: Vec::new(),
        },
    };
    let file_name = match (&strategy, file_name) {
        (RolloverStrategySpec::Default { .. }, None) => {
            binder.error_help(
                node,
                "When no file name is provided a DirectFileRolloverStrategy must be configured",
                "add fileName=\"…\" or use <DirectWriteRolloverStrategy>; the appender is not created",
            );
            return None;
        }
        (RolloverStrategySpec::DirectWrite { .. }, Some(file_name)) => {
            binder.report(
                Severity::Warning,
                format!("The fileName attribute ({file_name}) is ignored with the DirectWriteRolloverStrategy: events go to the files filePattern names"),
                Some(node),
                None,
                None,
            );
            None
        }
        (_, file_name) => file_name,
    };
    let rolling = RollingSpec {
        file_name,
        file_pattern,
        policies,
        strategy,
        file_permissions,
        file_owner,
        file_group,
    };
    Some(match canonical {
        "RollingFile" => AppenderKind::RollingFile(RollingFileSpec {
            rolling,
            append,
            buffered_io,
            buffer_size: buffer_size.unwrap_or(DEFAULT_BUFFER_SIZE),
            immediate_flush,
            create_on_demand,
        }),
        "RollingRandomAccessFile" => {
            AppenderKind::RollingRandomAccessFile(RollingRandomAccessFileSpec {
                rolling,
                append,
                immediate_flush,
                buffer_size: buffer_size.unwrap_or(RANDOM_ACCESS_BUFFER_SIZE),
            })
        }
        _ => AppenderKind::RollingMemoryMappedFile(RollingMemoryMappedFileSpec {
            rolling,
            append,
            immediate_flush,
            region_length: region_length.unwrap_or(DEFAULT_REGION_LENGTH),
        }),
    })
}

/// Binds a policy element (a `<Policies>` contributes each of its children).
fn policy(binder: &mut Binder, mut node: PNode, into: &mut Vec<TriggeringPolicySpec>) {
    let inserted = node.attrs.len();
    let canonical = node.canonical.unwrap_or_default();
    if canonical == "Policies" {
        for child in std::mem::take(&mut node.children) {
            if is_policy(&child) && child.canonical != Some("Policies") {
                policy(binder, child, into);
            } else {
                binder.unusable_child(&node, &child);
            }
        }
        binder.finish(&node, inserted);
        return;
    }
    for child in std::mem::take(&mut node.children) {
        binder.unusable_child(&node, &child);
    }
    let spec = match canonical {
        "SizeBasedTriggeringPolicy" => {
            let max_size = size_attribute(binder, &mut node, "size", DEFAULT_MAX_SIZE, "10 MB");
            Some(TriggeringPolicySpec::Size { max_size })
        }
        "TimeBasedTriggeringPolicy" => {
            let interval = binder.int(&mut node, &["interval"]).unwrap_or(1);
            let modulate = binder.boolean(&mut node, &["modulate"], false);
            let delay = binder.int(&mut node, &["maxRandomDelay"]).unwrap_or(0);
            Some(TriggeringPolicySpec::Time {
                interval: u32::try_from(interval).unwrap_or(1).max(1),
                modulate,
                max_random_delay_seconds: u64::try_from(delay).unwrap_or(0),
            })
        }
        "OnStartupTriggeringPolicy" => {
            let min_size = binder.long(&mut node, &["minSize"]).unwrap_or(1);
            Some(TriggeringPolicySpec::OnStartup {
                min_size: u64::try_from(min_size).unwrap_or(0),
            })
        }
        "CronTriggeringPolicy" => {
            let position = attr_position(&node, "schedule");
            let schedule = binder.string(&mut node, &["schedule"]);
            let evaluate_on_startup = binder.boolean(&mut node, &["evaluateOnStartup"], false);
            let schedule = match schedule.as_deref().map(CronExpression::parse) {
                None => default_schedule(),
                Some(Ok(schedule)) => schedule,
                Some(Err(reason)) => {
                    binder.report(
                        Severity::Error,
                        format!("Invalid cron expression - {reason}"),
                        Some(&node),
                        position,
                        Some(format!("log4j2 falls back to \"{DEFAULT_SCHEDULE}\" (daily at midnight), and so does l4rs")),
                    );
                    default_schedule()
                }
            };
            Some(TriggeringPolicySpec::Cron {
                schedule,
                evaluate_on_startup,
            })
        }
        // NoOpTriggeringPolicy never triggers.
        _ => None,
    };
    binder.finish(&node, inserted);
    into.extend(spec);
}

fn default_schedule() -> CronExpression {
    CronExpression::daily_at_midnight()
}

fn attr_position(node: &PNode, name: &str) -> Option<crate::Position> {
    node.attrs
        .iter()
        .find(|attr| attr.name.eq_ignore_ascii_case(name))
        .map(|attr| attr.position)
}

/// A size attribute; an unreadable one is an error with its position, and `default` is used.
fn size_attribute(
    binder: &mut Binder,
    node: &mut PNode,
    name: &str,
    default: u64,
    default_text: &str,
) -> u64 {
    let position = attr_position(node, name);
    match binder.string(node, &[name]) {
        None => default,
        Some(text) => match parse_size(&text) {
            Ok(size) => size,
            Err(reason) => {
                binder.report(
                    Severity::Error,
                    reason,
                    Some(node),
                    position,
                    Some(format!(
                        "write e.g. \"250 MB\"; {default_text} is used, as in log4j2"
                    )),
                );
                default
            }
        },
    }
}

fn default_strategy(max: u32, min: u32, file_index: FileIndexOrder) -> RolloverStrategySpec {
    RolloverStrategySpec::Default {
        max,
        min,
        file_index,
        compression_level: DEFAULT_COMPRESSION_LEVEL,
        actions: Vec::new(),
    }
}

fn rollover_strategy(binder: &mut Binder, mut node: PNode) -> Option<RolloverStrategySpec> {
    let inserted = node.attrs.len();
    let mut actions = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if child.canonical == Some("Delete") {
            if let Some(delete) = delete_action(binder, child) {
                actions.push(ActionSpec::Delete(delete));
            }
        } else {
            binder.unusable_child(&node, &child);
        }
    }
    let level_position = attr_position(&node, "compressionLevel");
    let compression_level = binder
        .int(&mut node, &["compressionLevel"])
        .unwrap_or(DEFAULT_COMPRESSION_LEVEL);
    let compression_level = if (-1..=9).contains(&compression_level) {
        compression_level
    } else {
        binder.report(
            Severity::Error,
            format!("Invalid compression level {compression_level}, using the default"),
            Some(&node),
            level_position,
            Some("compressionLevel goes from 0 (store) to 9 (smallest)".to_string()),
        );
        DEFAULT_COMPRESSION_LEVEL
    };
    // Accepted as in log4j2; l4rs compresses straight to the final name and always goes on
    // with the next action after a failed one is reported.
    let _ = binder.string(&mut node, &["tempCompressedFilePattern"]);
    let _ = binder.string(&mut node, &["stopCustomActionsOnError"]);
    let strategy = if node.canonical == Some("DirectWriteRolloverStrategy") {
        let max_files = binder.int(&mut node, &["maxFiles"]);
        let max_files = match max_files {
            None => None,
            Some(count) if count < 0 => None,
            Some(count) if count <= 1 => {
                binder.error(
                    &node,
                    format!("Maximum files too small. Limited to {DEFAULT_MAX}"),
                );
                Some(DEFAULT_MAX)
            }
            Some(count) => Some(count as u32),
        };
        RolloverStrategySpec::DirectWrite {
            max_files,
            compression_level,
            actions,
        }
    } else {
        let max = binder.int(&mut node, &["max"]);
        let min = binder.int(&mut node, &["min"]);
        let file_index = match binder
            .string(&mut node, &["fileIndex"])
            .map(|value| value.to_ascii_lowercase())
            .as_deref()
        {
            Some("min") => FileIndexOrder::Min,
            Some("nomax") => FileIndexOrder::NoMax,
            _ => FileIndexOrder::Max,
        };
        let mut min_index = min.unwrap_or(1);
        if min_index < 1 {
            binder.error(&node, "Minimum window size too small. Limited to 1");
            min_index = 1;
        }
        let mut max_index = max.unwrap_or(DEFAULT_MAX as i32);
        if max_index < min_index {
            max_index = min_index.max(DEFAULT_MAX as i32);
            binder.error(
                &node,
                format!("Maximum window size must be greater than the minimum windows size. Set the maximum window size to {max_index}"),
            );
        }
        RolloverStrategySpec::Default {
            max: max_index as u32,
            min: min_index as u32,
            file_index,
            compression_level,
            actions,
        }
    };
    binder.finish(&node, inserted);
    Some(strategy)
}

fn delete_action(binder: &mut Binder, mut node: PNode) -> Option<DeleteSpec> {
    let inserted = node.attrs.len();
    let mut conditions = Vec::new();
    let mut recent_first = true;
    for mut child in std::mem::take(&mut node.children) {
        if child.canonical == Some("PathSortByModificationTime") {
            let child_inserted = child.attrs.len();
            recent_first = binder.boolean(&mut child, &["recentFirst"], true);
            binder.finish(&child, child_inserted);
        } else if is_condition(&child) {
            conditions.extend(condition(binder, child));
        } else {
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
    Some(DeleteSpec {
        base_path,
        max_depth: u32::try_from(max_depth).unwrap_or(0),
        follow_links,
        test_mode,
        conditions,
        recent_first,
    })
}

fn is_condition(node: &PNode) -> bool {
    matches!(
        node.canonical,
        Some(
            "IfFileName"
                | "IfLastModified"
                | "IfAccumulatedFileCount"
                | "IfAccumulatedFileSize"
                | "IfAll"
                | "IfAny"
                | "IfNot"
        )
    )
}

/// Binds one path condition; `None` after an error when it cannot be used (the `<Delete>` then
/// goes on without it, as log4j2 drops a plugin it cannot build).
fn condition(binder: &mut Binder, mut node: PNode) -> Option<PathConditionSpec> {
    let inserted = node.attrs.len();
    let mut nested = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if is_condition(&child) {
            nested.extend(condition(binder, child));
        } else {
            binder.unusable_child(&node, &child);
        }
    }
    let canonical = node.canonical.unwrap_or_default();
    let spec = match canonical {
        "IfFileName" => {
            let glob_position = attr_position(&node, "glob");
            let regex_position = attr_position(&node, "regex");
            let glob = binder.string(&mut node, &["glob"]);
            let regex = binder.string(&mut node, &["regex"]);
            let translated = match (glob, regex) {
                (Some(glob), _) => {
                    let glob = glob.strip_prefix("glob:").unwrap_or(&glob).to_string();
                    glob_to_regex(&glob).map_err(|reason| (reason, glob_position))
                }
                (None, Some(regex)) => {
                    let regex = regex.strip_prefix("regex:").unwrap_or(&regex).to_string();
                    let anchored = format!("^(?:{regex})$");
                    regex::Regex::new(&anchored)
                        .map(|_| anchored)
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
                        Some("the condition is ignored".to_string()),
                    );
                    None
                }
            }
        }
        "IfLastModified" => {
            let position = attr_position(&node, "age");
            match binder
                .string(&mut node, &["age"])
                .map(|age| parse_age(&age))
            {
                Some(Ok(age_millis)) => {
                    Some(PathConditionSpec::LastModified { age_millis, nested })
                }
                Some(Err(reason)) => {
                    binder.report(
                        Severity::Error,
                        reason,
                        Some(&node),
                        position,
                        Some(
                            "write e.g. age=\"30d\" or \"PT12H\"; the condition is ignored"
                                .to_string(),
                        ),
                    );
                    None
                }
                None => {
                    binder.error(
                        &node,
                        "IfLastModified needs an age, e.g. age=\"30d\"; the condition is ignored",
                    );
                    None
                }
            }
        }
        "IfAccumulatedFileCount" => match binder.int(&mut node, &["exceeds"]) {
            Some(count) if count > 0 => Some(PathConditionSpec::AccumulatedFileCount {
                exceeds: count as u64,
                nested,
            }),
            _ => {
                binder.error(&node, "Count must be a positive integer but was not set or is not positive; the condition is ignored");
                None
            }
        },
        "IfAccumulatedFileSize" => {
            if attr_position(&node, "exceeds").is_none() {
                binder.error(
                    &node,
                    "IfAccumulatedFileSize needs exceeds=\"…\"; the condition is ignored",
                );
                None
            } else {
                let exceeds = size_attribute(binder, &mut node, "exceeds", 0, "0 bytes");
                Some(PathConditionSpec::AccumulatedFileSize { exceeds, nested })
            }
        }
        "IfAll" => Some(PathConditionSpec::All(nested)),
        "IfAny" => Some(PathConditionSpec::Any(nested)),
        _ => {
            let mut nested = nested.into_iter();
            match (nested.next(), nested.next()) {
                (Some(only), None) => Some(PathConditionSpec::Not(Box::new(only))),
                _ => {
                    binder.error(
                        &node,
                        "IfNot needs exactly one nested condition; the condition is ignored",
                    );
                    None
                }
            }
        }
    };
    binder.finish(&node, inserted);
    spec
}
