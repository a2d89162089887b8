//! log4j2's component properties (`log4j2.asyncLoggerWaitStrategy`,
//! `log4j2.Script.enableLanguages`…) as l4rs reads them: an l4rs "system property" (set with
//! [`set_system_property`](crate::set_system_property), the `${sys:…}` store) first, then the
//! environment variable log4j2 derives from the property name
//! (`log4j2.discardThreshold` → `LOG4J_DISCARD_THRESHOLD`).

/// The value of a log4j2 property: the l4rs system property of that name, else the
/// environment variable log4j2 derives from it (see [`environment_variable_name`]). An empty
/// value counts as none.
pub fn property(name: &str) -> Option<String> {
    property_as_given(name).filter(|value| !value.is_empty())
}

/// [`property`], with an empty value kept: for the properties whose empty value log4j2 reads
/// as a value.
pub fn property_as_given(name: &str) -> Option<String> {
    crate::system_property(name).or_else(|| std::env::var(environment_variable_name(name)).ok())
}

/// log4j2's environment form of a property name: the `log4j2.`/`log4j.` prefix dropped, the
/// camel-case words upper-cased and joined with `_`, after `LOG4J_`
/// (`log4j2.asyncLoggerConfigRingBufferSize` → `LOG4J_ASYNC_LOGGER_CONFIG_RING_BUFFER_SIZE`).
pub fn environment_variable_name(property: &str) -> String {
    let bare = property
        .strip_prefix("log4j2.")
        .or_else(|| property.strip_prefix("log4j."))
        .unwrap_or(property);
    let mut name = String::from("LOG4J");
    let mut previous_lower = false;
    for c in bare.chars() {
        if !c.is_ascii_alphanumeric() {
            previous_lower = false;
            if !name.ends_with('_') {
                name.push('_');
            }
            continue;
        }
        if name == "LOG4J" || (c.is_ascii_uppercase() && previous_lower) {
            name.push('_');
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        name.push(c.to_ascii_uppercase());
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_names_follow_log4j2() {
        for (property, variable) in [
            (
                "log4j2.asyncLoggerConfigRingBufferSize",
                "LOG4J_ASYNC_LOGGER_CONFIG_RING_BUFFER_SIZE",
            ),
            (
                "log4j2.asyncQueueFullPolicy",
                "LOG4J_ASYNC_QUEUE_FULL_POLICY",
            ),
            ("log4j2.discardThreshold", "LOG4J_DISCARD_THRESHOLD"),
            (
                "log4j2.Script.enableLanguages",
                "LOG4J_SCRIPT_ENABLE_LANGUAGES",
            ),
            ("l4rs.asyncRenderAhead", "LOG4J_L4RS_ASYNC_RENDER_AHEAD"),
        ] {
            assert_eq!(environment_variable_name(property), variable);
        }
    }

    #[test]
    fn a_system_property_comes_before_the_environment_and_empty_is_none() {
        // Names no other test uses, so setting them cannot change what another test sees.
        let name = "l4rs.test.propertiesModule";
        let variable = environment_variable_name(name);
        assert_eq!(variable, "LOG4J_L4RS_TEST_PROPERTIES_MODULE");
        assert_eq!(property(name), None);
        std::env::set_var(&variable, "from the environment");
        assert_eq!(property(name).as_deref(), Some("from the environment"));
        crate::set_system_property(name, "");
        assert_eq!(property(name), None, "an empty value is none");
        assert_eq!(property_as_given(name).as_deref(), Some(""));
        crate::set_system_property(name, "set");
        assert_eq!(
            property(name).as_deref(),
            Some("set"),
            "before the environment"
        );
        crate::clear_system_property(name);
        std::env::remove_var(&variable);
        assert_eq!(property(name), None);
    }
}
