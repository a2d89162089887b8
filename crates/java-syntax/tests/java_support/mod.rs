//! What the tests that ask the JDK have in common: finding it (or skipping without it, except
//! under CI), running a program of tests/java/, and the hexadecimal encoding that carries any
//! text to it and back.

#![allow(dead_code)] // each test binary uses its own part

use std::path::Path;
use std::process::Command;

/// True when `javac` and `java` are there. Without them the test is skipped with a notice,
/// except under CI (`CI` set), where their absence fails it.
pub(crate) fn require_jdk() -> bool {
    let tool_missing = ["javac", "java"]
        .into_iter()
        .find(|tool| Command::new(tool).arg("-version").output().is_err());
    match tool_missing {
        None => true,
        Some(tool) => {
            l4rs_test_support::shared::skip_or_fail(
                "a test against Java",
                &format!("{tool} is missing (apt-get install -y default-jdk-headless)"),
            );
            false
        }
    }
}

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

/// Runs `tests/java/<class>.java` (compiled with the classes of tests/java/ it uses, such as
/// `OracleLines`, and log4j2's jars, by `crates/conformance/java/run-java.sh`) with `input` on
/// stdin in the en_US locale, and returns its output lines.
pub(crate) fn run_java(class: &str, input: &str) -> Vec<String> {
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/java");
    let output =
        l4rs_test_support::log4j2::run_java_program_in(&sources, class, &[], input.as_bytes());
    String::from_utf8(output.stdout)
        .expect("java writes UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}
