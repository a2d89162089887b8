//! The logger context: a configuration turned into live appenders, filters and logger configs,
//! and the routing of one event through them (log4j2's `LoggerConfig#log`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use l4rs_async::AsyncAppender;
use l4rs_config::model::{
    AppenderKind, AppenderRefSpec, AppenderSpec, LayoutSpec, PatternLayoutSpec,
};
use l4rs_config::routing::LoggerTree;
use l4rs_config::Configuration;
use l4rs_core::{status, AppendError, Filter, FilterResult, Layout, Level, Location, LogEvent};
use l4rs_layout::{
    CsvLayout, GelfLayout, HtmlLayout, JsonLayout, JsonTemplateLayout, LayoutContext,
    PatternLayout, Rfc5424Layout, SyslogLayout, XmlLayout, YamlLayout,
};

use crate::appender_control::AppenderControl;
use crate::asynchronous::{self, AsyncLoggerStage, Filtered, Gate, RenderAhead, RoutingCall};
use crate::check::{BuildMode, CheckedAppender};

/// One `<AppenderRef>` (of a logger config or an Async appender), resolved to its appender.
pub(crate) struct AppenderRef {
    pub(crate) level: Option<Level>,
    pub(crate) filter: Option<Arc<dyn Filter>>,
    pub(crate) control: Arc<AppenderControl>,
}

impl AppenderRef {
    /// Resolves `reference` to its appender among `by_name`, building its filter; `None` when
    /// no appender has that name.
    pub(crate) fn resolve(
        reference: &AppenderRefSpec,
        by_name: &HashMap<String, Arc<AppenderControl>>,
    ) -> Option<AppenderRef> {
        let control = by_name.get(&reference.appender)?;
        Some(AppenderRef {
            level: reference.level,
            filter: reference.filter.as_ref().map(l4rs_filter::build_filter),
            control: Arc::clone(control),
        })
    }

    /// Resolves each of `references` in order, calling `report_missing` with the name of each
    /// reference to no appender, which is left out (log4j2 words the report differently for
    /// each kind of appender).
    pub(crate) fn resolve_all(
        references: &[AppenderRefSpec],
        by_name: &HashMap<String, Arc<AppenderControl>>,
        report_missing: impl Fn(&str),
    ) -> Vec<AppenderRef> {
        references
            .iter()
            .filter_map(|reference| {
                let resolved = AppenderRef::resolve(reference, by_name);
                if resolved.is_none() {
                    report_missing(&reference.appender);
                }
                resolved
            })
            .collect()
    }

    /// False when the reference's level or filter drops the event.
    pub(crate) fn accepts(&self, event: &LogEvent<'_>) -> bool {
        if let Some(level) = self.level {
            if !event.level.is_at_least_as_severe_as(level) {
                return false;
            }
        }
        match &self.filter {
            Some(filter) => filter.filter(event) != FilterResult::Deny,
            None => true,
        }
    }
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
    /// True for `<AsyncLogger>`/`<AsyncRoot>` while the AsyncLogger queue runs.
    asynchronous: bool,
    /// True when this config includes location and some appender on its additivity path prints
    /// it: log4j2 then captures the location before routing, and every appender sees it.
    location_up_front: bool,
    /// True when some appender on this config's additivity path prints the location.
    path_prints_location: bool,
    /// True when an event of this config may be written in the caller's thread (an appender on
    /// its path that is not an Async appender, reached before the AsyncLogger queue): such a
    /// call waits for a closed caller gate (see `Context::hold_callers`).
    writes_in_caller: bool,
    /// For a config where the path splits to the AsyncLogger queue: the layout its events are
    /// formatted with before they are queued, when the asynchronous part of the path reaches
    /// one appender only and that appender allows it.
    render_ahead: Option<RenderAhead>,
}

