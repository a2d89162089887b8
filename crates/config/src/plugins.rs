//! Which element names are log4j2 `Core` plugins, and which of them l4rs implements.
//!
//! log4j2 decides by name alone whether an element is a plugin: an element that is not one and
//! has no child elements becomes an attribute of its parent (`<Pattern>` inside
//! `<PatternLayout>`), so this list must hold every real plugin name, implemented here or not,
//! and nothing else. Names are compared case-insensitively, as log4j2 lower-cases its keys.

/// Every `Core` plugin name log4j2 (core and its official modules) registers, in lower case.
const LOG4J2_CORE_PLUGINS: &[&str] = &[
    // Configuration structure.
    "appenders",
    "loggers",
    "logger",
    "root",
    "asynclogger",
    "asyncroot",
    "appenderref",
    "properties",
    "property",
    "customlevels",
    "customlevel",
    "scripts",
    "script",
    "scriptfile",
    "scriptref",
    "monitorresources",
    "monitorresource",
    "asyncwaitstrategyfactory",
    "configuration",
    "loggerfields",
    // Arbiters: see `ARBITERS`.
    // Appenders.
    "async",
    "cassandra",
    "console",
    "countingnoop",
    "failover",
    "failovers",
    "file",
    "flume",
    "http",
    "jdbc",
    "jeromq",
    "jms",
    "jmsqueue",
    "jmstopic",
    "jpa",
    "kafka",
    "memorymappedfile",
    "nosql",
    "null",
    "outputstream",
    "randomaccessfile",
    "rewrite",
    "rollingfile",
    "rollingrandomaccessfile",
    "routing",
    "routes",
    "route",
    "scriptappenderselector",
    "appenderset",
    "smtp",
    "socket",
    "syslog",
    "writer",
    "zeromq",
    "mongodb",
    "mongodb4",
    "couchdb",
    "lucene",
    "servlet",
    // Layouts and their parts.
    "patternlayout",
    "csvlogeventlayout",
    "csvparameterlayout",
    "gelflayout",
    "htmllayout",
    "jsonlayout",
    "jsontemplatelayout",
    "messagelayout",
    "rfc5424layout",
    "serializedlayout",
    "sysloglayout",
    "xmllayout",
    "yamllayout",
    "keyvaluepair",
    "eventtemplateadditionalfield",
    "markerpatternselector",
    "levelpatternselector",
    "scriptpatternselector",
    "patternmatch",
    "replace",
    "eventtemplate",
    "stacktraceelementtemplate",
    // Filters.
    "burstfilter",
    "filters",
    "denyallfilter",
    "dynamicthresholdfilter",
    "levelmatchfilter",
    "levelrangefilter",
    "mapfilter",
    "markerfilter",
    "nomarkerfilter",
    "regexfilter",
    "scriptfilter",
    "stringmatchfilter",
    "structureddatafilter",
    "threadcontextmapfilter",
    "contextmapfilter",
    "mutablethreadcontextmapfilter",
    "thresholdfilter",
    "timefilter",
    // Rolling: policies, strategies and actions.
    "policies",
    "crontriggeringpolicy",
    "onstartuptriggeringpolicy",
    "sizebasedtriggeringpolicy",
    "timebasedtriggeringpolicy",
    "nooptriggeringpolicy",
    "defaultrolloverstrategy",
    "directwriterolloverstrategy",
    "delete",
    "iffilename",
    "iflastmodified",
    "ifaccumulatedfilecount",
    "ifaccumulatedfilesize",
    "ifall",
    "ifany",
    "ifnot",
    "pathsortbymodificationtime",
    "posixviewattribute",
    "scriptcondition",
    // Rewrite policies.
    "maprewritepolicy",
    "propertiesrewritepolicy",
    "loggernamelevelrewritepolicy",
    "timestampmessagerewritepolicy",
    // Network, database and queue parts.
    "ssl",
    "sslconfig",
    "keystore",
    "truststore",
    "socketoptions",
    "socketperformancepreferences",
    "socketaddress",
    "columnmapping",
    "column",
    "connectionfactory",
    "datasource",
    "drivermanager",
    "poolingdriver",
    "poolableconnectionfactory",
    "arrayblockingqueue",
    "disruptorblockingqueue",
    "jctoolsblockingqueue",
    "linkedtransferqueue",
    "purgepolicy",
    "idlepurgepolicy",
    "headers",
    "basicauthorization",
    "timeoutwaitstrategy",
    "yieldwaitstrategy",
];

