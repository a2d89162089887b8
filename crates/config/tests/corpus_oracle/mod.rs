//! The corpus oracle: log4j2 itself (Java, Debian's jars) loads configuration files through
//! `ConfigDump.java` and prints what it built; [`l4rs_dump`] prints l4rs-config's reading of
//! the same file in the same canonical lines, so the two can be compared line by line.
//!
//! One JVM loads every file given (a JVM start costs more than a hundred configurations). It
//! runs in a scratch directory under Cargo's test temp dir, where relative file names and the
//! `user.home` and `java.io.tmpdir` properties point, and refuses writes anywhere else.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use l4rs_config::model::{AppenderKind, AppenderRefSpec, FilterSpec, FilterVerdicts, LayoutSpec};
use l4rs_config::routing::LoggerTree;
use l4rs_config::Configuration;
use l4rs_core::Level;

/// What log4j2 made of one file: its canonical lines, and the paths it was refused.
#[derive(Debug, Default)]
pub(crate) struct Log4j2Dump {
    pub lines: Vec<String>,
    pub denied: Vec<String>,
}

fn jar_dir() -> PathBuf {
    PathBuf::from(std::env::var("LOG4J_JAR_DIR").unwrap_or_else(|_| "/usr/share/java".into()))
}

/// `Ok` when Java, javac and the log4j2 jars are there, else what is missing.
pub(crate) fn available() -> Result<(), String> {
    for jar in ["log4j-api.jar", "log4j-core.jar"] {
        let path = jar_dir().join(jar);
        if !path.exists() {
            return Err(format!(
                "{} is missing (apt-get install -y liblog4j2-java)",
                path.display()
            ));
        }
    }
    // Without Jackson log4j2 cannot build JsonLayout and its appenders get a PatternLayout,
    // which l4rs does not imitate.
    let jackson = jar_dir().join("jackson-databind.jar");
    if !jackson.exists() {
        return Err(format!(
            "{} is missing (apt-get install -y libjackson2-databind-java)",
            jackson.display()
        ));
    }
    for tool in ["java", "javac"] {
        if Command::new(tool).arg("-version").output().is_err() {
            return Err(format!(
                "{tool} is missing (apt-get install -y default-jdk-headless)"
            ));
        }
    }
    Ok(())
}

fn class_path(classes: &Path) -> String {
    let mut entries = vec![classes.to_path_buf()];
    // The disruptor is only needed by asynchronous loggers; Debian ships it separately. The
    // Jackson and commons-csv jars let log4j2 build its JSON, XML, YAML and CSV layouts
    // (without them it falls back to PatternLayout), as the scenario oracle's run.sh puts them
    // on its class path; Woodstox is the StAX writer XmlLayout writes through (see the
    // conformance oracle); JavaMail and the activation framework let it build SMTP appenders.
    for jar in [
        "log4j-api.jar",
        "log4j-core.jar",
        "disruptor.jar",
        "jackson-core.jar",
        "jackson-databind.jar",
        "jackson-annotations.jar",
        "jackson-dataformat-xml.jar",
        "stax2-api.jar",
        "woodstox-core.jar",
        "jackson-dataformat-yaml.jar",
        "snakeyaml.jar",
        "commons-csv.jar",
        "javax.mail.jar",
        "javax.activation.jar",
    ] {
        let path = jar_dir().join(jar);
        if path.exists() {
            entries.push(path);
        }
    }
    entries
        .iter()
        .map(|path| path.display().to_string())
        .collect::<Vec<_>>()
        .join(":")
}

/// Loads every file with log4j2 in one JVM; the dumps by file name.
pub(crate) fn run_log4j2(files: &[PathBuf]) -> Result<BTreeMap<String, Log4j2Dump>, String> {
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("corpus-oracle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    let classes = work.join("classes");
    let sandbox = work.join("sandbox");
    std::fs::create_dir_all(&classes).map_err(|e| format!("{}: {e}", classes.display()))?;
    std::fs::create_dir_all(&sandbox).map_err(|e| format!("{}: {e}", sandbox.display()))?;
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus_oracle/ConfigDump.java");
    let javac = Command::new("javac")
        .args(["-nowarn", "-encoding", "UTF-8", "-d"])
        .arg(&classes)
        .arg("-cp")
        .arg(class_path(&classes))
        .arg(&source)
        .output()
        .map_err(|e| format!("javac: {e}"))?;
    if !javac.status.success() {
        return Err(format!(
            "compiling ConfigDump.java failed:\n{}",
            String::from_utf8_lossy(&javac.stderr)
        ));
    }
    let sandbox = sandbox
        .canonicalize()
        .map_err(|e| format!("{}: {e}", sandbox.display()))?;
    let output = Command::new("java")
        .current_dir(&sandbox)
        .args([
            "-XX:-UsePerfData",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-Xlog:disable",
            "-Xlog:all=warning:stderr",
            "-Djava.security.manager=allow",
            "-Dfile.encoding=UTF-8",
        ])
        .arg(format!("-Duser.home={}", sandbox.display()))
        .arg(format!("-Djava.io.tmpdir={}", sandbox.display()))
        .arg("-cp")
        .arg(class_path(&classes))
        .arg("ConfigDump")
        .arg(&sandbox)
        .args(files)
        .output()
        .map_err(|e| format!("java: {e}"))?;
    let _ = std::fs::remove_dir_all(&work);
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(20).collect();
        return Err(format!(
            "ConfigDump exited with {}; last lines of stderr:\n{}",
            output.status,
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        ));
    }
    Ok(parse(&String::from_utf8_lossy(&output.stdout)))
}

