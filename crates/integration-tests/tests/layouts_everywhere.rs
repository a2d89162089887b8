//! Every structured layout (HtmlLayout too) works with every appender and honours its charset: each row of
//! [`LAYOUTS`] is written through a File, a RollingFile, an Async appender and an AsyncLogger
//! in each charset it supports (UTF-8, ISO-8859-1, UTF-16), and through a Console (in a child
//! process, whose stdout is read); every file is decoded with its charset, split into events
//! the layout's way and must hold exactly the messages logged, in order. `l4rs check` (its
//! library entry point) must find nothing to report in the configuration.
//!
//! A layout built later is one more row: its element and a function that lists the messages
//! in what it wrote.

use std::path::Path;

use l4rs_tests::{fresh_output_dir, run_discovery_probe, write_config};

const DISCOVERY_PROBE: &str = env!("CARGO_BIN_EXE_l4rs-discovery-probe");

/// One structured layout under test.
struct LayoutRow {
    /// Names its appenders and files.
    name: &'static str,
    /// The layout element; `{charset}` is replaced by a `charset="…"` attribute (or nothing).
    element: &'static str,
    /// Whether the layout has a `charset` attribute (Rfc5424Layout has none in log4j2).
    has_charset: bool,
    /// The messages of the events in the decoded text, in order.
    messages: fn(&str) -> Vec<String>,
}

const LAYOUTS: &[LayoutRow] = &[
    LayoutRow {
        name: "json",
        element: r#"<JsonLayout compact="true" eventEol="true" {charset}/>"#,
        has_charset: true,
        messages: json_messages,
    },
    LayoutRow {
        name: "xml",
        element: r#"<XmlLayout compact="true" endOfLine="&#10;" {charset}/>"#,
        has_charset: true,
        messages: xml_messages,
    },
    LayoutRow {
        name: "yaml",
        element: r#"<YamlLayout {charset}/>"#,
        has_charset: true,
        messages: yaml_messages,
    },
    LayoutRow {
        name: "syslog",
        element: r#"<SyslogLayout newLine="true" {charset}/>"#,
        has_charset: true,
        messages: syslog_messages,
    },
    LayoutRow {
        name: "rfc5424",
        element: r#"<Rfc5424Layout newLine="true" appName="app" {charset}/>"#,
        has_charset: false,
        messages: rfc5424_messages,
    },
    LayoutRow {
        name: "html",
        element: r#"<HtmlLayout locationInfo="true" {charset}/>"#,
        has_charset: true,
        messages: html_messages,
    },
];

/// A charset and how to decode what it encoded.
struct CharsetColumn {
    name: &'static str,
    decode: fn(&[u8]) -> String,
}

const CHARSETS: &[CharsetColumn] = &[
    CharsetColumn {
        name: "UTF-8",
        decode: |bytes| String::from_utf8(bytes.to_vec()).expect("UTF-8"),
    },
    CharsetColumn {
        name: "ISO-8859-1",
        decode: |bytes| bytes.iter().map(|&b| char::from(b)).collect(),
    },
    CharsetColumn {
        name: "UTF-16",
        // Java's UTF-16 encoder writes big-endian with a byte order mark per piece encoded.
        decode: |bytes| {
            assert_eq!(bytes.len() % 2, 0, "UTF-16 output has an odd length");
            let units = bytes
                .chunks(2)
                .map(|pair| u16::from_be_bytes([pair[0], pair[1]]));
            char::decode_utf16(units)
                .map(|c| c.expect("valid UTF-16"))
                .filter(|&c| c != '\u{FEFF}')
                .collect()
        },
    },
];

/// The appenders each layout and charset is written through: the appender elements (the
/// layout in `{layout}`, the file in `{file}`) and the logger that feeds them.
struct AppenderColumn {
    name: &'static str,
    elements: &'static str,
    logger: &'static str,
}

