use std::sync::Arc;

use l4rs_core::{ContextMap, Level, LogEvent, Marker, Message, Timestamp};
use l4rs_test_support::TempDir;

use super::*;

fn props(pairs: &[(&str, &str)]) -> Substitutor {
    Substitutor::with_properties(
        Some(Path::new("/etc/app/log4j2.xml")),
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())),
    )
}

fn run(substitutor: &Substitutor, text: &str) -> (String, Vec<String>) {
    let mut warnings = Vec::new();
    let out = substitutor.replace_reporting(text, None, &mut |_, w| warnings.push(w));
    (out, warnings)
}

#[test]
fn properties_refer_to_each_other_and_defaults_nest() {
    let s = props(&[
        ("app", "orders"),
        ("prefix", "[${app}]"),
        ("nest", "${missing:-${app}-x}"),
        ("FOO", "foo"),
    ]);
    assert_eq!(run(&s, "${prefix} %m").0, "[orders] %m");
    assert_eq!(run(&s, "${nest}").0, "orders-x");
    assert_eq!(run(&s, "${BAZ:-${FOO}}").0, "foo");
    assert_eq!(
        run(&s, "${undefined.prop} | ${undefined.prop:-dflt}").0,
        "${undefined.prop} | dflt"
    );
}

#[test]
fn unknown_prefix_and_empty_lookup_fall_back_to_a_property() {
    let s = props(&[("app", "orders"), ("bar", "B")]);
    assert_eq!(run(&s, "${foo:app}").0, "orders");
    assert_eq!(run(&s, "${foo:bar}").0, "B");
    assert_eq!(run(&s, "${jndi:bar}").0, "B");
    assert_eq!(run(&s, "${jndi:ldap://x/y}").0, "${jndi:ldap://x/y}");
    assert_eq!(run(&s, "${sys:l4rs.config.test.unset:-a:b}").0, "a:b");
    assert_eq!(run(&s, "${sys:app}").0, "orders");
}

#[test]
fn escapes_remove_one_dollar_and_skip_the_pass() {
    let s = props(&[("user.label", "user=")]);
    assert_eq!(
        run(
            &s,
            "${user.label}$${ctx:user} | $${literal} | a$$b | $$ | $${lower:MiXeD}"
        )
        .0,
        "user=${ctx:user} | ${literal} | a$$b | $$ | ${lower:MiXeD}"
    );
}

#[test]
fn escaped_default_delimiter_is_part_of_the_name() {
    let s = props(&[("a:-b", "escaped"), ("x:-y", "xy")]);
    assert_eq!(split_default("a:\\-b"), ("a:-b".to_string(), None));
    assert_eq!(
        split_default("a:\\-b:-c"),
        ("a:-b".to_string(), Some("c".to_string()))
    );
    assert_eq!(split_default("k:-"), ("k".to_string(), Some(String::new())));
    assert_eq!(run(&s, "${a:\\-b}").0, "${a:\\-b}");
    assert_eq!(run(&s, "${missing:\\-b:-dflt}").0, "dflt");
}

#[test]
fn lookup_results_are_not_substituted_again_but_properties_are() {
    set_system_property("l4rs.config.test.inject", "${app}");
    let s = props(&[
        ("app", "orders"),
        ("indirect", "${sys:l4rs.config.test.inject}"),
    ]);
    assert_eq!(run(&s, "${sys:l4rs.config.test.inject}").0, "${app}");
    // A property whose own value came from a lookup: the lookup result is still not expanded.
    assert_eq!(run(&s, "${indirect}").0, "${app}");
    clear_system_property("l4rs.config.test.inject");
    assert_eq!(system_property("l4rs.config.test.inject"), None);
}

#[test]
fn cycles_warn_and_stay_as_written() {
    let s = props(&[
        ("a", "[${b}]"),
        ("b", "(${a})"),
        ("self", "${self}"),
        ("c", "x ${a} y"),
    ]);
    let (out, warnings) = run(&s, "A ${a} B");
    assert_eq!(out, "A [(${a})] B");
    assert_eq!(
        warnings,
        ["Infinite loop in property interpolation of a->b"]
    );
    let (out, warnings) = run(&s, "${self}");
    assert_eq!(out, "${self}");
    assert_eq!(
        warnings,
        ["Infinite loop in property interpolation of self"]
    );
    let (_, warnings) = run(&s, "%m ${c}");
    assert_eq!(
        warnings,
        ["Infinite loop in property interpolation of c->a->b"]
    );
    // A second pass over the first pass's output expands once more, as log4j2's per-event pass.
    assert_eq!(run(&s, "A [(${a})] B").0, "A [([(${a})])] B");
}

