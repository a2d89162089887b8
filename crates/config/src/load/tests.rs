use l4rs_core::{FilterResult, Level};

use super::*;
use crate::model::{AppenderKind, ConsoleTarget, LayoutSpec, PatternSelectorKind};

fn load(text: &str) -> Configuration {
    load_str(text, Some(Path::new("/test/log4j2.xml"))).expect("well-formed")
}

fn messages(config: &Configuration) -> Vec<String> {
    diagnostic_messages(config)
}

fn pattern(config: &Configuration, appender: &str) -> String {
    match &config.appender(appender).expect("appender").layout {
        Some(LayoutSpec::Pattern(layout)) => layout.pattern.clone(),
        Some(LayoutSpec::Json(_)) => "<json>".to_string(),
        Some(LayoutSpec::Xml(_)) => "<xml>".to_string(),
        Some(LayoutSpec::Yaml(_)) => "<yaml>".to_string(),
        Some(LayoutSpec::Syslog(_)) => "<syslog>".to_string(),
        Some(LayoutSpec::Rfc5424(_)) => "<rfc5424>".to_string(),
        Some(LayoutSpec::Gelf(_)) => "<gelf>".to_string(),
        Some(LayoutSpec::Csv(_)) => "<csv>".to_string(),
        Some(LayoutSpec::Html(_)) => "<html>".to_string(),
        Some(LayoutSpec::JsonTemplate(_)) => "<json-template>".to_string(),
        None => "<default>".to_string(),
    }
}

const MINIMAL_LOGGERS: &str =
    "<Loggers><Root level=\"info\"><AppenderRef ref=\"C\"/></Root></Loggers>";

#[test]
fn element_and_attribute_names_are_case_insensitive() {
    let config = load(
        r#"<configuration STATUS="WARN">
  <appenders>
    <console NAME="Out" TARGET="system_err">
      <patternlayout PATTERN="%-5p %c %m%n"/>
      <thresholdfilter LEVEL="Info" ONMATCH="accept" onmismatch="Deny"/>
    </console>
    <FILE name="f" FILENAME="/tmp/ci.log" Append="FALSE" BUFFEREDIO="false"/>
  </appenders>
  <LOGGERS>
    <logger NAME="ci" LEVEL="Debug" ADDITIVITY="False">
      <appenderref REF="f"/>
      <appender-ref ref="Out"/>
    </logger>
    <ROOT level="trace"><APPENDERREF ref="Out"/></ROOT>
  </LOGGERS>
</configuration>"#,
    );
    assert!(
        config
            .diagnostics
            .iter()
            .all(|d| d.severity != Severity::Error),
        "{:?}",
        messages(&config)
    );
    assert_eq!(config.status, Some(Level::WARN));
    let out = config.appender("Out").unwrap();
    assert!(matches!(&out.kind, AppenderKind::Console(c) if c.target == ConsoleTarget::SystemErr));
    assert_eq!(
        out.filter,
        Some(FilterSpec::Threshold {
            level: Level::INFO,
            verdicts: crate::model::FilterVerdicts {
                on_match: FilterResult::Accept,
                on_mismatch: FilterResult::Deny
            }
        })
    );
    let AppenderKind::File(file) = &config.appender("f").unwrap().kind else {
        panic!()
    };
    assert!(!file.append && !file.buffered_io);
    let ci = &config.loggers.loggers[0];
    assert_eq!(
        (ci.level, ci.additivity, ci.appender_refs.len()),
        (Some(Level::DEBUG), false, 2)
    );
    assert_eq!(ci.appender_refs[1].appender, "Out");
}

#[test]
fn strict_syntax_uses_type_attributes() {
    let config = load(
        r#"<Configuration strict="true" name="StrictConfig">
  <Filter type="ThresholdFilter" level="trace"/>
  <Appenders>
    <Appender type="Console" name="STDOUT">
      <Layout type="PatternLayout" pattern="%m MDC%X%n"/>
      <Filters>
        <Filter type="MarkerFilter" marker="FLOW" onMatch="DENY" onMismatch="NEUTRAL"/>
        <Filter type="MarkerFilter" marker="EXCEPTION" onMatch="DENY" onMismatch="ACCEPT"/>
      </Filters>
    </Appender>
    <Appender type="File" name="File" fileName="x.log">
      <Layout type="PatternLayout"><Pattern>%d %p %C{1.} [%t] %m%n</Pattern></Layout>
    </Appender>
  </Appenders>
  <Loggers><Root level="trace"><AppenderRef ref="STDOUT"/></Root></Loggers>
</Configuration>"#,
    );
    assert!(config.diagnostics.is_empty(), "{:?}", messages(&config));
    assert!(config.strict);
    assert_eq!(config.name, "StrictConfig");
    assert!(
        matches!(config.filter, Some(FilterSpec::Threshold { level, .. }) if level == Level::TRACE)
    );
    assert!(
        matches!(&config.appender("STDOUT").unwrap().filter, Some(FilterSpec::Composite(f)) if f.len() == 2)
    );
    assert_eq!(pattern(&config, "File"), "%d %p %C{1.} [%t] %m%n");
    // Without strict mode `<Appender type=…>` is not a plugin.
    let config = load(
        r#"<Configuration><Appenders><Appender type="Console" name="C"/></Appenders>
        <Loggers><Root/></Loggers></Configuration>"#,
    );
    assert!(config.appenders.is_empty());
    assert!(
        messages(&config)
            .iter()
            .any(|m| m == "Appenders contains an invalid element or attribute \"Appender\""),
        "{:?}",
        messages(&config)
    );
}

#[test]
fn leaf_elements_are_attributes_of_their_parent() {
    let config = load(
        r#"<Configuration>
  <Appenders>
    <File name="F"><fileName>nested.log</fileName><append>false</append>
      <PatternLayout><Pattern>%-5p [%c] %m%n</Pattern><alwaysWriteExceptions>false</alwaysWriteExceptions></PatternLayout>
    </File>
    <Console name="C"><target>SYSTEM_ERR</target>
      <ThresholdFilter><level>warn</level><onMatch>ACCEPT</onMatch></ThresholdFilter>
    </Console>
  </Appenders>
  <Loggers><Logger name="x"><level>debug</level><additivity>false</additivity><AppenderRef ref="F"/></Logger>
    <Root level="info"><AppenderRef ref="C"/></Root></Loggers>
</Configuration>"#,
    );
    assert!(config.diagnostics.is_empty(), "{:?}", messages(&config));
    let file = config.appender("F").unwrap();
    assert!(
        matches!(&file.kind, AppenderKind::File(f) if f.file_name == "nested.log" && !f.append)
    );
    let Some(LayoutSpec::Pattern(layout)) = &file.layout else {
        panic!()
    };
    assert_eq!(layout.pattern, "%-5p [%c] %m%n");
    assert!(!layout.always_write_exceptions);
    assert!(
        matches!(&config.appender("C").unwrap().filter, Some(FilterSpec::Threshold { level, verdicts }) if *level == Level::WARN && verdicts.on_match == FilterResult::Accept)
    );
    assert_eq!(config.loggers.loggers[0].level, Some(Level::DEBUG));
    assert!(!config.loggers.loggers[0].additivity);
}

