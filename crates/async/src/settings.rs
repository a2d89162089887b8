//! Process-wide settings of asynchronous logging, read the way log4j2 reads its system
//! properties: an l4rs "system property" (set with `l4rs::set_system_property`, the
//! `${sys:…}` store) first, then the environment variable log4j2 derives from the property name
//! (`log4j2.discardThreshold` → `LOG4J_DISCARD_THRESHOLD`).

use std::time::Duration;

use l4rs_config::wait_strategy::{
    WaitStrategy, DEFAULT_SLEEP_RETRIES, DEFAULT_SLEEP_TIME, DEFAULT_TIMEOUT,
};
use l4rs_core::{status, Level};

use crate::QueueFullPolicy;

pub use l4rs_config::properties::{environment_variable_name, property};

/// `settings`, after reporting each of `problems` through the status logger.
fn reported((settings, problems): (AsyncSettings, Vec<SettingsProblem>)) -> AsyncSettings {
    for problem in problems {
        status::log(problem.level, problem.message);
    }
    settings
}

/// `lookup` without the `log4j2.asyncLoggerConfig…` properties (and their pre-2.10
/// `AsyncLoggerConfig.…` names), which log4j2's all-asynchronous queue never reads.
fn without_logger_config_family(
    lookup: impl Fn(&str) -> Option<String>,
) -> impl Fn(&str) -> Option<String> {
    move |name: &str| {
        let config_family =
            name.starts_with("log4j2.asyncLoggerConfig") || name.starts_with("AsyncLoggerConfig.");
        if config_family {
            None
        } else {
            lookup(name)
        }
    }
}

/// The ring size of the AsyncLogger queue (log4j2's name for mixed synchronous and
/// asynchronous loggers).
pub const RING_BUFFER_SIZE_PROPERTY: &str = "log4j2.asyncLoggerConfigRingBufferSize";
/// Also honoured for the ring size: the property of log4j2's all-asynchronous context selector,
/// which users often set for AsyncLogger configurations too.
pub const ALL_ASYNC_RING_BUFFER_SIZE_PROPERTY: &str = "log4j2.asyncLoggerRingBufferSize";
/// The queue-full policy: `Default` (wait) or `Discard`, in any case, or the simple or full
/// class name of either policy (`DiscardingAsyncQueueFullPolicy`,
/// `org.apache.logging.log4j.core.async.DiscardingAsyncQueueFullPolicy`), exactly.
pub const QUEUE_FULL_POLICY_PROPERTY: &str = "log4j2.asyncQueueFullPolicy";
/// The most severe level the `Discard` policy drops (default INFO).
pub const DISCARD_THRESHOLD_PROPERTY: &str = "log4j2.discardThreshold";

/// l4rs's own switch (not a log4j2 property): `true` has events formatted on the calling
/// thread, before they are queued, where a queue's events all go to one appender whose layout
/// allows it (`l4rs_core::Layout::renders_ahead`). Default `false`: on the 2-core machine the
/// benchmark runs on, it was not consistently faster and used more CPU per event, formatting
/// on the calling threads costing more than on the queue's thread (docs/benchmarks.md,
/// "Formatting ahead of the queue"). The environment form is `LOG4J_L4RS_ASYNC_RENDER_AHEAD`.
pub const RENDER_AHEAD_PROPERTY: &str = "l4rs.asyncRenderAhead";

/// How the AsyncLogger queue's idle thread waits: `Timeout` (default), `Block`, `Sleep`,
/// `Yield` or `BusySpin`, in any case ([`WaitStrategy`]). Its parameters are read from the
/// properties of the same family: `…Timeout` (milliseconds), `…SleepTimeNs` and `…Retries`.
pub const WAIT_STRATEGY_PROPERTY: &str = "log4j2.asyncLoggerConfigWaitStrategy";
/// Also honoured for the wait strategy, when [`WAIT_STRATEGY_PROPERTY`] is not set: the
/// property of log4j2's all-asynchronous context selector (its parameters then come from
/// `log4j2.asyncLoggerTimeout`, `log4j2.asyncLoggerSleepTimeNs` and `log4j2.asyncLoggerRetries`).
pub const ALL_ASYNC_WAIT_STRATEGY_PROPERTY: &str = "log4j2.asyncLoggerWaitStrategy";

