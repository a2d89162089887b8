//! `get_logger` racing a re-configuration: a logger created while another thread puts a new
//! configuration in force must end bound to the configuration in force, never to the one that
//! was just stopped (where its events would silently reach no appender).

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier};

/// How many times the configuration is put in force while the other threads create loggers.
const REINITS: usize = 150;
/// How many threads create loggers meanwhile.
const GETTERS: usize = 2;

/// Runs `reinit` while [`GETTERS`] threads create loggers with fresh names; returns them.
fn create_loggers_during(round: usize, reinit: impl FnOnce()) -> Vec<l4rs::Logger> {
    let done = Arc::new(AtomicBool::new(false));
    let started = Arc::new(Barrier::new(GETTERS + 1));
    let getters: Vec<_> = (0..GETTERS)
        .map(|thread| {
            let done = Arc::clone(&done);
            let started = Arc::clone(&started);
            std::thread::spawn(move || {
                started.wait();
                let mut loggers = Vec::new();
                // At least one after the init returned, so each round creates some.
                loop {
                    let last = done.load(Ordering::Acquire);
                    // A fresh name each time, so each call takes the creating path.
                    let name = format!("race.r{round}.t{thread}.n{}", loggers.len());
                    loggers.push(l4rs::get_logger(&name));
                    if last {
                        return loggers;
                    }
                }
            })
        })
        .collect();
    started.wait();
    reinit();
    done.store(true, Ordering::Release);
    getters
        .into_iter()
        .flat_map(|getter| getter.join().expect("getter thread"))
        .collect()
}

#[test]
fn loggers_created_during_reinit_end_bound_to_the_final_configuration() {
    let dir = l4rs_tests::fresh_output_dir("get-logger-race");
    let log = dir.join("all.log");
    let config = l4rs_tests::write_config(
        &dir,
        &format!(
            r#"<Configuration><Appenders>
  <File name="F" fileName="{}"><PatternLayout pattern="%c%n"/></File>
</Appenders><Loggers><Root level="off"><AppenderRef ref="F"/></Root>
  <Logger name="race" level="info"/>
</Loggers></Configuration>"#,
            log.display()
        ),
    );
    l4rs::init_with_file(&config).expect("configuration loads cleanly");

    let mut loggers: Vec<l4rs::Logger> = Vec::new();
    for round in 0..REINITS {
        let round_loggers = create_loggers_during(round, || {
            l4rs::init_with_file(&config).expect("configuration loads cleanly");
        });
        // Before the next init, which would rebind a logger left on a stopped configuration
        // and so hide the race: what is logged now reaches this round's configuration or none.
        for logger in &round_loggers {
            l4rs::info!(logger, "bound");
        }
        loggers.extend(round_loggers);
    }
    l4rs::shutdown();
    let written: BTreeSet<String> = l4rs_tests::read_lines(&log).into_iter().collect();
    let lost: Vec<&str> = loggers
        .iter()
        .map(l4rs::Logger::name)
        .filter(|name| !written.contains(*name))
        .collect();
    assert!(
        lost.is_empty(),
        "{} of {} loggers are bound to a stopped configuration, e.g. {:?}",
        lost.len(),
        loggers.len(),
        &lost[..lost.len().min(5)]
    );
}