const APPENDERS: &[AppenderColumn] = &[
    AppenderColumn {
        name: "file",
        elements: r#"<File name="{id}" fileName="{file}">{layout}</File>"#,
        logger: "sync",
    },
    AppenderColumn {
        name: "rolling",
        elements: r#"<RollingFile name="{id}" fileName="{file}" filePattern="{file}.%i"><SizeBasedTriggeringPolicy size="10MB"/>{layout}</RollingFile>"#,
        logger: "sync",
    },
    AppenderColumn {
        name: "async",
        elements: r#"<File name="{id}-behind" fileName="{file}">{layout}</File><Async name="{id}"><AppenderRef ref="{id}-behind"/></Async>"#,
        logger: "sync",
    },
    AppenderColumn {
        name: "asynclogger",
        elements: r#"<File name="{id}" fileName="{file}">{layout}</File>"#,
        logger: "asynclogger",
    },
];

/// Latin-1 text beyond ASCII, so that every charset has something to encode.
const MESSAGES: [&str; 3] = ["grüße 1", "déjà vu 2", "plain 3"];

fn layout_element(row: &LayoutRow, charset: Option<&str>) -> String {
    let attribute = charset.map_or(String::new(), |c| format!(r#"charset="{c}""#));
    row.element.replace("{charset}", &attribute)
}

fn id(row: &LayoutRow, charset: &CharsetColumn, appender: &AppenderColumn) -> String {
    format!("{}-{}-{}", row.name, charset.name, appender.name)
}

fn charsets_of(row: &LayoutRow) -> &'static [CharsetColumn] {
    if row.has_charset {
        CHARSETS
    } else {
        &CHARSETS[..1]
    }
}

fn configuration(dir: &Path) -> String {
    let mut appenders = String::new();
    let mut refs = [String::new(), String::new()];
    for row in LAYOUTS {
        for charset in charsets_of(row) {
            let layout = layout_element(row, row.has_charset.then_some(charset.name));
            for appender in APPENDERS {
                let id = id(row, charset, appender);
                let file = dir.join(format!("{id}.log"));
                appenders.push_str(
                    &appender
                        .elements
                        .replace("{id}", &id)
                        .replace("{file}", &file.display().to_string())
                        .replace("{layout}", &layout),
                );
                appenders.push('\n');
                let logger = usize::from(appender.logger == "asynclogger");
                refs[logger].push_str(&format!(r#"<AppenderRef ref="{id}"/>"#));
            }
        }
    }
    format!(
        r#"<Configuration status="warn"><Appenders>
{appenders}</Appenders><Loggers>
  <Logger name="sync" level="info" additivity="false">{}</Logger>
  <AsyncLogger name="asynclogger" level="info" additivity="false">{}</AsyncLogger>
  <Root level="off"/>
</Loggers></Configuration>"#,
        refs[0], refs[1]
    )
}

#[test]
fn every_layout_through_every_appender_in_every_charset() {
    let dir = fresh_output_dir("layouts-everywhere");
    let config = write_config(&dir, &configuration(&dir));

    let loaded = l4rs::config::load_file(&config).expect("the configuration parses");
    assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
    let findings = l4rs::check_configuration(&loaded);
    assert!(findings.is_empty(), "l4rs check: {findings:#?}");

    l4rs::init_with_file(&config).expect("the configuration starts");
    for name in ["sync", "asynclogger"] {
        let logger = l4rs::get_logger(name);
        for message in MESSAGES {
            l4rs::info!(logger, "{}", message);
        }
    }
    l4rs::shutdown();

    let mut checked = 0;
    for row in LAYOUTS {
        for charset in charsets_of(row) {
            for appender in APPENDERS {
                let id = id(row, charset, appender);
                let bytes = std::fs::read(dir.join(format!("{id}.log")))
                    .unwrap_or_else(|e| panic!("{id}: {e}"));
                let text = (charset.decode)(&bytes);
                assert_eq!((row.messages)(&text), MESSAGES, "{id}: {text:?}");
                checked += 1;
            }
        }
    }
    assert_eq!(
        checked,
        (LAYOUTS.len() * CHARSETS.len() - 2) * APPENDERS.len()
    );
}

#[test]
fn every_layout_to_the_console() {
    for row in LAYOUTS {
        let dir = fresh_output_dir(&format!("layouts-console-{}", row.name));
        let config = write_config(
            &dir,
            &format!(
                r#"<Configuration><Appenders><Console name="Out">{}</Console></Appenders><Loggers>
  <Logger name="discovery.Probe" level="info" additivity="false"><AppenderRef ref="Out"/></Logger>
  <Root level="off"/>
</Loggers></Configuration>"#,
                layout_element(row, None)
            ),
        );
        let run = run_discovery_probe(
            DISCOVERY_PROBE,
            "lazy",
            &dir,
            &[("LOG4RS_CONFIGURATION_FILE", &config)],
        );
        assert!(run.problems().is_empty(), "{}: {:?}", row.name, run.records);
        let text = run.output.join("\n");
        assert_eq!(
            (row.messages)(&text),
            ["error line", "warn line", "info line"],
            "{}: {text:?}",
            row.name
        );
    }
}

/// One JSON object per line; each must parse.
fn json_messages(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let event: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
            event["message"].as_str().expect("a message").to_string()
        })
        .collect()
}

/// One `<Event>` element per line.
fn xml_messages(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            assert!(
                line.starts_with("<Event xmlns=\"http://logging.apache.org/log4j/2.0/events\" ")
                    && line.ends_with("</Event>"),
                "not an event element: {line}"
            );
            between(line, "<Message>", "</Message>")
        })
        .collect()
}

