//! `<SMTP>` (log4j2's SmtpAppender), with its builder's attributes, defaults, checks and
//! messages, and the `<Ssl>` child an `smtps` server is verified with.

use super::binder::Binder;
use super::filters::{is_filter, FilterSlot};
use super::layout::{build_layout, is_layout};
use super::node::PNode;
use super::socket::build_ssl;
use crate::model::{
    AppenderKind, AppenderSpec, FilterSpec, FilterVerdicts, HtmlLayoutSpec, LayoutSpec, SmtpSpec,
};
use crate::plugins::Plugin;
use l4rs_core::Level;

const CLASS: &str = "org.apache.logging.log4j.core.appender.SmtpAppender";
/// `SmtpAppender.DEFAULT_BUFFER_SIZE`.
const DEFAULT_BUFFER_SIZE: usize = 512;
/// The most events l4rs keeps back for one mail. log4j2 allocates its cyclic buffer whole, so
/// a size near `i32::MAX` fails there with an OutOfMemoryError; l4rs refuses it by name.
pub(crate) const MAX_BUFFER_SIZE: usize = 1 << 20;

/// Builds one `<SMTP>`; `None` (after log4j2's messages) when it cannot be built.
pub(crate) fn build_smtp_appender(binder: &mut Binder, mut node: PNode) -> Option<AppenderSpec> {
    let inserted = node.attrs.len();
    let mut layout: Option<LayoutSpec> = None;
    let mut layout_seen = false;
    let mut filter = FilterSlot::new();
    let mut ssl = None;
    for child in std::mem::take(&mut node.children) {
        if is_layout(&child) && !layout_seen {
            layout_seen = true;
            layout = build_layout(binder, child);
        } else if is_filter(&child) {
            filter.offer(binder, &node, child);
        } else if child.canonical == Some(Plugin::Ssl) && ssl.is_none() {
            ssl = Some(build_ssl(binder, child));
        } else if child.canonical == Some(Plugin::Property) {
            // Accepted by every log4j2 appender; SMTP reads none.
        } else {
            binder.refuse_child(&mut node, child);
        }
    }
    // The builder's own fields first, then AbstractAppender.Builder's, as log4j2 injects them.
    let to = binder.string(&mut node, &["to"]);
    let cc = binder.string(&mut node, &["cc"]);
    let bcc = binder.string(&mut node, &["bcc"]);
    let from = binder.string(&mut node, &["from"]);
    let reply_to = binder.string(&mut node, &["replyTo"]);
    let subject = binder.string(&mut node, &["subject"]);
    let protocol = binder
        .string(&mut node, &["smtpProtocol"])
        .filter(|protocol| !protocol.is_empty())
        .unwrap_or_else(|| "smtp".to_string());
    let host = binder.string(&mut node, &["smtpHost"]);
    let port_position = node.attr_position(&["smtpPort"]);
    let port = binder.int(&mut node, &["smtpPort"]).unwrap_or(0);
    let username = binder.string(&mut node, &["smtpUsername"]);
    let password = binder.string(&mut node, &["smtpPassword"]);
    let debug = binder.boolean(&mut node, &["smtpDebug"], false);
    let buffer_size_position = node.attr_position(&["bufferSize"]);
    let buffer_size = binder
        .int(&mut node, &["bufferSize"])
        .map_or(DEFAULT_BUFFER_SIZE as i64, i64::from);
    let name = binder.string(&mut node, &["name"]);
    let ignore_exceptions = binder.boolean(&mut node, &["ignoreExceptions"], true);

    // The builder's validators, in field order: `@ValidPort smtpPort`, then `@Required name`.
    let port_valid = (0..=65535).contains(&port);
    if !port_valid || name.is_none() {
        let mut reasons = Vec::new();
        if !port_valid {
            binder.report(
                crate::Severity::Error,
                "The port number is invalid".to_string(),
                Some(&node),
                port_position,
                None,
            );
            reasons.push(format!("field 'smtpPort' has invalid value '{port}'"));
        }
        if name.is_none() {
            binder.error(&node, "No appender name provided");
            reasons.push("field 'name' has invalid value 'null'".to_string());
        }
        binder.error_help(
            &node,
            format!(
                "Could not create plugin of type class {CLASS} for element {element} org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element {element} are invalid: {}",
                reasons.join(", "),
                element = node.name
            ),
            format!(
                "give <{}> a name=\"…\" and an smtpPort from 0 (the protocol's own) to 65535; it is not created",
                node.name
            ),
        );
        return None;
    }
    binder.finish(&node, inserted);
    let name = name.expect("checked above");
    if buffer_size < 0 {
        let cause = format!("java.lang.IllegalArgumentException: The maxSize argument ({buffer_size}) cannot be negative.");
        binder.builder_threw(
            &node,
            CLASS,
            &cause,
            buffer_size_position,
            format!("use a bufferSize of 0 or more; {name} is not created"),
        );
        return None;
    }
    let buffer_size = buffer_size as usize;
    if buffer_size > MAX_BUFFER_SIZE {
        super::appenders::too_large(
            binder,
            &node,
            buffer_size_position,
            "bufferSize",
            buffer_size,
            MAX_BUFFER_SIZE,
        );
        return None;
    }
    let filter = filter.filter.unwrap_or(FilterSpec::Threshold {
        level: Level::ERROR,
        verdicts: FilterVerdicts::default(),
    });
    let manager_name = manager_name(
        [&to, &cc, &bcc, &from, &reply_to, &subject],
        &protocol,
        host.as_deref(),
        port,
        username.as_deref(),
        debug,
        &filter,
    );
    Some(AppenderSpec {
        name,
        ignore_exceptions,
        layout: Some(layout.unwrap_or_else(|| LayoutSpec::Html(HtmlLayoutSpec::default()))),
        filter: Some(filter),
        kind: AppenderKind::Smtp(Box::new(SmtpSpec {
            to,
            cc,
            bcc,
            from,
            reply_to,
            subject,
            protocol,
            host,
            port: u16::try_from(port).expect("validated above"),
            username,
            password,
            debug,
            buffer_size,
            ssl: ssl.flatten(),
            manager_name,
        })),
        position: Some(node.position),
    })
}

