//! Starting and stopping the logging system: configuration discovery (log4j2's `LogManager`),
//! the logger registry, and shutdown at exit and on panic.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, RwLock};
use std::time::{Duration, Instant};

use arc_swap::{ArcSwapOption, Guard};

use l4rs_config::model::{LoggerSpec, LoggersSpec};
use l4rs_config::routing::LoggerTree;
use l4rs_config::{Configuration, LoadError, Severity};
use l4rs_core::{status, Level};

use crate::asynchronous::Gate;
use crate::context::Context;
use crate::logger::{Logger, LoggerState};
use crate::monitor::{self, SourceVersion};
use crate::Error;

/// Environment variables naming the configuration file, in priority order.
const CONFIGURATION_VARIABLES: [&str; 2] =
    ["LOG4RS_CONFIGURATION_FILE", "LOG4J_CONFIGURATION_FILE"];
/// Files looked for in the working directory when no variable names one.
const DISCOVERED_FILES: [&str; 2] = ["log4j2-test.xml", "log4j2.xml"];

/// The configuration in force: the one pointer every logger routes through, so that a
/// reconfiguration moves every logger in one store (a call sees the old or the new routing,
/// and a thread that saw the new one never sees the old one again).
static ACTIVE: ArcSwapOption<Context> = ArcSwapOption::const_empty();

/// What a call holds on the configuration in force while it routes through it.
pub(crate) type ActiveContext = Guard<Option<Arc<Context>>>;

/// The configuration in force, for one call (no reference count is taken: a reconfiguration
/// that swaps it out waits for the calls still holding it, see [`await_callers`]).
#[inline]
pub(crate) fn active_context() -> ActiveContext {
    ACTIVE.load()
}

struct Registry {
    loggers: RwLock<HashMap<String, Logger>>,
    /// Serialises (re)configuration so two `init`s cannot interleave.
    configuring: Mutex<()>,
}

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| Registry {
        loggers: RwLock::new(HashMap::new()),
        configuring: Mutex::new(()),
    })
}

/// Takes the lock that serialises (re)configuration and shutdown.
fn lock_configuring() -> MutexGuard<'static, ()> {
    registry()
        .configuring
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// The logger named `name`. The first call loads the configuration if [`init`] was not called
/// (problems are reported through the status logger and log4j2's default configuration is used).
pub fn get_logger(name: &str) -> Logger {
    let registry = registry();
    if let Some(logger) = registry
        .loggers
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .get(name)
    {
        return logger.clone();
    }
    // Loads the first configuration if need be; that takes the map's lock, so not under it.
    let loaded = current_context();
    let mut loggers = registry.loggers.write().unwrap_or_else(|e| e.into_inner());
    // Read again under the map's lock: `activate` switches the context in force while it holds
    // that lock to move the loggers, so a logger inserted now either sees the new context here
    // or is in the map when `activate` moves them. The context read before the lock may already
    // be stopped by a concurrent `init`.
    let context = installed_context().unwrap_or(loaded);
    loggers
        .entry(name.to_string())
        .or_insert_with(|| Logger {
            state: Arc::new(LoggerState::new(name, &context)),
        })
        .clone()
}

/// The context in force, loading one from the environment on first use.
fn current_context() -> Arc<Context> {
    if let Some(context) = installed_context() {
        return context;
    }
    let _guard = lock_configuring();
    if let Some(context) = installed_context() {
        return context;
    }
    match discover() {
        Some(path) => {
            let version = SourceVersion::ReadAt(monitor::stamp(&path));
            activate(load_or_default(&path), version).0
        }
        None => activate(no_configuration_found(), SourceVersion::AsSeen).0,
    }
}

/// log4j2's default configuration, with the warning its `ConfigurationFactory` gives when no
/// file was found (the lazy path and [`init`] both say it).
fn no_configuration_found() -> Configuration {
    status::warn("No Log4j 2 configuration file found. Using default configuration (logging only errors to the console), or user programmatically provided configurations. Set system property 'log4j2.debug' to show Log4j 2 internal initialization logging. See https://logging.apache.org/log4j/2.x/manual/configuration.html for instructions on how to configure Log4j 2");
    l4rs_config::default_configuration()
}

