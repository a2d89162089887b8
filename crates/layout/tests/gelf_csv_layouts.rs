//! GelfLayout, the CSV layouts and Rfc5424Layout's LoggerFields: every GELF event is valid JSON
//! (serde_json) and its compressed forms decompress to the same JSON, the files equal what the
//! live log4j2 oracle wrote for the conformance scenarios (their stored `expected/` copies, so
//! this runs without Java), and formatting allocates nothing once warm.

mod common;

use std::io::Read;
use std::sync::Arc;

use common::{file_appenders, scenario_dir, scenario_events, written, OwnedEvent};
use l4rs_config::model::{
    Configuration, CsvLayoutKind, CsvLayoutSpec, CsvQuoteMode, GelfCompression, GelfLayoutSpec,
    LayoutSpec, LoggerFieldsSpec, PatternLayoutSpec, Rfc5424LayoutSpec,
};
use l4rs_core::{Layout, LogEvent, Message};
use l4rs_layout::{CsvLayout, GelfLayout, LayoutContext, Rfc5424Layout};
use l4rs_test_support::allocations::{self, CountingAllocator};
use serde_json::Value;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(allocations::count_on_this_thread);

const GELF_SCENARIOS: [&str; 2] = ["476-gelf-layout", "477-gelf-pattern-selector"];

/// The GELF and CSV scenarios' events: markers with parents, MDC, NDC, nested causes and
/// suppressed exceptions, control and non-ASCII characters, an empty message, a 1.3 KiB one.
fn all_events() -> Vec<OwnedEvent> {
    scenario_events("476-gelf-layout")
}

fn gelf(spec: GelfLayoutSpec) -> GelfLayout {
    GelfLayout::new(&spec, LayoutContext::default())
}

fn format(layout: &dyn Layout, event: &LogEvent<'_>) -> String {
    let mut out = String::new();
    layout.format(event, &mut out);
    out
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text:?}"))
}

fn plain_gelf() -> GelfLayoutSpec {
    GelfLayoutSpec {
        host: Some("h".into()),
        compression: GelfCompression::Off,
        ..GelfLayoutSpec::default()
    }
}

