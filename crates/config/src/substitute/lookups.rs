//! The lookups behind `${prefix:key}`.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, RwLock};

use l4rs_core::status::ReportLimit;
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
pub fn host_name() -> String {
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
        "bundle" => bundle_lookup(substitutor, key, report),
        "spring" => match crate::spring_profiles::lookup(key) {
            Ok(value) => value,
            Err(warning) => {
                // `$${spring:…}` is looked up per event: say it once, as the other lookups do.
                if substitutor.memory.first_warning(&format!("spring:{key}")) {
                    report(crate::Severity::Warning, warning);
                }
                None
            }
        },
        // `jndi` is intentionally not here: it must never reach anything outside the process.
        _ => None,
    }
}

/// The lookup prefixes l4rs implements (lower case).
const IMPLEMENTED: &[&str] = &[
    "sys", "env", "main", "lower", "upper", "date", "ctx", "marker", "event", "java", "log4j",
    "bundle", "spring",
];

/// log4j2 lookups l4rs does not implement, with why.
const UNAVAILABLE: &[(&str, &str)] = &[
    (
        "jndi",
        "l4rs never performs JNDI lookups (they reach outside the process)",
    ),
    ("web", "there is no servlet context in a Rust program"),
    ("docker", "l4rs does not implement the Docker lookup"),
    ("k8s", "l4rs does not implement the Kubernetes lookup"),
    (
        "kubernetes",
        "l4rs does not implement the Kubernetes lookup",
    ),
    ("jvmrunargs", "a Rust program has no JVM arguments"),
    ("map", "l4rs events carry no MapMessage"),
    ("sd", "l4rs events carry no StructuredDataMessage"),
    ("base64", "l4rs does not implement the base64 lookup"),
];

/// True for a lookup prefix (lower case) l4rs implements.
pub(super) fn is_implemented(prefix: &str) -> bool {
    IMPLEMENTED.contains(&prefix)
}

/// The warning for a variable left unresolved because l4rs lacks its lookup.
pub(super) fn unavailable_message(prefix: &str) -> String {
    match UNAVAILABLE.iter().find(|(name, _)| *name == prefix) {
        Some((_, why)) => format!(
            "Lookup '{prefix}' is not available in l4rs ({why}); ${{{prefix}:…}} variables take their default, if any, or stay as written"
        ),
        None => format!(
            "Unknown lookup '{prefix}': ${{{prefix}:…}} variables take their default, if any, or stay as written (l4rs implements {})",
            IMPLEMENTED.join(", ")
        ),
    }
}

/// How many distinct warnings one substitutor remembers; past that, it stays silent rather
/// than grow without end.
const MAX_REMEMBERED_WARNINGS: usize = 1000;

/// How many resource bundles one substitutor keeps read.
const MAX_BUNDLES: usize = 100;

/// A bundle's keys and values, or `None` when no file was found for it.
type Bundle = Option<Arc<HashMap<String, String>>>;

/// What the lookups of one configuration remember.
#[derive(Debug, Default)]
pub(super) struct LookupMemory {
    warned: Mutex<HashSet<String>>,
    bundles: Mutex<HashMap<String, Bundle>>,
    /// What substitutions with an event report (an invalid `${date:…}` format, a cycle, a
    /// limit crossed): log4j2 prints them for every event, l4rs with its error handler's
    /// limit, four and then one per five minutes.
    pub(super) event_reports: ReportLimit,
}

impl LookupMemory {
    /// True the first time `what` is warned about.
    pub(super) fn first_warning(&self, what: &str) -> bool {
        let mut warned = self.warned.lock().unwrap_or_else(|e| e.into_inner());
        if warned.contains(what) || warned.len() >= MAX_REMEMBERED_WARNINGS {
            return false;
        }
        warned.insert(what.to_string())
    }
}

