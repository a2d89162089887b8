//! The configuration loader end to end, as `l4rs check` runs it: parse the XML, bind it into a
//! configuration, build everything through init's own code in check mode
//! (`l4rs::check_configuration`: nothing is opened for writing, no thread is started) and print
//! the routing tree. The configuration is taken to live in a fresh empty temporary directory,
//! so relative XInclude paths resolve to nothing. (The working directory stays: libFuzzer
//! writes its corpus there.)
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use l4rs_config::routing::LoggerTree;
use l4rs_config::LoadOptions;
use l4rs_core::Level;
use libfuzzer_sys::fuzz_target;

/// A private, empty working directory; the configuration "lives" there.
fn source() -> &'static PathBuf {
    static SOURCE: OnceLock<PathBuf> = OnceLock::new();
    SOURCE.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("l4rs-fuzz-loader-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary directory");
        l4rs_core::status::set_level(Level::OFF);
        dir.join("log4j2.xml")
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let options = LoadOptions {
        apply_status_level: false,
    };
    let Ok(configuration) = l4rs_config::load_str_with(text, Some(source()), options) else {
        return;
    };
    for diagnostic in &configuration.diagnostics {
        let _ = diagnostic.to_string();
    }
    let _ = l4rs::check_configuration(&configuration);
    let _ = LoggerTree::new(&configuration.loggers).to_string();
});
