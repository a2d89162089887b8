//! l4rs's rows: a configuration, one logger per row, the workload through the facade.

use std::path::{Path, PathBuf};

use l4rs::config::routing::LoggerTree;
use l4rs::config::Configuration;
use l4rs::Logger;

use crate::workload::{fixture, Workload};

/// The study's configuration with `logDir` = `${sys:bench.dir:-target/test-output}` (see the
/// comment at its top); written next to the logs so the Java harness reads the same file.
pub const STUDY_CONFIG: &str = include_str!("../config/log4j2-appender.xml");

/// The system property the bench's configuration reads its log folder from.
pub const DIR_PROPERTY: &str = "bench.dir";

/// Where one logger's events end up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Route {
    /// Appenders on the logger's path (its own references, then its ancestors' while additive).
    pub appenders: Vec<String>,
    /// The files those appenders write (relative paths are relative to the working folder).
    pub files: Vec<PathBuf>,
}

/// The appenders and files `logger` reaches in `configuration`, following additivity.
pub fn route(configuration: &Configuration, logger: &str) -> Route {
    let tree = LoggerTree::new(&configuration.loggers);
    let mut route = Route::default();
    let mut index = Some(tree.owner_of(logger));
    while let Some(current) = index {
        let node = tree.node(current);
        for reference in &node.spec.appender_refs {
            if route.appenders.contains(&reference.appender) {
                continue;
            }
            route.appenders.push(reference.appender.clone());
            let file = configuration
                .appender(&reference.appender)
                .and_then(|spec| spec.kind.file_name());
            if let Some(file) = file {
                let file = PathBuf::from(file);
                if !route.files.contains(&file) {
                    route.files.push(file);
                }
            }
        }
        index = if node.spec.additivity {
            tree.parent(current)
        } else {
            None
        };
    }
    route
}

/// Why a logger cannot be benchmarked as configured: an appender on its route was not built
/// (e.g. not implemented yet), so its events would go nowhere and the figure would mean nothing.
pub fn missing_appenders(route: &Route, active: &[String]) -> Vec<String> {
    route
        .appenders
        .iter()
        .filter(|name| !active.contains(name))
        .cloned()
        .collect()
}

/// Total size of `files` (missing files count as empty).
pub fn total_size(files: &[PathBuf]) -> u64 {
    files
        .iter()
        .map(|f| std::fs::metadata(f).map_or(0, |m| m.len()))
        .sum()
}

/// Puts `config` in force afresh: stops the current configuration first, so every file is
/// closed (and the deleted ones are really re-created), then loads it again.
pub fn restart(config: &Path) -> Result<(), String> {
    l4rs::shutdown();
    l4rs::init_with_file(config).map_err(|e| e.to_string())
}

/// The workload through an l4rs logger.
pub struct L4rsWorkload {
    logger: Logger,
}

impl L4rsWorkload {
    /// The workload on the logger `name` of the configuration in force.
    pub fn new(name: &str) -> L4rsWorkload {
        // Build (and resolve) the throwable before any window starts.
        let _ = fixture();
        L4rsWorkload {
            logger: l4rs::get_logger(name),
        }
    }
}

impl Workload for L4rsWorkload {
    #[inline(never)]
    fn plain(&self) {
        l4rs::debug!(self.logger, crate::bench_message!());
    }

    #[inline(never)]
    fn with_error(&self) {
        l4rs::debug!(
            self.logger,
            error = &fixture().throwable,
            crate::bench_message!()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_study_config_is_the_sample_but_for_its_log_folder() {
        let sample = include_str!("../../../config-samples/log4j2-appender.xml");
        let ours: Vec<&str> = STUDY_CONFIG
            .lines()
            .filter(|l| !l.contains("logDir") && !l.trim_start().starts_with("<!--"))
            .collect();
        let theirs: Vec<&str> = sample
            .lines()
            .filter(|l| !l.contains("logDir") && !l.trim_start().starts_with("<!--"))
            .collect();
        // The comment block differs (ours explains the change); every element is the same.
        let elements = |lines: &[&str]| -> Vec<String> {
            lines
                .iter()
                .filter(|l| l.trim_start().starts_with('<'))
                .map(|l| l.trim().to_string())
                .collect()
        };
        assert_eq!(elements(&ours), elements(&theirs));
        assert!(STUDY_CONFIG.contains(
            r#"<Property name="logDir">${sys:bench.dir:-target/test-output}</Property>"#
        ));
    }

    #[test]
    fn routes_follow_references_and_additivity() {
        let xml = r#"<Configuration status="off"><Appenders>
              <File name="A" fileName="out/a.log"/><RandomAccessFile name="B" fileName="out/b.log"/>
              <Console name="C"/></Appenders>
            <Loggers>
              <Logger name="app" level="debug"><AppenderRef ref="A"/><AppenderRef ref="B"/></Logger>
              <Logger name="quiet" level="debug" additivity="false"><AppenderRef ref="A"/></Logger>
              <Root level="info"><AppenderRef ref="C"/><AppenderRef ref="A"/></Root>
            </Loggers></Configuration>"#;
        let configuration = l4rs::config::load_str(xml, None).unwrap();
        let app = route(&configuration, "app::db");
        assert_eq!(app.appenders, ["A", "B", "C"]);
        assert_eq!(
            app.files,
            [PathBuf::from("out/a.log"), PathBuf::from("out/b.log")]
        );
        let quiet = route(&configuration, "quiet");
        assert_eq!(quiet.appenders, ["A"]);
        let active = vec!["A".to_string(), "C".to_string()];
        assert_eq!(missing_appenders(&app, &active), ["B"]);
        assert!(missing_appenders(&quiet, &active).is_empty());
    }
}