/// A configuration in force.
pub(crate) struct Context {
    pub(crate) configuration: Configuration,
    tree: LoggerTree,
    configs: Arc<[LoggerConfig]>,
    filter: Option<Arc<dyn Filter>>,
    /// In build order: an Async appender comes after the appenders it feeds, so walking the
    /// list backwards drains every queue before its targets are flushed or stopped.
    appenders: Vec<Arc<AppenderControl>>,
    /// The queue shared by every `<AsyncLogger>`/`<AsyncRoot>` (log4j2 has one per
    /// configuration), when the configuration has asynchronous loggers with appenders.
    async_logger: Option<AsyncLoggerStage>,
    /// The Async appenders, for their statistics.
    async_appenders: Vec<Arc<AsyncAppender>>,
    /// True when some layout of the configuration has a `%N`/`%nano` converter: log4j2 then
    /// switches the configuration to a real nano clock, and events carry a monotonic reading;
    /// otherwise their nano time is 0 and no clock is read.
    pub(crate) uses_nano_clock: bool,
    /// Tells the loggers' cached owners apart from one configuration to the next.
    pub(crate) generation: u32,
    /// The gate that calls writing in their own thread pass first, while this configuration
    /// replaces one whose queues may still hold events or whose files it takes over.
    caller_gate: Option<Arc<Gate>>,
    /// Appenders that take over a file another kind of appender of the configuration being
    /// replaced still writes; opened once that one has stopped.
    handovers: Vec<Arc<crate::handover::HandedOver>>,
    /// log4j2's all-asynchronous mode (`crate::context_selector`): an enabled event is queued
    /// at its owner, before any logger filter, and the queue's thread walks the whole path.
    all_async: bool,
}

/// The generation of the next context built.
static GENERATIONS: AtomicU32 = AtomicU32::new(1);

/// Which logger configs on a path call their appenders (log4j2's `LoggerConfigPredicate`, plus
/// the split itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Predicate {
    /// Every config, asynchronous or not (no AsyncLogger queue is running).
    Everything,
    /// Every config until the first asynchronous one with appenders, where the walk stops and
    /// reports it (log4j2's `AsyncLoggerConfig.log` with predicate ALL).
    SplitAtAsync,
    /// Only synchronous configs (the rest of the path, in the caller's thread, after a split).
    SynchronousOnly,
    /// Only asynchronous configs (on the AsyncLogger thread, from the split upwards).
    AsynchronousOnly,
}

/// One event's walk up an additivity path.
pub(crate) struct Walk<'e> {
    /// The event; its `location` is set per appender to what that appender may see.
    pub(crate) event: LogEvent<'e>,
    /// The location the call captured.
    pub(crate) captured: Option<Location<'e>>,
    /// True once log4j2 would have computed the location for this event.
    pub(crate) visible: bool,
    /// The first error of an appender with `ignoreExceptions="false"`.
    pub(crate) first_error: Result<(), AppendError>,
}

impl<'e> Walk<'e> {
    /// A walk of `event` whose location starts visible or not.
    pub(crate) fn new(event: &LogEvent<'e>, visible: bool) -> Walk<'e> {
        Walk {
            event: *event,
            captured: event.location,
            visible,
            first_error: Ok(()),
        }
    }

    /// Walks from `start` up the additivity path. `start_filtered` skips the first config's
    /// filter (already applied before a split). With [`Predicate::SplitAtAsync`] the walk stops
    /// at the first asynchronous config with appenders whose filter passes, and returns it.
    pub(crate) fn run(
        &mut self,
        configs: &[LoggerConfig],
        start: usize,
        predicate: Predicate,
        start_filtered: bool,
    ) -> Option<usize> {
        let mut index = Some(start);
        let mut filtered = start_filtered;
        while let Some(current) = index {
            let config = &configs[current];
            if !filtered {
                if let Some(filter) = &config.filter {
                    if filter.filter(&self.event) == FilterResult::Deny {
                        return None;
                    }
                }
            }
            filtered = false;
            let calls = match predicate {
                Predicate::Everything => true,
                Predicate::SplitAtAsync => {
                    if config.splits_to_async() {
                        return Some(current);
                    }
                    true
                }
                Predicate::SynchronousOnly => !config.asynchronous,
                Predicate::AsynchronousOnly => config.asynchronous,
            };
            if calls {
                for reference in &config.refs {
                    if !reference.accepts(&self.event) {
                        continue;
                    }
                    if config.include_location && reference.control.requires_location() {
                        self.visible = true;
                    }
                    self.event.location = if self.visible { self.captured } else { None };
                    if let Err(error) = reference.control.call(&self.event) {
                        if self.first_error.is_ok() {
                            self.first_error = Err(error);
                        }
                    }
                }
            }
            if !config.additive {
                break;
            }
            index = config.parent;
        }
        None
    }
}

impl Context {
    /// [`Context::build_behind`] with queues free to write at once (a context of its own).
    #[cfg(test)]
    pub(crate) fn build(configuration: Configuration) -> (Context, Vec<String>) {
        Context::build_behind(configuration, &Gate::opened())
    }

