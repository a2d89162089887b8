//! The rolling appenders through the facade: a configuration file loaded with
//! `l4rs::init_with_file`, events logged through the macros and through `Logger::log_event`
//! with chosen timestamps (no waiting for real days), and the rolled files checked.
//!
//! The `filePattern` uses `$${archiveName}`: log4j2 keeps it for rollover time and resolves it
//! then with the configuration's substitutor, so a configuration property resolves there.

use std::path::Path;

use l4rs::core::{status, Level, LogEvent, Message, Timestamp};

fn config(dir: &Path) -> String {
    format!(
        r#"<Configuration status="error">
  <Properties>
    <Property name="logDir">{dir}</Property>
    <Property name="archiveName">archived</Property>
  </Properties>
  <Appenders>
    <RollingFile name="Daily" fileName="${{logDir}}/app.log"
                 filePattern="${{logDir}}/$${{archiveName}}-%d{{yyyy-MM-dd}}{{UTC}}-%i.log">
      <PatternLayout pattern="%m%n"/>
      <Policies>
        <TimeBasedTriggeringPolicy/>
        <SizeBasedTriggeringPolicy size="10 MB"/>
      </Policies>
    </RollingFile>
    <RollingRandomAccessFile name="Sized" fileName="${{logDir}}/raf.log"
                             filePattern="${{logDir}}/raf.%i.log" immediateFlush="true">
      <PatternLayout pattern="%m%n"/>
      <SizeBasedTriggeringPolicy size="1 KB"/>
      <DefaultRolloverStrategy fileIndex="nomax"/>
    </RollingRandomAccessFile>
  </Appenders>
  <Loggers>
    <Logger name="daily" level="info" additivity="false"><AppenderRef ref="Daily"/></Logger>
    <Logger name="sized" level="info" additivity="false"><AppenderRef ref="Sized"/></Logger>
    <Root level="off"/>
  </Loggers>
</Configuration>"#,
        dir = dir.display()
    )
}

fn at(logger: &l4rs::Logger, utc: &str, text: &'static str) {
    let millis = parse_utc(utc);
    let mut event = LogEvent::new("", Level::INFO, Message::Text(text));
    event.timestamp = Timestamp::from_millis(millis);
    logger.log_event(&event).unwrap();
}

/// `YYYY-MM-DDTHH:MM:SSZ` to epoch milliseconds (days from the civil calendar, no time zone
/// database needed).
fn parse_utc(text: &str) -> i64 {
    let number = |range: std::ops::Range<usize>| text[range].parse::<i64>().unwrap();
    let (year, month, day) = (number(0..4), number(5..7), number(8..10));
    let (hour, minute, second) = (number(11..13), number(14..16), number(17..19));
    // Howard Hinnant's days_from_civil.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000
}

#[test]
fn rolling_appenders_roll_through_the_facade() {
    let dir = l4rs_tests::fresh_output_dir("rolling-config");
    let path = l4rs_tests::write_config(&dir, &config(&dir));
    let ((), records) = status::capture(|| l4rs::init_with_file(&path).unwrap());
    assert!(
        records.iter().all(|r| r.level != Level::ERROR),
        "{records:#?}"
    );
    let daily = l4rs::get_logger("daily");
    let sized = l4rs::get_logger("sized");

    // Now-dated events through the macros go into today's file.
    for n in 0..3 {
        l4rs::info!(daily, "today {n}");
    }
    // An event on 2030-01-01 rolls today's file; the next day's event rolls that day's.
    at(&daily, "2030-01-01T12:00:00Z", "first day a");
    at(&daily, "2030-01-01T23:59:59Z", "first day b");
    at(&daily, "2030-01-02T00:00:00Z", "second day");

    // 60 lines of 51 bytes with a 1 KiB limit: a rollover after every 21 lines.
    let mut expected_sized: Vec<String> = Vec::new();
    for n in 0..60 {
        let line = format!("sized {n:02} {}", "x".repeat(40));
        l4rs::info!(sized, "{line}");
        expected_sized.push(line);
    }
    l4rs::shutdown();

    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    // The property resolved at rollover: no file carries the `${…}` itself.
    assert!(names.iter().all(|n| !n.contains('$')), "{names:?}");
    let read = |name: &str| l4rs_tests::read_lines(&dir.join(name));
    assert_eq!(
        read("archived-2030-01-01-1.log"),
        ["first day a", "first day b"]
    );
    assert_eq!(read("app.log"), ["second day"]);
    let today: Vec<&String> = names
        .iter()
        .filter(|n| n.starts_with("archived-") && !n.starts_with("archived-2030"))
        .collect();
    assert_eq!(today.len(), 1, "{names:?}");
    assert_eq!(read(today[0]), ["today 0", "today 1", "today 2"]);

    // Every sized line exactly once, in order, over raf.1.log, raf.2.log, … and raf.log.
    let mut archives: Vec<(u32, String)> = names
        .iter()
        .filter_map(|n| {
            let index = n.strip_prefix("raf.")?.strip_suffix(".log")?.parse().ok()?;
            Some((index, n.clone()))
        })
        .collect();
    archives.sort();
    assert_eq!(archives.len(), 2, "{names:?}");
    let mut seen: Vec<String> = archives.iter().flat_map(|(_, n)| read(n)).collect();
    seen.extend(read("raf.log"));
    assert_eq!(seen, expected_sized);
}
