//! A MemoryMappedFile appender on a filesystem that really runs out of space: a 1 MiB tmpfs
//! mounted for the test. This is where log4j2's approach (extend the file sparsely, map it,
//! write) dies of SIGBUS at the first page the filesystem cannot back; l4rs reserves each
//! region's blocks first, so the test process must survive, get ENOSPC errors for the events
//! that do not fit, and resume without a gap when space is freed.
//!
//! Mounting needs root (or CAP_SYS_ADMIN); without it the test says so and passes, unless
//! `L4RS_REQUIRE_TMPFS=1` is set (as CI does), which turns the skip into a failure. Only this
//! test exercises the SIGBUS hazard itself: `mmf_full_disk.rs` drives the same error and
//! recovery paths through the file size limit, where a sparse extension fails up front and no
//! page is ever left without backing.

mod rolling_support;

use std::sync::Arc;
use std::time::Duration;

use l4rs_appenders::MemoryMappedFileAppender;
use l4rs_config::model::MemoryMappedFileSpec;
use l4rs_core::{status, Appender as _};
use l4rs_test_support::tmpfs::SmallFilesystem;
use rolling_support::{try_log, LINES};

#[test]
fn a_filesystem_out_of_space_is_an_error_not_a_sigbus() {
    let Some(filesystem) = SmallFilesystem::mount("enospc", "size=1048576") else {
        return;
    };
    // Fill all but about 48 KiB of the filesystem.
    let filler = filesystem.fill((1 << 20) - 48 * 1024);
    let path = filesystem.file("app.log");
    let spec = MemoryMappedFileSpec {
        file_name: path.clone(),
        append: true,
        immediate_flush: true,
        region_length: 16 * 1024,
    };
    let appender = MemoryMappedFileAppender::new("M", &spec, Arc::new(LINES)).unwrap();
    let mut expected = String::new();
    let mut failed = 0;
    let ((), records) = status::capture(|| {
        for index in 0..3000 {
            let text = format!("event {index:05} while the filesystem fills up");
            if try_log(&appender, &text, libc::ENOSPC) {
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
            assert!(try_log(&appender, &text, libc::ENOSPC), "{index}");
            expected += &text;
            expected.push('\n');
        }
    });
    appender.stop();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);
}
