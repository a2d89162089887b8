//! `flush_all` and `stop_all` reach every manager of the process, so they run here, in their own
//! test process, where they cannot disturb the unit tests' files.

mod rolling_support;

use std::sync::Arc;

use l4rs_appenders::{build_appender, flush_all, stop_all};
use l4rs_config::model::{AppenderKind, AppenderSpec, ConsoleSpec, ConsoleTarget, FileSpec};
use l4rs_core::{AppendError, Level, LogEvent, Message};
use rolling_support::LineLayout;

/// `<message>\n`, with the footer `footer\n`.
const FOOTED: LineLayout = LineLayout::with_header_footer("", "footer\n");

fn appender_spec(name: &str, kind: AppenderKind) -> AppenderSpec {
    AppenderSpec {
        name: name.to_string(),
        ignore_exceptions: true,
        layout: None,
        filter: None,
        kind,
        position: None,
    }
}

#[test]
fn flush_all_and_stop_all_reach_every_manager() {
    let dir = std::env::temp_dir().join(format!("l4rs-appenders-exit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("exit.log").to_string_lossy().into_owned();
    let file = build_appender(
        &appender_spec(
            "F",
            AppenderKind::File(FileSpec {
                file_name: path.clone(),
                append: true,
                buffered_io: true,
                buffer_size: 8192,
                immediate_flush: false,
                locking: false,
                create_on_demand: false,
                file_permissions: None,
                file_owner: None,
                file_group: None,
            }),
        ),
        Arc::new(FOOTED),
    )
    .unwrap();
    let console = build_appender(
        &appender_spec(
            "C",
            AppenderKind::Console(ConsoleSpec {
                target: ConsoleTarget::SystemErr,
                follow: false,
                direct: true,
            }),
        ),
        Arc::new(FOOTED),
    )
    .unwrap();
    let event = LogEvent::new("exit", Level::INFO, Message::Text("buffered"));
    file.append(&event).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
    flush_all();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "buffered\n");
    file.append(&event).unwrap();
    stop_all();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "buffered\nbuffered\nfooter\n"
    );
    assert!(matches!(
        file.append(&event),
        Err(AppendError::NotStarted(_))
    ));
    assert!(matches!(
        console.append(&event),
        Err(AppendError::NotStarted(_))
    ));
    // The appenders' own stop after stop_all changes nothing.
    file.stop();
    console.stop();
    stop_all();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "buffered\nbuffered\nfooter\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
