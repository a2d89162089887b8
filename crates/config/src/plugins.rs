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
    "mutablecontextmapfilter",
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
    "sortbymodificationtime",
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
    // Advertisers (`<Configuration advertiser>`).
    "default",
    "multicastdns",
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

/// Declares [`Plugin`] from one table: each plugin l4rs binds, spelled as log4j2 spells it
/// (for messages and listings), with the element type log4j2 prints before its name in
/// `… has no parameter that matches element …` (its `@Plugin` element type; empty when the
/// message names the element alone).
///
/// The loader matches on the variants, so a plugin renamed or removed here fails to compile
/// wherever it is bound instead of silently falling through to "unknown plugin".
macro_rules! l4rs_plugins {
    ($($(#[$comment:meta])* $plugin:ident => $element_type:literal,)*) => {
        /// A plugin l4rs implements. Element names map to it case-insensitively
        /// ([`l4rs_plugin`]), as log4j2 lower-cases its plugin keys.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        // The variants are log4j2's spellings, which include `SMTP` and `JDBC`.
        #[allow(clippy::upper_case_acronyms)]
        pub enum Plugin {
            $(
                #[doc = concat!("`<", stringify!($plugin), ">`.")]
                $(#[$comment])*
                $plugin,
            )*
        }

        impl Plugin {
            /// Every plugin l4rs implements, in the order messages list them.
            pub const ALL: &'static [Plugin] = &[$(Plugin::$plugin),*];

            /// The plugin's canonical spelling, as log4j2 spells it.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Plugin::$plugin => stringify!($plugin),)*
                }
            }

            /// The element type log4j2 prints before the plugin's name in `… has no parameter
            /// that matches element …` (its `@Plugin` element type), or `""` when it prints
            /// the name alone.
            pub const fn element_type(self) -> &'static str {
                match self {
                    $(Plugin::$plugin => $element_type,)*
                }
            }
        }
    };
}

l4rs_plugins! {
    // Configuration structure.
    Appenders => "appenders",
    Loggers => "loggers",
    Logger => "logger",
    Root => "root",
    AsyncLogger => "asyncLogger",
    AsyncRoot => "asyncRoot",
    AppenderRef => "AppenderRef",
    Properties => "properties",
    Property => "property",
    CustomLevels => "CustomLevels",
    CustomLevel => "CustomLevel",
    AsyncWaitStrategyFactory => "",
    Scripts => "scripts",
    Script => "Script",
    ScriptFile => "ScriptFile",
    ScriptRef => "ScriptRef",
    // Arbiters (see `ARBITERS` for the ones l4rs does not evaluate).
    SystemPropertyArbiter => "",
    EnvironmentArbiter => "",
    ClassArbiter => "",
    Select => "",
    DefaultArbiter => "",
    ScriptArbiter => "",
    SpringProfile => "",
    // Appenders and their parts.
    Console => "appender",
    File => "appender",
    RandomAccessFile => "appender",
    MemoryMappedFile => "appender",
    Async => "appender",
    RollingFile => "appender",
    RollingRandomAccessFile => "appender",
    /// l4rs's own: log4j2 has no rolling memory-mapped file appender.
    RollingMemoryMappedFile => "appender",
    Null => "appender",
    CountingNoOp => "appender",
    SMTP => "appender",
    Http => "appender",
    Failover => "appender",
    Failovers => "failovers",
    Rewrite => "appender",
    Kafka => "appender",
    MapRewritePolicy => "rewritePolicy",
    PropertiesRewritePolicy => "rewritePolicy",
    LoggerNameLevelRewritePolicy => "rewritePolicy",
    Routing => "appender",
    ScriptAppenderSelector => "appender",
    AppenderSet => "AppenderSet",
    Routes => "",
    Route => "",
    IdlePurgePolicy => "",
    // Rolling: policies, strategies and actions.
    Policies => "",
    SizeBasedTriggeringPolicy => "",
    TimeBasedTriggeringPolicy => "",
    OnStartupTriggeringPolicy => "",
    CronTriggeringPolicy => "",
    NoOpTriggeringPolicy => "",
    DefaultRolloverStrategy => "",
    DirectWriteRolloverStrategy => "",
    Delete => "",
    PosixViewAttribute => "",
    IfFileName => "",
    IfLastModified => "",
    IfAccumulatedFileCount => "",
    IfAccumulatedFileSize => "",
    IfAll => "",
    IfAny => "",
    IfNot => "",
    SortByModificationTime => "",
    ScriptCondition => "",
    // Layouts and their parts.
    PatternLayout => "layout",
    JsonLayout => "layout",
    XmlLayout => "layout",
    YamlLayout => "layout",
    KeyValuePair => "KeyValuePair",
    SyslogLayout => "layout",
    Rfc5424Layout => "layout",
    LoggerFields => "LoggerFields",
    GelfLayout => "layout",
    CsvLogEventLayout => "layout",
    CsvParameterLayout => "layout",
    HtmlLayout => "layout",
    JsonTemplateLayout => "layout",
    EventTemplateAdditionalField => "",
    MarkerPatternSelector => "patternSelector",
    LevelPatternSelector => "patternSelector",
    ScriptPatternSelector => "patternSelector",
    PatternMatch => "PatternMatch",
    Replace => "replace",
    // Filters.
    ThresholdFilter => "filter",
    MutableThreadContextMapFilter => "filter",
    LevelRangeFilter => "filter",
    LevelMatchFilter => "filter",
    RegexFilter => "filter",
    StringMatchFilter => "filter",
    MarkerFilter => "filter",
    NoMarkerFilter => "filter",
    BurstFilter => "filter",
    DenyAllFilter => "filter",
    DynamicThresholdFilter => "filter",
    ThreadContextMapFilter => "filter",
    TimeFilter => "filter",
    MapFilter => "filter",
    StructuredDataFilter => "filter",
    ScriptFilter => "filter",
    Filters => "filters",
    // Network appenders and their parts.
    Socket => "appender",
    Syslog => "appender",
    Ssl => "Ssl",
    KeyStore => "KeyStore",
    TrustStore => "TrustStore",
    SocketOptions => "SocketOptions",
    SocketPerformancePreferences => "SocketPerformancePreferences",
    // The database appender and its parts. log4j2's `ColumnConfig`, `ColumnMapping` and
    // `PoolableConnectionFactoryConfig` set no `@Plugin` element type; the connection sources
    // share `connectionSource`, which is also how `<JDBC>` finds its source among its children.
    JDBC => "appender",
    Column => "",
    ColumnMapping => "",
    DriverManager => "connectionSource",
    /// From log4j2's `log4j-jdbc-dbcp2` module.
    PoolingDriver => "connectionSource",
    /// From log4j2's `log4j-jdbc-dbcp2` module.
    PoolableConnectionFactory => "",
    DataSource => "connectionSource",
    ConnectionFactory => "connectionSource",
}

