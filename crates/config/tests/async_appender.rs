//! Binding of `<Async>`: log4j2's defaults, aliases, references and the problems that leave the
//! appender out.

use l4rs_config::model::{AppenderKind, AsyncAppenderSpec};
use l4rs_config::{load_str, Configuration, Severity};
use l4rs_core::Level;

fn load(appenders: &str) -> Configuration {
    let xml = format!(
        r#"<Configuration><Appenders>
  <Console name="C"/>
  {appenders}
</Appenders><Loggers><Root level="info"><AppenderRef ref="C"/></Root></Loggers></Configuration>"#
    );
    load_str(&xml, None).expect("well-formed")
}

fn async_spec<'a>(config: &'a Configuration, name: &str) -> &'a AsyncAppenderSpec {
    match &config.appender(name).expect("appender bound").kind {
        AppenderKind::Async(spec) => spec,
        other => panic!("not an Async appender: {other:?}"),
    }
}

/// Every message of the load, in order.
fn messages(config: &Configuration) -> Vec<&str> {
    config
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect()
}

fn errors(config: &Configuration) -> Vec<String> {
    let errors = config.diagnostics_at_least(Severity::Error);
    errors.map(|d| d.message.clone()).collect()
}

#[test]
fn defaults_follow_log4j2() {
    let config = load(r#"<Async name="A"><AppenderRef ref="C"/></Async>"#);
    assert!(errors(&config).is_empty(), "{:?}", errors(&config));
    let spec = async_spec(&config, "A");
    assert_eq!(spec.buffer_size, 1024);
    assert!(spec.blocking);
    assert_eq!(spec.shutdown_timeout_ms, 0);
    assert!(!spec.include_location);
    assert_eq!(spec.error_ref, None);
    assert_eq!(spec.appender_refs.len(), 1);
    assert!(config.appender("A").unwrap().ignore_exceptions);
}

#[test]
fn attributes_aliases_refs_and_filters() {
    let config = load(
        r#"<Async name="A" bufferSize="16" blocking="false" shutdownTimeout="250"
                  includeLocation="true" error-ref="C" ignoreExceptions="false">
             <AppenderRef ref="C" level="warn"/>
             <AppenderRef ref="Other"><ThresholdFilter level="error"/></AppenderRef>
             <ThresholdFilter level="info"/>
             <ArrayBlockingQueue/>
             <Property name="unused">x</Property>
           </Async>"#,
    );
    assert!(errors(&config).is_empty(), "{:?}", errors(&config));
    let appender = config.appender("A").unwrap();
    assert!(!appender.ignore_exceptions);
    assert!(appender.filter.is_some());
    let spec = async_spec(&config, "A");
    assert_eq!(spec.buffer_size, 16);
    assert!(!spec.blocking);
    assert_eq!(spec.shutdown_timeout_ms, 250);
    assert!(spec.include_location);
    assert_eq!(spec.error_ref.as_deref(), Some("C"));
    assert_eq!(spec.appender_refs[0].level, Some(Level::WARN));
    assert_eq!(spec.appender_refs[1].appender, "Other");
    assert!(spec.appender_refs[1].filter.is_some());
}

#[test]
fn problems_are_reported_and_leave_the_appender_out() {
    // log4j2 2.19's builder validation (checked with the oracle): each missing field's message,
    // then the refusal; Java's identity hash of the empty ref array is not reproduced.
    let config = load(r#"<Async name="NoRefs"/>"#);
    assert!(config.appender("NoRefs").is_none());
    assert_eq!(
        errors(&config)[..2],
        [
            "No appender references provided to AsyncAppender",
            "Could not create plugin of type class org.apache.logging.log4j.core.appender.AsyncAppender for element Async org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element Async are invalid: field 'appenderRefs' has invalid value '[Lorg.apache.logging.log4j.core.config.AppenderRef;@…'",
        ]
    );

    let config = load(r#"<Async><AppenderRef ref="C"/></Async>"#);
    assert_eq!(
        errors(&config)[..3],
        [
            "No name provided for AsyncAppender",
            "Could not create plugin of type class org.apache.logging.log4j.core.appender.AsyncAppender for element Async org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element Async are invalid: field 'name' has invalid value 'null'",
            "Null object returned for Async in Appenders.",
        ]
    );

    // log4j2's ArrayBlockingQueue refuses a capacity of 0 as well as a negative one.
    for size in ["-1", "0"] {
        let config = load(&format!(
            r#"<Async name="A" bufferSize="{size}"><AppenderRef ref="C"/></Async>"#
        ));
        assert!(config.appender("A").is_none(), "bufferSize={size}");
        let problem = config
            .diagnostics
            .iter()
            .find(|d| d.severity == Severity::Error)
            .expect("an error");
        assert_eq!(
            problem.message,
            "Could not create plugin of type class org.apache.logging.log4j.core.appender.AsyncAppender for element Async: java.lang.IllegalArgumentException"
        );
        assert!(
            problem.to_string().contains("at least one slot"),
            "{problem}"
        );
    }

    let config =
        load(r#"<Async name="A" bufferSize="8k" colour="red"><AppenderRef ref="C"/></Async>"#);
    assert_eq!(
        async_spec(&config, "A").buffer_size,
        1024,
        "a bad number keeps the default"
    );
    assert!(errors(&config).iter().any(|e| e.contains("\"colour\"")));
}

#[test]
fn the_queue_factory_sets_how_the_queues_thread_waits() {
    use l4rs_config::WaitStrategy;
    use std::time::Duration;
    let park = |retries| WaitStrategy::Sleep {
        retries,
        sleep: Duration::from_nanos(1),
    };
    for (factory, strategy) in [
        ("", WaitStrategy::default()),
        ("<ArrayBlockingQueue/>", WaitStrategy::default()),
        ("<LinkedTransferQueue/>", WaitStrategy::default()),
        ("<DisruptorBlockingQueue/>", WaitStrategy::Yield),
        (
            r#"<DisruptorBlockingQueue spinPolicy="blocking"/>"#,
            WaitStrategy::Block,
        ),
        (
            r#"<DisruptorBlockingQueue SpinPolicy="SPINNING"/>"#,
            WaitStrategy::BusySpin,
        ),
        ("<JCToolsBlockingQueue/>", park(0)),
        (
            r#"<JCToolsBlockingQueue waitStrategy="SPIN"/>"#,
            WaitStrategy::BusySpin,
        ),
        (
            r#"<JCToolsBlockingQueue WaitStrategy="yield"/>"#,
            WaitStrategy::Yield,
        ),
        (r#"<JCToolsBlockingQueue waitStrategy="PARK"/>"#, park(0)),
        (
            r#"<JCToolsBlockingQueue waitStrategy="Progressive"/>"#,
            park(101),
        ),
    ] {
        let config = load(&format!(
            r#"<Async name="A"><AppenderRef ref="C"/>{factory}</Async>"#
        ));
        assert!(
            errors(&config).is_empty(),
            "{factory}: {:?}",
            errors(&config)
        );
        assert_eq!(
            async_spec(&config, "A").wait_strategy,
            strategy,
            "{factory}"
        );
    }
}

#[test]
fn a_queue_factory_value_java_cannot_convert_is_reported_and_the_default_used() {
    let config = load(
        r#"<Async name="A"><AppenderRef ref="C"/><DisruptorBlockingQueue spinPolicy="FAST" size="3"/></Async>"#,
    );
    assert_eq!(
        async_spec(&config, "A").wait_strategy,
        l4rs_config::WaitStrategy::Yield
    );
    assert_eq!(
        messages(&config),
        [
            "Error while converting string [FAST] to type [class com.conversantmedia.util.concurrent.SpinPolicy]. Using default value [WAITING]. java.lang.IllegalArgumentException: No enum constant com.conversantmedia.util.concurrent.SpinPolicy.FAST",
            "DisruptorBlockingQueue contains an invalid element or attribute \"size\"",
        ]
    );
    let config = load(
        r#"<Async name="A"><AppenderRef ref="C"/><JCToolsBlockingQueue waitStrategy="nap"/></Async>"#,
    );
    assert_eq!(
        async_spec(&config, "A").wait_strategy,
        l4rs_config::WaitStrategy::Sleep {
            retries: 0,
            sleep: std::time::Duration::from_nanos(1)
        },
        "PARK, the default"
    );
    assert_eq!(
        config.diagnostics[0].message,
        "Error while converting string [nap] to type [class org.apache.logging.log4j.core.async.JCToolsBlockingQueueFactory$WaitStrategy]. Using default value [PARK]. java.lang.IllegalArgumentException: No enum constant org.apache.logging.log4j.core.async.JCToolsBlockingQueueFactory.WaitStrategy.NAP"
    );
}

#[test]
fn the_first_queue_factory_counts_and_a_later_one_is_reported_after_the_attributes() {
    let config = load(
        r#"<Async name="A" extra="1"><AppenderRef ref="C" odd="2"/><DisruptorBlockingQueue spinPolicy="SPINNING"/><JCToolsBlockingQueue waitStrategy="bad"/></Async>"#,
    );
    assert_eq!(
        async_spec(&config, "A").wait_strategy,
        l4rs_config::WaitStrategy::BusySpin
    );
    assert_eq!(
        messages(&config),
        [
            "AppenderRef contains an invalid element or attribute \"odd\"",
            "Error while converting string [bad] to type [class org.apache.logging.log4j.core.async.JCToolsBlockingQueueFactory$WaitStrategy]. Using default value [PARK]. java.lang.IllegalArgumentException: No enum constant org.apache.logging.log4j.core.async.JCToolsBlockingQueueFactory.WaitStrategy.BAD",
            "Async contains an invalid element or attribute \"extra\"",
            "appender Async has no parameter that matches element JCToolsBlockingQueue",
        ],
        "in document order, as log4j2 builds the children"
    );
}
