//! `tracing` events through l4rs's routing (feature `tracing`).
//!
//! ```no_run
//! l4rs::tracing::init().expect("no other tracing subscriber");
//! tracing::info!(target: "my_app::db", user = "ann", "connected in {} ms", 12);
//! ```
//!
//! Each event goes to the l4rs logger named by its target (`my_app::db`, owned by
//! `<Logger name="my_app">` or `name="my_app.db"`), at the same level, and from there through
//! that logger's level, filters, additivity and appenders exactly as an `l4rs::info!` would.
//! The `message` field is the event's message (`%m`); every other field of the event, and the
//! fields of the spans it is in, are entries of its context map (`%X`), and the names of those
//! spans, outermost first, are its context stack (`%x`); its first error value
//! (`error = &e as &dyn Error`) is its throwable (`%ex`). `%C`, `%F` and `%L` come from the
//! event's metadata; `%M` prints `?` (tracing does not record the function). The full mapping
//! is in `docs/tracing.md`.
//!
//! [`init`] and [`install`] set the process's subscriber in either order with l4rs's own
//! initialisation; `tracing-subscriber`'s `init()` panics when l4rs was initialised first
//! (see [`install`]).
//!
//! Interest is decided per call site: a `tracing::debug!` whose logger is not enabled for DEBUG
//! is disabled by `tracing` itself at its call site (an atomic load), and every call site is
//! judged again when l4rs's configuration changes.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

use l4rs_core::location::{file_name_from_path, UNKNOWN_METHOD};
use l4rs_core::{ContextMap, ContextStack, Level, Location, Throwable, ThrowableRef};
use tracing_core::callsite::Identifier;
use tracing_core::field::{Field, Visit};
use tracing_core::span::{Attributes, Id, Record};
use tracing_core::subscriber::Interest;
use tracing_core::{Event, LevelFilter, Metadata, Subscriber};
use tracing_subscriber::layer::{Context, Filter, Layer};
use tracing_subscriber::registry::LookupSpan;

use crate::logger::Logger;
use crate::thread::with_thread_data;

/// The layer that hands `tracing` events to l4rs, with its per-call-site filter. Install it as
/// any other layer, with [`install`] (which works whether or not l4rs was initialised first):
///
/// ```no_run
/// use tracing_subscriber::prelude::*;
/// l4rs::tracing::install(tracing_subscriber::registry().with(l4rs::tracing::layer()))
///     .expect("no other tracing subscriber");
/// ```
///
/// The filter is a per-layer filter: what l4rs does not want is still seen by the other layers
/// of the same subscriber (an OpenTelemetry layer, say), and a call site no layer wants is
/// disabled at the call site.
///
/// Creating the layer loads l4rs's configuration if nothing did yet (as the first
/// [`get_logger`](crate::get_logger) does: `LOG4RS_CONFIGURATION_FILE`, discovery, or the
/// default), so the layer is ready when the subscriber registers its call sites. Created
/// before l4rs is initialised, it also lets `tracing-subscriber`'s `init()` install
/// `tracing-log`'s `LogTracer` (its `tracing-log` feature, on by default): l4rs's own `log`
/// bridge then stands aside and `log` records reach l4rs through this layer, once. Created
/// after, `init()` panics (l4rs's bridge holds `log` already): use [`install`] then (see
/// `docs/tracing.md`).
pub fn layer<S>() -> impl Layer<S> + Send + Sync + 'static
where
    S: Subscriber + for<'lookup> LookupSpan<'lookup>,
{
    crate::bridge::defer_to_tracing();
    LAYER_CREATED.store(true, Ordering::SeqCst);
    // Loads the configuration now rather than from inside `tracing`'s call-site registration.
    let _ = crate::get_logger("");
    EventsToLoggers.with_filter(LoggerInterest)
}

