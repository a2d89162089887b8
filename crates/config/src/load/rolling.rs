//! `<RollingFile>`, `<RollingRandomAccessFile>` and `<RollingMemoryMappedFile>`: their own
//! attributes, their triggering policies and rollover strategies (the strategies' `<Delete>`
//! actions are in `delete.rs`).
//!
//! Values log4j2 only notices at run time (a `filePattern` with an unknown converter, a size
//! or schedule it cannot read) are checked here, so each mistake is reported with its
//! position; where log4j2 goes on with a default (10 MB, daily at midnight), so does l4rs.

use super::binder::{Binder, MissingField};
use super::node::PNode;
use crate::model::{
    ActionSpec, AppenderKind, FileIndexOrder, RollingFileSpec, RollingMemoryMappedFileSpec,
    RollingRandomAccessFileSpec, RollingSpec, RolloverStrategySpec, TriggeringPolicySpec,
};
use crate::plugins::Plugin;
use crate::rolling::{parse_size, CronExpression, FilePattern, FilePatternSegment};
use crate::Severity;

/// The compression suffixes log4j2 knows (through Commons Compress) and l4rs has no codec for.
const UNCOMPRESSED_SUFFIXES: &[&str] = &[".xz", ".pack200"];

/// `SizeBasedTriggeringPolicy`'s default: 10 MB.
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
pub(crate) fn is_rolling_appender(canonical: Plugin) -> bool {
    matches!(
        canonical,
        Plugin::RollingFile | Plugin::RollingRandomAccessFile | Plugin::RollingMemoryMappedFile
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
            Plugin::Policies
                | Plugin::SizeBasedTriggeringPolicy
                | Plugin::TimeBasedTriggeringPolicy
                | Plugin::OnStartupTriggeringPolicy
                | Plugin::CronTriggeringPolicy
                | Plugin::NoOpTriggeringPolicy
        )
    )
}

fn is_strategy(node: &PNode) -> bool {
    matches!(
        node.canonical,
        Some(Plugin::DefaultRolloverStrategy | Plugin::DirectWriteRolloverStrategy)
    )
}

/// A rolling appender's attributes and children, read (log4j2's builder fields, injected):
/// what is required is checked by [`RollingParts::missing`], the rest by [`RollingParts::build`].
pub(crate) struct RollingParts {
    canonical: Plugin,
    file_name: Option<String>,
    file_name_position: Option<crate::Position>,
    file_pattern: Option<String>,
    pattern_attr_position: Option<crate::Position>,
    append: bool,
    immediate_flush: bool,
    buffer_size: Option<usize>,
    file_permissions: Option<String>,
    file_owner: Option<String>,
    file_group: Option<String>,
    buffered_io: bool,
    create_on_demand: bool,
    max_random_delay_seconds: u64,
    region_length: Option<i64>,
    policies: Vec<TriggeringPolicySpec>,
    policy_seen: bool,
    /// `None` without a strategy element.
    strategy: Option<RolloverStrategySpec>,
}

/// Reads a rolling appender's own attributes and binds its `children` (policies and strategy,
/// in document order, as log4j2 builds children before their parent).
pub(crate) fn rolling_parts(
    binder: &mut Binder,
    node: &mut PNode,
    canonical: Plugin,
    children: Vec<PNode>,
) -> RollingParts {
    // Read one by one in log4j2's field order, which is the order of their diagnostics.
    let file_name_position = node.attr_position(&["fileName"]);
    let file_name = binder.string(node, &["fileName"]);
    let pattern_attr_position = node.attr_position(&["filePattern"]);
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
    // `locking` belong to RollingFile (where `locking` is ignored, read only for its
    // diagnostics), `regionLength` to l4rs's RollingMemoryMappedFile.
    let buffered_io = binder.boolean(node, &["bufferedIo"], true);
    let create_on_demand = binder.boolean(node, &["createOnDemand"], false);
    let _ = binder.string(node, &["locking"]);
    let max_random_delay_seconds = delay_seconds(binder, node);
    let region_length = if canonical == Plugin::RollingMemoryMappedFile {
        binder.int(node, &["regionLength"]).map(i64::from)
    } else {
        None
    };
    let mut parts = RollingParts {
        canonical,
        file_name_position,
        file_name,
        pattern_attr_position,
        file_pattern,
        append,
        immediate_flush,
        buffer_size,
        file_permissions,
        file_owner,
        file_group,
        buffered_io,
        create_on_demand,
        max_random_delay_seconds,
        region_length,
        policies: Vec::new(),
        policy_seen: false,
        strategy: None,
    };
    for child in children {
        if is_policy(&child) && !parts.policy_seen {
            parts.policy_seen = true;
            policy(binder, child, &mut parts.policies);
        } else if is_strategy(&child) && parts.strategy.is_none() {
            parts.strategy = Some(rollover_strategy(binder, child));
        } else {
            binder.unexpected_child(node, &child);
        }
    }
    parts
}

