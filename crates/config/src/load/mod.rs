//! Binding: the XML tree becomes a [`Configuration`], following log4j2's `XmlConfiguration`
//! and `AbstractConfiguration.doConfigure` step by step:
//!
//! 1. the root element's attributes (its name is never checked) are substituted with lookups
//!    only, and `status` takes effect for everything reported from then on;
//! 2. the tree becomes plugin nodes (strict `type=` names, leaf non-plugins as attributes);
//! 3. arbiters are resolved;
//! 4. a `<Properties>` that is the first element is built and its values join the substitutor
//!    (any other `<Properties>` is ignored);
//! 5. the other top-level elements are built in document order (so `<CustomLevels>` must come
//!    before the levels are used);
//! 6. a missing `<Loggers>` or `<Root>` is replaced by log4j2's defaults.

mod appenders;
mod arbiters;
mod async_appender;
mod binder;
mod csv_layout;
mod delete;
mod failover;
mod filters;
mod gelf_layout;
mod http;
mod jdbc;
mod kafka;
mod layout;
mod loggers;
mod node;
mod posix_view_attribute;
mod rewrite;
mod rolling;
mod routing_appender;
mod scripts;
mod smtp;
mod socket;
mod toplevel;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use l4rs_core::{status, Level};

use crate::default::{default_console, default_name, default_root};
use crate::model::{AppenderSpec, Configuration, FilterSpec, LayoutSpec, LoggersSpec};
use crate::plugins::Plugin;
use crate::substitute::Substitutor;
use crate::xml::{self, XmlError};
use crate::{Position, Severity};

use binder::Binder;
use loggers::LoggersOutcome;
use node::PNode;
use toplevel::WaitStrategyFactoryChoice;

pub use routing_appender::BuiltRouteAppender;

/// The unbuilt element a route keeps (see [`crate::model::InlineAppender`]).
pub(crate) type InlineNode = PNode;

/// Why a configuration file could not be used at all. The caller decides what to do; log4j2
/// logs `Error parsing <file>` and falls back to its default configuration.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("Error parsing {}: cannot read the file: {source}", .path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not well-formed XML (or not in a supported encoding).
    #[error("Error parsing {}:{position}: {message}", display(.path))]
    Malformed {
        /// The file, when the text came from one.
        path: Option<PathBuf>,
        /// Where the parser stopped.
        position: Position,
        /// What the parser expected or found.
        message: String,
    },
}

impl LoadError {
    /// The file, when known.
    pub fn path(&self) -> Option<&Path> {
        match self {
            LoadError::Unreadable { path, .. } => Some(path),
            LoadError::Malformed { path, .. } => path.as_deref(),
        }
    }

    /// Where in the file, when known.
    pub fn position(&self) -> Option<Position> {
        match self {
            LoadError::Unreadable { .. } => None,
            LoadError::Malformed { position, .. } => Some(*position),
        }
    }

    /// Reports the error to the status logger, for a caller that falls back to the default
    /// configuration. A malformed file gets log4j2's two ERRORs, `Error parsing <file>` and
    /// `No logging configuration`; log4j2 leaves the parser's position and text to its stack
    /// trace, l4rs gives them as the first line's help (`<file>:line:column: message`).
    pub fn report(&self) {
        self.report_on_reload();
        if matches!(self, LoadError::Malformed { .. }) {
            status::error("No logging configuration");
        }
    }

    /// Reports the error to the status logger, for a caller that keeps the running
    /// configuration (a reload): only `Error parsing <file>`, since log4j2's reload does not
    /// build a configuration from a file that did not parse, so it never says
    /// `No logging configuration` there.
    pub fn report_on_reload(&self) {
        match self {
            LoadError::Unreadable { .. } => status::error(self),
            LoadError::Malformed {
                path,
                position,
                message,
            } => {
                let path = display(path);
                status::error(format_args!(
                    "Error parsing {path} (help: {path}:{position}: {message})"
                ));
            }
        }
    }
}

/// A `<KeyValuePair key value>` element (log4j2's `KeyValuePair` plugin, used by
/// DynamicThresholdFilter and the rewrite policies): its key and value, either of which may be
/// missing, as log4j2's builder leaves them null.
pub(crate) fn key_value_pair(
    binder: &mut binder::Binder,
    node: &mut node::PNode,
) -> (Option<String>, Option<String>) {
    let inserted = node.attrs.len();
    for child in std::mem::take(&mut node.children) {
        binder.unusable_child(node, &child);
    }
    let key = binder.string(node, &["key"]);
    let value = binder.string(node, &["value"]);
    binder.finish(node, inserted);
    (key, value)
}

fn display(path: &Option<PathBuf>) -> String {
    path.as_ref()
        .map_or_else(|| "<string>".to_string(), |path| path.display().to_string())
}

