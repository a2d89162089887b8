//! GelfLayout, the CSV layouts and Rfc5424Layout behind each kind of appender (File,
//! RollingFile with rollovers, Async in front of a file): what lands in the files is every
//! event, whole, in the layout's charset, and GELF lines parse as JSON.

use std::io::Read;
use std::path::Path;

use l4rs::{StackFrame, ThreadContext, Throwable};

fn config(dir: &str) -> String {
    format!(
        r#"<Configuration status="warn" name="structured">
  <Appenders>
    <File name="Gelf" fileName="{dir}/gelf.log">
      <GelfLayout host="test-host" compressionType="OFF" includeNewLineDelimiter="true">
        <KeyValuePair key="user" value="$${{ctx:user}}"/>
      </GelfLayout>
    </File>
    <File name="GelfZip" fileName="{dir}/gelf.bin">
      <GelfLayout host="test-host" compressionThreshold="0"/>
    </File>
    <Async name="AsyncGelf"><AppenderRef ref="AsyncTarget"/></Async>
    <File name="AsyncTarget" fileName="{dir}/async-gelf.log">
      <GelfLayout host="test-host" compressionType="OFF" includeNewLineDelimiter="true"/>
    </File>
    <RollingFile name="RollingCsv" fileName="{dir}/events.csv" filePattern="{dir}/events.%i.csv">
      <CsvLogEventLayout format="TDF" header="header%n" footer="footer%n"/>
      <SizeBasedTriggeringPolicy size="1 KB"/>
      <DefaultRolloverStrategy max="100"/>
    </RollingFile>
    <File name="Latin1" fileName="{dir}/latin1.csv">
      <CsvParameterLayout charset="ISO-8859-1"/>
    </File>
    <File name="Syslog" fileName="{dir}/rfc5424.log">
      <Rfc5424Layout appName="app" newLine="true">
        <LoggerFields><KeyValuePair key="logger" value="%c"/></LoggerFields>
      </Rfc5424Layout>
    </File>
  </Appenders>
  <Loggers>
    <Root level="info">
      <AppenderRef ref="Gelf"/><AppenderRef ref="GelfZip"/><AppenderRef ref="AsyncGelf"/>
      <AppenderRef ref="RollingCsv"/><AppenderRef ref="Latin1"/><AppenderRef ref="Syslog"/>
    </Root>
  </Loggers>
</Configuration>"#
    )
}

const EVENTS: usize = 40;

fn json_lines(path: &Path) -> Vec<serde_json::Value> {
    l4rs_tests::read_lines(path)
        .iter()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// Splits the concatenated GZIP members of `bytes` (one per event) and decompresses each.
fn gzip_members(bytes: &[u8]) -> Vec<String> {
    let mut members = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let mut decoder = flate2::bufread::GzDecoder::new(rest);
        let mut text = String::new();
        decoder.read_to_string(&mut text).expect("a GZIP member");
        rest = decoder.into_inner();
        members.push(text);
    }
    members
}

#[test]
fn every_appender_writes_every_event_whole() {
    let dir = l4rs_tests::init_in_fresh_dir("structured-layout-appenders", config);
    let logger = l4rs::get_logger("orders");
    ThreadContext::put("user", "zoë");
    let error = Throwable::new("app::Error")
        .with_message("bad \"input\"")
        .with_frames(vec![StackFrame::rust("app", "run", Some("app.rs"), 3)]);
    for index in 0..EVENTS {
        if index % 10 == 0 {
            l4rs::error!(logger, error = &error, "event {index} é\tfailed");
        } else {
            l4rs::info!(logger, "event {index} é\tok, \"quoted\"");
        }
    }
    ThreadContext::clear_all();
    l4rs::shutdown();

    for file in ["gelf.log", "async-gelf.log"] {
        let lines = json_lines(&dir.join(file));
        assert_eq!(lines.len(), EVENTS, "{file}");
        for (index, json) in lines.iter().enumerate() {
            let message = json["short_message"].as_str().expect("short_message");
            assert!(message.starts_with(&format!("event {index} é\t")), "{json}");
            assert_eq!(json["_user"], "zoë", "{file}: {json}");
            assert_eq!(json["host"], "test-host");
            assert_eq!(json["full_message"].is_string(), index % 10 == 0, "{json}");
        }
    }

    let members = gzip_members(&std::fs::read(dir.join("gelf.bin")).unwrap());
    assert_eq!(members.len(), EVENTS);
    for member in &members {
        let json: serde_json::Value = serde_json::from_str(member).expect("JSON");
        assert_eq!(json["_logger"], "orders");
    }

    // Every rolled file starts with the header and ends with the footer; together they hold
    // every record once, in order.
    let mut records = Vec::new();
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("events") {
            continue;
        }
        files += 1;
        let lines = l4rs_tests::read_lines(&path);
        assert_eq!(lines.first().map(String::as_str), Some("header"), "{name}");
        assert_eq!(lines.last().map(String::as_str), Some("footer"), "{name}");
        records.extend(lines[1..lines.len() - 1].iter().cloned());
    }
    assert!(files >= 3, "1 KB rollovers: {files} files");
    assert_eq!(records.len(), EVENTS);
    let mut numbers: Vec<usize> = records
        .iter()
        .map(|record| {
            let fields: Vec<&str> = record.split('\t').collect();
            let message = fields[6].trim_matches('"');
            let number: usize = message["event ".len()..]
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            let level = if number.is_multiple_of(10) {
                "ERROR"
            } else {
                "INFO"
            };
            assert_eq!(fields[2], level, "{record}");
            number
        })
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (0..EVENTS).collect::<Vec<_>>());

    // ISO-8859-1: `é` is one byte, and the message is the record's one value.
    let latin1 = std::fs::read(dir.join("latin1.csv")).unwrap();
    let first = latin1.split(|&b| b == b'\n').next().unwrap();
    assert_eq!(first, b"event 0 \xe9\tfailed\r");
    assert_eq!(latin1.iter().filter(|&&b| b == b'\n').count(), EVENTS);

    let syslog = l4rs_tests::read_lines(&dir.join("rfc5424.log"));
    assert_eq!(syslog.len(), EVENTS);
    assert!(
        syslog[1].contains(r#"[mdc@32473 logger="orders" user="zoë"] event 1 é"#),
        "{}",
        syslog[1]
    );
}
