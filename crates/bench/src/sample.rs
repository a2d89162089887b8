//! The log4j2 appender benchmark's configuration, `config-samples/log4j2-appender.xml`: its
//! three file appenders (the rows), and the variant of it each [`Mode`] runs. The bench reads
//! the sample itself (embedded at build time, so the binary runs from any folder) and derives
//! every variant from it when it runs; there is no copy to keep in step.

/// `config-samples/log4j2-appender.xml` as the repository ships it.
pub const SAMPLE: &str = include_str!("../../../config-samples/log4j2-appender.xml");

/// One file appender of the benchmark's configuration (`config-samples/log4j2-appender.xml`): its name, its logger and its log file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampleAppender {
    /// The appender's name (and the row label).
    pub name: &'static str,
    /// The logger routed to it.
    pub logger: &'static str,
    /// The log file's name inside the output folder.
    pub file: &'static str,
}

/// The sample's three file appenders, in the order the sample declares them.
pub const SAMPLE_APPENDERS: [SampleAppender; 3] = [
    SampleAppender {
        name: "File",
        logger: "FileLogger",
        file: "log4j2-file.log",
    },
    SampleAppender {
        name: "RandomAccessFile",
        logger: "RandomAccessFileLogger",
        file: "log4j2-random-access-file.log",
    },
    SampleAppender {
        name: "MemoryMappedFile",
        logger: "MemoryMappedFileLogger",
        file: "log4j2-memory-mapped-file.log",
    },
];

/// How the benchmark's events reach the sample's file appenders: one configuration per mode, every file
/// appender option unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The sample configuration as it is: `<Logger>`s straight to the file appenders.
    Sync,
    /// Each of the sample's loggers is an `<AsyncLogger>` (the AsyncLogger queue, log4j2's mixed mode).
    AsyncLogger,
    /// Each of the sample's loggers refers to an `<Async>` appender in front of its file appender.
    AsyncAppender,
}

impl Mode {
    /// Every mode, in the order rows are run.
    pub const ALL: [Mode; 3] = [Mode::Sync, Mode::AsyncLogger, Mode::AsyncAppender];

    /// The name `--mode` takes.
    pub fn cli_name(self) -> &'static str {
        match self {
            Mode::Sync => "sync",
            Mode::AsyncLogger => "async-logger",
            Mode::AsyncAppender => "async-appender",
        }
    }

    /// True when the logging call only queues the event.
    pub fn is_async(self) -> bool {
        self != Mode::Sync
    }

    /// The row label of `appender` in this mode: `File`, `AsyncLogger-File`,
    /// `AsyncAppender-File` (no spaces, so `RESULT` lines keep one token per value).
    pub fn label(self, appender: &SampleAppender) -> String {
        self.label_of(appender.name)
    }

    /// The row label of the appender named `appender` in this mode (see [`Mode::label`]).
    pub fn label_of(self, appender: &str) -> String {
        match self {
            Mode::Sync => appender.to_string(),
            Mode::AsyncLogger => format!("AsyncLogger-{appender}"),
            Mode::AsyncAppender => format!("AsyncAppender-{appender}"),
        }
    }
}

/// The system property the bench's configuration reads its log folder from.
pub const DIR_PROPERTY: &str = "bench.dir";

/// The sample with its `logDir` property read from the system property [`DIR_PROPERTY`],
/// falling back to the sample's own value: `target/test-output` becomes
/// `${sys:bench.dir:-target/test-output}`, so the bench (and the Java harness, through the
/// same system property) can point the log files at its `--dir` folder. Nothing else changes.
/// A sample without a `logDir` property is returned unchanged (its rows then write where it
/// says; the tests keep the shipped sample's property in place).
pub fn base_config() -> String {
    const OPEN: &str = r#"<Property name="logDir">"#;
    let Some(start) = SAMPLE.find(OPEN).map(|at| at + OPEN.len()) else {
        return SAMPLE.to_string();
    };
    let Some(length) = SAMPLE[start..].find("</Property>") else {
        return SAMPLE.to_string();
    };
    let value = &SAMPLE[start..start + length];
    format!(
        "{}${{sys:{DIR_PROPERTY}:-{value}}}{}",
        &SAMPLE[..start],
        &SAMPLE[start + length..]
    )
}

/// The sample's `pattern` property (the PatternLayout of every appender), for rows that put
/// the same events through another appender; `None` if the sample has no such property.
pub fn pattern() -> Option<&'static str> {
    const OPEN: &str = r#"<Property name="pattern">"#;
    let start = SAMPLE.find(OPEN)? + OPEN.len();
    let length = SAMPLE[start..].find("</Property>")?;
    Some(&SAMPLE[start..start + length])
}