/// The context in force, if one was loaded.
pub(crate) fn installed_context() -> Option<Arc<Context>> {
    ACTIVE.load_full()
}

/// Loads the configuration as log4j2's `LogManager` would find it: the file named by
/// `LOG4RS_CONFIGURATION_FILE` (or `LOG4J_CONFIGURATION_FILE`), else `log4j2-test.xml` then
/// `log4j2.xml` in the working directory, else log4j2's default configuration (ERROR and above
/// to the console). It also installs the `log` crate bridge and the exit hooks.
///
/// A configuration that loads with errors is still put in force (the parts that work, as
/// log4j2 does) and the errors are returned: the file's own diagnostics and every ERROR the
/// status logger reported while the configuration was built (appenders that could not be
/// built, such as an unwritable `fileName`, references to missing appenders, an unknown
/// converter in a layout, a filter's regex that does not compile); they are printed by the
/// status logger too. A file that
/// cannot be read or parsed leaves the default configuration in force and returns the error;
/// as in log4j2, a named file that cannot be loaded does not fall through to the working
/// directory's files. Finding no file at all is not an error: the default configuration is
/// used, with log4j2's status warning.
pub fn init() -> Result<(), Error> {
    match discover() {
        Some(path) => init_with_file(path),
        None => {
            let _guard = lock_configuring();
            activate(no_configuration_found(), SourceVersion::AsSeen);
            Ok(())
        }
    }
}

/// Like [`init`], with an explicit configuration file.
pub fn init_with_file(path: impl AsRef<Path>) -> Result<(), Error> {
    load_and_put_in_force(path.as_ref(), |error| {
        error.report();
        activate(l4rs_config::default_configuration(), SourceVersion::AsSeen);
    })
}

/// Loads `path` and puts it in force, under the configuring lock; a file that cannot be
/// loaded is handed to `refused` (which reports it and does what the caller does instead)
/// and returned as the error.
fn load_and_put_in_force(path: &Path, refused: impl FnOnce(&LoadError)) -> Result<(), Error> {
    let _guard = lock_configuring();
    // Taken before reading: a rewrite landing while the file loads is seen by the watcher.
    let version = monitor::stamp(path);
    match l4rs_config::load_file(path) {
        Ok(configuration) => put_in_force(path, configuration, SourceVersion::ReadAt(version)),
        Err(error) => {
            refused(&error);
            Err(Error::Config(error))
        }
    }
}

/// Activates a configuration loaded from `path`, returning its errors (the file's diagnostics
/// and what building it reported) once the parts that work are in force.
fn put_in_force(
    path: &Path,
    configuration: Configuration,
    version: SourceVersion,
) -> Result<(), Error> {
    let mut messages: Vec<String> = configuration
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(ToString::to_string)
        .collect();
    // Activated first, so the parts that work log while the caller sees the errors.
    let (_, build_errors) = activate(configuration, version);
    messages.extend(build_errors);
    if messages.is_empty() {
        Ok(())
    } else {
        Err(Error::Invalid {
            file: path.to_path_buf(),
            messages,
        })
    }
}

/// Loads the configuration file in force again and replaces the running configuration with it
/// (log4j2's `Configurator.reconfigure()`; what a `monitorInterval` watcher does on a change).
///
/// Appenders of the new configuration that write where an old one wrote share its manager:
/// the file is neither reopened nor truncated, buffers and rollover state carry over. Every
/// logger moves to the new configuration at once, and the old one stops after the calls that
/// were using it have returned and its queues have drained.
///
/// A file that cannot be read or parsed changes nothing: the error is reported through the
/// status logger and returned, and the running configuration stays. A file that loads with
/// errors is put in force (the parts that work) and its errors are returned, as [`init`] does.
/// [`Error::NoFile`] when the configuration in force was not loaded from a file.
pub fn reconfigure() -> Result<(), Error> {
    let source = installed_context().and_then(|context| context.configuration.source.clone());
    match source {
        Some(path) => reconfigure_with_file(path),
        None => Err(Error::NoFile),
    }
}

