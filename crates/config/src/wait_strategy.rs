//! How an idle asynchronous queue waits for its next event: log4j2's wait strategies (the LMAX
//! Disruptor's, chosen with `log4j2.asyncLoggerConfigWaitStrategy`), and the registry that
//! stands in for `<AsyncWaitStrategyFactory class="…"/>`.
//!
//! log4j2 loads the factory class a configuration names and asks it for a strategy. A Rust
//! program has no class path, so it registers a factory under the class name its configuration
//! uses ([`register_factory`]); the loader calls it where log4j2 would load the class, and an
//! unregistered name is reported as log4j2 reports a class it cannot find.

use std::collections::HashMap;
use std::sync::{PoisonError, RwLock};
use std::time::Duration;

/// How the background thread of an asynchronous queue waits while the queue is empty, and
/// whether producers must wake it.
///
/// Every strategy first polls a few times; they differ in what comes after. The blocking ones
/// ([`WaitStrategy::Timeout`], [`WaitStrategy::Block`]) park the thread and have a producer
/// wake it (a system call on the producer's path, once per wake-up); the others never park
/// for long and never need waking, trading idle CPU for a cheaper hand-over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WaitStrategy {
    /// Sleep until a producer wakes the thread, looking again after the timeout even without a
    /// wake-up (log4j2's default `TIMEOUT`, 10 ms unless `…Timeout` says otherwise).
    Timeout(Duration),
    /// Sleep until a producer wakes the thread (`BLOCK`).
    Block,
    /// Poll `retries` times in all, yielding the CPU in the last 100 of them, then sleep
    /// `sleep` between polls; producers never wake the thread (`SLEEP`, log4j2's defaults
    /// 200 retries and 100 ns, which the kernel's timer rounds up to tens of microseconds).
    Sleep {
        /// Polls before the thread starts sleeping (`…Retries`).
        retries: u32,
        /// How long each sleep asks for (`…SleepTimeNs`).
        sleep: Duration,
    },
    /// Poll 100 times, then yield the CPU between polls; producers never wake the thread
    /// (`YIELD`).
    Yield,
    /// Poll without pause: a core stays busy while the queue is idle; producers never wake the
    /// thread (`BUSYSPIN`).
    BusySpin,
}

/// log4j2's default `…Timeout` of the `TIMEOUT` strategy.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_millis(10);
/// log4j2's default `…Retries` of the `SLEEP` strategy.
pub const DEFAULT_SLEEP_RETRIES: u32 = 200;
/// log4j2's default `…SleepTimeNs` of the `SLEEP` strategy.
pub const DEFAULT_SLEEP_TIME: Duration = Duration::from_nanos(100);

impl Default for WaitStrategy {
    fn default() -> WaitStrategy {
        WaitStrategy::Timeout(DEFAULT_TIMEOUT)
    }
}

impl WaitStrategy {
    /// The property value that selects this kind of strategy (`TIMEOUT`, `BLOCK`, `SLEEP`,
    /// `YIELD`, `BUSYSPIN`).
    pub fn name(self) -> &'static str {
        match self {
            WaitStrategy::Timeout(_) => "TIMEOUT",
            WaitStrategy::Block => "BLOCK",
            WaitStrategy::Sleep { .. } => "SLEEP",
            WaitStrategy::Yield => "YIELD",
            WaitStrategy::BusySpin => "BUSYSPIN",
        }
    }
}

impl std::fmt::Display for WaitStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WaitStrategy::Timeout(timeout) => write!(f, "TIMEOUT({timeout:?})"),
            WaitStrategy::Sleep { retries, sleep } => write!(
                f,
                "SLEEP(retries={retries}, sleepTimeNs={})",
                sleep.as_nanos()
            ),
            other => f.write_str(other.name()),
        }
    }
}

/// A factory registered for a class name: what log4j2's `AsyncWaitStrategyFactory`
/// implementation of that name would create.
pub type WaitStrategyFactory = fn() -> WaitStrategy;

static FACTORIES: RwLock<Option<HashMap<String, WaitStrategyFactory>>> = RwLock::new(None);

/// Registers `factory` under `class_name`, the `class` a configuration's
/// `<AsyncWaitStrategyFactory>` names, replacing any factory registered under it before.
/// Configurations loaded afterwards (a reload included) use it.
pub fn register_factory(class_name: &str, factory: WaitStrategyFactory) {
    let mut factories = FACTORIES.write().unwrap_or_else(PoisonError::into_inner);
    factories
        .get_or_insert_with(HashMap::new)
        .insert(class_name.to_string(), factory);
}

/// The factory registered under `class_name`, if any.
pub fn registered_factory(class_name: &str) -> Option<WaitStrategyFactory> {
    let factories = FACTORIES.read().unwrap_or_else(PoisonError::into_inner);
    factories.as_ref()?.get(class_name).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_log4j2s_ten_millisecond_timeout() {
        assert_eq!(
            WaitStrategy::default(),
            WaitStrategy::Timeout(DEFAULT_TIMEOUT)
        );
        assert_eq!(WaitStrategy::default().to_string(), "TIMEOUT(10ms)");
    }

    #[test]
    fn a_registered_factory_is_found_by_its_exact_class_name() {
        fn yielding() -> WaitStrategy {
            WaitStrategy::Yield
        }
        fn spinning() -> WaitStrategy {
            WaitStrategy::BusySpin
        }
        let class = "org.example.wait_strategy_unit_test.Factory";
        assert!(registered_factory(class).is_none());
        register_factory(class, yielding);
        assert_eq!(
            registered_factory(class).map(|f| f()),
            Some(WaitStrategy::Yield)
        );
        register_factory(class, spinning);
        assert_eq!(
            registered_factory(class).map(|f| f()),
            Some(WaitStrategy::BusySpin)
        );
        assert!(registered_factory(&class.to_lowercase()).is_none());
    }
}
