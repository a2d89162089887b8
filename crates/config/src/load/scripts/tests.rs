use super::*;
use crate::model::{ActionSpec, AppenderKind, Configuration, LayoutSpec, RolloverStrategySpec};

/// `xml` loaded with `log4j2.Script.enableLanguages` giving `languages` (`None`: not set),
/// with the messages of the load.
fn load_with(xml: &str, languages: Option<&[&str]>) -> (Configuration, Vec<String>) {
    let root = crate::xml::parse_str(xml, None).expect("well-formed");
    let languages = languages.map(|list| list.iter().map(|l| l.to_lowercase()).collect());
    let options = crate::LoadOptions {
        apply_status_level: false,
    };
    let configuration = super::super::bind_with_script_languages(&root, None, options, languages);
    let messages = super::super::diagnostic_messages(&configuration);
    (configuration, messages)
}

/// The rollover actions of the first appender, a RollingFile with the default strategy.
fn rollover_actions(config: &Configuration) -> &[ActionSpec] {
    let AppenderKind::RollingFile(file) = &config.appenders[0].kind else {
        panic!("a rolling appender: {:?}", config.appenders[0].kind);
    };
    let RolloverStrategySpec::Default { actions, .. } = &file.rolling.strategy else {
        panic!("the default strategy");
    };
    actions
}

/// A configuration whose appender `f` is a RollingFile with `action` in its default strategy.
fn rolling_with_action(action: &str) -> String {
    configuration(
        "",
        &format!(
            r#"<RollingFile name="f" fileName="/tmp/l4rs-r.log" filePattern="/tmp/l4rs-r-%i.log">
                 <SizeBasedTriggeringPolicy size="1MB"/>
                 <DefaultRolloverStrategy>{action}</DefaultRolloverStrategy>
               </RollingFile>"#
        ),
    )
}

fn load(xml: &str) -> (Configuration, Vec<String>) {
    load_with(xml, None)
}

/// A configuration with `appenders` and a root logger writing to `f`, and `extra` before them.
fn configuration(extra: &str, appenders: &str) -> String {
    format!(
        r#"<Configuration>{extra}<Appenders>{appenders}</Appenders><Loggers><Root level="info"><AppenderRef ref="f"/></Root></Loggers></Configuration>"#
    )
}

const FILE: &str = r#"<File name="f" fileName="/tmp/l4rs-scripts-test.log"><PatternLayout pattern="%m%n"/></File>"#;

#[test]
fn a_script_filter_is_refused_and_the_rest_loads() {
    let xml = configuration(
        r#"<ScriptFilter onMatch="ACCEPT" onMismatch="DENY"><Script name="s" language="groovy">true</Script></ScriptFilter>"#,
        FILE,
    );
    let (config, messages) = load(&xml);
    assert_eq!(messages, ["Script support is not enabled"]);
    assert!(config.filter.is_none(), "no context-wide filter");
    assert_eq!(config.appenders.len(), 1);
    let help = config.diagnostics[0].help.as_deref().unwrap_or_default();
    assert!(
        help.contains(ENABLE_LANGUAGES_PROPERTY) && help.contains("RegexFilter"),
        "{help}"
    );
}

#[test]
fn messages_come_in_log4j2s_order_for_a_filter_without_a_usable_script() {
    let xml = configuration(
        r#"<Filters>
             <ScriptFilter onMatch="bogus"><ScriptRef ref="a"/><ScriptRef ref="b"/></ScriptFilter>
             <ScriptFilter><Script name="empty" language="groovy"/></ScriptFilter>
             <ThresholdFilter level="info"/>
           </Filters>"#,
        FILE,
    );
    let (config, messages) = load(&xml);
    assert!(
        messages[0].starts_with("Error while converting string [bogus]"),
        "{messages:?}"
    );
    assert_eq!(
        messages[1..],
        [
            "filter ScriptFilter has no parameter that matches element ScriptRef",
            "Script support is not enabled",
            "No 'scriptText' attribute provided for Script plugin 'empty'",
            "A Script, ScriptFile or ScriptRef element must be provided for this ScriptFilter",
            "Null object returned for ScriptFilter in Filters.",
            "Null object returned for ScriptFilter in Filters.",
        ]
    );
    assert!(
        matches!(&config.filter, Some(crate::model::FilterSpec::Composite(filters)) if filters.len() == 1),
        "the threshold filter stays: {:?}",
        config.filter
    );
}

