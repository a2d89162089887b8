//! `--vs-log4j2`: compiles and runs the project's Java harness (`crates/bench/java/`) against
//! Debian's log4j2 jars, one JVM per row, between the l4rs rows.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::report::{parse_result_line, Measurement};

/// The harness's main class (and source file name).
pub const MAIN_CLASS: &str = "L4rsLog4j2Harness";

/// The jars the harness needs, in `LOG4J_JAR_DIR` (default `/usr/share/java`).
pub const JARS: [&str; 3] = ["log4j-api.jar", "log4j-core.jar", "disruptor.jar"];

/// Jars put on the harness's class path when they are there: Jackson, which log4j2's
/// JsonLayout needs (`apt-get install -y libjackson2-databind-java`); without them a
/// `--config` with a JsonLayout runs in log4j2 with its appender failing.
pub const OPTIONAL_JARS: [&str; 3] = [
    "jackson-core.jar",
    "jackson-databind.jar",
    "jackson-annotations.jar",
];

/// A compiled harness, ready to run.
#[derive(Clone, Debug)]
pub struct Harness {
    classpath: String,
    /// Java's and log4j2's versions as the harness reported them, once it has run.
    pub version: Option<String>,
}

/// The harness's source folder in this checkout.
pub fn source_dir() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("java")
}

/// The harness for a run that asked for log4j2's rows (`wanted`, `--vs-log4j2`), compiled under
/// `base`: the harness, or why there is none (`None` for both when not wanted).
pub fn prepare_if(wanted: bool, base: &Path) -> (Option<Harness>, Option<String>) {
    if !wanted {
        return (None, None);
    }
    match prepare(&base.join("java-classes")) {
        Ok(harness) => (Some(harness), None),
        Err(reason) => (None, Some(reason)),
    }
}

/// Checks for `java`, `javac` and the jars, then compiles the harness into `build`.
/// The error says what is missing and how to install it.
pub fn prepare(build: &Path) -> Result<Harness, String> {
    let jar_dir = PathBuf::from(
        std::env::var_os("LOG4J_JAR_DIR").unwrap_or_else(|| "/usr/share/java".into()),
    );
    let missing: Vec<String> = JARS
        .iter()
        .map(|jar| jar_dir.join(jar))
        .filter(|jar| !jar.is_file())
        .map(|jar| jar.display().to_string())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "missing {} (apt-get install -y liblog4j2-java libdisruptor-java)",
            missing.join(", ")
        ));
    }
    for tool in ["java", "javac"] {
        if Command::new(tool).arg("-version").output().is_err() {
            return Err(format!(
                "'{tool}' not found (apt-get install -y default-jdk-headless)"
            ));
        }
    }
    let jars: Vec<String> = JARS
        .iter()
        .map(|jar| jar_dir.join(jar).display().to_string())
        .collect();
    std::fs::create_dir_all(build).map_err(|e| format!("{}: {e}", build.display()))?;
    let source = source_dir().join(format!("{MAIN_CLASS}.java"));
    let output = Command::new("javac")
        .arg("-nowarn")
        .arg("-d")
        .arg(build)
        .arg("-cp")
        .arg(jars.join(":"))
        .arg(&source)
        .output()
        .map_err(|e| format!("javac: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "javac {} failed: {}",
            source.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let optional: Vec<String> = OPTIONAL_JARS
        .iter()
        .map(|jar| jar_dir.join(jar))
        .filter(|jar| jar.is_file())
        .map(|jar| jar.display().to_string())
        .collect();
    let jars = jars.into_iter().chain(optional).collect::<Vec<_>>();
    Ok(Harness {
        classpath: format!("{}:{}", build.display(), jars.join(":")),
        version: None,
    })
}

/// One log4j2 row to run.
pub struct JavaRun<'a> {
    /// The configuration file.
    pub config: &'a Path,
    /// The logger.
    pub logger: &'a str,
    /// The row label (appender name).
    pub label: &'a str,
    /// Files whose growth is the row's bytes written.
    pub files: &'a [PathBuf],
    /// `bench.dir` for the configuration.
    pub dir: &'a Path,
    /// Worker threads.
    pub threads: usize,
    /// Warm-up.
    pub warmup: Duration,
    /// Measured window.
    pub measure: Duration,
}