/// `${bundle:Name:key}`: `key` in `Name.properties`, as Java's `ResourceBundle` would find it
/// on the classpath (see the module docs for where l4rs looks).
fn bundle_lookup(
    substitutor: &Substitutor,
    key: &str,
    report: &mut super::Report<'_>,
) -> Option<String> {
    let parts: Vec<&str> = key.split(':').collect();
    let [name, bundle_key] = parts[..] else {
        if substitutor.memory.first_warning(&format!("bundle:{key}")) {
            report(
                crate::Severity::Warning,
                format!(
                    "Bad ResourceBundle key format [{key}]. Expected format is BundleName:KeyName."
                ),
            );
        }
        return None;
    };
    let bundle = {
        let mut bundles = substitutor
            .memory
            .bundles
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        match bundles.get(name) {
            Some(bundle) => bundle.clone(),
            None => {
                let bundle = read_bundle(substitutor, name, report);
                if bundles.len() < MAX_BUNDLES {
                    bundles.insert(name.to_string(), bundle.clone());
                }
                bundle
            }
        }
    };
    match bundle {
        Some(bundle) => {
            let value = bundle.get(bundle_key).cloned();
            if value.is_none() && substitutor.memory.first_warning(&format!("bundle:{key}")) {
                report(
                    crate::Severity::Warning,
                    format!(
                        "Error looking up ResourceBundle [{name}]. (it has no key '{bundle_key}')"
                    ),
                );
            }
            value
        }
        None => {
            if substitutor.memory.first_warning(&format!("bundle:{name}")) {
                let places = bundle_candidates(substitutor, name)
                    .iter()
                    .map(|path| path.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                report(
                    crate::Severity::Warning,
                    format!("Error looking up ResourceBundle [{name}]. (l4rs looked for {places})"),
                );
            }
            None
        }
    }
}

/// Where `Name.properties` may be: next to the configuration file, then in the working
/// directory.
fn bundle_candidates(substitutor: &Substitutor, name: &str) -> Vec<PathBuf> {
    let relative = format!("{}.properties", name.replace('.', "/"));
    let mut candidates = Vec::new();
    if let Some(folder) = substitutor.config_location().and_then(|p| p.parent()) {
        candidates.push(folder.join(&relative));
    }
    candidates.push(PathBuf::from(&relative));
    candidates
}

/// Reads the first `Name.properties` found; `None` when there is none (or it cannot be read).
fn read_bundle(substitutor: &Substitutor, name: &str, report: &mut super::Report<'_>) -> Bundle {
    // A bundle name is a class-path name: no parent folders, no absolute paths.
    if name.is_empty() || name.contains(['/', '\\']) || name.split('.').any(str::is_empty) {
        return None;
    }
    bundle_candidates(substitutor, name)
        .into_iter()
        .find_map(|path| read_bundle_file(name, &path, report))
        .map(|bytes| Arc::new(parse_properties(&String::from_utf8_lossy(&bytes))))
}

/// The bytes of the bundle file `path`; `None` when it cannot be read. A FIFO or a device is
/// refused with an error, not read: reading it would block the load (and every other bundle
/// lookup, behind the cache's lock) or never end.
fn read_bundle_file(name: &str, path: &Path, report: &mut super::Report<'_>) -> Option<Vec<u8>> {
    use std::io::Read as _;
    let mut file = match l4rs_core::fs::open_regular_file(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::InvalidInput => {
            report(
                crate::Severity::Error,
                format!(
                    "ResourceBundle [{name}] cannot be read from {}: {error}",
                    path.display()
                ),
            );
            return None;
        }
        Err(_) => return None,
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// Parses Java `.properties` text: `key=value`, `key: value` or `key value`; `#` and `!`
/// comments; a trailing backslash continues the line; `\t`, `\n`, `\r`, `\f`, `\uXXXX` and
/// `\<char>` escapes. Later keys win, as in `java.util.Properties`.
pub(super) fn parse_properties(text: &str) -> HashMap<String, String> {
    let mut properties = HashMap::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let mut logical = line.trim_start().to_string();
        if logical.is_empty() || logical.starts_with('#') || logical.starts_with('!') {
            continue;
        }
        while ends_with_odd_backslashes(&logical) {
            logical.pop();
            match lines.next() {
                Some(next) => logical.push_str(next.trim_start()),
                None => break,
            }
        }
        let chars: Vec<char> = logical.chars().collect();
        let mut at = 0;
        let mut key_end = chars.len();
        while at < chars.len() {
            match chars[at] {
                '\\' => at += 2,
                '=' | ':' | ' ' | '\t' | '\u{c}' => {
                    key_end = at;
                    break;
                }
                _ => at += 1,
            }
        }
        let key_end = key_end.min(chars.len());
        let mut value_start = key_end;
        while value_start < chars.len() && matches!(chars[value_start], ' ' | '\t' | '\u{c}') {
            value_start += 1;
        }
        if value_start < chars.len() && matches!(chars[value_start], '=' | ':') {
            value_start += 1;
            while value_start < chars.len() && matches!(chars[value_start], ' ' | '\t' | '\u{c}') {
                value_start += 1;
            }
        }
        let key = unescape(&chars[..key_end]);
        let value = unescape(&chars[value_start.min(chars.len())..]);
        properties.insert(key, value);
    }
    properties
}

fn ends_with_odd_backslashes(line: &str) -> bool {
    line.chars().rev().take_while(|c| *c == '\\').count() % 2 == 1
}

fn unescape(chars: &[char]) -> String {
    let mut out = String::with_capacity(chars.len());
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        at += 1;
        if c != '\\' || at >= chars.len() {
            out.push(c);
            continue;
        }
        let escaped = chars[at];
        at += 1;
        match escaped {
            't' => out.push('\t'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            'f' => out.push('\u{c}'),
            'u' => {
                let hex: String = chars[at..(at + 4).min(chars.len())].iter().collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(decoded) if hex.len() == 4 => {
                        out.push(decoded);
                        at += 4;
                    }
                    _ => out.push('u'),
                }
            }
            other => out.push(other),
        }
    }
    out
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