impl RollingParts {
    /// The required builder fields that are missing, in log4j2's order, each with the message
    /// its validator logs. Only RollingFile's builder marks `filePattern` and `policy`
    /// required; the other rolling appenders check them when built.
    pub(crate) fn missing(&self) -> Vec<MissingField> {
        let mut missing = Vec::new();
        if self.canonical == Plugin::RollingFile {
            if self.file_pattern.is_none() {
                missing.push(MissingField::attribute(
                    "filePattern",
                    "The parameter is null: filePattern",
                ));
            }
            if !self.policy_seen {
                missing.push(
                    MissingField::attribute("policy", "The parameter is null: policy")
                        .added_as("a triggering policy"),
                );
            }
        }
        missing
    }

    /// What log4j2's builder checks once its fields are valid, then the appender's kind.
    /// `None` after an error diagnostic when log4j2 would not create the appender.
    pub(crate) fn build(
        self,
        binder: &mut Binder,
        node: &PNode,
        name: &str,
    ) -> Option<AppenderKind> {
        let Some(pattern_text) = self.file_pattern else {
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
                    self.pattern_attr_position,
                    Some("the appender is not created".to_string()),
                );
                return None;
            }
        };
        if index_in_directory(&file_pattern) {
            // log4j2 looks for the existing archives in one directory only, so with the index in
            // a directory name no archive is ever found: each rollover takes the first index and
            // replaces the archive already there. l4rs does the same and says so here.
            binder.report(
                Severity::Warning,
                format!("%i in a directory of filePattern \"{pattern_text}\": existing archives are not found there, so every rollover uses the first index and replaces the archive of the previous one"),
                Some(node),
                self.pattern_attr_position,
                Some("put %i in the file name, e.g. logs/%d{yyyy-MM}/app-%i.log".to_string()),
            );
        }
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
                self.pattern_attr_position,
                Some(format!(
                    "rolled files keep their uncompressed name, without {suffix}; use .gz, .zip, .zst or .bz2 to compress"
                )),
            );
        }
        if !self.policy_seen {
            binder.error_help(
                node,
                "A TriggeringPolicy must be provided",
                "add <Policies> with e.g. <SizeBasedTriggeringPolicy size=\"10 MB\"/>; the appender is not created",
            );
            return None;
        }
        let time_based = self
            .policies
            .iter()
            .any(|policy| matches!(policy, TriggeringPolicySpec::Time { .. }));
        if time_based && file_pattern.frequency().is_none() {
            binder.report(
                Severity::Error,
                format!(
                    "TimeBasedTriggeringPolicy needs a %d{{…}} with a time unit in filePattern \"{pattern_text}\" (java.lang.IllegalStateException: Pattern does not contain a date)"
                ),
                Some(node),
                self.pattern_attr_position,
                Some("the appender is not created".to_string()),
            );
            return None;
        }
        let strategy = match self.strategy {
            Some(strategy) => strategy,
            None if self.file_name.is_some() => {
                default_strategy(DEFAULT_MAX, 1, FileIndexOrder::Max)
            }
            None => RolloverStrategySpec::DirectWrite {
                max_files: None,
                compression_level: DEFAULT_COMPRESSION_LEVEL,
                actions: Vec::new(),
            },
        };
        let file_name = match (&strategy, self.file_name) {
            (RolloverStrategySpec::Default { .. }, None) => {
                // 2.19's RollingRandomAccessFile leaves the name's placeholder unfilled.
                let appender = if self.canonical == Plugin::RollingRandomAccessFile {
                    "{}"
                } else {
                    name
                };
                let class = match self.canonical {
                    Plugin::RollingMemoryMappedFile => "RollingMemoryMappedFileAppender",
                    _ => "RollingFileAppender",
                };
                binder.error_help(
                    node,
                    format!("{class} '{appender}': When no file name is provided a DirectFileRolloverStrategy must be configured"),
                    "add fileName=\"…\" or use <DirectWriteRolloverStrategy>; the appender is not created",
                );
                return None;
            }
            (RolloverStrategySpec::DirectWrite { .. }, Some(_)) => {
                binder.report(
                    Severity::Error,
                    "The fileName attribute must not be specified with the DirectWriteRolloverStrategy",
                    Some(node),
                    self.file_name_position,
                    Some(
                        "remove fileName (the files filePattern names are written directly) or use <DefaultRolloverStrategy>; the appender is not created"
                            .to_string(),
                    ),
                );
                return None;
            }
            (_, file_name) => file_name,
        };
        let rolling = RollingSpec {
            file_name,
            file_pattern,
            policies: self.policies,
            strategy,
            file_permissions: self.file_permissions,
            file_owner: self.file_owner,
            file_group: self.file_group,
            max_random_delay_seconds: self.max_random_delay_seconds,
        };
        Some(match self.canonical {
            Plugin::RollingFile => AppenderKind::RollingFile(RollingFileSpec {
                rolling,
                append: self.append,
                buffered_io: self.buffered_io,
                buffer_size: self.buffer_size.unwrap_or(DEFAULT_BUFFER_SIZE),
                immediate_flush: self.immediate_flush,
                create_on_demand: self.create_on_demand,
            }),
            Plugin::RollingRandomAccessFile => {
                AppenderKind::RollingRandomAccessFile(RollingRandomAccessFileSpec {
                    rolling,
                    append: self.append,
                    immediate_flush: self.immediate_flush,
                    buffer_size: self.buffer_size.unwrap_or(RANDOM_ACCESS_BUFFER_SIZE),
                })
            }
            _ => AppenderKind::RollingMemoryMappedFile(RollingMemoryMappedFileSpec {
                rolling,
                append: self.append,
                immediate_flush: self.immediate_flush,
                region_length: self.region_length.unwrap_or(DEFAULT_REGION_LENGTH),
            }),
        })
    }
}

