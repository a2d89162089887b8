//! A MemoryMappedFile appender that cannot grow its file: the process's file size limit
//! (`RLIMIT_FSIZE`) makes the kernel refuse to extend the file at the offset where a full disk
//! would refuse blocks. l4rs must report the failure, drop (and report) the events that do not
//! fit, keep running, and resume without a gap once the file may grow again.
//!
//! This runs everywhere (no mount needed) and covers the error and recovery paths, but it is
//! not a full disk: the limit refuses even a sparse extension, so log4j2's way of growing the
//! file would fail here too instead of mapping pages the filesystem cannot back. The SIGBUS
//! hazard itself is exercised only by `mmf_enospc.rs` on a tmpfs that really runs out of space.
//!
//! The limit is process-wide, so this file holds a single test.

mod rolling_support;

use std::sync::Arc;
use std::time::Duration;

use l4rs_appenders::MemoryMappedFileAppender;
use l4rs_config::model::MemoryMappedFileSpec;
use l4rs_core::{status, Appender as _, Level};
use rolling_support::{try_log, LINES};

/// Longer than the appender's retry interval (250 ms).
const RETRY_WAIT: Duration = Duration::from_millis(400);

fn set_file_size_limit(limit: Option<u64>) {
    let value = limit.map_or(libc::RLIM_INFINITY, |l| l as libc::rlim_t);
    let mut current = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: plain system calls on a local struct.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_FSIZE, &mut current), 0);
        current.rlim_cur = value.min(current.rlim_max);
        assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &current), 0);
    }
}

fn spec(path: &str) -> MemoryMappedFileSpec {
    MemoryMappedFileSpec {
        file_name: path.to_string(),
        append: true,
        immediate_flush: true,
        region_length: 4096,
    }
}

#[test]
fn a_full_disk_is_reported_survived_and_recovered_from() {
    // The kernel also sends SIGXFSZ when a file would grow past the limit; like a full disk,
    // that must be an error, not a death.
    // SAFETY: setting a signal disposition to "ignore".
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let dir = std::env::temp_dir().join(format!("l4rs-full-disk-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();

    // 1. The disk fills up while logging: two regions fit, the third does not.
    let path = dir.join("full.log").to_string_lossy().into_owned();
    let appender = MemoryMappedFileAppender::new("M", &spec(&path), Arc::new(LINES)).unwrap();
    set_file_size_limit(Some(8192));
    let mut expected = String::new();
    let (outcomes, records) = status::capture(|| {
        (0..400)
            .map(|index| {
                let text = format!("event {index:04} before space returns");
                let written = try_log(&appender, &text, libc::EFBIG);
                if written {
                    expected += &text;
                    expected.push('\n');
                }
                written
            })
            .collect::<Vec<bool>>()
    });
    let written = outcomes.iter().filter(|&&w| w).count();
    assert!(
        written > 8192 / 40 - 5 && written < 8192 / 30,
        "{written} written"
    );
    assert!(
        outcomes[..written].iter().all(|&w| w),
        "failures start at the boundary"
    );
    assert!(
        outcomes[written..].iter().all(|&w| !w),
        "and last until space returns"
    );
    assert!(
        records.iter().any(|r| r.level == Level::ERROR
            && r.message
                .starts_with(&format!("MemoryMappedFileManager ({path}) Unable to remap"))
            && r.message.contains("File too large")),
        "{records:?}"
    );

    // 2. Space returns: after the retry interval writing resumes right after the last event
    // written, and the episode's losses are reported.
    set_file_size_limit(None);
    std::thread::sleep(RETRY_WAIT);
    let ((), records) = status::capture(|| {
        for index in 0..300 {
            let text = format!("event {index:04} after space returned");
            assert!(
                try_log(&appender, &text, libc::EFBIG),
                "event {index} after space returned"
            );
            expected += &text;
            expected.push('\n');
        }
    });
    assert!(
        records.iter().any(|r| r.message
            == format!(
                "MemoryMappedFileManager ({path}) Remapped again; {} record(s) could not be written meanwhile",
                400 - written
            )),
        "{records:?}"
    );
    appender.stop();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);

    // 3. The disk is already full when the appender starts: it starts anyway, and its first
    // region is prepared by the first writer once there is room.
    let path = dir.join("full-at-start.log").to_string_lossy().into_owned();
    set_file_size_limit(Some(100));
    let (appender, records) = status::capture(|| {
        MemoryMappedFileAppender::new("M", &spec(&path), Arc::new(LINES)).unwrap()
    });
    assert!(
        records
            .iter()
            .any(|r| r.message.contains("Unable to remap")),
        "{records:?}"
    );
    let ((), _) = status::capture(|| assert!(!try_log(&appender, "no room yet", libc::EFBIG)));
    set_file_size_limit(None);
    std::thread::sleep(RETRY_WAIT);
    let ((), _) = status::capture(|| {
        assert!(try_log(&appender, "first with room", libc::EFBIG));
        assert!(try_log(&appender, "second with room", libc::EFBIG));
    });
    appender.stop();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "first with room\nsecond with room\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