/// Replaces the running configuration with the one in `path` (log4j2's
/// `Configurator.reconfigure(URI)`), as [`reconfigure`] does; a missing, unreadable or
/// malformed file returns the error and leaves the running configuration in force.
pub fn reconfigure_with_file(path: impl AsRef<Path>) -> Result<(), Error> {
    load_and_put_in_force(path.as_ref(), LoadError::report_on_reload)
}

/// What the `monitorInterval` watcher does when a watched file changed: loads the
/// configuration file again and puts it in force, or reports why it cannot and keeps the
/// running configuration (log4j2's `LoggerContext.onChange`).
pub(crate) fn reload_on_change(path: &Path) {
    status::debug(format_args!(
        "Reconfiguration started for {} after a change of a watched file",
        path.display()
    ));
    let started = std::time::Instant::now();
    let _guard = lock_configuring();
    // Seen before the lock: `shutdown` or another configuration may have come in between.
    if !monitor::still_watching(path) {
        return;
    }
    match l4rs_config::load_file(path) {
        Ok(configuration) => {
            // The file's errors were reported while it loaded, and building reports its own.
            // The watcher took the versions of the files when it saw the change, before this
            // read: a rewrite landing meanwhile is seen at its next check.
            let _ = put_in_force(path, configuration, SourceVersion::AsSeen);
            status::debug(format_args!(
                "Reconfiguration completed for {} in {} milliseconds.",
                path.display(),
                started.elapsed().as_millis()
            ));
        }
        Err(error) => {
            error.report_on_reload();
            status::debug(format_args!(
                "Reconfiguration failed for {} in {} milliseconds; the running configuration stays.",
                path.display(),
                started.elapsed().as_millis()
            ));
        }
    }
}

/// Sets the level of the logger config named `logger_name` (log4j2's
/// `Configurator.setLevel(String, Level)`): an existing `<Logger>` (named as routing reads
/// names, so `my_app::db` is a configured `my_app.db`) keeps its appenders,
/// additivity and filter; a name without one gets a new additive logger config with no
/// appenders of its own, so it inherits everything else from its parent, and loggers below it
/// that had no level of their own now inherit this one. `""` names the root logger. The
/// change lasts until the next reload of the file. Loads the configuration first if none is
/// in force.
///
/// The errors returned are those the status logger reported while the configuration was put
/// in force again (appenders that could not be built), as [`init`] returns them.
pub fn set_level(logger_name: &str, level: Level) -> Result<(), Error> {
    change_configuration(|configuration| {
        let loggers = &mut configuration.loggers;
        if logger_name.is_empty() {
            loggers.root.level = Some(level);
        } else if let Some(existing) = configured_logger(loggers, logger_name) {
            loggers.loggers[existing].level = Some(level);
        } else {
            loggers
                .loggers
                .push(LoggerSpec::new(logger_name, Some(level)));
        }
    })
}

/// The index in `loggers.loggers` of the logger config named `name` as routing reads names:
/// exactly, else with `::` read as `.` (a configured `my_app.db` is `my_app::db`), the last
/// occurrence of a name configured twice. A new config spelled `my_app::db` beside
/// `my_app.db` would take `my_app::db::pool` from it (an exact spelling wins in routing) and
/// skip its appenders, additivity and filter.
fn configured_logger(loggers: &LoggersSpec, name: &str) -> Option<usize> {
    let tree = LoggerTree::new(loggers);
    let owner = &tree.node(tree.owner_of(name)).spec.name;
    // The owner is the config itself, not an ancestor: the same path however spelled.
    if owner.is_empty() || owner.replace("::", ".") != name.replace("::", ".") {
        return None;
    }
    loggers.loggers.iter().rposition(|l| &l.name == owner)
}

/// Sets the root logger's level (log4j2's `Configurator.setRootLevel`); see [`set_level`].
pub fn set_root_level(level: Level) -> Result<(), Error> {
    set_level("", level)
}