/// Binds a policy element (a `<Policies>` contributes each of its children).
fn policy(binder: &mut Binder, mut node: PNode, into: &mut Vec<TriggeringPolicySpec>) {
    let inserted = node.attrs.len();
    let canonical = node.canonical;
    if canonical == Some(Plugin::Policies) {
        for child in std::mem::take(&mut node.children) {
            if is_policy(&child) && child.canonical != Some(Plugin::Policies) {
                policy(binder, child, into);
            } else {
                binder.unusable_child(&node, &child);
            }
        }
        binder.finish(&node, inserted);
        return;
    }
    binder.refuse_children(&mut node);
    let spec = match canonical {
        Some(Plugin::SizeBasedTriggeringPolicy) => {
            let max_size = size_attribute(binder, &mut node, "size", DEFAULT_MAX_SIZE, "10 MB");
            Some(TriggeringPolicySpec::Size { max_size })
        }
        Some(Plugin::TimeBasedTriggeringPolicy) => {
            let interval = binder.int(&mut node, &["interval"]).unwrap_or(1);
            let modulate = binder.boolean(&mut node, &["modulate"], false);
            let max_random_delay_seconds = delay_seconds(binder, &mut node);
            Some(TriggeringPolicySpec::Time {
                interval: u32::try_from(interval).unwrap_or(1).max(1),
                modulate,
                max_random_delay_seconds,
            })
        }
        Some(Plugin::OnStartupTriggeringPolicy) => {
            let position = node.attr_position(&["minSize"]);
            let min_size = binder.long(&mut node, &["minSize"]).unwrap_or(1);
            if min_size < 0 {
                // log4j2 takes it as it is: every file older than the process rolls, an
                // empty one too (deleted rather than archived); l4rs does the same, and warns.
                binder.report(
                    Severity::Warning,
                    format!("OnStartupTriggeringPolicy minSize {min_size} is negative: every file older than the process is rolled at startup, and an empty one is deleted"),
                    Some(&node),
                    position,
                    Some("use minSize=\"0\" to archive empty files too, or a size in bytes".to_string()),
                );
            }
            Some(TriggeringPolicySpec::OnStartup { min_size })
        }
        Some(Plugin::CronTriggeringPolicy) => {
            let position = node.attr_position(&["schedule"]);
            let schedule = binder.string(&mut node, &["schedule"]);
            let evaluate_on_startup = binder.boolean(&mut node, &["evaluateOnStartup"], false);
            let schedule = match schedule.as_deref().map(CronExpression::parse) {
                None => default_schedule(),
                Some(Ok(schedule)) => {
                    for note in schedule.notes() {
                        binder.report(
                            Severity::Warning,
                            format!("Cron expression \"{}\": {note}", schedule.as_str()),
                            Some(&node),
                            position,
                            None,
                        );
                    }
                    schedule
                }
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

/// True when an `%i` of `pattern` comes before a `/` (in a literal or a date format), that is
/// in a directory name rather than in the file name.
fn index_in_directory(pattern: &FilePattern) -> bool {
    let mut index_seen = false;
    for segment in &pattern.segments {
        match segment {
            FilePatternSegment::Index(_) => index_seen = true,
            FilePatternSegment::Literal(text) if index_seen && text.contains('/') => return true,
            FilePatternSegment::Date {
                pattern: Some(format),
                ..
            } if index_seen && format.contains('/') => return true,
            _ => {}
        }
    }
    false
}

/// A `maxRandomDelay` in seconds (default 0); a negative one is reported and taken as 0.
fn delay_seconds(binder: &mut Binder, node: &mut PNode) -> u64 {
    let position = node.attr_position(&["maxRandomDelay"]);
    let delay = binder.int(node, &["maxRandomDelay"]).unwrap_or(0);
    u64::try_from(delay).unwrap_or_else(|_| {
        binder.report(
            Severity::Warning,
            format!("maxRandomDelay {delay} is negative; no delay is used"),
            Some(node),
            position,
            Some("maxRandomDelay is a number of seconds, 0 or more".to_string()),
        );
        0
    })
}

fn default_schedule() -> CronExpression {
    CronExpression::daily_at_midnight()
}

/// A size attribute; an unreadable one is an error with its position, and `default` is used.
fn size_attribute(
    binder: &mut Binder,
    node: &mut PNode,
    name: &str,
    default: u64,
    default_text: &str,
) -> u64 {
    let position = node.attr_position(&[name]);
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

fn rollover_strategy(binder: &mut Binder, mut node: PNode) -> RolloverStrategySpec {
    let inserted = node.attrs.len();
    let mut actions = Vec::new();
    let mut failed_actions = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if child.canonical == Some(Plugin::Delete) {
            if let Some(delete) = super::delete::delete_action(binder, child) {
                actions.push(ActionSpec::Delete(delete));
            }
        } else if child.canonical == Some(Plugin::PosixViewAttribute) {
            actions.extend(
                binder
                    .build_child(
                        child,
                        &mut failed_actions,
                        super::posix_view_attribute::posix_view_attribute_action,
                    )
                    .map(ActionSpec::PosixViewAttribute),
            );
        } else {
            binder.unusable_child(&node, &child);
        }
    }
    let level_position = node.attr_position(&["compressionLevel"]);
    let compression_level = binder
        .int(&mut node, &["compressionLevel"])
        .unwrap_or(DEFAULT_COMPRESSION_LEVEL);
    // log4j2 reports the actions it could not build as it sets the strategy's actions.
    binder.null_children(&node, &failed_actions);
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
    let strategy = if node.canonical == Some(Plugin::DirectWriteRolloverStrategy) {
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
    strategy
}

#[cfg(test)]
mod tests {
    use crate::model::{
        ActionSpec, AppenderKind, Configuration, FileIndexOrder, PathConditionSpec,
        RolloverStrategySpec, TriggeringPolicySpec,
    };
    use crate::{Diagnostic, Severity};

    /// Loads `appenders` (XML) in a configuration; line 2 is the first appender's line.
    fn load(appenders: &str) -> Configuration {
        crate::load_str(
            &format!(
                "<Configuration><Appenders>\n{appenders}\n</Appenders><Loggers><Root/></Loggers></Configuration>"
            ),
            None,
        )
        .unwrap()
    }

    fn only(config: &Configuration, severity: Severity) -> Vec<&Diagnostic> {
        config
            .diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .collect()
    }

    fn rolling_file(config: &Configuration) -> &crate::model::RollingFileSpec {
        match &config.appenders[0].kind {
            AppenderKind::RollingFile(file) => file,
            other => panic!("not a RollingFile: {other:?}"),
        }
    }

    fn strategy(config: &Configuration) -> &RolloverStrategySpec {
        &rolling_file(config).rolling.strategy
    }

    /// log4j2 refuses `fileName` with a `<DirectWriteRolloverStrategy>` (the corpus's
    /// `log4j2-rolling-1833.xml` and `log4j2-random-1833.xml`, checked with the oracle).
    #[test]
    fn file_name_with_the_direct_write_strategy_is_refused_at_its_position() {
        for kind in ["RollingFile", "RollingRandomAccessFile"] {
            let config = load(&format!(
                "<{kind} name=\"R\"\n    fileName=\"app.log\" filePattern=\"app-%d{{yyyy-MM-dd}}.log\">\n  <TimeBasedTriggeringPolicy/><DirectWriteRolloverStrategy/></{kind}>"
            ));
            assert!(config.appender("R").is_none(), "{kind}");
            let errors: Vec<(&str, Option<crate::Position>)> = only(&config, Severity::Error)
                .into_iter()
                .map(|d| (d.message.as_str(), d.position))
                .collect();
            assert_eq!(
                errors,
                [
                    (
                        "The fileName attribute must not be specified with the DirectWriteRolloverStrategy",
                        Some(crate::Position { line: 3, column: 5 })
                    ),
                    (
                        format!("Null object returned for {kind} in Appenders.").as_str(),
                        Some(crate::Position { line: 2, column: 1 })
                    ),
                ],
                "{kind}"
            );
            let help = only(&config, Severity::Error)[0].help.clone().unwrap();
            assert!(help.starts_with("remove fileName"), "{help}");
        }
    }

    #[test]
    fn defaults_are_log4j2s() {
        let config = load(
            r#"<RollingFile name="F" fileName="f.log" filePattern="f-%i.log"><SizeBasedTriggeringPolicy/></RollingFile>
<RollingRandomAccessFile name="R" fileName="r.log" filePattern="r-%i.log"><SizeBasedTriggeringPolicy/></RollingRandomAccessFile>
<RollingMemoryMappedFile name="M" fileName="m.log" filePattern="m-%i.log"><SizeBasedTriggeringPolicy/></RollingMemoryMappedFile>
<RollingFile name="D" filePattern="d-%i.log"><SizeBasedTriggeringPolicy/></RollingFile>"#,
        );
        assert!(config.diagnostics.is_empty(), "{:#?}", config.diagnostics);
        let file = rolling_file(&config);
        assert!(file.append);
        assert!(file.buffered_io);
        assert_eq!(file.buffer_size, 8192);
        assert!(file.immediate_flush);
        assert!(!file.create_on_demand);
        assert_eq!(file.rolling.max_random_delay_seconds, 0);
        assert_eq!(
            file.rolling.policies,
            [TriggeringPolicySpec::Size {
                max_size: 10 * 1024 * 1024
            }]
        );
        assert_eq!(
            file.rolling.strategy,
            RolloverStrategySpec::Default {
                max: 7,
                min: 1,
                file_index: FileIndexOrder::Max,
                compression_level: -1,
                actions: vec![],
            }
        );
        let AppenderKind::RollingRandomAccessFile(random) = &config.appenders[1].kind else {
            panic!("RollingRandomAccessFile");
        };
        assert_eq!(random.buffer_size, 256 * 1024);
        assert!(random.append && random.immediate_flush);
        let AppenderKind::RollingMemoryMappedFile(mapped) = &config.appenders[2].kind else {
            panic!("RollingMemoryMappedFile");
        };
        assert_eq!(mapped.region_length, 32 * 1024 * 1024);
        let AppenderKind::RollingFile(direct) = &config.appenders[3].kind else {
            panic!("RollingFile");
        };
        assert_eq!(direct.rolling.file_name, None);
        assert_eq!(
            direct.rolling.strategy,
            RolloverStrategySpec::DirectWrite {
                max_files: None,
                compression_level: -1,
                actions: vec![],
            }
        );
    }

    #[test]
    fn max_random_delay_is_an_attribute_of_every_rolling_appender() {
        let config = load(
            r#"<RollingFile name="F" fileName="f.log" filePattern="f-%i.log" maxRandomDelay="30"><SizeBasedTriggeringPolicy/></RollingFile>
<RollingRandomAccessFile name="R" fileName="r.log" filePattern="r-%i.log" maxRandomDelay="5"><SizeBasedTriggeringPolicy/></RollingRandomAccessFile>
<RollingMemoryMappedFile name="M" fileName="m.log" filePattern="m-%i.log" maxRandomDelay="0"><SizeBasedTriggeringPolicy/></RollingMemoryMappedFile>
<RollingFile name="N" fileName="n.log" filePattern="n-%i.log" maxRandomDelay="-3"><SizeBasedTriggeringPolicy/></RollingFile>"#,
        );
        let delays: Vec<u64> = config
            .appenders
            .iter()
            .map(|appender| match &appender.kind {
                AppenderKind::RollingFile(spec) => spec.rolling.max_random_delay_seconds,
                AppenderKind::RollingRandomAccessFile(spec) => {
                    spec.rolling.max_random_delay_seconds
                }
                AppenderKind::RollingMemoryMappedFile(spec) => {
                    spec.rolling.max_random_delay_seconds
                }
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(delays, [30, 5, 0, 0]);
        let warnings = only(&config, Severity::Warning);
        assert_eq!(config.diagnostics.len(), 1, "{:#?}", config.diagnostics);
        assert!(warnings[0]
            .message
            .contains("maxRandomDelay -3 is negative"));
        assert_eq!(warnings[0].position.unwrap().line, 5);
    }

    #[test]
    fn time_policy_interval_modulate_and_delay_bind() {
        let config = load(
            r#"<RollingFile name="F" fileName="f.log" filePattern="f-%d{yyyy-MM-dd-HH}.log">
  <TimeBasedTriggeringPolicy interval="4" modulate="true" maxRandomDelay="2"/>
</RollingFile>"#,
        );
        assert!(config.diagnostics.is_empty(), "{:#?}", config.diagnostics);
        assert_eq!(
            rolling_file(&config).rolling.policies,
            [TriggeringPolicySpec::Time {
                interval: 4,
                modulate: true,
                max_random_delay_seconds: 2,
            }]
        );
    }

    #[test]
    fn a_negative_min_size_is_kept_with_a_warning() {
        let config = load(
            r#"<RollingFile name="F" fileName="f.log" filePattern="f-%i.log">
  <OnStartupTriggeringPolicy minSize="-5"/>
</RollingFile>
<RollingFile name="Z" fileName="z.log" filePattern="z-%i.log"><OnStartupTriggeringPolicy minSize="0"/></RollingFile>"#,
        );
        let warnings = only(&config, Severity::Warning);
        assert_eq!(config.diagnostics.len(), 1, "{:#?}", config.diagnostics);
        assert!(warnings[0].message.contains("minSize -5 is negative"));
        assert_eq!(warnings[0].position.unwrap().line, 3);
        assert_eq!(
            rolling_file(&config).rolling.policies,
            [TriggeringPolicySpec::OnStartup { min_size: -5 }]
        );
        let AppenderKind::RollingFile(zero) = &config.appenders[1].kind else {
            panic!("RollingFile");
        };
        assert_eq!(
            zero.rolling.policies,
            [TriggeringPolicySpec::OnStartup { min_size: 0 }]
        );
    }

    #[test]
    fn an_index_in_a_directory_is_a_warning_with_its_position() {
        let config = load(
            r#"<RollingFile name="F" fileName="f.log"
    filePattern="logs-%i/f.log"><SizeBasedTriggeringPolicy/></RollingFile>
<RollingFile name="G" fileName="g.log" filePattern="logs/%d{yyyy/MM}/g-%i.log"><SizeBasedTriggeringPolicy/></RollingFile>
<RollingFile name="H" fileName="h.log" filePattern="logs/h-%i.%d{yyyy/MM}.log"><SizeBasedTriggeringPolicy/></RollingFile>"#,
        );
        let warnings = only(&config, Severity::Warning);
        assert_eq!(config.diagnostics.len(), 2, "{:#?}", config.diagnostics);
        assert!(warnings[0].message.contains("%i in a directory"));
        assert!(warnings[0].message.contains("logs-%i/f.log"));
        assert_eq!(warnings[0].position.unwrap().line, 3);
        // A date format with a `/` after the index makes a directory too.
        assert!(warnings[1].message.contains("h-%i.%d{yyyy/MM}.log"));
        assert_eq!(config.appenders.len(), 3);
    }

    #[test]
    fn strategy_values_out_of_range_are_errors_with_log4j2s_fallbacks() {
        let cases: &[(&str, &str, RolloverStrategySpec)] = &[
            (
                r#"<DefaultRolloverStrategy compressionLevel="10"/>"#,
                "Invalid compression level 10",
                default(7, 1, -1),
            ),
            (
                r#"<DefaultRolloverStrategy compressionLevel="-2"/>"#,
                "Invalid compression level -2",
                default(7, 1, -1),
            ),
            (
                r#"<DefaultRolloverStrategy min="0" max="3"/>"#,
                "Minimum window size too small",
                default(3, 1, -1),
            ),
            (
                r#"<DefaultRolloverStrategy min="5" max="3"/>"#,
                "Maximum window size must be greater than the minimum windows size. Set the maximum window size to 7",
                default(7, 5, -1),
            ),
            (
                r#"<DefaultRolloverStrategy min="9" max="3"/>"#,
                "Set the maximum window size to 9",
                default(9, 9, -1),
            ),
        ];
        for (xml, message, expected) in cases {
            let config = load(&format!(
                "<RollingFile name=\"F\" fileName=\"f.log\" filePattern=\"f-%i.log\"><SizeBasedTriggeringPolicy/>\n{xml}</RollingFile>"
            ));
            let errors = only(&config, Severity::Error);
            assert_eq!(errors.len(), 1, "{xml}: {:#?}", config.diagnostics);
            assert!(errors[0].message.contains(message), "{xml}: {errors:#?}");
            assert_eq!(errors[0].position.unwrap().line, 3, "{xml}");
            assert_eq!(strategy(&config), expected, "{xml}");
        }
        for (max_files, expected) in [("0", Some(7)), ("1", Some(7)), ("-1", None), ("2", Some(2))]
        {
            let config = load(&format!(
                "<RollingFile name=\"F\" filePattern=\"f-%i.log\"><SizeBasedTriggeringPolicy/>\n<DirectWriteRolloverStrategy maxFiles=\"{max_files}\"/></RollingFile>"
            ));
            let errors = only(&config, Severity::Error);
            if max_files == "0" || max_files == "1" {
                assert_eq!(errors.len(), 1, "{max_files}: {:#?}", config.diagnostics);
                assert!(errors[0]
                    .message
                    .contains("Maximum files too small. Limited to 7"));
                assert_eq!(errors[0].position.unwrap().line, 3);
            } else {
                assert!(config.diagnostics.is_empty(), "{:#?}", config.diagnostics);
            }
            assert!(
                matches!(strategy(&config), RolloverStrategySpec::DirectWrite { max_files: m, .. } if *m == expected),
                "{max_files}"
            );
        }
    }

    fn default(max: u32, min: u32, compression_level: i32) -> RolloverStrategySpec {
        RolloverStrategySpec::Default {
            max,
            min,
            file_index: FileIndexOrder::Max,
            compression_level,
            actions: vec![],
        }
    }

    /// The `<Delete>`s a strategy with `delete_xml` ends up with, and the diagnostics.
    fn deletes(delete_xml: &str) -> (Vec<crate::model::DeleteSpec>, Configuration) {
        let config = load(&format!(
            "<RollingFile name=\"F\" fileName=\"f.log\" filePattern=\"f-%i.log\"><SizeBasedTriggeringPolicy/><DefaultRolloverStrategy>\n{delete_xml}\n</DefaultRolloverStrategy></RollingFile>"
        ));
        let RolloverStrategySpec::Default { actions, .. } = strategy(&config) else {
            panic!("DefaultRolloverStrategy");
        };
        let deletes = actions
            .iter()
            .filter_map(|action| match action {
                ActionSpec::Delete(delete) => Some(delete.clone()),
                ActionSpec::PosixViewAttribute(_) => None,
            })
            .collect();
        (deletes, config)
    }

    #[test]
    fn a_condition_that_cannot_be_bound_drops_the_whole_delete() {
        let broken = [
            (r#"<IfFileName glob="app-[0-9.log.gz"/>"#, "Missing ']'"),
            (r#"<IfFileName regex="app-(.log"/>"#, "Invalid regex"),
            (
                r#"<IfFileName regex="(app)-\1.log"/>"#,
                "a backreference (near index 6) is not supported by l4rs",
            ),
            (r#"<IfFileName/>"#, "Specify either a path glob"),
            (r#"<IfLastModified age="ten days"/>"#, "cannot be parsed"),
            (
                r#"<IfAccumulatedFileCount exceeds="0"/>"#,
                "Count must be a positive",
            ),
            (
                r#"<IfAccumulatedFileSize exceeds="lots"/>"#,
                "Unable to parse",
            ),
            (r#"<IfNot/>"#, "IfNot needs exactly one"),
            (r#"<ScriptCondition/>"#, "ScriptCondition"),
        ];
        for (condition, reason) in broken {
            // Beside a good condition, and nested in one: either way the action is dropped.
            for delete_xml in [
                format!("<Delete basePath=\"logs\"><IfFileName glob=\"*.gz\"/>{condition}</Delete>"),
                format!("<Delete basePath=\"logs\"><IfAll><IfFileName glob=\"*.gz\"/>\n{condition}</IfAll></Delete>"),
            ] {
                let (actions, config) = deletes(&delete_xml);
                assert!(actions.is_empty(), "{delete_xml}: {actions:#?}");
                let errors = only(&config, Severity::Error);
                assert!(
                    errors.iter().any(|e| e.message.contains(reason)),
                    "{delete_xml}: {errors:#?}"
                );
                let dropped = errors
                    .iter()
                    .find(|e| e.message.contains("Delete action on logs is not created"))
                    .unwrap_or_else(|| panic!("{delete_xml}: {errors:#?}"));
                // The message and the position name the condition that failed.
                let line = if delete_xml.contains("<IfAll>") { 4 } else { 3 };
                assert_eq!(dropped.position.unwrap().line, line, "{delete_xml}");
                assert!(
                    dropped.message.contains(&format!("at {line}:")),
                    "{}",
                    dropped.message
                );
            }
        }
    }

    #[test]
    fn a_delete_without_conditions_or_base_path_is_refused() {
        let (actions, config) = deletes(r#"<Delete basePath="logs"/>"#);
        assert!(actions.is_empty());
        let errors = only(&config, Severity::Error);
        assert_eq!(errors.len(), 1, "{errors:#?}");
        assert!(errors[0]
            .message
            .contains("Missing Delete conditions: unconditional Delete not supported"));
        assert_eq!(errors[0].position.unwrap().line, 3);
        let (actions, config) = deletes(r#"<Delete><IfFileName glob="*.gz"/></Delete>"#);
        assert!(actions.is_empty());
        let errors = only(&config, Severity::Error);
        assert_eq!(errors.len(), 1, "{errors:#?}");
        assert!(errors[0]
            .message
            .contains("No basePath provided for Delete"));
    }

    #[test]
    fn file_name_regexes_are_read_as_java_reads_them() {
        let (actions, config) =
            deletes(r#"<Delete basePath="logs"><IfFileName regex="(?i)APP-\d+\.log"/></Delete>"#);
        assert!(config.diagnostics.is_empty(), "{:#?}", config.diagnostics);
        let PathConditionSpec::FileName { regex, .. } = &actions[0].conditions[0] else {
            panic!("{:?}", actions[0].conditions)
        };
        let regex = regex::Regex::new(regex).unwrap();
        assert!(regex.is_match("app-12.log"));
        // Java's `\d` is ASCII and `matches()` tests the whole path.
        assert!(!regex.is_match("app-١٢.log"));
        assert!(!regex.is_match("old/app-12.log"));
    }

    #[test]
    fn file_name_conditions_take_globs_regexes_and_their_prefixes() {
        let (actions, config) = deletes(
            r#"<Delete basePath="logs" maxDepth="3" followLinks="true" testMode="true">
  <IfFileName glob="glob:*/app-*.gz"/><IfFileName regex="regex:.*\.gz"/><IfFileName regex="app-\d+\.log"/>
  <SortByModificationTime recentFirst="false"/>
</Delete>"#,
        );
        assert!(config.diagnostics.is_empty(), "{:#?}", config.diagnostics);
        let delete = &actions[0];
        assert_eq!(
            (
                delete.max_depth,
                delete.follow_links,
                delete.test_mode,
                delete.recent_first
            ),
            (3, true, true, false)
        );
        let regexes: Vec<&str> = delete
            .conditions
            .iter()
            .map(|condition| match condition {
                PathConditionSpec::FileName { regex, .. } => regex.as_str(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            regexes,
            [
                r"^[^/]*/app\-[^/]*\.gz$",
                r"\A(?:[^\n\r\x{85}\x{2028}\x{2029}]*\x{2E}gz)\z",
                r"\A(?:app\x{2D}[0-9]+\x{2E}log)\z"
            ]
        );
    }
}