/// Installs a subscriber of just the l4rs layer as the process's `tracing` subscriber:
/// `l4rs::tracing::init()` is `l4rs::tracing::install(tracing_subscriber::registry().with(l4rs::tracing::layer()))`.
///
/// ```no_run
/// l4rs::init_with_file("log4j2.xml").expect("a configuration");
/// l4rs::tracing::init().expect("no other tracing subscriber");
/// tracing::info!(target: "my_app::db", user = "ann", "connected in {} ms", 12);
/// ```
pub fn init() -> Result<(), SetGlobalDefaultError> {
    use tracing_subscriber::layer::SubscriberExt as _;
    install(tracing_subscriber::registry().with(layer()))
}

/// Makes `subscriber` (a subscriber with [`layer`] among its layers, and any others) the
/// process's `tracing` subscriber, and `log` records reach l4rs once, whether l4rs was
/// initialised before or after; never panics.
///
/// `tracing-subscriber`'s own `init()` installs `tracing-log`'s `LogTracer` as `log`'s logger
/// too, and panics when `log` has a logger already: which it has once l4rs's configuration is
/// loaded, since l4rs's `log` bridge takes `log` then. This function sets the subscriber and
/// leaves `log` to l4rs's bridge: it takes `log` now if nothing holds it, and stands aside
/// quietly if something does (`tracing-log`'s `LogTracer`, whose records the layer routes).
/// `log` records that l4rs's bridge carries go to l4rs only, not to the subscriber's other
/// layers.
///
/// ```no_run
/// use tracing_subscriber::prelude::*;
/// l4rs::init_with_file("log4j2.xml").expect("a configuration");
/// let subscriber = tracing_subscriber::registry().with(l4rs::tracing::layer());
/// l4rs::tracing::install(subscriber).expect("no other tracing subscriber");
/// ```
///
/// Fails, changing nothing, when the process has a global `tracing` subscriber already.
pub fn install<S>(subscriber: S) -> Result<(), SetGlobalDefaultError>
where
    S: Into<tracing_core::Dispatch>,
{
    tracing_core::dispatcher::set_global_default(subscriber.into())?;
    crate::bridge::install_behind_tracing();
    Ok(())
}

pub use tracing_core::dispatcher::SetGlobalDefaultError;

/// Has `tracing` judge every call site again: called whenever a configuration is put in force.
pub(crate) fn follow() {
    // Before the call sites are judged again: `callsite_enabled` reads it.
    let threshold = crate::lifecycle::installed_context().map_or(NOT_LOADED, |context| {
        context.most_verbose_threshold().int_level()
    });
    MOST_VERBOSE.store(threshold, Ordering::Release);
    tracing_core::callsite::rebuild_interest_cache();
    if LAYER_CREATED.load(Ordering::SeqCst) && !crate::bridge::is_installed() {
        // `log` records reach l4rs through `tracing-log`, which set `log`'s maximum level from
        // `tracing`'s when it was installed; keep it in step with the new configuration.
        log::set_max_level(log_level_filter(LevelFilter::current()));
    }
}

/// `intLevel` of the most verbose level the configuration in force may enable
/// (`Context::most_verbose_threshold`), kept by [`follow`] so that the filter decides without
/// looking the context up: [`NOT_LOADED`] before a configuration is in force.
static MOST_VERBOSE: AtomicI32 = AtomicI32::new(NOT_LOADED);

/// [`MOST_VERBOSE`] before any configuration is in force.
const NOT_LOADED: i32 = i32::MIN;

/// Whether some logger of the configuration in force may log at `level` (true before one is
/// loaded): one atomic load.
fn some_logger_may_log(level: Level) -> bool {
    let threshold = MOST_VERBOSE.load(Ordering::Relaxed);
    threshold == NOT_LOADED || level.int_level() <= threshold
}

/// True once [`layer`] was called.
static LAYER_CREATED: AtomicBool = AtomicBool::new(false);

