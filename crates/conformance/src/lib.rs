//! Conformance tooling: reading oracle scenarios (see `shared/oracle/SCENARIO.md`) and
//! replaying them through l4rs exactly as the Java oracle replays them through log4j2.
//!
//! The replay goes through the library's public API only: [`l4rs::init_with_file`],
//! [`l4rs::get_logger`] and [`l4rs::Logger::log_event`], with events built explicitly so their
//! timestamp, thread, location, context and throwable are the scenario's.

pub mod json;
pub mod scenario;
