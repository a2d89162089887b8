//! `<Routing>` bound with log4j2's attributes, defaults and messages: routes kept unbuilt
//! until an event builds them with its lookups, the default route, `<IdlePurgePolicy>`'s
//! units, and the refusals of bad routes.

use l4rs_config::model::{AppenderKind, IdlePurgePolicySpec, LayoutSpec, RouteTarget, RoutingSpec};
use l4rs_config::Configuration;
use l4rs_core::{ContextMap, Level, LogEvent, Message};

mod common;

use common::{assert_no_messages, load_with, messages};

/// Loads a configuration of `appenders`, with the property `dir` set to `/logs`.
fn load(appenders: &str) -> Configuration {
    load_with(&[("dir", "/logs")], appenders)
}

fn routing<'c>(config: &'c Configuration, name: &str) -> &'c RoutingSpec {
    match &config.appender(name).expect("the Routing appender").kind {
        AppenderKind::Routing(spec) => spec,
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_inline_route_is_built_with_the_event_that_creates_it() {
    let config = load(
        r#"<Routing name="R"><Routes pattern="$${ctx:user}">
  <Route key="ops" ref="Ops"/>
  <Route><File name="u-${ctx:user}" fileName="${dir}/${ctx:user}.log">
    <PatternLayout pattern="${ctx:user} $${ctx:user} %m%n"/></File></Route>
</Routes></Routing><Null name="Ops"/>"#,
    );
    assert_no_messages(&config);
    let spec = routing(&config, "R");
    assert_eq!(spec.pattern.as_deref(), Some("${ctx:user}"));
    assert_eq!(spec.referenced().collect::<Vec<_>>(), ["Ops"]);
    let default = spec.default_route().expect("a default route");
    let RouteTarget::Inline(inline) = &default.target else {
        panic!("{default:?}");
    };
    let mut map = ContextMap::default();
    map.insert("user", "alice");
    let mut event = LogEvent::new("app", Level::INFO, Message::Text("m"));
    event.context_map = &map;
    let built = inline.build(Some(&event), "alice");
    assert!(built.diagnostics.is_empty(), "{:?}", built.diagnostics);
    let appender = built.spec.expect("built");
    assert_eq!(appender.name, "u-alice");
    assert_eq!(appender.kind.file_name(), Some("/logs/alice.log"));
    // `${…}` is the creating event's; `$${…}` is left for the layout, per event.
    let Some(LayoutSpec::Pattern(layout)) = &appender.layout else {
        panic!("{:?}", appender.layout);
    };
    assert_eq!(layout.pattern, "alice ${ctx:user} %m%n");
    // Without an event (what `l4rs check` builds) the lookup stays as written.
    let probe = inline
        .build(None, "ROUTING_APPENDER_DEFAULT")
        .spec
        .expect("built");
    assert_eq!(probe.kind.file_name(), Some("/logs/${ctx:user}.log"));
}

#[test]
fn idle_purge_policy_units_and_defaults_follow_log4j2() {
    let policy = |attributes: &str| {
        let config = load(&format!(
            r#"<Routing name="R"><Routes pattern="x"><Route ref="N"/></Routes>
<IdlePurgePolicy {attributes}/></Routing><Null name="N"/>"#
        ));
        (routing(&config, "R").purge_policy, messages(&config))
    };
    let spec = |ttl, check| {
        Some(IdlePurgePolicySpec {
            time_to_live_ms: ttl,
            check_interval_ms: check,
        })
    };
    // timeUnit defaults to MINUTES; checkInterval to timeToLive.
    assert_eq!(
        policy(r#"timeToLive="2""#),
        (spec(120_000, 120_000), vec![])
    );
    assert_eq!(
        policy(r#"timeToLive="1500" checkInterval="10" timeUnit="milliseconds""#),
        (spec(1500, 10), vec![])
    );
    // TimeUnit.toMillis truncates.
    assert_eq!(
        policy(r#"timeToLive="2500" timeUnit="MICROSECONDS""#).0,
        spec(2, 2)
    );
    let (bad_unit, said) = policy(r#"timeToLive="1" timeUnit="fortnights""#);
    assert_eq!(bad_unit, spec(60_000, 60_000));
    assert_eq!(
        said,
        ["Invalid timeUnit value fortnights. timeUnit set to MINUTES"]
    );
    let (negative, said) = policy(r#"timeToLive="-5" checkInterval="-1""#);
    assert_eq!(negative, spec(0, 0));
    assert_eq!(
        said,
        [
            "timeToLive must be positive. timeToLive set to 0",
            "checkInterval must be positive. checkInterval set equal to timeToLive = 0"
        ]
    );
    let (missing, said) = policy(r#"checkInterval="5""#);
    assert_eq!(missing, None);
    assert_eq!(said, ["A timeToLive value is required"]);
}

#[test]
fn bad_routes_are_refused_with_log4j2s_messages() {
    let config = load(
        r#"<Routing name="R"><Routes pattern="$${ctx:k}">
  <Route key="both" ref="N"><Null name="x"/></Route>
  <Route key="neither"/>
  <Route ref="N"/>
  <Route ref="N"/>
</Routes></Routing><Null name="N"/>"#,
    );
    assert_eq!(
        messages(&config),
        [
            "A route cannot be configured with an appender reference and an appender definition",
            "A route must specify an appender reference or an appender definition",
            "Null object returned for Route in Routes.",
            "Null object returned for Route in Routes.",
            "Multiple default routes. Route Route(type=static Reference=N default) will be ignored",
        ]
    );
    // The valid routes are kept; the first default route is the default.
    let spec = routing(&config, "R");
    assert_eq!(spec.routes.len(), 2);
    assert!(std::ptr::eq(spec.default_route().unwrap(), &spec.routes[0]));
}