#[test]
fn each_refused_builder_says_what_to_add() {
    let config = load(
        r#"<Configuration status="warn">
  <Appenders>
    <File/>
    <RollingFile name="R" fileName="r.log"/>
    <Async name="A"/>
  </Appenders>
  <Loggers>
    <Logger level="info"/>
    <Root level="info"/>
  </Loggers>
</Configuration>"#,
    );
    let refusals: Vec<(&str, &str)> = config
        .diagnostics
        .iter()
        .filter(|d| d.message.contains(" are invalid: "))
        .map(|d| {
            let fields = d.message.split(" are invalid: ").nth(1).unwrap_or("");
            (fields, d.help.as_deref().unwrap_or(""))
        })
        .collect();
    assert_eq!(
        refusals,
        [
            (
                "field 'fileName' has invalid value 'null', field 'name' has invalid value 'null'",
                "add fileName=\"…\" and name=\"…\" to <File>; it is not created"
            ),
            (
                "field 'filePattern' has invalid value 'null', field 'policy' has invalid value 'null'",
                "add filePattern=\"…\" and a triggering policy to <RollingFile>; it is not created"
            ),
            (
                "field 'appenderRefs' has invalid value '[Lorg.apache.logging.log4j.core.config.AppenderRef;@…'",
                "add <AppenderRef ref=\"…\"/> to <Async>; it is not created"
            ),
            (
                "field 'loggerName' has invalid value 'null'",
                "add name=\"…\" to <Logger>; it is not created"
            ),
        ],
        "{:#?}",
        config.diagnostics
    );
}

#[test]
fn an_empty_file_name_is_refused_as_log4j2_refuses_it() {
    // log4j2 2.19 (checked with the oracle): the required-value validator refuses "" as it
    // refuses a missing value, and the appender is not created.
    let config = load(
        r#"<Configuration>
  <Appenders><File name="Empty" fileName=""/></Appenders>
  <Loggers><Root level="info"/></Loggers>
</Configuration>"#,
    );
    assert_eq!(
        messages(&config),
        [
            "The parameter is null: fileName",
            "Could not create plugin of type class org.apache.logging.log4j.core.appender.FileAppender for element File org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element File are invalid: field 'fileName' has invalid value ''",
            "Null object returned for File in Appenders.",
        ]
    );
    assert!(config.appenders.is_empty());
}

#[test]
fn tolerated_errors_use_log4j2_wording() {
    let config = load(
        r#"<Configuration status="warn">
  <Appenders>
    <Console name="C" colour="red"><PatternLayout pattern="C %m%n"/></Console>
    <Console><PatternLayout pattern="no name %m%n"/></Console>
    <File name="F" fileName="f.log" bufferSize="8k"><PatternLayout pattern="F %m%n"/></File>
    <File name="G"/>
    <RandomAccessFile name="R"/>
  </Appenders>
  <Loggers>
    <Logger name="bad" level="verbose"><AppenderRef ref="F"/></Logger>
    <Logger level="info"/>
    <Root level="info"><AppenderRef ref="C"/><AppenderRef/></Root>
  </Loggers>
</Configuration>"#,
    );
    // Exactly log4j2 2.19's lines, in its order (checked with the oracle): each plugin's
    // conversions and required fields as it is built, then each container's "Null object".
    assert_eq!(
        messages(&config),
        [
            "Console contains an invalid element or attribute \"colour\"",
            "No appender name provided",
            "Could not create plugin of type class org.apache.logging.log4j.core.appender.ConsoleAppender for element Console org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element Console are invalid: field 'name' has invalid value 'null'",
            "Error while converting string [8k] to type [int]. Using default value [null]. java.lang.NumberFormatException: For input string: \"8k\"",
            "The parameter is null: fileName",
            "Could not create plugin of type class org.apache.logging.log4j.core.appender.FileAppender for element File org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element File are invalid: field 'fileName' has invalid value 'null'",
            "No filename provided for RandomAccessFileAppender with name R",
            "Null object returned for Console in Appenders.",
            "Null object returned for File in Appenders.",
            "Null object returned for RandomAccessFile in Appenders.",
            "Error while converting string [verbose] to type [class org.apache.logging.log4j.Level]. Using default value [null]. java.lang.IllegalArgumentException: Unknown level constant [VERBOSE].",
            "Loggers cannot be configured without a name",
            "Could not create plugin of type class org.apache.logging.log4j.core.config.LoggerConfig for element Logger org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element Logger are invalid: field 'loggerName' has invalid value 'null'",
            "Appender references must contain a reference",
            "Null object returned for AppenderRef in Root.",
            "Null object returned for Logger in Loggers.",
        ]
    );
    let names: Vec<&str> = config.appenders.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["C", "F"]);
    assert!(
        matches!(&config.appender("F").unwrap().kind, AppenderKind::File(f) if f.buffer_size == 8192)
    );
    assert_eq!(config.loggers.loggers.len(), 1);
    assert_eq!(config.loggers.loggers[0].level, None);
    assert_eq!(config.loggers.root.appender_refs.len(), 1);
    let colour = config
        .diagnostics
        .iter()
        .find(|d| d.message.contains("colour"))
        .unwrap();
    assert_eq!(
        colour.position,
        Some(Position {
            line: 3,
            column: 23
        })
    );
    assert_eq!(colour.file.as_deref(), Some(Path::new("/test/log4j2.xml")));
    // The help names the attribute, its element and what is allowed.
    let help = |message: &str| {
        config
            .diagnostics
            .iter()
            .find(|d| d.message.starts_with(message))
            .and_then(|d| d.help.clone())
            .unwrap_or_else(|| panic!("no help for {message:?}"))
    };
    assert_eq!(
        help("Error while converting string [8k]"),
        "attribute bufferSize of File: expected an integer from -2147483648 to 2147483647"
    );
    assert!(
        help("Error while converting string [verbose]").starts_with(
            "attribute level of Logger: allowed: OFF, FATAL, ERROR, WARN, INFO, DEBUG, TRACE, ALL"
        ),
        "{}",
        help("Error while converting string [verbose]")
    );
}

#[test]
fn bad_enum_values_list_the_constants() {
    let config = load(
        r#"<Configuration><Appenders><Console name="C" target="stdout"><ThresholdFilter level="info" onMatch="maybe"/></Console></Appenders>
  <Loggers><Root/></Loggers></Configuration>"#,
    );
    let helps: Vec<&str> = config
        .diagnostics
        .iter()
        .filter_map(|d| d.help.as_deref())
        .collect();
    assert_eq!(
        helps,
        [
            "attribute onMatch of ThresholdFilter: allowed: ACCEPT, NEUTRAL, DENY",
            "attribute target of Console: allowed: SYSTEM_OUT, SYSTEM_ERR",
        ]
    );
}

