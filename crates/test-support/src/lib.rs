//! What l4rs's tests share, so that no helper is copied from one test to the next: a fresh
//! temporary folder ([`TempDir`], or [`fresh_dir_at`] to keep it), the workspace root ([`workspace_root`]), counted allocations
//! ([`allocations`]), a stand-in layout ([`LineLayout`]) and one that names the thread formatting ([`FormattingThreadLayout`]), throwables as deep as the benchmark's
//! ([`deep_throwable`], [`benchmark_throwable`]), an error with a source ([`RequestFailed`]), a
//! named pipe that stalls an appender ([`fifo_gate`]), a small filesystem that fills up
//! ([`tmpfs`]), the id of a process that is gone ([`dead_pid`]), a real Kafka-compatible broker and an independent consumer ([`kafka`]), real log4j2 to compare with ([`log4j2`]), instants around clock changes ([`instants`]), a thread's CPU time ([`threads`]) and the
//! skip-or-fail rule for what lives outside the repository ([`shared`]).
//!
//! A development dependency only (`publish = false`; l4rs-bench, itself unpublished, uses
//! [`kafka`] for its Kafka rows): nothing here is l4rs's API. It depends on
//! l4rs-core alone, so any other crate's unit tests can use it; l4rs-core's own unit tests keep
//! their helpers local (through this crate they would meet a second copy of l4rs-core's
//! types). Helpers that only one crate's tests need stay in that crate's `tests/common` (or
//! `tests/<area>_support`) module.

pub mod allocations;
mod errors;
pub mod fifo_gate;
pub mod instants;
pub mod kafka;
mod layouts;
pub mod log4j2;
pub mod shared;
mod temp_dir;
pub mod threads;
mod throwables;
pub mod tmpfs;

use std::path::{Path, PathBuf};

pub use errors::RequestFailed;
pub use layouts::{FormattingThreadLayout, LineLayout};
pub use temp_dir::{fresh_dir_at, make_fifo, TempDir};
pub use throwables::{benchmark_throwable, deep_throwable};

/// The id of a process that is certainly gone (a child that has been waited for), for the
/// leftover files a killed process would have named after itself.
pub fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true")
        .spawn()
        .expect("cannot run `true`");
    let pid = child.id();
    child.wait().expect("cannot wait for `true`");
    pid
}

/// The workspace root: where `Cargo.toml`, `config-samples/` and `target/` are.
pub fn workspace_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}