    /// Builds appenders, filters and logger configs. Pieces that cannot be built are reported
    /// through the status logger and left out, as log4j2 does; the context is returned with
    /// every ERROR reported on this thread while building: appenders that could not be built,
    /// references to appenders that do not exist, and what layouts and filters report (an
    /// unknown converter, a regex that does not compile). An explicit `init` returns them.
    ///
    /// Its asynchronous queues accept events at once but write none until `gate` opens: a
    /// configuration that replaces another waits until the old one has drained its queues.
    pub(crate) fn build_behind(
        configuration: Configuration,
        gate: &Arc<Gate>,
    ) -> (Context, Vec<String>) {
        // Observed rather than captured: `capture` hands each record to the innermost capture
        // only, so a caller's own capture around `init` would lose what building reported.
        // Layouts and filters return no error of their own, so their reports are the only way
        // to learn of them.
        let (context, reported) = status::observe(Level::ERROR, || {
            Context::build_with(configuration, &BuildMode::Start, gate)
        });
        let errors = reported.into_iter().map(|record| record.message).collect();
        (context, errors)
    }

    /// [`Context::build_behind`] without the bookkeeping of what it reported; with
    /// [`BuildMode::Check`], the same building without side effects (`l4rs check`).
    pub(crate) fn build_with(
        configuration: Configuration,
        mode: &BuildMode,
        gate: &Arc<Gate>,
    ) -> Context {
        let mut by_name: HashMap<String, Arc<AppenderControl>> = HashMap::new();
        let mut appenders = Vec::new();
        let mut referring_specs = Vec::new();
        let mut uses_nano_clock = false;
        // A closed gate: this configuration replaces a running one, whose files may change hands.
        let mut handovers = (!gate.is_open()).then(Vec::new);
        // log4j2 builds appenders in document order: a replaced one opens its file where it
        // stands, so after an earlier survivor on the same file has created the manager.
        // (The list is in the order the replacements happened, not always the document's.)
        let mut replaced: Vec<&AppenderSpec> = configuration.replaced_appenders.iter().collect();
        replaced.sort_by_key(|spec| spec.position);
        let mut replaced = replaced.into_iter().peekable();
        let replaced_file = |spec: &AppenderSpec| {
            mode.element(
                spec.position,
                || appender_subject(spec),
                || {
                    if !mode.checking() {
                        crate::replaced_appenders::open_file(spec);
                    } else if let Err(error) = l4rs_appenders::check_replaced_file(spec) {
                        status::error(error.with_help());
                    }
                },
            )
        };
        for spec in &configuration.appenders {
            while let Some(earlier) =
                replaced.next_if(|r| crate::replaced_appenders::precedes(r, spec))
            {
                replaced_file(earlier);
            }
            if crate::referring::refers_to_appenders(&spec.kind) {
                // Built below, once the appenders it names exist.
                referring_specs.push(spec);
                continue;
            }
            let control = mode.element(
                spec.position,
                || appender_subject(spec),
                || {
                    build_appender(
                        spec,
                        &configuration,
                        &mut uses_nano_clock,
                        mode,
                        handovers.as_mut(),
                    )
                },
            );
            if let Some(control) = control {
                let control = Arc::new(control);
                by_name.insert(spec.name.clone(), Arc::clone(&control));
                appenders.push(control);
            }
        }
        replaced.for_each(replaced_file);

        // log4j2's all-asynchronous context selector makes every logger config asynchronous.
        let all_async = crate::context_selector::all_loggers_asynchronous();
        let uses_async = all_async
            || referring_specs
                .iter()
                .any(|spec| matches!(spec.kind, AppenderKind::Async(_)))
            || std::iter::once(&configuration.loggers.root)
                .chain(&configuration.loggers.loggers)
                .any(|logger| logger.asynchronous);
        // A factory the configuration names wins over the wait strategy properties, which
        // are then not read, as in log4j2.
        let settings = if uses_async {
            // What the properties report is the configuration's too.
            mode.element(
                None,
                || "asynchronous settings".to_string(),
                || {
                    let wait_strategy = configuration.async_wait_strategy;
                    if all_async {
                        l4rs_async::AsyncSettings::from_environment_all_async(wait_strategy)
                    } else {
                        l4rs_async::AsyncSettings::from_environment_given(wait_strategy)
                    }
                },
            )
        } else {
            // No AsyncLogger queue starts, so no wait strategy is needed.
            l4rs_async::AsyncSettings::default()
        };
        // What Routing appenders build their routes' appenders with, for as long as they run.
        let shared_configuration = referring_specs
            .iter()
            .any(|spec| matches!(spec.kind, AppenderKind::Routing(_)))
            .then(|| Arc::new(configuration.clone()));
        let async_appenders = crate::referring::build_referring_appenders(
            &referring_specs,
            &settings,
            &mut by_name,
            &mut appenders,
            mode,
            gate,
            &configuration.substitutor,
            shared_configuration.as_ref(),
        );

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
                .filter_map(|reference| {
                    // The message names the reference and its logger.
                    mode.element(reference.position, String::new, || {
                        let resolved = AppenderRef::resolve(reference, &by_name);
                        if resolved.is_none() {
                            status::error(format_args!(
                                "Unable to locate appender \"{}\" for logger config \"{}\"",
                                reference.appender, display_name
                            ));
                        }
                        resolved
                    })
                })
                .collect();
            let filter = mode.element(
                spec.position,
                || format!("logger \"{display_name}\""),
                || spec.filter.as_ref().map(l4rs_filter::build_filter),
            );
            let asynchronous = spec.asynchronous || all_async;
            configs.push(LoggerConfig {
                name: spec.name.clone(),
                level: node.effective_level,
                additive: spec.additivity,
                include_location: spec.include_location.unwrap_or(!asynchronous),
                parent: tree.parent(index),
                filter,
                refs,
                asynchronous,
                location_up_front: false,
                path_prints_location: false,
                writes_in_caller: false,
                render_ahead: None,
            });
        }
        for index in 0..configs.len() {
            let prints = path_prints_location(&configs, index);
            configs[index].path_prints_location = prints;
            configs[index].location_up_front = configs[index].include_location && prints;
            configs[index].writes_in_caller = writes_in_caller(&configs, index);
            if settings.render_ahead && configs[index].splits_to_async() && !all_async {
                configs[index].render_ahead = render_ahead(&configs, index);
            }
        }
        if all_async {
            // log4j2's AsyncLogger takes the location once, when its own config includes it,
            // for every appender on the path; no config above turns it on later.
            for config in &mut configs {
                config.location_up_front = config.include_location;
                config.include_location = false;
            }
        }
        // Checking starts no thread: the queue's only failure is the OS refusing one.
        let (configs, async_logger) = if mode.checking() {
            (configs.into(), None)
        } else {
            asynchronous::start_async_logger(
                configs,
                &settings,
                configuration.shutdown_timeout_ms,
                gate,
            )
        };

