//! l4rs's rows: a configuration, one logger per row, the workload through the facade.

use std::path::{Path, PathBuf};

use l4rs::config::model::AppenderKind;
use l4rs::config::routing::LoggerTree;
use l4rs::config::Configuration;
use l4rs::Logger;

use crate::args::{Mode, STUDY_APPENDERS};
use crate::workload::{fixture, Workload};

/// The study's configuration with `logDir` = `${sys:bench.dir:-target/test-output}` (see the
/// comment at its top); written next to the logs so the Java harness reads the same file.
pub const STUDY_CONFIG: &str = include_str!("../config/log4j2-appender.xml");

/// The name of the `<Async>` appender put in front of a study appender.
pub fn async_appender_name(appender: &str) -> String {
    format!("Async{appender}")
}

/// The study's configuration in `mode`, derived from [`STUDY_CONFIG`] so that the file
/// appenders, layouts and levels stay exactly the study's:
///
/// - [`Mode::Sync`] leaves it unchanged.
/// - [`Mode::AsyncLogger`] turns each study `<Logger>` into an `<AsyncLogger>` with the same
///   attributes and references (log4j2's mixed synchronous/asynchronous mode; Root stays
///   synchronous, as it only feeds the console).
/// - [`Mode::AsyncAppender`] adds an `<Async name="AsyncFile"><AppenderRef ref="File"/></Async>`
///   (every attribute at log4j2's default) after the file appenders, and each study logger
///   refers to its Async appender instead of the file appender.
///
/// The bench writes each variant under `target/l4rs-bench/`, where the Java harness reads the
/// same file.
pub fn study_config(mode: Mode) -> String {
    match mode {
        Mode::Sync => STUDY_CONFIG.to_string(),
        Mode::AsyncLogger => STUDY_CONFIG
            .replace("<Logger name=", "<AsyncLogger name=")
            .replace("</Logger>", "</AsyncLogger>"),
        Mode::AsyncAppender => {
            let mut text = STUDY_CONFIG.to_string();
            for appender in STUDY_APPENDERS {
                text = text.replace(
                    &format!("<AppenderRef ref=\"{}\"/>", appender.name),
                    &format!(
                        "<AppenderRef ref=\"{}\"/>",
                        async_appender_name(appender.name)
                    ),
                );
            }
            let asyncs: String = STUDY_APPENDERS
                .iter()
                .map(|a| {
                    format!(
                        "        <Async name=\"{}\">\n            <AppenderRef ref=\"{}\"/>\n        </Async>\n",
                        async_appender_name(a.name),
                        a.name
                    )
                })
                .collect();
            text.replace("    </Appenders>", &format!("{asyncs}    </Appenders>"))
        }
    }
}

/// The system property the bench's configuration reads its log folder from.
pub const DIR_PROPERTY: &str = "bench.dir";

/// Where one logger's events end up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Route {
    /// Appenders on the logger's path (its own references, then its ancestors' while additive).
    pub appenders: Vec<String>,
    /// The files those appenders write (relative paths are relative to the working folder).
    pub files: Vec<PathBuf>,
    /// True when some event of the logger goes through a queue: an `<AsyncLogger>` (or
    /// `<AsyncRoot>`) on the path, or an `<Async>` appender on the route.
    pub asynchronous: bool,
}

/// The appenders and files `logger` reaches in `configuration`, following additivity and
/// the references of `<Async>` appenders (whose queues feed other appenders).
pub fn route(configuration: &Configuration, logger: &str) -> Route {
    let tree = LoggerTree::new(&configuration.loggers);
    let mut route = Route::default();
    let mut index = Some(tree.owner_of(logger));
    while let Some(current) = index {
        let node = tree.node(current);
        if node.spec.asynchronous && !node.spec.appender_refs.is_empty() {
            route.asynchronous = true;
        }
        for reference in &node.spec.appender_refs {
            add_appender(configuration, &reference.appender, &mut route);
        }
        index = if node.spec.additivity {
            tree.parent(current)
        } else {
            None
        };
    }
    route
}

