//! Logs through the log4j2 appender benchmark's configuration
//! (`config-samples/log4j2-appender.xml`) and prints where the lines went. Run from the workspace
//! root:
//!
//! ```sh
//! cargo run -p l4rs --example sample
//! ```

use std::path::Path;

/// The benchmark configuration's three loggers, and one that falls through to the root logger's
/// console.
const LOGGERS: [&str; 4] = [
    "FileLogger",
    "RandomAccessFileLogger",
    "MemoryMappedFileLogger",
    "sample",
];

fn main() {
    let config = Path::new("config-samples/log4j2-appender.xml");
    if std::env::var_os("LOG4RS_CONFIGURATION_FILE").is_none() {
        std::env::set_var("LOG4RS_CONFIGURATION_FILE", config);
    }
    if let Err(error) = l4rs::init() {
        eprintln!("configuration problems (the rest is in force): {error}");
    }
    let error = l4rs::Throwable::capture(&std::io::Error::other("disk full"));
    for name in LOGGERS {
        let logger = l4rs::get_logger(name);
        l4rs::debug!(logger, "a debug line from {name}");
        l4rs::error!(logger, error = &error, "an error from {name}");
    }
    l4rs::shutdown();

    println!("\nWhere the lines went:");
    for name in LOGGERS {
        let logger = l4rs::get_logger(name);
        println!(
            "  {name:<24} -> logger config \"{}\" at {}",
            logger.config_name(),
            logger.level()
        );
    }
    for file in [
        "target/test-output/log4j2-file.log",
        "target/test-output/log4j2-random-access-file.log",
        "target/test-output/log4j2-memory-mapped-file.log",
    ] {
        match std::fs::metadata(file) {
            Ok(meta) => println!("  {file}: {} bytes", meta.len()),
            Err(_) => println!("  {file}: not written"),
        }
    }
    println!("  (the root logger's Console output is above)");
}