fn log_level_filter(filter: LevelFilter) -> log::LevelFilter {
    match filter.into_level() {
        None => log::LevelFilter::Off,
        Some(tracing_core::Level::ERROR) => log::LevelFilter::Error,
        Some(tracing_core::Level::WARN) => log::LevelFilter::Warn,
        Some(tracing_core::Level::INFO) => log::LevelFilter::Info,
        Some(tracing_core::Level::DEBUG) => log::LevelFilter::Debug,
        Some(_) => log::LevelFilter::Trace,
    }
}

/// Maps `tracing`'s levels onto log4j2's (one to one).
fn level_of(level: &tracing_core::Level) -> Level {
    match *level {
        tracing_core::Level::ERROR => Level::ERROR,
        tracing_core::Level::WARN => Level::WARN,
        tracing_core::Level::INFO => Level::INFO,
        tracing_core::Level::DEBUG => Level::DEBUG,
        _ => Level::TRACE,
    }
}

/// The most verbose `tracing` level whose log4j2 level `threshold` lets through: the `log`
/// bridge's answer ([`crate::bridge::max_level_for`]), since both crates have the same five
/// levels mapped onto the same log4j2 levels.
fn level_filter_for(threshold: Level) -> LevelFilter {
    match crate::bridge::max_level_for(threshold) {
        log::LevelFilter::Off => LevelFilter::OFF,
        log::LevelFilter::Error => LevelFilter::ERROR,
        log::LevelFilter::Warn => LevelFilter::WARN,
        log::LevelFilter::Info => LevelFilter::INFO,
        log::LevelFilter::Debug => LevelFilter::DEBUG,
        log::LevelFilter::Trace => LevelFilter::TRACE,
    }
}

/// The target of the call sites of `tracing-log`'s `LogTracer`: their events carry the `log`
/// record's own target, module, file and line as `log.*` fields.
const LOG_TRACER_TARGET: &str = "log";

fn is_log_tracer_event(metadata: &Metadata<'_>) -> bool {
    metadata.target() == LOG_TRACER_TARGET && metadata.fields().field("log.target").is_some()
}

/// Whether l4rs wants what `metadata` describes: an event when its target's logger is enabled
/// for its level; a span (whose fields and name become context of the events inside it) or an
/// event of `tracing-log` (whose real target is a field) when some logger may log at its level.
///
/// Called for every event when another layer beside this one makes `tracing` ask per event,
/// so it takes no lock: an atomic load, and the call site's logger from a per-thread cache.
fn wanted(metadata: &Metadata<'_>) -> bool {
    let level = level_of(metadata.level());
    if !some_logger_may_log(level) {
        return false;
    }
    if metadata.is_span() || is_log_tracer_event(metadata) {
        return true;
    }
    with_logger(metadata, |logger| logger.is_enabled(level))
}

/// The per-layer filter: l4rs's routing decides, once per call site.
struct LoggerInterest;

impl<S> Filter<S> for LoggerInterest {
    fn enabled(&self, metadata: &Metadata<'_>, _: &Context<'_, S>) -> bool {
        wanted(metadata)
    }

    fn callsite_enabled(&self, metadata: &'static Metadata<'static>) -> Interest {
        if MOST_VERBOSE.load(Ordering::Acquire) == NOT_LOADED {
            // No configuration yet: ask again per event.
            Interest::sometimes()
        } else if wanted(metadata) {
            Interest::always()
        } else {
            Interest::never()
        }
    }

    fn max_level_hint(&self) -> Option<LevelFilter> {
        // Asked when call sites are registered or judged again, not per event.
        let most_verbose =
            crate::lifecycle::installed_context().map(|context| context.most_verbose_threshold());
        Some(most_verbose.map_or(LevelFilter::TRACE, level_filter_for))
    }
}

