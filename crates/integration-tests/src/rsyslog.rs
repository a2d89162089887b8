//! A real rsyslog for the Syslog and Socket appender tests, started on 127.0.0.1 with a
//! generated configuration: a plain TCP input, a UDP input and, when given certificates, a TLS
//! input (GnuTLS netstream driver) that requires a client certificate signed by the test CA;
//! started with [`Rsyslog::start_relp`], also a RELP input (`imrelp`) and, with certificates, a
//! RELP-over-TLS one, with a direct main queue so that a RELP acknowledgement means the message
//! went through to the output file's action.
//! Everything it receives is written to `out.log` with a template that shows rsyslog's parsed
//! fields, one line per message:
//! `facility|severity|app-name|procid|msgid|structured-data|msg`.
//!
//! rsyslogd and the openssl CLI (for [`Certificates`]) come from Debian packages that
//! `.ci/setup/20-rsyslog.sh` installs. When one is missing, [`Rsyslog::available`] returns
//! false after `l4rs_test_support::shared::skip_or_fail` (a notice; a failure under CI).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::net::refused_port;

/// How long rsyslog may take to start listening or to stop.
const STARTUP: Duration = Duration::from_secs(15);

/// The fields rsyslog parsed from one message (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Received {
    /// `%syslogfacility-text%`, e.g. `local0`.
    pub facility: String,
    /// `%syslogseverity-text%`, e.g. `info`, `warning`, `err`.
    pub severity: String,
    /// `%app-name%`.
    pub app_name: String,
    /// `%procid%`.
    pub proc_id: String,
    /// `%msgid%`.
    pub msg_id: String,
    /// `%structured-data%`.
    pub structured_data: String,
    /// `%msg%`.
    pub msg: String,
}

/// Test certificates made with the openssl CLI: a CA, a server certificate for
/// `localhost`/`127.0.0.1`, one the same CA signed for `other.example` only (`misnamed.pem`,
/// for host-name checks) and a client certificate, the client's also as a PKCS12 key store.
pub struct Certificates {
    /// The directory holding them.
    pub dir: PathBuf,
}

/// The PKCS12 stores' password.
pub const STORE_PASSWORD: &str = "changeit";