/// Adds `name`, its file, and (for an `<Async>` appender) what it feeds; each appender once,
/// which also stops a reference cycle.
fn add_appender(configuration: &Configuration, name: &str, route: &mut Route) {
    if route.appenders.iter().any(|a| a == name) {
        return;
    }
    route.appenders.push(name.to_string());
    let Some(spec) = configuration.appender(name) else {
        return;
    };
    if let Some(file) = spec.kind.file_name() {
        let file = PathBuf::from(file);
        if !route.files.contains(&file) {
            route.files.push(file);
        }
    }
    if let AppenderKind::Async(queue) = &spec.kind {
        route.asynchronous = true;
        for reference in &queue.appender_refs {
            add_appender(configuration, &reference.appender, route);
        }
        if let Some(error_ref) = &queue.error_ref {
            add_appender(configuration, error_ref, route);
        }
    }
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
    fn the_async_variants_change_only_how_events_reach_the_appenders() {
        let dir = std::env::temp_dir().join("l4rs-bench-variants");
        l4rs::config::set_system_property(DIR_PROPERTY, dir.display().to_string());
        for mode in Mode::ALL {
            let text = study_config(mode);
            let configuration = l4rs::config::load_str(&text, None).unwrap();
            let problems: Vec<String> = configuration
                .diagnostics_at_least(l4rs::config::Severity::Warning)
                .map(|d| d.to_string())
                .collect();
            assert!(problems.is_empty(), "{mode:?}: {problems:?}");
            for appender in STUDY_APPENDERS {
                let route = route(&configuration, appender.logger);
                assert_eq!(route.asynchronous, mode.is_async(), "{mode:?}");
                assert_eq!(
                    route.files,
                    [dir.join(appender.file)],
                    "{mode:?} {}",
                    appender.name
                );
                let spec = configuration
                    .loggers
                    .loggers
                    .iter()
                    .find(|l| l.name == appender.logger)
                    .unwrap();
                assert_eq!(spec.asynchronous, mode == Mode::AsyncLogger);
                assert!(!spec.additivity);
                let expected = match mode {
                    Mode::AsyncAppender => {
                        vec![
                            async_appender_name(appender.name),
                            appender.name.to_string(),
                        ]
                    }
                    _ => vec![appender.name.to_string()],
                };
                assert_eq!(route.appenders, expected, "{mode:?}");
            }
        }
        // Nothing else moved: the same lines once the mode's own elements are taken out.
        let strip = |text: &str| -> Vec<String> {
            text.lines()
                .map(|l| {
                    l.trim()
                        .replace("AsyncLogger", "Logger")
                        .replace("ref=\"Async", "ref=\"")
                })
                .filter(|l| !l.starts_with("<Async") && !l.starts_with("</Async"))
                .collect()
        };
        let study = strip(STUDY_CONFIG);
        assert_eq!(strip(&study_config(Mode::AsyncLogger)), study);
        let appender_variant = study_config(Mode::AsyncAppender);
        let mut lines = strip(&appender_variant);
        // The Async elements' own references (the lines after each `<Async …>`) go too.
        let inner: Vec<String> = appender_variant
            .lines()
            .collect::<Vec<_>>()
            .windows(2)
            .filter(|pair| pair[0].trim().starts_with("<Async "))
            .map(|pair| pair[1].trim().to_string())
            .collect();
        assert_eq!(inner.len(), 3);
        for line in &inner {
            let at = lines.iter().position(|l| l == line).unwrap();
            lines.remove(at);
        }
        assert_eq!(lines, study);
    }

    #[test]
    fn routes_follow_async_appenders_and_mark_queues() {
        let xml = r#"<Configuration status="off"><Appenders>
              <File name="A" fileName="out/a.log"/><File name="E" fileName="out/e.log"/>
              <Async name="Q" errorRef="E"><AppenderRef ref="A"/></Async>
              </Appenders>
            <Loggers>
              <Logger name="queued" level="debug" additivity="false"><AppenderRef ref="Q"/></Logger>
              <AsyncLogger name="fast" level="debug" additivity="false"><AppenderRef ref="A"/></AsyncLogger>
              <AsyncLogger name="bare" level="debug"/>
              <Root level="info"><AppenderRef ref="A"/></Root>
            </Loggers></Configuration>"#;
        let configuration = l4rs::config::load_str(xml, None).unwrap();
        let queued = route(&configuration, "queued");
        assert_eq!(queued.appenders, ["Q", "A", "E"]);
        assert_eq!(
            queued.files,
            [PathBuf::from("out/a.log"), PathBuf::from("out/e.log")]
        );
        assert!(queued.asynchronous);
        assert!(route(&configuration, "fast").asynchronous);
        // An AsyncLogger without appenders routes synchronously (to Root here).
        assert!(!route(&configuration, "bare").asynchronous);
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