/// The name of the `<Async>` appender put in front of one of the sample's file appenders.
pub fn async_appender_name(appender: &str) -> String {
    format!("Async{appender}")
}

/// The benchmark's configuration in `mode`, derived from [`base_config`] so that the file
/// appenders, layouts and levels stay exactly the sample's:
///
/// - [`Mode::Sync`] leaves it unchanged.
/// - [`Mode::AsyncLogger`] turns each of the sample's `<Logger>`s into an `<AsyncLogger>` with the same
///   attributes and references (log4j2's mixed synchronous/asynchronous mode; Root stays
///   synchronous, as it only feeds the console).
/// - [`Mode::AsyncAppender`] adds an `<Async name="AsyncFile"><AppenderRef ref="File"/></Async>`
///   (every attribute at log4j2's default) after the file appenders, and each of the sample's loggers
///   refers to its Async appender instead of the file appender.
///
/// The bench writes each variant under `target/l4rs-bench/`, where the Java harness reads the
/// same file.
pub fn config(mode: Mode) -> String {
    match mode {
        Mode::Sync => base_config(),
        Mode::AsyncLogger => base_config()
            .replace("<Logger name=", "<AsyncLogger name=")
            .replace("</Logger>", "</AsyncLogger>"),
        Mode::AsyncAppender => {
            let mut text = base_config();
            for appender in SAMPLE_APPENDERS {
                text = text.replace(
                    &format!("<AppenderRef ref=\"{}\"/>", appender.name),
                    &format!(
                        "<AppenderRef ref=\"{}\"/>",
                        async_appender_name(appender.name)
                    ),
                );
            }
            let asyncs: String = SAMPLE_APPENDERS
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

/// The file name of the sample configuration's variant in `mode`.
pub fn config_file(mode: Mode) -> String {
    match mode {
        Mode::Sync => "log4j2-appender.xml".to_string(),
        other => format!("log4j2-appender-{}.xml", other.cli_name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_config_is_the_sample_but_for_its_log_folder() {
        let base = base_config();
        assert!(base.contains(
            r#"<Property name="logDir">${sys:bench.dir:-target/test-output}</Property>"#
        ));
        assert!(SAMPLE.contains(r#"<Property name="logDir">target/test-output</Property>"#));
        // Every other line is the sample's own.
        let others = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|l| !l.contains(r#"name="logDir""#))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(others(&base), others(SAMPLE));
        assert_eq!(base.lines().count(), SAMPLE.lines().count());
    }

    #[test]
    fn the_pattern_is_the_samples_pattern_property() {
        assert_eq!(
            pattern(),
            Some("%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %pid %t %C.%M:%L - %msg %ex{full} %n")
        );
        assert_eq!(Mode::AsyncLogger.label_of("Kafka"), "AsyncLogger-Kafka");
        assert_eq!(Mode::Sync.label_of("Kafka"), "Kafka");
    }

    #[test]
    fn the_sample_appenders_are_the_samples_file_appenders_and_loggers() {
        let dir = std::env::temp_dir().join("l4rs-bench-sample");
        l4rs::config::set_system_property(DIR_PROPERTY, dir.display().to_string());
        let configuration = l4rs::config::load_str(&base_config(), None).unwrap();
        for appender in SAMPLE_APPENDERS {
            let route = crate::ours::route(&configuration, appender.logger);
            assert_eq!(route.appenders, [appender.name], "{}", appender.name);
            assert_eq!(route.files, [dir.join(appender.file)], "{}", appender.name);
        }
    }

    #[test]
    fn the_async_variants_change_only_how_events_reach_the_appenders() {
        let dir = std::env::temp_dir().join("l4rs-bench-variants");
        l4rs::config::set_system_property(DIR_PROPERTY, dir.display().to_string());
        for mode in Mode::ALL {
            let text = config(mode);
            let configuration = l4rs::config::load_str(&text, None).unwrap();
            let problems: Vec<String> = configuration
                .diagnostics_at_least(l4rs::config::Severity::Warning)
                .map(|d| d.to_string())
                .collect();
            assert!(problems.is_empty(), "{mode:?}: {problems:?}");
            for appender in SAMPLE_APPENDERS {
                let route = crate::ours::route(&configuration, appender.logger);
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
        let sample = strip(&base_config());
        assert_eq!(strip(&config(Mode::AsyncLogger)), sample);
        let appender_variant = config(Mode::AsyncAppender);
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
        assert_eq!(lines, sample);
    }

    #[test]
    fn each_mode_has_its_own_configuration_file() {
        let names: Vec<String> = Mode::ALL.iter().map(|m| config_file(*m)).collect();
        assert_eq!(
            names,
            [
                "log4j2-appender.xml",
                "log4j2-appender-async-logger.xml",
                "log4j2-appender-async-appender.xml"
            ]
        );
    }
}
