//! `<Routing>`: log4j2's RoutingAppender. Each event (rewritten first by the appender's rewrite
//! policy, when it has one) gets a key, its `<Routes pattern>` substituted with the event; the
//! key picks the appender:
//!
//! 1. a route with `ref="…"` whose `key` is the event's key (the default route's reference
//!    when it is the default route's);
//! 2. an appender a route already created for that key;
//! 3. else the first route with that key and an appender element, or else the default route
//!    (a reference, or an appender element): an appender element is built for the event (its
//!    `${…}` substituted with the event's lookups) and kept for the key;
//! 4. no route and no default route: the event is dropped without a word, as in log4j2.
//!
//! When a route's appender cannot be built, the event is dropped with the build's status lines,
//! as in log4j2; the key's next events within a second are dropped without trying again (log4j2
//! tries, and reports, for every one).
//!
//! With an existing route the way is a read lock on a map and a buffer reused per thread: no
//! allocation. Creating a route's appender (the first event of a key) allocates and takes a
//! mutex, as log4j2's `synchronized getControl` does.
//!
//! `<IdlePurgePolicy>` stops, from a thread of its own, the appenders routes created that no
//! event used for `timeToLive`; an event already inside one finishes first (the appender stops
//! when its last user lets go). Appenders routes refer to are never purged.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use l4rs_config::model::{
    AppenderKind, AppenderSpec, IdlePurgePolicySpec, InlineAppender, RouteTarget, RoutingSpec,
};
use l4rs_config::Configuration;
use l4rs_core::status::ReportLimit;
use l4rs_core::{status, AppendError, Appender, Level, LogEvent};

use crate::appender_control::AppenderControl;
use crate::check::BuildMode;
use crate::route_key::{RouteKey, DEFAULT_KEY};

