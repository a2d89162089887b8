//! The `l4rs` command-line tool.
//!
//! `l4rs check FILE` loads a log4j2 XML configuration the way the library would, prints every
//! diagnostic with its file:line:column, then the resolved routing tree (logger → effective
//! level → appenders), and exits with status 1 when the configuration has errors.
//!
//! Besides the file's own diagnostics it builds every layout and filter (what the library
//! reports only when it starts them: an unknown converter, a `RegexFilter` whose expression
//! does not compile) and judges every file appender's `fileName`, without creating or opening
//! anything for writing.

use std::path::Path;
use std::process::ExitCode;

use l4rs::config::model::{AppenderKind, AppenderRefSpec, Configuration, FilterSpec};
use l4rs::config::routing::LoggerTree;
use l4rs::config::Position;
use l4rs::config::{LoadOptions, Severity};
use l4rs::Level;

const USAGE: &str = "usage: l4rs check FILE\n\n\
    Loads a log4j2 XML configuration as l4rs would, prints its diagnostics and its routing\n\
    (logger -> level -> appenders), and exits non-zero when it has errors.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [command, file] if command == "check" => check(Path::new(file)),
        [flag] if flag == "--help" || flag == "-h" => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn check(file: &Path) -> ExitCode {
    // Diagnostics are printed below with their positions; the status logger stays quiet.
    l4rs::core::status::set_level(Level::OFF);
    let options = LoadOptions {
        apply_status_level: false,
    };
    let configuration = match l4rs::config::load_file_with(file, options) {
        Ok(configuration) => configuration,
        Err(error) => {
            println!("error: {error}");
            println!("\nlog4j2 would use its default configuration instead (ERROR and above to the console).");
            return ExitCode::from(1);
        }
    };
    let mut errors = 0;
    for diagnostic in &configuration.diagnostics {
        let label = match diagnostic.severity {
            Severity::Error => {
                errors += 1;
                "error"
            }
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        println!("{label}: {diagnostic}");
    }
    for unresolved in configuration.unresolved_appender_refs() {
        errors += 1;
        let position = unresolved
            .position
            .map(|p| format!("{}:{}: ", file_display(&configuration), p))
            .unwrap_or_default();
        println!(
            "error: {position}Unable to locate appender \"{}\" for logger config \"{}\"",
            unresolved.appender, unresolved.logger
        );
    }
    errors += check_appender_paths(&configuration);
    errors += check_layouts_and_filters(&configuration);
    if !configuration.diagnostics.is_empty() {
        println!();
    }
    print_routing(&configuration);
    if errors > 0 {
        println!("\n{errors} error(s)");
        ExitCode::from(1)
    } else {
        println!("\nok");
        ExitCode::SUCCESS
    }
}

/// Reports file appenders whose file could not be created, without creating anything.
fn check_appender_paths(configuration: &Configuration) -> usize {
    let mut errors = 0;
    for appender in &configuration.appenders {
        let Some(file_name) = appender.kind.file_name() else {
            continue;
        };
        if let Err(problem) = writable(Path::new(file_name)) {
            errors += 1;
            let position = appender
                .position
                .map(|p| format!("{}:{}: ", file_display(configuration), p))
                .unwrap_or_default();
            println!(
                "error: {position}appender \"{}\" cannot write {file_name}: {problem}",
                appender.name
            );
        }
    }
    errors
}

/// Builds every layout and filter as the library would when it starts the configuration, and
/// prints what they report (the status logger's ERRORs and WARNs), at the element they belong
/// to. Returns the number of errors.
fn check_layouts_and_filters(configuration: &Configuration) -> usize {
    let mut errors = 0;
    let mut report = |position: Option<Position>, subject: &str, build: &dyn Fn()| {
        let ((), records) = l4rs::core::status::capture(build);
        for record in records {
            let label = if record.level.is_at_least_as_severe_as(Level::ERROR) {
                errors += 1;
                "error"
            } else if record.level.is_at_least_as_severe_as(Level::WARN) {
                "warning"
            } else {
                continue;
            };
            let position = position
                .map(|p| format!("{}:{}: ", file_display(configuration), p))
                .unwrap_or_default();
            println!("{label}: {position}{subject}: {}", record.message);
        }
    };
    let build_filter = |filter: &Option<FilterSpec>| {
        if let Some(filter) = filter {
            l4rs_filter::build_filter(filter);
        }
    };
    let build_refs = |refs: &[AppenderRefSpec]| {
        for reference in refs {
            build_filter(&reference.filter);
        }
    };
    if configuration.filter.is_some() {
        report(None, "configuration filter", &|| {
            build_filter(&configuration.filter)
        });
    }
    for appender in &configuration.appenders {
        let subject = format!("appender \"{}\"", appender.name);
        report(appender.position, &subject, &|| {
            if appender.layout.is_some() {
                l4rs::build_layout(appender.layout.as_ref(), configuration, false);
            }
            build_filter(&appender.filter);
            if let AppenderKind::Async(async_spec) = &appender.kind {
                build_refs(&async_spec.appender_refs);
            }
        });
    }
    let loggers = &configuration.loggers;
    for logger in std::iter::once(&loggers.root).chain(&loggers.loggers) {
        let name = if logger.name.is_empty() {
            "root"
        } else {
            &logger.name
        };
        let subject = format!("logger \"{name}\"");
        report(logger.position, &subject, &|| {
            build_filter(&logger.filter);
            build_refs(&logger.appender_refs);
        });
    }
    errors
}

fn file_display(configuration: &Configuration) -> String {
    configuration
        .source
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default()
}

/// Whether `path` could be opened for appending, judged from the path and the nearest existing
/// ancestor directory.
fn writable(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err("it is a directory".into());
    }
    if path.exists() {
        return std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map(|_| ())
            .map_err(|e| e.to_string());
    }
    let mut ancestor = path.parent();
    while let Some(dir) = ancestor {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if dir.exists() {
            if !dir.is_dir() {
                return Err(format!("{} is not a directory", dir.display()));
            }
            let probe = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes())
                .map_err(|e| e.to_string())?;
            // SAFETY: `probe` is a valid NUL-terminated path.
            let allowed = unsafe { libc::access(probe.as_ptr(), libc::W_OK | libc::X_OK) } == 0;
            return if allowed {
                Ok(())
            } else {
                Err(format!(
                    "{}: {}",
                    dir.display(),
                    std::io::Error::last_os_error()
                ))
            };
        }
        ancestor = dir.parent();
    }
    Ok(())
}

fn print_routing(configuration: &Configuration) {
    println!("routing (logger -> level -> appenders):");
    print!("{}", LoggerTree::new(&configuration.loggers));
}
