//! How a memory-mapped file's own threads (its keeper and its syncer) ask the scheduler to
//! treat them: as batch work, whose wake-ups do not preempt the threads that log.
//!
//! A keeper wakes thousands of times a second while a file is written fast (each write that
//! crosses into new pages asks it to populate more ahead), and each run takes tens to hundreds
//! of microseconds. By default the kernel lets a waking thread preempt a running one, so on a
//! small machine those runs landed in the middle of logging calls: in the bench's
//! `--latency` MemoryMappedFile row, and in the asynchronous rows, where the queue's one
//! thread lost its core to them.
//!
//! Linux's `SCHED_BATCH` keeps the thread's share of the CPU (its nice value is unchanged) and
//! only stops its wake-ups from preempting: it runs on an idle core at once, or when the
//! running thread's slice ends. No privilege is needed to choose it.

/// Makes the calling thread batch work (`SCHED_BATCH`). A refusal (a seccomp filter, an
/// operating system without the policy) leaves the default, which works, with more
/// preemption of the logging threads.
pub(crate) fn run_as_batch_work() {
    // Through pthreads rather than `sched_setscheduler`: musl's `sched_setscheduler` does
    // nothing (ENOSYS), and either way only this thread changes, not its process.
    #[cfg(target_os = "linux")]
    {
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: `param` is a valid `sched_param` and `pthread_self` a live thread.
        unsafe {
            libc::pthread_setschedparam(libc::pthread_self(), libc::SCHED_BATCH, &param);
        }
    }
}

/// The calling thread's scheduling policy, for tests.
#[cfg(all(test, target_os = "linux"))]
pub(crate) fn current_policy() -> libc::c_int {
    let mut policy = 0;
    let mut param = libc::sched_param { sched_priority: 0 };
    // SAFETY: both pointers are to live locals; `pthread_self` is a live thread.
    let rc = unsafe { libc::pthread_getschedparam(libc::pthread_self(), &mut policy, &mut param) };
    assert_eq!(rc, 0, "pthread_getschedparam failed");
    policy
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_thread_made_batch_work_has_the_batch_policy_and_no_other_thread_does() {
        // Whatever the test runner's own policy (`chrt -b` would start it as batch work), the
        // spawned thread's change must not reach this thread.
        let before = current_policy();
        let inside = std::thread::spawn(|| {
            run_as_batch_work();
            current_policy()
        })
        .join()
        .unwrap();
        assert_eq!(inside, libc::SCHED_BATCH);
        assert_eq!(current_policy(), before, "the policy is the thread's own");
    }
}
