//! A Routing appender's routes: a fuzzed `<Routes pattern>`, route key and text inside a
//! route's appender element, loaded, checked (`l4rs::check_configuration` builds each route's
//! appender element without an event and judges it; nothing is opened), then each route's
//! appender element built as the first event of a key builds it, with a fuzzed context value:
//! substitution with the event, the escape of what is left for the layout, and binding.
//! Fields, separated by NUL: pattern, route key, appender text, context value.
#![no_main]

use l4rs_config::model::{AppenderKind, RouteTarget};
use l4rs_config::LoadOptions;
use l4rs_core::{ContextMap, Level, LogEvent, Message};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some([pattern, key, inside, value]) = l4rs_fuzz::text_fields::<4>(data) else {
        return;
    };
    l4rs_core::status::set_level(Level::OFF);
    let (pattern, key, inside) = (
        l4rs_fuzz::xml_attribute(pattern),
        l4rs_fuzz::xml_attribute(key),
        l4rs_fuzz::xml_attribute(inside),
    );
    let xml = format!(
        r#"<Configuration><Appenders>
<Routing name="R"><Routes pattern="{pattern}">
  <Route key="{key}" ref="N"/>
  <Route key="{inside}"><Null name="n-{inside}"/></Route>
  <Route><File name="f-{inside}" fileName="{inside}/${{ctx:k}}.log"><PatternLayout pattern="{inside} $${{ctx:k}} %m%n"/></File></Route>
</Routes></Routing><Null name="N"/>
</Appenders><Loggers><Root level="info"><AppenderRef ref="R"/></Root></Loggers></Configuration>"#
    );
    let options = LoadOptions {
        apply_status_level: false,
    };
    let Ok(configuration) = l4rs_config::load_str_with(&xml, None, options) else {
        return;
    };
    let _ = l4rs::check_configuration(&configuration);
    let mut map = ContextMap::default();
    map.insert("k", value);
    let mut event = LogEvent::new("a", Level::INFO, Message::Text("m"));
    event.context_map = &map;
    for appender in &configuration.appenders {
        let AppenderKind::Routing(routing) = &appender.kind else {
            continue;
        };
        let _ = routing.to_string();
        for route in &routing.routes {
            if let RouteTarget::Inline(inline) = &route.target {
                let _ = inline.build(Some(&event), value);
                let _ = inline.build(None, value);
            }
        }
    }
});
