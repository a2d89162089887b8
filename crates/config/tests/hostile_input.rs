//! Hostile and broken configurations: each is refused or trimmed with a clear diagnostic, in
//! bounded time and memory, and never takes the process down.

use std::fmt::Write as _;

use l4rs_config::load_str;

#[test]
fn two_hundred_thousand_loggers_load_in_linear_time() {
    let count = 200_000;
    let mut xml = String::from(
        "<Configuration status=\"off\">\n<Appenders><Console name=\"C\"/></Appenders>\n<Loggers>\n",
    );
    for i in 0..count {
        writeln!(xml, "  <Logger name=\"com.example.m{i}\" level=\"info\"/>").unwrap();
    }
    // A duplicate replaces the earlier logger and goes last, as in log4j2's map.
    xml.push_str("  <Logger name=\"com.example.m0\" level=\"debug\"/>\n");
    xml.push_str(
        "  <Root level=\"error\"><AppenderRef ref=\"C\"/></Root>\n</Loggers>\n</Configuration>\n",
    );
    let started = std::time::Instant::now();
    let config = load_str(&xml, None).expect("well-formed");
    let elapsed = started.elapsed();
    assert_eq!(config.loggers.loggers.len(), count);
    let last = config.loggers.loggers.last().unwrap();
    assert_eq!(last.name, "com.example.m0");
    assert_eq!(last.level, Some(l4rs_core::Level::DEBUG));
    // Quadratic position counting took minutes here; linear takes seconds even unoptimised.
    assert!(elapsed.as_secs() < 120, "took {elapsed:?}");
    // Positions stay exact: m0 moved last, so the first is m1 (line 5) and m1000 is on 1004.
    let at = |i: usize| {
        config.loggers.loggers[i]
            .position
            .map(|p| (p.line, p.column))
    };
    assert_eq!(at(0), Some((5, 3)));
    assert_eq!(at(999), Some((1004, 3)));
}
