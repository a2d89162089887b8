//! The AsyncLogger queue's wait strategy: chosen by log4j2's property, or by the factory a
//! configuration's `<AsyncWaitStrategyFactory>` names when the program registered one, with
//! every event still written.

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
    l4rs::shutdown();

    let lines = |dir: &std::path::Path| l4rs_tests::read_lines(&dir.join("queued.log"));
    assert_eq!(lines(&by_property), ["by the property"]);
    assert_eq!(lines(&by_factory), ["by the factory"]);
    assert_eq!(lines(&unknown), ["back to the property"]);
}
