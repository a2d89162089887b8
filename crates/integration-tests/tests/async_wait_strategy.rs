//! How the asynchronous queues wait: the AsyncLogger queue by log4j2's property, or by the
//! factory a configuration's `<AsyncWaitStrategyFactory>` names when the program registered
//! one; an Async appender's queue by its queue factory element. Every event is still written.

use std::time::Duration;

use l4rs::WaitStrategy;

/// A configuration whose root logs asynchronously to `{dir}/queued.log`, after `top` (elements
/// at the top of the configuration).
fn config(dir: &str, top: &str) -> String {
    format!(
        r#"<Configuration>{top}<Appenders>{}</Appenders><Loggers><AsyncRoot level="info"><AppenderRef ref="Queued"/></AsyncRoot></Loggers></Configuration>"#,
        l4rs_tests::file_appenders(dir, &[("Queued", "%m%n")])
    )
}

fn strategy() -> WaitStrategy {
    l4rs_tests::queue_stats("AsyncLoggerConfig").wait_strategy
}

fn short_timeout() -> WaitStrategy {
    WaitStrategy::Timeout(Duration::from_millis(2))
}

#[test]
fn the_property_then_a_registered_factory_choose_how_the_queue_waits() {
    let logger = l4rs::get_logger("app");
    l4rs::set_system_property("log4j2.asyncLoggerConfigWaitStrategy", "Yield");
    let by_property =
        l4rs_tests::init_in_fresh_dir("async-wait-strategy/property", |dir| config(dir, ""));
    assert_eq!(strategy(), WaitStrategy::Yield);
    l4rs::info!(logger, "by the property");

    l4rs::register_async_wait_strategy_factory("com.example.ShortTimeout", short_timeout);
    let by_factory = l4rs_tests::fresh_output_dir("async-wait-strategy/factory");
    let top = r#"<AsyncWaitStrategyFactory class="com.example.ShortTimeout"/>"#;
    let path =
        l4rs_tests::write_config(&by_factory, &config(&by_factory.display().to_string(), top));
    l4rs::reconfigure_with_file(&path).expect("reloads");
    assert_eq!(
        strategy(),
        short_timeout(),
        "the factory wins over the property"
    );
    l4rs::info!(logger, "by the factory");

    let unknown = l4rs_tests::fresh_output_dir("async-wait-strategy/unknown");
    let top = r#"<AsyncWaitStrategyFactory class="com.example.NotRegistered"/>"#;
    let path = l4rs_tests::write_config(&unknown, &config(&unknown.display().to_string(), top));
    l4rs::reconfigure_with_file(&path).expect("reloads");
    assert_eq!(
        strategy(),
        WaitStrategy::Yield,
        "an unknown class leaves the property"
    );
    l4rs::info!(logger, "back to the property");

    // An Async appender's queue waits as its queue factory element says.
    let spinning = l4rs_tests::fresh_output_dir("async-wait-strategy/appender");
    let xml = format!(
        r#"<Configuration><Appenders>{}<Async name="Spinning"><AppenderRef ref="Queued"/><DisruptorBlockingQueue spinPolicy="SPINNING"/></Async></Appenders><Loggers><Root level="info"><AppenderRef ref="Spinning"/></Root></Loggers></Configuration>"#,
        l4rs_tests::file_appenders(spinning.display(), &[("Queued", "%m%n")])
    );
    let path = l4rs_tests::write_config(&spinning, &xml);
    l4rs::reconfigure_with_file(&path).expect("reloads");
    let appender_queue = l4rs_tests::queue_stats("AsyncAppender Spinning");
    assert_eq!(appender_queue.wait_strategy, WaitStrategy::BusySpin);
    l4rs::info!(logger, "through a spinning Async appender");
    l4rs::shutdown();

    let lines = |dir: &std::path::Path| l4rs_tests::read_lines(&dir.join("queued.log"));
    assert_eq!(lines(&by_property), ["by the property"]);
    assert_eq!(lines(&by_factory), ["by the factory"]);
    assert_eq!(lines(&unknown), ["back to the property"]);
    assert_eq!(lines(&spinning), ["through a spinning Async appender"]);
}
