//! The public API's promises that only a compiled call can check: `error = &e` with a plain
//! `std::error::Error` (and a boxed one), `marker =`, `Logger: Clone + Send + Sync`,
//! `Logger::name()`, the file and line the macros capture, and a disabled call leaving its
//! arguments unevaluated.

use std::error::Error;
use std::fmt;
use std::io;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// An application error whose `source()` is the I/O error that caused it.
#[derive(Debug)]
struct Outer(io::Error);

impl fmt::Display for Outer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("saving the report failed")
    }
}

impl Error for Outer {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&self.0)
    }
}

// `Logger` is cheap to share: checked at compile time.
const _: () = {
    const fn shareable<T: Clone + Send + Sync + 'static>() {}
    shareable::<l4rs::Logger>();
};

fn setup() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        l4rs_tests::init_in_fresh_dir("facade-api", |dir| {
            l4rs_tests::files_config(
                dir,
                &[
                    ("Errors", "%p %m%n%ex{full}"),
                    ("Markers", "[%marker] %m%n"),
                    ("Location", "%F|%L|%l|%m%n"),
                    ("Lazy", "%m%n"),
                ],
                &[
                    ("errors", "info", "Errors"),
                    ("markers", "info", "Markers"),
                    ("location", "info", "Location"),
                    ("lazy", "info", "Lazy"),
                ],
                r#"<Root level="off"/>"#,
            )
        })
    })
}

/// The lines of an exception that are not stack frames.
fn headers(path: &std::path::Path) -> Vec<String> {
    l4rs_tests::read_lines(path)
        .into_iter()
        .filter(|line| !line.starts_with("\tat ") && !line.starts_with("\t..."))
        .collect()
}

#[test]
fn plain_and_boxed_std_errors_print_their_source_chain() {
    let dir = setup();
    let logger = l4rs::get_logger("errors");
    let error = Outer(io::Error::other("disk full"));
    l4rs::error!(logger, error = &error, "plain {}", 1);
    let boxed: Box<dyn Error> = Box::new(Outer(io::Error::other("quota exceeded")));
    l4rs::error!(logger, error = &boxed, "boxed");
    let shared: Box<dyn Error + Send + Sync> = Box::new(io::Error::other("gone"));
    l4rs::warn!(logger, error = &shared, "boxed, Send + Sync");
    l4rs::flush();
    assert_eq!(
        headers(&dir.join("errors.log")),
        [
            "ERROR plain 1",
            "facade_api::Outer: saving the report failed",
            "Caused by: std::io::error::Error: disk full",
            "ERROR boxed",
            // Behind `dyn Error` the type is erased: its name comes from its `Debug` output.
            "Outer: saving the report failed",
            "Caused by: std::io::error::Error: quota exceeded",
            "WARN boxed, Send + Sync",
            "std::io::error::Error: gone",
        ]
    );
}

#[test]
fn marker_argument_reaches_the_layout() {
    let dir = setup();
    let logger = l4rs::get_logger("markers");
    let audit = l4rs::Marker::get("AUDIT");
    l4rs::info!(logger, marker = &audit, "user {} logged in", "ann");
    l4rs::info!(logger, "no marker");
    l4rs::flush();
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("markers.log")),
        ["[AUDIT] user ann logged in", "[] no marker"]
    );
}

#[test]
fn logger_name_is_the_name_asked_for() {
    setup();
    let logger = l4rs::get_logger("my_app::db.pool");
    assert_eq!(logger.name(), "my_app::db.pool");
    let copy = logger.clone();
    let from_thread = std::thread::spawn(move || copy.name().to_string())
        .join()
        .unwrap();
    assert_eq!(from_thread, "my_app::db.pool");
    assert_eq!(l4rs::get_logger("").name(), "");
}

#[test]
fn macros_capture_the_file_and_line_of_the_call() {
    let dir = setup();
    let logger = l4rs::get_logger("location");
    let line = line!() + 1;
    l4rs::info!(logger, "here");
    l4rs::flush();
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("location.log")),
        [format!(
            "facade_api.rs|{line}|facade_api.macros_capture_the_file_and_line_of_the_call(facade_api.rs:{line})|here"
        )]
    );
}

/// Counts how often it is formatted.
struct Counted<'a>(&'a AtomicUsize);

impl fmt::Display for Counted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fetch_add(1, Ordering::Relaxed);
        f.write_str("counted")
    }
}

#[test]
fn a_disabled_call_neither_evaluates_nor_formats_its_arguments() {
    let dir = setup();
    let logger = l4rs::get_logger("lazy");
    let formatted = AtomicUsize::new(0);
    let mut evaluated = 0;
    let mut side_effect = || {
        evaluated += 1;
        evaluated
    };
    l4rs::debug!(logger, "{} {}", Counted(&formatted), side_effect());
    l4rs::trace!(logger, "{} {}", Counted(&formatted), side_effect());
    l4rs::log!(
        logger,
        l4rs::Level::DEBUG,
        error = &io::Error::other("never built"),
        "{} {}",
        Counted(&formatted),
        side_effect()
    );
    assert_eq!(
        formatted.load(Ordering::Relaxed),
        0,
        "disabled: not formatted"
    );
    l4rs::info!(logger, "{} {}", Counted(&formatted), side_effect());
    assert_eq!(
        formatted.load(Ordering::Relaxed),
        1,
        "enabled: formatted once"
    );
    assert_eq!(evaluated, 1, "only the enabled call evaluated its argument");
    l4rs::flush();
    assert_eq!(l4rs_tests::read_lines(&dir.join("lazy.log")), ["counted 1"]);
}
