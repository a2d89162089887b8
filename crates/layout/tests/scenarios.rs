//! Replays the layout-focused oracle scenarios (real log4j2 2.19 output) through
//! `PatternLayout` and compares byte for byte. Every event in these scenarios reaches every
//! listed appender, so the expected output is each event formatted by each layout in turn.

mod common;

use common::events_in;
use l4rs_config::model::{
    PatternLayoutSpec, PatternSelectorKind, PatternSelectorSpec, ReplaceSpec,
};
use l4rs_core::{Layout, Level};
use l4rs_layout::{LayoutContext, PatternLayout};
use l4rs_test_support::shared::shared_path;

fn spec(pattern: &str) -> PatternLayoutSpec {
    PatternLayoutSpec {
        pattern: pattern.to_string(),
        ..PatternLayoutSpec::default()
    }
}

/// An appender: where its bytes go (`stdout` or a file under `expected/files`) and its layout.
struct App {
    destination: &'static str,
    layout: PatternLayoutSpec,
}

impl App {
    /// An appender writing `layout` to stdout.
    fn stdout_with(layout: PatternLayoutSpec) -> App {
        App {
            destination: "stdout",
            layout,
        }
    }

    /// An appender writing `layout` to the file `name`.
    fn file_with(name: &'static str, layout: PatternLayoutSpec) -> App {
        App {
            destination: name,
            layout,
        }
    }
}

/// An appender writing `pattern` to stdout.
fn stdout(pattern: &str) -> App {
    App::stdout_with(spec(pattern))
}

/// An appender writing `pattern` to the file `name`.
fn file(name: &'static str, pattern: &str) -> App {
    App::file_with(name, spec(pattern))
}

fn run(name: &str, threshold: Level, apps: Vec<App>) {
    let Some(dir) = shared_path(
        &format!("oracle/scenarios/{name}"),
        &format!("scenario {name}"),
    ) else {
        return;
    };
    let events = events_in(&dir);
    let layouts: Vec<PatternLayout> = apps
        .iter()
        .map(|a| PatternLayout::new(&a.layout, LayoutContext::default()))
        .collect();
    let mut outputs: Vec<(&str, String)> = Vec::new();
    let output_for =
        |destination: &'static str, outputs: &mut Vec<(&'static str, String)>| -> usize {
            match outputs.iter().position(|(d, _)| *d == destination) {
                Some(index) => index,
                None => {
                    outputs.push((destination, String::new()));
                    outputs.len() - 1
                }
            }
        };
    for (app, layout) in apps.iter().zip(&layouts) {
        let index = output_for(app.destination, &mut outputs);
        layout.header(&mut outputs[index].1);
    }
    for event in &events {
        if !event.level.is_at_least_as_severe_as(threshold) {
            continue;
        }
        for (app, layout) in apps.iter().zip(&layouts) {
            let index = output_for(app.destination, &mut outputs);
            layout.format(&event.as_event(), &mut outputs[index].1);
        }
    }
    for (app, layout) in apps.iter().zip(&layouts) {
        let index = output_for(app.destination, &mut outputs);
        layout.footer(&mut outputs[index].1);
    }
    for (destination, actual) in outputs {
        let path = if destination == "stdout" {
            dir.join("expected/stdout.txt")
        } else {
            dir.join("expected/files").join(destination)
        };
        let expected =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if actual != expected {
            let diff: Vec<String> = expected
                .lines()
                .zip(actual.lines())
                .filter(|(e, a)| e != a)
                .take(5)
                .map(|(e, a)| format!("  expected {e:?}\n  actual   {a:?}"))
                .collect();
            panic!(
                "{name} {destination} differs:\n{}\n--- full actual:\n{actual}",
                diff.join("\n")
            );
        }
    }
}

