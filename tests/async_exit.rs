//! Nothing queued is lost when a program ends without calling `l4rs::shutdown()`: returning
//! from `main`, `std::process::exit` and a panic in `main` drain the AsyncLogger queue and the
//! Async appenders into buffered appenders, which are then flushed and closed.

use std::path::Path;
use std::process::Command;

fn run_probe(mode: &str) -> std::path::PathBuf {
    let dir = l4rs_tests::fresh_output_dir(&format!("async-exit-{mode}"));
    let xml = format!(
        r#"<Configuration><Appenders>
  <RandomAccessFile name="R" fileName="{dir}/raf.log" immediateFlush="false">
    <PatternLayout pattern="%m%n" footer="footer%n"/>
  </RandomAccessFile>
  <MemoryMappedFile name="M" fileName="{dir}/mmf.log">
    <PatternLayout pattern="%m%n" footer="footer%n"/>
  </MemoryMappedFile>
  <File name="F" fileName="{dir}/file.log" immediateFlush="false" bufferSize="1048576">
    <PatternLayout pattern="%m%n" footer="footer%n"/>
  </File>
  <Async name="A" bufferSize="8"><AppenderRef ref="F"/></Async>
</Appenders><Loggers>
  <AsyncRoot level="info"><AppenderRef ref="R"/><AppenderRef ref="M"/><AppenderRef ref="A"/></AsyncRoot>
</Loggers></Configuration>"#,
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
    dir
}

fn assert_complete(dir: &Path) {
    let mut expected = String::new();
    for index in 0..1000 {
        expected += &format!("event {index}\n");
    }
    expected += "footer\n";
    for file in ["raf.log", "mmf.log", "file.log"] {
        let contents = std::fs::read_to_string(dir.join(file)).unwrap_or_default();
        assert!(
            contents == expected,
            "{file}: {} lines, expected 1001",
            contents.lines().count()
        );
    }
}

#[test]
fn returning_from_main_drains_the_queues() {
    assert_complete(&run_probe("return"));
}

#[test]
fn process_exit_drains_the_queues() {
    assert_complete(&run_probe("exit"));
}

#[test]
fn panicking_main_drains_the_queues() {
    assert_complete(&run_probe("panic"));
}
