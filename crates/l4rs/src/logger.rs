//! `Logger`: a named handle whose disabled calls cost one atomic load.

use std::fmt;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::sync::Arc;

use l4rs_core::time::monotonic_nanos;
use l4rs_core::{
    AppendError, ContextMap, ContextStack, Level, Location, LogEvent, Marker, Message,
    ThrowableRef, Timestamp,
};

use crate::context::Context;
use crate::lifecycle::{active_context, ActiveContext};
use crate::thread::with_thread_data;

pub(crate) struct LoggerState {
    name: String,
    /// `intLevel` of the most verbose level that may be enabled; see `Context::fast_threshold`.
    threshold: AtomicI32,
    /// Which logger config owns the name, cached for the configuration of one generation: the
    /// generation in the high 32 bits, the config's index in the low 32. A call routes through
    /// the configuration in force (one pointer every logger reads, swapped once per
    /// reconfiguration) and uses the cache only when it was computed for that one, so no logger
    /// routes through an old configuration once any call has seen the new one.
    owner: AtomicU64,
}

/// The cached owner of a name: `owner` in the configuration of generation `generation`.
fn pack(generation: u32, owner: usize) -> u64 {
    (u64::from(generation) << 32) | (owner as u32 as u64)
}

impl LoggerState {
    pub(crate) fn new(name: &str, context: &Arc<Context>) -> LoggerState {
        let owner = context.owner_of(name);
        LoggerState {
            name: name.to_string(),
            threshold: AtomicI32::new(context.fast_threshold(owner).int_level()),
            owner: AtomicU64::new(pack(context.generation, owner)),
        }
    }

    /// Lets the level check through for every level that the configuration in force or `next`
    /// may enable, until [`LoggerState::rebind`]: while the loggers are moved one by one after
    /// the switch, a call's level is then decided by the configuration it routes through.
    pub(crate) fn widen(&self, next: &Context) {
        let owner = next.owner_of(&self.name);
        self.threshold
            .fetch_max(next.fast_threshold(owner).int_level(), Ordering::AcqRel);
    }

    /// Moves the logger to the configuration now in force (log4j2's
    /// `Logger.updateConfiguration`): its owner there, and its level check.
    pub(crate) fn rebind(&self, context: &Context) {
        let owner = context.owner_of(&self.name);
        self.owner
            .store(pack(context.generation, owner), Ordering::Release);
        self.threshold
            .store(context.fast_threshold(owner).int_level(), Ordering::Release);
    }

    /// The logger config that owns the name in `context`: the cached one when it was computed
    /// for `context`, else looked up (only between a switch and this logger's rebinding; the
    /// lookup walks the name and allocates nothing).
    fn owner_in(&self, context: &Context) -> usize {
        let cached = self.owner.load(Ordering::Acquire);
        if (cached >> 32) as u32 == context.generation {
            cached as u32 as usize
        } else {
            context.owner_of(&self.name)
        }
    }
}

/// A named logger. Cheap to clone and to share between threads; get one with
/// [`get_logger`](crate::get_logger) and log through the macros (`l4rs::info!(logger, …)`).
#[derive(Clone)]
pub struct Logger {
    pub(crate) state: Arc<LoggerState>,
}

impl Logger {
    /// The logger's name (`""` for the root logger).
    pub fn name(&self) -> &str {
        &self.state.name
    }

    /// True when an event at `level` may be logged: the level passes the owning logger
    /// config's level, or a context-wide filter must decide. One atomic load.
    #[inline]
    pub fn is_enabled(&self, level: Level) -> bool {
        level.int_level() <= self.state.threshold.load(Ordering::Relaxed)
    }

    /// The effective level of the logger config that owns this logger's name.
    pub fn level(&self) -> Level {
        match &*active_context() {
            Some(context) => context.config(self.state.owner_in(context)).level,
            None => Level::OFF,
        }
    }

