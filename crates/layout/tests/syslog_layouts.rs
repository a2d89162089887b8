//! SyslogLayout and Rfc5424Layout allocate nothing per event once warm, with and without a
//! new-line escape and for `format_args!` messages. (Their bytes are compared with log4j2's by
//! the conformance scenarios `474-syslog-layout` and `475-rfc5424-layout`, which pin the time
//! zone and run on the oracle's host.)

use l4rs_config::model::{Rfc5424LayoutSpec, SyslogLayoutSpec};
use l4rs_core::{ContextMap, Layout, Level, LogEvent, Message, Throwable, ThrowableRef, Timestamp};
use l4rs_layout::{LayoutContext, Rfc5424Layout, SyslogLayout};
use l4rs_test_support::allocations::{self, CountingAllocator};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(allocations::count_on_this_thread);

#[test]
fn syslog_formatting_allocates_nothing_once_warm() {
    let probe = allocations::allocations_during(|| drop(std::hint::black_box(vec![1u8; 16])));
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
        let allocations = allocations::allocations_during(|| run(&mut out));
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

#[test]
fn rfc5424_formatting_allocates_nothing_once_warm() {
    let mut mdc = ContextMap::new();
    mdc.insert("user", "alice");
    mdc.insert("quote", "a]b\"c");
    let throwable = Throwable::new("com.example.E").with_message("boom\nsecond");
    for tls in [false, true] {
        let layout = Rfc5424Layout::new(
            &Rfc5424LayoutSpec {
                new_line: true,
                new_line_escape: Some("\\n".to_string()),
                exception_pattern: Some("%ex".to_string()),
                mdc_excludes: vec!["quote".to_string()],
                use_tls_message_format: tls,
                ..Rfc5424LayoutSpec::default()
            },
            "config",
            LayoutContext::default(),
        );
        let value = 7;
        let run = |out: &mut String| {
            let mut event = LogEvent::new("a", Level::ERROR, Message::Text("one\ntwo"));
            event.timestamp = Timestamp::from_millis(1_700_000_000_000);
            event.context_map = &mdc;
            event.throwable = Some(ThrowableRef::Throwable(&throwable));
            layout.format(&event, out);
            layout.format(
                &LogEvent::new("a", Level::INFO, Message::Args(format_args!("v={value}"))),
                out,
            );
        };
        let mut out = String::with_capacity(4096);
        run(&mut out);
        out.clear();
        let allocations = allocations::allocations_during(|| run(&mut out));
        assert_eq!(allocations, 0, "tls {tls}: {out:?}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out:?}");
        assert!(
            lines[0].contains(r#"[mdc@32473 user="alice"] one\ntwo\ncom.example.E: boom\nsecond"#),
            "{out:?}"
        );
        assert!(lines[1].ends_with(" - v=7"), "{out:?}");
    }
}
