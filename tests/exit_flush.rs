//! Nothing buffered is lost when a program ends without calling `l4rs::shutdown()`: returning
//! from `main`, `std::process::exit` and a panic in `main` all flush and close the appenders.

use std::process::Command;

fn run_probe(mode: &str) -> Vec<String> {
    let dir = l4rs_tests::fresh_output_dir(&format!("exit-{mode}"));
    // A large buffer without immediate flush: the lines stay in memory until shutdown.
    let xml = format!(
        r#"<Configuration><Appenders>
  <File name="F" fileName="{dir}/probe.log" immediateFlush="false" bufferSize="1048576">
    <PatternLayout pattern="%m%n" footer="footer%n"/>
  </File>
</Appenders><Loggers><Root level="info"><AppenderRef ref="F"/></Root></Loggers></Configuration>"#,
        dir = dir.display()
    );
    let config = l4rs_tests::write_config(&dir, &xml);
    let status = Command::new(env!("CARGO_BIN_EXE_l4rs-exit-probe"))
        .arg(mode)
        .arg(&config)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("run the probe");
    assert_eq!(status.success(), mode != "panic", "{mode}: {status}");
    l4rs_tests::read_lines(&dir.join("probe.log"))
}

fn assert_complete(lines: &[String]) {
    assert_eq!(lines.len(), 1001, "every event and the footer");
    for (index, line) in lines[..1000].iter().enumerate() {
        assert_eq!(line, &format!("event {index}"));
    }
    assert_eq!(lines[1000], "footer");
}

#[test]
fn returning_from_main_flushes() {
    assert_complete(&run_probe("return"));
}

#[test]
fn process_exit_flushes() {
    assert_complete(&run_probe("exit"));
}

#[test]
fn panicking_main_flushes() {
    assert_complete(&run_probe("panic"));
}