/// The fields of one span, rendered once when the span is created or records values.
struct SpanFields {
    fields: Vec<(&'static str, String)>,
}

/// The layer proper: spans' fields are kept in their extensions, events are routed.
struct EventsToLoggers;

impl<S> Layer<S> for EventsToLoggers
where
    S: Subscriber + for<'lookup> LookupSpan<'lookup>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        let mut fields = SpanFields { fields: Vec::new() };
        attrs.record(&mut Render(&mut fields));
        span.extensions_mut().insert(fields);
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        let mut extensions = span.extensions_mut();
        if let Some(fields) = extensions.get_mut::<SpanFields>() {
            values.record(&mut Render(fields));
        }
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        crate::bridge::install_behind_tracing();
        let metadata = event.metadata();
        let level = level_of(metadata.level());
        if is_log_tracer_event(metadata) {
            return log_tracer_event(event, level, &ctx);
        }
        let location = location_of(metadata);
        let message = MessageOf(event);
        with_logger(metadata, |logger| {
            if !logger.is_enabled(level) {
                return;
            }
            let in_span = ctx.event_scope(event).is_some();
            let has_fields = event.fields().any(|field| field.name() != "message");
            if !in_span && !has_fields {
                // The plain event: the thread's own context, nothing built.
                let _ = logger.log(
                    level,
                    location.as_ref(),
                    None,
                    None,
                    format_args!("{message}"),
                );
                return;
            }
            with_event_context(event, &ctx, false, |map, stack, throwable| {
                let _ = logger.log_in_context(
                    level,
                    location.as_ref(),
                    throwable.map(ThrowableRef::Throwable),
                    format_args!("{message}"),
                    map,
                    stack,
                );
            });
        });
    }
}

/// Runs `f` with the logger of the call site `metadata`, looked up once per thread and call
/// site (a logger follows reconfiguration by itself, so it is never looked up again): no lock
/// and no allocation once the thread has met the call site.
fn with_logger<R>(metadata: &Metadata<'_>, f: impl FnOnce(&Logger) -> R) -> R {
    thread_local! {
        static LOGGERS: RefCell<HashMap<Identifier, Logger, BuildHasherDefault<AddressHasher>>> =
            RefCell::new(HashMap::default());
    }
    let mut f = Some(f);
    let result = LOGGERS.try_with(|loggers| {
        if let Ok(loggers) = loggers.try_borrow() {
            if let Some(logger) = loggers.get(&metadata.callsite()) {
                return (f.take().expect("called once"))(logger);
            }
        }
        let logger = crate::get_logger(metadata.target());
        // Not cached when the map is in use (an event logged while formatting another).
        if let Ok(mut loggers) = loggers.try_borrow_mut() {
            loggers.insert(metadata.callsite(), logger.clone());
        }
        (f.take().expect("called once"))(&logger)
    });
    match result {
        Ok(result) => result,
        Err(_) => {
            // The thread is exiting: no cache, and `f` did not run.
            let f = f.expect("f runs only when the cache is reachable");
            f(&crate::get_logger(metadata.target()))
        }
    }
}

/// Hashes a call site's [`Identifier`], which hashes as the call site's address: one
/// multiplication instead of SipHash, since the per-event filter looks the cache up for
/// every event when another layer sits beside this one. Addresses are not chosen by an
/// attacker, so no keyed hash is needed.
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write_usize(&mut self, address: usize) {
        // Fibonacci hashing: spreads the aligned low bits into the high ones the table uses.
        self.0 = (self.0 ^ address as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write(&mut self, bytes: &[u8]) {
        // Not used by `Identifier`; any input still hashes consistently.
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01B3);
        }
    }
}

fn location_of(metadata: &'static Metadata<'static>) -> Option<Location<'static>> {
    if metadata.module_path().is_none() && metadata.file().is_none() {
        return None;
    }
    Some(Location {
        class: metadata.module_path().unwrap_or(""),
        method: UNKNOWN_METHOD,
        file: metadata.file().map_or("", file_name_from_path),
        line: metadata.line().map_or(-1, |line| line as i32),
    })
}

/// Per-thread map and stack that events with fields or spans are given as their context,
/// and the throwable their error field is converted into, refilled for each such event: their
/// strings are reused, so once they have grown to the sizes the events need, building an
/// event's context and throwable allocates nothing.
struct Scratch {
    map: ContextMap,
    stack: ContextStack,
    /// The throwables error fields are converted into, one per [`throwable_slot`].
    throwables: Vec<Throwable>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = const {
        RefCell::new(Scratch {
            map: ContextMap::new(),
            stack: ContextStack::new(),
            throwables: Vec::new(),
        })
    };
}

