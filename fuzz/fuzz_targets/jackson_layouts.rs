//! The Jackson layouts (JsonLayout, XmlLayout, YamlLayout, pretty and compact, frames and
//! string traces): format an event whose message, MDC key and value, NDC entry, thread name,
//! marker name and exception message come from the input, and a YamlLayout header pattern;
//! nothing may panic. The YAML writer's folding and key analysis and the XML writer's escapes
//! are the state machines at risk.
//!
//! Input: `message NUL key NUL value NUL thread NUL header`.
#![no_main]

use l4rs_config::model::{JsonLayoutSpec, LayoutSpec};
use l4rs_core::{
    ContextMap, ContextStack, Layout, Level, Location, Marker, StackFrame, ThreadInfo, Throwable,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some([message, key, value, thread, header]) = l4rs_fuzz::text_fields::<5>(data) else {
        return;
    };
    l4rs_core::status::set_level(Level::OFF);
    let throwable = Throwable::new("java.lang.IllegalStateException")
        .with_message(value)
        .with_frames(vec![
            StackFrame::java("com.example.Service", "handle", Some(key), 42),
            StackFrame::rust("app::db", "query", None, -1),
        ])
        .with_suppressed(Throwable::new("x.Suppressed").with_message(message))
        .with_cause(Throwable::new("java.io.IOException").with_message(thread));
    let mut mdc = ContextMap::new();
    mdc.insert(key, value);
    mdc.insert("user", message);
    let mut ndc = ContextStack::new();
    ndc.push(value);
    let marker = Marker::get(if key.is_empty() { "FUZZ" } else { key });
    let mut event = l4rs_fuzz::event_with_every_part(message, &throwable, &mdc, &ndc, &marker);
    // The logger, thread and location strings come from the input too.
    event.logger_name = thread;
    event.thread = ThreadInfo {
        name: thread,
        id: 7,
        priority: 5,
    };
    event.location = Some(Location {
        class: key,
        method: value,
        file: thread,
        line: 7,
    });

    for compact in [false, true] {
        let spec = JsonLayoutSpec {
            compact,
            complete: true,
            properties: true,
            properties_as_list: compact,
            location_info: true,
            stacktrace_as_string: compact,
            charset: Some(if compact { "UTF-16" } else { "ISO-8859-1" }.to_string()),
            additional_fields: vec![(key.to_string(), value.to_string())],
            header: Some(header.to_string()),
            footer: Some(message.to_string()),
            ..JsonLayoutSpec::default()
        };
        for layout_spec in [
            LayoutSpec::Json(spec.clone()),
            LayoutSpec::Xml(spec.clone()),
            LayoutSpec::Yaml(spec),
        ] {
            let context = l4rs_layout::LayoutContext::default();
            let layout: Box<dyn Layout> = match &layout_spec {
                LayoutSpec::Json(s) => Box::new(l4rs_layout::JsonLayout::new(s, context)),
                LayoutSpec::Xml(s) => Box::new(l4rs_layout::XmlLayout::new(s, context)),
                LayoutSpec::Yaml(s) => Box::new(l4rs_layout::YamlLayout::new(s, context)),
                _ => unreachable!(),
            };
            let mut out = String::new();
            layout.header(&mut out);
            layout.format(&event, &mut out);
            layout.format(&event, &mut out);
            layout.footer(&mut out);
            let mut scratch = Vec::new();
            let _ = layout.encode(&out, &mut scratch);
        }
    }
});