/// The plugins l4rs binds, with their canonical spelling (for messages and listings).
const L4RS_PLUGINS: &[&str] = &[
    "Appenders",
    "Loggers",
    "Logger",
    "Root",
    "AsyncLogger",
    "AsyncRoot",
    "AppenderRef",
    "Properties",
    "Property",
    "CustomLevels",
    "CustomLevel",
    "SystemPropertyArbiter",
    "EnvironmentArbiter",
    "ClassArbiter",
    "Select",
    "DefaultArbiter",
    "Console",
    "File",
    "RandomAccessFile",
    "MemoryMappedFile",
    "Async",
    "RollingFile",
    "RollingRandomAccessFile",
    "RollingMemoryMappedFile",
    "Null",
    "Failover",
    "Failovers",
    "Rewrite",
    "Kafka",
    "MapRewritePolicy",
    "PropertiesRewritePolicy",
    "LoggerNameLevelRewritePolicy",
    "Routing",
    "Routes",
    "Route",
    "IdlePurgePolicy",
    "Policies",
    "SizeBasedTriggeringPolicy",
    "TimeBasedTriggeringPolicy",
    "OnStartupTriggeringPolicy",
    "CronTriggeringPolicy",
    "NoOpTriggeringPolicy",
    "DefaultRolloverStrategy",
    "DirectWriteRolloverStrategy",
    "Delete",
    "IfFileName",
    "IfLastModified",
    "IfAccumulatedFileCount",
    "IfAccumulatedFileSize",
    "IfAll",
    "IfAny",
    "IfNot",
    "PathSortByModificationTime",
    "PatternLayout",
    "JsonLayout",
    "XmlLayout",
    "YamlLayout",
    "KeyValuePair",
    "SyslogLayout",
    "Rfc5424Layout",
    "LoggerFields",
    "GelfLayout",
    "CsvLogEventLayout",
    "CsvParameterLayout",
    "JsonTemplateLayout",
    "EventTemplateAdditionalField",
    "MarkerPatternSelector",
    "LevelPatternSelector",
    "PatternMatch",
    "Replace",
    "ThresholdFilter",
    "LevelRangeFilter",
    "LevelMatchFilter",
    "RegexFilter",
    "StringMatchFilter",
    "MarkerFilter",
    "NoMarkerFilter",
    "BurstFilter",
    "DenyAllFilter",
    "DynamicThresholdFilter",
    "Filters",
    "Socket",
    "Syslog",
    "Ssl",
    "KeyStore",
    "TrustStore",
    "SocketOptions",
    "SocketPerformancePreferences",
];

/// The arbiter plugins (lower case): elements replaced by their children when their condition
/// holds.
const ARBITERS: &[&str] = &[
    "systempropertyarbiter",
    "environmentarbiter",
    "classarbiter",
    "scriptarbiter",
    "select",
    "defaultarbiter",
    "springprofile",
];

/// Plugins l4rs adds to log4j2's (lower case): elements log4j2 does not know.
const L4RS_EXTENSIONS: &[&str] = &["rollingmemorymappedfile"];

/// Element names log4j2 accepts in place of a plugin's own (`@PluginAliases`), lower case.
const ALIASES: &[(&str, &str)] = &[
    ("appender-ref", "AppenderRef"),
    // SocketAppender's `@PluginElement("SslConfiguration") @PluginAliases("SslConfig")`.
    ("sslconfig", "Ssl"),
    ("sslconfiguration", "Ssl"),
];

/// True when `name` is a log4j2 `Core` plugin (implemented by l4rs or not), or one of the
/// plugins l4rs adds (`RollingMemoryMappedFile`).
pub fn is_log4j2_plugin(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    LOG4J2_CORE_PLUGINS.contains(&lower.as_str())
        || ARBITERS.contains(&lower.as_str())
        || L4RS_EXTENSIONS.contains(&lower.as_str())
        || ALIASES.iter().any(|(alias, _)| *alias == lower)
}

/// The canonical name of a plugin l4rs implements, if `name` is one (or an alias of one).
pub fn l4rs_plugin(name: &str) -> Option<&'static str> {
    L4RS_PLUGINS
        .iter()
        .copied()
        .find(|plugin| plugin.eq_ignore_ascii_case(name))
        .or_else(|| {
            ALIASES
                .iter()
                .find(|(alias, _)| alias.eq_ignore_ascii_case(name))
                .map(|(_, canonical)| *canonical)
        })
}

/// True for the arbiters: elements replaced by their children when their condition holds.
pub fn is_arbiter(name: &str) -> bool {
    ARBITERS
        .iter()
        .any(|arbiter| arbiter.eq_ignore_ascii_case(name))
}

/// The plugins l4rs implements, comma-separated, for messages.
pub fn l4rs_plugin_list() -> String {
    L4RS_PLUGINS.join(", ")
}