thread_local! {
    /// Key buffers, reused by every event of the thread. A stack, since an appender a route
    /// leads to may itself log through another Routing appender.
    static KEY_BUFFERS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// How long an event whose route's appender could not be built keeps the key's later events
/// from trying again: log4j2 tries (and reports) for every event, which costs a build and a
/// few status lines per event while the cause lasts (an unwritable directory, say).
const FAILED_ROUTE_RETRY: Duration = Duration::from_secs(1);
/// Keys remembered as failed at most; beyond that the expired memories are dropped, and all of
/// them when none has expired.
const MAX_FAILED_ROUTES: usize = 1024;

/// The keys whose route's appender could not be built, with when it last failed.
#[derive(Default)]
struct FailedRoutes(HashMap<String, Instant>);

impl FailedRoutes {
    /// Whether `key`'s appender failed to build less than [`FAILED_ROUTE_RETRY`] ago.
    fn recently(&self, key: &str) -> bool {
        self.0
            .get(key)
            .is_some_and(|at| at.elapsed() < FAILED_ROUTE_RETRY)
    }

    /// Remembers that `key`'s appender failed to build now.
    fn remember(&mut self, key: &str) {
        if self.0.len() >= MAX_FAILED_ROUTES {
            self.0.retain(|_, at| at.elapsed() < FAILED_ROUTE_RETRY);
            if self.0.len() >= MAX_FAILED_ROUTES {
                self.0.clear();
            }
        }
        self.0.insert(key.to_string(), Instant::now());
    }
}

/// The appender behind `<Routing>`.
pub(crate) struct RoutingAppender {
    name: String,
    key: RouteKey,
    /// The appenders routes refer to, by route key (the default route's under
    /// [`DEFAULT_KEY`]); a later route of the same key replaces an earlier one, as log4j2's
    /// map does.
    referenced: HashMap<String, Arc<AppenderControl>>,
    /// The routes with an appender element and a key, in document order.
    inline_routes: Vec<(String, InlineAppender)>,
    default_route: Option<DefaultRoute>,
    created: Arc<CreatedRoutes>,
    /// Held while a route's appender is created, so that one key gets one appender; it keeps
    /// the keys whose appender could not be built.
    creating: Mutex<FailedRoutes>,
    /// "No Appender was configured for route null", which log4j2 reports through the
    /// appender's error handler for every event taking the default route.
    missing_default_reports: ReportLimit,
    /// What building a route's appender needs (layouts read the configuration's substitutor
    /// and name).
    configuration: Arc<Configuration>,
    purger: Option<Purger>,
    /// The rewrite policy, applied before the key is computed.
    rewrite: Option<crate::rewrite::Policy>,
    requires_location: bool,
    stopped: AtomicBool,
}

/// The route an event takes when no route has its key.
enum DefaultRoute {
    /// `ref="…"`: found in `referenced` under [`DEFAULT_KEY`].
    Ref,
    /// An appender element, built once per key.
    Inline(Box<InlineAppender>),
    /// `ref="…"` naming no appender: log4j2 then tries to build the route's (absent) appender
    /// element for every event that takes it, and reports that there is none.
    MissingRef,
}

/// The appenders routes created, by key.
#[derive(Default)]
struct CreatedRoutes {
    routes: RwLock<HashMap<String, Arc<CreatedRoute>>>,
}

impl CreatedRoutes {
    fn get(&self, key: &str) -> Option<Arc<CreatedRoute>> {
        self.routes
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(key)
            .cloned()
    }

    fn all(&self) -> Vec<Arc<CreatedRoute>> {
        self.routes
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect()
    }

    /// Removes the routes not used since `before` (nanoseconds on [`now_nanos`]'s clock) and
    /// returns them with their keys, so that they are dropped (and so stopped) outside the lock.
    fn remove_idle(&self, before: u64) -> Vec<(String, Arc<CreatedRoute>)> {
        let mut routes = self.routes.write().unwrap_or_else(|e| e.into_inner());
        let idle: Vec<String> = routes
            .iter()
            .filter(|(_, route)| route.last_used.load(Ordering::Relaxed) < before)
            .map(|(key, _)| key.clone())
            .collect();
        idle.into_iter()
            .filter_map(|key| routes.remove(&key).map(|route| (key, route)))
            .collect()
    }

    /// The oldest last use, if any route is left.
    fn oldest_use(&self) -> Option<u64> {
        self.routes
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .map(|route| route.last_used.load(Ordering::Relaxed))
            .min()
    }

    fn take_all(&self) -> HashMap<String, Arc<CreatedRoute>> {
        std::mem::take(&mut *self.routes.write().unwrap_or_else(|e| e.into_inner()))
    }
}

/// An appender a route created for one key. It is stopped when the last holder lets go: the
/// map's entry, or an event still inside it after the purge removed the entry.
struct CreatedRoute {
    control: AppenderControl,
    /// When an event last used it, on [`now_nanos`]'s clock (kept only with a purge policy).
    last_used: AtomicU64,
}

impl Drop for CreatedRoute {
    fn drop(&mut self) {
        self.control.stop();
    }
}

/// The origin of the monotonic clock idle times are measured with.
fn clock_origin() -> Instant {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    *ORIGIN.get_or_init(Instant::now)
}

fn now_nanos() -> u64 {
    clock_origin().elapsed().as_nanos() as u64
}

/// The thread of an `<IdlePurgePolicy>`.
struct Purger {
    stop: Arc<(Mutex<bool>, Condvar)>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl Purger {
    fn start(
        policy: IdlePurgePolicySpec,
        created: Arc<CreatedRoutes>,
        name: &str,
    ) -> Option<Purger> {
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let signal = Arc::clone(&stop);
        let ttl = policy.time_to_live_ms.saturating_mul(1_000_000);
        let check_interval = policy.check_interval_ms.saturating_mul(1_000_000);
        let spawned = std::thread::Builder::new()
            .name(format!("l4rs-purge-{name}"))
            .spawn(move || purge_loop(&signal, &created, ttl, check_interval));
        match spawned {
            Ok(thread) => Some(Purger {
                stop,
                thread: Mutex::new(Some(thread)),
            }),
            Err(error) => {
                status::error(format_args!(
                    "RoutingAppender {name} cannot start its purge thread: {error}; idle appenders are not purged"
                ));
                None
            }
        }
    }

    fn stop(&self) {
        let (stopped, wake) = &*self.stop;
        *stopped.lock().unwrap_or_else(|e| e.into_inner()) = true;
        wake.notify_all();
        let thread = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(thread) = thread {
            if thread.thread().id() != std::thread::current().id() {
                let _ = thread.join();
            }
        }
    }
}

/// log4j2's `IdlePurgePolicy.run`: purge what has been idle for `ttl`, then sleep until the
/// oldest route left would be (or `check_interval` when none is left). Times in nanoseconds.
fn purge_loop(
    signal: &(Mutex<bool>, Condvar),
    created: &CreatedRoutes,
    ttl: u64,
    check_interval: u64,
) {
    let (stopped, wake) = signal;
    loop {
        let now = now_nanos();
        let wait = match created.oldest_use() {
            Some(oldest) => ttl.saturating_sub(now.saturating_sub(oldest)),
            None => check_interval,
        };
        // A zero interval would spin: at least a millisecond between two looks.
        let wait = Duration::from_nanos(wait.max(1_000_000));
        let guard = stopped.lock().unwrap_or_else(|e| e.into_inner());
        if *guard {
            return;
        }
        let (guard, _) = wake
            .wait_timeout(guard, wait)
            .unwrap_or_else(|e| e.into_inner());
        if *guard {
            return;
        }
        drop(guard);
        // log4j2's IdlePurgePolicy.purge and RoutingAppender.deleteAppender name the route's
        // key, in these words (the space ending the second is theirs); a fourth line of
        // l4rs's own names the appender too.
        for (key, route) in created.remove_idle(now_nanos().saturating_sub(ttl)) {
            status::debug(format_args!("Removing appender {key}"));
            status::debug(format_args!("Deleting route with {key} key "));
            status::debug(format_args!("Stopping route with {key} key"));
            status::debug(format_args!(
                "Stopping appender {} of route {key}",
                route.control.name()
            ));
            // Dropped here, outside the map's lock: it stops unless an event still holds it.
            drop(route);
        }
    }
}

/// Where one event goes.
enum Target<'r> {
    Referenced(&'r AppenderControl),
    Created(Arc<CreatedRoute>),
}

impl RoutingAppender {
    /// The appender for `key`, created for `event` when the route has an appender element.
    fn target(&self, key: &str, event: &LogEvent<'_>) -> Option<Target<'_>> {
        if let Some(control) = self.referenced.get(key) {
            return Some(Target::Referenced(control));
        }
        if let Some(created) = self.created.get(key) {
            return Some(Target::Created(created));
        }
        // The routes are fixed once built, so the way to the default route is known without
        // the creation lock: an event taking a default `ref` never waits on it.
        let inline = match self
            .inline_routes
            .iter()
            .find(|(route_key, _)| route_key == key)
        {
            Some((_, inline)) => inline,
            None => match &self.default_route {
                Some(DefaultRoute::Ref) => {
                    return self
                        .referenced
                        .get(DEFAULT_KEY)
                        .map(|c| Target::Referenced(c))
                }
                Some(DefaultRoute::Inline(inline)) => inline,
                Some(DefaultRoute::MissingRef) => {
                    self.missing_default_reports
                        .report(Level::ERROR, "No Appender was configured for route null");
                    return None;
                }
                None => return None,
            },
        };
        let mut failed = self.creating.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(created) = self.created.get(key) {
            return Some(Target::Created(created));
        }
        if self.stopped.load(Ordering::Acquire) || failed.recently(key) {
            return None;
        }
        let Some(control) = create_route_appender(inline, Some(event), key, &self.configuration)
        else {
            failed.remember(key);
            return None;
        };
        let created = Arc::new(CreatedRoute {
            control,
            last_used: AtomicU64::new(now_nanos()),
        });
        self.created
            .routes
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key.to_string(), Arc::clone(&created));
        Some(Target::Created(created))
    }

    /// Computes `event`'s key into a reused buffer and hands the event to its route.
    fn route_by_key(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        let mut key = KEY_BUFFERS
            .try_with(|buffers| buffers.borrow_mut().pop())
            .ok()
            .flatten()
            .unwrap_or_default();
        self.key.evaluate(event, &mut key);
        let result = self.route(event, &key);
        let _ = KEY_BUFFERS.try_with(|buffers| buffers.borrow_mut().push(key));
        result
    }

    fn route(&self, event: &LogEvent<'_>, key: &str) -> Result<(), AppendError> {
        match self.target(key, event) {
            Some(Target::Referenced(control)) => control.call(event),
            Some(Target::Created(created)) => {
                if self.purger.is_some() {
                    created.last_used.store(now_nanos(), Ordering::Relaxed);
                }
                created.control.call(event)
            }
            None => Ok(()),
        }
    }
}

impl Appender for RoutingAppender {
    fn name(&self) -> &str {
        &self.name
    }

    fn append(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        match &self.rewrite {
            Some(policy) => policy.apply(event, |rewritten| self.route_by_key(rewritten)),
            None => self.route_by_key(event),
        }
    }

    fn flush(&self) -> Result<(), AppendError> {
        for created in self.created.all() {
            created.control.flush();
        }
        Ok(())
    }

    /// Stops the appenders routes created (never the referenced ones, which the configuration
    /// stops), as log4j2's `RoutingAppender.stop` does.
    fn stop(&self) {
        self.stopped.store(true, Ordering::Release);
        if let Some(purger) = &self.purger {
            purger.stop();
        }
        let _creating = self.creating.lock().unwrap_or_else(|e| e.into_inner());
        drop(self.created.take_all());
    }

    fn requires_location(&self) -> bool {
        self.requires_location
    }
}

impl Drop for RoutingAppender {
    fn drop(&mut self) {
        if let Some(purger) = &self.purger {
            purger.stop();
        }
    }
}

/// Builds a route's appender element for `event` (`None`: the element as `l4rs check` sees
/// it), reporting why when it cannot be built.
fn create_route_appender(
    inline: &InlineAppender,
    event: Option<&LogEvent<'_>>,
    key: &str,
    configuration: &Configuration,
) -> Option<AppenderControl> {
    let spec = inline.build(event, key).spec?;
    refuse_referring(&spec)?;
    let mut uses_nano_clock = false;
    // A route's appender is made by an event, never while a configuration replaces another,
    // so there is no file to hand over from another kind of appender.
    crate::context::build_appender(
        &spec,
        configuration,
        &mut uses_nano_clock,
        &BuildMode::Start,
        None,
    )
}

/// The appenders that refer to other appenders are built with the whole configuration, which
/// a route's appender element does not have in l4rs; `None` after saying so.
fn refuse_referring(spec: &AppenderSpec) -> Option<()> {
    if crate::referring::refers_to_appenders(&spec.kind)
        || matches!(spec.kind, AppenderKind::Routing(_))
    {
        status::error(format_args!(
            "l4rs cannot build appender {} inside a Route: appenders that refer to other appenders (Async, Failover, Rewrite, Routing) are not created per key (help: declare it in <Appenders> and route to it with <Route ref=\"{}\">)",
            spec.name, spec.name
        ));
        return None;
    }
    Some(())
}

/// Builds a Routing appender from the appenders built so far (log4j2's constructor and
/// `start`, with their messages). When checking, every route's appender element is built as
/// `l4rs check` sees it, without an event, and judged; nothing is created at run time.
pub(crate) fn build_routing_appender(
    spec: &AppenderSpec,
    routing: &RoutingSpec,
    by_name: &HashMap<String, Arc<AppenderControl>>,
    configuration: &Arc<Configuration>,
    mode: &BuildMode,
) -> AppenderControl {
    let mut referenced = HashMap::new();
    let mut inline_routes = Vec::new();
    let mut default_route = None;
    let mut requires_location = false;
    let default_index = routing.routes.iter().position(|route| route.key.is_none());
    for (index, route) in routing.routes.iter().enumerate() {
        let is_default = Some(index) == default_index;
        if route.key.is_none() && !is_default {
            continue;
        }
        match &route.target {
            RouteTarget::Ref(name) => match by_name.get(name) {
                Some(control) => {
                    requires_location |= control.requires_location();
                    let key = route.key.as_deref().unwrap_or(DEFAULT_KEY);
                    referenced.insert(key.to_string(), Arc::clone(control));
                    if is_default {
                        default_route = Some(DefaultRoute::Ref);
                    }
                }
                None => {
                    status::error(format_args!(
                        "Appender {name} cannot be located. Route ignored"
                    ));
                    if is_default {
                        default_route = Some(DefaultRoute::MissingRef);
                    }
                }
            },
            RouteTarget::Inline(inline) => {
                let key = route.key.as_deref().unwrap_or(DEFAULT_KEY);
                requires_location |= probe_requires_location(inline, key, configuration, mode);
                match &route.key {
                    Some(key) => inline_routes.push((key.clone(), (**inline).clone())),
                    None => default_route = Some(DefaultRoute::Inline(inline.clone())),
                }
            }
        }
    }
    let created = Arc::new(CreatedRoutes::default());
    let purger = match (routing.purge_policy, mode.checking()) {
        (Some(policy), false) => Purger::start(policy, Arc::clone(&created), &spec.name),
        _ => None,
    };
    let appender = RoutingAppender {
        name: spec.name.clone(),
        key: RouteKey::new(routing.pattern.as_deref(), &configuration.substitutor),
        referenced,
        inline_routes,
        default_route,
        created,
        creating: Mutex::new(FailedRoutes::default()),
        missing_default_reports: ReportLimit::error_handler(),
        configuration: Arc::clone(configuration),
        purger,
        rewrite: routing
            .rewrite_policy
            .as_ref()
            .map(|policy| crate::rewrite::Policy::new(Some(policy), &configuration.substitutor)),
        requires_location,
        // A checked configuration never routes an event anywhere.
        stopped: AtomicBool::new(mode.checking()),
    };
    AppenderControl::new(
        Arc::new(appender),
        spec.filter.as_ref().map(l4rs_filter::build_filter),
        spec.ignore_exceptions,
    )
}

/// Whether the appender a route would create prints the location, which decides whether an
/// AsyncLogger captures it (log4j2's RoutingAppender says never, so its routes print `?`
/// there; l4rs looks at the appender element). The element is built without an event: when
/// checking, what that reports is the route's finding and the appender is judged as
/// `l4rs check` judges any; otherwise it is built silently, since log4j2 reports nothing
/// about a route's appender until an event creates it.
fn probe_requires_location(
    inline: &InlineAppender,
    key: &str,
    configuration: &Configuration,
    mode: &BuildMode,
) -> bool {
    let probe = || {
        let spec = inline.build(None, key).spec?;
        if mode.checking() {
            refuse_referring(&spec)?;
            let mut uses_nano_clock = false;
            let control = crate::context::build_appender(
                &spec,
                configuration,
                &mut uses_nano_clock,
                mode,
                None,
            )?;
            return Some(control.requires_location());
        }
        let console = crate::system_console::process_has_console();
        let (layout, _) =
            crate::context::build_layout(spec.layout.as_ref(), configuration, console);
        Some(layout.requires_location())
    };
    let requires = if mode.checking() {
        probe()
    } else {
        status::muted(probe)
    };
    requires.unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use l4rs_core::{Level, Message};

    use super::*;

    /// Takes every event, keeping nothing.
    struct Sink;

    impl Appender for Sink {
        fn name(&self) -> &str {
            "sink"
        }

        fn append(&self, _: &LogEvent<'_>) -> Result<(), AppendError> {
            Ok(())
        }
    }

    /// A Routing appender with no inline route and a default `ref` route to a [`Sink`].
    fn with_default_ref() -> RoutingAppender {
        let configuration = Arc::new(l4rs_config::default_configuration());
        let sink = Arc::new(AppenderControl::new(Arc::new(Sink), None, true));
        RoutingAppender {
            name: "routing".to_string(),
            key: RouteKey::new(Some("$${ctx:k}"), &configuration.substitutor),
            referenced: HashMap::from([(DEFAULT_KEY.to_string(), sink)]),
            inline_routes: Vec::new(),
            default_route: Some(DefaultRoute::Ref),
            created: Arc::new(CreatedRoutes::default()),
            creating: Mutex::new(FailedRoutes::default()),
            missing_default_reports: ReportLimit::error_handler(),
            configuration,
            purger: None,
            rewrite: None,
            requires_location: false,
            stopped: AtomicBool::new(false),
        }
    }

    #[test]
    fn the_default_ref_route_does_not_wait_for_route_creation() {
        let appender = with_default_ref();
        let (sent, received) = mpsc::channel();
        std::thread::scope(|scope| {
            // Held as while another key's appender is being created.
            let creating = appender.creating.lock().unwrap();
            scope.spawn(|| {
                let event = LogEvent::new("a", Level::INFO, Message::Text("m"));
                let referenced = matches!(
                    appender.target("no-such-route", &event),
                    Some(Target::Referenced(_))
                );
                let _ = sent.send(referenced);
            });
            let taken = received.recv_timeout(Duration::from_secs(5));
            drop(creating);
            assert_eq!(
                taken,
                Ok(true),
                "the default route waited on the creation lock"
            );
        });
    }

    #[test]
    fn a_route_that_cannot_be_built_is_tried_again_after_a_second_not_per_event() {
        // A File under a regular file: it cannot be created, even by root.
        let dir = l4rs_test_support::TempDir::new("l4rs-routing-failed-route");
        std::fs::write(dir.path().join("plain"), "").unwrap();
        let xml = format!(
            r#"<Configuration><Appenders><Routing name="R"><Routes pattern="$${{ctx:k}}"><Route>
                 <File name="f-${{ctx:k}}" fileName="{}/plain/${{ctx:k}}.log"/>
               </Route></Routes></Routing></Appenders><Loggers/></Configuration>"#,
            dir.path().display()
        );
        let configuration = Arc::new(l4rs_config::load_str(&xml, None).expect("parses"));
        let spec = &configuration.appenders[0];
        let AppenderKind::Routing(routing) = &spec.kind else {
            panic!("{spec:?}");
        };
        let control = build_routing_appender(
            spec,
            routing,
            &HashMap::new(),
            &configuration,
            &BuildMode::Start,
        );
        let mut map = l4rs_core::ContextMap::new();
        map.insert("k", "a");
        let mut event = LogEvent::new("x", Level::INFO, Message::Text("m"));
        event.context_map = &map;
        let ((), first) = status::capture(|| control.call(&event).unwrap());
        assert!(!first.is_empty(), "the failed build is reported");
        let ((), next) = status::capture(|| {
            for _ in 0..5 {
                control.call(&event).unwrap();
            }
        });
        assert!(next.is_empty(), "{next:?}");
        std::thread::sleep(FAILED_ROUTE_RETRY + Duration::from_millis(50));
        let ((), again) = status::capture(|| control.call(&event).unwrap());
        assert_eq!(again, first, "tried, and reported, again");
    }
}
