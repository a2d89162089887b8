//! `<Routing>`: log4j2's RoutingAppender, its `<Routes>`, `<Route>`s and `<IdlePurgePolicy>`.
//!
//! A route's appender element is kept unbuilt (log4j2's `Route` defers its children): it is
//! built for the first event of each key, with that event's lookups, by
//! [`InlineAppender::build`].

use l4rs_core::LogEvent;

use super::appenders::delegating_appender;
use super::binder::{parse_java_integer, Binder, MissingField};
use super::filters::{is_filter, FilterSlot};
use super::layout::is_layout;
use super::node::PNode;
use super::scripts::{is_script, refuse, ScriptSlot, ScriptUser};
use crate::model::{
    AppenderKind, AppenderSpec, IdlePurgePolicySpec, InlineAppender, RouteSpec, RouteTarget,
    RoutingSpec,
};
use crate::plugins::Plugin;
use crate::{Diagnostic, Severity};

/// `java.util.concurrent.TimeUnit`'s constants, with their length in nanoseconds.
const TIME_UNITS: &[(&str, u64)] = &[
    ("NANOSECONDS", 1),
    ("MICROSECONDS", 1_000),
    ("MILLISECONDS", 1_000_000),
    ("SECONDS", 1_000_000_000),
    ("MINUTES", 60_000_000_000),
    ("HOURS", 3_600_000_000_000),
    ("DAYS", 86_400_000_000_000),
];

/// Builds one `<Routing>` element; `None` (after log4j2's message) when it cannot be built.
pub(crate) fn build_routing_appender(binder: &mut Binder, mut node: PNode) -> Option<AppenderSpec> {
    let inserted = node.attrs.len();
    let mut filter = FilterSlot::new();
    let mut routes: Option<Option<Routes>> = None;
    let mut purge_policy = None;
    let mut default_route_script = ScriptSlot::default();
    // The first rewrite policy (`None` inside when it could not be built).
    let mut rewrite_policy = None;
    for child in std::mem::take(&mut node.children) {
        match child.canonical {
            Some(Plugin::Routes) if routes.is_none() => routes = Some(build_routes(binder, child)),
            Some(Plugin::IdlePurgePolicy) if purge_policy.is_none() => {
                purge_policy = build_idle_purge_policy(binder, child);
            }
            Some(
                Plugin::MapRewritePolicy
                | Plugin::PropertiesRewritePolicy
                | Plugin::LoggerNameLevelRewritePolicy,
            ) if rewrite_policy.is_none() => {
                rewrite_policy = Some(super::rewrite::build_policy(binder, child));
            }
            _ if is_script(&child) => default_route_script.offer(binder, &mut node, child),
            _ if is_filter(&child) => filter.offer(binder, &node, child),
            // AbstractAppender's builder takes a layout, which RoutingAppender never uses.
            _ if is_layout(&child) => {}
            _ => binder.refuse_child(&mut node, child),
        }
    }
    let name = binder.string(&mut node, &["name"]);
    let ignore_exceptions = binder.boolean(&mut node, &["ignoreExceptions"], true);
    binder.finish(&node, inserted);
    let Some(name) = name else {
        // AbstractAppender.Builder's `@Required name` refuses before `build` runs.
        binder.invalid_arguments(
            &node,
            "org.apache.logging.log4j.core.appender.routing.RoutingAppender",
            &[MissingField::attribute("name", "No appender name provided")],
        );
        return None;
    };
    let Some(Some(routes)) = routes else {
        binder.error_help(
            &node,
            format!("No routes defined for RoutingAppender {name}"),
            "add <Routes pattern=\"…\"> with at least one <Route>; the appender is not created",
        );
        return None;
    };
    if let Some(script) = &default_route_script.script {
        refuse(binder, &node, Some(script), ScriptUser::Routing);
        return None;
    }
    // RoutingAppender's constructor: later routes without a key are ignored.
    let mut default_seen = false;
    for route in routes.routes.iter().filter(|route| route.key.is_none()) {
        if default_seen {
            binder.report(
                Severity::Error,
                format!("Multiple default routes. Route {route} will be ignored"),
                None,
                Some(route.position),
                Some("give every route but one a key".to_string()),
            );
        }
        default_seen = true;
    }
    let kind = AppenderKind::Routing(RoutingSpec {
        pattern: routes.pattern,
        routes: routes.routes,
        purge_policy,
        rewrite_policy: rewrite_policy.flatten(),
    });
    let appender = delegating_appender(name, ignore_exceptions, filter, kind, &node);
    Some(appender)
}

/// What `<Routes>` holds.
struct Routes {
    pattern: Option<String>,
    routes: Vec<RouteSpec>,
}

