//! This process's threads as Linux shows them under `/proc/self/task`.

use std::time::Duration;

/// The CPU time the thread of this process named `name` has used so far (Linux keeps 15
/// bytes of a name; give the name as the kernel keeps it), from the scheduler's
/// nanosecond count; `None` when no such thread runs.
pub fn thread_cpu_time(name: &str) -> Option<Duration> {
    let tasks = std::fs::read_dir("/proc/self/task").expect("/proc/self/task");
    tasks.filter_map(Result::ok).find_map(|task| {
        let path = task.path();
        let comm = std::fs::read_to_string(path.join("comm")).ok()?;
        if comm.trim_end() != name {
            return None;
        }
        let schedstat = std::fs::read_to_string(path.join("schedstat")).ok()?;
        let nanos = schedstat.split_whitespace().next()?.parse::<u64>().ok()?;
        Some(Duration::from_nanos(nanos))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spinning_thread_uses_cpu_time_and_a_missing_one_has_none() {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let spinning = std::sync::Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("cpu-time-probe".to_string())
            .spawn(move || {
                while !spinning.load(std::sync::atomic::Ordering::Relaxed) {
                    std::hint::spin_loop();
                }
            })
            .unwrap();
        std::thread::sleep(Duration::from_millis(50));
        let used = thread_cpu_time("cpu-time-probe");
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        thread.join().unwrap();
        assert!(used.is_some_and(|used| used > Duration::ZERO), "{used:?}");
        assert_eq!(thread_cpu_time("no-such-thread-here"), None);
    }
}