#[test]
fn the_scripts_element_checks_each_script_and_refuses_references() {
    let xml = configuration(
        r#"<Scripts>
             <Script name="nolang">true</Script>
             <Script name="notext" language="groovy"/>
             <ScriptFile/>
             <ScriptRef/>
             <ScriptRef ref="elsewhere"/>
             <Property name="odd">v</Property>
           </Scripts>"#,
        FILE,
    );
    let (config, messages) = load(&xml);
    assert_eq!(
        messages,
        [
            "No 'language' attribute provided for Script plugin 'nolang'",
            "No 'scriptText' attribute provided for Script plugin 'notext'",
            "No script path provided for ScriptFile",
            "No script name provided",
            "Null object returned for Script in Scripts.",
            "Null object returned for ScriptFile in Scripts.",
            "Null object returned for ScriptRef in Scripts.",
            "scripts Scripts has no parameter that matches element Property",
            "Script reference to elsewhere not added. Scripts definition cannot contain script references",
        ]
    );
    assert_eq!(config.appenders.len(), 1);
}

#[test]
fn a_script_file_is_checked_and_its_language_follows_its_extension() {
    let dir = std::env::temp_dir().join(format!("l4rs-script-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let groovy = dir.join("filter.groovy");
    let plain = dir.join("filter.txt");
    std::fs::write(&groovy, "true").expect("write");
    std::fs::write(&plain, "true").expect("write");
    let missing = dir.join("missing.js");
    let xml = configuration(
        &format!(
            r#"<Scripts>
                 <ScriptFile path="{}"/>
                 <ScriptFile name="plain" path="file://{}" charset="ISO-8859-1"/>
                 <ScriptFile path="{}"/>
                 <ScriptFile path="{}" charset="ISO-8859-1"/>
                 <ScriptFile path="/dev/zero" language="groovy"/>
                 <ScriptFile path="https://example.com/filter.js"/>
               </Scripts>"#,
            groovy.display(),
            plain.display(),
            missing.display(),
            dir.display()
        ),
        FILE,
    );
    let (_, disabled) = load(&xml);
    assert_eq!(
        disabled,
        [
            "No script language supplied, defaulting to JavaScript".to_string(),
            format!(
                "FileNotFoundException: language=JavaScript, path={}, actualCharset=UTF-8",
                missing.display()
            ),
            "No script language supplied, defaulting to JavaScript".to_string(),
            format!(
                "FileNotFoundException: language=JavaScript, path={}, actualCharset=ISO-8859-1",
                dir.display()
            ),
            // Never read: it has no end.
            "IOException: language=groovy, path=/dev/zero, actualCharset=UTF-8".to_string(),
            // Not fetched, and its extension gives no language: log4j2 maps it for files only.
            "No script language supplied, defaulting to JavaScript".to_string(),
            "IOException: language=JavaScript, path=https://example.com/filter.js, actualCharset=UTF-8".to_string(),
            "Null object returned for ScriptFile in Scripts.".to_string(),
            "Null object returned for ScriptFile in Scripts.".to_string(),
            "Null object returned for ScriptFile in Scripts.".to_string(),
            "Null object returned for ScriptFile in Scripts.".to_string(),
        ]
    );
    // With scripting on, the two that were read are offered to the script manager.
    let (_, enabled) = load_with(&xml, Some(&["groovy"]));
    assert_eq!(
        enabled[enabled.len() - 2..],
        [
            "No ScriptEngine found for language Groovy. Available languages are: ".to_string(),
            "Unable to add script plain, JavaScript has not been configured as an allowed language"
                .to_string(),
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn extensions_map_to_log4j2s_languages() {
    assert_eq!(language_of_extension("a/b/c.js"), Some("JavaScript"));
    assert_eq!(language_of_extension("c.gvy"), Some("Groovy"));
    assert_eq!(language_of_extension("c.clj"), Some("Clojure"));
    assert_eq!(language_of_extension("c.JS"), None, "compared as written");
    assert_eq!(
        language_of_extension(".js"),
        None,
        "a leading dot is no extension"
    );
    assert_eq!(language_of_extension("dir.js/file"), None);
    assert_eq!(language_of_extension("c."), None);
}

#[test]
fn with_languages_enabled_the_script_manager_has_no_engine() {
    let xml = configuration(
        r#"<Scripts><Script name="declared" language="JavaScript">true</Script></Scripts>
           <ScriptFilter><ScriptRef ref="declared"/></ScriptFilter>"#,
        &format!(
            r#"{FILE}<File name="g" fileName="/tmp/l4rs-scripts-test-g.log">
                 <PatternLayout pattern="%m%n"><ScriptPatternSelector defaultPattern="%m%n">
                   <Script name="python" language="python">"k"</Script>
                 </ScriptPatternSelector></PatternLayout></File>"#
        ),
    );
    let (config, messages) = load_with(&xml, Some(&["groovy", "javascript"]));
    assert_eq!(
        messages,
        [
            "No ScriptEngine found for language JavaScript. Available languages are: ",
            "No script with name declared has been declared.",
            "Unable to add script python, python has not been configured as an allowed language",
        ]
    );
    let layout = &config.appenders[1].layout;
    assert!(
        matches!(layout, Some(LayoutSpec::Pattern(spec)) if spec.selector.is_none() && spec.pattern == "%m%n"),
        "the layout keeps its own pattern: {layout:?}"
    );
}

#[test]
fn a_script_arbiter_drops_its_elements_and_a_select_goes_on_past_it() {
    let xml = r#"<Configuration>
      <ScriptArbiter>
        <Script name="arb" language="JavaScript">true;</Script>
        <Appenders><File name="dropped" fileName="/tmp/l4rs-dropped.log"/></Appenders>
        <Select><Console name="misplaced"/></Select>
      </ScriptArbiter>
      <Appenders>
        <Select>
          <ScriptArbiter><ScriptRef ref="nothing"/><File name="f" fileName="/tmp/l4rs-script.log"/></ScriptArbiter>
          <DefaultArbiter><File name="f" fileName="/tmp/l4rs-default.log"/></DefaultArbiter>
        </Select>
      </Appenders>
      <Loggers><Root level="info"><AppenderRef ref="f"/></Root></Loggers>
    </Configuration>"#;
    let (config, messages) = load(xml);
    assert_eq!(
        messages,
        [
            "Script support is not enabled",
            "Exception processing class org.apache.logging.log4j.core.config.arbiters.ScriptArbiter: Ignoring and including children",
            // The arbiters inside are still processed, though their elements are dropped.
            "Invalid Node Console for Select. Must be a Condition",
            // The Select's ScriptArbiter (its reference names nothing, which is not checked).
            "Script support is not enabled",
        ]
    );
    let names: Vec<&str> = config.appenders.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["f"]);
    assert!(
        matches!(&config.appenders[0].kind, AppenderKind::File(file) if file.file_name.ends_with("l4rs-default.log")),
        "the default arbiter's appender: {:?}",
        config.appenders[0].kind
    );
}

#[test]
fn a_delete_with_a_script_condition_deletes_nothing() {
    let xml = rolling_with_action(
        r#"<Delete basePath="/tmp">
             <ScriptCondition><Script name="sc" language="groovy">pathList</Script></ScriptCondition>
             <IfFileName glob="*.old"/>
           </Delete>"#,
    );
    let (config, messages) = load(&xml);
    assert_eq!(messages[0], "Script support is not enabled");
    assert!(
        messages[1].starts_with("Delete action on /tmp is not created"),
        "{messages:?}"
    );
    let actions = rollover_actions(&config);
    assert!(
        !actions
            .iter()
            .any(|action| matches!(action, ActionSpec::Delete(_))),
        "{actions:?}"
    );
}

#[test]
fn a_script_appender_selector_checks_its_fields_then_is_refused() {
    let xml = configuration(
        "",
        &format!(
            r#"{FILE}
            <ScriptAppenderSelector><AppenderSet/></ScriptAppenderSelector>
            <ScriptAppenderSelector name="noset"><Script language="groovy">"a"</Script></ScriptAppenderSelector>
            <ScriptAppenderSelector name="sel">
              <Script language="groovy">"a"</Script>
              <AppenderSet><File fileName="/tmp/l4rs-unnamed.log"/><File name="a" fileName="/tmp/l4rs-a.log"/></AppenderSet>
            </ScriptAppenderSelector>"#
        ),
    );
    let (config, messages) = load(&xml);
    assert_eq!(
        messages,
        [
            "The parameter is null: name",
            "The parameter is null: script",
            "Could not create plugin of type class org.apache.logging.log4j.core.appender.ScriptAppenderSelector for element ScriptAppenderSelector org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element ScriptAppenderSelector are invalid: field 'name' has invalid value 'null', field 'script' has invalid value 'null'",
            "The parameter is null: appenderSet",
            "Could not create plugin of type class org.apache.logging.log4j.core.appender.ScriptAppenderSelector for element ScriptAppenderSelector org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element ScriptAppenderSelector are invalid: field 'appenderSet' has invalid value 'null'",
            "The attribute 'name' is missing from the node null in AppenderSet [null, null]",
            "Script support is not enabled",
            "Null object returned for ScriptAppenderSelector in Appenders.",
            "Null object returned for ScriptAppenderSelector in Appenders.",
            "Null object returned for ScriptAppenderSelector in Appenders.",
        ]
    );
    let names: Vec<&str> = config.appenders.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["f"], "nothing inside an AppenderSet is built");
}

#[test]
fn routing_scripts_are_refused_with_the_script_managers_words() {
    let xml = configuration(
        "",
        r#"<Routing name="f"><Routes><Script name="r" language="groovy">"a"</Script><Route key="a">
             <File name="a" fileName="/tmp/l4rs-route.log"/></Route></Routes></Routing>"#,
    );
    let (_, disabled) = load(&xml);
    assert_eq!(
        disabled,
        [
            "Script support is not enabled",
            "No routes defined for RoutingAppender f",
            "Null object returned for Routing in Appenders.",
        ]
    );
    let (_, enabled) = load_with(&xml, Some(&["groovy"]));
    let engine = "No ScriptEngine found for language groovy. Available languages are: ";
    // log4j2's Routes builder tries twice.
    assert_eq!(
        enabled.iter().filter(|m| *m == engine).count(),
        2,
        "{enabled:?}"
    );
}

#[test]
fn the_languages_are_split_as_java_splits_them() {
    assert_eq!(split_list("groovy"), ["groovy"]);
    assert_eq!(split_list("Groovy , JavaScript"), ["groovy", "javascript"]);
    assert_eq!(
        split_list(" groovy"),
        [" groovy"],
        "only the blanks next to a comma go"
    );
    assert_eq!(
        split_list("groovy,,"),
        ["groovy"],
        "trailing empty items are dropped"
    );
    assert_eq!(split_list(",groovy"), ["", "groovy"]);
    assert_eq!(
        split_list(""),
        [""],
        "an empty value allows the empty name only"
    );
}

#[test]
fn a_reference_with_languages_enabled_fails_as_each_plugin_fails_in_log4j2() {
    let xml = configuration(
        r#"<Scripts><Script name="declared" language="groovy">"a"</Script></Scripts>"#,
        r#"<ScriptAppenderSelector name="chosen"><ScriptRef ref="declared"/>
             <AppenderSet><File name="a" fileName="/tmp/l4rs-a.log"/></AppenderSet></ScriptAppenderSelector>
           <Routing name="routed"><Routes><ScriptRef ref="declared"/>
             <Route key="a"><File name="routed-a" fileName="/tmp/l4rs-routed-a.log"/></Route></Routes></Routing>
           <Routing name="f"><Routes pattern="a"><Route key="a"><File name="f-a" fileName="/tmp/l4rs-f-a.log"/></Route></Routes>
             <ScriptRef ref="declared"/></Routing>"#,
    );
    let (config, messages) = load_with(&xml, Some(&["groovy"]));
    let npe = "java.lang.NullPointerException: Cannot invoke \"String.toLowerCase(java.util.Locale)\" because the return value of \"org.apache.logging.log4j.core.script.AbstractScript.getLanguage()\" is null";
    let threw = |class: &str, element: &str| {
        [
            format!("Could not create plugin of type class {class} for element {element}: {npe} {npe}"),
            format!("Unable to invoke factory method in class {class} for element {element}: java.lang.IllegalStateException: No factory method found for class {class} java.lang.IllegalStateException: No factory method found for class {class}"),
        ]
    };
    let mut expected =
        vec!["No ScriptEngine found for language groovy. Available languages are: ".to_string()];
    expected.extend(threw(
        "org.apache.logging.log4j.core.appender.ScriptAppenderSelector",
        "ScriptAppenderSelector",
    ));
    expected.extend(threw(
        "org.apache.logging.log4j.core.appender.routing.Routes",
        "Routes",
    ));
    expected.push("No routes defined for RoutingAppender routed".to_string());
    // log4j2 creates this one and then fails to start the configuration; l4rs refuses it.
    expected.push("No script with name declared has been declared.".to_string());
    expected.extend(
        ["ScriptAppenderSelector", "Routing", "Routing"]
            .map(|element| format!("Null object returned for {element} in Appenders.")),
    );
    assert_eq!(messages, expected);
    assert!(config.appenders.is_empty(), "{:?}", config.appenders);
}

#[test]
fn an_appender_set_with_many_unnamed_appenders_gives_messages_of_bounded_size() {
    let unnamed = r#"<Null/>"#.repeat(1000);
    let xml = configuration(
        "",
        &format!(
            r#"<ScriptAppenderSelector name="s"><Script language="groovy">"a"</Script><AppenderSet>{unnamed}</AppenderSet></ScriptAppenderSelector>"#
        ),
    );
    let (_, messages) = load(&xml);
    let about_unnamed: Vec<&String> = messages
        .iter()
        .filter(|m| m.starts_with("The attribute 'name' is missing"))
        .collect();
    assert_eq!(about_unnamed.len(), 1000);
    assert!(
        about_unnamed[0].ends_with(", … (1000 in all)]"),
        "{}",
        about_unnamed[0]
    );
    assert!(about_unnamed.iter().all(|m| m.len() < 300));
}

#[test]
fn a_selector_refuses_its_missing_fields_before_its_leftover_attributes() {
    let xml = configuration(
        "",
        &format!(
            r#"{FILE}<ScriptAppenderSelector name="" bogus="1"><AppenderSet/></ScriptAppenderSelector>"#
        ),
    );
    let (_, messages) = load(&xml);
    assert_eq!(
        messages[..3],
        [
            "The parameter is null: name",
            "The parameter is null: script",
            "Could not create plugin of type class org.apache.logging.log4j.core.appender.ScriptAppenderSelector for element ScriptAppenderSelector org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element ScriptAppenderSelector are invalid: field 'name' has invalid value '', field 'script' has invalid value 'null'",
        ]
    );
    assert!(
        !messages.iter().any(|m| m.contains("bogus")),
        "{messages:?}"
    );
}

#[test]
fn a_posix_view_attribute_keeps_its_action_past_a_script_condition_as_log4j2_does() {
    let xml = rolling_with_action(
        r#"<PosixViewAttribute basePath="/tmp/l4rs-posix" filePermissions="rw-r-----">
             <ScriptCondition><Script language="groovy">pathList</Script></ScriptCondition>
             <IfFileName glob="*.log"/>
           </PosixViewAttribute>"#,
    );
    let (config, messages) = load(&xml);
    assert_eq!(
        messages,
        [
            "Script support is not enabled",
            "PosixViewAttribute has no parameter that matches element ScriptCondition",
        ]
    );
    let actions = rollover_actions(&config);
    assert!(
        matches!(actions, [ActionSpec::PosixViewAttribute(_)]),
        "{actions:?}"
    );
}