/// Runs `f` with the event's context: its own fields, over the fields of the spans it is in
/// (inner spans over outer ones), over the thread's context map; the thread's context stack
/// with the span names on top, outermost first; and the event's throwable, converted from its
/// first error field. `skip_log_fields` leaves out `tracing-log`'s `log.*` fields.
fn with_event_context<S>(
    event: &Event<'_>,
    ctx: &Context<'_, S>,
    skip_log_fields: bool,
    f: impl FnOnce(&ContextMap, &ContextStack, Option<&Throwable>),
) where
    S: Subscriber + for<'lookup> LookupSpan<'lookup>,
{
    let mut f = Some(f);
    let _ = SCRATCH.try_with(|scratch| {
        // Busy when this event is logged while another one's context is in use (from a
        // value's `Display`): that one gets maps of its own below.
        if let Ok(mut scratch) = scratch.try_borrow_mut() {
            let Scratch {
                map,
                stack,
                throwables,
            } = &mut *scratch;
            let thrown = fill_context(event, ctx, skip_log_fields, map, stack, throwables);
            (f.take().expect("called once"))(map, stack, thrown.map(|slot| &throwables[slot]));
        }
    });
    if let Some(f) = f {
        let (mut map, mut stack, mut throwables) =
            (ContextMap::new(), ContextStack::new(), Vec::new());
        let thrown = fill_context(
            event,
            ctx,
            skip_log_fields,
            &mut map,
            &mut stack,
            &mut throwables,
        );
        f(&map, &stack, thrown.map(|slot| &throwables[slot]));
    }
}

/// How many span names [`fill_context`] keeps on the stack of the thread before it needs a
/// vector for deeper nesting.
const SPAN_NAMES_ON_STACK: usize = 32;

/// Fills `map` and `stack` with the event's context and, when the event has an error field,
/// one of `throwables` with its conversion: returns which.
fn fill_context<S>(
    event: &Event<'_>,
    ctx: &Context<'_, S>,
    skip_log_fields: bool,
    map: &mut ContextMap,
    stack: &mut ContextStack,
    throwables: &mut Vec<Throwable>,
) -> Option<usize>
where
    S: Subscriber + for<'lookup> LookupSpan<'lookup>,
{
    map.recycle();
    stack.recycle();
    // The event's own fields first: nothing overrides them.
    let mut fields = Render(EventFields {
        map: &mut *map,
        skip_log_fields,
        throwables,
        thrown: None,
    });
    event.record(&mut fields);
    let thrown = fields.0.thrown;
    // Then the spans, innermost first, each field kept only when not set yet.
    let mut names = [""; SPAN_NAMES_ON_STACK];
    let mut deeper = Vec::new();
    let mut depth = 0;
    if let Some(scope) = ctx.event_scope(event) {
        for span in scope {
            match names.get_mut(depth) {
                Some(slot) => *slot = span.name(),
                None => deeper.push(span.name()),
            }
            depth += 1;
            if let Some(fields) = span.extensions().get::<SpanFields>() {
                for (name, value) in &fields.fields {
                    if !map.contains_key(name) {
                        map.insert_with(name, |out| out.push_str(value));
                    }
                }
            }
        }
    }
    with_thread_data(|_, thread_map, thread_stack| {
        for (key, value) in thread_map.iter() {
            if !map.contains_key(key) {
                map.insert_with(key, |out| out.push_str(value));
            }
        }
        for entry in thread_stack.iter() {
            stack.push_str(entry);
        }
    });
    // Outermost first: the deepest ones met last come first.
    for name in deeper.iter().rev() {
        stack.push_str(name);
    }
    for name in names[..depth.min(SPAN_NAMES_ON_STACK)].iter().rev() {
        stack.push_str(name);
    }
    thrown
}

