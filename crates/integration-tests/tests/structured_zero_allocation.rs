//! An enabled log call through the facade allocates nothing in steady state with the Jackson
//! layouts (JsonLayout, XmlLayout, YamlLayout), pretty and compact, and HtmlLayout, in UTF-8
//! and in charsets that need encoding, with a 101-frame throwable on every fifth call.

use l4rs_tests::allocations::CountingAllocator;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(l4rs_tests::allocations::count);

/// The layouts, each written to its own file: (file, element).
const LAYOUTS: [(&str, &str); 8] = [
    (
        "json.log",
        r#"<JsonLayout compact="true" eventEol="true" properties="true"/>"#,
    ),
    (
        "xml.log",
        r#"<XmlLayout properties="true" charset="ISO-8859-1"/>"#,
    ),
    (
        "xml-compact.log",
        r#"<XmlLayout compact="true" endOfLine="&#10;" stacktraceAsString="true"/>"#,
    ),
    ("yaml.log", r#"<YamlLayout properties="true"/>"#),
    (
        "yaml-utf16.log",
        r#"<YamlLayout stacktraceAsString="true" charset="UTF-16"/>"#,
    ),
    (
        "json-pretty.log",
        r#"<JsonLayout properties="true" locationInfo="true"/>"#,
    ),
    ("html.log", r#"<HtmlLayout locationInfo="true"/>"#),
    (
        "html-dated.log",
        r#"<HtmlLayout datePattern="ISO8601" charset="ISO-8859-1"/>"#,
    ),
];

#[test]
fn steady_state_log_calls_do_not_allocate() {
    let dir = l4rs_tests::fresh_output_dir("structured-zero-allocation");
    let appenders: String = LAYOUTS
        .iter()
        .enumerate()
        .map(|(index, (file, layout))| {
            format!(
                r#"<File name="F{index}" fileName="{}/{file}">{layout}</File>"#,
                dir.display()
            )
        })
        .collect();
    let refs: String = (0..LAYOUTS.len())
        .map(|index| format!(r#"<AppenderRef ref="F{index}"/>"#))
        .collect();
    let xml = format!(
        r#"<Configuration><Appenders>{appenders}</Appenders>
<Loggers><Root level="debug">{refs}</Root></Loggers></Configuration>"#
    );
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).unwrap();
    let logger = l4rs::get_logger("FileLogger");
    let error = l4rs_tests::deep_throwable(100);
    let message = "grüße ".repeat(20);
    let run = |count: usize| {
        for index in 0..count {
            if index % 5 == 0 {
                l4rs::debug!(logger, error = &error, "{message}");
            } else {
                l4rs::debug!(logger, "{message} {}", index);
            }
            l4rs::trace!(logger, "disabled {}", index);
        }
    };
    let (warm, counted) = (500, 2_000);
    run(warm);
    let allocations = l4rs_tests::allocations::counted(|| run(counted));
    l4rs::shutdown();
    assert_eq!(allocations, 0, "allocations in 2,000 steady-state calls");
    for (file, layout) in LAYOUTS {
        let written = std::fs::read(dir.join(file)).unwrap();
        let text = if layout.contains("UTF-16") {
            let units = written.chunks(2).map(|p| u16::from_be_bytes([p[0], p[1]]));
            char::decode_utf16(units).map(|c| c.unwrap()).collect()
        } else {
            String::from_utf8_lossy(&written).into_owned()
        };
        // Every event names its logger once (HtmlLayout twice: in its cell and the cell's title).
        let per_event = if layout.contains("HtmlLayout") { 2 } else { 1 };
        assert_eq!(
            text.matches("FileLogger").count(),
            per_event * (warm + counted),
            "{file}"
        );
    }
}