/// `<Routes pattern>`; `None` after log4j2's message when it has no route.
fn build_routes(binder: &mut Binder, mut node: PNode) -> Option<Routes> {
    let inserted = node.attrs.len();
    let mut routes = Vec::new();
    let mut failed = Vec::new();
    let mut script = ScriptSlot::default();
    for child in std::mem::take(&mut node.children) {
        if child.canonical == Some(Plugin::Route) {
            if let Some(route) = binder.build_child(child, &mut failed, build_route) {
                routes.push(route);
            }
        } else if is_script(&child) {
            script.offer(binder, &mut node, child);
        } else {
            binder.unusable_child(&node, &child);
        }
    }
    binder.null_children(&node, &failed);
    let pattern = binder.string(&mut node, &["pattern"]);
    binder.finish(&node, inserted);
    if routes.is_empty() && failed.is_empty() {
        // The builder's `@Required` array: Java prints the empty array's identity hash,
        // which l4rs cannot reproduce.
        binder.invalid_arguments(
            &node,
            "org.apache.logging.log4j.core.appender.routing.Routes",
            &[
                MissingField::attribute("routes", "The parameter is null: routes")
                    .shown_as("[Lorg.apache.logging.log4j.core.appender.routing.Route;@…")
                    .added_as("a <Route>"),
            ],
        );
        return None;
    }
    if routes.is_empty() {
        binder.error(&node, "No Routes configured.");
        return None;
    }
    if pattern.is_some() == script.script.is_some() {
        binder.report(
            Severity::Warning,
            "In a Routes element, you must configure either a Script element or a pattern attribute.",
            Some(&node),
            None,
            Some("without a pattern every event takes the default route".to_string()),
        );
    }
    if let Some(script) = &script.script {
        refuse(binder, &node, Some(script), ScriptUser::Routes);
        return None;
    }
    Some(Routes { pattern, routes })
}

/// `<Route key ref>` with an appender reference or an appender element (kept unbuilt);
/// `None` after log4j2's message when it has both or neither.
fn build_route(binder: &mut Binder, mut node: PNode) -> Option<RouteSpec> {
    let inserted = node.attrs.len();
    let children = std::mem::take(&mut node.children);
    let reference = binder.string(&mut node, &["ref"]);
    let key = binder.string(&mut node, &["key"]);
    binder.finish(&node, inserted);
    let target = match (reference, children.is_empty()) {
        (Some(_), false) => {
            binder.error_help(
                &node,
                "A route cannot be configured with an appender reference and an appender definition",
                "remove ref=\"…\" or the appender inside the route; the route is not created",
            );
            return None;
        }
        (None, true) => {
            binder.error_help(
                &node,
                "A route must specify an appender reference or an appender definition",
                "add ref=\"…\" or an appender element inside the route; the route is not created",
            );
            return None;
        }
        (Some(name), true) => RouteTarget::Ref(name),
        (None, false) => {
            // log4j2 builds the first child that is an appender and never looks at the
            // others; a filter there does nothing.
            for ignored in children
                .iter()
                .filter(|child| is_filter(child) || is_layout(child))
            {
                // INFO: log4j2 says nothing, so its status output stays log4j2's, while
                // `l4rs check` and a verbose status still point at the mistake.
                binder.report(
                    Severity::Info,
                    format!(
                        "{} inside {} is ignored: a route has no filter or layout of its own",
                        ignored.name, node.name
                    ),
                    Some(ignored),
                    None,
                    Some("put it inside the route's appender".to_string()),
                );
            }
            let mut route_node = node.stub();
            route_node.children = children;
            RouteTarget::Inline(Box::new(InlineAppender {
                node: route_node,
                route_name: node.name.clone(),
                substitutor: binder.substitutor.clone(),
                file: binder.file.clone(),
            }))
        }
    };
    Some(RouteSpec {
        key,
        target,
        position: node.position,
    })
}