/// Where [`Render`] puts each rendered field.
trait FieldSink {
    /// Stores the field `name`, whose text `render` appends to the string it is given.
    fn put(&mut self, name: &'static str, render: impl FnOnce(&mut String));

    /// Takes the error value of a field as the throwable, or returns false to have it stored
    /// as text with [`FieldSink::put`].
    fn take_error(&mut self, _error: &(dyn std::error::Error + 'static)) -> bool {
        false
    }
}

impl<T: FieldSink> FieldSink for &mut T {
    fn put(&mut self, name: &'static str, render: impl FnOnce(&mut String)) {
        (**self).put(name, render);
    }

    fn take_error(&mut self, error: &(dyn std::error::Error + 'static)) -> bool {
        (**self).take_error(error)
    }
}

/// A span's fields, in the order first recorded; a value recorded again replaces its text.
impl FieldSink for SpanFields {
    fn put(&mut self, name: &'static str, render: impl FnOnce(&mut String)) {
        let mut value = String::new();
        render(&mut value);
        match self
            .fields
            .iter_mut()
            .find(|(existing, _)| *existing == name)
        {
            Some((_, existing)) => *existing = value,
            None => self.fields.push((name, value)),
        }
    }
}

/// An event's fields, straight into its context map, and its first error value into its
/// throwable.
struct EventFields<'a> {
    map: &'a mut ContextMap,
    skip_log_fields: bool,
    /// The throwables to convert the error into, reused event after event.
    throwables: &'a mut Vec<Throwable>,
    /// The slot of `throwables` holding the event's throwable, once converted.
    thrown: Option<usize>,
}

/// How many lengths of source chain get a throwable of their own in the per-thread scratch;
/// longer chains share the last.
const CHAIN_LENGTHS: usize = 8;

/// The slot of the per-thread throwables an error is converted into: one per kind (an l4rs
/// [`Throwable`], copied, or another error, converted) and length of source chain, so that
/// errors of different shapes, logged in turn, each find the boxes of their causes and the
/// capacity of their strings where they left them, instead of one shape dropping what the
/// other needs.
fn throwable_slot(error: &(dyn std::error::Error + 'static)) -> usize {
    let mut length = 0;
    let mut source = error.source();
    while let Some(next) = source {
        length += 1;
        if length == CHAIN_LENGTHS - 1 {
            break;
        }
        source = next.source();
    }
    2 * length + usize::from(error.is::<Throwable>())
}

impl FieldSink for EventFields<'_> {
    fn put(&mut self, name: &'static str, render: impl FnOnce(&mut String)) {
        if !(self.skip_log_fields && name.starts_with("log.")) {
            self.map.insert_with(name, render);
        }
    }

    /// The first error value of the event is its throwable, converted now (the value is only
    /// borrowed while it is visited) into the reused `throwable`: an l4rs [`Throwable`] is
    /// copied (its frames are shared, not copied), any other error becomes a throwable of its
    /// type name, `Display` and source chain, as the `error = …` of l4rs's macros gives.
    fn take_error(&mut self, error: &(dyn std::error::Error + 'static)) -> bool {
        if self.thrown.is_some() {
            return false;
        }
        let throwables = &mut self.throwables;
        // The slot is inside the guard too: it walks the error's `source()`, which may panic.
        let converted = crate::caught::catching(|| {
            let slot = throwable_slot(error);
            if throwables.len() <= slot {
                throwables.resize_with(slot + 1, || Throwable::new(""));
            }
            ThrowableRef::from_dyn_error(error).resolve_into(&mut throwables[slot]);
            slot
        });
        // An error whose `Display` or `source()` panics is kept as a field, written as the
        // placeholder.
        self.thrown = converted.ok();
        self.thrown.is_some()
    }
}

/// Renders recorded values as `tracing` renders them: strings as they are, `%` values with
/// `Display`, `?` values and numbers with `Debug`, errors with `Display`. The `message` field is
/// the event's message, not a context entry. A value whose formatting panics is rendered as a
/// placeholder, so the panic does not escape into logging.
struct Render<T>(T);

impl<T: FieldSink> Render<T> {
    fn put(&mut self, field: &Field, render: impl FnOnce(&mut String) -> fmt::Result) {
        let name = field.name();
        if name == "message" {
            return;
        }
        self.0.put(name, |out| {
            if crate::caught::catching(|| render(out)).is_err() {
                out.clear();
                out.push_str(PANICKED_VALUE);
            }
        });
    }
}

/// What a value whose `Display` or `Debug` panicked is rendered as (log4j2 prints a message
/// parameter whose `toString` throws between `[!!!` and `!!!]` too).
const PANICKED_VALUE: &str = "[!!!panicked while formatting!!!]";

impl<T: FieldSink> Visit for Render<T> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.put(field, |out| {
            out.push_str(value);
            Ok(())
        });
    }

    fn record_error(&mut self, field: &Field, value: &(dyn std::error::Error + 'static)) {
        if field.name() != "message" && self.0.take_error(value) {
            return;
        }
        self.put(field, |out| write!(out, "{value}"));
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.put(field, |out| write!(out, "{value:?}"));
    }
}

/// The event's `message` field, formatted only when a layout prints `%m`, straight into the
/// layout's buffer.
struct MessageOf<'a, 'e>(&'a Event<'e>);

impl fmt::Display for MessageOf<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut writer = MessageWriter {
            out: f,
            result: Ok(()),
        };
        if crate::caught::catching(|| self.0.record(&mut writer)).is_err() {
            return f.write_str(PANICKED_VALUE);
        }
        writer.result
    }
}