#[test]
fn several_unknown_attributes_are_listed_in_log4j2_order() {
    let config = load(&format!(
        r#"<Configuration><Appenders>
    <Console name="C" colour="red" size="3"><PatternLayout/><Unknown><X/></Unknown><Appender type="Console"/></Console>
    <Foo2 name="x"/><Qux><Y/></Qux>
  </Appenders>{MINIMAL_LOGGERS}</Configuration>"#
    ));
    let messages = messages(&config);
    assert!(
        messages.contains(
            &"Console contains invalid attributes \"Appender\", \"colour\", \"size\", \"Unknown\""
                .to_string()
        ),
        "{messages:#?}"
    );
    assert!(
        messages.contains(&"Appenders contains invalid attributes \"Qux\", \"Foo2\"".to_string()),
        "{messages:#?}"
    );
    assert!(config.appender("C").is_some());
}

#[test]
fn one_filter_per_owner_and_misplaced_children() {
    let config = load(
        r#"<Configuration><Appenders>
    <Console name="C"><PatternLayout pattern="%m%n"><ThresholdFilter level="info"/></PatternLayout>
      <ThresholdFilter level="info"/><MarkerFilter marker="X"/></Console>
  </Appenders>
  <Loggers><Logger name="a"><ThresholdFilter/><MarkerFilter marker="X"/>
      <AppenderRef ref="C"><ThresholdFilter/><MarkerFilter marker="X"/></AppenderRef></Logger>
    <Root><ThresholdFilter/><MarkerFilter marker="X"/></Root></Loggers></Configuration>"#,
    );
    let messages = messages(&config);
    for expected in [
        "layout PatternLayout has no parameter that matches element ThresholdFilter",
        "appender Console has no parameter that matches element MarkerFilter",
        "AppenderRef has no parameter that matches element MarkerFilter",
        "logger Logger has no parameter that matches element MarkerFilter",
        "root Root has no parameter that matches element MarkerFilter",
    ] {
        assert!(
            messages.iter().any(|m| m == expected),
            "missing {expected:?} in {messages:#?}"
        );
    }
    assert!(matches!(
        config.appender("C").unwrap().filter,
        Some(FilterSpec::Threshold { .. })
    ));
    assert!(matches!(
        config.loggers.loggers[0].appender_refs[0].filter,
        Some(FilterSpec::Threshold { .. })
    ));
}

#[test]
fn several_context_wide_filters_combine_in_order() {
    let config = load(
        r#"<Configuration><ThresholdFilter level="debug" onMatch="ACCEPT"/><MarkerFilter marker="M"/>
        <Loggers><Root/></Loggers></Configuration>"#,
    );
    let Some(FilterSpec::Composite(filters)) = &config.filter else {
        panic!("{:?}", config.filter)
    };
    assert!(matches!(filters[0], FilterSpec::Threshold { .. }));
    assert!(matches!(filters[1], FilterSpec::Marker { .. }));
}

#[test]
fn filter_defaults_follow_log4j2_2_19() {
    let config = load(
        r#"<Configuration><Appenders>
    <Console name="A"><LevelRangeFilter/></Console>
    <Console name="B"><BurstFilter rate="0.05"/></Console>
    <Console name="C"><ThresholdFilter onMatch="maybe"/></Console>
    <Console name="D"><RegexFilter/></Console>
    <Console name="E"><LevelMatchFilter/></Console>
  </Appenders><Loggers><Root/></Loggers></Configuration>"#,
    );
    assert!(
        matches!(config.appender("A").unwrap().filter, Some(FilterSpec::LevelRange { min_level, max_level, .. }) if min_level == Level::ERROR && max_level == Level::ERROR)
    );
    assert!(
        matches!(config.appender("B").unwrap().filter, Some(FilterSpec::Burst { level, max_burst: 5, .. }) if level == Level::WARN)
    );
    assert!(
        matches!(config.appender("C").unwrap().filter, Some(FilterSpec::Threshold { level, verdicts }) if level == Level::ERROR && verdicts.on_match == FilterResult::Neutral)
    );
    assert!(config.appender("D").unwrap().filter.is_none());
    assert!(
        matches!(config.appender("E").unwrap().filter, Some(FilterSpec::LevelMatch { level, .. }) if level == Level::ERROR)
    );
    let messages = messages(&config);
    assert!(messages.contains(&"Error while converting string [maybe] to type [class org.apache.logging.log4j.core.Filter$Result]. Using default value [null]. java.lang.IllegalArgumentException: No enum constant org.apache.logging.log4j.core.Filter.Result.MAYBE".to_string()));
    assert!(messages.contains(&"A regular expression must be provided for RegexFilter".to_string()));
}

#[test]
fn values_convert_as_log4j2_converts_them() {
    let config = load(
        r#"<Configuration shutdownHook="DISABLE" shutdownTimeout="250" monitorInterval="30"><Appenders>
    <File name="F" fileName="x" immediateFlush="yes" append="TRUE " bufferSize="+5"/>
    <Console name="T" target="stdout"/>
    <MemoryMappedFile name="M" fileName="m" regionLength="1024"/>
    <RandomAccessFile name="R" fileName="r"/>
  </Appenders><Loggers><Root level="info" additivity="maybe" includeLocation="yes"/></Loggers></Configuration>"#,
    );
    let AppenderKind::File(file) = &config.appender("F").unwrap().kind else {
        panic!()
    };
    assert!(!file.immediate_flush && !file.append);
    assert_eq!(file.buffer_size, 5);
    assert!(
        matches!(&config.appender("T").unwrap().kind, AppenderKind::Console(c) if c.target == ConsoleTarget::SystemOut)
    );
    assert!(
        matches!(&config.appender("M").unwrap().kind, AppenderKind::MemoryMappedFile(m) if m.region_length == 1024)
    );
    assert!(
        matches!(&config.appender("R").unwrap().kind, AppenderKind::RandomAccessFile(r) if r.buffer_size == 262_144)
    );
    // Boolean.valueOf: anything but "true" is false (checked against log4j2 2.19 in scenario
    // 406-booleans-and-enums).
    assert!(!config.loggers.root.additivity);
    assert_eq!(config.loggers.root.include_location, Some(false));
    assert!(!config.shutdown_hook);
    assert_eq!(
        (config.shutdown_timeout_ms, config.monitor_interval_seconds),
        (250, 30)
    );
    assert_eq!(
        messages(&config),
        ["Error while converting string [stdout] to type [class org.apache.logging.log4j.core.appender.ConsoleAppender$Target]. Using default value [null]. java.lang.IllegalArgumentException: No enum constant org.apache.logging.log4j.core.appender.ConsoleAppender.Target.STDOUT"]
    );
}

