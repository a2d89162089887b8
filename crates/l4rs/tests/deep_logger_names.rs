//! `get_logger` resolves a name's configured ancestor in one pass over the name: names with
//! 80 000 separators (`.` or `::`) resolve in milliseconds, where hashing every ancestor took
//! seconds (quadratic in the number of separators).

use std::time::{Duration, Instant};

use l4rs::Level;

#[test]
fn names_with_80_000_dots_or_double_colons_resolve_to_their_configured_ancestor() {
    let dir = std::env::temp_dir().join(format!("l4rs-deep-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("log4j2.xml");
    std::fs::write(
        &config,
        r#"<Configuration><Appenders><Console name="C"><PatternLayout pattern="%m%n"/></Console></Appenders>
<Loggers>
  <Logger name="a" level="info"/>
  <Logger name="a.a.a" level="debug"/>
  <Logger name="b::c" level="warn"/>
  <Root level="error"><AppenderRef ref="C"/></Root>
</Loggers></Configuration>"#,
    )
    .unwrap();
    l4rs::init_with_file(&config).expect("configuration loads");
    for (prefix, separator, owner, level) in [
        ("a", ".", "a.a.a", Level::DEBUG),
        ("a", "::", "a.a.a", Level::DEBUG),
        ("b", "::", "", Level::ERROR),
        ("b::c", "::", "b::c", Level::WARN),
        ("b::c", ".", "b::c", Level::WARN),
    ] {
        let name = format!("{prefix}{}", format!("{separator}a").repeat(80_000));
        let started = Instant::now();
        let logger = l4rs::get_logger(&name);
        let elapsed = started.elapsed();
        assert_eq!(logger.config_name(), owner, "{prefix}{separator}…");
        assert_eq!(logger.level(), level, "{prefix}{separator}…");
        assert!(
            elapsed < Duration::from_secs(2),
            "{prefix}{separator}…: {elapsed:?}"
        );
    }
    l4rs::shutdown();
    let _ = std::fs::remove_dir_all(&dir);
}
