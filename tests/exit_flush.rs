//! Nothing buffered is lost when a program ends without calling `l4rs::shutdown()`: returning
//! from `main`, `std::process::exit` and a panic in `main` all flush and close the appenders.
//! A buffered File, a RandomAccessFile without immediate flush (whose 256 KiB buffer holds all
//! 1000 events) and a MemoryMappedFile (which must be truncated to its data, not left padded
//! to the end of its region) are checked in each case.

use std::path::Path;
use std::process::Command;

fn run_probe(mode: &str) -> std::path::PathBuf {
    let dir = l4rs_tests::fresh_output_dir(&format!("exit-{mode}"));
    // Large buffers without immediate flush: the lines stay in memory until shutdown.
    let xml = format!(
        r#"<Configuration><Appenders>
  <File name="F" fileName="{dir}/probe.log" immediateFlush="false" bufferSize="1048576">
    <PatternLayout pattern="%m%n" footer="footer%n"/>
  </File>
  <RandomAccessFile name="R" fileName="{dir}/raf.log" immediateFlush="false">
    <PatternLayout pattern="%m%n" footer="footer%n"/>
  </RandomAccessFile>
  <MemoryMappedFile name="M" fileName="{dir}/mmf.log">
    <PatternLayout pattern="%m%n" footer="footer%n"/>
  </MemoryMappedFile>
</Appenders><Loggers><Root level="info">
  <AppenderRef ref="F"/><AppenderRef ref="R"/><AppenderRef ref="M"/>
</Root></Loggers></Configuration>"#,
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

/// Every event and the footer, and nothing else: no NUL padding after a memory-mapped file's
/// data, and no header (RandomAccessFile and MemoryMappedFile lose it, as in log4j2 2.19).
fn assert_complete(dir: &Path) {
    let mut expected = String::new();
    for index in 0..1000 {
        expected += &format!("event {index}\n");
    }
    expected += "footer\n";
    for file in ["probe.log", "raf.log", "mmf.log"] {
        let contents = std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(
            contents == expected.as_bytes(),
            "{file}: {} bytes, {} NUL bytes, expected {} bytes",
            contents.len(),
            contents.iter().filter(|&&b| b == 0).count(),
            expected.len()
        );
    }
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
