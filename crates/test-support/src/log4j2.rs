//! Real log4j2 (Debian's 2.19 jars and a JDK) for the tests that compare l4rs with it: whether
//! it is installed, running one of the Java counterparts in `crates/conformance/java/`, and
//! asking `Log4j2Answers.java` questions.

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Ok when a JDK and Debian's log4j2 jars (in `LOG4J_JAR_DIR`, default `/usr/share/java`) are
/// there; otherwise a sentence naming what is missing and how to install it.
pub fn available() -> Result<(), String> {
    let jar_dir = std::env::var("LOG4J_JAR_DIR").unwrap_or_else(|_| "/usr/share/java".into());
    for jar in ["log4j-api.jar", "log4j-core.jar", "disruptor.jar"] {
        if !Path::new(&jar_dir).join(jar).exists() {
            return Err(format!(
                "{jar_dir}/{jar} is missing (apt-get install -y liblog4j2-java libdisruptor-java)"
            ));
        }
    }
    if Command::new("javac").arg("-version").output().is_err() {
        return Err("javac is missing (apt-get install -y default-jdk-headless)".into());
    }
    Ok(())
}

/// True when log4j2 can run for the test of `what`; otherwise the test is skipped with a
/// notice, or fails under CI ([`crate::shared::skip_or_fail`]).
pub fn require(what: &str) -> bool {
    match available() {
        Ok(()) => true,
        Err(missing) => {
            crate::shared::skip_or_fail(what, &missing);
            false
        }
    }
}

/// Runs `crates/conformance/java/<class>.java` through `run-java.sh` with `stdin` as its
/// standard input, and returns what it printed. Panics when it cannot be started or fails, with
/// its standard error.
pub fn run_java_program(class: &str, args: &[&str], stdin: &[u8]) -> Output {
    run_java_program_in(
        &crate::workspace_root().join("crates/conformance/java"),
        class,
        args,
        stdin,
    )
}

/// [`run_java_program`] for `<sources>/<class>.java`, compiled with the other classes of
/// `sources` it uses.
pub fn run_java_program_in(sources: &Path, class: &str, args: &[&str], stdin: &[u8]) -> Output {
    let script = crate::workspace_root().join("crates/conformance/java/run-java.sh");
    // Through a file rather than a pipe: the program's answers could fill the other pipe
    // while it still waits for questions.
    let input = crate::TempDir::new("java-stdin");
    let input_path = input.path().join("stdin");
    std::fs::write(&input_path, stdin).expect("write the Java program's input");
    let output = Command::new(&script)
        .env("JAVA_SOURCES", sources)
        .arg(class)
        .args(args)
        .stdin(Stdio::from(
            std::fs::File::open(&input_path).expect("open the Java program's input"),
        ))
        .output()
        .unwrap_or_else(|error| panic!("cannot run {}: {error}", script.display()));
    assert!(
        output.status.success(),
        "{class} failed ({}):\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Asks `Log4j2Answers.java` in `mode` (`periods`, `names`, `cron`, `size`, `age`, `glob`) each of
/// `questions` (one line each, fields tab-separated as the mode takes them) and returns its
/// answers in order. Panics unless there is one answer per question.
pub fn answers(mode: &str, questions: &[String]) -> Vec<String> {
    let input: String = questions
        .iter()
        .map(|question| format!("{question}\n"))
        .collect();
    let output = run_java_program("Log4j2Answers", &[mode], input.as_bytes());
    let answers: Vec<String> = String::from_utf8(output.stdout)
        .expect("Log4j2Answers prints UTF-8")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(
        answers.len(),
        questions.len(),
        "Log4j2Answers {mode}: one answer per question"
    );
    answers
}
