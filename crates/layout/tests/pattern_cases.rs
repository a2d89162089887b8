//! Every row of `shared/reference/pattern-cases.tsv` as a test.
//!
//! The "input description" column is free text; [`build`] reads the event out of it (logger,
//! level, message, thread, MDC, NDC, marker, location, throwable, time) and a few rows get
//! explicit events. Partial rows (`STARTS WITH`, `ENDS WITH`, `<…>` placeholders) are
//! checked as such. Rows that describe log4j2 ≥ 2.25 behaviour contradicting the 2.19/2.24
//! target, newer behaviour where l4rs keeps 2.19's because the oracle's public scenarios pin
//! it, or inputs l4rs cannot express, are listed in [`NOT_APPLICABLE`] with the reason;
//! the test fails if one of them starts passing or any other row fails.

mod common;

use common::{exception_e, OwnedEvent};
use l4rs_config::model::{PatternLayoutSpec, ReplaceSpec};
use l4rs_core::{Layout, Level, Marker, StackFrame, Throwable, Timestamp};
use l4rs_layout::{DateFormatter, LayoutContext, PatternLayout};
use l4rs_test_support::shared::shared_path;

/// Rows (line numbers in the TSV) that cannot pass, and why.
const NOT_APPLICABLE: &[(usize, &str)] = &[
    (71, "≥2.25: a pattern not ending in %n gets %notEmpty{%n%ex}; 2.19 appends %xEx after one space"),
    (83, "≥2.25 DateTimeFormatter: SSSSSS is micro-of-second; 2.19/2.24 FastDateFormat pads the millis (.000123)"),
    (85, "≥2.25 DateTimeFormatter: SSSSSS is micro-of-second; 2.19/2.24 FastDateFormat pads the millis (.000123)"),
    (109, "≥2.21 (so 2.24) %notEmpty treats [] from an empty NDC as empty; l4rs keeps it as 2.19 does, which public scenario 101 pins"),
    (110, "≥2.21 (so 2.24) %notEmpty treats {} from an empty MDC as empty; l4rs keeps it as 2.19 does (see docs/compatibility.md)"),
    (112, "≥2.22 (so 2.24) %notEmpty treats {} from a key list as empty; l4rs keeps it as 2.19 does (see docs/compatibility.md)"),
    (128, "StringMapMessage: l4rs messages are plain text, never MapMessages"),
    (129, "StringMapMessage: l4rs messages are plain text, never MapMessages"),
    (135, "StringMapMessage with {json}: l4rs messages are plain text"),
    (136, "StringMapMessage with {xml}: l4rs messages are plain text"),
    (137, "StructuredDataMessage: l4rs messages are plain text"),
    (160, "getMessage() differs from getLocalizedMessage(): an l4rs Throwable has one message (used for both, as the trace header prints)"),
    (163, "≥2.25: the separator also follows the last line; 2.19 leaves it off"),
    (164, "≥2.25: the separator also follows the last line; 2.19 leaves it off"),
    (165, "≥2.25: the separator also follows the last line; 2.19 leaves it off"),
    (166, "≥2.25: the separator also follows the last line; 2.19 leaves it off"),
    (167, "≥2.25: the separator also follows the last line; 2.19 leaves it off"),
    (169, "≥2.25: the separator also follows the last line; 2.19 leaves it off"),
    (170, "≥2.25: the separator also follows the last line; 2.19 leaves it off"),
    (173, "≥2.25.2: no space before %ex; 2.19 inserts one after non-whitespace"),
    (174, "circular cause chain (cannot be built from owned l4rs throwables) and ≥2.25 spacing"),
    (175, "circular cause chain: an l4rs Throwable owns its causes, so it cannot refer back"),
    (176, "≥2.25: %ex honours filters(); in 2.19 only %xEx/%rEx do (see the 2.19 row 256)"),
    (177, "≥2.25: %ex honours filters(); in 2.19 only %xEx/%rEx do (see the 2.19 row 256)"),
    (178, "≥2.25: %xEx honours line limits (2.19 prints everything) and jar/JDK packaging data"),
    (179, "circular cause chain: an l4rs Throwable owns its causes, so it cannot refer back"),
];

/// Rows whose expected column is not a valid JSON string (CSV quoting damaged it): the
/// value the upstream test asserts, re-encoded.
const REPAIRED: &[(usize, &str)] = &[
    (
        91,
        "This string contains \\\"quotes\\\" and \\\\ backslash and \\u001F control and\\nnewline",
    ),
    (
        92,
        "Test \\r\\n<div class=\"test\">this\\r</div> & \\n<div class='test'>that</div>",
    ),
];

