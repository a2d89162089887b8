//! Property tests of the configuration loader end to end, as `l4rs check` runs it
//! (docs/robustness.md): load, bind, then build everything through init's own code in check
//! mode (`l4rs::check_configuration`: nothing is opened for writing, no thread is started) and
//! print the routing tree. Arbitrary bytes and mutated copies of the repository's sample
//! configurations never make it panic.
//!
//! The mutations were chosen while the known crashes were being fixed (docs/robustness.md): no
//! token adds nesting beyond what duplicating a span of a sample gives, numbers have at most 4
//! digits, and no XInclude or self-referencing property is inserted. The hostile inputs
//! themselves run in `hostile_configs.rs`.

use l4rs::config::routing::LoggerTree;
use l4rs::config::LoadOptions;
use l4rs::Level;
use proptest::prelude::*;

const SAMPLES: &[&str] = &[
    include_str!("../../../config-samples/log4j2-appender.xml"),
    include_str!("../../../config-samples/log4j2-rolling.xml"),
];

/// Pieces of configuration syntax a mutation inserts.
const TOKENS: &[&str] = &[
    "<",
    ">",
    "/>",
    "</",
    "\"",
    "'",
    "=",
    "&amp;",
    "&#x41;",
    "&bogus;",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "${",
    "}",
    "$${ctx:k}",
    "${sys:user.home}",
    "${env:NOPE:-d}",
    ":-",
    "%",
    "%d{",
    "%-5p",
    "%X{k}",
    "%ex{3}",
    "%replace{%m}{[}{x}",
    "9999",
    "-1",
    "0",
    "1.5",
    "",
    "level=\"trace\"",
    "level=\"bogus\"",
    "name=\"A\"",
    "ref=\"A\"",
    "ref=\"missing\"",
    "<AppenderRef ref=\"A\"/>",
    "<Logger name=\"x\" level=\"off\"/>",
    "<Root/>",
    "<ThresholdFilter level=\"warn\"/>",
    "<RegexFilter regex=\"(\"/>",
    "<RegexFilter regex=\"a{2,}+\" onMatch=\"DENY\"/>",
    "<BurstFilter rate=\"-1\"/>",
    "<PatternLayout pattern=\"%q %d{bogus}{Mars/Base}\"/>",
    "<SizeBasedTriggeringPolicy size=\"1 XB\"/>",
    "<CronTriggeringPolicy schedule=\"0 0 0 ? * 9#9\"/>",
    "filePattern=\"%i%z.gz\"",
    "<IfLastModified age=\"P1Y\"/>",
    "<IfFileName glob=\"[!\"/>",
    "😀",
    "\u{0}",
    "\r\n",
];

#[derive(Clone, Debug)]
enum Mutation {
    Delete(prop::sample::Index, usize),
    Duplicate(prop::sample::Index, usize),
    Insert(prop::sample::Index, &'static str),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<prop::sample::Index>(), 1usize..64).prop_map(|(at, n)| Mutation::Delete(at, n)),
        (any::<prop::sample::Index>(), 1usize..256).prop_map(|(at, n)| Mutation::Duplicate(at, n)),
        (any::<prop::sample::Index>(), prop::sample::select(TOKENS))
            .prop_map(|(at, token)| Mutation::Insert(at, token)),
    ]
}

/// The nearest character boundary at or before `index` in `text`.
fn boundary(text: &str, index: usize) -> usize {
    (0..=index.min(text.len()))
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}

fn mutate(sample: &str, mutations: &[Mutation]) -> String {
    let mut text = sample.to_string();
    for mutation in mutations {
        let len = text.len().max(1);
        match mutation {
            Mutation::Delete(at, n) => {
                let start = boundary(&text, at.index(len));
                let end = boundary(&text, start + n);
                text.replace_range(start..end, "");
            }
            Mutation::Duplicate(at, n) => {
                let start = boundary(&text, at.index(len));
                let end = boundary(&text, start + n);
                let span = text[start..end].to_string();
                text.insert_str(end, &span);
            }
            Mutation::Insert(at, token) => {
                let at = boundary(&text, at.index(len));
                text.insert_str(at, token);
            }
        }
    }
    text
}

/// What `l4rs check` does with a file.
fn check(text: &str) {
    l4rs::core::status::set_level(Level::OFF);
    let options = LoadOptions {
        apply_status_level: false,
    };
    let ((), _records) = l4rs::core::status::capture(|| {
        let Ok(configuration) = l4rs::config::load_str_with(text, None, options) else {
            return;
        };
        for diagnostic in &configuration.diagnostics {
            let _ = diagnostic.to_string();
        }
        let _ = l4rs::check_configuration(&configuration);
        let _ = LoggerTree::new(&configuration.loggers).to_string();
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn loader_never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        check(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn loader_never_panics_on_mutated_samples(
        sample in prop::sample::select(SAMPLES),
        mutations in prop::collection::vec(mutation(), 1..8),
    ) {
        check(&mutate(sample, &mutations));
    }
}

#[test]
fn the_samples_themselves_load_cleanly() {
    for sample in SAMPLES {
        let configuration = l4rs::config::load_str_with(
            sample,
            None,
            LoadOptions {
                apply_status_level: false,
            },
        )
        .expect("a sample loads");
        assert!(
            !configuration.appenders.is_empty(),
            "a sample has appenders"
        );
    }
}