    /// The name of the logger config that owns this logger (`""` for root).
    pub fn config_name(&self) -> String {
        match &*active_context() {
            Some(context) => context.config(self.state.owner_in(context)).name.clone(),
            None => String::new(),
        }
    }

    /// Logs a call made at `location`, with an optional throwable and marker. This is what the
    /// macros expand to after their level check; call it directly only to bypass the macros.
    /// Errors are returned only from appenders configured with `ignoreExceptions="false"`;
    /// everything else is reported through the status logger.
    pub fn log(
        &self,
        level: Level,
        location: Option<&Location<'_>>,
        throwable: Option<ThrowableRef<'_>>,
        marker: Option<&Marker>,
        message: fmt::Arguments<'_>,
    ) -> Result<(), AppendError> {
        self.log_with_context(level, location, throwable, marker, message, None)
    }

    /// Logs like [`Logger::log`] without marker, with `context_map` and `context_stack` in
    /// place of the thread's (the `tracing` layer's events carry their fields and spans there,
    /// and their error field as the throwable).
    #[cfg(feature = "tracing")]
    pub(crate) fn log_in_context(
        &self,
        level: Level,
        location: Option<&Location<'_>>,
        throwable: Option<ThrowableRef<'_>>,
        message: fmt::Arguments<'_>,
        context_map: &ContextMap,
        context_stack: &ContextStack,
    ) -> Result<(), AppendError> {
        self.log_with_context(
            level,
            location,
            throwable,
            None,
            message,
            Some((context_map, context_stack)),
        )
    }

    /// Builds the event and routes it: what [`Logger::log`] and `log_in_context` share.
    /// `context` replaces the thread's context map and stack when given. Inlined into both
    /// so that `log`'s constant `None` leaves no branch on the macros' path.
    #[inline(always)]
    fn log_with_context(
        &self,
        level: Level,
        location: Option<&Location<'_>>,
        throwable: Option<ThrowableRef<'_>>,
        marker: Option<&Marker>,
        message: fmt::Arguments<'_>,
        context: Option<(&ContextMap, &ContextStack)>,
    ) -> Result<(), AppendError> {
        let active = active_context();
        let Some(in_force) = &*active else {
            return Ok(());
        };
        let timestamp = Timestamp::now();
        let nano_time = if in_force.uses_nano_clock {
            monotonic_nanos()
        } else {
            0
        };
        with_thread_data(|thread, thread_map, thread_stack| {
            let (context_map, context_stack) = context.unwrap_or((thread_map, thread_stack));
            let event = LogEvent {
                logger_name: &self.state.name,
                level,
                message: Message::Args(message),
                timestamp,
                thread,
                location: location.copied(),
                throwable,
                context_map,
                context_stack,
                marker,
                nano_time,
                end_of_batch: false,
                rendered: None,
            };
            self.route(in_force, &event)
        })
    }

    /// Sends a fully built event through this logger's routing, exactly as a log call would:
    /// context-wide filter, level check, logger filters, appender references, additivity,
    /// appender filters and layouts. The event's logger name is replaced by this logger's.
    ///
    /// This is the documented hook for tools that replay recorded events (the conformance
    /// replay) or that need an explicit timestamp, thread or context.
    /// The event's nano time is kept as given.
    pub fn log_event(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        // Text rendered ahead comes only from an asynchronous stage's own queue: an event
        // handed in from outside is formatted by each appender.
        let event = LogEvent {
            rendered: None,
            ..*event
        };
        let active: ActiveContext = active_context();
        match &*active {
            Some(context) => self.route(context, &event),
            None => Ok(()),
        }
    }

    /// Routes through `context`, the configuration in force that the call loaded once: the
    /// reference it holds until it returns is what a reconfiguration waits for before it stops
    /// that configuration.
    fn route(&self, context: &Context, event: &LogEvent<'_>) -> Result<(), AppendError> {
        let mut event = *event;
        event.logger_name = &self.state.name;
        let owner = self.state.owner_in(context);
        if !context.is_enabled(owner, &event) {
            return Ok(());
        }
        context.route(owner, &event)
    }
}