#[test]
fn properties_and_root_attributes_substitute_in_the_right_order() {
    set_system_property_for_test();
    let config = load(
        r#"<Configuration name="props-${sys:l4rs.load.test.name:-demo}" status="${sys:l4rs.load.test.status}">
  <Properties>
    <Property name="app">orders</Property>
    <Property name="prefix">[${app}]</Property>
    <Property name="p" value="attr">text</Property>
    <Property name="q" value="only-attr"/>
    <Property>nameless</Property>
  </Properties>
  <Appenders><Console name="C"><PatternLayout pattern="${prefix} ${p} ${q} $${ctx:user} %m%n"/></Console></Appenders>
  <Loggers><Root level="info"><AppenderRef ref="C"/></Root></Loggers>
</Configuration>"#,
    );
    assert_eq!(config.name, "props-demo");
    assert_eq!(config.status, Some(Level::DEBUG));
    assert_eq!(
        pattern(&config, "C"),
        "[orders] text only-attr ${ctx:user} %m%n"
    );
    let messages = messages(&config);
    assert!(messages.contains(&"Configuration contains Property with both attribute value (attr) AND element value (text). Please specify only one value. Using the element value.".to_string()));
    assert!(messages
        .contains(&"Property contains an invalid element or attribute \"value\"".to_string()));
    assert!(messages.contains(&"Unable to invoke factory method in class org.apache.logging.log4j.core.config.Property for element Property: java.lang.IllegalArgumentException: Property name cannot be null java.lang.reflect.InvocationTargetException".to_string()));
    assert!(messages.contains(&"Null object returned for Property in Properties.".to_string()));
    assert_eq!(config.properties.len(), 4);
    // Root attributes cannot see <Properties>.
    let config = load(
        r#"<Configuration name="${app}"><Properties><Property name="app">x</Property></Properties><Loggers><Root/></Loggers></Configuration>"#,
    );
    assert_eq!(config.name, "${app}");
    crate::substitute::clear_system_property("l4rs.load.test.status");
    l4rs_core::status::set_level(Level::ERROR);
}

fn set_system_property_for_test() {
    crate::substitute::set_system_property("l4rs.load.test.status", "debug");
}

#[test]
fn arbiters_keep_the_children_of_true_conditions() {
    crate::substitute::set_system_property("l4rs.load.test.env", "prod");
    let config = load(
        r#"<Configuration>
  <Appenders>
    <SystemPropertyArbiter propertyName="l4rs.load.test.env" propertyValue="dev"><Console name="Dev"/></SystemPropertyArbiter>
    <SystemPropertyArbiter propertyName="l4rs.load.test.env" propertyValue="prod"><Console name="Prod"/></SystemPropertyArbiter>
    <SystemPropertyArbiter propertyName="l4rs.load.test.env"><Console name="Any"/></SystemPropertyArbiter>
    <EnvironmentArbiter propertyName="L4RS_SURELY_UNDEFINED_ENV"><Console name="Env"/></EnvironmentArbiter>
    <Select>
      <ClassArbiter className="com.example.Missing"><Console name="Class"/></ClassArbiter>
      <SystemPropertyArbiter propertyName="l4rs.load.test.env" propertyValue="prod"><Console name="Selected"/></SystemPropertyArbiter>
      <DefaultArbiter><Console name="Default"/></DefaultArbiter>
    </Select>
    <Console name="Plain"/>
  </Appenders>
  <Loggers><Root/></Loggers>
</Configuration>"#,
    );
    let names: Vec<&str> = config.appenders.iter().map(|a| a.name.as_str()).collect();
    // True arbiters' children go after the other children, as in log4j2.
    assert_eq!(names, ["Plain", "Prod", "Any", "Selected"]);
    assert!(config.diagnostics.is_empty(), "{:?}", messages(&config));
    crate::substitute::clear_system_property("l4rs.load.test.env");
}

#[test]
fn environment_arbiters_keep_their_children_when_the_variable_matches() {
    // A name no other test uses, so setting it cannot change what another test sees.
    const VARIABLE: &str = "L4RS_LOAD_TEST_ENVIRONMENT_ARBITER";
    std::env::set_var(VARIABLE, "staging");
    let config = load(&format!(
        r#"<Configuration>
  <Appenders>
    <EnvironmentArbiter propertyName="{VARIABLE}" propertyValue="staging"><Console name="Matching"/></EnvironmentArbiter>
    <EnvironmentArbiter propertyName="{VARIABLE}" propertyValue="prod"><Console name="WrongValue"/></EnvironmentArbiter>
    <EnvironmentArbiter propertyName="{VARIABLE}"><Console name="AnyValue"/></EnvironmentArbiter>
    <Select>
      <EnvironmentArbiter propertyName="{VARIABLE}" propertyValue="Staging"><Console name="OtherCase"/></EnvironmentArbiter>
      <EnvironmentArbiter propertyName="{VARIABLE}" propertyValue="staging"><Console name="Selected"/></EnvironmentArbiter>
      <DefaultArbiter><Console name="Default"/></DefaultArbiter>
    </Select>
  </Appenders>
  <Loggers><Root/></Loggers>
</Configuration>"#
    ));
    std::env::remove_var(VARIABLE);
    let names: Vec<&str> = config.appenders.iter().map(|a| a.name.as_str()).collect();
    // The comparison is case-sensitive, as Java's `String.equals`.
    assert_eq!(names, ["Matching", "AnyValue", "Selected"]);
    assert!(config.diagnostics.is_empty(), "{:?}", messages(&config));
}

#[test]
fn a_select_takes_its_default_arbiter_only_when_nothing_else_holds() {
    crate::set_system_property("l4rs.test.selectDefaultLast", "on");
    let xml = r#"<Configuration><Appenders><Select>
        <DefaultArbiter><File name="f" fileName="/tmp/l4rs-default.log"/></DefaultArbiter>
        <SystemPropertyArbiter propertyName="l4rs.test.selectDefaultLast"><File name="f" fileName="/tmp/l4rs-chosen.log"/></SystemPropertyArbiter>
      </Select></Appenders><Loggers><Root level="info"><AppenderRef ref="f"/></Root></Loggers></Configuration>"#;
    let config = load(xml);
    crate::clear_system_property("l4rs.test.selectDefaultLast");
    assert!(config.diagnostics.is_empty(), "{:?}", messages(&config));
    assert!(
        matches!(&config.appenders[0].kind, crate::model::AppenderKind::File(file) if file.file_name.ends_with("l4rs-chosen.log")),
        "{:?}",
        config.appenders[0].kind
    );
}

#[test]
fn spring_profile_arbiters_hold_for_the_active_profiles() {
    // The only test that sets the property; `SPRING_PROFILES_ACTIVE` comes after it.
    crate::set_system_property("spring.profiles.active", "prod, eu");
    crate::set_system_property("l4rs.test.springProfileName", "eu");
    let config = load(
        r#"<Configuration>
  <Appenders>
    <SpringProfile name="prod"><Console name="Prod"/></SpringProfile>
    <SpringProfile name="dev"><Console name="Dev"/></SpringProfile>
    <SpringProfile name="dev, eu"><Console name="DevOrEu"/></SpringProfile>
    <SpringProfile name="prod &amp; !us"><Console name="ProdNotUs"/></SpringProfile>
    <SpringProfile name="default"><Console name="DefaultProfile"/></SpringProfile>
    <SpringProfile name="$${sys:l4rs.test.springProfileName}"><Console name="SubstitutedTwice"/></SpringProfile>
    <SpringProfile><Console name="NoName"/></SpringProfile>
    <SpringProfile name="a &amp; b | c"><Console name="Malformed"/></SpringProfile>
    <Select>
      <SpringProfile name="dev | staging"><Console name="Staging"/></SpringProfile>
      <SpringProfile name="prod"><Console name="Selected"/></SpringProfile>
      <DefaultArbiter><Console name="Otherwise"/></DefaultArbiter>
    </Select>
  </Appenders>
  <Loggers><Root/></Loggers>
</Configuration>"#,
    );
    crate::clear_system_property("spring.profiles.active");
    crate::clear_system_property("l4rs.test.springProfileName");
    let names: Vec<&str> = config.appenders.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Prod",
            "DevOrEu",
            "ProdNotUs",
            "SubstitutedTwice",
            "Selected"
        ]
    );
    assert_eq!(
        messages(&config),
        ["Malformed profile expression [a & b | c]"]
    );
}

