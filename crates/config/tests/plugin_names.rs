//! The plugin names l4rs knows against the index log4j2 2.19 ships in `log4j-core.jar`
//! (`Log4j2Plugins.dat`): every `Core` plugin there must be a log4j2 plugin to l4rs (or an
//! element would be read as an attribute where log4j2 builds a plugin, or the reverse), and
//! every plugin l4rs implements must be spelled as log4j2 spells it.

use std::io::Read as _;

use l4rs_config::plugins::{is_log4j2_plugin, Plugin};

/// Plugins l4rs implements that log4j-core 2.19 lacks: from log4j2's other modules (Kafka,
/// JsonTemplateLayout, log4j-spring-boot's SpringProfile, log4j-jdbc-dbcp2's PoolingDriver),
/// from a later version (EnvironmentArbiter, 2.21), and the ones l4rs adds.
const NOT_IN_LOG4J_CORE: &[&str] = &[
    "environmentarbiter",
    "springprofile",
    "kafka",
    "poolingdriver",
    "poolableconnectionfactory",
    "jsontemplatelayout",
    "eventtemplateadditionalfield",
    "rollingmemorymappedfile",
];

/// The `Core` category's plugin keys (lower case) in `log4j-core.jar`'s plugin index.
fn log4j2_core_plugins() -> Option<Vec<String>> {
    let jar_dir = std::env::var("LOG4J_JAR_DIR").unwrap_or_else(|_| "/usr/share/java".into());
    let jar = std::path::Path::new(&jar_dir).join("log4j-core.jar");
    if !l4rs_test_support::log4j2::require("the plugin names against log4j2") {
        return None;
    }
    let mut archive = zip::ZipArchive::new(std::fs::File::open(&jar).unwrap()).unwrap();
    let mut index = Vec::new();
    archive
        .by_name("META-INF/org/apache/logging/log4j/core/config/plugins/Log4j2Plugins.dat")
        .unwrap()
        .read_to_end(&mut index)
        .unwrap();
    Some(core_keys(&index))
}

/// Reads the index: categories, each with its plugins (key, class, name, two flags), as
/// `DataOutputStream` wrote them (big-endian counts, modified UTF-8 strings, ASCII here).
fn core_keys(index: &[u8]) -> Vec<String> {
    let mut at = 0;
    let int = |at: &mut usize| {
        let value = i32::from_be_bytes(index[*at..*at + 4].try_into().unwrap());
        *at += 4;
        value
    };
    let text = |at: &mut usize| {
        let length = usize::from(u16::from_be_bytes([index[*at], index[*at + 1]]));
        let text = String::from_utf8(index[*at + 2..*at + 2 + length].to_vec()).unwrap();
        *at += 2 + length;
        text
    };
    let mut core = Vec::new();
    for _ in 0..int(&mut at) {
        let category = text(&mut at);
        for _ in 0..int(&mut at) {
            let key = text(&mut at);
            let _class = text(&mut at);
            let _name = text(&mut at);
            at += 2;
            if category == "core" {
                core.push(key);
            }
        }
    }
    core
}

#[test]
fn every_log4j2_core_plugin_is_a_plugin_to_l4rs() {
    let Some(core) = log4j2_core_plugins() else {
        return;
    };
    assert!(core.len() > 100, "the index lists {} plugins", core.len());
    let missing: Vec<&String> = core.iter().filter(|key| !is_log4j2_plugin(key)).collect();
    assert!(missing.is_empty(), "not plugins to l4rs: {missing:?}");
}

#[test]
fn every_plugin_l4rs_implements_is_spelled_as_log4j2_spells_it() {
    let Some(core) = log4j2_core_plugins() else {
        return;
    };
    let misspelled: Vec<&str> = Plugin::ALL
        .iter()
        .map(|plugin| plugin.name())
        .filter(|name| {
            let lower = name.to_ascii_lowercase();
            !core.contains(&lower) && !NOT_IN_LOG4J_CORE.contains(&lower.as_str())
        })
        .collect();
    assert!(
        misspelled.is_empty(),
        "not log4j2 plugin names: {misspelled:?}"
    );
}
