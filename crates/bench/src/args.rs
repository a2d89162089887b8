//! Command-line options.

use std::path::PathBuf;
use std::time::Duration;

use crate::sample::{Mode, SampleAppender, SAMPLE_APPENDERS};

/// Everything the options decide.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The sample's file appenders to run (ignored with `--config`).
    pub appenders: Vec<SampleAppender>,
    /// Modes each of those appenders is run in (ignored with `--config`).
    pub modes: Vec<Mode>,
    /// Thread counts; every row is run once per count.
    pub threads: Vec<usize>,
    /// How many times the whole set of rows is run; with more than one, the table shows each
    /// row's median round and the ratios are the median of the rounds' ratios.
    pub rounds: usize,
    /// Warm-up before each measured window.
    pub warmup: Duration,
    /// Length of each measured window.
    pub measure: Duration,
    /// A user configuration to benchmark instead of the sample.
    pub config: Option<PathBuf>,
    /// The user configuration's loggers to benchmark, one row each.
    pub loggers: Vec<String>,
    /// Also run the Rust peers (needs the `peers` feature).
    pub peers: bool,
    /// Print one JSON document instead of the table.
    pub json: bool,
    /// Judge each ratio against l4rs's targets (`met`/`missed`); without it the report gives
    /// the figures and ratios only.
    pub verdicts: bool,
    /// Where log files go (default `<workspace>/target/l4rs-bench/logs`).
    pub dir: Option<PathBuf>,
    /// Also run log4j2 through the Java harness, interleaved with the l4rs rows.
    pub vs_log4j2: bool,
    /// Keep each sample row's log files (by default they are deleted once measured, so the
    /// next row's raw probe and run do not compete with their writeback, and a tmpfs does not
    /// fill up).
    pub keep_logs: bool,
    /// `--latency`: start the next window right after deleting a row's files (or the
    /// `write(2)` floor's), instead of waiting for the machine to go quiet
    /// ([`crate::latency::settle::delete`]); for comparing with runs before the wait.
    pub no_quiet_wait: bool,
    /// After each sample row, measure its kernel ceiling ([`crate::ceiling`]): the row's bytes
    /// written event by event the way its appender writes them, with nothing else on the path.
    pub ceiling: bool,
    /// Also run the `--tracing` rows (needs the `tracing` feature): the workload through
    /// `tracing::debug!` into l4rs's layer and into tracing-subscriber's fmt layer.
    pub tracing: bool,
    /// Run the tail-latency rows instead ([`crate::latency`]).
    pub latency: bool,
    /// `--latency`'s offered rate, calls per second per thread (default: half the measured
    /// maximum).
    pub rate: Option<f64>,
    /// Whether the Kafka rows (`AsyncLogger-Kafka`, `Kafka`; [`crate::kafka_row`]) run
    /// beside the sample's rows.
    pub kafka: KafkaRows,
    /// Hidden: run one peer in this (child) process and print its RESULT line.
    pub peer_child: Option<String>,
    /// Hidden: run one `--tracing` row in this (child) process and print its RESULT line.
    pub tracing_child: Option<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            appenders: SAMPLE_APPENDERS.to_vec(),
            modes: Mode::ALL.to_vec(),
            threads: vec![4],
            rounds: 1,
            // Nine rows (three appenders in three modes) of raw probe + warm-up + window keep
            // the default run near 40 s.
            warmup: Duration::from_secs(1),
            measure: Duration::from_secs(2),
            config: None,
            loggers: Vec::new(),
            peers: false,
            json: false,
            verdicts: false,
            dir: None,
            vs_log4j2: false,
            keep_logs: false,
            no_quiet_wait: false,
            ceiling: false,
            tracing: false,
            latency: false,
            rate: None,
            kafka: KafkaRows::IfAvailable,
            peer_child: None,
            tracing_child: None,
        }
    }
}

