//! `flush_all` and `stop_all` reach the RandomAccessFile and MemoryMappedFile managers too (the
//! facade's last resort at process exit). They act on every manager of the process, so they run
//! in this test process of their own.

mod rolling_support;

use std::sync::Arc;

use l4rs_appenders::{flush_all, stop_all, MemoryMappedFileAppender, RandomAccessFileAppender};
use l4rs_config::model::{MemoryMappedFileSpec, RandomAccessFileSpec};
use l4rs_core::{AppendError, Appender, Level, LogEvent, Message};
use rolling_support::LineLayout;

/// `<message>\n`, with the footer `footer\n`.
const FOOTED: LineLayout = LineLayout::with_header_footer("", "footer\n");

fn event(text: &'static str) -> LogEvent<'static> {
    LogEvent::new("t", Level::INFO, Message::Text(text))
}

#[test]
fn flush_all_and_stop_all_reach_every_file_appender() {
    let dir = std::env::temp_dir().join(format!("l4rs-registries-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let raf_path = dir.join("raf.log").to_string_lossy().into_owned();
    let mmf_path = dir.join("mmf.log").to_string_lossy().into_owned();
    let raf = RandomAccessFileAppender::new(
        "R",
        &RandomAccessFileSpec {
            file_name: raf_path.clone(),
            append: true,
            immediate_flush: false,
            buffer_size: 262_144,
        },
        Arc::new(FOOTED),
    )
    .unwrap();
    let mmf = MemoryMappedFileAppender::new(
        "M",
        &MemoryMappedFileSpec {
            file_name: mmf_path.clone(),
            append: true,
            immediate_flush: false,
            region_length: 4096,
        },
        Arc::new(FOOTED),
    )
    .unwrap();
    raf.append(&event("buffered")).unwrap();
    mmf.append(&event("mapped")).unwrap();
    assert_eq!(std::fs::read_to_string(&raf_path).unwrap(), "");
    assert_eq!(std::fs::metadata(&mmf_path).unwrap().len(), 4096);

    flush_all();
    assert_eq!(std::fs::read_to_string(&raf_path).unwrap(), "buffered\n");

    stop_all();
    assert_eq!(
        std::fs::read_to_string(&raf_path).unwrap(),
        "buffered\nfooter\n"
    );
    assert_eq!(
        std::fs::read_to_string(&mmf_path).unwrap(),
        "mapped\nfooter\n"
    );
    assert!(matches!(
        raf.append(&event("late")),
        Err(AppendError::NotStarted(_))
    ));
    assert!(matches!(
        mmf.append(&event("late")),
        Err(AppendError::NotStarted(_))
    ));
    // Stopping the appenders afterwards is harmless.
    raf.stop();
    mmf.stop();
    assert_eq!(
        std::fs::read_to_string(&mmf_path).unwrap(),
        "mapped\nfooter\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
