//! Property tests of JsonTemplateLayout (docs/robustness.md): any template text, built from
//! JSON punctuation, resolver names and options, is either rejected with an error or compiles
//! into a layout whose every event (with MDC, NDC, marker, location and a throwable, strings
//! from the input) parses as JSON. `fuzz/fuzz_targets/json_template.rs` runs the same entry
//! point longer.

mod common;

use common::OwnedEvent;
use l4rs_config::model::JsonTemplateLayoutSpec;
use l4rs_core::{Layout, Level, Marker, StackFrame, Throwable, Timestamp};
use l4rs_layout::{JsonTemplateLayout, LayoutContext};
use proptest::prelude::*;

/// The pieces templates are built from.
const PIECES: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\"",
    "\"$resolver\":",
    "\"field\":",
    "\"x\":",
    "\"k\":",
    "\"message\"",
    "\"mdc\"",
    "\"ndc\"",
    "\"exception\"",
    "\"exceptionRootCause\"",
    "\"timestamp\"",
    "\"level\"",
    "\"logger\"",
    "\"thread\"",
    "\"marker\"",
    "\"source\"",
    "\"pattern\"",
    "\"counter\"",
    "\"caseConverter\"",
    "\"endOfBatch\"",
    "\"map\"",
    "\"stackTrace\"",
    "\"stackTrace\":",
    "\"stringified\":",
    "\"flatten\":",
    "\"prefix\":",
    "\"epoch\":",
    "\"unit\":",
    "\"secs\"",
    "\"millis\"",
    "\"nanos\"",
    "\"rounded\":",
    "\"pattern\":",
    "\"format\":",
    "\"yyyy-MM-dd'T'HH:mm:ss.SSSZZZ\"",
    "\"%m %ex\"",
    "\"input\":",
    "\"case\":",
    "\"upper\"",
    "\"name\"",
    "\"className\"",
    "\"fallbackKey\":",
    "\"elementTemplate\":",
    "\"truncation\":",
    "\"pointMatcherStrings\":",
    "\"at \"",
    "\"key\":",
    "\"user\"",
    "\"replacement\":",
    "\"$1\"",
    "\"(u)ser\"",
    "true",
    "false",
    "null",
    "1",
    "-1.5e3",
    "\"\\u00e9\\n\"",
    " ",
];

/// Resolver objects, valid and not, that structured templates are built from.
const RESOLVERS: &[&str] = &[
    r#"{"$resolver":"message"}"#,
    r#"{"$resolver":"message","fallbackKey":"f"}"#,
    r#"{"$resolver":"mdc","flatten":{"prefix":"_"}}"#,
    r#"{"$resolver":"mdc","pattern":"(u)ser","replacement":"$1"}"#,
    r#"{"$resolver":"mdc","key":"user"}"#,
    r#"{"$resolver":"ndc","pattern":".*"}"#,
    r#"{"$resolver":"exception","field":"stackTrace"}"#,
    r#"{"$resolver":"exceptionRootCause","field":"stackTrace","stackTrace":{"stringified":{"truncation":{"pointMatcherStrings":["at "]}}}}"#,
    r#"{"$resolver":"exception","field":"className"}"#,
    r#"{"$resolver":"timestamp","epoch":{"unit":"secs"}}"#,
    r#"{"$resolver":"timestamp","pattern":{"format":"yyyy-MM-dd'T'HH:mm:ss.SSSZZZ","timeZone":"UTC"}}"#,
    r#"{"$resolver":"level","field":"severity","severity":{"field":"code"}}"#,
    r#"{"$resolver":"marker","field":"parents"}"#,
    r#"{"$resolver":"source","field":"fileName"}"#,
    r#"{"$resolver":"pattern","pattern":"%p %m %ex"}"#,
    r#"{"$resolver":"counter","stringified":true}"#,
    r#"{"$resolver":"caseConverter","case":"upper","input":{"$resolver":"message"}}"#,
    r#"{"$resolver":"endOfBatch"}"#,
    r#"{"$resolver":"thread","field":"id"}"#,
    r#"{"$resolver":"nope"}"#,
    "\"${ctx:user}\"",
    "\"x\\u0001\"",
    "-1.5e3",
    "null",
    "{}",
    "[]",
];

/// Raw piece soup (mostly not JSON: the reader's errors) or a structured template.
fn template() -> impl Strategy<Value = String> {
    let soup = prop::collection::vec(prop::sample::select(PIECES), 0..40)
        .prop_map(|pieces| pieces.concat());
    let leaf = prop::sample::select(RESOLVERS).prop_map(str::to_string);
    let tree = leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(("[a-z@._]{0,6}", inner.clone()), 0..6).prop_map(|members| {
                let members: Vec<String> = members
                    .iter()
                    .map(|(key, value)| format!("\"{key}\":{value}"))
                    .collect();
                format!("{{{}}}", members.join(","))
            }),
            prop::collection::vec(inner, 0..4).prop_map(|items| format!("[{}]", items.join(","))),
        ]
    });
    prop_oneof![soup, tree]
}

fn rich_event(text: &str) -> OwnedEvent {
    let mut event = OwnedEvent::reference();
    event.message = text.to_string();
    event.mdc.insert("user", text);
    event.mdc.insert(text, "v");
    event.ndc.push(text);
    event.marker = Some(Marker::get("PROP"));
    event.location = Some(("a.B".into(), "m".into(), "B.java".into(), 3));
    event.throwable = Some(
        Throwable::new("java.lang.IllegalStateException")
            .with_message(text)
            .with_frames(vec![StackFrame::java("a.B", "m", None, -1)])
            .with_cause(Throwable::new("x.Cause")),
    );
    event
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn templates_compile_or_fail_and_every_event_is_json(
        template in template(), text in ".{0,12}", max in 1i32..40,
    ) {
        l4rs_core::status::set_level(Level::OFF);
        let spec = JsonTemplateLayoutSpec {
            event_template: Some(template.clone()),
            location_info_enabled: true,
            max_string_length: max,
            ..JsonTemplateLayoutSpec::default()
        };
        let Ok(layout) = JsonTemplateLayout::new(&spec, LayoutContext::default()) else {
            return Ok(());
        };
        let mut bare = OwnedEvent::reference();
        bare.timestamp = Timestamp::from_millis(-1);
        for event in [rich_event(&text), bare] {
            let mut out = String::new();
            layout.format(&event.as_event(), &mut out);
            let body = out.strip_suffix('\n').unwrap_or(&out);
            prop_assert!(
                serde_json::from_str::<serde_json::Value>(body).is_ok(),
                "{template} wrote {body:?}"
            );
        }
    }
}
