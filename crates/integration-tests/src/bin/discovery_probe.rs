//! A program that finds its configuration the way an application would, used by
//! `crates/integration-tests/tests/discovery.rs` and `crates/integration-tests/tests/root_attributes.rs`, which run it once per case with its own
//! environment and working directory. `l4rs-discovery-probe MODE`:
//!
//! * `lazy`: the first `l4rs::get_logger` loads the configuration (log4j2's `LogManager` path).
//! * `init`: `l4rs::init()` first; prints `init: ok` or `init: error: <error>` on stdout.
//! * `after-shutdown`: as `lazy`, and prints `stdout after shutdown` on stdout once
//!   `l4rs::shutdown()` returned (a Console appender must never close stdout).
//!
//! Then it logs `error line`, `warn line`, `info line` and `debug line` at those levels on the
//! logger `discovery.Probe`, calls `l4rs::shutdown()`, and prints every status record reported
//! on any thread since it started as `status: <LEVEL> <message>` on stdout (newlines in a
//! message written `\n`), after anything a Console appender printed.

use l4rs::core::status;

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let records = status::GlobalCapture::start();
    match mode.as_str() {
        "lazy" | "after-shutdown" => {}
        "init" => match l4rs::init() {
            Ok(()) => println!("init: ok"),
            Err(error) => println!("init: error: {error}"),
        },
        _ => {
            eprintln!("usage: l4rs-discovery-probe lazy|init|after-shutdown");
            std::process::exit(2);
        }
    }
    let logger = l4rs::get_logger("discovery.Probe");
    l4rs::error!(logger, "error line");
    l4rs::warn!(logger, "warn line");
    l4rs::info!(logger, "info line");
    l4rs::debug!(logger, "debug line");
    l4rs::shutdown();
    if mode == "after-shutdown" {
        println!("stdout after shutdown");
    }
    for record in records.records() {
        println!(
            "status: {} {}",
            record.level,
            record.message.replace('\n', "\\n")
        );
    }
}