#[test]
fn custom_levels_register_in_document_order() {
    let config = load(
        r#"<Configuration>
  <Loggers><Logger name="early" level="LOAD_TEST_NOTICE"/><Root level="LOAD_TEST_NOTICE"/></Loggers>
  <CustomLevels><CustomLevel name="LOAD_TEST_NOTICE" intLevel="450"/><CustomLevel intLevel="1"/><CustomLevel name="NEG" intLevel="-5"/></CustomLevels>
  <Appenders><Console name="C"><LevelMatchFilter level="load_test_notice"/></Console></Appenders>
  <CustomLevel name="LOAD_TEST_BARE" intLevel="350"/>
</Configuration>"#,
    );
    assert_eq!(config.custom_levels.len(), 2);
    assert_eq!(config.custom_levels[0].int_level(), 450);
    // Used before declared: unknown at that point.
    assert_eq!(config.loggers.loggers[0].level, None);
    assert!(
        matches!(config.appender("C").unwrap().filter, Some(FilterSpec::LevelMatch { level, .. }) if level.int_level() == 450)
    );
    let messages = messages(&config);
    let failure = |reason: &str| {
        format!("Unable to invoke factory method in class org.apache.logging.log4j.core.config.CustomLevelConfig for element CustomLevel: java.lang.IllegalArgumentException: {reason} java.lang.reflect.InvocationTargetException")
    };
    let at = messages
        .iter()
        .position(|m| *m == failure("Illegal null or empty Level name."))
        .unwrap_or_else(|| panic!("{messages:#?}"));
    // Each failed level is named again when <CustomLevels> is built, after all of them.
    assert_eq!(
        messages[at..at + 4],
        [
            failure("Illegal null or empty Level name."),
            failure("Illegal Level int less than zero."),
            "Null object returned for CustomLevel in CustomLevels.".to_string(),
            "Null object returned for CustomLevel in CustomLevels.".to_string(),
        ]
    );
}

#[test]
fn root_and_loggers_defaults() {
    let two_roots = load(
        r#"<Configuration><Appenders><Console name="C"/></Appenders><Loggers><Root level="info"><AppenderRef ref="C"/></Root><Root level="debug"/></Loggers></Configuration>"#,
    );
    let messages_two = messages(&two_roots);
    assert_eq!(
        messages_two[0],
        "Unable to invoke factory method in class org.apache.logging.log4j.core.config.LoggersPlugin for element Loggers: java.lang.IllegalStateException: Configuration has multiple root loggers. There can be only one. java.lang.reflect.InvocationTargetException"
    );
    assert_eq!(
        messages_two[1],
        "No Loggers were configured, using default. Is the Loggers element missing?"
    );
    assert!(two_roots.name.starts_with("Default@"));
    assert_eq!(
        two_roots.loggers.root.level,
        Some(crate::default::default_root_level())
    );
    assert!(two_roots.appender("C").is_some());

    let no_root = load(
        r#"<Configuration><Appenders><Console name="C"/></Appenders><Loggers><Logger name="a" level="info"><AppenderRef ref="C"/></Logger></Loggers></Configuration>"#,
    );
    assert_eq!(messages(&no_root), ["No Root logger was configured, creating default ERROR-level Root logger with Console appender"]);
    assert_eq!(no_root.loggers.loggers.len(), 1);
    let console = &no_root.loggers.root.appender_refs[0].appender;
    assert!(console.starts_with("DefaultConsole-"));
    assert!(no_root.appender(console).is_some());
    assert_eq!(pattern(&no_root, console), crate::DEFAULT_PATTERN);

    let no_loggers =
        load(r#"<Configuration><Appenders><Console name="C"/></Appenders></Configuration>"#);
    assert_eq!(
        messages(&no_loggers),
        ["No Loggers were configured, using default. Is the Loggers element missing?"]
    );
    assert!(no_loggers.loggers.loggers.is_empty());
    assert!(!no_loggers.is_default);
    assert_eq!(no_loggers.diagnostics[0].severity, Severity::Warning);
}

#[test]
fn unknown_and_unsupported_plugins_are_named() {
    let config = load(
        r#"<Configuration>
  <Apenders><Console name="C"/></Apenders>
  <Console name="Top"/>
  <Typo/>
  <Appenders>
    <JMS name="R" destinationBindingName="t"/>
    <Console name="J"><SerializedLayout/></Console>
    <Wrapper><Console name="W"/></Wrapper>
    <Outer><Inner><Console name="I"/></Inner></Outer>
  </Appenders>
  <Loggers><Root/></Loggers>
</Configuration>"#,
    );
    let messages = messages(&config);
    // log4j2 2.19's words (checked with the oracle), for an element that holds plugins; an
    // unknown element left with no plugin inside becomes an attribute of its parent.
    let expected_start = [
        "Error processing element Apenders ([Configuration: null]): CLASS_NOT_FOUND",
        "Error processing element Wrapper ([Appenders: null]): CLASS_NOT_FOUND",
        "Error processing element Inner ([Outer: null]): CLASS_NOT_FOUND",
        "Unknown plugin element \"Typo\" is ignored: it is not a log4j2 plugin",
    ];
    // In log4j2's order: the dropped elements as the tree is built, before anything else.
    assert_eq!(messages[..4], expected_start, "{messages:#?}");
    let wrapper = config
        .diagnostics
        .iter()
        .find(|d| d.message.contains("Wrapper"))
        .unwrap();
    assert_eq!(wrapper.position.map(|p| p.line), Some(8));
    // The list of l4rs's plugins is given once, in the first message that needs it; the later
    // ones point back to it, and a misspelling gets the nearest name.
    let helps: Vec<&str> = config
        .diagnostics
        .iter()
        .filter_map(|d| d.help.as_deref())
        .collect();
    let with_list: Vec<&&str> = helps
        .iter()
        .filter(|help| help.contains("l4rs implements: "))
        .collect();
    assert_eq!(with_list.len(), 1, "{helps:#?}");
    let apenders = config.diagnostics[0].help.as_deref().unwrap();
    assert!(
        apenders.contains("did you mean Appenders? l4rs implements: ")
            && apenders.contains("Console"),
        "{apenders}"
    );
    assert!(
        wrapper.help.as_deref().is_some_and(|help| help
            .ends_with("(l4rs's plugins are listed in the first such message)")
            && help.len() < 200),
        "{wrapper:?}"
    );
    assert!(messages
        .contains(&"Appenders contains an invalid element or attribute \"Outer\"".to_string()));
    assert!(messages
        .contains(&"plugin JMS is not available in l4rs yet; the element is ignored".to_string()));
    assert!(messages.contains(
        &"plugin SerializedLayout is not available in l4rs yet; the element is ignored".to_string()
    ));
    assert!(messages.iter().any(|m| m.starts_with("Unknown object \"Console\" of type org.apache.logging.log4j.core.appender.ConsoleAppender is ignored")));
    let names: Vec<&str> = config.appenders.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["J"]);
}

