//! The logger context: a configuration turned into live appenders, filters and logger configs,
//! and the routing of one event through them (log4j2's `LoggerConfig#log`).

use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::Arc;

use l4rs_config::model::{
    AppenderKind, AppenderSpec, ConsoleTarget, LayoutSpec, PatternLayoutSpec,
};
use l4rs_config::routing::LoggerTree;
use l4rs_config::Configuration;
use l4rs_core::{status, AppendError, Filter, FilterResult, Layout, Level, LogEvent};
use l4rs_layout::{LayoutContext, PatternLayout};

use crate::appender_control::AppenderControl;

/// One `<AppenderRef>` of a logger config, resolved to its appender.
struct AppenderRef {
    level: Option<Level>,
    filter: Option<Arc<dyn Filter>>,
    control: Arc<AppenderControl>,
}

/// One `<Logger>` or `<Root>`, ready to route events.
pub(crate) struct LoggerConfig {
    pub(crate) name: String,
    /// The effective level (own, or inherited from the nearest configured ancestor).
    pub(crate) level: Level,
    additive: bool,
    include_location: bool,
    parent: Option<usize>,
    filter: Option<Arc<dyn Filter>>,
    refs: Vec<AppenderRef>,
    /// True when this config includes location and some appender on its additivity path prints
    /// it: log4j2 then captures the location before routing, and every appender sees it.
    location_up_front: bool,
}

/// A configuration in force.
pub(crate) struct Context {
    pub(crate) configuration: Configuration,
    tree: LoggerTree,
    configs: Vec<LoggerConfig>,
    filter: Option<Arc<dyn Filter>>,
    appenders: Vec<Arc<AppenderControl>>,
}

impl Context {
    /// Builds appenders, filters and logger configs. Pieces that cannot be built are reported
    /// through the status logger and left out, as log4j2 does.
    pub(crate) fn build(configuration: Configuration) -> Context {
        let mut by_name: HashMap<String, Arc<AppenderControl>> = HashMap::new();
        let mut appenders = Vec::new();
        for spec in &configuration.appenders {
            if let Some(control) = build_appender(spec, &configuration) {
                let control = Arc::new(control);
                by_name.insert(spec.name.clone(), Arc::clone(&control));
                appenders.push(control);
            }
        }

        let tree = LoggerTree::new(&configuration.loggers);
        let mut configs = Vec::with_capacity(tree.len());
        for index in 0..tree.len() {
            let node = tree.node(index);
            let spec = &node.spec;
            let display_name = if spec.name.is_empty() {
                "root".to_string()
            } else {
                spec.name.clone()
            };
            let refs = spec
                .appender_refs
                .iter()
                .filter_map(|reference| match by_name.get(&reference.appender) {
                    Some(control) => Some(AppenderRef {
                        level: reference.level,
                        filter: reference.filter.as_ref().map(l4rs_filter::build_filter),
                        control: Arc::clone(control),
                    }),
                    None => {
                        status::error(format_args!(
                            "Unable to locate appender \"{}\" for logger config \"{}\"",
                            reference.appender, display_name
                        ));
                        None
                    }
                })
                .collect();
            configs.push(LoggerConfig {
                name: spec.name.clone(),
                level: node.effective_level,
                additive: spec.additivity,
                include_location: spec.include_location.unwrap_or(!spec.asynchronous),
                parent: tree.parent(index),
                filter: spec.filter.as_ref().map(l4rs_filter::build_filter),
                refs,
                location_up_front: false,
            });
        }
        for index in 0..configs.len() {
            let up_front = configs[index].include_location && path_prints_location(&configs, index);
            configs[index].location_up_front = up_front;
        }

        let filter = configuration.filter.as_ref().map(l4rs_filter::build_filter);
        Context {
            configuration,
            tree,
            configs,
            filter,
            appenders,
        }
    }

    /// The index of the logger config that owns `logger_name`.
    pub(crate) fn owner_of(&self, logger_name: &str) -> usize {
        self.tree.owner_of(logger_name)
    }