/// The default ring size: log4j2's garbage-free default (4096 slots). l4rs is always
/// garbage-free, and a smaller ring reaches its allocation-free steady state sooner; log4j2's
/// 256 Ki slots default for non-garbage-free mode would pin about 100 MiB here.
pub const DEFAULT_RING_BUFFER_SIZE: usize = 4 * 1024;
/// The smallest ring log4j2 accepts.
pub const MIN_RING_BUFFER_SIZE: usize = 128;
/// The largest ring l4rs allocates (1 Mi slots, about 600 MiB with their event buffers): every
/// slot is allocated up front, so a larger request (log4j2 accepts up to 2^30) would exhaust
/// memory and abort the process.
pub const MAX_RING_BUFFER_SIZE: usize = 1024 * 1024;

/// The package of log4j2's queue-full policy classes, for their full names.
const POLICY_PACKAGE: &str = "org.apache.logging.log4j.core.async.";

/// A setting that could not be used as given, and how loudly to say so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsProblem {
    /// The status level log4j2 reports it at.
    pub level: Level,
    /// What was wrong and what is used instead.
    pub message: String,
}

/// log4j2's `AsyncQueueFullPolicyFactory.isRouterSelected`: the short name in any case, or the
/// class's full or simple name exactly.
fn selects_policy(value: &str, short: &str, class: &str) -> bool {
    value.eq_ignore_ascii_case(short)
        || value == class
        || value.strip_prefix(POLICY_PACKAGE) == Some(class)
}

/// The property names log4j2 also accepts for each setting (its pre-2.10 spellings).
const LEGACY_NAMES: &[(&str, &str)] = &[
    (
        RING_BUFFER_SIZE_PROPERTY,
        "AsyncLoggerConfig.RingBufferSize",
    ),
    (
        ALL_ASYNC_RING_BUFFER_SIZE_PROPERTY,
        "AsyncLogger.RingBufferSize",
    ),
    (QUEUE_FULL_POLICY_PROPERTY, "log4j2.AsyncQueueFullPolicy"),
    (WAIT_STRATEGY_PROPERTY, "AsyncLoggerConfig.WaitStrategy"),
    (ALL_ASYNC_WAIT_STRATEGY_PROPERTY, "AsyncLogger.WaitStrategy"),
    (
        "log4j2.asyncLoggerConfigTimeout",
        "AsyncLoggerConfig.Timeout",
    ),
    ("log4j2.asyncLoggerTimeout", "AsyncLogger.Timeout"),
    (
        "log4j2.asyncLoggerConfigSleepTimeNs",
        "AsyncLoggerConfig.SleepTimeNs",
    ),
    ("log4j2.asyncLoggerSleepTimeNs", "AsyncLogger.SleepTimeNs"),
    (
        "log4j2.asyncLoggerConfigRetries",
        "AsyncLoggerConfig.Retries",
    ),
    ("log4j2.asyncLoggerRetries", "AsyncLogger.Retries"),
    (DISCARD_THRESHOLD_PROPERTY, "log4j2.DiscardThreshold"),
];

/// Settings of the AsyncLogger queue and of every asynchronous queue's full policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AsyncSettings {
    /// Slots of the AsyncLogger ring (a power of two, at least 128).
    pub ring_buffer_size: usize,
    /// What a full blocking queue does (AsyncLogger and Async appender alike).
    pub queue_full_policy: QueueFullPolicy,
    /// Whether queues whose events all go to one appender have the events formatted with its
    /// layout on the calling thread ([`RENDER_AHEAD_PROPERTY`]).
    pub render_ahead: bool,
    /// How the AsyncLogger queue's idle thread waits ([`WAIT_STRATEGY_PROPERTY`]), unless the
    /// configuration's `<AsyncWaitStrategyFactory>` names a registered factory.
    pub wait_strategy: WaitStrategy,
}

impl Default for AsyncSettings {
    fn default() -> AsyncSettings {
        AsyncSettings {
            ring_buffer_size: DEFAULT_RING_BUFFER_SIZE,
            queue_full_policy: QueueFullPolicy::Block,
            render_ahead: false,
            wait_strategy: WaitStrategy::default(),
        }
    }
}