/// Puts in force a copy of the running configuration changed by `change`.
fn change_configuration(change: impl FnOnce(&mut Configuration)) -> Result<(), Error> {
    let current = current_context();
    let _guard = lock_configuring();
    // The context in force now: another thread may have replaced the one read above.
    let current = installed_context().unwrap_or(current);
    let mut configuration = current.configuration.clone();
    drop(current);
    change(&mut configuration);
    // Named in the error; log4j2's default configuration has no file.
    let file = configuration
        .source
        .clone()
        .unwrap_or_else(|| PathBuf::from("(default configuration)"));
    let (_, build_errors) = activate(configuration, SourceVersion::AsSeen);
    if build_errors.is_empty() {
        Ok(())
    } else {
        Err(Error::Invalid {
            file,
            messages: build_errors,
        })
    }
}

fn discover() -> Option<PathBuf> {
    for variable in CONFIGURATION_VARIABLES {
        if let Some(value) = std::env::var_os(variable).filter(|v| !v.is_empty()) {
            return Some(PathBuf::from(value));
        }
    }
    DISCOVERED_FILES
        .iter()
        .map(PathBuf::from)
        .find(|candidate| candidate.is_file())
}

fn load_or_default(path: &Path) -> Configuration {
    match l4rs_config::load_file(path) {
        Ok(configuration) => configuration,
        Err(error) => {
            error.report();
            l4rs_config::default_configuration()
        }
    }
}

/// Puts a configuration in force, as log4j2's `LoggerContext.setConfiguration` does: builds
/// and starts it (appenders on files the old one writes share its managers), moves every
/// logger to it in one store (each call routes wholly through the old or wholly through the
/// new one), waits for the calls still routing through the old one, stops the old one (its
/// queues drain into its appenders first), builds the appenders that take a file over from it,
/// and only then lets the new queues (and, behind old queues or a hand-over, the new calls that
/// write in their own thread) write, so each thread's events stay in order. Returns the context with the errors building it reported (see [`Context::build_behind`]).
///
/// `version` tells the watcher which version of the configuration file this is (see
/// [`monitor::follow`]).
fn activate(configuration: Configuration, version: SourceVersion) -> (Arc<Context>, Vec<String>) {
    apply_status_settings(&configuration);
    // Read before the first configuration is built, so that what it reports belongs to the
    // process, not to that configuration.
    crate::context_selector::all_loggers_asynchronous();
    let replaced_had_queues = installed_context().map(|previous| previous.has_queues());
    let gate = if replaced_had_queues.is_some() {
        Gate::closed()
    } else {
        Gate::opened()
    };
    let (mut context, build_errors) = Context::build_behind(configuration, &gate);
    // Events of the old queues could still be on their way when a new call writes
    // synchronously, and a file changing hands must be closed by the old configuration before
    // the new one writes it: then calls that write in the caller's thread wait for the gate
    // too (see `Gate::pass_caller`).
    if replaced_had_queues == Some(true) || context.has_handovers() {
        context.hold_callers(&gate);
    }
    let context = Arc::new(context);
    // Whatever happens from the switch on, the gate opens when this returns or unwinds.
    let opens = gate.opens_on_drop();
    let previous = {
        let loggers = registry().loggers.read().unwrap_or_else(|e| e.into_inner());
        for logger in loggers.values() {
            logger.state.widen(&context);
        }
        crate::bridge::widen(&context);
        // The switch: every logger routes through the new configuration from here on.
        let previous = ACTIVE.swap(Some(Arc::clone(&context)));
        for logger in loggers.values() {
            logger.state.rebind(&context);
        }
        previous
    };
    crate::bridge::install();
    crate::bridge::follow(&context);
    #[cfg(feature = "tracing")]
    crate::tracing::follow();
    if let Some(previous) = previous {
        await_callers(&previous);
        previous.stop();
    }
    context.complete_handovers();
    drop(opens);
    monitor::follow(&context.configuration, version);
    install_exit_hooks();
    (context, build_errors)
}