/// log4j2's `MailManager.createManagerName`: the addresses and subject (empty when absent),
/// the protocol, host (`null` when absent), port and user name, `debug` when set, and the
/// filter's `toString()`.
fn manager_name(
    texts: [&Option<String>; 6],
    protocol: &str,
    host: Option<&str>,
    port: i32,
    username: Option<&str>,
    debug: bool,
    filter: &FilterSpec,
) -> String {
    let mut name = String::from("SMTP:");
    for text in texts {
        name.push_str(text.as_deref().unwrap_or(""));
        name.push(':');
    }
    name.push_str(&format!(
        "{protocol}:{}:{port}:{}",
        host.unwrap_or("null"),
        username.unwrap_or("")
    ));
    name.push_str(if debug { ":debug:" } else { "::" });
    name.push_str(&filter_java_name(filter));
    name
}

/// What log4j2's `Filter.toString()` gives for the filter: a ThresholdFilter (the default)
/// prints its level. The other filters' texts vary by filter and hold their settings; l4rs
/// names the kind instead (`RegexFilter`), as the name only starts messages.
fn filter_java_name(filter: &FilterSpec) -> String {
    match filter {
        FilterSpec::Threshold { level, .. } => level.name().to_string(),
        other => {
            let printed = format!("{other:?}");
            let kind: String = printed
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect();
            format!("{kind}Filter")
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{AppenderKind, FilterSpec, LayoutSpec};

    fn smtp(xml_attributes: &str) -> (crate::Configuration, Vec<String>) {
        crate::load::load_appenders(&format!("<SMTP {xml_attributes}/>"))
    }

    #[test]
    fn defaults_are_log4j2s() {
        let (configuration, messages) = smtp(r#"name="mail" subject="[%p] %m""#);
        assert!(messages.is_empty(), "{messages:?}");
        let appender = &configuration.appenders[0];
        assert!(matches!(appender.layout, Some(LayoutSpec::Html(_))));
        assert!(matches!(
            appender.filter,
            Some(FilterSpec::Threshold { level, .. }) if level == l4rs_core::Level::ERROR
        ));
        let AppenderKind::Smtp(spec) = &appender.kind else {
            panic!("{:?}", appender.kind)
        };
        assert_eq!(spec.protocol, "smtp");
        assert_eq!(spec.port, 0);
        assert_eq!(spec.buffer_size, 512);
        assert_eq!(spec.manager_name, "SMTP::::::[%p] %m:smtp:null:0:::ERROR");
    }

    #[test]
    fn the_password_is_never_printed() {
        let (configuration, _) = smtp(r#"name="mail" smtpUsername="u" smtpPassword="hunter2""#);
        let printed = format!("{:?}", configuration.appenders[0]);
        assert!(!printed.contains("hunter2"), "{printed}");
    }

    #[test]
    fn absurd_buffer_sizes_are_refused_by_name() {
        let (configuration, messages) = smtp(r#"name="mail" bufferSize="2147483647""#);
        assert!(configuration.appenders.is_empty());
        assert!(
            messages[0].contains("bufferSize=\"2147483647\" is above the maximum"),
            "{messages:?}"
        );
    }
}