/// Whether a run has the Kafka rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KafkaRows {
    /// Not chosen by `--appender` and not asked for: run them when the `kafka` feature is
    /// built in and the broker and consumer are installed, else leave them out (with a note
    /// when only the tools are missing).
    IfAvailable,
    /// Asked for (`--appender Kafka`, `--kafka`): run them, or fail saying what is missing.
    Asked,
    /// Left out by an `--appender` list without `Kafka`, or by `--config`.
    Off,
}

/// What the command line asks for.
// Built once per process; boxing the options would only add noise at every use.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Run the benchmark.
    Run(Options),
    /// Print [`USAGE`].
    Help,
}

/// The `--help` text.
pub const USAGE: &str = "\
l4rs-bench: the log4j2 appender benchmark (config-samples/log4j2-appender.xml) on l4rs

USAGE: cargo run --release -p l4rs-bench [--features peers|tracing] -- [OPTIONS]

With no options: File, RandomAccessFile and MemoryMappedFile, each synchronous, behind
AsyncLoggers and behind an Async appender (9 rows), on 4 threads, 1 s warm-up and 2 s
measured window each, each row beside this folder's raw write bandwidth measured just before
it (about 40 s in all).

Rows are named File, AsyncLogger-File, AsyncAppender-File, ... Every figure is end to end:
after the window the workers stop, the clock runs on until every asynchronous queue is empty
(each event in the OS), and ops/ms divides the window's operations by window + drain; then
l4rs::flush() runs and the row reports dropped_events() (must be 0) and the events queued.

