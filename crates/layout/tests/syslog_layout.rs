//! SyslogLayout allocates nothing per event once warm, with and without a new-line escape and
//! for `format_args!` messages. (Its bytes are compared with log4j2's by the conformance
//! scenario `474-syslog-layout`, which pins the time zone and runs on the oracle's host.)

use l4rs_config::model::SyslogLayoutSpec;
use l4rs_core::testing::{self, CountingAllocator};
use l4rs_core::{Layout, Level, LogEvent, Message, Timestamp};
use l4rs_layout::SyslogLayout;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(testing::count_on_this_thread);

#[test]
fn formatting_allocates_nothing_once_warm() {
    let probe = testing::allocations_during(|| drop(std::hint::black_box(vec![1u8; 16])));
    assert!(probe >= 1, "the counting allocator must see allocations");
    for escape in [None, Some("\\n".to_string())] {
        let layout = SyslogLayout::new(&SyslogLayoutSpec {
            new_line: true,
            new_line_escape: escape.clone(),
            ..SyslogLayoutSpec::default()
        });
        let value = 42;
        let mut out = String::with_capacity(4096);
        let run = |out: &mut String| {
            for (offset, text) in ["one\ntwo", "three\r\nfour"].iter().enumerate() {
                let mut event = LogEvent::new("a", Level::WARN, Message::Text(text));
                event.timestamp = Timestamp::from_millis(1_700_000_000_000 + offset as i64);
                layout.format(&event, out);
            }
            layout.format(
                &LogEvent::new(
                    "a",
                    Level::INFO,
                    Message::Args(format_args!("v={value}\nnext")),
                ),
                out,
            );
        };
        run(&mut out);
        out.clear();
        let allocations = testing::allocations_during(|| run(&mut out));
        assert_eq!(allocations, 0, "escape {escape:?}: {out:?}");
        let lines: Vec<&str> = out.lines().collect();
        match escape {
            Some(_) => {
                assert_eq!(lines.len(), 3, "{out:?}");
                assert!(lines[2].ends_with(" v=42\\nnext"), "{out:?}");
            }
            None => assert_eq!(lines.len(), 6, "{out:?}"),
        }
        assert!(lines[0].starts_with("<132>"), "{out:?}");
    }
}