        let filter = mode.element(
            None,
            || "configuration filter".to_string(),
            || configuration.filter.as_ref().map(l4rs_filter::build_filter),
        );
        Context {
            configuration,
            tree,
            configs,
            filter,
            appenders,
            async_logger,
            async_appenders,
            uses_nano_clock,
            generation: GENERATIONS.fetch_add(1, Ordering::Relaxed),
            caller_gate: None,
            handovers: handovers.unwrap_or_default(),
            all_async,
        }
    }

    /// True when the configuration has queues (the AsyncLogger queue or an Async appender)
    /// that may hold events when it is replaced.
    pub(crate) fn has_queues(&self) -> bool {
        self.async_logger.is_some() || !self.async_appenders.is_empty()
    }

    /// True when some appender takes over a file from another kind of appender of the
    /// configuration being replaced.
    pub(crate) fn has_handovers(&self) -> bool {
        !self.handovers.is_empty()
    }

    /// Has the calls that write in their own thread wait for `gate` (the one holding this
    /// configuration's queues), so that nothing they write comes before what the replaced
    /// configuration still had to write.
    pub(crate) fn hold_callers(&mut self, gate: &Arc<Gate>) {
        self.caller_gate = Some(Arc::clone(gate));
    }

    /// Builds the appenders that take over a file, now that the configuration that had it
    /// stopped (see [`crate::handover`]).
    pub(crate) fn complete_handovers(&self) {
        for handover in &self.handovers {
            handover.open();
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

    /// The most verbose level any logger of this context may enable: the loosest of the
    /// fast-path thresholds. Calls above it are disabled whatever their logger's name.
    pub(crate) fn most_verbose_threshold(&self) -> Level {
        (0..self.configs.len())
            .map(|owner| self.fast_threshold(owner))
            .max_by_key(|level| level.int_level())
            .unwrap_or(Level::OFF)
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
    ///
    /// With asynchronous loggers this is log4j2's split: at the first `<AsyncLogger>` (or
    /// `<AsyncRoot>`) with appenders on the path, the event goes synchronously to the
    /// synchronous configs above it, then is queued once; the AsyncLogger thread then walks the
    /// same path for the asynchronous configs.
    pub(crate) fn route(&self, owner: usize, event: &LogEvent<'_>) -> Result<(), AppendError> {
        if let Some(gate) = &self.caller_gate {
            if self.configs[owner].writes_in_caller {
                gate.pass_caller();
            }
        }
        let _inside = RoutingCall::enter();
        let mut walk = Walk::new(event, self.configs[owner].location_up_front);
        let Some(stage) = &self.async_logger else {
            walk.run(&self.configs, owner, Predicate::Everything, false);
            return walk.first_error;
        };
        if self.all_async {
            // As log4j2's AsyncLogger: the owner's filter and everything after it run on the
            // queue's thread, and only the location already taken travels.
            stage.enqueue(owner, &walk, Filtered::No, false, None);
            return walk.first_error;
        }
        if let Some(split) = walk.run(&self.configs, owner, Predicate::SplitAtAsync, false) {
            walk.run(&self.configs, split, Predicate::SynchronousOnly, true);
            let split_config = &self.configs[split];
            let render = split_config.render_ahead.as_ref();
            stage.enqueue(
                split,
                &walk,
                Filtered::Yes,
                split_config.path_prints_location,
                render,
            );
        }
        walk.first_error
    }

    /// Waits for the asynchronous queues to drain, then flushes every appender.
    pub(crate) fn flush(&self) {
        if let Some(stage) = &self.async_logger {
            stage.drain();
        }
        for appender in self.appenders.iter().rev() {
            appender.flush();
        }
    }

    /// Stops every appender: the AsyncLogger queue and the Async appenders drain first (within
    /// their timeouts), then footers are written, buffers flushed and files closed.
    pub(crate) fn stop(&self) {
        if let Some(stage) = &self.async_logger {
            stage.stop();
        }
        for appender in self.appenders.iter().rev() {
            appender.stop();
        }
    }

    /// The counters of the asynchronous queues (the AsyncLogger queue first).
    pub(crate) fn async_stats(&self) -> Vec<l4rs_async::QueueStats> {
        self.async_logger
            .iter()
            .map(AsyncLoggerStage::stats)
            .chain(self.async_appenders.iter().map(|appender| appender.stats()))
            .collect()
    }

    /// The names of the appenders that were built.
    pub(crate) fn appender_names(&self) -> Vec<String> {
        self.appenders
            .iter()
            .map(|a| a.name().to_string())
            .collect()
    }

    /// The count of the counting appender named `name`, if the configuration built one.
    pub(crate) fn counted_events(&self, name: &str) -> Option<u64> {
        self.appenders
            .iter()
            .find(|appender| appender.name() == name)
            .and_then(|appender| appender.counted_events())
    }
}

impl LoggerConfig {
    /// True for an asynchronous config with appenders of its own: where an event's path splits
    /// between the caller's thread and the AsyncLogger thread.
    pub(crate) fn splits_to_async(&self) -> bool {
        self.asynchronous && !self.refs.is_empty()
    }
}

/// The configs an event of the config at `start` walks through: that one, then each parent
/// while the config before it is additive.
fn additivity_path(configs: &[LoggerConfig], start: usize) -> impl Iterator<Item = &LoggerConfig> {
    let mut next = Some(start);
    std::iter::from_fn(move || {
        let config = &configs[next?];
        next = if config.additive { config.parent } else { None };
        Some(config)
    })
}

/// Whether an event of the config at `start` may reach, in the caller's thread, an appender
/// that writes there (not an Async appender) or an Async appender whose queue drops when full
/// (which a closed gate would make it do): on the additivity path, the synchronous configs
/// (and every config while no AsyncLogger queue splits the path) call their appenders in the
/// caller's thread.
fn writes_in_caller(configs: &[LoggerConfig], start: usize) -> bool {
    additivity_path(configs, start).any(|config| {
        !config.splits_to_async() && config.refs.iter().any(|r| r.control.waits_at_caller_gate())
    })
}

/// The layout to format events with before the AsyncLogger queue, for the split at `split`:
/// the asynchronous configs on its additivity path (the ones the queue's thread calls) must
/// reference exactly one appender between them, and that appender must allow it
/// ([`AppenderControl::layout_rendering_ahead`]).
fn render_ahead(configs: &[LoggerConfig], split: usize) -> Option<RenderAhead> {
    let mut references = additivity_path(configs, split)
        .filter(|config| config.asynchronous)
        .flat_map(|config| {
            config
                .refs
                .iter()
                .map(move |r| (r, config.include_location))
        });
    let (reference, include_location) = references.next()?;
    if references.next().is_some() {
        return None;
    }
    Some(RenderAhead {
        layout: reference.control.layout_rendering_ahead()?,
        shows_location: include_location,
    })
}

fn path_prints_location(configs: &[LoggerConfig], start: usize) -> bool {
    additivity_path(configs, start)
        .any(|config| config.refs.iter().any(|r| r.control.requires_location()))
}

/// How `l4rs check` names an appender in what it reports.
pub(crate) fn appender_subject(spec: &AppenderSpec) -> String {
    format!("appender \"{}\"", spec.name)
}

/// Builds an appender's layout as starting `configuration` does (`l4rs check` builds them
/// through here too, so it reports what starting would): its layout element, or the default
/// `%m%n` PatternLayout without one. `console` is Java's `System.console() != null`, which
/// `noConsoleNoAnsi` reads. The flag is true when the layout reads the nano clock (`%N`), which
/// log4j2 then switches on for the whole configuration.
pub fn build_layout(
    spec: Option<&LayoutSpec>,
    configuration: &Configuration,
    console: bool,
) -> (Arc<dyn Layout>, bool) {
    let context = LayoutContext {
        interpolator: Some(Arc::clone(&configuration.substitutor)),
        console,
    };
    match spec {
        Some(LayoutSpec::Json(json)) => (Arc::new(JsonLayout::new(json, context)), false),
        Some(LayoutSpec::Xml(xml)) => (Arc::new(XmlLayout::new(xml, context)), false),
        Some(LayoutSpec::Yaml(yaml)) => (Arc::new(YamlLayout::new(yaml, context)), false),
        Some(LayoutSpec::Syslog(syslog)) => (Arc::new(SyslogLayout::new(syslog)), false),
        Some(LayoutSpec::Rfc5424(rfc5424)) => {
            let layout = Rfc5424Layout::new(rfc5424, &configuration.name, context);
            (Arc::new(layout), false)
        }
        Some(LayoutSpec::Gelf(gelf)) => (Arc::new(GelfLayout::new(gelf, context)), false),
        Some(LayoutSpec::Csv(csv)) => (Arc::new(CsvLayout::new(csv, context)), false),
        Some(LayoutSpec::Html(html)) => (Arc::new(HtmlLayout::new(html)), false),
        Some(LayoutSpec::JsonTemplate(template)) => {
            match JsonTemplateLayout::new(template, context.clone()) {
                Ok(layout) => (Arc::new(layout), false),
                // log4j2 creates no layout, so the appender takes its default one.
                Err(message) => {
                    l4rs_core::status::error(message);
                    pattern_layout(&PatternLayoutSpec::default(), context)
                }
            }
        }
        Some(LayoutSpec::Pattern(pattern)) => pattern_layout(pattern, context),
        None => pattern_layout(&PatternLayoutSpec::default(), context),
    }
}

fn pattern_layout(spec: &PatternLayoutSpec, context: LayoutContext) -> (Arc<dyn Layout>, bool) {
    let layout = PatternLayout::new(spec, context);
    let uses_nano_time = layout.uses_nano_time();
    (Arc::new(layout), uses_nano_time)
}

/// Builds an appender of an optional feature of the `l4rs` crate (`<JDBC>`, `<Kafka>`):
/// `None` for other kinds; the error is the status line to print (also when the feature is
/// off).
fn feature_appender(
    spec: &AppenderSpec,
    configuration: &Configuration,
    console: bool,
    uses_nano_clock: &mut bool,
    layout: Arc<dyn Layout>,
) -> Option<Result<Arc<dyn l4rs_core::Appender>, String>> {
    match &spec.kind {
        l4rs_config::model::AppenderKind::Jdbc(jdbc) => {
            let layouts =
                crate::jdbc::column_layouts(jdbc, configuration, console, uses_nano_clock);
            Some(crate::jdbc::build_jdbc_appender(spec, jdbc, layouts))
        }
        l4rs_config::model::AppenderKind::Kafka(kafka) => {
            let interpolator: Arc<dyn l4rs_core::Interpolator> = configuration.substitutor.clone();
            Some(crate::kafka::build_kafka_appender(
                spec,
                kafka,
                layout,
                interpolator,
            ))
        }
        _ => None,
    }
}

/// Builds one appender (with [`BuildMode::Check`], judges it: see `l4rs_appenders::check_appender`); an error is reported through the status logger (and so becomes one of
/// the context's build errors). Sets `uses_nano_clock` when the layout has `%N` (log4j2 switches
/// the clock while parsing the pattern, so even when the appender itself then fails to build).
/// With `handovers` (the configuration replaces a running one), an appender whose file another
/// kind of appender still writes is built later (see [`crate::handover`]) and listed there.
pub(crate) fn build_appender(
    spec: &AppenderSpec,
    configuration: &Configuration,
    uses_nano_clock: &mut bool,
    mode: &BuildMode,
    handovers: Option<&mut Vec<Arc<crate::handover::HandedOver>>>,
) -> Option<AppenderControl> {
    // log4j2 asks `System.console()`, whatever the appender writes to.
    let console = crate::system_console::process_has_console();
    let (layout, uses_nano_time) = build_layout(spec.layout.as_ref(), configuration, console);
    *uses_nano_clock |= uses_nano_time;
    // `$${…}` in a rolling `filePattern` resolves at rollover with this configuration's
    // properties, as log4j2 resolves it with the configuration's substitutor.
    let rolling = l4rs_appenders::RollingContext {
        clock: Arc::new(l4rs_appenders::SystemClock::default()),
        substitutor: Arc::clone(&configuration.substitutor),
    };
    let built = if mode.checking() {
        l4rs_appenders::check_appender(spec).map(|()| {
            Arc::new(CheckedAppender {
                name: spec.name.clone(),
                requires_location: layout.requires_location(),
            }) as Arc<dyn l4rs_core::Appender>
        })
    } else if let Some(handovers) = handovers.filter(|_| l4rs_appenders::held_by_another_kind(spec))
    {
        let handover = Arc::new(crate::handover::HandedOver::new(spec, layout, rolling));
        handovers.push(Arc::clone(&handover));
        Ok(handover as Arc<dyn l4rs_core::Appender>)
    } else if let l4rs_config::model::AppenderKind::Smtp(smtp) = &spec.kind {
        // The subject is formatted by a PatternLayout of its own, which log4j2's serializer
        // builder makes without appending the event's exception.
        let subject = smtp.subject.as_ref().map(|pattern| {
            let spec = PatternLayoutSpec {
                pattern: pattern.clone(),
                always_write_exceptions: false,
                ..PatternLayoutSpec::default()
            };
            let (subject, uses_nano_time) =
                build_layout(Some(&LayoutSpec::Pattern(spec)), configuration, console);
            *uses_nano_clock |= uses_nano_time;
            subject
        });
        l4rs_appenders::SmtpAppender::new(&spec.name, smtp, layout, subject)
            .map(|appender| Arc::new(appender) as Arc<dyn l4rs_core::Appender>)
    } else if let l4rs_config::model::AppenderKind::Http(http) = &spec.kind {
        let interpolator: Arc<dyn l4rs_core::Interpolator> = configuration.substitutor.clone();
        l4rs_appenders::HttpAppender::new(&spec.name, http, layout, interpolator)
            .map(|appender| Arc::new(appender) as Arc<dyn l4rs_core::Appender>)
    } else if let Some(built) = feature_appender(
        spec,
        configuration,
        console,
        uses_nano_clock,
        layout.clone(),
    ) {
        return match built {
            Ok(appender) => Some(AppenderControl::new(
                appender,
                spec.filter.as_ref().map(l4rs_filter::build_filter),
                spec.ignore_exceptions,
            )),
            Err(message) => {
                status::error(message);
                None
            }
        };
    } else {
        l4rs_appenders::build_appender_with(spec, layout, &rolling)
    };
    match built {
        Ok(appender) => Some(AppenderControl::new(
            appender,
            spec.filter.as_ref().map(l4rs_filter::build_filter),
            spec.ignore_exceptions,
        )),
        Err(error) => {
            status::error(error.with_help());
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Context, LoggerConfig};

    /// `read` of the config owning each of `names`, for a configuration whose appenders write
    /// to files under a fresh directory (`DIR` in `appenders`).
    fn per_logger<T>(
        label: &str,
        appenders: &str,
        loggers: &str,
        names: &[&str],
        read: impl Fn(&LoggerConfig) -> T,
    ) -> Vec<T> {
        let dir = std::env::temp_dir().join(format!("l4rs-caller-{}-{label}", std::process::id()));
        let xml = format!(
            r#"<Configuration><Appenders>{}</Appenders><Loggers>{loggers}</Loggers></Configuration>"#,
            appenders.replace("DIR", &dir.display().to_string())
        );
        let configuration = l4rs_config::load_str(&xml, None).expect("configuration parses");
        let (context, errors) = Context::build(configuration);
        assert!(errors.is_empty(), "{errors:?}");
        let values = names
            .iter()
            .map(|name| read(context.config(context.owner_of(name))))
            .collect();
        context.stop();
        let _ = std::fs::remove_dir_all(&dir);
        values
    }

    /// Which logger configs write in the caller's thread.
    fn writes_in_caller(label: &str, appenders: &str, loggers: &str, names: &[&str]) -> Vec<bool> {
        per_logger(label, appenders, loggers, names, |config| {
            config.writes_in_caller
        })
    }

    #[test]
    fn events_are_rendered_ahead_of_the_queue_only_for_one_file_appender_that_allows_it() {
        let appenders = r#"<File name="F" fileName="DIR/f.log"/>
            <File name="G" fileName="DIR/g.log"/>
            <File name="Numbered" fileName="DIR/n.log"><PatternLayout pattern="%sn %m%n"/></File>
            <Console name="Out"/>"#;
        let loggers = r#"<AsyncLogger name="one" additivity="false"><AppenderRef ref="F"/></AsyncLogger>
            <AsyncLogger name="two" additivity="false">
              <AppenderRef ref="F"/><AppenderRef ref="G"/>
            </AsyncLogger>
            <AsyncLogger name="numbered" additivity="false"><AppenderRef ref="Numbered"/></AsyncLogger>
            <AsyncLogger name="console" additivity="false"><AppenderRef ref="Out"/></AsyncLogger>
            <AsyncLogger name="up"><AppenderRef ref="F"/></AsyncLogger>
            <AsyncLogger name="up.beside"><AppenderRef ref="G"/></AsyncLogger>
            <AsyncLogger name="sync-parent"><AppenderRef ref="F"/></AsyncLogger>
            <Logger name="sync"><AppenderRef ref="G"/></Logger>
            <Root level="info"><AppenderRef ref="G"/></Root>"#;
        let names = [
            "one",
            "two",
            "numbered",
            "console",
            "up.beside",
            "sync-parent",
            "sync",
        ];
        let rendered = |config: &LoggerConfig| config.render_ahead.is_some();
        let property = l4rs_async::settings::RENDER_AHEAD_PROPERTY;
        l4rs_config::set_system_property(property, "true");
        let switched_on = per_logger("render-ahead", appenders, loggers, &names, rendered);
        l4rs_config::clear_system_property(property);
        // `up.beside` reaches F and G on the queue's thread; `sync-parent` only F there (the
        // synchronous root's G is called before the queue).
        assert_eq!(switched_on, [true, false, false, false, false, true, false]);
        let by_default = per_logger("render-ahead-off", appenders, loggers, &["one"], rendered);
        assert_eq!(by_default, [false], "off unless switched on");
    }

    #[test]
    fn only_calls_that_reach_an_appender_in_their_own_thread_write_in_the_caller() {
        let file = r#"<File name="F" fileName="DIR/f.log"/>"#;
        // Behind an AsyncRoot, only the synchronous logger with an appender of its own.
        assert_eq!(
            writes_in_caller(
                "async-root",
                file,
                r#"<Logger name="sync"><AppenderRef ref="F"/></Logger>
                   <Logger name="quiet" level="info"/>
                   <AsyncRoot level="info"><AppenderRef ref="F"/></AsyncRoot>"#,
                &["sync", "quiet", "other"],
            ),
            [true, false, false]
        );
        // Through an Async appender the call only queues; straight to the file it writes.
        assert_eq!(
            writes_in_caller(
                "async-appender",
                &format!(r#"{file}<Async name="Q"><AppenderRef ref="F"/></Async>"#),
                r#"<Logger name="direct" additivity="false"><AppenderRef ref="F"/></Logger>
                   <Root level="info"><AppenderRef ref="Q"/></Root>"#,
                &["direct", "other"],
            ),
            [true, false]
        );
        // A non-blocking Async appender's call waits at the gate: its queue would drop.
        assert_eq!(
            writes_in_caller(
                "non-blocking",
                &format!(
                    r#"{file}<Async name="Q" blocking="false"><AppenderRef ref="F"/></Async>"#
                ),
                r#"<Root level="info"><AppenderRef ref="Q"/></Root>"#,
                &["other"],
            ),
            [true]
        );
    }
}