impl Certificates {
    /// Makes the certificates in `dir`; `None` (after the notice) when openssl is missing.
    pub fn generate(dir: &Path) -> Option<Certificates> {
        if !tool_available("openssl", "-v") {
            return None;
        }
        std::fs::create_dir_all(dir).expect("certificate directory");
        let run = |args: &[&str]| {
            let output = Command::new("openssl")
                .args(args)
                .current_dir(dir)
                .stdin(Stdio::null())
                .output()
                .expect("run openssl");
            assert!(
                output.status.success(),
                "openssl {args:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        };
        std::fs::write(
            dir.join("server.ext"),
            "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n",
        )
        .unwrap();
        std::fs::write(dir.join("client.ext"), "extendedKeyUsage=clientAuth\n").unwrap();
        std::fs::write(
            dir.join("misnamed.ext"),
            "subjectAltName=DNS:other.example\nextendedKeyUsage=serverAuth\n",
        )
        .unwrap();
        for (name, subject) in [("ca", "/CN=l4rs test CA"), ("other-ca", "/CN=another CA")] {
            run(&[
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                &format!("{name}.key"),
                "-out",
                &format!("{name}.pem"),
                "-days",
                "2",
                "-subj",
                subject,
            ]);
        }
        for (name, subject) in [
            ("server", "/CN=localhost"),
            ("client", "/CN=l4rs client"),
            ("misnamed", "/CN=other.example"),
        ] {
            run(&[
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                &format!("{name}.key"),
                "-out",
                &format!("{name}.csr"),
                "-subj",
                subject,
            ]);
            run(&[
                "x509",
                "-req",
                "-in",
                &format!("{name}.csr"),
                "-CA",
                "ca.pem",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-out",
                &format!("{name}.pem"),
                "-days",
                "2",
                "-extfile",
                &format!("{name}.ext"),
            ]);
        }
        let password = format!("pass:{STORE_PASSWORD}");
        run(&[
            "pkcs12",
            "-export",
            "-in",
            "client.pem",
            "-inkey",
            "client.key",
            "-certfile",
            "ca.pem",
            "-passout",
            &password,
            "-out",
            "client.p12",
        ]);
        // The client's certificate and key in one PEM file, for a PEM key store.
        let mut pem = std::fs::read_to_string(dir.join("client.pem")).unwrap();
        pem += &std::fs::read_to_string(dir.join("client.key")).unwrap();
        std::fs::write(dir.join("client-with-key.pem"), pem).unwrap();
        Some(Certificates {
            dir: dir.to_path_buf(),
        })
    }

    /// A file of the set: `ca.pem`, `other-ca.pem`, `client.p12`, `client-with-key.pem`, …
    pub fn file(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }
}

/// A running rsyslogd.
pub struct Rsyslog {
    dir: PathBuf,
    child: Option<Child>,
    tcp_port: u16,
    udp_port: u16,
    tls_port: Option<u16>,
    tls: bool,
    /// The RELP input's port, and the RELP-over-TLS one's (with certificates), when started
    /// with RELP.
    relp_ports: Option<(u16, Option<u16>)>,
}

impl Rsyslog {
    /// True when rsyslogd can be run; false (after a notice) when it is missing outside CI.
    pub fn available() -> bool {
        tool_available("rsyslogd", "-v")
    }

    /// True when rsyslogd and its RELP input module (Debian's `rsyslog-relp`) are installed;
    /// false (after a notice) when one is missing outside CI.
    pub fn relp_available() -> bool {
        if !Rsyslog::available() {
            return false;
        }
        let module = ["/usr/lib", "/usr/lib64", "/usr/local/lib"]
            .iter()
            .flat_map(|root| {
                let direct = Path::new(root).join("rsyslog/imrelp.so");
                // Debian's multiarch directories: /usr/lib/<triplet>/rsyslog.
                let nested = std::fs::read_dir(root)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|entry| entry.path().join("rsyslog/imrelp.so"));
                std::iter::once(direct).chain(nested)
            })
            .any(|path| path.exists());
        if !module {
            l4rs_test_support::shared::skip_or_fail(
                "this RELP test",
                "rsyslog's imrelp module is not installed (.ci/setup/20-rsyslog.sh installs \
                 rsyslog-relp)",
            );
        }
        module
    }

    /// Starts rsyslog in `dir` (its configuration, work files and `out.log`), with a TLS input
    /// when `certificates` are given; waits (bounded) until it listens.
    pub fn start(dir: &Path, certificates: Option<&Certificates>) -> Rsyslog {
        Rsyslog::start_with(dir, certificates, false)
    }

    /// As [`Rsyslog::start`], with RELP inputs too (see the module documentation).
    pub fn start_relp(dir: &Path, certificates: Option<&Certificates>) -> Rsyslog {
        Rsyslog::start_with(dir, certificates, true)
    }

    fn start_with(dir: &Path, certificates: Option<&Certificates>, relp: bool) -> Rsyslog {
        std::fs::create_dir_all(dir).expect("rsyslog directory");
        let udp_port = {
            let socket = std::net::UdpSocket::bind("127.0.0.1:0").expect("bind udp");
            socket.local_addr().unwrap().port()
        };
        if let Some(certificates) = certificates {
            for file in ["ca.pem", "server.pem", "server.key"] {
                std::fs::copy(certificates.dir.join(file), dir.join(file))
                    .expect("copy certificate");
            }
        }
        let mut rsyslog = Rsyslog {
            dir: dir.to_path_buf(),
            child: None,
            tcp_port: 0,
            udp_port,
            tls_port: None,
            tls: certificates.is_some(),
            // imrelp has no listenPortFileName: ports are taken free and handed over.
            relp_ports: relp.then(|| (refused_port(), certificates.map(|_| refused_port()))),
        };
        rsyslog.launch();
        rsyslog
    }

    fn launch(&mut self) {
        let dir = self.dir.display().to_string();
        let _ = std::fs::remove_file(self.dir.join("tcp.port"));
        let _ = std::fs::remove_file(self.dir.join("tls.port"));
        let tls_input = if self.tls {
            format!(
                r#"input(type="imtcp" port="{port}" address="127.0.0.1" listenPortFileName="{dir}/tls.port" streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="x509/certvalid" streamDriver.cafile="{dir}/ca.pem" streamDriver.certfile="{dir}/server.pem" streamDriver.keyfile="{dir}/server.key")"#,
                port = self.tls_port.unwrap_or(0)
            )
        } else {
            String::new()
        };
        let relp_inputs = match self.relp_ports {
            None => String::new(),
            Some((plain, tls)) => {
                let mut inputs = format!(
                    "main_queue(queue.type=\"Direct\")\nmodule(load=\"imrelp\")\ninput(type=\"imrelp\" port=\"{plain}\" address=\"127.0.0.1\")\n"
                );
                if let Some(tls) = tls {
                    inputs += &format!(
                        r#"input(type="imrelp" port="{tls}" address="127.0.0.1" tls="on" tls.caCert="{dir}/ca.pem" tls.myCert="{dir}/server.pem" tls.myPrivKey="{dir}/server.key" tls.authMode="certvalid")"#
                    );
                }
                inputs
            }
        };
        let config = format!(
            r#"global(workDirectory="{dir}" maxMessageSize="64k")
{relp_inputs}
module(load="imtcp")
module(load="imudp")
input(type="imtcp" port="{tcp}" address="127.0.0.1" listenPortFileName="{dir}/tcp.port")
input(type="imudp" port="{udp}" address="127.0.0.1")
{tls_input}
template(name="fields" type="string" string="%syslogfacility-text%|%syslogseverity-text%|%app-name%|%procid%|%msgid%|%structured-data%|%msg%\n")
action(type="omfile" file="{dir}/out.log" template="fields")
"#,
            tcp = self.tcp_port,
            udp = self.udp_port,
        );
        let config_path = self.dir.join("rsyslog.conf");
        std::fs::write(&config_path, config).expect("write rsyslog.conf");
        let log = std::fs::File::create(self.dir.join("rsyslogd.stderr")).expect("stderr file");
        let child = Command::new(rsyslogd())
            .arg("-n")
            .arg("-f")
            .arg(&config_path)
            .arg("-i")
            .arg(self.dir.join("rsyslogd.pid"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start rsyslogd");
        self.child = Some(child);
        self.tcp_port = self.wait_for_port("tcp.port", self.tcp_port);
        if self.tls {
            self.tls_port = Some(self.wait_for_port("tls.port", self.tls_port.unwrap_or(0)));
        }
        if let Some((plain, tls)) = self.relp_ports {
            for port in std::iter::once(plain).chain(tls) {
                self.wait_for_port("relp.port-not-written", port);
            }
        }
        // The UDP input starts with the TCP ones; give it a moment to be bound.
        std::thread::sleep(Duration::from_millis(200));
    }

    /// Waits until rsyslog listens: it writes the port it chose into `file` for port 0; a
    /// port given is polled with a connection (an empty session rsyslog closes).
    fn wait_for_port(&mut self, file: &str, port: u16) -> u16 {
        let deadline = Instant::now() + STARTUP;
        loop {
            if let Some(port) = std::fs::read_to_string(self.dir.join(file))
                .ok()
                .and_then(|text| text.trim().parse().ok())
            {
                return port;
            }
            if port != 0 && std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return port;
            }
            if let Some(status) = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten())
            {
                panic!("rsyslogd exited ({status}): {}", self.stderr());
            }
            assert!(
                Instant::now() < deadline,
                "rsyslogd did not listen within {STARTUP:?}: {}",
                self.stderr()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// What rsyslogd printed.
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(self.dir.join("rsyslogd.stderr")).unwrap_or_default()
    }

    /// The plain TCP input's port.
    pub fn tcp_port(&self) -> u16 {
        self.tcp_port
    }

    /// The RELP input's port (started with RELP only).
    pub fn relp_port(&self) -> u16 {
        self.relp_ports.expect("started with RELP").0
    }

    /// The RELP-over-TLS input's port (started with RELP and certificates only).
    pub fn relp_tls_port(&self) -> u16 {
        self.relp_ports
            .and_then(|(_, tls)| tls)
            .expect("started with RELP and certificates")
    }

    /// The UDP input's port.
    pub fn udp_port(&self) -> u16 {
        self.udp_port
    }

    /// The TLS input's port (with certificates only).
    pub fn tls_port(&self) -> u16 {
        self.tls_port.expect("started with certificates")
    }

    /// Every message received so far.
    pub fn received(&self) -> Vec<Received> {
        std::fs::read_to_string(self.dir.join("out.log"))
            .unwrap_or_default()
            .lines()
            .map(|line| {
                let fields: Vec<&str> = line.splitn(7, '|').collect();
                assert_eq!(fields.len(), 7, "not a template line: {line:?}");
                Received {
                    facility: fields[0].into(),
                    severity: fields[1].into(),
                    app_name: fields[2].into(),
                    proc_id: fields[3].into(),
                    msg_id: fields[4].into(),
                    structured_data: fields[5].into(),
                    msg: fields[6].into(),
                }
            })
            .collect()
    }

    /// Waits (at most `timeout`) until `count` messages were received; returns those received.
    pub fn wait_for(&self, count: usize, timeout: Duration) -> Vec<Received> {
        let deadline = Instant::now() + timeout;
        loop {
            let received = self.received();
            if received.len() >= count || Instant::now() >= deadline {
                return received;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the received count stops growing for `quiet`, bounded by `timeout`.
    pub fn settle(&self, quiet: Duration, timeout: Duration) -> Vec<Received> {
        let deadline = Instant::now() + timeout;
        let mut last = self.received().len();
        let mut since = Instant::now();
        loop {
            std::thread::sleep(Duration::from_millis(50));
            let now = self.received().len();
            if now != last {
                last = now;
                since = Instant::now();
            }
            if since.elapsed() >= quiet || Instant::now() >= deadline {
                return self.received();
            }
        }
    }

    /// Stops rsyslogd (SIGTERM, then SIGKILL after a bounded wait).
    pub fn stop(&mut self) {
        self.set_frozen(false);
        let Some(mut child) = self.child.take() else {
            return;
        };
        // SAFETY: signalling the child this runner started, by its own pid.
        unsafe {
            libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
        }
        let deadline = Instant::now() + STARTUP;
        while Instant::now() < deadline {
            if child.try_wait().ok().flatten().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
    }

    /// Freezes (SIGSTOP) or thaws (SIGCONT) rsyslogd: frozen, it keeps its connections open
    /// and reads nothing, a receiver that stalled.
    pub fn set_frozen(&self, frozen: bool) {
        let signal = if frozen { libc::SIGSTOP } else { libc::SIGCONT };
        if let Some(child) = &self.child {
            // SAFETY: signalling the child this runner started, by its own pid.
            unsafe {
                libc::kill(child.id() as libc::pid_t, signal);
            }
            if frozen {
                wait_until_stopped(child.id());
            }
        }
    }

    /// Stops rsyslogd and starts it again on the same ports, keeping `out.log`.
    pub fn restart(&mut self) {
        self.stop();
        self.launch();
    }

    /// Kills rsyslogd (SIGKILL: no orderly shutdown, no goodbye to its clients) and starts it
    /// again on the same ports, keeping `out.log`.
    pub fn kill_and_restart(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        self.launch();
    }
}

impl Drop for Rsyslog {
    fn drop(&mut self) {
        self.stop();
    }
}

/// rsyslogd's path: on `PATH` or in `/usr/sbin` (not on a normal user's `PATH`).
fn rsyslogd() -> PathBuf {
    let sbin = PathBuf::from("/usr/sbin/rsyslogd");
    if sbin.exists() {
        sbin
    } else {
        PathBuf::from("rsyslogd")
    }
}

/// True when `tool` runs; otherwise a notice, or a panic under `CI`.
fn tool_available(tool: &str, version_flag: &str) -> bool {
    let program = if tool == "rsyslogd" {
        rsyslogd()
    } else {
        PathBuf::from(tool)
    };
    let runs = Command::new(&program)
        .arg(version_flag)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !runs {
        l4rs_test_support::shared::skip_or_fail(
            "this rsyslog test",
            &format!("{tool} is not installed (.ci/setup/20-rsyslog.sh installs it)"),
        );
    }
    runs
}

/// A shipped failover sample (`config-samples/`) that sends over TLS to rsyslog and spools to
/// a file once rsyslog is gone; it reads its receiver, certificates and folder from the
/// environment variables `{prefix}_HOST`, `{prefix}_PORT`, `TLS_DIR`, `LOG_DIR` and
/// `{prefix}_KEYSTORE_PASSWORD`.
pub struct FailoverSample<'a> {
    /// The sample's file name in `config-samples/`.
    pub file: &'a str,
    /// The prefix of its receiver's environment variables (`SYSLOG`, `RELP`).
    pub prefix: &'a str,
    /// The failover file it writes under `LOG_DIR`.
    pub spool_file: &'a str,
    /// True when the transport acknowledges each event (RELP): it must be in rsyslog's output
    /// as soon as the call returns, without waiting.
    pub acknowledged: bool,
}

impl FailoverSample<'_> {
    /// Starts l4rs with the sample pointed at `rsyslog`'s TLS `port`, checks that an event
    /// with an MDC entry arrives with the fields the sample sets, stops rsyslog and checks that
    /// the next five events are spooled, whole and in order, and that rsyslog got no more.
    /// The caller holds [`crate::serial`]: the environment is changed.
    pub fn check(&self, rsyslog: &mut Rsyslog, port: u16, certificates: &Certificates, dir: &Path) {
        let spool = dir.join("spool");
        let prefix = self.prefix;
        for (variable, value) in [
            (format!("{prefix}_HOST"), "localhost".to_string()),
            (format!("{prefix}_PORT"), port.to_string()),
            (
                "TLS_DIR".to_string(),
                certificates.dir.display().to_string(),
            ),
            ("LOG_DIR".to_string(), spool.display().to_string()),
            (
                format!("{prefix}_KEYSTORE_PASSWORD"),
                STORE_PASSWORD.to_string(),
            ),
        ] {
            std::env::set_var(variable, value);
        }
        let sample = crate::workspace_root()
            .join("config-samples")
            .join(self.file);
        let (result, records) = l4rs::core::status::capture(|| l4rs::init_with_file(&sample));
        assert!(result.is_ok(), "{records:#?}");
        let logger = l4rs::get_logger("shop.orders");
        l4rs::ThreadContext::put("order", "17");
        l4rs::info!(logger, "shipped");
        let received = if self.acknowledged {
            rsyslog.received()
        } else {
            rsyslog.wait_for(1, Duration::from_secs(10))
        };
        assert_eq!(received.len(), 1, "{}", rsyslog.stderr());
        let first = &received[0];
        assert_eq!(
            (
                first.app_name.as_str(),
                first.facility.as_str(),
                first.structured_data.as_str(),
                first.msg.as_str()
            ),
            ("shop", "local0", r#"[ctx@32473 order="17"]"#, "shipped")
        );
        rsyslog.stop();
        for index in 0..5 {
            l4rs::info!(logger, "spooled {index}");
        }
        l4rs::ThreadContext::clear_map();
        l4rs::shutdown();
        // The closed connection is noticed before the first write after it, so every event
        // after rsyslog stopped is spooled.
        let spooled = crate::read_lines(&spool.join(self.spool_file));
        let expected: Vec<String> = (0..5)
            .map(|i| format!("{{order=17}} spooled {i}"))
            .collect();
        let got: Vec<String> = spooled
            .iter()
            .map(|line| line.split(" - ").nth(1).unwrap_or_default().to_string())
            .collect();
        assert_eq!(got, expected);
        assert_eq!(
            rsyslog.received().len(),
            1,
            "rsyslog got events while stopped"
        );
    }
}

/// Waits (up to 2 s) until every thread of process `pid` is stopped: `kill` returns before a
/// busy thread takes its SIGSTOP, and rsyslog's RELP thread could still acknowledge an event
/// or two meanwhile, which a test that freezes it then counts as delivered.
fn wait_until_stopped(pid: u32) {
    let stopped = || -> Option<bool> {
        let mut all = true;
        for task in std::fs::read_dir(format!("/proc/{pid}/task")).ok()? {
            let stat = std::fs::read_to_string(task.ok()?.path().join("stat")).ok()?;
            // The state follows the command name, which is in parentheses.
            let state = stat.rsplit_once(')')?.1.split_whitespace().next()?;
            all &= matches!(state, "T" | "t");
        }
        Some(all)
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    while stopped() == Some(false) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}
