//! Date patterns (`%d{pattern}{zone}`): compile a SimpleDateFormat pattern or named format
//! with a zone id, and format instants across the whole range.
//!
//! Input: `pattern NUL zone`.
#![no_main]

use l4rs_core::{Level, Timestamp};
use l4rs_layout::DateFormatter;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some([pattern, zone]) = l4rs_fuzz::text_fields::<2>(data) else {
        return;
    };
    l4rs_core::status::set_level(Level::OFF);
    let zone = (!zone.is_empty()).then_some(zone);
    let formatter = DateFormatter::new(Some(pattern), zone);
    let mut out = String::new();
    for millis in [
        0,
        1_351_866_842_781,
        -1,
        i64::MAX,
        i64::MIN,
        253_402_300_799_999,
    ] {
        formatter.format(Timestamp::from_millis(millis), &mut out);
        // The same second again takes the cached path.
        formatter.format(Timestamp::from_millis(millis), &mut out);
    }
    // Through the pattern parser too, which reads the braces itself.
    let layout = l4rs_layout::PatternLayout::from_pattern(&format!("%d{{{pattern}}}"));
    let event = l4rs_core::LogEvent::new("", Level::INFO, l4rs_core::Message::Text(""));
    l4rs_core::Layout::format(&layout, &event, &mut out);
});
