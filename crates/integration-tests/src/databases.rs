//! The databases of the JDBC appender's tests, read with clients independent of the ones
//! l4rs uses: the `sqlite3` shell for SQLite files ([`sqlite3`]), and [`Postgres`].
//!
//! [`Postgres`] is a throwaway PostgreSQL server: a fresh cluster (`initdb`,
//! trust authentication, superuser `l4rs`) in a directory of the test's, started on 127.0.0.1
//! on a free port with `fsync` off, stopped (fast shutdown) when dropped. Rows are read back
//! with `psql`, a client independent of the one l4rs uses.
//!
//! PostgreSQL refuses to run as root; under root (as in CI) the cluster belongs to the
//! `postgres` user the Debian package creates, and the server runs as that user.
//! `.ci/setup/60-databases.sh` installs the packages; without them [`Postgres::start`] returns
//! `None` after `l4rs_test_support::shared::skip_or_fail` (a notice; a failure under CI).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::net::refused_port;

/// How long the server may take to start accepting connections.
const STARTUP: Duration = Duration::from_secs(30);

/// A running server; dropped, it stops.
pub struct Postgres {
    child: Child,
    port: u16,
    /// The server programs' directory.
    bin: PathBuf,
    /// The cluster's directory (data, sockets, log).
    dir: PathBuf,
}

/// Starts `postgres` on the cluster in `dir`, listening on 127.0.0.1:`port`.
fn spawn_server(bin: &Path, dir: &Path, port: u16) -> Child {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("server.log"))
        .expect("server log");
    command(&bin.join("postgres"))
        .arg("-D")
        .arg(dir.join("data"))
        .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-k"])
        .arg(dir.join("sockets"))
        .args(["-c", "fsync=off", "-c", "max_connections=20"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("start postgres")
}

/// The directory of PostgreSQL's server programs (Debian: /usr/lib/postgresql/N/bin).
fn server_bin() -> Option<PathBuf> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .map(|entry| entry.path().join("bin"))
        .filter(|bin| bin.join("postgres").exists() && bin.join("initdb").exists())
        .collect();
    versions.sort();
    versions.pop()
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// `program` run as the `postgres` user when this process is root, else as itself.
fn command(program: &Path) -> Command {
    if is_root() {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program);
        command
    } else {
        Command::new(program)
    }
}

impl Postgres {
    /// Starts a fresh server with its cluster in `dir` (created; emptied first).
    pub fn start(dir: &Path) -> Option<Postgres> {
        let (Some(bin), true) = (server_bin(), psql_available()) else {
            l4rs_test_support::shared::skip_or_fail(
                "this PostgreSQL test",
                "PostgreSQL's server and psql are not installed (.ci/setup/60-databases.sh installs them)",
            );
            return None;
        };
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir).expect("cluster directory");
        let data = dir.join("data");
        let sockets = dir.join("sockets");
        std::fs::create_dir_all(&sockets).expect("socket directory");
        if is_root() {
            // The server's user must own its directories and reach them through the test's.
            let status = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(dir)
                .status()
                .expect("run chown");
            assert!(status.success(), "chown {}", dir.display());
            let mut ancestor = dir.parent();
            while let Some(path) = ancestor {
                if let Ok(metadata) = std::fs::metadata(path) {
                    let mode = metadata.permissions().mode();
                    if mode & 0o001 == 0 {
                        let _ = std::fs::set_permissions(
                            path,
                            std::fs::Permissions::from_mode(mode | 0o001),
                        );
                    }
                }
                ancestor = path.parent();
            }
        }
        let output = command(&bin.join("initdb"))
            .arg("-D")
            .arg(&data)
            .args(["-U", "l4rs", "--auth=trust", "-E", "UTF8", "--locale=C"])
            .stdin(Stdio::null())
            .output()
            .expect("run initdb");
        assert!(
            output.status.success(),
            "initdb: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let port = refused_port();
        let child = spawn_server(&bin, dir, port);
        let server = Postgres {
            child,
            port,
            bin,
            dir: dir.to_path_buf(),
        };
        server.wait_until_ready();
        Some(server)
    }

