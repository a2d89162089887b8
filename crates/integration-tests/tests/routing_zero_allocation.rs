//! Routing allocates nothing per event once a key's route exists: a `${ctx:…}-${event:Level}`
//! key, an inline File appender created by the key's first event (which allocates, and is left
//! out of the count), and a referenced appender.

use l4rs_tests::allocations::CountingAllocator;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(l4rs_tests::allocations::count);

#[test]
fn events_of_existing_routes_do_not_allocate() {
    let dir = l4rs_tests::fresh_output_dir("routing-zero-allocation");
    let xml = format!(
        r#"<Configuration>
  <Appenders>
    <File name="shared" fileName="{dir}/shared.log"><PatternLayout pattern="%p %X{{user}} %m%n"/></File>
    <Routing name="R">
      <Routes pattern="user-$${{ctx:user:-none}}-$${{event:Level}}">
        <Route key="user-ref-DEBUG" ref="shared"/>
        <Route>
          <File name="u-${{ctx:user}}" fileName="{dir}/${{ctx:user}}.log">
            <PatternLayout pattern="%d{{HH:mm:ss.SSS}} %-5p [%t] %X{{user}} %m%n"/>
          </File>
        </Route>
      </Routes>
      <IdlePurgePolicy timeToLive="1" timeUnit="hours"/>
    </Routing>
  </Appenders>
  <Loggers><Root level="debug"><AppenderRef ref="R"/></Root></Loggers>
</Configuration>"#,
        dir = dir.display()
    );
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).unwrap();
    let logger = l4rs::get_logger("app");
    let message = "x".repeat(100);
    // Setting the context allocates (its key and value become strings), so it is done
    // between the counted stretches, each of which logs with one key.
    let mut allocations = 0;
    for round in 0..12 {
        let user = if round % 3 == 0 { "ref" } else { "alice" };
        l4rs::ThreadContext::put("user", user);
        let run = || {
            for index in 0..1_000 {
                l4rs::debug!(logger, "{message} {}", index);
            }
        };
        // The first two rounds create the routes and grow the buffers.
        if round < 2 {
            run();
        } else {
            allocations += l4rs_tests::allocations::counted(run);
        }
    }
    l4rs::shutdown();
    assert_eq!(
        allocations, 0,
        "allocations in 10,000 routed calls (two keys)"
    );
    let alice = l4rs_tests::read_lines(&dir.join("alice.log"));
    let shared = l4rs_tests::read_lines(&dir.join("shared.log"));
    assert_eq!((alice.len(), shared.len()), (8_000, 4_000));
}