#[test]
fn lower_upper_env_main_and_log4j_lookups() {
    let s = props(&[]);
    assert_eq!(run(&s, "${lower:ABC}${upper:xyz}").0, "abcXYZ");
    assert_eq!(
        run(&s, "${env:L4RS_SURELY_UNDEFINED_VAR:-fallback}").0,
        "fallback"
    );
    assert_eq!(
        run(&s, "${env:PATH}").0,
        std::env::var("PATH").unwrap_or_else(|_| "${env:PATH}".into())
    );
    set_main_arguments(vec!["--file".into(), "app.log".into(), "x".into()]);
    assert_eq!(
        run(&s, "${main:0} ${main:2} ${main:\\--file}").0,
        "--file x app.log"
    );
    assert_eq!(run(&s, "${main:7}").0, "${main:7}");
    assert_eq!(main_arguments().len(), 3);
    set_main_arguments(Vec::new());
    assert_eq!(
        run(&s, "${log4j:configLocation}|${log4j:configParentLocation}").0,
        "/etc/app/log4j2.xml|/etc/app"
    );
    assert!(run(&s, "${java:version}").0.contains("Rust"));
    assert!(run(&s, "${hostName}").0 != "${hostName}");
}

#[test]
fn date_lookup_uses_the_event_time_and_reports_bad_patterns() {
    let s = props(&[]);
    let mut event = LogEvent::new("a.b", Level::INFO, Message::Text("m"));
    event.timestamp = Timestamp::from_millis(1_700_000_000_001);
    let mut warnings = Vec::new();
    let year = s.replace_reporting("${date:yyyy}", Some(&event), &mut |_, w| warnings.push(w));
    assert!(year == "2023" || year == "2024", "{year}");
    let now = run(&s, "${date:yyyy}").0;
    assert!(now.parse::<i32>().unwrap() >= 2024);
    let (fallback, warnings) = run(&s, "${date:qq}");
    assert!(!fallback.contains("${"), "{fallback}");
    assert!(warnings[0].starts_with("Invalid date format: [qq]"));
}

#[test]
fn event_lookups_read_the_event() {
    let s = props(&[]);
    let mut map = ContextMap::new();
    map.insert("user", "alice");
    let marker: Arc<Marker> = Marker::get("L4RS_CONFIG_TEST_MARKER");
    let mut event = LogEvent::new("com.x.Y", Level::WARN, Message::Text("hello"));
    event.context_map = &map;
    event.marker = Some(&marker);
    event.timestamp = Timestamp::from_millis(42);
    let out = s.interpolate(
        "${ctx:user} ${marker:} ${event:Level} ${event:Logger} ${event:Message} ${event:ThreadName} ${event:ThreadId} ${event:Timestamp} ${event:Marker} ${ctx:none}",
        Some(&event),
    );
    assert_eq!(
        out,
        "alice L4RS_CONFIG_TEST_MARKER WARN com.x.Y hello main 1 42 L4RS_CONFIG_TEST_MARKER ${ctx:none}"
    );
    // Without an event the event lookups find nothing.
    assert_eq!(s.interpolate("${ctx:user}", None), "${ctx:user}");
}

#[test]
fn unterminated_and_odd_inputs_never_panic() {
    let s = props(&[("a", "1")]);
    for text in [
        "${",
        "${a",
        "$",
        "}${}",
        "${${a}",
        "${:-}",
        "${a}}",
        "$${",
        "${ü:-ö}€",
        "${${${",
    ] {
        let _ = run(&s, text);
    }
    assert_eq!(run(&s, "${}").0, "${}");
    assert_eq!(run(&s, "${a}}").0, "1}");
    assert_eq!(run(&s, "${ü:-ö}€").0, "ö€");
}

fn run_reporting(substitutor: &Substitutor, text: &str) -> (String, Vec<(Severity, String)>) {
    let mut problems = Vec::new();
    let out = substitutor.replace_reporting(text, None, &mut |severity, problem| {
        problems.push((severity, problem))
    });
    (out, problems)
}

