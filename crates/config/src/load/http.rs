//! `<Http>` (log4j2's HttpAppender), with its builder's attributes, defaults, checks and
//! messages: the `url` read as `java.net.URL` reads it, `<Property>` children as request
//! headers, and the `<Ssl>` child an `https` server is verified with.

use super::binder::{Binder, MissingField};
use super::filters::{is_filter, FilterSlot};
use super::layout::{build_layout, is_layout};
use super::node::PNode;
use super::rewrite::property;
use super::socket::build_ssl;
use crate::model::{AppenderKind, AppenderSpec, HttpSpec, LayoutSpec};
use crate::plugins::Plugin;
use crate::Severity;

const CLASS: &str = "org.apache.logging.log4j.core.appender.HttpAppender";

/// Builds one `<Http>`; `None` (after log4j2's messages) when it cannot be built.
pub(crate) fn build_http_appender(binder: &mut Binder, mut node: PNode) -> Option<AppenderSpec> {
    let inserted = node.attrs.len();
    let mut layout: Option<LayoutSpec> = None;
    let mut layout_seen = false;
    let mut filter = FilterSlot::new();
    let mut ssl = None;
    let mut ssl_seen = false;
    let mut headers = Vec::new();
    let mut failed_headers = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if is_layout(&child) && !layout_seen {
            layout_seen = true;
            layout = build_layout(binder, child);
        } else if is_filter(&child) {
            filter.offer(binder, &node, child);
        } else if child.canonical == Some(Plugin::Ssl) && !ssl_seen {
            ssl_seen = true;
            ssl = build_ssl(binder, child);
        } else if child.canonical == Some(Plugin::Property) {
            if let Some(header) = binder.build_child(child, &mut failed_headers, property) {
                headers.push(header);
            }
        } else {
            binder.refuse_child(&mut node, child);
        }
    }
    // The builder's own fields, in its order, then AbstractAppender.Builder's, as log4j2
    // injects them (a value Java cannot convert is reported as it is injected).
    let url_text = binder.string(&mut node, &["url"]);
    let url_position = node.attr_position(&["url"]);
    let url = url_text.as_deref().and_then(|text| {
        match l4rs_java_syntax::url::parse(text) {
            Ok(url) => Some(url),
            Err(cause) => {
                binder.report(
                    Severity::Warning,
                    format!("Error while converting string [{text}] to type [class java.net.URL]. Using default value [null]. java.net.MalformedURLException: {cause}"),
                    Some(&node),
                    url_position,
                    Some("attribute url of Http: expected an http:// or https:// URL".to_string()),
                );
                None
            }
        }
    });
    let method = binder
        .string(&mut node, &["method"])
        .unwrap_or_else(|| "POST".to_string());
    let connect_timeout_millis = binder
        .int(&mut node, &["connectTimeoutMillis"])
        .unwrap_or(0);
    let read_timeout_millis = binder.int(&mut node, &["readTimeoutMillis"]).unwrap_or(0);
    binder.null_children(&node, &failed_headers);
    let verify_hostname = binder.boolean(&mut node, &["verifyHostname"], true);
    let ignore_exceptions = binder.boolean(&mut node, &["ignoreExceptions"], true);
    let name = binder.string(&mut node, &["name"]);

    let mut missing = Vec::new();
    if url.is_none() {
        missing.push(
            MissingField::attribute("url", "No URL provided for HttpAppender")
                .added_as("url=\"https://…\""),
        );
    }
    if name.is_none() {
        missing.push(MissingField::attribute("name", "No appender name provided"));
    }
    let (Some(url), Some(name)) = (url, name) else {
        binder.invalid_arguments(&node, CLASS, &missing);
        return None;
    };
    binder.finish(&node, inserted);
    let https = url.protocol == "https";
    let configuration_failure = if url.protocol != "http" && !https {
        Some((
            "URL must have scheme http or https",
            format!(
                "give <{}> an http:// or https:// url; {name} is not created",
                node.name
            ),
        ))
    } else if ssl_seen && !https {
        Some((
            "SSL configuration can only be specified with URL scheme https",
            format!("use an https:// url with <Ssl>, or remove <Ssl>; {name} is not created"),
        ))
    } else {
        None
    };
    if let Some((message, help)) = configuration_failure {
        binder.report(
            Severity::Error,
            format!("Could not create plugin of type class {CLASS} for element {} org.apache.logging.log4j.core.config.ConfigurationException: {message}", node.name),
            Some(&node),
            url_position,
            Some(help),
        );
        return None;
    }
    if !layout_seen {
        // `Objects.requireNonNull(layout, "layout")` in the appender's constructor; the builder
        // threw, so log4j2 then tries the plugin's factory method, which it lacks.
        binder.builder_threw(
            &node,
            CLASS,
            "java.lang.NullPointerException: layout",
            None,
            format!("add a layout (e.g. <JsonTemplateLayout/> or <PatternLayout pattern=\"%m\"/>) to <{}>; {name} is not created", node.name),
        );
        return None;
    }
    // A layout that failed to build was reported; the appender then uses the default one, as
    // other appenders here do.
    let layout = layout.or(Some(LayoutSpec::Pattern(Default::default())));
    Some(AppenderSpec {
        name,
        ignore_exceptions,
        layout,
        filter: filter.filter,
        kind: AppenderKind::Http(Box::new(HttpSpec {
            target: url.request_target(),
            url: url_text.unwrap_or_default(),
            https,
            host: url.host,
            port: url.port,
            method,
            connect_timeout_millis,
            read_timeout_millis,
            headers,
            ssl,
            verify_hostname,
        })),
        position: Some(node.position),
    })
}

