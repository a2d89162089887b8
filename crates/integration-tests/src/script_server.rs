//! A test server run as a script in a child process (`src/smtp_sink.py`, `src/http_sink.py`):
//! it prints `ready PORT` once it listens on 127.0.0.1, and ends when its stdin closes, which
//! dropping the [`ScriptServer`] does (killing it if it lingers). What it receives it writes
//! into a directory as one JSON record per file (`NNNN.json`), read back by [`read_records`].

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a server may take to start listening.
const STARTUP: Duration = Duration::from_secs(20);

/// The command that runs the server script `script` (a file of this crate's `src/`) recording
/// into `out` (made fresh), for at most ten minutes; `None` after the notice
/// (`l4rs_test_support::shared::skip_or_fail`, a failure under CI) when python3 cannot
/// `import module`, so the tests of `what` cannot run; `install` says how to get it.
pub(crate) fn python_script(
    script: &str,
    out: &Path,
    module: &str,
    what: &str,
    install: &str,
) -> Option<Command> {
    let available = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !available {
        l4rs_test_support::shared::skip_or_fail(what, install);
        return None;
    }
    let _ = std::fs::remove_dir_all(out);
    std::fs::create_dir_all(out).expect("the records' directory");
    let mut command = Command::new("python3");
    command
        .arg(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("src")
                .join(script),
        )
        .arg(out)
        .args(["--lifetime", "600"]);
    Some(command)
}

/// A running server script.
pub(crate) struct ScriptServer {
    child: Child,
    port: u16,
}

impl ScriptServer {
    /// Runs `command` (the script and its arguments) and waits for its `ready PORT` line;
    /// `what` names the server in panics.
    pub(crate) fn start(what: &str, mut command: Command) -> ScriptServer {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|error| panic!("start the {what}: {error}"));
        let stdout = child.stdout.take().expect("the server's stdout");
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = sender.send(line);
        });
        let line = match receiver.recv_timeout(STARTUP) {
            Ok(line) => line,
            Err(_) => {
                let _ = child.kill();
                panic!("the {what} did not start within {STARTUP:?}");
            }
        };
        let port = line
            .trim()
            .strip_prefix("ready ")
            .and_then(|port| port.parse().ok())
            .unwrap_or_else(|| panic!("the {what} said {line:?}"));
        ScriptServer { child, port }
    }

    /// The port it listens on, on 127.0.0.1.
    pub(crate) fn port(&self) -> u16 {
        self.port
    }
}

impl Drop for ScriptServer {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The records a server script wrote into `dir` so far (`*.json`, in name order), each read
/// by `read`.
pub(crate) fn read_records<T>(dir: &Path, read: impl Fn(&serde_json::Value) -> T) -> Vec<T> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the records' directory")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).expect("a record");
            read(&serde_json::from_str(&text).expect("a JSON record"))
        })
        .collect()
}

/// Reads `records` until there are `count` of them or `limit` has passed; returns the last.
pub(crate) fn wait_for_records<T>(
    count: usize,
    limit: Duration,
    records: impl Fn() -> Vec<T>,
) -> Vec<T> {
    let start = Instant::now();
    loop {
        let found = records();
        if found.len() >= count || start.elapsed() > limit {
            return found;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