#[test]
fn a_billion_laughs_stops_at_the_expansion_budget() {
    let mut pairs = vec![("l0".to_string(), "lol".to_string())];
    for level in 1..30 {
        pairs.push((
            format!("l{level}"),
            format!("${{l{}}}", level - 1).repeat(10),
        ));
    }
    let s = Substitutor::with_properties(None, pairs);
    let (out, problems) = run_reporting(&s, "${l29}");
    assert!(out.chars().count() <= MAX_EXPANDED_CHARS, "{}", out.len());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].0, Severity::Error);
    assert!(
        problems[0].1.contains("10000 variable expansions"),
        "{problems:?}"
    );
    assert!(problems[0].1.contains("${l"), "{problems:?}");
}

#[test]
fn one_long_value_stops_at_the_length_budget() {
    let big = "x".repeat(MAX_EXPANDED_CHARS / 2 + 1);
    let s = props(&[("big", &big), ("twice", "${big}${big}")]);
    let (out, problems) = run_reporting(&s, "${twice}");
    assert!(out.chars().count() <= MAX_EXPANDED_CHARS);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].1.contains("${big}"), "{problems:?}");
    assert!(problems[0].1.contains("1048576 characters"), "{problems:?}");
    // Half of it is fine.
    assert_eq!(run_reporting(&s, "${big}").0.len(), big.len());
}

#[test]
fn defaults_nested_ten_thousand_deep_stop_at_the_depth_limit_on_a_small_stack() {
    let text = "${x:-".repeat(10_000) + "v" + &"}".repeat(10_000);
    let written = text.clone();
    let (out, problems) = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || run_reporting(&Substitutor::new(None), &text))
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(out, written);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].1.contains("deeper than 64"), "{problems:?}");
    // 63 levels are fine.
    let text = "${x:-".repeat(63) + "v" + &"}".repeat(63);
    assert_eq!(
        run_reporting(&Substitutor::new(None), &text),
        ("v".to_string(), vec![])
    );
}

#[test]
fn a_long_chain_of_properties_stops_at_the_depth_limit() {
    let mut pairs: Vec<(String, String)> = (0..1000)
        .map(|i| (format!("p{i}"), format!("${{p{}}}", i + 1)))
        .collect();
    pairs.push(("p1000".to_string(), "end".to_string()));
    let s = Substitutor::with_properties(None, pairs);
    let (_, problems) = run_reporting(&s, "${p0}");
    assert!(problems[0].1.contains("deeper than 64"), "{problems:?}");
    let (out, problems) = run_reporting(&s, "${p990}");
    assert_eq!((out.as_str(), problems.len()), ("end", 0));
}

#[test]
fn unavailable_and_unknown_lookups_warn_once_each() {
    let s = props(&[("app", "orders")]);
    let mut problems = Vec::new();
    let mut out = Vec::new();
    for text in [
        "${docker:containerId}",
        "${docker:imageName}",
        "${web:rootDir}",
        "${nosuch:key}",
        "${nosuch:key}",
        "${foo:app}",
        "${sys:l4rs.absent}",
    ] {
        out.push(s.replace_reporting(text, None, &mut |severity, problem| {
            problems.push((severity, problem))
        }));
    }
    // An unknown prefix still falls back to a property, silently when that resolves.
    assert_eq!(out[5], "orders");
    assert_eq!(out[0], "${docker:containerId}");
    let messages: Vec<&str> = problems.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(messages.len(), 3, "{messages:#?}");
    assert!(problems
        .iter()
        .all(|(severity, _)| *severity == Severity::Warning));
    assert!(
        messages[0].starts_with("Lookup 'docker' is not available in l4rs"),
        "{messages:?}"
    );
    assert!(
        messages[1].starts_with("Lookup 'web' is not available"),
        "{messages:?}"
    );
    assert!(
        messages[2].starts_with("Unknown lookup 'nosuch'"),
        "{messages:?}"
    );
    // A clone (the substitutor used per event) remembers what was said.
    let clone = s.clone();
    assert!(run(&clone, "${docker:again}").1.is_empty());
}

