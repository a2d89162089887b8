//! The `l4rs` command-line tool.
//!
//! `l4rs check FILE` loads a log4j2 XML configuration the way the library would, prints every
//! diagnostic with its file:line:column, then the resolved routing tree (logger → effective
//! level → appenders), and exits with status 1 when the configuration has errors.
//!
//! Besides the file's own diagnostics it builds the configuration as `init` does
//! ([`l4rs::check_configuration`]: every layout, filter, appender and reference, through the same
//! builders), reporting what starting it would report (an unknown converter, a `RegexFilter`
//! whose expression does not compile, a `fileName` that cannot be opened, a reference to an
//! appender that is not built), without opening, creating or deleting any file and without
//! starting any thread.

use std::path::Path;
use std::process::ExitCode;

use l4rs::config::model::{AppenderKind, Configuration};
use l4rs::config::routing::LoggerTree;
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
    // Built as `init` builds it, without opening or creating anything (see
    // `l4rs::check_configuration`): the same errors, at the elements they are about.
    for finding in l4rs::check_configuration(&configuration) {
        let label = if finding.level.is_at_least_as_severe_as(Level::ERROR) {
            errors += 1;
            "error"
        } else {
            "warning"
        };
        let position = finding
            .position
            .map(|p| format!("{}:{}: ", file_display(&configuration), p))
            .unwrap_or_default();
        let subject = if finding.subject.is_empty() {
            String::new()
        } else {
            format!("{}: ", finding.subject)
        };
        println!("{label}: {position}{subject}{}", finding.message);
    }
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

fn file_display(configuration: &Configuration) -> String {
    configuration
        .source
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default()
}

fn print_routing(configuration: &Configuration) {
    println!("routing (logger -> level -> appenders):");
    if l4rs::all_loggers_asynchronous() {
        // The context selector makes every logger asynchronous, whatever its element says.
        let mut loggers = configuration.loggers.clone();
        for logger in std::iter::once(&mut loggers.root).chain(&mut loggers.loggers) {
            logger.asynchronous = true;
        }
        print!("{}", LoggerTree::new(&loggers));
        println!(
            "(every logger is asynchronous: log4j2.contextSelector names an asynchronous selector)"
        );
    } else {
        print!("{}", LoggerTree::new(&configuration.loggers));
    }
    print_routes(configuration);
    print_monitoring(configuration);
}

/// Each Routing appender's key and routes, in the order an event's key is matched.
fn print_routes(configuration: &Configuration) {
    for appender in &configuration.appenders {
        if let AppenderKind::Routing(routing) = &appender.kind {
            print!("Routing appender {}: {routing}", appender.name);
        }
    }
}

/// What `monitorInterval` watches: the file itself and each `<MonitorResource>`, checked every
/// N seconds; a change of any of them loads the file again.
fn print_monitoring(configuration: &Configuration) {
    let seconds = configuration.monitor_interval_seconds;
    if seconds == 0 {
        println!("monitor interval: 0 (not watched; set monitorInterval to reload on changes)");
        return;
    }
    println!(
        "monitor interval: {seconds} s; a change of any of these files reloads the configuration:"
    );
    for file in configuration
        .source
        .iter()
        .chain(&configuration.monitor_resources)
    {
        println!("  {}", file.display());
    }
}