    /// Starts the stopped server again, on the same port with the same data.
    pub fn restart(&mut self) {
        self.child = spawn_server(&self.bin, &self.dir, self.port);
        self.wait_until_ready();
    }

    fn wait_until_ready(&self) {
        let deadline = Instant::now() + STARTUP;
        while self.psql("select 1").is_err() {
            assert!(
                Instant::now() < deadline,
                "PostgreSQL did not start in {STARTUP:?}: {}",
                std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The server's port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A pgjdbc URL of the `postgres` database as user `l4rs`.
    pub fn jdbc_url(&self) -> String {
        format!(
            "jdbc:postgresql://127.0.0.1:{}/postgres?user=l4rs",
            self.port
        )
    }

    /// Runs `sql` with psql; its unaligned output (`|` between fields, one row a line).
    pub fn psql(&self, sql: &str) -> Result<String, String> {
        let output = Command::new("psql")
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string()])
            .args([
                "-U",
                "l4rs",
                "-d",
                "postgres",
                "-X",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-c",
                sql,
            ])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| e.to_string())?;
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        } else {
            Err(String::from_utf8_lossy(&output.stderr).into_owned())
        }
    }

    /// Freezes the server and its backends (SIGSTOP): connections stay open and nothing is
    /// answered, as with a server that hangs. [`Postgres::resume`] thaws them.
    pub fn pause(&self) {
        self.signal_all(libc::SIGSTOP);
    }

    /// Thaws a server [`Postgres::pause`] froze.
    pub fn resume(&self) {
        self.signal_all(libc::SIGCONT);
    }

    /// Sends `signal` to the postmaster (the first line of `postmaster.pid`) and its children.
    fn signal_all(&self, signal: libc::c_int) {
        let pid_file =
            std::fs::read_to_string(self.dir.join("data/postmaster.pid")).expect("postmaster.pid");
        let postmaster: libc::pid_t = pid_file
            .lines()
            .next()
            .and_then(|line| line.trim().parse().ok())
            .expect("the postmaster's pid");
        let children = Command::new("pgrep")
            .args(["-P", &postmaster.to_string()])
            .output()
            .expect("run pgrep");
        let pids = String::from_utf8_lossy(&children.stdout)
            .lines()
            .filter_map(|line| line.trim().parse::<libc::pid_t>().ok())
            .chain([postmaster])
            .collect::<Vec<_>>();
        for pid in pids {
            // SAFETY: kill has no memory preconditions; the pids are the server's.
            unsafe {
                libc::kill(pid, signal);
            }
        }
    }

    /// Stops the server (fast shutdown: clients are disconnected) and waits for it. Through
    /// `pg_ctl`: under root the child is `runuser`, which does not pass signals on.
    pub fn stop(&mut self) {
        let _ = command(&self.bin.join("pg_ctl"))
            .arg("stop")
            .arg("-D")
            .arg(self.dir.join("data"))
            .args(["-m", "fast", "-w", "-t", "30"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let deadline = Instant::now() + STARTUP;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.stop();
        }
    }
}

fn psql_available() -> bool {
    Command::new("psql")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// Runs `sql` on the SQLite database `file` with the sqlite3 shell (not the library l4rs
/// links); its output with `|` between fields, one row a line. `None` (after the notice) when
/// the shell is missing.
pub fn sqlite3(file: &Path, sql: &str) -> Option<String> {
    let output = match Command::new("sqlite3")
        .arg(file)
        .arg(sql)
        .stdin(Stdio::null())
        .output()
    {
        Ok(output) => output,
        Err(_) => {
            l4rs_test_support::shared::skip_or_fail(
                "this SQLite test",
                "the sqlite3 shell is not installed (.ci/setup/60-databases.sh installs it)",
            );
            return None;
        }
    };
    assert!(
        output.status.success(),
        "sqlite3 {sql}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(String::from_utf8_lossy(&output.stdout).into_owned())
}
