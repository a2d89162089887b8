//! The log4j2 appender benchmark, run on l4rs: the workload of
//! `config-samples/log4j2-appender.xml` through its three file appenders on N threads, beside
//! this folder's raw write bandwidth, log4j2 itself (`--vs-log4j2`), the Rust peers
//! (`--peers`) and `tracing`'s fmt layer (`--tracing`). The binary `l4rs-bench` is the entry point; this library holds its parts so
//! they can be tested.

pub mod alloc;
pub mod args;
pub mod bench;
pub mod ceiling;
pub mod disk;
pub mod java;
pub mod kafka_row;
pub mod latency;
pub mod ours;
pub mod page_reporting;
pub mod peers;
pub mod progress;
pub mod report;
pub mod runner;
pub mod sample;
pub mod tracing_row;
pub mod workload;

pub use bench::main_with_args;

// The library's own tests count allocations too (the allocator and progress tests need it).
#[cfg(test)]
#[global_allocator]
static TEST_ALLOCATOR: alloc::CountingAllocator = alloc::CountingAllocator;

/// The workspace this bench was built from (where its `target/` is); falls back to the
/// working folder when run elsewhere.
pub fn workspace_root() -> std::path::PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    if root.join("Cargo.toml").is_file() {
        root.canonicalize().unwrap_or(root)
    } else {
        std::path::PathBuf::from(".")
    }
}