impl std::fmt::Display for Plugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

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
const ALIASES: &[(&str, Plugin)] = &[
    ("appender-ref", Plugin::AppenderRef),
    ("contextmapfilter", Plugin::ThreadContextMapFilter),
    (
        "mutablecontextmapfilter",
        Plugin::MutableThreadContextMapFilter,
    ),
    // SocketAppender's `@PluginElement("SslConfiguration") @PluginAliases("SslConfig")`.
    ("sslconfig", Plugin::Ssl),
    ("sslconfiguration", Plugin::Ssl),
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

/// The plugin l4rs implements that `name` names (case-insensitively), or that one of its
/// aliases names.
pub fn l4rs_plugin(name: &str) -> Option<Plugin> {
    Plugin::ALL
        .iter()
        .copied()
        .find(|plugin| plugin.name().eq_ignore_ascii_case(name))
        .or_else(|| {
            ALIASES
                .iter()
                .find(|(alias, _)| alias.eq_ignore_ascii_case(name))
                .map(|(_, plugin)| *plugin)
        })
}

/// True for the arbiters: elements replaced by their children when their condition holds.
pub fn is_arbiter(name: &str) -> bool {
    ARBITERS
        .iter()
        .any(|arbiter| arbiter.eq_ignore_ascii_case(name))
}

/// The plugins l4rs implements, comma-separated, for messages. The script plugins are left
/// out: l4rs builds them only to refuse them as log4j2 does without a script engine.
pub fn l4rs_plugin_list() -> String {
    let names: Vec<&str> = Plugin::ALL
        .iter()
        .filter(|plugin| !plugin.is_script_plugin())
        .map(|plugin| plugin.name())
        .collect();
    names.join(", ")
}

impl Plugin {
    /// True for log4j2's script plugins, which l4rs builds and refuses (it runs no scripts).
    pub const fn is_script_plugin(self) -> bool {
        matches!(
            self,
            Plugin::Scripts
                | Plugin::Script
                | Plugin::ScriptFile
                | Plugin::ScriptRef
                | Plugin::ScriptArbiter
                | Plugin::ScriptAppenderSelector
                | Plugin::AppenderSet
                | Plugin::ScriptCondition
                | Plugin::ScriptPatternSelector
                | Plugin::ScriptFilter
        )
    }
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
    for plugin in Plugin::ALL.iter().map(|plugin| plugin.name()) {
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
        for plugin in Plugin::ALL {
            assert!(
                is_log4j2_plugin(plugin.name()),
                "{plugin} must be a log4j2 plugin"
            );
        }
        assert_eq!(l4rs_plugin("console"), Some(Plugin::Console));
        assert_eq!(l4rs_plugin("rollingfile"), Some(Plugin::RollingFile));
        assert_eq!(l4rs_plugin("routing"), Some(Plugin::Routing));
        // Matched case-insensitively, as log4j2 lower-cases its keys.
        assert_eq!(l4rs_plugin("Jdbc"), Some(Plugin::JDBC));
        assert_eq!(l4rs_plugin("Servlet"), None);
        assert!(is_log4j2_plugin("RollingMemoryMappedFile"));
    }

    #[test]
    fn every_plugin_is_found_by_its_name_in_any_case() {
        for plugin in Plugin::ALL {
            assert_eq!(l4rs_plugin(plugin.name()), Some(*plugin));
            assert_eq!(
                l4rs_plugin(&plugin.name().to_ascii_uppercase()),
                Some(*plugin)
            );
            assert_eq!(plugin.to_string(), plugin.name());
            // log4j2's filters all carry the `filter` element type.
            if plugin.name().ends_with("Filter") {
                assert_eq!(plugin.element_type(), "filter", "{plugin}");
            }
        }
        assert_eq!(l4rs_plugin("appender-ref"), Some(Plugin::AppenderRef));
        assert_eq!(l4rs_plugin("SslConfig"), Some(Plugin::Ssl));
    }

    #[test]
    fn the_plugin_list_leaves_out_the_script_plugins_l4rs_only_refuses() {
        let list = l4rs_plugin_list();
        assert!(list.contains("RegexFilter"), "{list}");
        assert!(!list.contains("Script"), "{list}");
        assert_eq!(l4rs_plugin("scriptfilter"), Some(Plugin::ScriptFilter));
    }
}
