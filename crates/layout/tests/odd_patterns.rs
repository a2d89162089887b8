//! No pattern and no event makes the layout panic: random patterns built from the parser's
//! special characters and converter keys, formatted against events with and without every
//! optional part.

use l4rs_core::{
    ContextMap, ContextStack, Layout, Level, Location, LogEvent, Marker, Message, StackFrame,
    Throwable, ThrowableRef, Timestamp,
};
use l4rs_layout::PatternLayout;

const PIECES: &[&str] = &[
    "%",
    "%%",
    "{",
    "}",
    "-",
    ".",
    "0",
    "5",
    "12",
    "\\",
    "\\n",
    "\\t",
    "$",
    "${",
    "${ctx:a}",
    " ",
    "x",
    "😀",
    "é",
    "%d",
    "%d{",
    "%d{HH:mm:ss.SSS}",
    "%d{'}",
    "%d{nnnn}",
    "%d{XXXX}",
    "%d{UNIX}",
    "{GMT+99}",
    "{Bogus}",
    "%c",
    "%c{",
    "%c{1.}",
    "%c{-3}",
    "%c{1.2*}",
    "%c{*.~}",
    "%C",
    "%M",
    "%L",
    "%F",
    "%l",
    "%m",
    "%msg{ansi}",
    "%n",
    "%p",
    "%level{length=-1}",
    "%level{x=y=z}",
    "%level{FOO=bar}",
    "%t",
    "%T",
    "%tp",
    "%pid",
    "%r",
    "%sn",
    "%N",
    "%u",
    "%uuid{RANDOM}",
    "%X",
    "%X{a,b}",
    "%x",
    "%K",
    "%marker",
    "%markerSimpleName",
    "%fqcn",
    "%endOfBatch",
    "%ex",
    "%ex{short}",
    "%ex{3}",
    "%ex{short.lineNumber}",
    "%ex{separator(|)}",
    "%ex{suffix(%p)}",
    "%xEx{filters(a)}",
    "%rEx{2}",
    "%ex{99999999999}",
    "%highlight{",
    "%highlight{%p}{ERROR=nope}",
    "%style{x}{#zzzzzz}",
    "%red{",
    "%enc{%m}{JSON}",
    "%equals{%p}{INFO}{%m}",
    "%equals{a}",
    "%notEmpty{%X{a}}",
    "%replace{%m}{(}{x}",
    "%replace{%m}{a}{$9}",
    "%replace{%m}{\\w+}{$0}",
    "%maxLen{%m}{x}",
    "%maxLen{%m}{3}",
    "%repeat{ab}{3}",
    "%repeat{a}",
    "%-10.3m",
    "%.-2c",
    "%08p",
    "%.",
    "%-",
    "%5.",
    "%unknown",
    "%!",
];

fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn random_patterns_never_panic() {
    let throwable = Throwable::new("x.Boom")
        .with_frames(vec![
            StackFrame::java("a.B", "c", None, -2),
            StackFrame::rust("app::db", "query", Some("db.rs"), 3),
        ])
        .with_suppressed(Throwable::new("x.S").with_message("line1\nline2\n"))
        .with_cause(Throwable::new("x.C").with_message(""));
    let mut map = ContextMap::new();
    map.insert("a", "1");
    let mut stack = ContextStack::new();
    stack.push("n");
    let marker = Marker::get("ODD_PATTERNS_MARKER");
    let mut events = Vec::new();
    let mut bare = LogEvent::new("", Level::OFF, Message::Text(""));
    bare.timestamp = Timestamp {
        epoch_millis: i64::MIN,
        nano_of_milli: 999_999,
    };
    events.push(bare);
    let mut full = LogEvent::new("a..b.😀.", Level::ALL, Message::Text("😀%d ${x} \r\n\u{1}"));
    full.timestamp = Timestamp {
        epoch_millis: i64::MAX,
        nano_of_milli: 0,
    };
    full.location = Some(Location {
        class: "",
        method: "",
        file: "",
        line: -5,
    });
    full.throwable = Some(ThrowableRef::Throwable(&throwable));
    full.context_map = &map;
    full.context_stack = &stack;
    full.marker = Some(&marker);
    events.push(full);
    // Thousands of expected status errors would only be noise here.
    l4rs_core::status::set_level(Level::OFF);
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let ((), _records) = l4rs_core::status::capture(|| {
        for _ in 0..3000 {
            let length = (next(&mut state) % 8) as usize;
            let pattern: String = (0..length)
                .map(|_| PIECES[(next(&mut state) % PIECES.len() as u64) as usize])
                .collect();
            let layout = PatternLayout::from_pattern(&pattern);
            for event in &events {
                let mut out = String::new();
                layout.format(event, &mut out);
            }
        }
    });
}