struct MessageWriter<'a, 'f> {
    out: &'a mut fmt::Formatter<'f>,
    result: fmt::Result,
}

impl Visit for MessageWriter<'_, '_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.result = self.out.write_str(value);
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if field.name() == "message" {
            // The message is `format_args!(…)`, whose `Debug` is its text.
            self.result = write!(self.out, "{value:?}");
        }
    }
}

/// The `log.*` fields of a `tracing-log` event: the `log` record's own target and location,
/// copied into strings that are cleared and reused record after record.
#[derive(Default)]
struct LogRecordFields {
    target: String,
    module_path: String,
    has_module_path: bool,
    file: String,
    has_file: bool,
    line: Option<u64>,
}

impl LogRecordFields {
    /// Forgets the previous record, keeping the strings' capacity.
    fn clear(&mut self) {
        self.target.clear();
        self.module_path.clear();
        self.has_module_path = false;
        self.file.clear();
        self.has_file = false;
        self.line = None;
    }

    /// The record's location, as the `log` bridge builds it: none without a module path.
    fn location(&self) -> Option<Location<'_>> {
        self.has_module_path.then(|| Location {
            class: &self.module_path,
            method: UNKNOWN_METHOD,
            file: if self.has_file {
                file_name_from_path(&self.file)
            } else {
                ""
            },
            line: self.line.map_or(-1, |line| line as i32),
        })
    }
}

impl Visit for LogRecordFields {
    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "log.target" => self.target.push_str(value),
            "log.module_path" => {
                self.module_path.push_str(value);
                self.has_module_path = true;
            }
            "log.file" => {
                self.file.push_str(value);
                self.has_file = true;
            }
            _ => {}
        }
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        if field.name() == "log.line" {
            self.line = Some(value);
        }
    }

    fn record_debug(&mut self, _: &Field, _: &dyn fmt::Debug) {}
}

/// How many `log` targets a thread keeps loggers for before it starts its cache afresh: `log`
/// targets are module paths and names written in the code, so a program has a bounded set;
/// the bound only keeps a program that makes targets up at run time from growing the cache.
const LOG_TARGETS_PER_THREAD: usize = 4096;

/// Per-thread state of the `tracing-log` path: the record's fields, and the loggers of the
/// targets met so far (a `log` record's target is a field, not its call site's, so the call
/// site cache of [`with_logger`] cannot serve it).
#[derive(Default)]
struct LogTracerScratch {
    record: LogRecordFields,
    loggers: HashMap<Box<str>, Logger>,
}

