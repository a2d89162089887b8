//! Hostile and broken configurations: each is refused or trimmed with a clear diagnostic, in
//! bounded time and memory, and never takes the process down.

use std::fmt::Write as _;

use l4rs_config::{load_str, Configuration, Severity};

/// The errors of `config` as they are shown, each after its `file:line:column`.
fn located_errors(config: &Configuration) -> Vec<String> {
    let errors = config.diagnostics_at_least(Severity::Error);
    errors.map(ToString::to_string).collect()
}

#[test]
fn two_hundred_thousand_loggers_load_in_linear_time() {
    let count = 200_000;
    let mut xml = String::from(
        "<Configuration status=\"off\">\n<Appenders><Console name=\"C\"/></Appenders>\n<Loggers>\n",
    );
    for i in 0..count {
        writeln!(xml, "  <Logger name=\"com.example.m{i}\" level=\"info\"/>").unwrap();
    }
    // A duplicate replaces the earlier logger and goes last, as in log4j2's map.
    xml.push_str("  <Logger name=\"com.example.m0\" level=\"debug\"/>\n");
    xml.push_str(
        "  <Root level=\"error\"><AppenderRef ref=\"C\"/></Root>\n</Loggers>\n</Configuration>\n",
    );
    let started = std::time::Instant::now();
    let config = load_str(&xml, None).expect("well-formed");
    let elapsed = started.elapsed();
    assert_eq!(config.loggers.loggers.len(), count);
    let last = config.loggers.loggers.last().unwrap();
    assert_eq!(last.name, "com.example.m0");
    assert_eq!(last.level, Some(l4rs_core::Level::DEBUG));
    // Quadratic position counting took minutes here; linear takes seconds even unoptimised.
    assert!(elapsed.as_secs() < 120, "took {elapsed:?}");
    // Positions stay exact: m0 moved last, so the first is m1 (line 5) and m1000 is on 1004.
    let at = |i: usize| {
        config.loggers.loggers[i]
            .position
            .map(|p| (p.line, p.column))
    };
    assert_eq!(at(0), Some((5, 3)));
    assert_eq!(at(999), Some((1004, 3)));
}

/// Runs `f` on a thread with a 2 MiB stack, the default for spawned threads.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .expect("thread")
        .join()
        .expect("no panic")
}

/// A configuration `depth` elements deep: the root holds `open` repeated to fill the depth
/// (`levels` elements per repetition), then the loggers.
fn nested(depth: usize, levels: usize, open: &str, close: &str) -> String {
    let repeat = (depth - 1) / levels;
    format!(
        "<Configuration status=\"off\">{}{}<Loggers><Root level=\"info\"/></Loggers></Configuration>",
        open.repeat(repeat),
        close.repeat(repeat)
    )
}

#[test]
fn twenty_thousand_nested_elements_are_refused_naming_the_limit() {
    let error = on_small_stack(|| {
        let xml = "<Configuration>".to_string()
            + &"<a>".repeat(20_000)
            + &"</a>".repeat(20_000)
            + "</Configuration>";
        load_str(&xml, Some(std::path::Path::new("deep.xml"))).unwrap_err()
    });
    let text = error.to_string();
    assert!(text.contains("deep.xml:1:"), "{text}");
    assert!(text.contains("512"), "{text}");
    // The 512th element is accepted, the 513th refused: 15 + 511 * 3 bytes in, column 1549.
    assert_eq!(error.position().map(|p| p.column), Some(1 + 15 + 511 * 3));
}

#[test]
fn nesting_up_to_the_limit_loads_on_a_small_stack() {
    let configs = [
        // Unknown elements, dropped with their subtree.
        nested(512, 1, "<a>", "</a>"),
        // Nested composite filters and arbiters: the binder recurses on both (and a filter at
        // the deepest level is built).
        nested(
            511,
            1,
            "<Filters>",
            "<ThresholdFilter level=\"warn\"/></Filters>",
        ),
        nested(
            512,
            2,
            "<Select><DefaultArbiter>",
            "</DefaultArbiter></Select>",
        ),
    ];
    for xml in configs {
        let config = on_small_stack(move || load_str(&xml, None).map_err(|e| e.to_string()));
        assert!(config.is_ok(), "{:?}", config.err());
    }
    // Delete conditions nest too: 5 levels down to <Delete>, 506 <IfAny>, one <IfFileName>.
    let xml = format!(
        "<Configuration status=\"off\"><Appenders><RollingFile name=\"R\" fileName=\"/tmp/l4rs-deep.log\" filePattern=\"/tmp/l4rs-deep-%i.log\"><SizeBasedTriggeringPolicy size=\"1 MB\"/><DefaultRolloverStrategy><Delete basePath=\"/tmp/l4rs-deep\">{}<IfFileName glob=\"*.log\"/>{}</Delete></DefaultRolloverStrategy></RollingFile></Appenders><Loggers><Root level=\"info\"/></Loggers></Configuration>",
        "<IfAny>".repeat(506),
        "</IfAny>".repeat(506)
    );
    let config = on_small_stack(move || load_str(&xml, None).map_err(|e| e.to_string()));
    let config = config.expect("512 levels load");
    assert!(config.appender("R").is_some(), "{:?}", config.diagnostics);
}

