//! JsonTemplateLayout: read and compile an event template (and an element template and an
//! additional JSON field), then format an event carrying MDC, NDC, a marker, a location and
//! a throwable with a cause, whose strings come from the input too. Every event written must
//! parse back as JSON.
//!
//! Input: `event-template NUL element-template NUL message NUL additional-field-json`.
#![no_main]

use l4rs_config::model::{EventTemplateAdditionalField, JsonTemplateLayoutSpec};
use l4rs_core::{
    ContextMap, ContextStack, Layout, Level, Marker, StackFrame, Throwable, Timestamp,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some([template, element, message, field]) = l4rs_fuzz::text_fields::<4>(data) else {
        return;
    };
    l4rs_core::status::set_level(Level::OFF);
    let spec = JsonTemplateLayoutSpec {
        event_template: Some(template.to_string()),
        stack_trace_element_template: Some(element.to_string()),
        location_info_enabled: true,
        max_string_length: 64,
        additional_fields: (!field.is_empty())
            .then(|| EventTemplateAdditionalField {
                key: "extra".into(),
                value: field.to_string(),
                json: true,
            })
            .into_iter()
            .collect(),
        ..JsonTemplateLayoutSpec::default()
    };
    let Ok(layout) = l4rs_layout::JsonTemplateLayout::new(&spec, Default::default()) else {
        return;
    };
    let throwable = Throwable::new("java.lang.IllegalStateException")
        .with_message(message)
        .with_frames(vec![StackFrame::java("a.B", "c", Some("B.java"), 4)])
        .with_cause(Throwable::new("java.io.IOException"));
    let mut mdc = ContextMap::new();
    mdc.insert("user", message);
    let mut ndc = ContextStack::new();
    ndc.push(message);
    let marker = Marker::get("FUZZ");
    let mut event = l4rs_fuzz::event_with_every_part(message, &throwable, &mdc, &ndc, &marker);
    let mut out = String::new();
    layout.format(&event, &mut out);
    event.timestamp = Timestamp::from_millis(i64::MIN / 2);
    event.throwable = None;
    layout.format(&event, &mut out);
    for line in out.lines() {
        // Literal numbers are printed as log4j2 prints them (`6.66E+6668` is JSON), beyond
        // what serde_json holds in an f64: that error is not a layout fault.
        if let Err(error) = serde_json::from_str::<serde_json::Value>(line) {
            assert!(
                error.to_string().starts_with("number out of range"),
                "not JSON ({error}): {line}"
            );
        }
    }
});