#[test]
fn s090_logger_precision() {
    run("090-pattern-logger-precision", Level::INFO, vec![stdout(
        "%c|%c{1}|%c{2}|%c{10}|%c{-1}|%c{-2}|%c{-10}|%c{1.}|%c{1.1.~}|%c{.}|%c{3.}|%c{1.1.1.*}|%logger{2}%n",
    )]);
}

#[test]
fn s091_location() {
    run(
        "091-pattern-location",
        Level::INFO,
        vec![stdout(
            "%C|%C{1}|%C{1.}|%class{-1}|%M|%method|%L|%line|%F|%file|%l|%location%n",
        )],
    );
}

#[test]
fn s092_level() {
    run("092-pattern-level", Level::ALL, vec![stdout(
        "%p|%-5p|%5p|%.1p|%p{length=1}|%p{length=3}|%level{lowerCase=true}|%level{WARN=W, ERROR=E, FATAL=F}|%level{INFO=Info, length=2}|%level{DEBUG=dbg, lowerCase=true}|%level{length=10}%n",
    )]);
}

#[test]
fn s093_format_modifiers() {
    run(
        "093-format-modifiers",
        Level::INFO,
        vec![stdout(
            "[%10m][%-10m][%.5m][%.-5m][%10.5m][%-10.5m][%8.-3m][%5.8c][%-8.3t][%03X{n}]%n",
        )],
    );
}

#[test]
fn s094_date_named_formats() {
    run("094-date-named-formats", Level::INFO, vec![
        stdout("%d|%d{DEFAULT}|%d{DEFAULT_PERIOD}|%d{ISO8601}|%d{ISO8601_PERIOD}|%d{ISO8601_BASIC}|%d{ISO8601_BASIC_PERIOD}|%d{ABSOLUTE}|%d{ABSOLUTE_PERIOD}|%d{DATE}|%d{DATE_PERIOD}|%d{COMPACT}%n"),
        stdout("  %d{UNIX}|%d{UNIX_MILLIS}|%d{DEFAULT_MICROS}|%d{ISO8601_OFFSET_DATE_TIME_HH}|%d{ISO8601_OFFSET_DATE_TIME_HHMM}|%d{ISO8601_OFFSET_DATE_TIME_HHCMM}|%d{US_MONTH_DAY_YEAR2_TIME}|%d{US_MONTH_DAY_YEAR4_TIME}|%date{ABSOLUTE}%n"),
    ]);
}

#[test]
fn s095_date_custom_and_zones() {
    run("095-date-custom-and-zones", Level::INFO, vec![
        stdout("%d{yyyy-MM-dd HH:mm:ss.SSS}{UTC}|%d{HH:mm:ss}{GMT+8}|%d{HH:mm}{GMT-03:30}|%d{ISO8601}{America/New_York}|%d{HH:mm Z}{Asia/Kathmandu}|%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX}{Europe/Berlin}%n"),
        stdout("  %d{dd/MMM/yyyy:HH:mm:ss Z}|%d{EEE, d MMM yyyy h:mm a}|%d{EEEE, MMMM d, yyyy}|%d{yy.M.d H:m:s.S}|%d{D 'day' HH'h'}|%d{yyyyMMdd'T'HHmmss.SSSZ}|%d{'at' h 'o''clock' a}%n"),
    ]);
}

#[test]
fn s097_thread_fields() {
    run(
        "097-thread-fields",
        Level::INFO,
        vec![stdout(
            "%t|%thread|%tn|%threadName|%T|%tid|%threadId|%tp|%threadPriority|[%-12t]|[%.4t]%n",
        )],
    );
}

#[test]
fn s098_mdc_ndc() {
    run(
        "098-mdc-ndc",
        Level::INFO,
        vec![stdout(
            "%X|%X{user}|%X{user,req}|%X{missing}|%X{missing,other}|%mdc{req}|%MDC|%x|%NDC|%m%n",
        )],
    );
}

#[test]
fn s099_markers() {
    run(
        "099-markers",
        Level::INFO,
        vec![stdout(
            "%marker|%markerSimpleName|%notEmpty{[%marker]}|%m%n",
        )],
    );
}

