//! Appending allocates nothing per event once warm: counted with a per-thread allocation counter
//! (in its own test binary, since it replaces the global allocator).

use std::sync::Arc;

use l4rs_appenders::FileAppender;
use l4rs_config::model::FileSpec;
use l4rs_core::{Appender, Layout, Level, LogEvent, Message};
use l4rs_test_support::allocations::{self, CountingAllocator};
use l4rs_test_support::LineLayout;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(allocations::count_on_this_thread);

/// `<LEVEL> <message>\n`.
const LINES: LineLayout = LineLayout::new().with_level();

/// Appends `count` events whose message is formatted from arguments.
fn log_events(appender: &dyn Appender, count: usize) {
    for i in 0..count {
        let args = format_args!("event number {i} with some text");
        appender
            .append(&LogEvent::new("alloc", Level::INFO, Message::Args(args)))
            .unwrap();
    }
}

#[test]
fn the_counter_sees_allocations() {
    assert!(allocations::allocations_during(|| drop(std::hint::black_box(vec![1u8; 16]))) > 0);
}

#[test]
fn steady_state_appending_allocates_nothing() {
    let dir = std::env::temp_dir().join(format!("l4rs-appenders-alloc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (buffered_io, immediate_flush, locking) in [
        (true, true, false),
        (true, false, false),
        (false, true, false),
        (false, true, true),
    ] {
        let spec = FileSpec {
            file_name: dir
                .join(format!(
                    "alloc-{buffered_io}-{immediate_flush}-{locking}.log"
                ))
                .to_string_lossy()
                .into_owned(),
            append: true,
            buffered_io,
            buffer_size: 8192,
            immediate_flush,
            locking,
            create_on_demand: false,
            file_permissions: None,
            file_owner: None,
            file_group: None,
        };
        let appender = FileAppender::new("A", &spec, Arc::new(LINES)).unwrap();
        let run = |count| log_events(&appender, count);
        run(100);
        assert_eq!(
            allocations::allocations_during(|| run(2000)),
            0,
            "bufferedIo={buffered_io} immediateFlush={immediate_flush} locking={locking}"
        );
        appender.stop();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The rolling appenders between rollovers: the policy check is two atomic loads and the write
/// is the plain appender's, so nothing is allocated until a policy triggers. A size limit and
/// a time policy are configured (far from triggering) so that both checks run on each event.
#[test]
fn rolling_steady_state_allocates_nothing() {
    use l4rs_appenders::{
        RollingFileAppender, RollingMemoryMappedFileAppender, RollingRandomAccessFileAppender,
    };
    use l4rs_config::model::AppenderKind;

    let dir = std::env::temp_dir().join(format!("l4rs-rolling-alloc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let xml = |element: &str, extra: &str| {
        format!(
            r#"<Configuration><Appenders>
                 <{element} name="A" fileName="{dir}/{element}.log" {extra}
                            filePattern="{dir}/{element}-%d{{yyyy-MM-dd}}-%i.log.gz">
                   <Policies>
                     <TimeBasedTriggeringPolicy/>
                     <SizeBasedTriggeringPolicy size="1 GB"/>
                   </Policies>
                 </{element}>
               </Appenders><Loggers><Root level="info"/></Loggers></Configuration>"#,
            dir = dir.display()
        )
    };
    let configs = [
        xml("RollingFile", ""),
        xml("RollingFile", r#"immediateFlush="false""#),
        xml("RollingRandomAccessFile", ""),
        xml("RollingRandomAccessFile", r#"immediateFlush="false""#),
        xml("RollingMemoryMappedFile", r#"regionLength="65536""#),
    ];
    for config in configs {
        let configuration = l4rs_config::load_str(&config, None).unwrap();
        assert!(configuration.diagnostics.is_empty(), "{config}");
        let layout: Arc<dyn Layout> = Arc::new(LINES);
        let appender: Box<dyn Appender> = match &configuration.appenders[0].kind {
            AppenderKind::RollingFile(spec) => {
                Box::new(RollingFileAppender::new("A", spec, layout).unwrap())
            }
            AppenderKind::RollingRandomAccessFile(spec) => {
                Box::new(RollingRandomAccessFileAppender::new("A", spec, layout).unwrap())
            }
            AppenderKind::RollingMemoryMappedFile(spec) => {
                Box::new(RollingMemoryMappedFileAppender::new("A", spec, layout).unwrap())
            }
            other => panic!("{other:?}"),
        };
        let run = |count| log_events(&*appender, count);
        run(100);
        // 2000 events of ~40 bytes cross the 64 KiB region of the memory-mapped file: its
        // remapping allocates nothing either.
        assert_eq!(allocations::allocations_during(|| run(2000)), 0, "{config}");
        appender.stop();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