/// How long a reconfiguration waits for the calls still routing through the old configuration
/// before it stops it anyway (a call stuck in a blocked write).
const CALLERS_TIMEOUT: Duration = Duration::from_secs(10);

/// Waits until `previous` is referenced only by the caller: it is no longer in force, so what
/// else holds it is a call that loaded it before the switch (the guard of `active_context`,
/// which the swap turned into a counted reference, keeps it alive until the call returns) or a
/// short-lived handle (`flush`). Nothing is counted on the logging path: the references are
/// the ones the call already takes.
fn await_callers(previous: &Arc<Context>) {
    let deadline = Instant::now() + CALLERS_TIMEOUT;
    let mut pause = Duration::from_micros(20);
    while Arc::strong_count(previous) > 1 {
        if Instant::now() >= deadline {
            status::warn(format_args!(
                "Reconfiguration: calls still logging through the previous configuration after {} s; stopping it anyway (their events may be lost)",
                CALLERS_TIMEOUT.as_secs()
            ));
            return;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(5));
    }
}

fn apply_status_settings(configuration: &Configuration) {
    if let Some(level) = configuration.status {
        status::set_level(level);
    }
    match configuration.dest.as_deref() {
        None => {}
        Some(dest) if dest.eq_ignore_ascii_case("err") => {
            status::set_destination(status::Destination::Stderr)
        }
        Some(dest) if dest.eq_ignore_ascii_case("out") => {
            status::set_destination(status::Destination::Stdout)
        }
        // Opened as appenders open their files: a FIFO without a reader is refused at once
        // rather than blocking the start.
        Some(path) => match l4rs_appenders::open_without_waiting(
            std::fs::OpenOptions::new().create(true).append(true),
            std::path::Path::new(path.trim_start_matches("file:")),
            0,
        ) {
            Ok(file) => status::set_destination(status::Destination::File(file)),
            Err(error) => status::error(format_args!(
                "Unable to open status destination {path}: {error}"
            )),
        },
    }
}

/// Flushes and stops every appender of the configuration in force: footers are written,
/// buffers flushed and files closed. Logging afterwards reaches no appender. It also runs at
/// normal process exit and after a panic, so nothing buffered is lost when a program forgets it.
///
/// It waits for a reconfiguration under way (the watcher's too): the configuration that one
/// puts in force is the one stopped, and the watcher does not load its file afterwards.
pub fn shutdown() {
    let _guard = lock_configuring();
    monitor::stop();
    if let Some(context) = installed_context() {
        context.stop();
    }
    // The stopped configuration keeps its filters; their file readers stop with it.
    l4rs_filter::mutable_thread_context_map::stop_polling();
}

/// Flushes every appender of the configuration in force, without stopping them. Asynchronous
/// queues are drained first: the call returns once the events logged before it are written
/// (the AsyncLogger queue is waited for up to 10 s plus `shutdownTimeout`, an Async appender
/// up to its `shutdownTimeout`, or 10 s when that is 0).
pub fn flush() {
    if let Some(context) = installed_context() {
        context.flush();
    }
}

fn shutdown_hook_enabled() -> bool {
    installed_context().is_none_or(|context| context.configuration.shutdown_hook)
}

extern "C" fn shutdown_at_exit() {
    if shutdown_hook_enabled() {
        shutdown();
    }
}

/// Registers `shutdown` with the C runtime's `atexit` (run when `main` returns, on
/// `std::process::exit`, and after a panic in `main` unwinds) and a panic hook that flushes
/// buffers first, which also covers `panic = "abort"` builds where no exit handler runs.
fn install_exit_hooks() {
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    // SAFETY: registering a plain `extern "C"` function with no captured state.
    unsafe {
        libc::atexit(shutdown_at_exit);
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        previous(info);
        // Not on l4rs's own threads: there the panic comes from an appender the queue catches
        // (the event is lost, the thread goes on and flushes at end of batch), that appender may
        // still hold its own lock, and waiting for the other queues from here could stall the
        // queue this thread serves. Nor for a panic l4rs catches while formatting (a user's
        // `Display`): the call goes on, no crash follows, and flushing every appender for
        // each such value would cost as much as the logging.
        if !l4rs_async::is_background_thread() && !crate::caught::is_catching() {
            flush();
        }
    }));
}

