//! `CronTriggeringPolicy`'s timer: a thread that rolls the manager on its schedule when no
//! event does.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

use l4rs_config::rolling::CronExpression;
use l4rs_core::status;

use super::clock::RolloverClock;
use super::manager::{Cause, RollingManager};
use super::Backend;

/// The thread that rolls on a cron schedule.
pub(super) struct CronTimer {
    stop: Arc<AtomicBool>,
    clock: Arc<dyn RolloverClock>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl CronTimer {
    pub(super) fn start<B: Backend + Send + Sync>(
        manager: Weak<RollingManager<B>>,
        schedule: CronExpression,
        clock: Arc<dyn RolloverClock>,
    ) -> Option<CronTimer> {
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = Arc::clone(&stop);
        let thread_clock = Arc::clone(&clock);
        let zone = jiff::tz::TimeZone::system();
        let thread = std::thread::Builder::new()
            .name("l4rs-rollover-cron".to_string())
            .spawn(move || {
                let mut after = thread_clock.now_millis();
                while !thread_stop.load(Ordering::Acquire) {
                    let Some(fire) = schedule.next_after(after, &zone) else {
                        return;
                    };
                    thread_clock.sleep_until(fire, &thread_stop);
                    if thread_stop.load(Ordering::Acquire) {
                        return;
                    }
                    let Some(manager) = manager.upgrade() else {
                        return;
                    };
                    manager.roll(Cause::Cron(fire));
                    after = fire;
                }
            });
        match thread {
            Ok(thread) => Some(CronTimer {
                stop,
                clock,
                thread: Some(thread),
            }),
            Err(error) => {
                status::error(format_args!(
                    "Unable to start the CronTriggeringPolicy timer: {error}"
                ));
                None
            }
        }
    }

    pub(super) fn stop(mut self) {
        self.stop.store(true, Ordering::Release);
        self.clock.wake();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
