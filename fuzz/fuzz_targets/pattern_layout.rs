//! PatternLayout: parse a pattern (with header, footer and a `<Replace>`), then format an
//! event carrying MDC, NDC, a marker, a location and a throwable with a cause and a
//! suppressed exception, whose strings come from the input too.
//!
//! Input: `pattern NUL message NUL mdc-value NUL replace-regex`.
#![no_main]

use l4rs_config::model::{PatternLayoutSpec, ReplaceSpec};
use l4rs_core::{
    ContextMap, ContextStack, Layout, Level, Marker, StackFrame, Throwable, Timestamp,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some([pattern, message, value, regex]) = l4rs_fuzz::text_fields::<4>(data) else {
        return;
    };
    l4rs_core::status::set_level(Level::OFF);
    let throwable = Throwable::new("java.lang.IllegalStateException")
        .with_message(value)
        .with_frames(vec![
            StackFrame::java("com.example.Service", "handle", Some("Service.java"), 42),
            StackFrame::rust("app::db", "query", None, -1),
        ])
        .with_suppressed(Throwable::new("x.Suppressed").with_message("line1\nline2"))
        .with_cause(Throwable::new("java.io.IOException").with_message(message));
    let mut mdc = ContextMap::new();
    mdc.insert("user", value);
    mdc.insert(value, "v");
    let mut ndc = ContextStack::new();
    ndc.push("outer");
    ndc.push(value);
    let marker = Marker::get("FUZZ");
    let mut event = l4rs_fuzz::event_with_every_part(message, &throwable, &mdc, &ndc, &marker);

    let spec = PatternLayoutSpec {
        pattern: pattern.to_string(),
        header: Some(pattern.to_string()),
        footer: Some(message.to_string()),
        replace: (!regex.is_empty()).then(|| ReplaceSpec {
            regex: regex.to_string(),
            replacement: value.to_string(),
        }),
        always_write_exceptions: true,
        ..PatternLayoutSpec::default()
    };
    let layout = l4rs_layout::PatternLayout::new(&spec, l4rs_layout::LayoutContext::default());
    let mut out = String::new();
    layout.header(&mut out);
    layout.format(&event, &mut out);
    // A second event exercises the per-thread caches the first one filled.
    event.timestamp = Timestamp::from_millis(i64::MIN);
    event.throwable = None;
    layout.format(&event, &mut out);
    layout.footer(&mut out);
    let mut scratch = Vec::new();
    let _ = layout.encode(&out, &mut scratch);
});