/// The configuration in force, for diagnostics (`l4rs check` prints its routing).
///
/// `f` sees a copy: holding the context while `f` runs would make a reconfiguration that
/// `f` makes (or another thread makes meanwhile) wait for `f` to return, up to 10 s, then stop
/// the old configuration anyway.
pub fn with_configuration<R>(f: impl FnOnce(&Configuration) -> R) -> R {
    let configuration = current_context().configuration.clone();
    f(&configuration)
}

/// The names of the appenders that were built from the configuration in force.
pub fn active_appenders() -> Vec<String> {
    current_context().appender_names()
}

/// The number of events the `<CountingNoOp>` appender named `appender` has taken, as log4j2's
/// `CountingNoOpAppender.getCount()` tells it: events that passed the loggers', references' and
/// appender's filters. `None` when the configuration in force has no CountingNoOp appender of
/// that name among its `<Appenders>` (one inside a `<Route>` is not counted here). A
/// reconfiguration builds new appenders, whose counts start again at 0; an asynchronous stage
/// in front of the appender counts an event once it has written it (call [`flush`] first to
/// count everything logged so far). Like [`active_appenders`], it loads the configuration if
/// nothing has yet.
pub fn counted_events(appender: &str) -> Option<u64> {
    current_context().counted_events(appender)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Serialises the tests that replace the one process-wide configuration.
    fn turn() -> std::sync::MutexGuard<'static, ()> {
        static TURN: Mutex<()> = Mutex::new(());
        TURN.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The watcher is about to reload (it saw a change and waits for the configuring lock, held
    /// here as a reconfiguration in progress would) when `shutdown` is called: nothing may be
    /// logged afterwards, and the watcher must not come back.
    #[test]
    fn shutdown_during_a_reload_stays_shut_down() {
        let _turn = turn();
        let dir = std::env::temp_dir().join(format!("l4rs-shutdown-reload-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("log4j2.xml");
        let config = |pattern: &str| {
            format!(
                r#"<Configuration monitorInterval="1"><Appenders><File name="Out" fileName="{}/out.log"><PatternLayout pattern="{pattern}"/></File></Appenders><Loggers><Root level="info"><AppenderRef ref="Out"/></Root></Loggers></Configuration>"#,
                dir.display()
            )
        };
        std::fs::write(&path, config("v1 %m%n")).expect("write");
        init_with_file(&path).expect("loads");
        std::fs::write(&path, config("v2 %m%n")).expect("write");

        let configuring = lock_configuring();
        let reload = {
            let path = path.clone();
            std::thread::spawn(move || reload_on_change(&path))
        };
        let shutting = std::thread::spawn(shutdown);
        std::thread::sleep(Duration::from_millis(200));
        drop(configuring);
        reload.join().expect("reload");
        shutting.join().expect("shutdown");

        let logger = get_logger("after");
        crate::info!(logger, "after shutdown");
        flush();
        let written = std::fs::read_to_string(dir.join("out.log")).unwrap_or_default();
        assert!(!written.contains("after shutdown"), "{written:?}");
        assert!(!monitor::still_watching(&path), "the watcher came back");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A change of configuration made from inside `with_configuration` does not wait for
    /// the reference `with_configuration` would hold on the context in force.
    #[test]
    fn a_change_inside_with_configuration_does_not_stall() {
        let started = Instant::now();
        let _turn = turn();
        let inside = with_configuration(|_| {
            set_level("inside", Level::DEBUG).expect("level set");
            with_configuration(|configuration| {
                let inside = configured_logger(&configuration.loggers, "inside")?;
                configuration.loggers.loggers[inside].level
            })
        });
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "stalled {:?}",
            started.elapsed()
        );
        assert!(
            inside.is_some_and(|level| level == Level::DEBUG),
            "the copy inside shows the change: {inside:?}"
        );
    }
}
