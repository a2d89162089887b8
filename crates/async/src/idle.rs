//! What the background thread of a queue does while the queue is empty: one step of its
//! [`WaitStrategy`] per look at the ring.

use std::time::Duration;

use l4rs_config::wait_strategy::WaitStrategy;

/// Busy polls before a blocking strategy ([`WaitStrategy::Timeout`], [`WaitStrategy::Block`])
/// starts yielding, then parks: short enough not to steal a core from producers on small
/// machines, long enough to catch a burst without a producer paying for a wake-up.
const SPINS: u32 = 64;
/// Yields between the busy polls and the park of a blocking strategy.
const YIELDS: u32 = 8;
/// Busy polls before [`WaitStrategy::Yield`] starts yielding (the Disruptor's 100).
const YIELD_STRATEGY_SPINS: u32 = 100;
/// The last polls of [`WaitStrategy::Sleep`]'s retries yield instead of spinning (the
/// Disruptor's 100).
const SLEEP_STRATEGY_YIELDS: u32 = 100;

/// One step of waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IdleStep {
    /// Look again at once (a pause hint to the CPU).
    Spin,
    /// Give the CPU to another thread, then look again.
    Yield,
    /// Announce the park, so that the next producer wakes the thread, and park until woken
    /// or for at most the duration.
    Park(Option<Duration>),
    /// Park for the duration without announcing it: no producer wakes the thread (a stop
    /// still does).
    Nap(Duration),
}

/// Counts the looks at an empty ring since the last event and gives the step for each.
#[derive(Debug)]
pub(crate) struct IdleWait {
    strategy: WaitStrategy,
    looks: u32,
}

impl IdleWait {
    pub(crate) fn new(strategy: WaitStrategy) -> IdleWait {
        IdleWait { strategy, looks: 0 }
    }

    /// The ring had an event: the next idle period starts from the first step.
    pub(crate) fn reset(&mut self) {
        self.looks = 0;
    }

    /// The step after another look found the ring empty.
    pub(crate) fn next_step(&mut self) -> IdleStep {
        self.looks = self.looks.saturating_add(1);
        let looks = self.looks;
        let blocking = |timeout| {
            if looks <= SPINS {
                IdleStep::Spin
            } else if looks <= SPINS + YIELDS {
                IdleStep::Yield
            } else {
                IdleStep::Park(timeout)
            }
        };
        match self.strategy {
            WaitStrategy::Timeout(timeout) => blocking(Some(timeout)),
            WaitStrategy::Block => blocking(None),
            WaitStrategy::Sleep { retries, sleep } => {
                if looks <= retries.saturating_sub(SLEEP_STRATEGY_YIELDS) {
                    IdleStep::Spin
                } else if looks <= retries {
                    IdleStep::Yield
                } else {
                    IdleStep::Nap(sleep)
                }
            }
            WaitStrategy::Yield if looks <= YIELD_STRATEGY_SPINS => IdleStep::Spin,
            WaitStrategy::Yield => IdleStep::Yield,
            WaitStrategy::BusySpin => IdleStep::Spin,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The steps of the first `looks` looks, run-length encoded.
    fn steps(strategy: WaitStrategy, looks: usize) -> Vec<(IdleStep, usize)> {
        let mut wait = IdleWait::new(strategy);
        let mut runs: Vec<(IdleStep, usize)> = Vec::new();
        for _ in 0..looks {
            let step = wait.next_step();
            match runs.last_mut() {
                Some((last, count)) if *last == step => *count += 1,
                _ => runs.push((step, 1)),
            }
        }
        runs
    }

    #[test]
    fn blocking_strategies_spin_and_yield_before_they_park() {
        let timeout = Duration::from_millis(10);
        assert_eq!(
            steps(WaitStrategy::Timeout(timeout), 80),
            [
                (IdleStep::Spin, 64),
                (IdleStep::Yield, 8),
                (IdleStep::Park(Some(timeout)), 8)
            ]
        );
        assert_eq!(
            steps(WaitStrategy::Block, 73).last(),
            Some(&(IdleStep::Park(None), 1))
        );
    }

    #[test]
    fn the_disruptors_strategies_keep_their_counts() {
        let sleep = Duration::from_nanos(100);
        assert_eq!(
            steps(
                WaitStrategy::Sleep {
                    retries: 200,
                    sleep
                },
                210
            ),
            [
                (IdleStep::Spin, 100),
                (IdleStep::Yield, 100),
                (IdleStep::Nap(sleep), 10)
            ]
        );
        assert_eq!(
            steps(WaitStrategy::Sleep { retries: 30, sleep }, 31),
            [(IdleStep::Yield, 30), (IdleStep::Nap(sleep), 1)]
        );
        assert_eq!(
            steps(WaitStrategy::Yield, 1000),
            [(IdleStep::Spin, 100), (IdleStep::Yield, 900)]
        );
        assert_eq!(
            steps(WaitStrategy::BusySpin, 1000),
            [(IdleStep::Spin, 1000)]
        );
    }

    #[test]
    fn an_event_starts_the_steps_over() {
        let mut wait = IdleWait::new(WaitStrategy::Yield);
        for _ in 0..150 {
            wait.next_step();
        }
        assert_eq!(wait.next_step(), IdleStep::Yield);
        wait.reset();
        assert_eq!(wait.next_step(), IdleStep::Spin);
    }
}
