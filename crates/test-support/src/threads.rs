//! This process's threads as Linux shows them under `/proc/self/task`.

use std::path::PathBuf;
use std::time::Duration;

/// Each thread of this process now: its name (Linux keeps 15 bytes of it) and its folder
/// under `/proc/self/task`. A thread that ends while this is read is left out.
pub fn threads() -> Vec<(String, PathBuf)> {
    std::fs::read_dir("/proc/self/task")
        .expect("/proc/self/task")
        .filter_map(|task| {
            let path = task.ok()?.path();
            let name = std::fs::read_to_string(path.join("comm")).ok()?;
            Some((name.trim_end().to_string(), path))
        })
        .collect()
}

/// The CPU time the thread of this process named `name` has used so far (give the name as
/// the kernel keeps it, at most 15 bytes), from the scheduler's nanosecond count; `None` when
/// no such thread runs.
///
/// # Panics
/// When the thread runs but the kernel keeps no scheduler statistics
/// (`/proc/self/task/<id>/schedstat`).
pub fn thread_cpu_time(name: &str) -> Option<Duration> {
    let (_, path) = threads().into_iter().find(|(named, _)| named == name)?;
    let schedstat = std::fs::read_to_string(path.join("schedstat"))
        .unwrap_or_else(|error| panic!("{}/schedstat: {error}", path.display()));
    let nanos = schedstat
        .split_whitespace()
        .next()
        .and_then(|nanos| nanos.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("{}/schedstat: {schedstat:?}", path.display()));
    Some(Duration::from_nanos(nanos))
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
        let listed = threads().iter().any(|(name, _)| name == "cpu-time-probe");
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        thread.join().unwrap();
        assert!(listed);
        assert!(used.is_some_and(|used| used > Duration::ZERO), "{used:?}");
        assert_eq!(thread_cpu_time("no-such-thread-here"), None);
    }
}