#[test]
fn every_gelf_event_parses_and_says_what_the_event_says() {
    let specs = [
        plain_gelf(),
        GelfLayoutSpec {
            include_new_line_delimiter: true,
            include_null_delimiter: true,
            thread_context_prefix: "ctx\"".into(),
            additional_fields: vec![("a\\b".into(), "\u{1}".into())],
            ..plain_gelf()
        },
        GelfLayoutSpec {
            include_stacktrace: false,
            message_layout: Some(PatternLayoutSpec {
                pattern: "%m%n%xEx{short}".into(),
                ..PatternLayoutSpec::default()
            }),
            ..plain_gelf()
        },
    ];
    let mut checked = 0;
    for spec in specs {
        let layout = gelf(spec);
        for owned in all_events() {
            let event = owned.as_event();
            let text = format(&layout, &event);
            let json = parse(text.trim_end_matches(['\n', '\0']));
            assert_eq!(json["version"], "1.1");
            assert_eq!(json["host"], "h");
            assert_eq!(json["short_message"], owned.message.as_str(), "{text}");
            assert_eq!(json["_logger"], owned.logger.as_str());
            assert_eq!(json["_thread"], owned.thread.as_str());
            let level = json["level"].as_u64().expect("a numeric level");
            assert!(level <= 7, "{text}");
            if let Some(throwable) = &owned.throwable {
                let full = json["full_message"].as_str().expect("full_message");
                assert!(full.contains(throwable.class_name()), "{text}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 18, "only {checked} events checked");
}

fn gunzip(bytes: &[u8]) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_string(&mut text)
        .expect("valid GZIP of UTF-8");
    text
}

fn inflate(bytes: &[u8]) -> String {
    let mut text = String::new();
    flate2::read::ZlibDecoder::new(bytes)
        .read_to_string(&mut text)
        .expect("valid ZLIB of UTF-8");
    text
}

#[test]
fn compressed_events_decompress_to_the_same_json() {
    for (compression, threshold, decompress) in [
        (GelfCompression::Gzip, 0, gunzip as fn(&[u8]) -> String),
        (GelfCompression::Zlib, 0, inflate),
        (GelfCompression::Gzip, -1, gunzip),
    ] {
        let layout = gelf(GelfLayoutSpec {
            compression,
            compression_threshold: threshold,
            ..plain_gelf()
        });
        for owned in all_events() {
            let text = format(&layout, &owned.as_event());
            let mut scratch = Vec::new();
            let bytes = layout.encode(&text, &mut scratch);
            assert_ne!(bytes, text.as_bytes(), "compressed");
            let decompressed = decompress(bytes);
            assert_eq!(parse(&decompressed), parse(&text));
            assert_eq!(decompressed, text);
        }
    }
    // At the default threshold only the events above 1024 bytes are compressed.
    let layout = gelf(GelfLayoutSpec {
        compression: GelfCompression::Gzip,
        ..plain_gelf()
    });
    let mut compressed = 0;
    for owned in all_events() {
        let text = format(&layout, &owned.as_event());
        let mut scratch = Vec::new();
        let bytes = layout.encode(&text, &mut scratch);
        if text.len() > 1024 {
            assert_eq!(gunzip(bytes), text);
            compressed += 1;
        } else {
            assert_eq!(bytes, text.as_bytes());
        }
    }
    assert!(compressed >= 1, "the scenario has a large event");
}

/// The scenario's File appenders with a GELF or CSV layout, each with the file it writes.
fn file_layouts(config: &Configuration) -> Vec<(String, Arc<dyn Layout>)> {
    let context = LayoutContext {
        interpolator: Some(config.substitutor.clone()),
        console: false,
    };
    file_appenders(config)
        .into_iter()
        .filter_map(|appender| {
            let layout: Arc<dyn Layout> = match &appender.layout {
                Some(LayoutSpec::Gelf(spec)) => Arc::new(GelfLayout::new(spec, context.clone())),
                Some(LayoutSpec::Csv(spec)) => Arc::new(CsvLayout::new(spec, context.clone())),
                _ => return None,
            };
            Some((appender.file, layout))
        })
        .collect()
}

#[test]
fn files_equal_what_log4j2_wrote() {
    let mut checked = 0;
    // Every one of these scenarios routes all events to the root's appenders.
    for scenario in GELF_SCENARIOS
        .into_iter()
        .chain(["479-csv-formats", "480-csv-options"])
    {
        let dir = scenario_dir(scenario);
        let text = std::fs::read_to_string(dir.join("log4j2.xml")).unwrap();
        let config =
            l4rs_config::load_str(&text, None).expect("the scenario's configuration loads");
        let events = scenario_events(scenario);
        for (file, layout) in file_layouts(&config) {
            let expected = std::fs::read(dir.join("expected/files").join(&file)).unwrap();
            assert!(
                written(layout.as_ref(), &events) == expected,
                "{scenario}/{file} differs from log4j2's"
            );
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} files checked");
}

fn logger_fields(sd_id: Option<&str>, fields: &[(&str, &str)]) -> LoggerFieldsSpec {
    LoggerFieldsSpec {
        fields: fields
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        sd_id: sd_id.map(str::to_string),
        enterprise_id: sd_id.map(|_| "1".to_string()),
        discard_if_all_fields_are_empty: true,
    }
}

#[test]
fn formatting_allocates_nothing_once_warm() {
    let probe = allocations::allocations_during(|| drop(std::hint::black_box(vec![1u8; 16])));
    assert!(probe >= 1, "the counting allocator must see allocations");
    let csv = |kind, format: &str, quote_mode| {
        CsvLayout::new(
            &CsvLayoutSpec {
                format: format.into(),
                quote_mode,
                null_string: Some("-".into()),
                ..CsvLayoutSpec::new(kind)
            },
            LayoutContext::default(),
        )
    };
    let rfc5424 = Rfc5424Layout::new(
        &Rfc5424LayoutSpec {
            new_line_escape: Some("\\n".into()),
            exception_pattern: Some("%ex".into()),
            logger_fields: vec![
                logger_fields(None, &[("level", "%p"), ("user", "%X{user}")]),
                logger_fields(Some("origin"), &[("logger", "%c"), ("msg", "%m")]),
            ],
            ..Rfc5424LayoutSpec::default()
        },
        "cfg",
        LayoutContext::default(),
    );
    let layouts: Vec<Box<dyn Layout>> = vec![
        Box::new(gelf(GelfLayoutSpec {
            thread_context_excludes: Some(vec!["odd".into()]),
            additional_fields: vec![("env".into(), "prod".into())],
            ..plain_gelf()
        })),
        Box::new(gelf(GelfLayoutSpec {
            compression: GelfCompression::Gzip,
            compression_threshold: 0,
            message_layout: Some(PatternLayoutSpec::default()),
            ..plain_gelf()
        })),
        Box::new(gelf(GelfLayoutSpec {
            compression: GelfCompression::Zlib,
            compression_threshold: 0,
            include_stacktrace: false,
            ..plain_gelf()
        })),
        Box::new(csv(CsvLayoutKind::LogEvent, "Default", None)),
        Box::new(csv(CsvLayoutKind::LogEvent, "MySQL", None)),
        Box::new(csv(
            CsvLayoutKind::LogEvent,
            "Oracle",
            Some(CsvQuoteMode::All),
        )),
        Box::new(csv(CsvLayoutKind::Parameter, "TDF", None)),
        Box::new(rfc5424),
    ];
    let events = all_events();
    let mut scratch = Vec::with_capacity(64 * 1024);
    for (index, layout) in layouts.iter().enumerate() {
        let mut out = String::with_capacity(64 * 1024);
        for event in &events {
            layout.format(&event.as_event(), &mut out);
            let _ = layout.encode(&out, &mut scratch);
        }
        for event in &events {
            let event = event.as_event();
            out.clear();
            let allocations = allocations::allocations_during(|| {
                layout.format(&event, &mut out);
                let _ = layout.encode(&out, &mut scratch);
            });
            assert_eq!(
                allocations, 0,
                "layout {index} allocated for {:?}",
                event.message
            );
        }
    }
}

#[test]
fn csv_parameter_layout_prints_the_formatted_message() {
    let layout = CsvLayout::new(
        &CsvLayoutSpec::new(CsvLayoutKind::Parameter),
        LayoutContext::default(),
    );
    let event = LogEvent::new("x", l4rs_core::Level::INFO, Message::Text("a,b"));
    assert_eq!(format(&layout, &event), "\"a,b\"\r\n");
    let text = format(
        &layout,
        &LogEvent::new(
            "x",
            l4rs_core::Level::INFO,
            Message::Args(format_args!("n={} \"q\"", 5)),
        ),
    );
    assert_eq!(text, "\"n=5 \"\"q\"\"\"\r\n");
    assert!(!layout.requires_location());
}
