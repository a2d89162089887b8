//! The configuration loader end to end, as `l4rs check` runs it: parse the XML, bind it into a
//! configuration, resolve appender references and the routing tree, and build every pattern
//! layout and filter. Nothing is opened for writing: appenders are not built, and the
//! configuration is taken to live in a fresh empty temporary directory, so relative XInclude
//! paths resolve to nothing. (The working directory stays: libFuzzer writes its corpus there.)
#![no_main]

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use l4rs_config::model::{AppenderKind, AppenderRefSpec, FilterSpec, LayoutSpec};
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

fn build_filter(filter: &Option<FilterSpec>) {
    if let Some(filter) = filter {
        l4rs_filter::build_filter(filter);
    }
}

fn build_refs(refs: &[AppenderRefSpec]) {
    for reference in refs {
        build_filter(&reference.filter);
    }
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
    let _ = configuration.unresolved_appender_refs();
    build_filter(&configuration.filter);
    for appender in &configuration.appenders {
        let _ = appender.kind.file_name();
        if let Some(LayoutSpec::Pattern(pattern)) = &appender.layout {
            let context = l4rs_layout::LayoutContext {
                interpolator: Some(Arc::clone(&configuration.substitutor)),
                console: false,
            };
            l4rs_layout::PatternLayout::new(pattern, context);
        }
        build_filter(&appender.filter);
        if let AppenderKind::Async(async_spec) = &appender.kind {
            build_refs(&async_spec.appender_refs);
        }
    }
    let loggers = &configuration.loggers;
    for logger in std::iter::once(&loggers.root).chain(&loggers.loggers) {
        build_filter(&logger.filter);
        build_refs(&logger.appender_refs);
    }
    let _ = LoggerTree::new(loggers).to_string();
});