impl AsyncSettings {
    /// Reads the settings from l4rs system properties and the environment, reporting bad values
    /// through the status logger (the default is kept for each).
    pub fn from_environment() -> AsyncSettings {
        AsyncSettings::from_environment_given(None)
    }

    /// [`AsyncSettings::from_environment`], with the wait strategy a configuration's
    /// registered `<AsyncWaitStrategyFactory>` created, when there is one: log4j2 then never
    /// reads the wait strategy properties, so nothing is said about them either.
    pub fn from_environment_given(wait_strategy: Option<WaitStrategy>) -> AsyncSettings {
        reported(AsyncSettings::from_lookup_given(property, wait_strategy))
    }

    /// [`AsyncSettings::from_environment_given`] for log4j2's all-asynchronous mode (every
    /// logger asynchronous by its context selector), whose queue reads the ring size and wait
    /// strategy of the `log4j2.asyncLogger…` family only, never the `log4j2.asyncLoggerConfig…`
    /// one.
    pub fn from_environment_all_async(wait_strategy: Option<WaitStrategy>) -> AsyncSettings {
        reported(AsyncSettings::from_lookup_given(
            without_logger_config_family(property),
            wait_strategy,
        ))
    }

    /// Reads the settings through `lookup` (a property name to its value). Returns the settings
    /// and a problem for every value that could not be used.
    pub fn from_lookup(
        lookup: impl Fn(&str) -> Option<String>,
    ) -> (AsyncSettings, Vec<SettingsProblem>) {
        AsyncSettings::from_lookup_given(lookup, None)
    }

    /// [`AsyncSettings::from_lookup`], with the wait strategy a registered factory created
    /// instead of the one the properties name (see [`AsyncSettings::from_environment_given`]).
    pub fn from_lookup_given(
        lookup: impl Fn(&str) -> Option<String>,
        wait_strategy: Option<WaitStrategy>,
    ) -> (AsyncSettings, Vec<SettingsProblem>) {
        let lookup = |name: &str| {
            lookup(name).or_else(|| {
                LEGACY_NAMES
                    .iter()
                    .find(|(current, _)| *current == name)
                    .and_then(|(_, legacy)| lookup(legacy))
            })
        };
        let mut problems = Vec::new();
        let mut report =
            |level: Level, message: String| problems.push(SettingsProblem { level, message });
        let mut settings = AsyncSettings::default();
        let size = lookup(RING_BUFFER_SIZE_PROPERTY)
            .map(|value| (RING_BUFFER_SIZE_PROPERTY, value))
            .or_else(|| {
                lookup(ALL_ASYNC_RING_BUFFER_SIZE_PROPERTY)
                    .map(|value| (ALL_ASYNC_RING_BUFFER_SIZE_PROPERTY, value))
            });
        if let Some((name, value)) = size {
            match value.trim().parse::<usize>() {
                Ok(requested) if requested < MIN_RING_BUFFER_SIZE => {
                    report(
                        Level::WARN,
                        format!(
                            "{name}={requested} is below the minimum; using {MIN_RING_BUFFER_SIZE}"
                        ),
                    );
                    settings.ring_buffer_size = MIN_RING_BUFFER_SIZE;
                }
                Ok(requested) if requested > MAX_RING_BUFFER_SIZE => {
                    report(
                        Level::ERROR,
                        format!(
                            "{name}={requested} is above the maximum of {MAX_RING_BUFFER_SIZE} slots l4rs allocates; using {MAX_RING_BUFFER_SIZE}"
                        ),
                    );
                    settings.ring_buffer_size = MAX_RING_BUFFER_SIZE;
                }
                Ok(requested) => {
                    settings.ring_buffer_size = requested
                        .checked_next_power_of_two()
                        .unwrap_or(DEFAULT_RING_BUFFER_SIZE);
                }
                Err(_) => report(
                    Level::WARN,
                    format!("{name}={value} is not a number; using {DEFAULT_RING_BUFFER_SIZE}"),
                ),
            }
        }
        let threshold = match lookup(DISCARD_THRESHOLD_PROPERTY) {
            None => Level::INFO,
            Some(value) => Level::from_name(value.trim()).unwrap_or_else(|_| {
                report(
                    Level::WARN,
                    format!("{DISCARD_THRESHOLD_PROPERTY}={value} is not a level; using INFO"),
                );
                Level::INFO
            }),
        };
        if let Some(value) = lookup(QUEUE_FULL_POLICY_PROPERTY) {
            let value = value.trim();
            if selects_policy(value, "Discard", "DiscardingAsyncQueueFullPolicy") {
                settings.queue_full_policy = QueueFullPolicy::Discard { threshold };
            } else if !selects_policy(value, "Default", "DefaultAsyncQueueFullPolicy") {
                // log4j2 tries to load the class and, failing, says so at DEBUG.
                report(
                    Level::DEBUG,
                    format!(
                        "Using DefaultAsyncQueueFullPolicy. Could not create custom AsyncQueueFullPolicy '{value}': l4rs cannot load policy classes"
                    ),
                );
            }
        }
        if let Some(value) = lookup(RENDER_AHEAD_PROPERTY) {
            match value.trim() {
                flag if flag.eq_ignore_ascii_case("true") => settings.render_ahead = true,
                flag if flag.eq_ignore_ascii_case("false") => settings.render_ahead = false,
                _ => report(
                    Level::WARN,
                    format!(
                        "{RENDER_AHEAD_PROPERTY}={value} is neither true nor false; using false"
                    ),
                ),
            }
        }
        settings.wait_strategy =
            wait_strategy.unwrap_or_else(|| read_wait_strategy(&lookup, &mut report));
        (settings, problems)
    }
}