impl From<XmlError> for LoadError {
    fn from(error: XmlError) -> LoadError {
        let position = error.position().unwrap_or_default();
        let path = error.path().map(Path::to_path_buf);
        match error {
            XmlError::Read { path, source } => LoadError::Unreadable { path, source },
            XmlError::Encoding { message, .. } | XmlError::Malformed { message, .. } => {
                LoadError::Malformed {
                    path,
                    position,
                    message,
                }
            }
        }
    }
}

/// How to load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    /// Apply the file's `status` attribute to the process's status logger as soon as the root
    /// element is read, as log4j2 does (so the messages about the rest of the file respect it).
    /// Tools that only inspect a file (`l4rs check`) turn it off.
    pub apply_status_level: bool,
}

impl Default for LoadOptions {
    fn default() -> LoadOptions {
        LoadOptions {
            apply_status_level: true,
        }
    }
}

/// Loads a configuration file. Problems inside a well-formed file become diagnostics in the
/// returned configuration (and status messages), never an error. The file's `status`
/// attribute takes effect as soon as the root element is read (see [`LoadOptions`]).
pub fn load_file(path: &Path) -> Result<Configuration, LoadError> {
    load_file_with(path, LoadOptions::default())
}

/// [`load_file`] with options.
pub fn load_file_with(path: &Path, options: LoadOptions) -> Result<Configuration, LoadError> {
    let root = xml::parse_file(path)?;
    Ok(bind(&root, Some(path), options))
}

/// Loads a configuration from text; `source` is the file it stands for (used in messages, by
/// `${log4j:configLocation}` and to resolve XInclude paths).
pub fn load_str(text: &str, source: Option<&Path>) -> Result<Configuration, LoadError> {
    load_str_with(text, source, LoadOptions::default())
}

/// [`load_str`] with options.
pub fn load_str_with(
    text: &str,
    source: Option<&Path>,
    options: LoadOptions,
) -> Result<Configuration, LoadError> {
    let root = xml::parse_str(text, source)?;
    Ok(bind(&root, source, options))
}

/// The root element's attributes, substituted (lookups only: properties do not exist yet).
struct RootAttributes {
    name: Option<String>,
    status: Option<Level>,
    dest: Option<String>,
    monitor_interval_seconds: u32,
    strict: bool,
    shutdown_hook: bool,
    shutdown_timeout_ms: u64,
}

fn root_attributes(binder: &mut Binder, root: &xml::Node) -> RootAttributes {
    // Only the root element itself: cloning the whole tree would copy it for nothing.
    let root_alone = xml::Node {
        name: root.name.clone(),
        attributes: root.attributes.clone(),
        children: Vec::new(),
        value: root.value.clone(),
        position: root.position,
        file: root.file.clone(),
    };
    let mut node = PNode::build_collecting(&root_alone, false, &mut Vec::new());
    let mut attributes = RootAttributes {
        name: binder.string(&mut node, &["name"]),
        status: None,
        dest: binder.string(&mut node, &["dest"]),
        monitor_interval_seconds: 0,
        strict: binder.boolean(&mut node, &["strict"], false),
        shutdown_hook: !matches!(
            binder.string(&mut node, &["shutdownHook"]),
            Some(value) if value.eq_ignore_ascii_case("disable")
        ),
        shutdown_timeout_ms: 0,
    };
    if let Some(status_attr) = node.take(&["status"]) {
        let value = binder.substitute(&status_attr.value, &node, status_attr.position);
        match Level::from_name(&value) {
            Ok(level) => attributes.status = Some(level),
            Err(_) => binder.report(
                Severity::Error,
                format!("Invalid status level specified: {value}. Defaulting to ERROR."),
                Some(&node),
                Some(status_attr.position),
                None,
            ),
        }
    }
    attributes.monitor_interval_seconds = binder
        .int(&mut node, &["monitorInterval"])
        .map_or(0, |seconds| u32::try_from(seconds).unwrap_or(0));
    attributes.shutdown_timeout_ms = binder
        .long(&mut node, &["shutdownTimeout"])
        .map_or(0, |ms| u64::try_from(ms).unwrap_or(0));
    // Any other root attribute (schema, packages, advertiser, xmlns…) is ignored silently.
    attributes
}

fn bind(root: &xml::Node, source: Option<&Path>, options: LoadOptions) -> Configuration {
    bind_with_script_languages(root, source, options, scripts::enabled_languages())
}