    /// The threshold the logger's atomic fast path compares against: the owner's level, or ALL
    /// when a context-wide filter must see every event first.
    pub(crate) fn fast_threshold(&self, owner: usize) -> Level {
        if self.filter.is_some() {
            Level::ALL
        } else {
            self.configs[owner].level
        }
    }

    /// The logger config at `index`.
    pub(crate) fn config(&self, index: usize) -> &LoggerConfig {
        &self.configs[index]
    }

    /// log4j2's `isEnabled`: the context-wide filter first (ACCEPT skips the level check, DENY
    /// drops), then the owner's level.
    pub(crate) fn is_enabled(&self, owner: usize, event: &LogEvent<'_>) -> bool {
        if let Some(filter) = &self.filter {
            match filter.filter(event) {
                FilterResult::Accept => return true,
                FilterResult::Deny => return false,
                FilterResult::Neutral => {}
            }
        }
        event
            .level
            .is_at_least_as_severe_as(self.configs[owner].level)
    }

    /// Routes an enabled event from its owner config up the additivity path. The event's
    /// `location` is the captured one; each appender sees it only where log4j2 would compute it.
    pub(crate) fn route(&self, owner: usize, event: &LogEvent<'_>) -> Result<(), AppendError> {
        let captured = event.location;
        let mut visible = self.configs[owner].location_up_front;
        let mut event = *event;
        let mut first_error = Ok(());
        let mut index = Some(owner);
        while let Some(current) = index {
            let config = &self.configs[current];
            if let Some(filter) = &config.filter {
                if filter.filter(&event) == FilterResult::Deny {
                    break;
                }
            }
            for reference in &config.refs {
                if let Some(level) = reference.level {
                    if !event.level.is_at_least_as_severe_as(level) {
                        continue;
                    }
                }
                if let Some(filter) = &reference.filter {
                    if filter.filter(&event) == FilterResult::Deny {
                        continue;
                    }
                }
                if config.include_location && reference.control.requires_location() {
                    visible = true;
                }
                event.location = if visible { captured } else { None };
                if let Err(error) = reference.control.call(&event) {
                    if first_error.is_ok() {
                        first_error = Err(error);
                    }
                }
            }
            if !config.additive {
                break;
            }
            index = config.parent;
        }
        first_error
    }

    /// Flushes every appender.
    pub(crate) fn flush(&self) {
        for appender in &self.appenders {
            appender.flush();
        }
    }

    /// Stops every appender: footers written, buffers flushed, files closed.
    pub(crate) fn stop(&self) {
        for appender in &self.appenders {
            appender.stop();
        }
    }

    /// The names of the appenders that were built.
    pub(crate) fn appender_names(&self) -> Vec<String> {
        self.appenders
            .iter()
            .map(|a| a.name().to_string())
            .collect()
    }
}

fn path_prints_location(configs: &[LoggerConfig], start: usize) -> bool {
    let mut index = Some(start);
    while let Some(current) = index {
        let config = &configs[current];
        if config.refs.iter().any(|r| r.control.requires_location()) {
            return true;
        }
        if !config.additive {
            return false;
        }
        index = config.parent;
    }
    false
}

fn build_appender(spec: &AppenderSpec, configuration: &Configuration) -> Option<AppenderControl> {
    let console = match &spec.kind {
        AppenderKind::Console(console) => match console.target {
            ConsoleTarget::SystemOut => std::io::stdout().is_terminal(),
            ConsoleTarget::SystemErr => std::io::stderr().is_terminal(),
        },
        _ => false,
    };
    let context = LayoutContext {
        interpolator: Some(Arc::clone(&configuration.substitutor)),
        console,
    };
    let layout: Arc<dyn Layout> = match &spec.layout {
        Some(LayoutSpec::Pattern(pattern)) => Arc::new(PatternLayout::new(pattern, context)),
        None => Arc::new(PatternLayout::new(&PatternLayoutSpec::default(), context)),
    };
    match l4rs_appenders::build_appender(spec, layout) {
        Ok(appender) => Some(AppenderControl::new(
            appender,
            spec.filter.as_ref().map(l4rs_filter::build_filter),
            spec.ignore_exceptions,
        )),
        Err(error) => {
            status::error(&error);
            None
        }
    }
}
