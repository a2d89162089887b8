//! The delegating appenders allocate nothing per event in steady state: a context-wide
//! `DynamicThresholdFilter`, a `Rewrite` with fixed properties and a level mapping, a
//! `Failover` whose primary failed (skipped until the retry time), a healthy `Failover`, and
//! `Null`. Measured on the calling thread with a counting allocator, through the facade.

use l4rs::{Level, ThreadContext};
use l4rs_test_support::allocations::{self, CountingAllocator};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(allocations::count_on_this_thread);

#[test]
fn delegating_appenders_allocate_nothing_per_event() {
    let dir = std::env::temp_dir().join(format!("l4rs-delegating-alloc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("log4j2.xml");
    std::fs::write(
        &config,
        format!(
            r#"<Configuration>
<DynamicThresholdFilter key="user" onMatch="ACCEPT" onMismatch="NEUTRAL"><KeyValuePair key="alice" value="debug"/></DynamicThresholdFilter>
<Appenders>
  <File name="out" fileName="{dir}/out.log"><PatternLayout pattern="%p %c %X %m%n"/></File>
  <File name="full" fileName="/dev/full" ignoreExceptions="false"/>
  <Failover name="failing" primary="full" retryIntervalSeconds="3600"><Failovers><AppenderRef ref="out"/></Failovers></Failover>
  <Failover name="healthy" primary="out"><Failovers><AppenderRef ref="full"/></Failovers></Failover>
  <Rewrite name="tag">
    <PropertiesRewritePolicy><Property name="service" value="billing"/></PropertiesRewritePolicy>
    <AppenderRef ref="failing"/><AppenderRef ref="healthy"/>
  </Rewrite>
  <Rewrite name="demote">
    <LoggerNameLevelRewritePolicy logger="app"><KeyValuePair key="DEBUG" value="INFO"/></LoggerNameLevelRewritePolicy>
    <AppenderRef ref="tag"/>
  </Rewrite>
  <Null name="quiet"/>
</Appenders>
<Loggers><Root level="info"><AppenderRef ref="demote"/><AppenderRef ref="quiet"/></Root></Loggers>
</Configuration>"#,
            dir = dir.display()
        ),
    )
    .unwrap();
    l4rs::init_with_file(&config).expect("configuration loads");
    let logger = l4rs::get_logger("app.billing");
    ThreadContext::put("user", "alice");
    let log = |n: usize| {
        logger
            .log(Level::DEBUG, None, None, None, format_args!("event {n}"))
            .unwrap();
    };
    // Warm-up: the primary's failure (reported, allocating) and every buffer's growth.
    for n in 0..200 {
        log(n);
    }
    let allocations = allocations::allocations_during(|| {
        for n in 200..1200 {
            log(n);
        }
    });
    l4rs::shutdown();
    let text = std::fs::read_to_string(dir.join("out.log")).unwrap();
    // Each event: once through the failing Failover's failover, once through the healthy one.
    assert_eq!(text.lines().count(), 2400);
    assert!(
        text.starts_with("INFO app.billing {service=billing, user=alice} event 0\n"),
        "{}",
        &text[..80.min(text.len())]
    );
    assert_eq!(allocations, 0, "allocations in 1000 events");
    let _ = std::fs::remove_dir_all(&dir);
}