fn parse(stdout: &str) -> BTreeMap<String, Log4j2Dump> {
    let mut dumps = BTreeMap::new();
    let mut current: Option<(String, Log4j2Dump)> = None;
    for line in stdout.lines() {
        if let Some(name) = line.strip_prefix("file ") {
            current = Some((name.to_string(), Log4j2Dump::default()));
        } else if line == "end" {
            if let Some((name, dump)) = current.take() {
                dumps.insert(name, dump);
            }
        } else if let Some((_, dump)) = current.as_mut() {
            match line.strip_prefix("denied ") {
                Some(path) => dump.denied.push(path.to_string()),
                None => dump.lines.push(normalize(line)),
            }
        }
    }
    dumps
}

/// Default consoles are numbered per process, differently on each side.
pub(crate) fn normalize(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("DefaultConsole-") {
        let (before, after) = rest.split_at(at + "DefaultConsole-".len());
        out.push_str(before);
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        out.push('N');
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

/// l4rs-config's reading of a configuration, in `ConfigDump.java`'s lines.
pub(crate) fn l4rs_dump(config: &Configuration) -> Vec<String> {
    let mut lines = Vec::new();
    let mut appenders: Vec<_> = config.appenders.iter().collect();
    appenders.sort_by(|a, b| java_order(&a.name, &b.name));
    for appender in appenders {
        let kind = match &appender.kind {
            AppenderKind::Console(_) => "Console",
            AppenderKind::File(_) => "File",
            AppenderKind::RandomAccessFile(_) => "RandomAccessFile",
            AppenderKind::MemoryMappedFile(_) => "MemoryMappedFile",
            AppenderKind::Async(_) => "Async",
            AppenderKind::RollingFile(_) => "RollingFile",
            AppenderKind::RollingRandomAccessFile(_) => "RollingRandomAccessFile",
            AppenderKind::RollingMemoryMappedFile(_) => "RollingMemoryMappedFile",
            AppenderKind::Null => "Null",
            AppenderKind::CountingNoOp => "CountingNoOp",
            AppenderKind::Failover(_) => "Failover",
            AppenderKind::Rewrite(_) => "Rewrite",
            AppenderKind::Socket(spec) => spec.element,
            AppenderKind::Routing(_) => "Routing",
            AppenderKind::Kafka(_) => "Kafka",
            AppenderKind::Jdbc(_) => "JDBC",
            AppenderKind::Smtp(_) => "SMTP",
            AppenderKind::Http(_) => "Http",
        };
        // log4j2's AsyncAppender has no layout (`getLayout()` is null), nor has its JDBC
        // appender (`AbstractDatabaseAppender.getLayout()` is null whatever is configured); the
        // others fall back to a PatternLayout when none is configured.
        let layout = match (&appender.kind, &appender.layout) {
            (
                AppenderKind::Async(_)
                | AppenderKind::Null
                | AppenderKind::CountingNoOp
                | AppenderKind::Failover(_)
                | AppenderKind::Rewrite(_)
                | AppenderKind::Routing(_)
                | AppenderKind::Jdbc(_),
                _,
            ) => "-",
            (_, None | Some(LayoutSpec::Pattern(_))) => "PatternLayout",
            (_, Some(LayoutSpec::Json(_))) => "JsonLayout",
            (_, Some(LayoutSpec::Xml(_))) => "XmlLayout",
            (_, Some(LayoutSpec::Yaml(_))) => "YamlLayout",
            (_, Some(LayoutSpec::Syslog(_))) => "SyslogLayout",
            (_, Some(LayoutSpec::Rfc5424(_))) => "Rfc5424Layout",
            (_, Some(LayoutSpec::Gelf(_))) => "GelfLayout",
            (_, Some(LayoutSpec::Csv(spec))) => match spec.kind {
                l4rs_config::model::CsvLayoutKind::LogEvent => "CsvLogEventLayout",
                l4rs_config::model::CsvLayoutKind::Parameter => "CsvParameterLayout",
            },
            (_, Some(LayoutSpec::JsonTemplate(_))) => "JsonTemplateLayout",
            (_, Some(LayoutSpec::Html(_))) => "HtmlLayout",
        };
        lines.push(format!(
            "appender {} {kind} layout={layout} filter={}",
            appender.name,
            filter(appender.filter.as_ref())
        ));
    }
    let tree = LoggerTree::new(&config.loggers);
    let name_of = |index: usize| {
        let name = &tree.node(index).spec.name;
        if index == tree.root() || name.is_empty() {
            "<root>".to_string()
        } else {
            name.clone()
        }
    };
    let mut order: Vec<usize> = (0..tree.len()).filter(|&i| i != tree.root()).collect();
    order.sort_by(|&a, &b| java_order(&tree.node(a).spec.name, &tree.node(b).spec.name));
    order.insert(0, tree.root());
    for index in order {
        let node = tree.node(index);
        let name = name_of(index);
        let parent = node.parent.map_or_else(|| "-".to_string(), name_of);
        // The root has no parent: its additivity means nothing, and the two sides default it
        // differently (log4j2's root builder to false).
        let additive = if index == tree.root() {
            "-".to_string()
        } else {
            node.spec.additivity.to_string()
        };
        lines.push(format!(
            "logger {name} async={} level={} additive={additive} parent={parent} filter={}",
            node.spec.asynchronous,
            node.effective_level.name(),
            filter(node.spec.filter.as_ref())
        ));
        for reference in &node.spec.appender_refs {
            lines.push(reference_line(&name, reference));
        }
    }
    if let Some(context_filter) = &config.filter {
        lines.push(format!("filter {}", filter(Some(context_filter))));
    }
    lines.iter().map(|line| normalize(line)).collect()
}

fn reference_line(logger: &str, reference: &AppenderRefSpec) -> String {
    format!(
        "ref {logger} {} level={} filter={}",
        reference.appender,
        reference.level.map_or("-", |level| level.name()),
        filter(reference.filter.as_ref())
    )
}

/// Java's `String.compareTo` (UTF-16 order), as the dump's `TreeMap` sorts.
fn java_order(a: &str, b: &str) -> std::cmp::Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

fn simple(name: &str, details: String, verdicts: &FilterVerdicts) -> String {
    format!(
        "{name}({details}{},{})",
        verdicts.on_match, verdicts.on_mismatch
    )
}

fn filter(spec: Option<&FilterSpec>) -> String {
    let Some(spec) = spec else {
        return "-".to_string();
    };
    let level = |level: &Level| format!("{},", level.name());
    match spec {
        FilterSpec::Composite(children) => format!(
            "Filters[{}]",
            children
                .iter()
                .map(|child| filter(Some(child)))
                .collect::<Vec<_>>()
                .join(",")
        ),
        FilterSpec::Threshold { level: l, verdicts } => {
            simple("ThresholdFilter", level(l), verdicts)
        }
        FilterSpec::LevelRange {
            min_level,
            max_level,
            verdicts,
        } => simple(
            "LevelRangeFilter",
            format!("{}..{},", min_level.name(), max_level.name()),
            verdicts,
        ),
        FilterSpec::LevelMatch { verdicts, .. } => {
            simple("LevelMatchFilter", String::new(), verdicts)
        }
        FilterSpec::Regex { verdicts, .. } => simple("RegexFilter", String::new(), verdicts),
        FilterSpec::StringMatch { verdicts, .. } => {
            simple("StringMatchFilter", String::new(), verdicts)
        }
        FilterSpec::Marker { verdicts, .. } => simple("MarkerFilter", String::new(), verdicts),
        FilterSpec::NoMarker { verdicts } => simple("NoMarkerFilter", String::new(), verdicts),
        FilterSpec::Burst { verdicts, .. } => simple("BurstFilter", String::new(), verdicts),
        FilterSpec::DenyAll { verdicts } => simple("DenyAllFilter", String::new(), verdicts),
        FilterSpec::DynamicThreshold { verdicts, .. } => {
            simple("DynamicThresholdFilter", String::new(), verdicts)
        }
        FilterSpec::ThreadContextMap { verdicts, .. } => {
            simple("ThreadContextMapFilter", String::new(), verdicts)
        }
        FilterSpec::Time { verdicts, .. } => simple("TimeFilter", String::new(), verdicts),
        FilterSpec::MutableThreadContextMap(spec) => simple(
            "MutableThreadContextMapFilter",
            String::new(),
            &spec.verdicts,
        ),
        FilterSpec::MessageMap {
            structured_data,
            verdicts,
            ..
        } => {
            let name = if *structured_data {
                "StructuredDataFilter"
            } else {
                "MapFilter"
            };
            simple(name, String::new(), verdicts)
        }
    }
}