/// A fresh folder for one test's files.
fn scratch(test: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("l4rs-hostile-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

#[test]
fn nesting_counts_across_xinclude() {
    let dir = scratch("include-depth");
    std::fs::write(
        dir.join("inner.xml"),
        "<a>".repeat(300) + &"</a>".repeat(300),
    )
    .unwrap();
    let main = dir.join("main.xml");
    std::fs::write(
        &main,
        format!(
            "<Configuration xmlns:xi=\"http://www.w3.org/2001/XInclude\">{}<xi:include href=\"inner.xml\"/>{}</Configuration>",
            "<b>".repeat(300),
            "</b>".repeat(300)
        ),
    )
    .unwrap();
    let error = l4rs_config::load_file(&main).unwrap_err().to_string();
    assert!(error.contains("inner.xml"), "{error}");
    assert!(error.contains("deeper than 512"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_xml_declaration_after_a_comment_is_malformed_as_in_log4j2() {
    let error = load_str(
        "<!-- generated -->\n<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Configuration><Loggers><Root level=\"info\"/></Loggers></Configuration>",
        Some(std::path::Path::new("late-decl.xml")),
    )
    .unwrap_err();
    let text = error.to_string();
    assert!(
        text.starts_with("Error parsing late-decl.xml:2:1: "),
        "{text}"
    );
    assert!(text.contains("[xX][mM][lL]"), "{text}");
}

/// Writes a chain `f0.xml` … `f{levels}.xml` where each file includes the next one `fan_out`
/// times (with a fallback, which must not hide the limit); returns the first.
fn include_chain(
    dir: &std::path::Path,
    levels: usize,
    fan_out: usize,
    padding: usize,
) -> std::path::PathBuf {
    let include = |next: usize| {
        format!("<xi:include href=\"f{next}.xml\"><xi:fallback/></xi:include>").repeat(fan_out)
    };
    std::fs::write(
        dir.join("f0.xml"),
        format!(
            "<Configuration status=\"off\" xmlns:xi=\"http://www.w3.org/2001/XInclude\"><Properties>{}</Properties><Loggers><Root level=\"info\"/></Loggers></Configuration>",
            include(1)
        ),
    )
    .unwrap();
    for level in 1..levels {
        std::fs::write(
            dir.join(format!("f{level}.xml")),
            format!(
                "<Properties xmlns:xi=\"http://www.w3.org/2001/XInclude\"><Property name=\"p\">{}</Property>{}</Properties>",
                "x".repeat(padding),
                include(level + 1)
            ),
        )
        .unwrap();
    }
    std::fs::write(
        dir.join(format!("f{levels}.xml")),
        "<Property name=\"leaf\">y</Property>",
    )
    .unwrap();
    dir.join("f0.xml")
}

#[test]
fn xinclude_fan_out_stops_at_the_document_budget() {
    let dir = scratch("include-fan-out");
    let main = include_chain(&dir, 10, 4, 10);
    let error = l4rs_config::load_file(&main).unwrap_err().to_string();
    assert!(error.contains("256 included documents"), "{error}");
    assert!(error.contains("xi:include of 'f"), "{error}");
    assert!(error.contains(".xml:1:"), "{error}");
    // A modest tree of includes is fine: 4 + 16 + 64 = 84 documents.
    let dir = scratch("include-fan-out-ok");
    let main = include_chain(&dir, 3, 4, 10);
    assert!(l4rs_config::load_file(&main).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn xinclude_stops_at_the_byte_budget() {
    let dir = scratch("include-bytes");
    // 4 + 16 + 64 documents of 1 MiB each: well under the document limit, over 16 MiB.
    let main = include_chain(&dir, 3, 4, 1024 * 1024);
    let error = l4rs_config::load_file(&main).unwrap_err().to_string();
    assert!(error.contains("16777216 bytes"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_billion_laughs_of_properties_is_an_error_naming_the_property_and_the_rest_loads() {
    let mut xml = String::from(
        "<Configuration status=\"off\"><Properties>\n<Property name=\"l0\">lol</Property>\n",
    );
    for level in 1..30 {
        writeln!(
            xml,
            "<Property name=\"l{level}\">{}</Property>",
            format!("${{l{}}}", level - 1).repeat(10)
        )
        .unwrap();
    }
    xml.push_str("</Properties><Appenders><Console name=\"${l29}\"/><Console name=\"Ok\"/></Appenders><Loggers><Root level=\"info\"><AppenderRef ref=\"Ok\"/></Root></Loggers></Configuration>");
    let config = load_str(&xml, Some(std::path::Path::new("laughs.xml"))).expect("well-formed");
    let errors = located_errors(&config);
    assert!(
        errors.iter().any(|e| e.starts_with("laughs.xml:32:")
            && e.contains("${l29}")
            && e.contains("10000")),
        "{errors:?}"
    );
    assert!(config.appender("Ok").is_some());
}

#[test]
fn impossible_buffer_sizes_drop_the_appender_with_an_error_naming_the_attribute() {
    let cases = [
        r#"<Async name="X" bufferSize="2147483647"><AppenderRef ref="Ok"/></Async>"#,
        r#"<Async name="X" bufferSize="100000000"><AppenderRef ref="Ok"/></Async>"#,
        r#"<File name="X" fileName="/tmp/l4rs-x.log" bufferSize="2147483647"/>"#,
        r#"<RandomAccessFile name="X" fileName="/tmp/l4rs-x.log" bufferSize="2147483647"/>"#,
        r#"<RollingFile name="X" fileName="/tmp/l4rs-x.log" filePattern="/tmp/l4rs-x-%i.log" bufferSize="2147483647"><SizeBasedTriggeringPolicy size="1 MB"/></RollingFile>"#,
        r#"<RollingRandomAccessFile name="X" fileName="/tmp/l4rs-x.log" filePattern="/tmp/l4rs-x-%i.log" bufferSize="2147483647"><SizeBasedTriggeringPolicy size="1 MB"/></RollingRandomAccessFile>"#,
    ];
    for appender in cases {
        let xml = format!(
            "<Configuration status=\"off\"><Appenders><Console name=\"Ok\"/>\n  {appender}\n</Appenders><Loggers><Root level=\"info\"><AppenderRef ref=\"Ok\"/></Root></Loggers></Configuration>"
        );
        let config = load_str(&xml, Some(std::path::Path::new("sizes.xml"))).expect("well-formed");
        assert!(config.appender("X").is_none(), "{appender}");
        assert!(config.appender("Ok").is_some(), "{appender}");
        let errors = located_errors(&config);
        let column = appender.find("bufferSize").unwrap() + 3;
        assert!(
            errors
                .iter()
                .any(|e| e.starts_with(&format!("sizes.xml:2:{column}: "))
                    && e.contains("bufferSize=")
                    && e.contains("maximum")),
            "{appender}: {errors:?}"
        );
    }
    // The largest sizes allowed are accepted.
    let xml = "<Configuration status=\"off\"><Appenders><Console name=\"Ok\"/><Async name=\"X\" bufferSize=\"1048576\"><AppenderRef ref=\"Ok\"/></Async><File name=\"F\" fileName=\"/tmp/l4rs-x.log\" bufferSize=\"67108864\"/></Appenders><Loggers><Root level=\"info\"><AppenderRef ref=\"Ok\"/></Root></Loggers></Configuration>";
    let config = load_str(xml, None).expect("well-formed");
    assert!(config.appender("X").is_some() && config.appender("F").is_some());
}

#[test]
fn a_file_pattern_index_wider_than_a_file_name_is_a_located_error() {
    let appender = r#"<RollingFile name="X" fileName="/tmp/l4rs-x.log" filePattern="/tmp/l4rs-x-%02555555555555555555i.log"><SizeBasedTriggeringPolicy size="1 MB"/></RollingFile>"#;
    let xml = format!(
        "<Configuration status=\"off\"><Appenders><Console name=\"Ok\"/>\n  {appender}\n</Appenders><Loggers><Root level=\"info\"><AppenderRef ref=\"Ok\"/></Root></Loggers></Configuration>"
    );
    let config = load_str(&xml, Some(std::path::Path::new("index.xml"))).expect("well-formed");
    assert!(config.appender("X").is_none());
    assert!(config.appender("Ok").is_some());
    let errors = located_errors(&config);
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("index.xml:2:") && e.contains("at most 255")),
        "{errors:?}"
    );
}

#[test]
fn many_appenders_and_many_attributes_load_in_linear_time() {
    let mut xml = String::from("<Configuration status=\"off\"><Appenders>\n");
    for i in 0..20_000 {
        writeln!(xml, "<Console name=\"C{i}\"/>").unwrap();
    }
    // A duplicate name replaces the earlier appender, as in log4j2.
    xml.push_str("<Console name=\"C0\" target=\"SYSTEM_ERR\"/>\n");
    let attributes: Vec<String> = (0..50_000).map(|i| format!("a{i}=\"x\"")).collect();
    writeln!(xml, "<Console name=\"Wide\" {}/>", attributes.join(" ")).unwrap();
    xml.push_str("</Appenders><Loggers><Root level=\"info\"/></Loggers></Configuration>");
    let started = std::time::Instant::now();
    let config = load_str(&xml, None).expect("well-formed");
    let elapsed = started.elapsed();
    assert_eq!(config.appenders.len(), 20_001);
    assert_eq!(config.replaced_appenders.len(), 1);
    assert_eq!(config.appenders[19_999].name, "C0");
    // One ERROR lists the 50 000 unknown attributes of "Wide".
    assert!(config
        .diagnostics
        .iter()
        .any(|d| d.message.starts_with("Console contains invalid attributes")));
    // Quadratic duplicate checks took minutes here.
    assert!(elapsed.as_secs() < 60, "took {elapsed:?}");
}