#[test]
fn s100_enc() {
    run("100-enc", Level::INFO, vec![stdout(
        "default:%enc{%m}%nHTML:%enc{%m}{HTML}%nXML:%enc{%m}{XML}%nJSON:%enc{%m}{JSON}%nCRLF:%enc{%m}{CRLF}%nmdc:%encode{%X{k}}{JSON}%n",
    )]);
}

#[test]
fn s101_replace_equals_not_empty_max_len() {
    run(
        "101-replace-equals-notempty-maxlen",
        Level::INFO,
        vec![stdout(
            r"%replace{%m}{\d+}{#}|%replace{%c}{\.}{/}|%replace{%m}{(\w+)@(\w+)}{$2 at $1}|%equals{%X{user}}{}{anonymous}|%equalsIgnoreCase{%p}{warn}{W!}|%notEmpty{user=%X{user} }|%notEmpty{%x}|%maxLen{%m}{10}|%maxLen{%m}{25}|%maxLength{%c}{5}%n",
        )],
    );
}

#[test]
fn s102_highlight_style() {
    let mut no_ansi = spec("%highlight{%-5p}|%style{%c}{bold,cyan}|%red{r}|%m%n");
    no_ansi.disable_ansi = true;
    run("102-highlight-style", Level::ALL, vec![
        stdout("%highlight{%-5p}|%highlight{%m}{STYLE=logback}|%highlight{%p}{FATAL=white, ERROR=red, WARN=blue bright, INFO=black, DEBUG=green, TRACE=cyan}|%style{%c}{bold,cyan}|%style{x}{bg_red white}|%red{r}%green{g}%blue{b}%yellow{y}|%highlight{%d{HH:mm} %p: %m}%n"),
        App::file_with("no-ansi.log", no_ansi),
    ]);
}

#[test]
fn s103_literals_and_escapes() {
    run(
        "103-literals-and-escapes",
        Level::INFO,
        vec![
            stdout(r"[%p]\t%m %% 100%% \\ \q|\n-next-%n"),
            file("literals.log", "%m%%%n%"),
        ],
    );
}

#[test]
fn s110_exceptions_full() {
    run(
        "110-exceptions-full",
        Level::INFO,
        vec![
            stdout("A %m%n%ex"),
            stdout("B %m %ex{full}%n"),
            file("throwable.log", "C %m%n%throwable"),
            file("exception.log", "D %m %exception{full}|end%n"),
        ],
    );
}

#[test]
fn s111_exceptions_line_limits() {
    run("111-exceptions-line-limits", Level::INFO, vec![
        stdout("short:%ex{short}|%n"),
        stdout("one:%ex{1}|%n"),
        stdout("three:%ex{3}|%n"),
        stdout("six:%ex{6}|%n"),
        stdout("zero:%ex{0}|none:%ex{none}|%n"),
        stdout("props:%ex{short.message}|%ex{short.localizedMessage}|%ex{short.className}|%ex{short.methodName}|%ex{short.fileName}|%ex{short.lineNumber}|%n"),
    ]);
}

#[test]
fn s112_exceptions_separator() {
    run(
        "112-exceptions-separator",
        Level::INFO,
        vec![
            stdout("A %m %throwable{separator(|)}%n"),
            stdout("B %m %ex{3}{separator( // )}%n"),
            stdout("C %m %ex{short}{separator(#)}%n"),
        ],
    );
}

#[test]
fn s113_exceptions_root_and_extended() {
    run(
        "113-exceptions-root-and-extended",
        Level::INFO,
        vec![
            stdout("rEx %m%n%rEx"),
            stdout("rEx3 %m %rEx{3}%n"),
            stdout("rException-short %m %rException{short}%n"),
            file("xex.log", "xEx %m%n%xEx"),
            file("xex-short.log", "xThrowable-short %m %xThrowable{short}%n"),
        ],
    );
}