impl Harness {
    /// Runs one row in a fresh JVM; `Err` carries the reason it produced no figures.
    pub fn run(&mut self, run: &JavaRun<'_>) -> Result<Measurement, String> {
        let command = self.command(run);
        self.first_answer(command, |line| {
            parse_result_line(line).map(|(_, _, measurement)| measurement)
        })
    }

    /// Runs one row in a fresh JVM at `rate` calls per second per thread, every call timed
    /// from its scheduled start (`--latency`); `Err` carries the reason it produced no
    /// `LATENCY` line.
    pub fn run_latency(
        &mut self,
        run: &JavaRun<'_>,
        rate: f64,
    ) -> Result<crate::latency::result::Latency, String> {
        let mut command = self.command(run);
        command.arg("--rate-per-thread").arg(format!("{rate:.0}"));
        self.first_answer(command, crate::latency::result::Latency::parse)
    }

    /// Runs `command` and returns the first line of its output that `answer` reads, or the
    /// harness's `SKIPPED` reason; notes the log4j2 version its `INFO` line names.
    fn first_answer<T>(
        &mut self,
        mut command: Command,
        answer: impl Fn(&str) -> Option<T>,
    ) -> Result<T, String> {
        let output = command.output().map_err(|e| format!("java: {e}"))?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        for line in stdout.lines() {
            if let Some(info) = line.strip_prefix("INFO ") {
                self.version = Some(info.to_string());
            }
            if let Some(answer) = answer(line) {
                return Ok(answer);
            }
            if let Some(skipped) = line.strip_prefix("SKIPPED ") {
                return Err(skipped.to_string());
            }
        }
        Err(no_result(&output))
    }

    /// The JVM's command line for `run`.
    fn command(&self, run: &JavaRun<'_>) -> Command {
        let files: Vec<String> = run.files.iter().map(|f| f.display().to_string()).collect();
        let mut command = Command::new("java");
        command
            // A heap large enough that GC pauses do not dominate, as in the JMH setup the log4j2 appender benchmark comes from.
            .args(["-Xms2g", "-Xmx2g"])
            // log4j 2.19's MemoryMappedFile unmaps through JDK internals; without these it
            // spins forever once its first region is full (Java 9+).
            .args([
                "--add-opens",
                "java.base/java.nio=ALL-UNNAMED",
                "--add-opens",
                "java.base/jdk.internal.ref=ALL-UNNAMED",
            ])
            .arg(format!("-Dbench.dir={}", run.dir.display()))
            .arg("-cp")
            .arg(&self.classpath)
            .arg(MAIN_CLASS)
            .arg("--config")
            .arg(run.config)
            .args(["--logger", run.logger, "--label", run.label])
            .arg("--files")
            .arg(files.join(","))
            .arg("--threads")
            .arg(run.threads.to_string())
            .arg("--warmup-ms")
            .arg(run.warmup.as_millis().to_string())
            .arg("--measure-ms")
            .arg(run.measure.as_millis().to_string());
        command
    }
}

/// Why a harness run printed no figures: its exit status and the start of its stderr.
fn no_result(output: &std::process::Output) -> String {
    format!(
        "the harness printed no RESULT (exit {}): {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
            .lines()
            .take(3)
            .collect::<Vec<_>>()
            .join(" / ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_harness_logs_the_same_message() {
        let source = include_str!("../java/L4rsLog4j2Harness.java");
        assert!(source.contains(&format!("\"{}\"", crate::workload::MESSAGE)));
        assert!(source.contains(&format!("public final class {MAIN_CLASS}")));
    }

    #[test]
    fn the_harness_is_found_in_this_checkout() {
        assert!(source_dir().join(format!("{MAIN_CLASS}.java")).is_file());
    }
}
