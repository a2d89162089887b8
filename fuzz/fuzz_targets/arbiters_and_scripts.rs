//! Spring profile expressions and log4j2's script plugins: a fuzzed `<SpringProfile name>`
//! expression parsed as Spring's `Profiles.of` parses it and judged against fuzzed active
//! profiles (`!(…)` answers the opposite), then loaded as an arbiter, whose appender must exist exactly when the expression holds; and
//! a fuzzed `<ScriptFile path>` and `<Script>` text and language, which the loader checks (the
//! file is never read, so no path can make it wait) and refuses with the plugins that use them.
//!
//! Input: `expression NUL active-profiles NUL script-path NUL script-text`.
#![no_main]

use l4rs_config::spring_profiles::parse_profiles;
use l4rs_config::LoadOptions;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some([expression, active, path, text]) = l4rs_fuzz::text_fields::<4>(data) else {
        return;
    };
    l4rs_core::status::set_level(l4rs_core::Level::OFF);
    let profiles: Vec<String> = active
        .split(',')
        .filter(|profile| !profile.is_empty())
        .map(str::to_string)
        .collect();
    let parsed = parse_profiles(expression);
    let holds = match &parsed {
        Ok(parsed) => {
            let holds = parsed.holds(&profiles);
            if let Ok(negated) = parse_profiles(&format!("!({expression})")) {
                if !expression.contains(',') && !expression.contains(')') {
                    assert_eq!(negated.holds(&profiles), !holds, "!({expression})");
                }
            }
            Some(holds)
        }
        Err(error) => {
            let message = error.to_string();
            assert!(
                message.starts_with("Malformed profile expression [")
                    || message.starts_with("Invalid profile expression ["),
                "{message}"
            );
            None
        }
    };
    // The arbiter reads the active profiles from the process, as a deployment sets them, and
    // as Spring reads them (blanks removed, repeats dropped): profiles of letters and digits
    // mean the same to both.
    let plain = active
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == ',');
    if profiles.is_empty() || !plain {
        return;
    }
    l4rs_config::set_system_property("spring.profiles.active", profiles.join(","));
    let xml = format!(
        r#"<Configuration>
<Scripts><ScriptFile path="{path}"/><Script name="s" language="{text}">{body}</Script><ScriptRef ref="{text}"/></Scripts>
<ScriptFilter><ScriptRef ref="s"/></ScriptFilter>
<Appenders>
  <SpringProfile name="{expression}"><Null name="chosen"/></SpringProfile>
  <ScriptAppenderSelector name="selected"><ScriptFile path="{path}"/><AppenderSet><Null name="{text}"/></AppenderSet></ScriptAppenderSelector>
</Appenders>
<Loggers><Root level="info"/></Loggers></Configuration>"#,
        path = l4rs_fuzz::xml_attribute(path),
        text = l4rs_fuzz::xml_attribute(text),
        body = l4rs_fuzz::xml_attribute(text),
        expression = l4rs_fuzz::xml_attribute(expression),
    );
    let options = LoadOptions {
        apply_status_level: false,
    };
    let Ok(configuration) = l4rs_config::load_str_with(&xml, None, options) else {
        return;
    };
    let names: Vec<&str> = configuration
        .appenders
        .iter()
        .map(|appender| appender.name.as_str())
        .collect();
    // An expression whose substitution changes it (`${…}`) is judged as substituted.
    if !expression.contains('$') && !expression.is_empty() {
        assert_eq!(
            names.contains(&"chosen"),
            holds == Some(true),
            "{expression}: {names:?}"
        );
    }
    assert!(!names.contains(&"selected"), "a selector is never built");
    assert!(
        configuration.filter.is_none(),
        "a script filter is never built"
    );
});