/// The logger of `target` from the thread's `loggers`: looked up in l4rs's registry once per
/// thread and target, then found there without a lock or an allocation.
fn cached_logger<'a>(loggers: &'a mut HashMap<Box<str>, Logger>, target: &str) -> &'a Logger {
    if !loggers.contains_key(target) {
        if loggers.len() >= LOG_TARGETS_PER_THREAD {
            loggers.clear();
        }
        loggers.insert(target.into(), crate::get_logger(target));
    }
    &loggers[target]
}

thread_local! {
    static LOG_TRACER_SCRATCH: RefCell<LogTracerScratch> = RefCell::new(LogTracerScratch::default());
}

/// A `log` record that `tracing-log` turned into an event: routed as the `log` bridge routes
/// it, to the logger of the record's own target with the record's location. The level is
/// checked first (an atomic load), and in steady state nothing is allocated: the fields are
/// read into the thread's reused strings and the logger comes from the thread's cache.
fn log_tracer_event<S>(event: &Event<'_>, level: Level, ctx: &Context<'_, S>)
where
    S: Subscriber + for<'lookup> LookupSpan<'lookup>,
{
    if !some_logger_may_log(level) {
        return;
    }
    let mut handled = false;
    let _ = LOG_TRACER_SCRATCH.try_with(|scratch| {
        // Busy when this record is logged while another one is being formatted (from a
        // `Display`): this one then gets strings of its own below.
        if let Ok(mut scratch) = scratch.try_borrow_mut() {
            let LogTracerScratch { record, loggers } = &mut *scratch;
            record.clear();
            event.record(record);
            let logger = cached_logger(loggers, &record.target);
            log_record(event, level, ctx, logger, record);
            handled = true;
        }
    });
    if !handled {
        let mut record = LogRecordFields::default();
        event.record(&mut record);
        log_record(
            event,
            level,
            ctx,
            &crate::get_logger(&record.target),
            &record,
        );
    }
}

fn log_record<S>(
    event: &Event<'_>,
    level: Level,
    ctx: &Context<'_, S>,
    logger: &Logger,
    record: &LogRecordFields,
) where
    S: Subscriber + for<'lookup> LookupSpan<'lookup>,
{
    if !logger.is_enabled(level) {
        return;
    }
    let location = record.location();
    with_event_context(event, ctx, true, |map, stack, throwable| {
        let _ = logger.log_in_context(
            level,
            location.as_ref(),
            throwable.map(ThrowableRef::Throwable),
            format_args!("{}", MessageOf(event)),
            map,
            stack,
        );
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracing_levels_map_one_to_one() {
        assert_eq!(level_of(&tracing_core::Level::TRACE), Level::TRACE);
        assert_eq!(level_of(&tracing_core::Level::DEBUG), Level::DEBUG);
        assert_eq!(level_of(&tracing_core::Level::INFO), Level::INFO);
        assert_eq!(level_of(&tracing_core::Level::WARN), Level::WARN);
        assert_eq!(level_of(&tracing_core::Level::ERROR), Level::ERROR);
    }

    #[test]
    fn the_level_hint_is_the_most_verbose_level_a_threshold_passes() {
        assert_eq!(level_filter_for(Level::ALL), LevelFilter::TRACE);
        assert_eq!(level_filter_for(Level::DEBUG), LevelFilter::DEBUG);
        assert_eq!(level_filter_for(Level::ERROR), LevelFilter::ERROR);
        assert_eq!(level_filter_for(Level::FATAL), LevelFilter::OFF);
        assert_eq!(level_filter_for(Level::OFF), LevelFilter::OFF);
        // A custom level between INFO (400) and DEBUG (500) lets INFO through, not DEBUG.
        let between = Level::register("TRACING_NOTICE", 450);
        assert_eq!(level_filter_for(between), LevelFilter::INFO);
    }
}