/// The rows of `shared/reference/pattern-cases.tsv`; `None` when it is absent (skipped with a
/// notice, or failed under CI).
fn tsv_rows() -> Option<Vec<(usize, Vec<String>)>> {
    let path = shared_path("reference/pattern-cases.tsv", "the pattern cases")?;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(
        text.lines()
            .enumerate()
            .skip(1)
            .map(|(index, line)| (index + 1, line.split('\t').map(unquote_csv).collect()))
            .collect(),
    )
}

/// The columns were written with CSV quoting: `"…"` around, `""` for a quote.
fn unquote_csv(field: &str) -> String {
    match field.strip_prefix('"').and_then(|f| f.strip_suffix('"')) {
        Some(inner) => inner.replace("\"\"", "\""),
        None => field.to_string(),
    }
}

fn json(text: &str) -> Option<String> {
    serde_json::from_str::<String>(&format!("\"{text}\"")).ok()
}

/// Reads a Java string literal body up to its closing quote.
fn java_string(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => break,
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('t') => out.push('\t'),
                Some('u') => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
                }
                Some(other) => out.push(other),
                None => {}
            },
            other => out.push(other),
        }
    }
    out
}

fn after<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.find(key).map(|i| &text[i + key.len()..])
}

fn word(text: &str) -> String {
    text.chars()
        .take_while(|c| !matches!(c, ' ' | ',' | ';' | ')' | '('))
        .collect()
}

fn local(y: i64, mo: i64, d: i64, h: i64, mi: i64, s: i64, ms: i64) -> i64 {
    let days = {
        let y = if mo <= 2 { y - 1 } else { y };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let doy = (153 * (if mo > 2 { mo - 3 } else { mo + 9 }) + 2) / 5 + d - 1;
        era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
    };
    ((days * 24 + h) * 60 + mi) * 60_000 + s * 1000 + ms
}

/// `foo.TestFriendlyException`: its header prints the localized message.
fn friendly() -> Throwable {
    let create = StackFrame::java(
        "foo.TestFriendlyException",
        "create",
        Some("TestFriendlyException.java"),
        0,
    );
    Throwable::new("foo.TestFriendlyException")
        .with_message("r [localized]")
        .with_frames(vec![
            StackFrame::java(
                "java.base/java.lang.Thread",
                "getStackTrace",
                Some("Thread.java"),
                1610,
            ),
            create,
            StackFrame::java(
                "foo.TestFriendlyException",
                "<clinit>",
                Some("TestFriendlyException.java"),
                0,
            ),
            StackFrame::java(
                "bar.OrgApacheReplacement",
                "someMethod",
                Some("OrgApacheReplacement.java"),
                0,
            ),
        ])
}

struct Case {
    event: OwnedEvent,
    spec: PatternLayoutSpec,
}