OPTIONS:
  --appender NAME[,NAME]   File | RandomAccessFile | MemoryMappedFile | Kafka | all
                           (default all; all includes Kafka when it is built in and
                           its broker is installed, see --kafka)
  --mode MODE[,MODE]       how the events reach each appender                 (default all)
                             sync            the sample configuration as it is
                             async-logger    each of its loggers an <AsyncLogger>
                             async-appender  an <Async> appender in front of each file appender
                             async           both async modes;  all  every mode
  --threads N[,N]          worker threads, e.g. 4 or 4,64; with several counts each row
                           also prints its ops/ms against its own lowest-count figure
                                                                              (default 4)
  --rounds N               run every row N times, one round after the other; the table
                           shows each row's median round, every ratio is the median of
                           the rounds' ratios (each round's log4j2 row runs right after
                           its l4rs row), and each round's figures are listed   (default 1)
  --warmup DURATION        warm-up per row: 2, 2s, 1.5s, 500ms                (default 1s)
  --measure DURATION       measured window per row                            (default 2s)
  --config FILE            benchmark your own log4j2 configuration ...
  --logger NAME[,NAME]     ... through these loggers (one row each; repeatable)
  --dir DIR                folder for the log files and the raw-bandwidth probe
                           (default <workspace>/target/l4rs-bench/logs; try a tmpfs)
  --keep-logs              keep each sample row's log files (default: deleted once measured)
  --no-quiet-wait          --latency: after deleting a row's files (or the write(2) floor's),
                           go on at once instead of waiting until the machine stops
                           pausing (a large deletion can pause this VM for tens of ms
                           every 1-2 s, for seconds; docs/benchmarks.md)
  --ceiling                after each sample row, its kernel ceiling: the row's bytes per
                           event handed to the OS event by event as its appender does (one
                           write(2) each, or a copy into a mapping), by as many threads as
                           write in the row (one for an async row), nothing else on the
                           path, same warm-up and window: no per-event writer can beat
                           it here (sample rows only)
  --vs-log4j2              also run log4j2 (Java harness in crates/bench/java) with the
                           same configuration file, right after each l4rs row, and print
                           the ratios; its AsyncLogger rows need disruptor.jar
  --peers                  also run log4rs, spdlog-rs, tracing, fast_log and ftlog,
                           each twice: the error with std's Backtrace (rows `peer`) and
                           with the frames resolved once (rows `peer-resolved`, equal
                           terms with l4rs); both printed beside l4rs's File row
                           (build with --features peers)
  --tracing                also send the workload through tracing::debug!, once into
                           l4rs's appenders by l4rs::tracing::layer() (the sample's File
                           row) and once into tracing-subscriber's fmt layer writing a
                           file; prints l4rs's ops/ms ratio and both B/op
                           (build with --features tracing; peers includes it)
  --latency                instead of throughput: tail latency at a fixed offered rate
                           per thread; every call timed from its scheduled start
                           (coordinated omission counted), p50/p99/p99.9/p99.99/max of
                           l4rs and (with --vs-log4j2) log4j2 side by side, and a chart.
                           Rows File, MemoryMappedFile, AsyncLogger-File unless
                           --appender/--mode choose others
  --rate N                 --latency's calls per second per thread (default: half of
                           log4j2's measured maximum for the row with --vs-log4j2, else
                           half of l4rs's own)
  --kafka                  the Kafka rows, whatever --appender says: AsyncLogger-Kafka
                           (syncSend=false) and Kafka (syncSend=true, log4j2's default) in
                           the sync and async-logger modes, against a local tansu broker
                           the bench starts; each row's topic is read back and its
                           received count reported (build with --features kafka; needs
                           the tansu broker and kafka-python)
  --json                   print one JSON document instead of the table
  --verdicts               also judge each ratio against l4rs's targets (met/missed): 10x
                           log4j2 or 80% of raw, 64 threads >= 0.8x 4 threads, tracing
                           >= 1.5x the fmt layer at 0 B/op, latency p99.99 and max
                           <= 0.1x log4j2's (docs/benchmarks.md); JSON then has
                           target_met/target_reachable
  -h, --help               this text
";

/// Parses the arguments after the program name.
pub fn parse<I: IntoIterator<Item = String>>(args: I) -> Result<Command, String> {
    let mut options = Options::default();
    let mut appenders: Option<Vec<SampleAppender>> = None;
    let mut modes: Option<Vec<Mode>> = None;
    // `--appender` naming Kafka, or `all` (which keeps Kafka's "if available").
    let (mut kafka_named, mut all, mut kafka_flag) = (false, false, false);
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        // Accept both `--flag value` and `--flag=value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => {
                (flag.to_string(), Some(value.to_string()))
            }
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--appender" | "--appenders" => {
                let list = appenders.get_or_insert_with(Vec::new);
                for name in split_list(&value("--appender")?) {
                    if name.eq_ignore_ascii_case("all") {
                        list.extend(SAMPLE_APPENDERS);
                        all = true;
                    } else if name.eq_ignore_ascii_case(crate::kafka_row::APPENDER) {
                        kafka_named = true;
                    } else {
                        list.push(sample_appender(name)?);
                    }
                }
            }
            "--mode" | "--modes" => {
                let list = modes.get_or_insert_with(Vec::new);
                for name in split_list(&value("--mode")?) {
                    list.extend(parse_mode(name)?);
                }
            }
            "--threads" => {
                options.threads = split_list(&value("--threads")?)
                    .map(|n| match n.parse::<usize>() {
                        Ok(n) if (1..=4096).contains(&n) => Ok(n),
                        _ => Err(format!("--threads: '{n}' is not a thread count (1..4096)")),
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--rounds" => {
                let text = value("--rounds")?;
                options.rounds = match text.parse::<usize>() {
                    Ok(n @ 1..=100) => n,
                    _ => return Err(format!("--rounds: '{text}' is not a round count (1..100)")),
                };
            }
            "--warmup" => options.warmup = parse_duration(&value("--warmup")?)?,
            "--measure" => {
                options.measure = parse_duration(&value("--measure")?)?;
                if options.measure.is_zero() {
                    return Err("--measure must be longer than zero".into());
                }
            }
            "--config" => options.config = Some(PathBuf::from(value("--config")?)),
            "--logger" | "--loggers" => options
                .loggers
                .extend(split_list(&value("--logger")?).map(str::to_string)),
            "--dir" => options.dir = Some(PathBuf::from(value("--dir")?)),
            "--peers" => options.peers = true,
            "--json" => options.json = true,
            "--verdicts" => options.verdicts = true,
            "--vs-log4j2" => options.vs_log4j2 = true,
            "--keep-logs" => options.keep_logs = true,
            "--no-quiet-wait" => options.no_quiet_wait = true,
            "--ceiling" => options.ceiling = true,
            "--tracing" => options.tracing = true,
            "--latency" => options.latency = true,
            "--rate" => {
                let text = value("--rate")?;
                options.rate = match text.parse::<f64>() {
                    Ok(rate) if rate.is_finite() && rate >= 1.0 => Some(rate),
                    _ => {
                        return Err(format!(
                        "--rate: '{text}' is not a rate (calls per second per thread, at least 1)"
                    ))
                    }
                };
            }
            "--kafka" => kafka_flag = true,
            "--peer-child" => options.peer_child = Some(value("--peer-child")?),
            "--tracing-child" => options.tracing_child = Some(value("--tracing-child")?),
            other => return Err(format!("unknown option '{other}' (see --help)")),
        }
    }
    options.kafka = if kafka_named || kafka_flag {
        KafkaRows::Asked
    } else if appenders.is_some() && !all {
        KafkaRows::Off
    } else {
        KafkaRows::IfAvailable
    };
    if let Some(mut list) = appenders {
        // `--appender File,all` must not run File twice.
        let mut seen = Vec::new();
        list.retain(|a| {
            let new = !seen.contains(&a.name);
            seen.push(a.name);
            new
        });
        options.appenders = list;
    }
    if let Some(mut list) = modes {
        let mut seen = Vec::new();
        list.retain(|m| {
            let new = !seen.contains(m);
            seen.push(*m);
            new
        });
        // Rows run in the canonical order whatever order the modes were given in, so tables
        // of different runs line up.
        list.sort_by_key(|m| Mode::ALL.iter().position(|a| a == m));
        if options.config.is_some() {
            return Err("--mode applies to the sample configuration (config-samples/log4j2-appender.xml); with --config your configuration decides what is asynchronous".into());
        }
        options.modes = list;
    }
    if options.config.is_some() {
        if options.kafka == KafkaRows::Asked {
            return Err(
                "the Kafka rows run the sample's workload; they do not take --config".into(),
            );
        }
        options.kafka = KafkaRows::Off;
    }
    if options.config.is_some() && options.loggers.is_empty() {
        return Err("--config needs at least one --logger NAME to benchmark".into());
    }
    if options.config.is_none() && !options.loggers.is_empty() {
        return Err("--logger only applies with --config FILE".into());
    }
    Ok(Command::Run(options))
}