#[test]
fn selectors_and_replace_bind() {
    let config = load(
        r#"<Configuration><Appenders><Console name="C"><PatternLayout header="H" footer="F" disableAnsi="true" charset="UTF-8">
    <MarkerPatternSelector defaultPattern="%m%n"><PatternMatch key="FLOW" pattern="> %m%n"/></MarkerPatternSelector>
    <Replace regex="a" replacement="b"/>
  </PatternLayout></Console>
  <Console name="D"><PatternLayout charset="nope"><LevelPatternSelector><PatternMatch key="INFO" pattern="x"/></LevelPatternSelector></PatternLayout></Console>
  </Appenders><Loggers><Root/></Loggers></Configuration>"#,
    );
    let Some(LayoutSpec::Pattern(layout)) = &config.appender("C").unwrap().layout else {
        panic!()
    };
    let selector = layout.selector.as_ref().unwrap();
    assert_eq!(selector.kind, PatternSelectorKind::Marker);
    assert_eq!(
        selector.matches,
        [("FLOW".to_string(), "> %m%n".to_string())]
    );
    assert_eq!(layout.replace.as_ref().unwrap().replacement, "b");
    assert_eq!(
        (layout.header.as_deref(), layout.footer.as_deref()),
        (Some("H"), Some("F"))
    );
    assert!(layout.disable_ansi);
    let Some(LayoutSpec::Pattern(layout)) = &config.appender("D").unwrap().layout else {
        panic!()
    };
    assert!(layout.selector.is_none());
    assert!(layout.charset.is_none());
    let messages = messages(&config);
    assert!(messages
        .iter()
        .any(|m| m.contains("Cannot parse pattern 'null'")));
    assert!(messages.iter().any(|m| m.starts_with(
        "Error while converting string [nope] to type [class java.nio.charset.Charset]"
    )));
}

#[test]
fn malformed_files_are_load_errors_and_cycles_are_warnings() {
    let error = load_str(
        "<Configuration status=\"OFF\"\n  <Appenders/>\n</Configuration>",
        Some(Path::new("bad.xml")),
    )
    .unwrap_err();
    assert!(
        error.to_string().starts_with("Error parsing bad.xml:"),
        "{error}"
    );
    assert_eq!(error.path(), Some(Path::new("bad.xml")));
    assert!(error.position().is_some());
    let missing = load_file(Path::new("/nonexistent/l4rs/log4j2.xml")).unwrap_err();
    assert!(matches!(missing, LoadError::Unreadable { .. }));
    let config = load(
        r#"<Configuration><Properties><Property name="a">${b}</Property><Property name="b">${a}</Property></Properties>
      <Appenders><Console name="C"><PatternLayout pattern="${a}"/></Console></Appenders><Loggers><Root/></Loggers></Configuration>"#,
    );
    assert_eq!(
        messages(&config),
        ["Infinite loop in property interpolation of a->b"]
    );
    assert_eq!(config.diagnostics[0].severity, Severity::Warning);
}

#[test]
fn status_records_are_reported_as_found() {
    let (config, records) = l4rs_core::status::capture(|| {
        load(
            r#"<Configuration><Appenders><Console name="C" colour="red"/></Appenders><Loggers><Root><AppenderRef ref="Nope"/></Root></Loggers></Configuration>"#,
        )
    });
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].level, Level::ERROR);
    // The status line is log4j2's message followed by the help, so the list of known plugins
    // reaches a user who only sees stderr.
    assert_eq!(
        records[0].message,
        format!(
            "Console contains an invalid element or attribute \"colour\" (help: not an attribute of Console; check the spelling; l4rs implements: {})",
            crate::plugins::l4rs_plugin_list()
        )
    );
    assert!(records[0].message.contains("RollingFile"));
    // The reference to a missing appender is kept, for building the context to report it
    // ("Unable to locate appender"), as log4j2 does when the configuration starts.
    let references: Vec<_> = config.loggers.root.appender_refs.iter().collect();
    assert_eq!(references.len(), 1);
    assert_eq!(references[0].appender, "Nope");
    assert!(config.appender("Nope").is_none());
}

#[test]
fn header_level_depends_on_document_order_and_footer_level_on_the_root() {
    let level_pair = |xml: &str, appender: &str| {
        let config = load(xml);
        let Some(LayoutSpec::Pattern(layout)) = &config.appender(appender).unwrap().layout else {
            panic!()
        };
        (layout.header_level, layout.footer_level)
    };
    let appenders_first = r#"<Configuration><Appenders><Console name="C"><PatternLayout/></Console></Appenders>
  <Loggers><Root level="debug"><AppenderRef ref="C"/></Root></Loggers></Configuration>"#;
    assert_eq!(
        level_pair(appenders_first, "C"),
        (Level::ERROR, Level::DEBUG)
    );
    let loggers_first = r#"<Configuration><Loggers><Root level="trace"><AppenderRef ref="C"/></Root></Loggers>
  <Appenders><Console name="C"><PatternLayout/></Console></Appenders></Configuration>"#;
    assert_eq!(level_pair(loggers_first, "C"), (Level::TRACE, Level::TRACE));
    let root_without_level = r#"<Configuration><Loggers><Root><AppenderRef ref="C"/></Root></Loggers>
  <Appenders><Console name="C"><PatternLayout/></Console></Appenders></Configuration>"#;
    assert_eq!(
        level_pair(root_without_level, "C"),
        (Level::ERROR, Level::ERROR)
    );
}

#[test]
fn the_rolling_sample_binds_without_diagnostics() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../config-samples/log4j2-rolling.xml");
    let config = crate::load_file(&path).unwrap();
    assert!(config.diagnostics.is_empty(), "{:#?}", config.diagnostics);
    let AppenderKind::RollingFile(file) = &config.appender("RollingFile").unwrap().kind else {
        panic!("RollingFile");
    };
    assert_eq!(file.rolling.policies.len(), 3);
    assert!(matches!(
        &file.rolling.strategy,
        crate::model::RolloverStrategySpec::Default { max: 20, min: 1, actions, .. } if actions.len() == 1
    ));
    let AppenderKind::RollingMemoryMappedFile(mapped) =
        &config.appender("RollingMemoryMappedFile").unwrap().kind
    else {
        panic!("RollingMemoryMappedFile");
    };
    assert_eq!(mapped.rolling.file_name, None);
}

