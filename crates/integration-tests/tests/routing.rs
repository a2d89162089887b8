//! Routing through a configuration: hierarchy, level inheritance, additivity, AppenderRef
//! levels, filters at every stage, and the `log` crate bridge with `.` and `::` names.

use std::path::PathBuf;
use std::sync::OnceLock;

fn setup() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        l4rs_tests::init_in_fresh_dir("routing", l4rs_tests::hierarchy_routing_config)
    })
}

fn lines(file: &str) -> Vec<String> {
    l4rs_tests::read_lines(&setup().join(file))
}

#[test]
fn hierarchy_levels_additivity_and_filters() {
    let dir = setup();
    let app = l4rs::get_logger("my_app::web");
    assert_eq!(app.level(), l4rs::Level::DEBUG);
    l4rs::debug!(app, "inherits debug from my_app");
    l4rs::trace!(app, "trace is below debug");
    l4rs::warn!(app, "a warning");
    l4rs::warn!(app, "a secret warning");

    // `my_app.db` has no level: it inherits DEBUG from `my_app`, and is not additive.
    let db = l4rs::get_logger("my_app::db::pool");
    l4rs::debug!(db, "pool opened");

    let quiet = l4rs::get_logger("my_app.quiet.inner");
    l4rs::warn!(quiet, "dropped by the ERROR level");
    l4rs::error!(quiet, "kept");

    let other = l4rs::get_logger("other");
    l4rs::warn!(other, "root is at error");
    l4rs::error!(other, "root error");
    l4rs::shutdown();

    assert_eq!(
        l4rs_tests::read_lines(&dir.join("app.log")),
        vec![
            "my_app::web|DEBUG|inherits debug from my_app",
            "my_app::web|WARN|a warning",
            "my_app::web|WARN|a secret warning",
            "my_app.quiet.inner|ERROR|kept",
        ]
    );
    assert_eq!(
        lines("warnings.log"),
        vec![
            "my_app::web|WARN|a warning",
            "my_app.quiet.inner|ERROR|kept"
        ]
    );
    assert_eq!(lines("db.log"), vec!["my_app::db::pool|DEBUG|pool opened"]);
    // Root's appender gets my_app's events without root's level being checked again.
    assert_eq!(
        lines("root.log"),
        vec![
            "my_app::web|DEBUG|inherits debug from my_app",
            "my_app::web|WARN|a warning",
            "my_app::web|WARN|a secret warning",
            "my_app.quiet.inner|ERROR|kept",
            "other|ERROR|root error",
        ]
    );
}