/// [`bind`] with the languages `log4j2.Script.enableLanguages` would give (`None`: not set).
fn bind_with_script_languages(
    root: &xml::Node,
    source: Option<&Path>,
    options: LoadOptions,
    script_languages: Option<Vec<String>>,
) -> Configuration {
    let mut binder = Binder::new(source.map(Path::to_path_buf), Substitutor::new(source));
    binder.script_languages = script_languages;
    let attributes = root_attributes(&mut binder, root);
    if let (Some(level), true) = (attributes.status, options.apply_status_level) {
        status::set_level(level);
    }
    let mut unknown = Vec::new();
    let mut top = PNode::build_collecting(root, attributes.strict, &mut unknown);
    // log4j2 reports these once the whole tree is built, before anything else is configured.
    for element in &unknown {
        binder.class_not_found(element);
    }
    report_top_level_leaves(&mut binder, root, &top);
    arbiters::process(&mut binder, &mut top);

    // log4j2 builds `<Properties>` only when it is the very first element; any other
    // `<Properties>` (a second one, or one after other elements) is skipped without a word.
    let mut properties = Vec::new();
    if top
        .children
        .first()
        .is_some_and(|child| child.canonical == Some(Plugin::Properties))
    {
        let node = top.children.remove(0);
        properties = toplevel::build_properties(&mut binder, node);
    }
    top.children
        .retain(|child| child.canonical != Some(Plugin::Properties));
    binder.substitutor = Substitutor::with_properties(source, properties.clone());
    let mut appenders = Vec::new();
    let mut replaced_appenders = Vec::new();
    let mut filters: Vec<FilterSpec> = Vec::new();
    let mut custom_levels = Vec::new();
    let mut loggers_outcome = None;
    let mut monitor_resources = Vec::new();
    let mut async_wait_strategy = None;
    for child in std::mem::take(&mut top.children) {
        if child.name.eq_ignore_ascii_case("MonitorResources") {
            toplevel::build_monitor_resources(&mut binder, child, &mut monitor_resources);
            continue;
        }
        match child.canonical {
            Some(Plugin::Appenders) => {
                let first_new = appenders.len();
                appenders::build_appenders(
                    &mut binder,
                    child,
                    &mut appenders,
                    &mut replaced_appenders,
                );
                // log4j2 renders a header when the appender is built, from the root logger
                // known at that moment: the configured one only if <Loggers> came first.
                let header_level = match &loggers_outcome {
                    Some(LoggersOutcome::Built {
                        root: Some(root), ..
                    }) => root.level.unwrap_or(Level::ERROR),
                    _ => Level::ERROR,
                };
                for_each_header_footer_level(&mut appenders[first_new..], |header, _| {
                    *header = header_level;
                });
            }
            Some(Plugin::Loggers) => {
                loggers_outcome = Some(loggers::build_loggers(&mut binder, child))
            }
            Some(Plugin::Scripts) => scripts::build_scripts(&mut binder, child),
            Some(Plugin::CustomLevels) => {
                toplevel::build_custom_levels(&mut binder, child, &mut custom_levels)
            }
            Some(Plugin::CustomLevel) => {
                if let Some(level) = toplevel::build_custom_level(&mut binder, child) {
                    custom_levels.push(level);
                }
            }
            Some(Plugin::AsyncWaitStrategyFactory) => {
                match toplevel::build_async_wait_strategy_factory(&mut binder, child) {
                    Some(WaitStrategyFactoryChoice::Registered(strategy)) => {
                        async_wait_strategy = Some(strategy)
                    }
                    Some(WaitStrategyFactoryChoice::Unknown) => async_wait_strategy = None,
                    None => {}
                }
            }
            _ if filters::is_filter(&child) => {
                if let Some(filter) = filters::build_filter(&mut binder, child) {
                    filters.push(filter);
                }
            }
            _ => toplevel::misplaced(&mut binder, &child),
        }
    }

    let mut name = attributes.name.unwrap_or_else(|| {
        source.map_or_else(
            || "XmlConfiguration".to_string(),
            |p| p.display().to_string(),
        )
    });
    let loggers = match loggers_outcome {
        Some(LoggersOutcome::Built {
            root: Some(root),
            loggers,
        }) => LoggersSpec { root, loggers },
        Some(LoggersOutcome::Built {
            root: None,
            loggers,
        }) => {
            binder.report(
                Severity::Warning,
                "No Root logger was configured, creating default ERROR-level Root logger with Console appender",
                Some(&top),
                None,
                Some("add <Root level=\"…\"> inside <Loggers>".to_string()),
            );
            let console = default_console();
            let root = default_root(&console);
            appenders.retain(|existing| existing.name != console.name);
            appenders.push(console);
            name = default_name();
            LoggersSpec { root, loggers }
        }
        None | Some(LoggersOutcome::MultipleRoots) => {
            binder.report(
                Severity::Warning,
                "No Loggers were configured, using default. Is the Loggers element missing?",
                Some(&top),
                None,
                None,
            );
            let console = default_console();
            let root = default_root(&console);
            appenders.retain(|existing| existing.name != console.name);
            appenders.push(console);
            name = default_name();
            LoggersSpec {
                root,
                loggers: Vec::new(),
            }
        }
    };
    // The footer is rendered at stop time, from the configuration's final root logger.
    let footer_level = loggers.root.level.unwrap_or(Level::ERROR);
    for_each_header_footer_level(&mut appenders, |_, footer| *footer = footer_level);
    let filter = match filters.len() {
        0 => None,
        1 => filters.pop(),
        _ => Some(FilterSpec::Composite(filters)),
    };
    Configuration {
        source: source.map(Path::to_path_buf),
        name,
        status: attributes.status,
        dest: attributes.dest,
        monitor_interval_seconds: attributes.monitor_interval_seconds,
        monitor_resources,
        strict: attributes.strict,
        shutdown_hook: attributes.shutdown_hook,
        shutdown_timeout_ms: attributes.shutdown_timeout_ms,
        properties,
        custom_levels,
        appenders,
        replaced_appenders,
        filter,
        loggers,
        substitutor: Arc::new(binder.substitutor.clone()),
        diagnostics: std::mem::take(&mut binder.diagnostics),
        async_wait_strategy,
        is_default: false,
    }
}

