//! Command-line options.

use std::path::PathBuf;
use std::time::Duration;

/// One appender of the study's configuration: its name, its logger and its log file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StudyAppender {
    /// The appender's name (and the row label).
    pub name: &'static str,
    /// The logger routed to it.
    pub logger: &'static str,
    /// The log file's name inside the output folder.
    pub file: &'static str,
}

/// The study's three appenders, in the study's order.
pub const STUDY_APPENDERS: [StudyAppender; 3] = [
    StudyAppender {
        name: "File",
        logger: "FileLogger",
        file: "log4j2-file.log",
    },
    StudyAppender {
        name: "RandomAccessFile",
        logger: "RandomAccessFileLogger",
        file: "log4j2-random-access-file.log",
    },
    StudyAppender {
        name: "MemoryMappedFile",
        logger: "MemoryMappedFileLogger",
        file: "log4j2-memory-mapped-file.log",
    },
];

/// Everything the options decide.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Study appenders to run (ignored with `--config`).
    pub appenders: Vec<StudyAppender>,
    /// Thread counts; every row is run once per count.
    pub threads: Vec<usize>,
    /// Warm-up before each measured window.
    pub warmup: Duration,
    /// Length of each measured window.
    pub measure: Duration,
    /// A user configuration to benchmark instead of the study's.
    pub config: Option<PathBuf>,
    /// The user configuration's loggers to benchmark, one row each.
    pub loggers: Vec<String>,
    /// Also run the Rust peers (needs the `peers` feature).
    pub peers: bool,
    /// Print one JSON document instead of the table.
    pub json: bool,
    /// Where log files go (default `<workspace>/target/l4rs-bench/logs`).
    pub dir: Option<PathBuf>,
    /// Also run log4j2 through the Java harness, interleaved with the l4rs rows.
    pub vs_log4j2: bool,
    /// Hidden: run one peer in this (child) process and print its RESULT line.
    pub peer_child: Option<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            appenders: STUDY_APPENDERS.to_vec(),
            threads: vec![4],
            warmup: Duration::from_secs(2),
            measure: Duration::from_secs(5),
            config: None,
            loggers: Vec::new(),
            peers: false,
            json: false,
            dir: None,
            vs_log4j2: false,
            peer_child: None,
        }
    }
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Run the benchmark.
    Run(Options),
    /// Print [`USAGE`].
    Help,
}

/// The `--help` text.
pub const USAGE: &str = "\
l4rs-bench: the study's log4j2 appender benchmark on l4rs

USAGE: cargo run --release -p l4rs-bench [--features peers] -- [OPTIONS]

With no options: File, RandomAccessFile and MemoryMappedFile on 4 threads, 2 s warm-up and
5 s measured window each, beside this folder's raw write bandwidth.

OPTIONS:
  --appender NAME[,NAME]   File | RandomAccessFile | MemoryMappedFile | all   (default all)
  --threads N[,N]          worker threads, e.g. 4 or 4,64                     (default 4)
  --warmup DURATION        warm-up per row: 2, 2s, 1.5s, 500ms                (default 2s)
  --measure DURATION       measured window per row                            (default 5s)
  --config FILE            benchmark your own log4j2 configuration ...
  --logger NAME[,NAME]     ... through these loggers (one row each; repeatable)
  --dir DIR                folder for the log files and the raw-bandwidth probe
                           (default <workspace>/target/l4rs-bench/logs; try a tmpfs)
  --vs-log4j2              also run log4j2 (Java harness in benches/log4j2-java),
                           interleaved with the l4rs rows, and print the ratios
  --peers                  also run log4rs, spdlog-rs, tracing, fast_log and ftlog
                           (build with --features peers)
  --json                   print one JSON document instead of the table
  -h, --help               this text
";

/// Parses the arguments after the program name.
pub fn parse<I: IntoIterator<Item = String>>(args: I) -> Result<Command, String> {
    let mut options = Options::default();
    let mut appenders: Option<Vec<StudyAppender>> = None;
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
                        list.extend(STUDY_APPENDERS);
                    } else {
                        list.push(study_appender(name)?);
                    }
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
            "--vs-log4j2" => options.vs_log4j2 = true,
            "--peer-child" => options.peer_child = Some(value("--peer-child")?),
            other => return Err(format!("unknown option '{other}' (see --help)")),
        }
    }
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

fn study_appender(name: &str) -> Result<StudyAppender, String> {
    STUDY_APPENDERS
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(name))
        .copied()
        .ok_or_else(|| {
            format!("--appender: unknown appender '{name}' (File, RandomAccessFile, MemoryMappedFile or all)")
        })
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
    fn no_arguments_is_the_study_at_four_threads() {
        let options = run(&[]).unwrap();
        assert_eq!(options.appenders, STUDY_APPENDERS.to_vec());
        assert_eq!(options.threads, vec![4]);
        assert_eq!(options.warmup, Duration::from_secs(2));
        assert_eq!(options.measure, Duration::from_secs(5));
        assert!(!options.peers && !options.json && !options.vs_log4j2);
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
        let options = run(&["--peers", "--json", "--vs-log4j2", "--dir", "/tmp/x"]).unwrap();
        assert!(options.peers && options.json && options.vs_log4j2);
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