fn build(pattern: &str, description: &str) -> Case {
    let mut e = OwnedEvent::reference();
    let d = description;
    let mut spec = PatternLayoutSpec {
        pattern: pattern.to_string(),
        always_write_exceptions: !d.contains("alwaysWriteExceptions=false"),
        ..PatternLayoutSpec::default()
    };
    if let Some(rest) = after(d, "logger=\"") {
        e.logger = java_string(rest);
    }
    if let Some(rest) = after(d, "level=") {
        e.level = Level::from_name(&word(rest)).unwrap();
    }
    if let Some(rest) = after(d, "message=\"") {
        e.message = java_string(rest);
    } else if d.contains("no message") {
        e.message = String::new();
    } else if d.contains("message = caller class name") {
        e.message = "org.apache.logging.log4j.core.pattern.StyleConverterTest".into();
    } else if d.contains("ParameterizedMessage(\"${foo}\")") {
        e.message = "${foo}".into();
    }
    if let Some(rest) = after(d, "thread name \"") {
        e.thread = java_string(rest);
    } else if let Some(rest) = after(d, "thread=") {
        e.thread = match rest.strip_prefix('"') {
            Some(quoted) => java_string(quoted),
            None => word(rest).replace("<T>", "Thread-T"),
        };
    }
    if let Some(rest) = after(d, "tprio=") {
        e.priority = word(rest).parse().unwrap();
    }
    if let Some(rest) = after(d, "MDC ") {
        let list = rest.split(';').next().unwrap().split(" (").next().unwrap();
        let list = list.split(", message=").next().unwrap();
        for pair in list.split(',') {
            if let Some((k, v)) = pair.trim().split_once('=') {
                e.mdc.insert(k.trim(), v.trim().trim_matches('"'));
            }
        }
    }
    if let Some(rest) = after(d, "NDC pushes: ") {
        for entry in rest.split(',') {
            e.ndc.push(entry.trim());
        }
    }
    if let Some(rest) = after(d, "marker ").filter(|r| r.contains(" with parent ")) {
        let name = word(rest);
        let parent = word(after(rest, " with parent ").unwrap());
        let marker = Marker::get(&name);
        marker.set_parents(vec![Marker::get(&parent)]);
        e.marker = Some(marker);
    } else if let Some(rest) = after(d, "marker=") {
        // Markers are global; rows are separate JVMs upstream, so start each without parents.
        let marker = Marker::get(&word(rest));
        marker.set_parents(Vec::new());
        e.marker = Some(marker);
    }
    if let Some(rest) = after(d, "location: class=") {
        let class = word(rest);
        let method = word(after(rest, "method=").unwrap());
        let file = word(after(rest, "file=").unwrap());
        let line = word(after(rest, "line=").unwrap()).parse().unwrap();
        e.location = Some((class, method, file, line));
    } else if let Some(rest) = after(d, "source class=\"") {
        e.location = Some((java_string(rest), "m".into(), "F.java".into(), 1));
    } else if let Some(rest) = after(d, "source line=") {
        e.location = Some((
            "org.apache.logging.log4j.PatternParserTest".into(),
            "m".into(),
            "PatternParserTest.java".into(),
            word(rest).parse().unwrap(),
        ));
    } else if let Some(index) = d.rfind("caller class ") {
        e.location = Some((
            word(&d[index + "caller class ".len()..]),
            "m".into(),
            "F.java".into(),
            1,
        ));
    }
    if d.contains("thrown=E") {
        e.throwable = Some(exception_e());
    } else if d.contains("TestFriendlyException") {
        e.throwable = Some(friendly());
    } else if d.contains("RuntimeException(\"foo\")") {
        e.throwable = Some(
            Throwable::new("java.lang.RuntimeException")
                .with_message("foo")
                .with_frames(vec![StackFrame::java(
                    "org.apache.logging.log4j.core.layout.PatternLayoutDefaultExceptionHandlerTest",
                    "test",
                    Some("PatternLayoutDefaultExceptionHandlerTest.java"),
                    50,
                )]),
        );
    }
    if d.contains("alwaysWriteExceptions=true") {
        spec.always_write_exceptions = true;
    }
    if d.contains("disableAnsi=true") {
        spec.disable_ansi = true;
    }
    if d.contains("<Replace regex=\"\\.\" replacement=\"/\"/>") {
        spec.replace = Some(ReplaceSpec {
            regex: "\\.".into(),
            replacement: "/".into(),
        });
    }
    if let Some(rest) = after(d, "custom level ") {
        let name = word(rest);
        let int_level = word(after(rest, "(").unwrap()).parse().unwrap();
        e.level = Level::register(&name, int_level);
    }
    e.timestamp = if d.contains("instant = 2001-02-01 14:15:16.123") {
        Timestamp::from_millis(local(2001, 2, 1, 14, 15, 16, 123))
    } else if d.contains("instant = 2011-03-11 14:15:16.123") {
        Timestamp::from_millis(local(2011, 3, 11, 14, 15, 16, 123))
    } else if d.contains("2011-12-30 10:56:35.987") {
        Timestamp {
            epoch_millis: local(2011, 12, 30, 10, 56, 35, 987),
            nano_of_milli: 123_456,
        }
    } else if d.contains("epochMillis=1577225134559") {
        Timestamp {
            epoch_millis: 1_577_225_134_559,
            nano_of_milli: 1000,
        }
    } else if d.contains("time=2001-02-03 04:05:06.789") {
        Timestamp::from_millis(local(2001, 2, 3, 4, 5, 6, 789))
    } else {
        e.timestamp
    };
    Case { event: e, spec }
}

/// Inputs the description leaves to the upstream test's code.
fn row_specific(line: usize, case: &mut Case) {
    match line {
        // PatternLayoutTest logs "Hello, world 1!" throughout this group.
        62..=70 => case.event.message = "Hello, world 1!".into(),
        // HighlightConverterTest's event for the disableAnsi case.
        142 => case.event.message = "message in a bottle".into(),
        _ => {}
    }
}