/// `<IdlePurgePolicy timeToLive checkInterval timeUnit>` (log4j2's factory, with its messages).
fn build_idle_purge_policy(binder: &mut Binder, mut node: PNode) -> Option<IdlePurgePolicySpec> {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let time_to_live = binder.string(&mut node, &["timeToLive"]);
    let check_interval = binder.string(&mut node, &["checkInterval"]);
    let time_unit = binder.string(&mut node, &["timeUnit"]);
    binder.finish(&node, inserted);
    let Some(time_to_live) = time_to_live else {
        binder.error_help(
            &node,
            "A timeToLive value is required",
            "add timeToLive=\"…\" (in timeUnit, default MINUTES); the Routing appender purges nothing",
        );
        return None;
    };
    let unit_nanos = match time_unit {
        None => 60_000_000_000,
        Some(unit) => match TIME_UNITS
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(&unit))
        {
            Some((_, nanos)) => *nanos,
            None => {
                binder.error_help(
                    &node,
                    format!("Invalid timeUnit value {unit}. timeUnit set to MINUTES"),
                    "timeUnit is one of NANOSECONDS, MICROSECONDS, MILLISECONDS, SECONDS, MINUTES, HOURS, DAYS",
                );
                60_000_000_000
            }
        },
    };
    // `TimeUnit.toMillis`: truncates toward zero and saturates.
    let to_millis = |value: i64| -> i64 {
        let nanos = i128::from(value) * i128::from(unit_nanos) / 1_000_000;
        nanos.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
    };
    let parse = |binder: &mut Binder, node: &PNode, text: &str| {
        let parsed = parse_java_integer(text);
        if parsed.is_none() {
            binder.factory_failure(
                node,
                "org.apache.logging.log4j.core.appender.routing.IdlePurgePolicy",
                &format!("java.lang.NumberFormatException: For input string: \"{text}\""),
                Some(
                    "timeToLive and checkInterval are whole numbers of timeUnit; nothing is purged"
                        .to_string(),
                ),
            );
        }
        parsed
    };
    let mut ttl = to_millis(parse(binder, &node, &time_to_live)?);
    if ttl < 0 {
        binder.error(&node, "timeToLive must be positive. timeToLive set to 0");
        ttl = 0;
    }
    let check_interval = match check_interval {
        None => ttl,
        Some(text) => {
            let interval = to_millis(parse(binder, &node, &text)?);
            if interval < 0 {
                binder.error(
                    &node,
                    format!("checkInterval must be positive. checkInterval set equal to timeToLive = {ttl}"),
                );
                ttl
            } else {
                interval
            }
        }
    };
    Some(IdlePurgePolicySpec {
        time_to_live_ms: ttl as u64,
        check_interval_ms: check_interval as u64,
    })
}

/// What building a route's appender gave: the appender, or `None` when it could not be built,
/// and what building it reported (also given to the status logger as it was found).
#[derive(Debug)]
pub struct BuiltRouteAppender {
    /// The appender's configuration.
    pub spec: Option<AppenderSpec>,
    /// The problems found, as loading reports them.
    pub diagnostics: Vec<Diagnostic>,
}

impl InlineAppender {
    /// Builds the route's appender for `event`, as log4j2's `RoutingAppender.createAppender`
    /// does: the first child that is an appender, every `${…}` in it substituted with the
    /// event's lookups (`$${…}` becomes `${…}`, left for the layout to resolve per event).
    /// Without an event, lookups that need one stay as written (what `l4rs check` shows).
    /// `key` names the route in the message about a route without an appender.
    pub fn build(&self, event: Option<&LogEvent<'_>>, key: &str) -> BuiltRouteAppender {
        let mut binder = Binder::new(self.file.clone(), self.substitutor.clone());
        let spec = match self.appender_node() {
            None => {
                binder.error(
                    &self.node,
                    format!("No Appender was configured for route {key}"),
                );
                None
            }
            Some(node) => {
                let name = node.name.clone();
                let stub = node.stub();
                let mut node = node.clone();
                if let Some(event) = event {
                    self.substitute_with_event(&mut binder, &mut node, event);
                }
                match super::appenders::build_route_appender(&mut binder, node) {
                    Ok(Some(spec)) => Some(spec),
                    Ok(None) => {
                        binder.error(&stub, format!("Unable to create Appender of type {name}"));
                        None
                    }
                    Err(node) => {
                        binder.unsupported(&node);
                        None
                    }
                }
            }
        };
        BuiltRouteAppender {
            spec,
            diagnostics: binder.diagnostics,
        }
    }

    /// Substitutes every attribute and text of `node` and its subtree with `event`'s lookups,
    /// then escapes what is left of `${` so that building, which substitutes again without an
    /// event, leaves it alone: one substitution in all, as log4j2 makes.
    fn substitute_with_event(&self, binder: &mut Binder, node: &mut PNode, event: &LogEvent<'_>) {
        let mut problems = Vec::new();
        let mut substitute = |text: &mut String| {
            if text.contains("${") {
                let replaced = self.substitutor.replace_reporting(
                    text,
                    Some(event),
                    &mut |severity, problem| problems.push((severity, problem)),
                );
                *text = replaced.replace("${", "$${");
            }
        };
        for attr in &mut node.attrs {
            substitute(&mut attr.value);
        }
        if let Some(value) = &mut node.value {
            substitute(value);
        }
        for (severity, problem) in problems {
            binder.report(severity, problem, Some(node), None, None);
        }
        for child in &mut node.children {
            self.substitute_with_event(binder, child, event);
        }
    }

    /// The element's name (`File`, `RollingFile`…), as written.
    pub fn element_name(&self) -> Option<&str> {
        self.appender_node().map(|node| node.name.as_str())
    }

    /// The first child of the route that is an appender: any plugin that is neither a filter
    /// nor a layout (one l4rs lacks is reported when it is built).
    fn appender_node(&self) -> Option<&PNode> {
        self.node
            .children
            .iter()
            .find(|child| child.is_plugin && !is_filter(child) && !is_layout(child))
    }
}