fn split_list(value: &str) -> impl Iterator<Item = &str> {
    value.split(',').map(str::trim).filter(|s| !s.is_empty())
}

fn sample_appender(name: &str) -> Result<SampleAppender, String> {
    SAMPLE_APPENDERS
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(name))
        .copied()
        .ok_or_else(|| {
            format!("--appender: unknown appender '{name}' (File, RandomAccessFile, MemoryMappedFile, Kafka or all)")
        })
}

/// `sync`, `async-logger`, `async-appender`, `async` or `all`; case, `-` and `_` do not
/// matter (so `AsyncLogger` works too).
fn parse_mode(name: &str) -> Result<Vec<Mode>, String> {
    let key: String = name
        .chars()
        .filter(|c| *c != '-' && *c != '_')
        .collect::<String>()
        .to_ascii_lowercase();
    match key.as_str() {
        "sync" | "synchronous" => Ok(vec![Mode::Sync]),
        "asynclogger" => Ok(vec![Mode::AsyncLogger]),
        "asyncappender" => Ok(vec![Mode::AsyncAppender]),
        "async" => Ok(vec![Mode::AsyncLogger, Mode::AsyncAppender]),
        "all" => Ok(Mode::ALL.to_vec()),
        _ => Err(format!(
            "--mode: unknown mode '{name}' (sync, async-logger, async-appender, async or all)"
        )),
    }
}