/// A list where an item replaces the earlier one of the same name, which leaves its place:
/// the later one goes to the end, as a `retain` then `push` would do, but without scanning the
/// list for every item (a configuration may hold hundreds of thousands of loggers).
pub(crate) struct LastByName<T> {
    items: Vec<Option<T>>,
    index: std::collections::HashMap<String, usize>,
}

impl<T> LastByName<T> {
    pub(crate) fn new() -> LastByName<T> {
        LastByName {
            items: Vec::new(),
            index: std::collections::HashMap::new(),
        }
    }

    /// Adds `item` under `name`; returns the earlier item of that name, if any.
    pub(crate) fn push(&mut self, name: &str, item: T) -> Option<T> {
        let earlier = self
            .index
            .insert(name.to_string(), self.items.len())
            .and_then(|at| self.items[at].take());
        self.items.push(Some(item));
        earlier
    }

    /// The items in order.
    pub(crate) fn into_vec(self) -> Vec<T> {
        self.items.into_iter().flatten().collect()
    }
}

/// Calls `f` on the pattern layout of each of `appenders` that has one.
fn for_each_header_footer_level(
    appenders: &mut [AppenderSpec],
    mut f: impl FnMut(&mut Level, &mut Level),
) {
    for appender in appenders {
        match &mut appender.layout {
            Some(LayoutSpec::Pattern(spec)) => f(&mut spec.header_level, &mut spec.footer_level),
            // The CSV layouts' header and footer are PatternLayout serializers.
            Some(LayoutSpec::Csv(spec)) => {
                f(&mut spec.text.header_level, &mut spec.text.footer_level)
            }
            // YamlLayout renders its header and footer patterns as PatternLayout does.
            Some(LayoutSpec::Yaml(spec)) => f(&mut spec.header_level, &mut spec.footer_level),
            _ => {}
        }
    }
}

/// Top-level elements that are no plugin and have no children became root attributes, which
/// log4j2 ignores silently; a typo such as `<Apenders/>` deserves a word.
fn report_top_level_leaves(binder: &mut Binder, root: &xml::Node, top: &PNode) {
    for child in &root.children {
        let became_attribute = top.attrs.iter().any(|attr| attr.name == child.name)
            && !crate::plugins::is_log4j2_plugin(&child.name)
            && !child.name.eq_ignore_ascii_case("type");
        if became_attribute {
            let node = PNode::bare(child.name.clone(), child.position, child.file.clone());
            binder.unknown_element(&node);
        }
    }
}

#[cfg(test)]
mod tests;

/// For the plugin loaders' unit tests: `appenders` (the XML inside `<Appenders>`) loaded under a
/// root logger at ERROR, with the messages of the load.
#[cfg(test)]
pub(crate) fn load_appenders(appenders: &str) -> (Configuration, Vec<String>) {
    let xml = format!(
        r#"<Configuration><Appenders>{appenders}</Appenders><Loggers><Root level="error"/></Loggers></Configuration>"#
    );
    let configuration = load_str(&xml, None).expect("parses");
    let messages = diagnostic_messages(&configuration);
    (configuration, messages)
}

/// For the loaders' unit tests: the messages of a load's diagnostics, in order.
#[cfg(test)]
pub(crate) fn diagnostic_messages(configuration: &Configuration) -> Vec<String> {
    configuration
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect()
}