#[test]
fn cron_parts_log4j2_reads_differently_are_warned_about() {
    let config = load(
        r#"<Configuration><Appenders>
  <RollingFile name="A" fileName="a.log" filePattern="a-%i.log"><CronTriggeringPolicy schedule="0 0 0 ? * MON-FRI/2"/></RollingFile>
  <RollingFile name="B" fileName="b.log" filePattern="b-%i.log"><CronTriggeringPolicy schedule="0 0 0 * * ? 2030 x"/></RollingFile>
</Appenders><Loggers><Root/></Loggers></Configuration>"#,
    );
    let warnings: Vec<(String, u32)> = config
        .diagnostics_at_least(crate::Severity::Warning)
        .map(|d| (d.message.clone(), d.position.unwrap().line))
        .collect();
    assert!(
        warnings.iter().any(|(message, line)| message
            .contains("log4j2 ignores the step of 'MON-FRI/2'")
            && *line == 2),
        "{warnings:#?}"
    );
    assert!(
        warnings
            .iter()
            .any(|(message, line)| message.contains("fields after the year ('x')") && *line == 3),
        "{warnings:#?}"
    );
    assert_eq!(config.appenders.len(), 2, "both schedules are used");
}

#[test]
fn rolling_mistakes_are_errors_with_positions() {
    let config = load(
        r#"<Configuration><Appenders>
  <RollingFile name="A" fileName="a.log" filePattern="a-%x.log"><SizeBasedTriggeringPolicy/></RollingFile>
  <RollingFile name="B" fileName="b.log" filePattern="b-%i.log"><SizeBasedTriggeringPolicy size="ten MB"/></RollingFile>
  <RollingFile name="C" fileName="c.log" filePattern="c-%i.log"><CronTriggeringPolicy schedule="0 0 25 * * ?"/></RollingFile>
  <RollingFile name="D" fileName="d.log" filePattern="d-%i.log"><TimeBasedTriggeringPolicy/></RollingFile>
  <RollingFile name="E" filePattern="e-%i.log"><SizeBasedTriggeringPolicy/><DefaultRolloverStrategy/></RollingFile>
  <RollingFile name="F" fileName="f.log"><SizeBasedTriggeringPolicy/></RollingFile>
</Appenders><Loggers><Root/></Loggers></Configuration>"#,
    );
    let errors: Vec<(String, Option<crate::Position>)> = config
        .diagnostics_at_least(crate::Severity::Error)
        .map(|d| (d.message.clone(), d.position))
        .collect();
    let find = |needle: &str| {
        errors
            .iter()
            .find(|(message, _)| message.contains(needle))
            .unwrap_or_else(|| panic!("no error containing {needle:?} in {errors:#?}"))
    };
    assert_eq!(
        find("Unrecognized conversion specifier [x]")
            .1
            .unwrap()
            .line,
        2
    );
    assert_eq!(
        find("Unable to parse numeric part of size").1.unwrap().line,
        3
    );
    assert_eq!(find("Invalid cron expression").1.unwrap().line, 4);
    assert_eq!(find("Pattern does not contain a date").1.unwrap().line, 5);
    find("When no file name is provided a DirectFileRolloverStrategy must be configured");
    // RollingFile's builder requires filePattern.
    find("The parameter is null: filePattern");
    find("Arguments given for element RollingFile are invalid: field 'filePattern' has invalid value 'null'");
    let names: Vec<&str> = config.appenders.iter().map(|a| a.name.as_str()).collect();
    // B and C keep log4j2's fallbacks (10 MB, daily at midnight); the others are not created.
    assert_eq!(names, ["B", "C"]);
}

#[test]
fn compression_l4rs_lacks_is_a_warning_with_its_position() {
    let config = load(
        r#"<Configuration><Appenders>
  <RollingFile name="A" fileName="a.log" filePattern="a-%i.log.gz"><SizeBasedTriggeringPolicy/></RollingFile>
  <RollingFile name="B" fileName="b.log"
               filePattern="b-%i.log.pack200"><SizeBasedTriggeringPolicy/></RollingFile>
  <RollingFile name="C" fileName="c.log" filePattern="c-%i.log.xz"><SizeBasedTriggeringPolicy/></RollingFile>
</Appenders><Loggers><Root/></Loggers></Configuration>"#,
    );
    let warnings: Vec<(String, u32)> = config
        .diagnostics
        .iter()
        .filter(|d| d.severity == crate::Severity::Warning)
        .map(|d| (d.message.clone(), d.position.map_or(0, |p| p.line)))
        .collect();
    assert_eq!(warnings.len(), 2, "{warnings:#?}");
    assert!(warnings[0]
        .0
        .contains(".pack200 compression is not available"));
    // The position is the filePattern attribute's, on the element's second line.
    assert_eq!(warnings[0].1, 4);
    assert!(warnings[1].0.contains(".xz compression is not available"));
    assert_eq!(warnings[1].1, 5);
    // The appenders are still created; they roll uncompressed.
    assert_eq!(config.appenders.len(), 3);
}

#[test]
fn appenders_of_different_kinds_cannot_share_a_file() {
    // Checked with log4j2 2.19: only the first kind on a resource gets a manager; two
    // appenders of one kind share theirs.
    let config = load(
        r#"<Configuration><Appenders>
    <RollingFile name="R1" fileName="x/a.log" filePattern="x/a-%i.log"><SizeBasedTriggeringPolicy/></RollingFile>
    <File name="F1" fileName="x/a.log"/>
    <File name="F2" fileName="x/b.log"/>
    <RollingFile name="R2" fileName="x/b.log" filePattern="x/b-%i.log"><SizeBasedTriggeringPolicy/></RollingFile>
    <RandomAccessFile name="RA" fileName="x/a.log"/>
    <RollingRandomAccessFile name="RR" fileName="x/c.log" filePattern="x/c-%i.log"><SizeBasedTriggeringPolicy/></RollingRandomAccessFile>
    <RollingFile name="R3" fileName="x/c.log" filePattern="x/c-%i.log"><SizeBasedTriggeringPolicy/></RollingFile>
    <RollingFile name="D1" filePattern="x/d-%i.log"><SizeBasedTriggeringPolicy/></RollingFile>
    <File name="D2" fileName="x/d-%i.log"/>
    <File name="F3" fileName="x/b.log"/>
  </Appenders><Loggers><Root/></Loggers></Configuration>"#,
    );
    let names: Vec<&str> = config.appenders.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["R1", "F2", "RR", "D1", "F3"]);
    type Lines<'a> = Vec<(&'a str, u32)>;
    let (nulls, errors): (Lines<'_>, Lines<'_>) = config
        .diagnostics
        .iter()
        .map(|d| (d.message.as_str(), d.position.map_or(0, |p| p.line)))
        .partition(|(message, _)| message.starts_with("Null object returned"));
    assert_eq!(errors.len(), 5, "{errors:#?}");
    assert_eq!(
        nulls,
        [
            ("Null object returned for File in Appenders.", 3),
            ("Null object returned for RollingFile in Appenders.", 5),
            ("Null object returned for RandomAccessFile in Appenders.", 6),
            ("Null object returned for RollingFile in Appenders.", 8),
            ("Null object returned for File in Appenders.", 10),
        ]
    );
    assert_eq!(
        errors[0],
        (
            "Could not create plugin of type class org.apache.logging.log4j.core.appender.FileAppender for element File: java.lang.ClassCastException: class org.apache.logging.log4j.core.appender.FileManager$FactoryData cannot be cast to class org.apache.logging.log4j.core.appender.rolling.RollingFileManager$FactoryData",
            3
        )
    );
    assert_eq!(
        errors[1],
        (
            "Could not create plugin of type class org.apache.logging.log4j.core.appender.RollingFileAppender for element RollingFile org.apache.logging.log4j.core.config.ConfigurationException: Configuration has multiple incompatible Appenders pointing to the same resource 'x/b.log'",
            5
        )
    );
    assert!(config.diagnostics[1]
        .help
        .as_deref()
        .is_some_and(|help| help.starts_with("appender F2 already writes 'x/b.log'")));
    assert_eq!(
        errors[2..].iter().map(|e| e.1).collect::<Vec<_>>(),
        [6, 8, 10]
    );
}