/// `2`, `2s`, `1.5s`, `500ms`: a duration; a bare number is in seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, scale) = if let Some(ms) = text.strip_suffix("ms") {
        (ms, 1e-3)
    } else if let Some(s) = text.strip_suffix('s') {
        (s, 1.0)
    } else {
        (text, 1.0)
    };
    match number.trim().parse::<f64>() {
        Ok(value) if value.is_finite() && value >= 0.0 && value * scale <= 86_400.0 => {
            Ok(Duration::from_secs_f64(value * scale))
        }
        _ => Err(format!("'{text}' is not a duration (e.g. 2, 2s, 500ms)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Options, String> {
        match parse(args.iter().map(|s| s.to_string()))? {
            Command::Run(options) => Ok(options),
            Command::Help => Err("help".into()),
        }
    }

    #[test]
    fn no_arguments_is_the_sample_at_four_threads() {
        let options = run(&[]).unwrap();
        assert_eq!(options.appenders, SAMPLE_APPENDERS.to_vec());
        assert_eq!(options.modes, Mode::ALL.to_vec());
        assert_eq!(options.threads, vec![4]);
        assert_eq!(options.warmup, Duration::from_secs(1));
        assert_eq!(options.measure, Duration::from_secs(2));
        assert!(!options.peers && !options.json && !options.vs_log4j2 && !options.keep_logs);
        assert!(!options.ceiling && !options.no_quiet_wait);
    }

    #[test]
    fn modes_are_parsed_deduplicated_and_put_in_order() {
        let options = run(&["--mode", "async-appender,SYNC", "--mode=AsyncLogger"]).unwrap();
        assert_eq!(
            options.modes,
            [Mode::Sync, Mode::AsyncLogger, Mode::AsyncAppender]
        );
        let options = run(&["--mode", "async", "--mode", "async_logger"]).unwrap();
        assert_eq!(options.modes, [Mode::AsyncLogger, Mode::AsyncAppender]);
        assert_eq!(run(&["--mode", "all"]).unwrap().modes, Mode::ALL.to_vec());
        assert!(run(&["--mode", "turbo"]).unwrap_err().contains("turbo"));
        assert!(
            run(&["--config", "x.xml", "--logger", "a", "--mode", "sync"])
                .unwrap_err()
                .contains("--config")
        );
    }

    #[test]
    fn labels_name_the_mode_and_the_appender() {
        let file = SAMPLE_APPENDERS[0];
        assert_eq!(Mode::Sync.label(&file), "File");
        assert_eq!(Mode::AsyncLogger.label(&file), "AsyncLogger-File");
        assert_eq!(
            Mode::AsyncAppender.label(&SAMPLE_APPENDERS[2]),
            "AsyncAppender-MemoryMappedFile"
        );
        assert!(!Mode::Sync.is_async() && Mode::AsyncAppender.is_async());
        let help_names: Vec<_> = Mode::ALL.iter().map(|m| m.cli_name()).collect();
        for name in help_names {
            assert!(USAGE.contains(name), "{name}");
            assert_eq!(parse_mode(name).unwrap().len(), 1);
        }
    }

    #[test]
    fn appenders_threads_and_durations() {
        let options = run(&[
            "--appender",
            "memorymappedfile,File",
            "--threads=4,64",
            "--warmup",
            "500ms",
            "--measure",
            "1.5s",
        ])
        .unwrap();
        let names: Vec<_> = options.appenders.iter().map(|a| a.name).collect();
        assert_eq!(names, ["MemoryMappedFile", "File"]);
        assert_eq!(options.threads, vec![4, 64]);
        assert_eq!(options.warmup, Duration::from_millis(500));
        assert_eq!(options.measure, Duration::from_millis(1500));
    }

    #[test]
    fn rounds_are_counted_from_one() {
        assert_eq!(run(&[]).unwrap().rounds, 1);
        assert_eq!(run(&["--rounds", "3"]).unwrap().rounds, 3);
        assert_eq!(run(&["--rounds=5"]).unwrap().rounds, 5);
        for bad in ["0", "101", "two", "-1"] {
            assert!(
                run(&["--rounds", bad]).unwrap_err().contains("--rounds"),
                "{bad}"
            );
        }
    }

    #[test]
    fn kafka_rows_run_if_available_unless_an_appender_list_leaves_them_out() {
        assert_eq!(run(&[]).unwrap().kafka, KafkaRows::IfAvailable);
        assert_eq!(
            run(&["--appender", "all"]).unwrap().kafka,
            KafkaRows::IfAvailable
        );
        assert_eq!(run(&["--appender", "File"]).unwrap().kafka, KafkaRows::Off);
        let kafka_only = run(&["--appender", "kafka"]).unwrap();
        assert_eq!(kafka_only.kafka, KafkaRows::Asked);
        assert!(kafka_only.appenders.is_empty());
        let beside_file =
            run(&["--appender", "File,Kafka", "--mode", "sync,async-logger"]).unwrap();
        assert_eq!(beside_file.kafka, KafkaRows::Asked);
        assert_eq!(beside_file.appenders, [SAMPLE_APPENDERS[0]]);
        assert_eq!(
            run(&["--appender", "File", "--kafka"]).unwrap().kafka,
            KafkaRows::Asked
        );
        assert_eq!(
            run(&["--config", "x.xml", "--logger", "a"]).unwrap().kafka,
            KafkaRows::Off
        );
        assert!(run(&["--config", "x.xml", "--logger", "a", "--kafka"])
            .unwrap_err()
            .contains("--config"));
    }

    #[test]
    fn all_does_not_repeat_an_appender() {
        let options = run(&["--appender", "File", "--appender", "all"]).unwrap();
        assert_eq!(options.appenders.len(), 3);
    }

    #[test]
    fn user_configurations_need_loggers() {
        assert!(run(&["--config", "x.xml"])
            .unwrap_err()
            .contains("--logger"));
        assert!(run(&["--logger", "a"]).unwrap_err().contains("--config"));
        let options = run(&["--config", "x.xml", "--logger", "a,b", "--logger", "c"]).unwrap();
        assert_eq!(options.loggers, ["a", "b", "c"]);
        assert_eq!(options.config, Some(PathBuf::from("x.xml")));
    }

    #[test]
    fn flags_and_help() {
        let options = run(&[
            "--peers",
            "--json",
            "--vs-log4j2",
            "--keep-logs",
            "--no-quiet-wait",
            "--ceiling",
            "--tracing",
            "--verdicts",
            "--dir",
            "/tmp/x",
        ])
        .unwrap();
        assert!(options.peers && options.json && options.vs_log4j2 && options.keep_logs);
        assert!(options.ceiling && options.tracing && options.verdicts && options.no_quiet_wait);
        assert!(!run(&[]).unwrap().tracing);
        assert!(!run(&[]).unwrap().verdicts);
        assert_eq!(
            run(&["--tracing-child", "fmt"])
                .unwrap()
                .tracing_child
                .as_deref(),
            Some("fmt")
        );
        assert_eq!(options.dir, Some(PathBuf::from("/tmp/x")));
        assert_eq!(parse(["--help".to_string()]), Ok(Command::Help));
    }

    #[test]
    fn mistakes_are_explained() {
        assert!(run(&["--appender", "Socket"])
            .unwrap_err()
            .contains("Socket"));
        assert!(run(&["--threads", "0"]).is_err());
        assert!(run(&["--threads"]).unwrap_err().contains("needs a value"));
        assert!(run(&["--warmup", "soon"]).is_err());
        assert!(run(&["--measure", "0"]).is_err());
        assert!(run(&["--fast"]).unwrap_err().contains("--fast"));
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("2"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("0.25s"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("40ms"), Ok(Duration::from_millis(40)));
        assert!(parse_duration("-1").is_err());
    }
}
