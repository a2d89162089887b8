//! The lookups behind `${prefix:key}`.

use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

use l4rs_core::{LogEvent, Timestamp};

use super::{date, Substitutor};

fn system_properties() -> &'static RwLock<HashMap<String, String>> {
    static PROPERTIES: OnceLock<RwLock<HashMap<String, String>>> = OnceLock::new();
    PROPERTIES.get_or_init(|| RwLock::new(HashMap::new()))
}

fn main_args() -> &'static RwLock<Vec<String>> {
    static ARGS: OnceLock<RwLock<Vec<String>>> = OnceLock::new();
    ARGS.get_or_init(|| RwLock::new(Vec::new()))
}

/// Sets a process-wide property for `${sys:key}` (Java's `System.setProperty`). Rust has no
/// system properties, so only what the program sets here exists.
pub fn set_system_property(key: impl Into<String>, value: impl Into<String>) {
    system_properties()
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key.into(), value.into());
}

/// Removes a property set with [`set_system_property`].
pub fn clear_system_property(key: &str) {
    system_properties()
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .remove(key);
}

/// The value of a property set with [`set_system_property`].
pub fn system_property(key: &str) -> Option<String> {
    system_properties()
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .get(key)
        .cloned()
}

/// Sets the arguments `${main:…}` reads (log4j2's `MainMapLookup.setMainArguments`).
pub fn set_main_arguments(arguments: Vec<String>) {
    *main_args().write().unwrap_or_else(|e| e.into_inner()) = arguments;
}

/// The arguments set with [`set_main_arguments`].
pub fn main_arguments() -> Vec<String> {
    main_args()
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
}

/// `${main:0}` is the first argument; `${main:--file}` is the argument after `--file`.
fn main_lookup(key: &str) -> Option<String> {
    let args = main_args().read().unwrap_or_else(|e| e.into_inner());
    if let Ok(index) = key.parse::<usize>() {
        if let Some(arg) = args.get(index) {
            return Some(arg.clone());
        }
    }
    // log4j2 maps every argument to its successor; a later duplicate overwrites an earlier one.
    args.iter()
        .enumerate()
        .rfind(|(_, arg)| arg.as_str() == key)
        .and_then(|(index, _)| args.get(index + 1).cloned())
}

/// The local host name, as log4j2 offers it in the `hostName` property.
pub(super) fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "localhost".to_string())
}

/// Runs the lookup `prefix` (already lower-cased); `None` for an unknown prefix or a key the
/// lookup does not know, so the caller can fall back to a property.
pub(super) fn lookup(
    substitutor: &Substitutor,
    prefix: &str,
    key: &str,
    event: Option<&LogEvent<'_>>,
    report: &mut super::Report<'_>,
) -> Option<String> {
    match prefix {
        "sys" => system_property(key),
        "env" => std::env::var(key).ok(),
        "main" => main_lookup(key),
        "lower" => Some(key.to_lowercase()),
        "upper" => Some(key.to_uppercase()),
        "date" => Some(date_lookup(key, event, report)),
        "ctx" => event.and_then(|event| event.context_map.get(key).map(str::to_string)),
        "marker" => event.and_then(|event| event.marker.map(|marker| marker.name().to_string())),
        "event" => event.and_then(|event| event_lookup(key, event)),
        "java" => java_lookup(key),
        "log4j" => {
            let location = substitutor.config_location()?;
            match key {
                "configLocation" => Some(location.display().to_string()),
                "configParentLocation" => location.parent().map(|p| p.display().to_string()),
                _ => None,
            }
        }
        // `jndi` is intentionally not here: it must never reach anything outside the process.
        _ => None,
    }
}

fn date_lookup(
    pattern: &str,
    event: Option<&LogEvent<'_>>,
    report: &mut super::Report<'_>,
) -> String {
    let at = event.map_or_else(Timestamp::now, |event| event.timestamp);
    match date::format(pattern, at) {
        Ok(text) => text,
        Err(error) => {
            report(
                crate::Severity::Warning,
                format!("Invalid date format: [{pattern}], using default ({error})"),
            );
            date::format_default(at)
        }
    }
}

fn event_lookup(key: &str, event: &LogEvent<'_>) -> Option<String> {
    match key {
        "Level" => Some(event.level.name().to_string()),
        "Logger" => Some(event.logger_name.to_string()),
        "Marker" => event.marker.map(|marker| marker.name().to_string()),
        "Message" => Some(event.message.to_string()),
        "ThreadId" => Some(event.thread.id.to_string()),
        "ThreadName" => Some(event.thread.name.to_string()),
        "Timestamp" => Some(event.timestamp.epoch_millis.to_string()),
        "Exception" => event.throwable.map(|throwable| {
            let throwable = throwable.resolve();
            let class = throwable.class_name();
            // Java's getSimpleName: the part after the package (and `::` for Rust paths).
            class.rsplit(['.', ':']).next().unwrap_or(class).to_string()
        }),
        _ => None,
    }
}

/// What a Rust program can say in place of the JVM description.
fn java_lookup(key: &str) -> Option<String> {
    let version = env!("CARGO_PKG_VERSION");
    let os = std::env::consts::OS;
    let arch = std::env::consts::ARCH;
    match key {
        "version" => Some(format!("Rust (l4rs {version})")),
        "runtime" => Some(format!("Rust native binary (l4rs {version})")),
        "vm" => Some("no virtual machine (native Rust)".to_string()),
        "os" => Some(format!("{os} {arch}")),
        "locale" => {
            let lang = std::env::var("LC_ALL")
                .or_else(|_| std::env::var("LANG"))
                .unwrap_or_else(|_| "C".to_string());
            Some(format!("default locale: {lang}, platform encoding: UTF-8"))
        }
        "hw" => {
            let processors = std::thread::available_parallelism().map_or(1, usize::from);
            Some(format!("processors: {processors}, architecture: {arch}"))
        }
        _ => None,
    }
}