/// The plugin l4rs implements that `name` most likely misspells: the only one within an edit
/// distance of 2 (case-insensitive; 1 for names of up to 4 letters), or `None` when none or
/// several are that close, or when `name` is itself a plugin.
pub fn nearest_l4rs_plugin(name: &str) -> Option<&'static str> {
    if l4rs_plugin(name).is_some() {
        return None;
    }
    let name = name.to_ascii_lowercase();
    let allowed = if name.chars().count() <= 4 { 1 } else { 2 };
    let mut best: Option<(usize, &'static str)> = None;
    let mut tie = false;
    for plugin in L4RS_PLUGINS {
        let distance = edit_distance(&name, &plugin.to_ascii_lowercase());
        if distance > allowed {
            continue;
        }
        match best {
            Some((closest, _)) if distance > closest => {}
            Some((closest, _)) if distance == closest => tie = true,
            _ => {
                best = Some((distance, plugin));
                tie = false;
            }
        }
    }
    best.filter(|_| !tie).map(|(_, plugin)| plugin)
}

/// Levenshtein distance in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

/// The element type log4j2 prints before a plugin's name in `… has no parameter that matches
/// element …` (its `@Plugin` element type, or its name when it has none).
pub fn element_type(canonical: &str) -> &'static str {
    match canonical {
        "Console"
        | "File"
        | "RandomAccessFile"
        | "MemoryMappedFile"
        | "Async"
        | "RollingFile"
        | "RollingRandomAccessFile"
        | "RollingMemoryMappedFile"
        | "Null"
        | "Failover"
        | "Rewrite"
        | "Socket"
        | "Syslog"
        | "Routing"
        | "Kafka" => "appender",
        "Ssl" => "Ssl",
        "KeyStore" => "KeyStore",
        "TrustStore" => "TrustStore",
        "SocketOptions" => "SocketOptions",
        "SocketPerformancePreferences" => "SocketPerformancePreferences",
        "MapRewritePolicy" | "PropertiesRewritePolicy" | "LoggerNameLevelRewritePolicy" => {
            "rewritePolicy"
        }
        "Failovers" => "failovers",
        "PatternLayout" | "JsonLayout" | "XmlLayout" | "YamlLayout" | "SyslogLayout"
        | "Rfc5424Layout" | "JsonTemplateLayout" => "layout",
        "GelfLayout" | "CsvLogEventLayout" | "CsvParameterLayout" => "layout",
        "LoggerFields" => "LoggerFields",
        "MarkerPatternSelector" | "LevelPatternSelector" => "patternSelector",
        "Logger" => "logger",
        "Root" => "root",
        "AsyncLogger" => "asyncLogger",
        "AsyncRoot" => "asyncRoot",
        "Filters" => "filters",
        "Appenders" => "appenders",
        "Loggers" => "loggers",
        "Properties" => "properties",
        "Property" => "property",
        "Replace" => "replace",
        "AppenderRef" => "AppenderRef",
        "KeyValuePair" => "KeyValuePair",
        "PatternMatch" => "PatternMatch",
        "CustomLevels" => "CustomLevels",
        "CustomLevel" => "CustomLevel",
        name if name.ends_with("Filter") => "filter",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_nearest_plugin_is_named_only_when_it_is_obvious() {
        assert_eq!(nearest_l4rs_plugin("Apenders"), Some("Appenders"));
        assert_eq!(nearest_l4rs_plugin("rollingfile"), None);
        assert_eq!(nearest_l4rs_plugin("RolingFile"), Some("RollingFile"));
        assert_eq!(nearest_l4rs_plugin("Consol"), Some("Console"));
        assert_eq!(nearest_l4rs_plugin("Wrapper"), None);
        assert_eq!(nearest_l4rs_plugin("colour"), None);
        // Short names need a closer match.
        assert_eq!(nearest_l4rs_plugin("Fil"), Some("File"));
        assert_eq!(nearest_l4rs_plugin("Fi"), None);
    }

    use super::*;

    #[test]
    fn real_plugins_are_known_and_attribute_elements_are_not() {
        for plugin in [
            "RollingFile",
            "console",
            "PATTERNLAYOUT",
            "Policies",
            "JsonTemplateLayout",
        ] {
            assert!(is_log4j2_plugin(plugin), "{plugin}");
        }
        for not_plugin in ["Pattern", "fileName", "append", "level", "Apenders", "Foo"] {
            assert!(!is_log4j2_plugin(not_plugin), "{not_plugin}");
        }
        for plugin in L4RS_PLUGINS {
            assert!(is_log4j2_plugin(plugin), "{plugin} must be a log4j2 plugin");
        }
        assert_eq!(l4rs_plugin("console"), Some("Console"));
        assert_eq!(l4rs_plugin("rollingfile"), Some("RollingFile"));
        assert_eq!(l4rs_plugin("routing"), Some("Routing"));
        assert_eq!(l4rs_plugin("ScriptAppenderSelector"), None);
        assert!(is_log4j2_plugin("RollingMemoryMappedFile"));
    }
}