/// log4j2's `DefaultAsyncWaitStrategyFactory`: the strategy named by [`WAIT_STRATEGY_PROPERTY`]
/// (else [`ALL_ASYNC_WAIT_STRATEGY_PROPERTY`]), its parameters from the same family's
/// properties. log4j2 takes an unknown name or a number it cannot read for the default without
/// a word; here each is reported, and the default used.
fn read_wait_strategy(
    lookup: &impl Fn(&str) -> Option<String>,
    report: &mut impl FnMut(Level, String),
) -> WaitStrategy {
    let (family, name, value) = match lookup(WAIT_STRATEGY_PROPERTY) {
        Some(value) => ("log4j2.asyncLoggerConfig", WAIT_STRATEGY_PROPERTY, value),
        None => match lookup(ALL_ASYNC_WAIT_STRATEGY_PROPERTY) {
            Some(value) => (
                "log4j2.asyncLogger",
                ALL_ASYNC_WAIT_STRATEGY_PROPERTY,
                value,
            ),
            None => (
                "log4j2.asyncLoggerConfig",
                WAIT_STRATEGY_PROPERTY,
                String::new(),
            ),
        },
    };
    let kind = value.trim().to_ascii_uppercase();
    let known = ["", "TIMEOUT", "BLOCK", "SLEEP", "YIELD", "BUSYSPIN"].contains(&kind.as_str());
    if !known {
        report(
            Level::WARN,
            format!(
                "{name}={value} is not a wait strategy (Timeout, Block, Sleep, Yield or BusySpin); using Timeout"
            ),
        );
    }
    // log4j2 reads a Java long (an int for `Retries`); a negative one makes the strategy
    // stop waiting at once, as 0 does here. What Java cannot read is its default.
    let mut number = |parameter: &str, default: u64, max: i64| -> u64 {
        let property = format!("{family}{parameter}");
        match lookup(&property) {
            None => default,
            Some(text) => match text.trim().parse::<i64>() {
                Ok(value) if value <= max => value.max(0) as u64,
                _ => {
                    report(
                        Level::WARN,
                        format!("{property}={text} is not a number; using {default}"),
                    );
                    default
                }
            },
        }
    };
    match kind.as_str() {
        "BLOCK" => WaitStrategy::Block,
        "SLEEP" => {
            let sleep = Duration::from_nanos(number(
                "SleepTimeNs",
                DEFAULT_SLEEP_TIME.as_nanos() as u64,
                i64::MAX,
            ));
            // At most `i32::MAX`, so it fits.
            let retries = number(
                "Retries",
                u64::from(DEFAULT_SLEEP_RETRIES),
                i64::from(i32::MAX),
            ) as u32;
            WaitStrategy::Sleep { retries, sleep }
        }
        "YIELD" => WaitStrategy::Yield,
        "BUSYSPIN" => WaitStrategy::BusySpin,
        _ => WaitStrategy::Timeout(Duration::from_millis(number(
            "Timeout",
            DEFAULT_TIMEOUT.as_millis() as u64,
            i64::MAX,
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn read(pairs: &[(&str, &str)]) -> (AsyncSettings, Vec<SettingsProblem>) {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        AsyncSettings::from_lookup(|name| map.get(name).cloned())
    }

    #[test]
    fn the_all_asynchronous_queue_reads_only_its_own_family() {
        let map: HashMap<String, String> = [
            ("log4j2.asyncLoggerConfigRingBufferSize", "1024"),
            ("log4j2.asyncLoggerRingBufferSize", "512"),
            ("log4j2.asyncLoggerConfigWaitStrategy", "Yield"),
            ("AsyncLogger.WaitStrategy", "Block"),
            ("log4j2.asyncQueueFullPolicy", "Discard"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let lookup = |name: &str| map.get(name).cloned();
        let (mixed, _) = AsyncSettings::from_lookup_given(lookup, None);
        assert_eq!(
            (mixed.ring_buffer_size, mixed.wait_strategy),
            (1024, WaitStrategy::Yield)
        );
        let (all_async, problems) =
            AsyncSettings::from_lookup_given(without_logger_config_family(lookup), None);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            (all_async.ring_buffer_size, all_async.wait_strategy),
            (512, WaitStrategy::Block),
            "the asyncLogger family, by its old name too"
        );
        assert_eq!(
            all_async.queue_full_policy, mixed.queue_full_policy,
            "shared"
        );
    }

    #[test]
    fn defaults_and_values() {
        assert_eq!(read(&[]).0, AsyncSettings::default());
        let (settings, warnings) = read(&[
            (QUEUE_FULL_POLICY_PROPERTY, "discard"),
            (DISCARD_THRESHOLD_PROPERTY, "warn"),
            (ALL_ASYNC_RING_BUFFER_SIZE_PROPERTY, "1000"),
        ]);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(settings.ring_buffer_size, 1024);
        assert_eq!(
            settings.queue_full_policy,
            QueueFullPolicy::Discard {
                threshold: Level::WARN
            }
        );
        let (settings, _) = read(&[
            (RING_BUFFER_SIZE_PROPERTY, "256"),
            (ALL_ASYNC_RING_BUFFER_SIZE_PROPERTY, "1000"),
        ]);
        assert_eq!(
            settings.ring_buffer_size, 256,
            "the AsyncLoggerConfig name wins"
        );
        let (settings, _) = read(&[("log4j2.AsyncQueueFullPolicy", "Discard")]);
        assert_eq!(
            settings.queue_full_policy,
            QueueFullPolicy::Discard {
                threshold: Level::INFO
            }
        );
        let (settings, warnings) = read(&[
            (QUEUE_FULL_POLICY_PROPERTY, "Discard"),
            ("log4j2.DiscardThreshold", "ERROR"),
        ]);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(
            settings.queue_full_policy,
            QueueFullPolicy::Discard {
                threshold: Level::ERROR
            },
            "the pre-2.10 threshold name is read too"
        );
    }

    #[test]
    fn policy_class_names_select_the_policies() {
        let discard = QueueFullPolicy::Discard {
            threshold: Level::INFO,
        };
        for (value, policy) in [
            ("DISCARD", discard),
            ("DiscardingAsyncQueueFullPolicy", discard),
            (
                "org.apache.logging.log4j.core.async.DiscardingAsyncQueueFullPolicy",
                discard,
            ),
            ("default", QueueFullPolicy::Block),
            ("DefaultAsyncQueueFullPolicy", QueueFullPolicy::Block),
            (
                "org.apache.logging.log4j.core.async.DefaultAsyncQueueFullPolicy",
                QueueFullPolicy::Block,
            ),
        ] {
            let (settings, problems) = read(&[(QUEUE_FULL_POLICY_PROPERTY, value)]);
            assert_eq!(settings.queue_full_policy, policy, "{value}");
            assert!(problems.is_empty(), "{value}: {problems:?}");
        }
        // Class names are matched exactly, as Java's `String.equals`; only the short names
        // ignore case. Anything else is a custom class, which falls back to Default.
        for value in [
            "discardingasyncqueuefullpolicy",
            "com.example.DiscardingAsyncQueueFullPolicy",
            "com.example.Policy",
        ] {
            let (settings, problems) = read(&[(QUEUE_FULL_POLICY_PROPERTY, value)]);
            assert_eq!(
                settings.queue_full_policy,
                QueueFullPolicy::Block,
                "{value}"
            );
            assert_eq!(problems.len(), 1, "{value}: {problems:?}");
            assert_eq!(problems[0].level, Level::DEBUG);
            assert!(
                problems[0].message.starts_with(&format!(
                    "Using DefaultAsyncQueueFullPolicy. Could not create custom AsyncQueueFullPolicy '{value}'"
                )),
                "{problems:?}"
            );
        }
    }

    #[test]
    fn an_impossible_ring_size_is_an_error_and_the_maximum_is_used() {
        for value in ["2147483647", "100000000", "18446744073709551615"] {
            let (settings, problems) = read(&[(RING_BUFFER_SIZE_PROPERTY, value)]);
            assert_eq!(settings.ring_buffer_size, MAX_RING_BUFFER_SIZE, "{value}");
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert_eq!(problems[0].level, Level::ERROR);
            assert!(problems[0].message.contains(value), "{problems:?}");
            assert!(problems[0].message.contains("1048576"), "{problems:?}");
        }
        let (settings, problems) = read(&[(RING_BUFFER_SIZE_PROPERTY, "1048576")]);
        assert_eq!(
            (settings.ring_buffer_size, problems.len()),
            (MAX_RING_BUFFER_SIZE, 0)
        );
    }

    #[test]
    fn bad_values_warn_and_keep_defaults() {
        let (settings, warnings) = read(&[
            (RING_BUFFER_SIZE_PROPERTY, "12"),
            (QUEUE_FULL_POLICY_PROPERTY, "com.example.Policy"),
            (DISCARD_THRESHOLD_PROPERTY, "loud"),
        ]);
        assert_eq!(settings.ring_buffer_size, MIN_RING_BUFFER_SIZE);
        assert_eq!(settings.queue_full_policy, QueueFullPolicy::Block);
        let levels: Vec<Level> = warnings.iter().map(|w| w.level).collect();
        assert_eq!(
            levels,
            [Level::WARN, Level::WARN, Level::DEBUG],
            "{warnings:?}"
        );
        let (settings, warnings) = read(&[(RING_BUFFER_SIZE_PROPERTY, "lots")]);
        assert_eq!(settings.ring_buffer_size, DEFAULT_RING_BUFFER_SIZE);
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn wait_strategies_are_read_as_log4j2_reads_them() {
        assert_eq!(read(&[]).0.wait_strategy, WaitStrategy::default());
        for (value, strategy) in [
            ("timeout", WaitStrategy::Timeout(Duration::from_millis(10))),
            ("Block", WaitStrategy::Block),
            ("YIELD", WaitStrategy::Yield),
            ("busySpin", WaitStrategy::BusySpin),
            (
                "Sleep",
                WaitStrategy::Sleep {
                    retries: 200,
                    sleep: Duration::from_nanos(100),
                },
            ),
        ] {
            let (settings, problems) = read(&[(WAIT_STRATEGY_PROPERTY, value)]);
            assert_eq!(settings.wait_strategy, strategy, "{value}");
            assert!(problems.is_empty(), "{value}: {problems:?}");
        }
        // The parameters come from the family that named the strategy.
        let (settings, problems) = read(&[
            (WAIT_STRATEGY_PROPERTY, "Sleep"),
            ("log4j2.asyncLoggerConfigSleepTimeNs", "5000"),
            ("AsyncLoggerConfig.Retries", "7"),
            ("log4j2.asyncLoggerRetries", "9"),
        ]);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            settings.wait_strategy,
            WaitStrategy::Sleep {
                retries: 7,
                sleep: Duration::from_micros(5)
            }
        );
        let (settings, _) = read(&[
            ("AsyncLogger.WaitStrategy", "timeout"),
            ("log4j2.asyncLoggerTimeout", "3"),
            ("log4j2.asyncLoggerConfigTimeout", "99"),
        ]);
        assert_eq!(
            settings.wait_strategy,
            WaitStrategy::Timeout(Duration::from_millis(3)),
            "the all-asynchronous family, by its pre-2.10 name"
        );
        let (settings, _) = read(&[
            (WAIT_STRATEGY_PROPERTY, "Yield"),
            (ALL_ASYNC_WAIT_STRATEGY_PROPERTY, "BusySpin"),
        ]);
        assert_eq!(
            settings.wait_strategy,
            WaitStrategy::Yield,
            "the AsyncLoggerConfig name wins"
        );
        let (settings, _) = read(&[(WAIT_STRATEGY_PROPERTY, " Block ")]);
        assert_eq!(
            settings.wait_strategy,
            WaitStrategy::Block,
            "l4rs trims the name, as it trims its other settings (log4j2 does not)"
        );
        let (settings, problems) = read(&[
            (WAIT_STRATEGY_PROPERTY, "Sleep"),
            ("log4j2.asyncLoggerConfigRetries", "-1"),
            ("log4j2.asyncLoggerConfigSleepTimeNs", "-5"),
        ]);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            settings.wait_strategy,
            WaitStrategy::Sleep {
                retries: 0,
                sleep: Duration::ZERO
            },
            "a negative number stops the waiting at once, as in log4j2"
        );
        let (settings, _) = read(&[("log4j2.asyncLoggerConfigTimeout", "25")]);
        assert_eq!(
            settings.wait_strategy,
            WaitStrategy::Timeout(Duration::from_millis(25)),
            "the default strategy takes its timeout"
        );
    }

    #[test]
    fn a_bad_wait_strategy_or_parameter_warns_and_keeps_the_default() {
        let (settings, problems) = read(&[(WAIT_STRATEGY_PROPERTY, "Spin")]);
        assert_eq!(settings.wait_strategy, WaitStrategy::default());
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].level, Level::WARN);
        assert!(
            problems[0]
                .message
                .starts_with("log4j2.asyncLoggerConfigWaitStrategy=Spin is not a wait strategy"),
            "{problems:?}"
        );
        let (settings, problems) = read(&[
            (WAIT_STRATEGY_PROPERTY, "Sleep"),
            ("log4j2.asyncLoggerConfigRetries", "2147483648"),
            ("log4j2.asyncLoggerConfigSleepTimeNs", "1e3"),
        ]);
        assert_eq!(
            settings.wait_strategy,
            WaitStrategy::Sleep {
                retries: 200,
                sleep: Duration::from_nanos(100)
            }
        );
        let messages: Vec<&str> = problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "log4j2.asyncLoggerConfigSleepTimeNs=1e3 is not a number; using 100",
                "log4j2.asyncLoggerConfigRetries=2147483648 is not a number; using 200",
            ]
        );
    }

    #[test]
    fn a_factorys_strategy_leaves_the_wait_properties_unread() {
        let bad = [
            (WAIT_STRATEGY_PROPERTY, "Spin"),
            ("log4j2.asyncLoggerConfigTimeout", "soon"),
        ];
        let map: HashMap<String, String> = bad
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let (settings, problems) = AsyncSettings::from_lookup_given(
            |name| map.get(name).cloned(),
            Some(WaitStrategy::Yield),
        );
        assert_eq!(settings.wait_strategy, WaitStrategy::Yield);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            read(&bad).1.len(),
            2,
            "read without a factory, both are reported"
        );
    }

    #[test]
    fn rendering_ahead_is_off_unless_switched_on() {
        assert!(!read(&[]).0.render_ahead);
        let (settings, warnings) = read(&[(RENDER_AHEAD_PROPERTY, " True ")]);
        assert!(settings.render_ahead);
        assert!(warnings.is_empty(), "{warnings:?}");
        let (settings, warnings) = read(&[(RENDER_AHEAD_PROPERTY, "yes")]);
        assert!(!settings.render_ahead, "a bad value keeps the default");
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].message.contains("l4rs.asyncRenderAhead=yes"),
            "{warnings:?}"
        );
        assert_eq!(
            environment_variable_name(RENDER_AHEAD_PROPERTY),
            "LOG4J_L4RS_ASYNC_RENDER_AHEAD"
        );
    }
}