#[test]
fn spring_lookups_read_the_deployments_stand_in_for_spring() {
    // Names no other test sets.
    set_system_property("l4rs.test.springLookup", "from a property");
    let s = props(&[]);
    let (resolved, problems) = run(&s, "${spring:l4rs.test.springLookup}");
    clear_system_property("l4rs.test.springLookup");
    assert_eq!((resolved.as_str(), problems.len()), ("from a property", 0));
    let (unresolved, problems) = run(&s, "${spring:l4rs.test.absent:-fallback}");
    assert_eq!((unresolved.as_str(), problems.len()), ("fallback", 0));
    // A bad index is reported once per substitutor, however often it is looked up.
    set_system_property("spring.profiles.default", "a,b");
    let first = run(&s, "${spring:profiles.default[7]}").1;
    let again = run(&s, "${spring:profiles.default[7]}").1;
    clear_system_property("spring.profiles.default");
    assert_eq!(first.len(), 1, "{first:?}");
    assert!(again.is_empty(), "{again:?}");
}

#[test]
fn bundle_reads_name_properties_next_to_the_configuration() {
    let temp = TempDir::new("bundle");
    let dir = temp.path();
    std::fs::create_dir_all(dir.join("com/example")).unwrap();
    std::fs::write(
        dir.join("com/example/messages.properties"),
        "# comment\n! other comment\ngreeting = Hello \\\n    world\nname: l4rs\nescaped\\ key=tab\\there \\u00e9\nempty\n",
    )
    .unwrap();
    let s = Substitutor::new(Some(&dir.join("log4j2.xml")));
    assert_eq!(
        run(&s, "${bundle:com.example.messages:greeting}").0,
        "Hello world"
    );
    assert_eq!(run(&s, "${bundle:com.example.messages:name}").0, "l4rs");
    assert_eq!(
        run(&s, "${bundle:com.example.messages:escaped key}").0,
        "tab\there é"
    );
    assert_eq!(run(&s, "${bundle:com.example.messages:empty}").0, "");
    // log4j2's warnings: a missing key, a missing bundle, a bad key, each once.
    let (out, warnings) = run(&s, "${bundle:com.example.messages:nope:-d}");
    assert_eq!(out, "d");
    assert_eq!(
        warnings,
        ["Error looking up ResourceBundle [com.example.messages]. (it has no key 'nope')"]
    );
    let (out, warnings) = run(&s, "${bundle:Missing:key}");
    assert_eq!(out, "${bundle:Missing:key}");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].starts_with("Error looking up ResourceBundle [Missing]. (l4rs looked for "));
    assert!(warnings[0].contains("Missing.properties"), "{warnings:?}");
    assert!(run(&s, "${bundle:Missing:other}").1.is_empty());
    let (_, warnings) = run(&s, "${bundle:nokey}");
    assert_eq!(
        warnings,
        ["Bad ResourceBundle key format [nokey]. Expected format is BundleName:KeyName."]
    );
    // No way out of the class-path-like folders.
    assert_eq!(
        run(&s, "${bundle:../etc/passwd:x}").0,
        "${bundle:../etc/passwd:x}"
    );
}

#[test]
fn a_bundle_that_is_a_fifo_is_refused_without_waiting() {
    let dir = TempDir::new("bundle-fifo");
    dir.fifo("Piped.properties");
    let s = Substitutor::new(Some(&dir.path().join("log4j2.xml")));
    // Reading the FIFO would wait for a writer for ever.
    let (out, problems) = run_reporting(&s, "${bundle:Piped:key}");
    assert_eq!(out, "${bundle:Piped:key}");
    assert!(
        problems
            .iter()
            .any(|(severity, problem)| *severity == Severity::Error
                && problem.contains("ResourceBundle [Piped]")
                && problem.contains("a FIFO, not a regular file")),
        "{problems:?}"
    );
}

#[test]
fn per_event_reports_are_limited_as_an_error_handler_limits_them() {
    // Crossing the depth limit is an ERROR, which the status logger prints by default.
    let text = "${x:-".repeat(100) + "v" + &"}".repeat(100);
    let s = Substitutor::new(None);
    let event = LogEvent::new("a", Level::INFO, Message::Text("m"));
    let ((), records) = l4rs_core::status::capture(|| {
        for _ in 0..10 {
            s.interpolate(&text, Some(&event));
        }
    });
    assert_eq!(records.len(), 4, "{records:?}");
    assert!(records[0].message.contains("deeper than 64"), "{records:?}");
    // At configuration time, and without an event, every report is printed.
    let ((), records) = l4rs_core::status::capture(|| {
        for _ in 0..10 {
            s.replace(&text);
            s.interpolate(&text, None);
        }
    });
    assert_eq!(records.len(), 20, "{records:?}");
}
