//! A MemoryMappedFile appender on a filesystem that really runs out of space: a 1 MiB tmpfs
//! mounted for the test. This is where log4j2's approach (extend the file sparsely, map it,
//! write) dies of SIGBUS at the first page the filesystem cannot back; l4rs reserves each
//! region's blocks first, so the test process must survive, get ENOSPC errors for the events
//! that do not fit, and resume without a gap when space is freed.
//!
//! Mounting needs root (or CAP_SYS_ADMIN); without it the test says so and passes, and
//! `mmf_full_disk.rs` still covers the same paths through the file size limit.

use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use l4rs_appenders::MemoryMappedFileAppender;
use l4rs_config::model::MemoryMappedFileSpec;
use l4rs_core::{status, AppendError, Appender, Layout, Level, LogEvent, Message};

struct MessageLine;

impl Layout for MessageLine {
    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        event.message.write_to(out);
        out.push('\n');
    }
}

/// A small tmpfs, unmounted (lazily, so even open files cannot keep it) on drop.
struct SmallFilesystem(PathBuf);

impl SmallFilesystem {
    fn mount(bytes: usize) -> Option<SmallFilesystem> {
        remove_stale_mounts();
        let dir = std::env::temp_dir().join(format!("l4rs-enospc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).ok()?;
        let target = CString::new(dir.to_str()?).ok()?;
        let options = CString::new(format!("size={bytes}")).ok()?;
        // SAFETY: every pointer is a valid C string that outlives the call.
        let rc = unsafe {
            libc::mount(
                c"tmpfs".as_ptr(),
                target.as_ptr(),
                c"tmpfs".as_ptr(),
                0,
                options.as_ptr().cast(),
            )
        };
        if rc != 0 {
            eprintln!(
                "skipping the ENOSPC test: cannot mount a tmpfs ({})",
                std::io::Error::last_os_error()
            );
            let _ = std::fs::remove_dir(&dir);
            return None;
        }
        Some(SmallFilesystem(dir))
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

/// A test process that died (of the very SIGBUS this test is about, say) left its mount behind;
/// the mount of a process that no longer exists is removed.
fn remove_stale_mounts() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|name| name.strip_prefix("l4rs-enospc-"))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        drop(SmallFilesystem(entry.path()));
    }
}

impl Drop for SmallFilesystem {
    fn drop(&mut self) {
        if let Ok(target) = CString::new(self.0.to_string_lossy().as_bytes()) {
            // SAFETY: unmounting the filesystem this guard mounted.
            unsafe {
                libc::umount2(target.as_ptr(), libc::MNT_DETACH);
            }
        }
        let _ = std::fs::remove_dir(&self.0);
    }
}

fn log(appender: &MemoryMappedFileAppender, text: &str) -> bool {
    match appender.append(&LogEvent::new("disk", Level::INFO, Message::Text(text))) {
        Ok(()) => true,
        Err(AppendError::Io { source, .. }) => {
            assert_eq!(source.raw_os_error(), Some(libc::ENOSPC), "{source}");
            false
        }
        Err(other) => panic!("{other}"),
    }
}

#[test]
fn a_filesystem_out_of_space_is_an_error_not_a_sigbus() {
    let Some(filesystem) = SmallFilesystem::mount(1 << 20) else {
        return;
    };
    // Fill all but about 48 KiB of the filesystem.
    let filler = filesystem.path().join("filler");
    std::fs::write(&filler, vec![b'f'; (1 << 20) - 48 * 1024]).unwrap();
    let path = filesystem
        .path()
        .join("app.log")
        .to_string_lossy()
        .into_owned();
    let spec = MemoryMappedFileSpec {
        file_name: path.clone(),
        append: true,
        immediate_flush: true,
        region_length: 16 * 1024,
    };
    let appender = MemoryMappedFileAppender::new("M", &spec, Arc::new(MessageLine)).unwrap();
    let mut expected = String::new();
    let mut failed = 0;
    let ((), records) = status::capture(|| {
        for index in 0..3000 {
            let text = format!("event {index:05} while the filesystem fills up");
            if log(&appender, &text) {
                assert_eq!(
                    failed, 0,
                    "nothing is written after a failure until space returns"
                );
                expected += &text;
                expected.push('\n');
            } else {
                failed += 1;
            }
        }
    });
    assert!(
        failed > 1000,
        "{failed} failed: the filesystem should have filled up"
    );
    assert!(
        records.iter().any(|r| r.message.contains("Unable to remap")
            && r.message.contains("No space left on device")),
        "{records:?}"
    );
    std::fs::remove_file(&filler).unwrap();
    std::thread::sleep(Duration::from_millis(400));
    let ((), _) = status::capture(|| {
        for index in 0..3000 {
            let text = format!("event {index:05} after space was freed");
            assert!(log(&appender, &text), "{index}");
            expected += &text;
            expected.push('\n');
        }
    });
    appender.stop();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);
}