#[cfg(test)]
mod tests {
    use crate::load::load_appenders as http;
    use crate::model::AppenderKind;

    #[test]
    fn defaults_are_log4j2s() {
        let (configuration, messages) =
            http(r#"<Http name="web" url="http://127.0.0.1:8080/in?x=1"><PatternLayout/></Http>"#);
        assert!(messages.is_empty(), "{messages:?}");
        let AppenderKind::Http(spec) = &configuration.appenders[0].kind else {
            panic!("{:?}", configuration.appenders[0].kind)
        };
        assert_eq!(spec.method, "POST");
        assert_eq!(
            (spec.connect_timeout_millis, spec.read_timeout_millis),
            (0, 0)
        );
        assert!(spec.verify_hostname && !spec.https);
        assert_eq!((spec.host.as_str(), spec.port), ("127.0.0.1", Some(8080)));
        assert_eq!(spec.target, "/in?x=1");
    }

    #[test]
    fn headers_keep_their_order_and_deferred_lookups() {
        let (configuration, messages) = http(
            r#"<Http name="web" url="https://h/in"><Property name="B" value="2"/><Property name="A">$${ctx:user}</Property><Property name="Authorization" value="Bearer hunter2"/><JsonLayout/></Http><Http name="b" url="https://user:hunter2@h/x"><JsonLayout/></Http>"#,
        );
        assert!(messages.is_empty(), "{messages:?}");
        let AppenderKind::Http(spec) = &configuration.appenders[0].kind else {
            panic!()
        };
        assert_eq!(
            spec.headers,
            [
                ("B".to_string(), "2".to_string()),
                ("A".to_string(), "${ctx:user}".to_string()),
                ("Authorization".to_string(), "Bearer hunter2".to_string())
            ]
        );
        for appender in &configuration.appenders {
            let printed = format!("{appender:?}");
            assert!(!printed.contains("hunter2"), "{printed}");
        }
    }

    #[test]
    fn a_missing_layout_is_log4j2s_null_pointer() {
        let (configuration, messages) = http(r#"<Http name="web" url="http://h/x"/>"#);
        assert!(configuration.appenders.is_empty());
        assert!(
            messages[0].ends_with("java.lang.NullPointerException: layout"),
            "{messages:?}"
        );
    }

    #[test]
    fn other_schemes_and_ssl_over_http_are_refused() {
        let (_, messages) = http(r#"<Http name="a" url="ftp://h/x"><PatternLayout/></Http>"#);
        assert!(
            messages[0].ends_with("URL must have scheme http or https"),
            "{messages:?}"
        );
        let (_, messages) =
            http(r#"<Http name="b" url="http://h/x"><PatternLayout/><Ssl/></Http>"#);
        assert!(
            messages[0].ends_with("SSL configuration can only be specified with URL scheme https"),
            "{messages:?}"
        );
    }
}