/// Matches `actual` against `expected` where each `<…>` stands for any text on one line.
fn matches_with_placeholders(expected: &str, actual: &str) -> bool {
    let mut parts = Vec::new();
    let mut rest = expected;
    while let Some(open) = rest.find('<') {
        match rest[open..].find('>') {
            Some(close)
                if !rest[open + 1..open + close].contains(['\n', '<', ' '])
                    || rest[open + 1..open + close].chars().all(|c| {
                        c.is_ascii_uppercase() || c == '_' || c == ' ' || c.is_ascii_lowercase()
                    }) && rest[open + 1..open + close].len() > 2 =>
            {
                parts.push(&rest[..open]);
                rest = &rest[open + close + 1..];
            }
            _ => break,
        }
    }
    parts.push(rest);
    fn go(parts: &[&str], actual: &str, first: bool) -> bool {
        let Some((head, tail)) = parts.split_first() else {
            return actual.is_empty();
        };
        if first {
            return actual.starts_with(head) && go(tail, &actual[head.len()..], false);
        }
        // A placeholder precedes `head`: skip any text without a newline.
        let limit = actual.find('\n').unwrap_or(actual.len());
        (0..=limit)
            .filter(|&i| actual.is_char_boundary(i))
            .any(|i| actual[i..].starts_with(head) && go(tail, &actual[i + head.len()..], false))
    }
    go(&parts, actual, true)
}

fn check(line: usize, pattern: &str, description: &str, expected: &str) -> Result<(), String> {
    let mut case = build(pattern, description);
    row_specific(line, &mut case);
    let layout = PatternLayout::new(&case.spec, LayoutContext::default());
    let render = |event: &OwnedEvent| {
        let mut out = String::new();
        layout.format(&event.as_event(), &mut out);
        out
    };
    if expected.contains("(one per event)") {
        l4rs_layout::reset_sequence_number();
        let outputs: Vec<String> = (0..5).map(|_| render(&case.event)).collect();
        let joined = format!("{} (one per event)", outputs.join(", "));
        return if joined == expected {
            Ok(())
        } else {
            Err(joined)
        };
    }
    let actual = render(&case.event);
    let millis = case.event.timestamp.epoch_millis;
    let expected = expected
        .replace("<T/1000 (integer division)>", &(millis / 1000).to_string())
        .replace(
            "<T>",
            &if pattern.contains("%d{UNIX_MILLIS}") {
                millis.to_string()
            } else {
                "Thread-T".to_string()
            },
        );
    let expected = if expected == "<formatted with yyyy-MM-dd HH:mm:ss,SSS>" {
        let mut out = String::new();
        DateFormatter::new(Some("DEFAULT"), None).format(case.event.timestamp, &mut out);
        out
    } else {
        expected
    };
    let ok = if description.contains("ENDS WITH") && description.contains("STARTS WITH") {
        let (head, tail) = expected.split_once(" ... ").unwrap_or((&expected, ""));
        actual.starts_with(head) && actual.ends_with(tail)
    } else if description.contains("ENDS WITH") {
        actual.ends_with(&expected)
    } else if description.contains("STARTS WITH") {
        actual.starts_with(&expected)
    } else if expected.ends_with("\n...") {
        actual.starts_with(expected.trim_end_matches("..."))
    } else if expected.contains('<')
        && !pattern.contains("&lt;")
        && (expected.contains("<NAMED") || expected.contains("<jdk"))
    {
        matches_with_placeholders(&expected, &actual)
    } else {
        actual == expected
    };
    if ok {
        Ok(())
    } else {
        Err(actual)
    }
}

#[test]
fn every_pattern_case() {
    let Some(rows) = tsv_rows() else {
        return;
    };
    let mut passed = 0;
    let mut failures = Vec::new();
    let mut unexpected_passes = Vec::new();
    for (line, columns) in &rows {
        let pattern = json(&columns[0])
            .unwrap_or_else(|| panic!("line {line}: pattern is not a JSON string"));
        let description = &columns[1];
        let not_applicable = NOT_APPLICABLE.iter().find(|(l, _)| l == line);
        let expected = match REPAIRED.iter().find(|(l, _)| l == line) {
            Some((_, repaired)) => repaired.to_string(),
            None => match json(&columns[2]) {
                Some(expected) => expected,
                None if not_applicable.is_some() => continue,
                None => panic!("line {line}: expected is not a JSON string"),
            },
        };
        let result = check(*line, &pattern, description, &expected);
        match (result, not_applicable) {
            (Ok(()), None) => passed += 1,
            (Ok(()), Some(_)) => unexpected_passes.push(*line),
            (Err(_), Some(_)) => {}
            (Err(actual), None) => failures.push(format!(
                "line {line}: {pattern:?}\n  expected {expected:?}\n  actual   {actual:?}"
            )),
        }
    }
    println!(
        "pattern-cases.tsv: {passed} of {} rows pass; {} documented as not applicable to the 2.19/2.24 target",
        rows.len(),
        NOT_APPLICABLE.len()
    );
    assert!(
        failures.is_empty(),
        "{} rows failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        unexpected_passes.is_empty(),
        "rows documented as not applicable now pass: {unexpected_passes:?}"
    );
}
