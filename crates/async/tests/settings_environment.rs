//! The async settings read from the environment variables log4j2 derives from its property
//! names. One test in its own binary: it sets process-wide environment variables.

use l4rs_async::{AsyncSettings, QueueFullPolicy};
use l4rs_core::Level;

#[test]
fn environment_variables_set_the_policy_threshold_and_ring_size() {
    std::env::set_var(
        "LOG4J_ASYNC_QUEUE_FULL_POLICY",
        "DiscardingAsyncQueueFullPolicy",
    );
    std::env::set_var("LOG4J_DISCARD_THRESHOLD", "warn");
    std::env::set_var("LOG4J_ASYNC_LOGGER_CONFIG_RING_BUFFER_SIZE", "300");
    let settings = AsyncSettings::from_environment();
    assert_eq!(
        settings.queue_full_policy,
        QueueFullPolicy::Discard {
            threshold: Level::WARN
        }
    );
    assert_eq!(
        settings.ring_buffer_size, 512,
        "rounded up to a power of two"
    );

    // An l4rs system property (log4j2's system property) wins over the environment.
    l4rs_config::set_system_property("log4j2.asyncQueueFullPolicy", "Default");
    assert_eq!(
        AsyncSettings::from_environment().queue_full_policy,
        QueueFullPolicy::Block
    );
}
