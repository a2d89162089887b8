//! A test server run as a script in a child process (`src/smtp_sink.py`, `src/http_sink.py`):
//! it prints `ready PORT` once it listens on 127.0.0.1, and ends when its stdin closes, which
//! dropping the [`ScriptServer`] does (killing it if it lingers).

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a server may take to start listening.
const STARTUP: Duration = Duration::from_secs(20);

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