/// One `---` document per event.
fn yaml_messages(text: &str) -> Vec<String> {
    text.split("---\n")
        .filter(|document| !document.trim().is_empty())
        .map(|document| {
            assert!(
                document.starts_with("instant:\n"),
                "not an event: {document}"
            );
            between(document, "\nmessage: \"", "\"\n")
        })
        .collect()
}

/// `<PRI>Mmm dd HH:mm:ss host message` per line.
fn syslog_messages(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| !line.is_empty())
        .map(|line| {
            let rest = &line[line.find('>').expect("a priority") + 1..];
            let after_time = &rest["Mmm dd HH:mm:ss ".len()..];
            let (_host, message) = after_time.split_once(' ').expect("a host name");
            message.to_string()
        })
        .collect()
}

/// A page whose table has a `<td title="Message">` cell per event, after the header and before
/// the footer.
fn html_messages(text: &str) -> Vec<String> {
    assert!(text.starts_with("<!DOCTYPE HTML"), "no HTML header: {text}");
    // The console's lines come joined without the last line feed.
    assert!(
        text.trim_end().ends_with("</table>\n<br>\n</body></html>"),
        "no footer: {text}"
    );
    text.lines()
        .filter_map(|line| line.strip_prefix("<td title=\"Message\">"))
        .map(|cell| {
            cell.strip_suffix("</td>")
                .expect("a cell on one line")
                .to_string()
        })
        .collect()
}

/// `<PRI>1 time host app procid msgid structured-data message` per line.
fn rfc5424_messages(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| !line.is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.splitn(8, ' ').collect();
            assert_eq!(fields.len(), 8, "not an RFC 5424 line: {line}");
            assert!(fields[0].ends_with(">1"), "{line}");
            assert_eq!(fields[3], "app", "{line}");
            fields[7].to_string()
        })
        .collect()
}

fn between(text: &str, open: &str, close: &str) -> String {
    let start = text
        .find(open)
        .unwrap_or_else(|| panic!("no {open} in {text}"))
        + open.len();
    let end = start
        + text[start..]
            .find(close)
            .unwrap_or_else(|| panic!("no {close}"));
    text[start..end].to_string()
}