impl fmt::Debug for Logger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Logger")
            .field("name", &self.state.name)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;
    use std::sync::Arc;

    use l4rs_core::Level;

    use super::LoggerState;
    use crate::context::Context;

    /// A context with no appenders and these `<Logger>`s under a root at OFF.
    fn context_with(loggers: &str) -> Context {
        let xml = format!(
            r#"<Configuration><Loggers>{loggers}<Root level="off"/></Loggers></Configuration>"#
        );
        let configuration = l4rs_config::load_str(&xml, None).expect("configuration parses");
        Context::build(configuration).0
    }

    /// Between the switch and its rebinding, a logger routes by the configuration in force,
    /// not by its cache of the old one; its level check lets through what either enables
    /// until it is rebound.
    #[test]
    fn a_logger_not_yet_rebound_routes_by_the_configuration_in_force() {
        let old = Arc::new(context_with(r#"<Logger name="a" level="info"/>"#));
        let new =
            context_with(r#"<Logger name="a" level="warn"/><Logger name="a.b" level="debug"/>"#);
        assert_ne!(old.generation, new.generation);
        let state = LoggerState::new("a.b.c", &old);
        let owner = |context: &Context| context.config(state.owner_in(context)).name.clone();
        let threshold = || state.threshold.load(Ordering::Relaxed);
        assert_eq!(owner(&old), "a");
        assert_eq!(threshold(), Level::INFO.int_level());
        assert_eq!(owner(&new), "a.b", "looked up in the new configuration");
        state.widen(&new);
        assert_eq!(threshold(), Level::DEBUG.int_level());
        state.rebind(&new);
        assert_eq!(owner(&new), "a.b");
        // Moving back to a stricter configuration: widening keeps the looser level until the
        // rebinding sets the stricter one.
        state.widen(&old);
        assert_eq!(threshold(), Level::DEBUG.int_level());
        state.rebind(&old);
        assert_eq!(threshold(), Level::INFO.int_level());
        assert_eq!(owner(&old), "a");
        old.stop();
        new.stop();
    }

    /// Whether a context built from File appenders with these `<PatternLayout …/>` elements
    /// reads the nano clock for its events.
    fn uses_nano_clock(layouts: &[&str]) -> bool {
        let dir = std::env::temp_dir().join(format!("l4rs-nano-clock-{}", std::process::id()));
        let appenders: String = layouts
            .iter()
            .enumerate()
            .map(|(index, layout)| {
                format!(
                    r#"<File name="F{index}" fileName="{}/{index}.log">{layout}</File>"#,
                    dir.display()
                )
            })
            .collect();
        let xml = format!(
            r#"<Configuration><Appenders>{appenders}</Appenders><Loggers><Root level="off"/></Loggers></Configuration>"#
        );
        let configuration = l4rs_config::load_str(&xml, None).expect("configuration parses");
        let (context, _) = Context::build(configuration);
        let uses = context.uses_nano_clock;
        context.stop();
        let _ = std::fs::remove_dir_all(&dir);
        uses
    }

    #[test]
    fn the_nano_clock_is_read_only_when_a_layout_of_the_configuration_prints_it() {
        assert!(!uses_nano_clock(&[r#"<PatternLayout pattern="%d %m%n"/>"#]));
        // The default layout (`%m%n`) of an appender without one.
        assert!(!uses_nano_clock(&[""]));
        assert!(uses_nano_clock(&[r#"<PatternLayout pattern="%N %m%n"/>"#]));
        assert!(uses_nano_clock(&[
            r#"<PatternLayout pattern="%m%n" header="%nano%n"/>"#
        ]));
        // One appender with `%N` is enough for every event of the configuration.
        assert!(uses_nano_clock(&[
            r#"<PatternLayout pattern="%m%n"/>"#,
            r#"<PatternLayout pattern="%style{%N}{red}"/>"#,
        ]));
    }
}