#[test]
fn s114_exceptions_implicit() {
    let mut never = spec("never %p %m%n");
    never.always_write_exceptions = false;
    run(
        "114-exceptions-implicit",
        Level::INFO,
        vec![
            stdout("implicit-nl %p %m%n"),
            stdout("implicit-no-nl %p %m|"),
            App::stdout_with(never),
            file("default-layout.log", "%m%n"),
            file(
                "replace-ex.log",
                r"%p %m [%replace{%ex{short}}{[\r\n]+}{ / }]%n",
            ),
        ],
    );
}

#[test]
fn s115_exceptions_elision() {
    run(
        "115-exceptions-elision",
        Level::INFO,
        vec![stdout("%m%n%ex"), file("root-cause.log", "%m%n%rEx")],
    );
}

#[test]
fn s130_unicode_and_width() {
    run(
        "130-unicode-and-width",
        Level::INFO,
        vec![
            stdout("[%-12m][%12m][%.3m][%-6c]%n"),
            file("utf8.log", "%t %c %m%n"),
        ],
    );
}

#[test]
fn s131_crlf_messages() {
    run(
        "131-crlf-messages",
        Level::INFO,
        vec![
            stdout(r"<%m>|%enc{%m}{CRLF}|%replace{%m}{[\r\n]+}{ / }%n"),
            file("crlf.log", "%m%n"),
        ],
    );
}

#[test]
fn s132_lookup_strings_are_literal() {
    run(
        "132-lookup-strings-are-literal",
        Level::INFO,
        vec![
            stdout("%m|%X{k}|%x|%t%n"),
            file("lookups.log", "%enc{%m}{JSON}|%replace{%m}{x}{X}%n"),
        ],
    );
}

#[test]
fn s160_header_footer() {
    let mut console = spec("%m%n");
    console.header = Some("=== console header ===%n".into());
    console.footer = Some("=== console footer ===%n".into());
    let mut f = spec("%m%n");
    f.header = Some("# file header%n".into());
    f.footer = Some("# file footer%n".into());
    run(
        "160-header-footer",
        Level::INFO,
        vec![App::stdout_with(console), App::file_with("file.log", f)],
    );
}

#[test]
fn s161_layout_replace() {
    let mut console = spec("%p %m%n");
    console.replace = Some(ReplaceSpec {
        regex: r"\d{4}-\d{4}-\d{4}-(\d{4})".into(),
        replacement: "****-$1".into(),
    });
    let mut f = spec("[%p] %m%n");
    f.replace = Some(ReplaceSpec {
        regex: r"\n".into(),
        replacement: r"\\n".into(),
    });
    run(
        "161-layout-replace",
        Level::INFO,
        vec![App::stdout_with(console), App::file_with("replaced.log", f)],
    );
}

#[test]
fn s162_pattern_selectors() {
    let selector = |kind, default: &str, matches: &[(&str, &str)]| PatternLayoutSpec {
        selector: Some(PatternSelectorSpec {
            kind,
            matches: matches
                .iter()
                .map(|(k, p)| (k.to_string(), p.to_string()))
                .collect(),
            default_pattern: default.into(),
            always_write_exceptions: true,
            disable_ansi: false,
            no_console_no_ansi: false,
        }),
        ..PatternLayoutSpec::default()
    };
    run(
        "162-pattern-selectors",
        Level::DEBUG,
        vec![
            App::stdout_with(selector(
                PatternSelectorKind::Marker,
                "default %p %m%n",
                &[("FLOW", "flow [%marker] %m%n"), ("SQL", "sql %m%n")],
            )),
            App::file_with(
                "by-level.log",
                selector(
                    PatternSelectorKind::Level,
                    "%p %m%n",
                    &[("ERROR", "!!! %m%n"), ("DEBUG", "... %m%n")],
                ),
            ),
        ],
    );
}