#[test]
fn only_a_first_properties_element_is_used_and_others_are_skipped_silently() {
    // As log4j2 does (checked with the oracle): `<Properties>` counts only as the first
    // element; a later one, or one after other elements, is ignored without a word.
    let first = load(
        r#"<Configuration><Properties><Property name="a">A</Property></Properties>
  <Properties><Property name="b">B</Property></Properties>
  <Appenders><Console name="C"><PatternLayout pattern="${a}|${b}"/></Console></Appenders>{MINIMAL}</Configuration>"#
            .replace("{MINIMAL}", MINIMAL_LOGGERS)
            .as_str(),
    );
    assert_eq!(pattern(&first, "C"), "A|${b}");
    assert!(first.diagnostics.is_empty(), "{:?}", messages(&first));
    let later = load(
        r#"<Configuration><Appenders><Console name="C"><PatternLayout pattern="${a}"/></Console></Appenders>
  <Properties><Property name="a">A</Property></Properties>{MINIMAL}</Configuration>"#
            .replace("{MINIMAL}", MINIMAL_LOGGERS)
            .as_str(),
    );
    assert_eq!(pattern(&later, "C"), "${a}");
    assert!(later.diagnostics.is_empty(), "{:?}", messages(&later));
    assert!(later.properties.is_empty());
}

#[test]
fn the_unused_buffer_size_is_reported_once() {
    let config = load(&format!(
        r#"<Configuration><Appenders><Console name="C"/>
  <File name="F" fileName="/tmp/l4rs-unused.log" bufferedIO="false" bogus="1"/></Appenders>{MINIMAL_LOGGERS}</Configuration>"#
    ));
    // After the leftover attribute, as log4j2's builder reports it when it is built.
    assert_eq!(
        messages(&config),
        [
            "File contains an invalid element or attribute \"bogus\"",
            "The bufferSize is set to 8192 but bufferedIo is false: false",
        ]
    );
}

#[test]
fn a_malformed_file_reports_log4j2s_two_lines_with_the_position_as_help() {
    let error = load_str(
        "<Configuration>\n  <Appenders>\n</Configuration>",
        Some(Path::new("/test/bad.xml")),
    )
    .unwrap_err();
    let ((), records) = l4rs_core::status::capture(|| error.report());
    let lines: Vec<String> = records
        .iter()
        .map(|r| format!("{} {}", r.level, r.message))
        .collect();
    assert_eq!(
        lines,
        [
            "ERROR Error parsing /test/bad.xml (help: /test/bad.xml:3:1: ill-formed document: expected `</Appenders>`, but `</Configuration>` was found)",
            "ERROR No logging configuration",
        ]
    );
    // The error itself still leads with the position.
    assert!(
        error
            .to_string()
            .starts_with("Error parsing /test/bad.xml:3:1: "),
        "{error}"
    );
}

#[test]
fn conversion_warnings_end_with_javas_exception_text() {
    let config = load(&format!(
        r#"<Configuration><Appenders>
  <Console name="C" target=" system_err "><PatternLayout charset="a b"/>
    <BurstFilter level=" nope " rate=" "/></Console>
  <Console name="D"><PatternLayout charset="no-such"/><BurstFilter rate=" 1.5x "/></Console>
</Appenders>{MINIMAL_LOGGERS}</Configuration>"#
    ));
    let messages = messages(&config);
    // Texts from log4j2 2.19 (oracle): enums are upper-cased but not trimmed,
    // levels and floats are trimmed, and a charset name Java finds illegal is another exception.
    for expected in [
        "Error while converting string [ system_err ] to type [class org.apache.logging.log4j.core.appender.ConsoleAppender$Target]. Using default value [null]. java.lang.IllegalArgumentException: No enum constant org.apache.logging.log4j.core.appender.ConsoleAppender.Target. SYSTEM_ERR ",
        "Error while converting string [a b] to type [class java.nio.charset.Charset]. Using default value [null]. java.nio.charset.IllegalCharsetNameException: a b",
        "Error while converting string [ nope ] to type [class org.apache.logging.log4j.Level]. Using default value [null]. java.lang.IllegalArgumentException: Unknown level constant [NOPE].",
        "Error while converting string [ ] to type [float]. Using default value [null]. java.lang.NumberFormatException: empty String",
        "Error while converting string [no-such] to type [class java.nio.charset.Charset]. Using default value [null]. java.nio.charset.UnsupportedCharsetException: no-such",
        "Error while converting string [ 1.5x ] to type [float]. Using default value [null]. java.lang.NumberFormatException: For input string: \"1.5x\"",
    ] {
        assert!(messages.iter().any(|m| m == expected), "missing {expected:?} in {messages:#?}");
    }
    // The untrimmed target is no target: the default, SYSTEM_OUT.
    assert!(
        matches!(&config.appender("C").unwrap().kind, AppenderKind::Console(c) if c.target == ConsoleTarget::SystemOut)
    );
}

#[test]
fn monitor_resources_name_the_files_to_watch() {
    let config = load(&format!(
        r#"<Configuration monitorInterval="5"><MonitorResources>
    <MonitorResource uri="file:///etc/app/extra.xml"/>
    <MonitorResource uri="file:relative.properties"/>
    <MonitorResource uri="/plain/path"/>
    <MonitorResource/>
  </MonitorResources><Appenders><Console name="C"/></Appenders>{MINIMAL_LOGGERS}</Configuration>"#
    ));
    assert_eq!(config.monitor_interval_seconds, 5);
    assert_eq!(
        config.monitor_resources,
        [
            PathBuf::from("/etc/app/extra.xml"),
            PathBuf::from("relative.properties"),
            PathBuf::from("/plain/path"),
        ]
    );
    // The one without a uri is refused as log4j2's factory refuses it; nothing else is said.
    assert_eq!(
        messages(&config),
        ["Unable to invoke factory method in class org.apache.logging.log4j.core.config.MonitorResource for element MonitorResource: java.lang.NullPointerException: uri java.lang.reflect.InvocationTargetException"]
    );
}
