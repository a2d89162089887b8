//! What the tests that ask the JDK have in common: finding it (or skipping without it, except
//! under CI), compiling a program of tests/java/ into a temporary folder, running it, and the
//! hexadecimal encoding that carries any text to it and back.

#![allow(dead_code)] // each test binary uses its own part

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

/// True when `javac`, `java` and the `jars` are there. Without them the test is skipped with a
/// notice, except under CI (`CI` set), where their absence fails it.
pub(crate) fn require_jdk(jars: &[&str]) -> bool {
    let tool_missing = ["javac", "java"]
        .into_iter()
        .find(|tool| Command::new(tool).arg("-version").output().is_err())
        .map(|tool| format!("{tool} is missing (apt-get install -y default-jdk-headless)"));
    let jar_missing = || {
        jars.iter()
            .find(|jar| !Path::new(jar).is_file())
            .map(|jar| format!("{jar} is missing (apt-get install -y liblog4j2-java)"))
    };
    match tool_missing.or_else(jar_missing) {
        None => true,
        Some(missing) => {
            l4rs_test_support::shared::skip_or_fail("a test against Java", &missing);
            false
        }
    }
}

pub(crate) use l4rs_test_support::TempDir;

/// UTF-8 bytes in hexadecimal, two digits each.
pub(crate) fn hex(text: &str) -> String {
    text.bytes().map(|b| format!("{b:02x}")).collect()
}

/// The text [`hex`] encoded.
pub(crate) fn unhex(hex: &str) -> String {
    let bytes = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hexadecimal digits"))
        .collect();
    String::from_utf8(bytes).expect("java writes UTF-8")
}

/// Compiles `tests/java/<class>.java` (and the classes of tests/java/ it uses, such as
/// `OracleLines`) into `dir` with `jars` on the class path, runs it with `input` on stdin in
/// the en_US locale, and returns its output lines.
pub(crate) fn run_java(dir: &Path, class: &str, jars: &[&str], input: &str) -> Vec<String> {
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/java");
    let source = sources.join(format!("{class}.java"));
    let mut class_path = vec![dir.display().to_string()];
    class_path.extend(jars.iter().map(|jar| jar.to_string()));
    let class_path = class_path.join(":");
    let javac = Command::new("javac")
        .arg("-cp")
        .arg(&class_path)
        .arg("-sourcepath")
        .arg(&sources)
        .arg("-d")
        .arg(dir)
        .arg(&source)
        .output()
        .expect("run javac");
    assert!(
        javac.status.success(),
        "javac {}: {}",
        source.display(),
        String::from_utf8_lossy(&javac.stderr)
    );
    let mut java = Command::new("java")
        .args([
            "-Duser.language=en",
            "-Duser.country=US",
            "-XX:-UsePerfData",
        ])
        .arg("-cp")
        .arg(&class_path)
        .arg(class)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run java");
    java.stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("write the cases to java");
    let output = java.wait_with_output().expect("wait for java");
    assert!(
        output.status.success(),
        "java {class}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("java writes UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}
