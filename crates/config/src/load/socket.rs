//! `<Socket>` and `<Syslog>` (log4j2's SocketAppender and SyslogAppender, which extends it), with
//! the `<Ssl>` child and its `<KeyStore>`/`<TrustStore>`.
//!
//! Syslog is bound as a Socket whose layout, when none is given, is made from the appender's
//! own attributes: `format="RFC5424"` gives an Rfc5424Layout, anything else a SyslogLayout.

use super::binder::{Binder, MissingField};
use super::filters::{is_filter, FilterSlot};
use super::layout::{build_layout, build_logger_fields, is_layout, name_list, syslog_facility};
use super::node::PNode;
use crate::model::{
    AppenderKind, AppenderSpec, LayoutSpec, LoggerFieldsSpec, Rfc5424LayoutSpec, SocketOptionsSpec,
    SocketProtocol, SocketSpec, SslSpec, StorePassword, StoreSpec, SyslogLayoutSpec,
};
use crate::plugins::Plugin;

/// `TcpSocketManager.DEFAULT_PORT`.
const DEFAULT_TCP_PORT: u16 = 4560;
/// `SslSocketManager.DEFAULT_PORT`.
const DEFAULT_SSL_PORT: u16 = 6514;
/// librelp's `RELP_DFLT_PORT`, for `protocol="RELP"` (an l4rs extension).
const DEFAULT_RELP_PORT: u16 = 20514;
/// `TcpSocketManager.DEFAULT_RECONNECTION_DELAY_MILLIS`.
const DEFAULT_RECONNECTION_DELAY_MILLIS: i32 = 30_000;
/// `Constants.ENCODER_BYTE_BUFFER_SIZE`: the default `bufferSize`, and Syslog's only one.
const DEFAULT_BUFFER_SIZE: usize = 8192;
/// log4j2's `Protocol` constants, in declaration order, and l4rs's `RELP`.
const PROTOCOLS: [&str; 4] = ["TCP", "SSL", "UDP", "RELP"];

/// Builds one `<Socket>` or `<Syslog>`; `None` (after log4j2's message) when it cannot be built.
pub(crate) fn build_socket_appender(binder: &mut Binder, mut node: PNode) -> Option<AppenderSpec> {
    let inserted = node.attrs.len();
    let element = if node.canonical == Some(Plugin::Syslog) {
        "Syslog"
    } else {
        "Socket"
    };
    let class = format!("org.apache.logging.log4j.core.appender.{element}Appender");
    let mut layout: Option<LayoutSpec> = None;
    let mut layout_seen = false;
    let mut filter = FilterSlot::new();
    let mut ssl: Option<Option<SslSpec>> = None;
    let mut socket_options = None;
    let mut logger_fields = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if element == "Syslog" && child.canonical == Some(Plugin::LoggerFields) {
            // SyslogAppender hands its `<LoggerFields>` to the RFC 5424 layout it makes.
            logger_fields.push(build_logger_fields(binder, child));
        } else if is_layout(&child) && !layout_seen {
            layout_seen = true;
            layout = build_layout(binder, child);
        } else if is_filter(&child) {
            filter.offer(binder, &node, child);
        } else if child.canonical == Some(Plugin::Ssl) && ssl.is_none() {
            ssl = Some(build_ssl(binder, child));
        } else if child.canonical == Some(Plugin::SocketOptions) && socket_options.is_none() {
            socket_options = Some(build_socket_options(binder, child));
        } else if child.canonical == Some(Plugin::Property) {
            // Accepted by every log4j2 appender; the socket appenders read none.
        } else {
            binder.refuse_child(&mut node, child);
        }
    }
    let name = binder.string(&mut node, &["name"]);
    let ignore_exceptions = binder.boolean(&mut node, &["ignoreExceptions"], true);
    let host = binder
        .string(&mut node, &["host"])
        .unwrap_or_else(|| "localhost".to_string());
    let port_position = node.attr_position(&["port"]);
    let port = binder.int(&mut node, &["port"]).unwrap_or(0);
    let protocol = match binder.enumeration(
        &mut node,
        &["protocol"],
        "class org.apache.logging.log4j.core.net.Protocol",
        &PROTOCOLS,
    ) {
        Some(1) => SocketProtocol::Ssl,
        Some(2) => SocketProtocol::Udp,
        Some(3) => SocketProtocol::Relp,
        _ => SocketProtocol::Tcp,
    };
    let connect_timeout = binder
        .int(&mut node, &["connectTimeoutMillis"])
        .unwrap_or(0);
    let reconnect_delay = binder
        .int(
            &mut node,
            &[
                "reconnectDelayMillis",
                "reconnectDelay",
                "reconnectionDelay",
                "delayMillis",
                "reconnectionDelayMillis",
            ],
        )
        .unwrap_or(0);
    let immediate_fail = binder.boolean(&mut node, &["immediateFail"], true);
    let immediate_flush = binder.boolean(&mut node, &["immediateFlush"], true);
    let buffered_io = binder.boolean(&mut node, &["bufferedIo"], true);
    let buffer_size = binder
        .int(&mut node, &["bufferSize"])
        .map(|size| usize::try_from(size).unwrap_or(0));
    // Accepted by log4j2 on every appender; l4rs has no advertiser.
    let _ = binder.string(&mut node, &["advertise"]);
    let ssl = ssl.flatten();
    // RFC 5425's octet counting frames syslog over TLS; a RELP frame carries its own length.
    let use_tls_message_format =
        protocol != SocketProtocol::Relp && (ssl.is_some() || protocol == SocketProtocol::Ssl);
    let syslog_layout = (element == "Syslog")
        .then(|| syslog_attributes(binder, &mut node, use_tls_message_format, logger_fields));
    if name.is_none() {
        binder.invalid_arguments(
            &node,
            &class,
            &[MissingField::attribute("name", "No appender name provided")],
        );
        return None;
    }
    binder.finish(&node, inserted);
    let name = name.expect("checked above");
    if !host.is_empty() && !host_resolves(&host) {
        // log4j2's @ValidHost looks the host up when the configuration is built.
        binder.error(
            &node,
            format!("The hostname is invalid java.net.UnknownHostException: {host}"),
        );
        binder.error_help(
            &node,
            format!(
                "Could not create plugin of type class {class} for element {element} org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element {element} are invalid: field 'host' has invalid value '{host}'",
                element = node.name
            ),
            format!("name a host this machine can resolve, or its IP address; {name} is not created"),
        );
        return None;
    }
    let layout = match (layout, syslog_layout) {
        (Some(layout), _) => layout,
        (None, Some(layout)) => layout,
        (None, None) => {
            binder.error_help(
                &node,
                format!("No layout provided for {element}Appender"),
                format!(
                    "add a layout to <{}>, such as <PatternLayout pattern=\"%m%n\"/> (log4j2's old default, SerializedLayout, is Java serialization, which l4rs does not write); {name} is not created",
                    node.name
                ),
            );
            return None;
        }
    };
    if host.is_empty() {
        binder.error_help(
            &node,
            format!("Could not create plugin of type class {class} for element {}: java.lang.IllegalArgumentException: A host name is required", node.name),
            format!("give <{}> a host=\"…\"; {name} is not created", node.name),
        );
        return None;
    }
    // TCP with an <Ssl> child is SSL, as SocketAppender.createSocketManager decides; another
    // protocol keeps its own and drops the child with log4j2's INFO.
    let protocol = match (protocol, &ssl) {
        (SocketProtocol::Tcp, Some(_)) => SocketProtocol::Ssl,
        (other, Some(_)) if other == SocketProtocol::Udp => {
            binder.report(
                crate::Severity::Info,
                // Only UDP gets here: TCP became SSL above.
                format!("Appender {name} ignoring SSL configuration for UDP protocol"),
                Some(&node),
                None,
                None,
            );
            other
        }
        (other, _) => other,
    };
    let ssl = if matches!(protocol, SocketProtocol::Ssl | SocketProtocol::Relp) {
        ssl
    } else {
        None
    };
    let port = match (u16::try_from(port), protocol) {
        (Ok(0), SocketProtocol::Tcp) => DEFAULT_TCP_PORT,
        (Ok(0), SocketProtocol::Ssl) => DEFAULT_SSL_PORT,
        (Ok(0), SocketProtocol::Relp) => DEFAULT_RELP_PORT,
        (Ok(port), _) if port > 0 => port,
        (Ok(_), SocketProtocol::Udp) => {
            binder.error_help(
                &node,
                format!("Could not create plugin of type class {class} for element {}: java.lang.IllegalArgumentException: A port value is required", node.name),
                format!("give <{}> the receiver's port=\"…\"; {name} is not created", node.name),
            );
            return None;
        }
        _ => {
            binder.report(
                crate::Severity::Error,
                format!("Could not create plugin of type class {class} for element {}: the port {port} is not a valid port number", node.name),
                Some(&node),
                port_position,
                Some(format!("use a port from 1 to 65535; {name} is not created")),
            );
            return None;
        }
    };
    let buffer_size = if element == "Syslog" {
        DEFAULT_BUFFER_SIZE
    } else {
        buffer_size.unwrap_or(DEFAULT_BUFFER_SIZE)
    };
    if buffer_size > super::appenders::MAX_FILE_BUFFER_SIZE {
        super::appenders::too_large(
            binder,
            &node,
            None,
            "bufferSize",
            buffer_size,
            super::appenders::MAX_FILE_BUFFER_SIZE,
        );
        return None;
    }
    Some(AppenderSpec {
        name,
        ignore_exceptions,
        layout: Some(layout),
        filter: filter.filter,
        kind: AppenderKind::Socket(Box::new(SocketSpec {
            element,
            host,
            port,
            protocol,
            connect_timeout_millis: u32::try_from(connect_timeout).unwrap_or(0),
            // As TcpSocketManager's factory: only 0 takes the default; a negative delay stays
            // and turns reconnection off.
            reconnect_delay_millis: match reconnect_delay {
                0 => DEFAULT_RECONNECTION_DELAY_MILLIS,
                delay => delay,
            },
            immediate_fail,
            // log4j2's SocketAppender flushes every UDP event; a datagram is always one event
            // in l4rs, Syslog included. A RELP event waits for its acknowledgement.
            immediate_flush: immediate_flush
                || matches!(protocol, SocketProtocol::Udp | SocketProtocol::Relp),
            // log4j2's SyslogAppender also takes `bufferedIo`; l4rs buffers a Syslog with
            // `immediateFlush="false"` as it buffers a Socket (docs/appenders.md).
            buffered_io,
            buffer_size,
            ssl,
            socket_options,
        })),
        position: Some(node.position),
    })
}

/// True when `host` has an address, as `InetAddress.getByName` finds one. A fuzzed
/// configuration is not looked up: resolving its hosts would make every run wait on DNS.
fn host_resolves(host: &str) -> bool {
    if cfg!(fuzzing) {
        return true;
    }
    use std::net::ToSocketAddrs;
    (host, 0)
        .to_socket_addrs()
        .is_ok_and(|mut found| found.next().is_some())
}

/// The layout `<Syslog>` makes from its own attributes: SyslogAppender's builder fields.
fn syslog_attributes(
    binder: &mut Binder,
    node: &mut PNode,
    use_tls_message_format: bool,
    logger_fields: Vec<LoggerFieldsSpec>,
) -> LayoutSpec {
    let rfc = Rfc5424LayoutSpec::default();
    let facility = syslog_facility(binder, node, rfc.facility);
    let format = binder.string(node, &["format"]);
    let new_line = binder.boolean(node, &["newLine"], false);
    let new_line_escape = binder.string(node, &["newLineEscape"]);
    let charset = binder.charset(node, &["charset"]);
    let id = binder.string(node, &["id"]);
    let enterprise_number = binder
        .string(node, &["enterpriseNumber"])
        .and_then(|text| text.trim().parse::<i32>().ok())
        .unwrap_or(rfc.enterprise_number);
    let include_mdc = binder.boolean(node, &["includeMdc"], rfc.include_mdc);
    // SyslogAppender's mdcId has no default, and Rfc5424Layout takes a missing one from `id`
    // (then `mdc`), so `id` also names the MDC element here (checked with the oracle: 703).
    let mdc_id = binder
        .string(node, &["mdcId"])
        .or_else(|| id.clone())
        .unwrap_or(rfc.mdc_id);
    let mdc_prefix = binder.string(node, &["mdcPrefix"]);
    let event_prefix = binder.string(node, &["eventPrefix"]);
    let app_name = binder.string(node, &["appName"]);
    let message_id = binder.string(node, &["messageId"]);
    let mdc_excludes = name_list(binder, node, &["mdcExcludes"]);
    let mut mdc_includes = name_list(binder, node, &["mdcIncludes"]);
    let mdc_required = name_list(binder, node, &["mdcRequired"]);
    let exception_pattern = binder.string(node, &["exceptionPattern"]);
    if !format
        .as_deref()
        .is_some_and(|f| f.eq_ignore_ascii_case("RFC5424"))
    {
        return LayoutSpec::Syslog(SyslogLayoutSpec {
            facility,
            new_line,
            new_line_escape,
            charset,
        });
    }
    if !mdc_includes.is_empty() && !mdc_excludes.is_empty() {
        binder.error(
            node,
            "mdcIncludes and mdcExcludes are mutually exclusive. Includes wil be ignored",
        );
        mdc_includes.clear();
    }
    LayoutSpec::Rfc5424(Rfc5424LayoutSpec {
        facility,
        id,
        enterprise_number,
        include_mdc,
        mdc_id,
        mdc_prefix,
        event_prefix,
        new_line,
        new_line_escape,
        app_name,
        message_id,
        mdc_excludes,
        mdc_includes,
        mdc_required,
        exception_pattern,
        use_tls_message_format,
        logger_fields,
    })
}

/// `<SocketOptions>`: log4j2's attributes; `<SocketPerformancePreferences>` is accepted and
/// ignored, as Java's own sockets ignore it.
fn build_socket_options(binder: &mut Binder, mut node: PNode) -> SocketOptionsSpec {
    let inserted = node.attrs.len();
    for child in std::mem::take(&mut node.children) {
        if child.canonical != Some(Plugin::SocketPerformancePreferences) {
            binder.unusable_child(&node, &child);
        }
    }
    let flag = |binder: &mut Binder, node: &mut PNode, name: &str| {
        node.attrs
            .iter()
            .any(|attr| attr.name.eq_ignore_ascii_case(name))
            .then(|| binder.boolean(node, &[name], false))
    };
    let keep_alive = flag(binder, &mut node, "keepAlive");
    let oob_inline = flag(binder, &mut node, "oobInline");
    let reuse_address = flag(binder, &mut node, "reuseAddress");
    let tcp_no_delay = flag(binder, &mut node, "tcpNoDelay");
    let receive_buffer_size = binder.int(&mut node, &["receiveBufferSize"]);
    let send_buffer_size = binder.int(&mut node, &["sendBufferSize"]);
    let so_linger = binder.int(&mut node, &["soLinger"]);
    let so_timeout = binder.int(&mut node, &["soTimeout"]);
    let traffic_class = binder.int(&mut node, &["trafficClass"]);
    let rfc1349 = binder
        .enumeration(
            &mut node,
            &["rfc1349TrafficClass"],
            "class org.apache.logging.log4j.core.net.Rfc1349TrafficClass",
            &RFC1349_TRAFFIC_CLASSES.map(|(name, _)| name),
        )
        .map(|index| RFC1349_TRAFFIC_CLASSES[index].1);
    binder.finish(&node, inserted);
    SocketOptionsSpec {
        keep_alive,
        oob_inline,
        reuse_address,
        receive_buffer_size,
        send_buffer_size,
        so_linger,
        so_timeout,
        tcp_no_delay,
        traffic_class: traffic_class.or(rfc1349),
    }
}

/// log4j2's `Rfc1349TrafficClass` constants and their `IP_TOS` values.
const RFC1349_TRAFFIC_CLASSES: [(&str, i32); 5] = [
    ("IPTOS_NORMAL", 0x00),
    ("IPTOS_LOWCOST", 0x02),
    ("IPTOS_LOWDELAY", 0x10),
    ("IPTOS_RELIABILITY", 0x04),
    ("IPTOS_THROUGHPUT", 0x08),
];

/// `<Ssl>`; `None` (after an error) when it cannot be built, which leaves the appender on
/// its own protocol, as log4j2's null element does.
pub(crate) fn build_ssl(binder: &mut Binder, mut node: PNode) -> Option<SslSpec> {
    let inserted = node.attrs.len();
    let mut key_store = None;
    let mut trust_store = None;
    let mut complete = true;
    for child in std::mem::take(&mut node.children) {
        match child.canonical {
            Some(Plugin::KeyStore) if key_store.is_none() => {
                key_store = build_store(binder, child);
                complete &= key_store.is_some();
            }
            Some(Plugin::TrustStore) if trust_store.is_none() => {
                trust_store = build_store(binder, child);
                complete &= trust_store.is_some();
            }
            _ => binder.unusable_child(&node, &child),
        }
    }
    let protocol = binder.string(&mut node, &["protocol"]);
    let verify_host_name = binder.boolean(&mut node, &["verifyHostName"], false);
    binder.finish(&node, inserted);
    complete.then_some(SslSpec {
        protocol,
        key_store,
        trust_store,
        verify_host_name,
    })
}

/// `<KeyStore>` or `<TrustStore>`: the location and type as given, the password source
/// (exactly one of the three, as log4j2 requires).
fn build_store(binder: &mut Binder, mut node: PNode) -> Option<StoreSpec> {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let location = binder.string(&mut node, &["location"]);
    let password = binder.string(&mut node, &["password"]);
    let environment = binder.string(&mut node, &["passwordEnvironmentVariable"]);
    let file = binder.string(&mut node, &["passwordFile"]);
    let store_type = binder
        .string(&mut node, &["type"])
        .unwrap_or_else(|| "PKCS12".to_string());
    let _ = binder.string(
        &mut node,
        &["keyManagerFactoryAlgorithm", "trustManagerFactoryAlgorithm"],
    );
    binder.finish(&node, inserted);
    let given = [password.is_some(), environment.is_some(), file.is_some()];
    if given.iter().filter(|given| **given).count() > 1 {
        binder.error_help(
            &node,
            "You MUST set only one of 'password', 'passwordEnvironmentVariable' or 'passwordFile'.",
            format!(
                "keep one of the three on <{}>; the store is not loaded",
                node.name
            ),
        );
        return None;
    }
    let password = match (password, environment, file) {
        (Some(password), _, _) => StorePassword::Literal(password),
        (_, Some(variable), _) => StorePassword::Environment(variable),
        (_, _, Some(file)) => StorePassword::File(file),
        _ => StorePassword::None,
    };
    Some(StoreSpec {
        location,
        password,
        store_type,
        position: Some(node.position),
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::model::{
        AppenderKind, Configuration, LayoutSpec, SocketProtocol, SocketSpec, StorePassword,
    };
    use crate::Severity;

    fn load(appenders: &str) -> Configuration {
        let xml = format!(
            r#"<Configuration name="cfg"><Appenders>{appenders}</Appenders><Loggers><Root level="info"/></Loggers></Configuration>"#
        );
        crate::load_str(&xml, Some(Path::new("/test/log4j2.xml"))).expect("well-formed")
    }

    fn socket(config: &Configuration, name: &str) -> SocketSpec {
        match &config.appender(name).expect("appender").kind {
            AppenderKind::Socket(spec) => spec.as_ref().clone(),
            other => panic!("not a socket: {other:?}"),
        }
    }

    fn errors(config: &Configuration) -> Vec<String> {
        config
            .diagnostics_at_least(Severity::Error)
            .map(|d| d.message.clone())
            .collect()
    }

    /// log4j2 2.24's defaults (SocketAppender.AbstractBuilder, TcpSocketManager,
    /// SslSocketManager, Constants.ENCODER_BYTE_BUFFER_SIZE).
    #[test]
    fn socket_defaults_are_log4j2s() {
        let config = load(r#"<Socket name="S"><PatternLayout/></Socket>"#);
        assert!(config.diagnostics.is_empty(), "{:?}", config.diagnostics);
        assert_eq!(
            socket(&config, "S"),
            SocketSpec {
                element: "Socket",
                host: "localhost".into(),
                port: 4560,
                protocol: SocketProtocol::Tcp,
                connect_timeout_millis: 0,
                reconnect_delay_millis: 30_000,
                immediate_fail: true,
                immediate_flush: true,
                buffered_io: true,
                buffer_size: 8192,
                ssl: None,
                socket_options: None,
            }
        );
    }

    #[test]
    fn attributes_and_their_aliases_are_read() {
        for alias in [
            "reconnectDelayMillis",
            "reconnectDelay",
            "reconnectionDelay",
            "delayMillis",
            "reconnectionDelayMillis",
        ] {
            let config = load(&format!(
                r#"<Socket name="S" host="localhost" port="9" protocol="udp" {alias}="250" connectTimeoutMillis="70" immediateFail="false" immediateFlush="false" bufferedIo="false" bufferSize="100"><PatternLayout/></Socket>"#
            ));
            let spec = socket(&config, "S");
            assert_eq!(spec.reconnect_delay_millis, 250, "{alias}");
            assert_eq!((spec.host.as_str(), spec.port), ("localhost", 9));
            assert_eq!(spec.protocol, SocketProtocol::Udp);
            assert_eq!(spec.connect_timeout_millis, 70);
            assert!(!spec.immediate_fail && !spec.buffered_io);
            // UDP always sends each event at once.
            assert!(spec.immediate_flush);
            assert_eq!(spec.buffer_size, 100);
        }
    }

    #[test]
    fn an_ssl_child_makes_tcp_ssl_with_its_default_port() {
        let config = load(
            r#"<Socket name="S"><PatternLayout/><SSL protocol="TLSv1.3" verifyHostName="true"><KeyStore location="k.p12" passwordEnvironmentVariable="PW"/><TrustStore location="ca.pem" type="PEM" password="x"/></SSL></Socket>
<Socket name="U" protocol="UDP" port="5"><PatternLayout/><SslConfig><TrustStore location="ca.pem"/></SslConfig></Socket>"#,
        );
        let spec = socket(&config, "S");
        assert_eq!((spec.protocol, spec.port), (SocketProtocol::Ssl, 6514));
        let ssl = spec.ssl.expect("ssl");
        assert!(ssl.verify_host_name);
        assert_eq!(ssl.protocol.as_deref(), Some("TLSv1.3"));
        let key_store = ssl.key_store.expect("key store");
        assert_eq!(key_store.store_type, "PKCS12");
        assert!(key_store.password == StorePassword::Environment("PW".into()));
        let trust = ssl.trust_store.expect("trust store");
        assert_eq!(trust.store_type, "PEM");
        assert!(trust.password == StorePassword::Literal("x".into()));
        // The password never shows in Debug output.
        assert!(!format!("{trust:?}").contains('x'));
        let udp = socket(&config, "U");
        assert_eq!(udp.protocol, SocketProtocol::Udp);
        assert!(udp.ssl.is_none());
        assert!(config
            .diagnostics
            .iter()
            .any(|d| d.message == "Appender U ignoring SSL configuration for UDP protocol"));
    }

    #[test]
    fn socket_options_keep_what_is_given() {
        let config = load(
            r#"<Socket name="S"><PatternLayout/><SocketOptions tcpNoDelay="true" keepAlive="false" sendBufferSize="65536" soLinger="3" rfc1349TrafficClass="IPTOS_LOWDELAY"><SocketPerformancePreferences bandwidth="1" connectionTime="2" latency="3"/></SocketOptions></Socket>
<Socket name="T"><PatternLayout/><SocketOptions trafficClass="8" rfc1349TrafficClass="IPTOS_LOWCOST"/></Socket>"#,
        );
        assert!(errors(&config).is_empty(), "{:?}", config.diagnostics);
        let options = socket(&config, "S").socket_options.expect("options");
        assert_eq!(options.tcp_no_delay, Some(true));
        assert_eq!(options.keep_alive, Some(false));
        assert_eq!(options.send_buffer_size, Some(65536));
        assert_eq!(options.so_linger, Some(3));
        assert_eq!(options.traffic_class, Some(0x10));
        assert_eq!(
            (options.oob_inline, options.receive_buffer_size),
            (None, None)
        );
        // An explicit trafficClass wins over the RFC 1349 name.
        let options = socket(&config, "T").socket_options.expect("options");
        assert_eq!(options.traffic_class, Some(8));
    }

    #[test]
    fn syslog_hands_its_logger_fields_to_the_rfc5424_layout() {
        let config = load(
            r#"<Syslog name="R" format="RFC5424" appName="app"><LoggerFields sdId="req" enterpriseId="32473"><KeyValuePair key="user" value="%X{user}"/></LoggerFields></Syslog>"#,
        );
        assert!(errors(&config).is_empty(), "{:?}", config.diagnostics);
        match &config.appender("R").unwrap().layout {
            Some(LayoutSpec::Rfc5424(layout)) => {
                assert_eq!(layout.logger_fields.len(), 1);
                let fields = &layout.logger_fields[0];
                assert_eq!(fields.sd_id.as_deref(), Some("req"));
                assert_eq!(fields.fields.len(), 1);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn syslog_makes_its_layout_from_its_attributes() {
        let config = load(
            r#"<Syslog name="B" facility="MAIL" newLine="true" newLineEscape="\n" charset="ISO-8859-1" bufferSize="5"/>
<Syslog name="R" format="rfc5424" protocol="SSL" appName="app" messageId="M" id="Id" includeMdc="false" mdcExcludes="a, b" enterpriseNumber="18060" exceptionPattern="%ex{1}"><Ssl><TrustStore location="ca.pem"/></Ssl></Syslog>
<Syslog name="L" format="RFC5424"><PatternLayout pattern="%m"/></Syslog>"#,
        );
        assert!(errors(&config).is_empty(), "{:?}", config.diagnostics);
        let bsd = config.appender("B").unwrap();
        match &bsd.layout {
            Some(LayoutSpec::Syslog(layout)) => {
                assert_eq!(layout.facility, 2);
                assert!(layout.new_line);
                assert_eq!(layout.new_line_escape.as_deref(), Some("\\n"));
                assert_eq!(layout.charset.as_deref(), Some("ISO-8859-1"));
            }
            other => panic!("{other:?}"),
        }
        // Syslog always buffers 8192 bytes, whatever bufferSize says.
        let spec = socket(&config, "B");
        assert_eq!((spec.element, spec.buffer_size), ("Syslog", 8192));
        match &config.appender("R").unwrap().layout {
            Some(LayoutSpec::Rfc5424(layout)) => {
                assert_eq!(layout.facility, 16);
                assert_eq!(layout.app_name.as_deref(), Some("app"));
                assert_eq!(layout.message_id.as_deref(), Some("M"));
                assert_eq!(layout.id.as_deref(), Some("Id"));
                // No mdcId: Rfc5424Layout takes the id.
                assert_eq!(layout.mdc_id, "Id");
                assert!(!layout.include_mdc);
                assert_eq!(layout.mdc_excludes, ["a", "b"]);
                assert_eq!(layout.enterprise_number, 18060);
                assert_eq!(layout.exception_pattern.as_deref(), Some("%ex{1}"));
                // SSL frames each message with its length (RFC 5425).
                assert!(layout.use_tls_message_format);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            config.appender("L").unwrap().layout,
            Some(LayoutSpec::Pattern(_))
        ));
    }

    #[test]
    fn what_cannot_be_built_is_an_error_naming_the_fix() {
        let config = load(
            r#"<Socket name="NoLayout" port="1"/>
<Socket name="NoPort" protocol="UDP"><PatternLayout/></Socket>
<Socket name="NoHost" host=""><PatternLayout/></Socket>
<Socket name="BadPort" port="70000"><PatternLayout/></Socket>
<Socket port="2"><PatternLayout/></Socket>
<Socket name="TwoPasswords"><PatternLayout/><Ssl><TrustStore location="t" password="a" passwordFile="f"/></Ssl></Socket>
<Socket name="Unknown" host="no-such-host.invalid"><PatternLayout/></Socket>"#,
        );
        let errors = errors(&config);
        for expected in [
            "No layout provided for SocketAppender",
            "java.lang.IllegalArgumentException: A port value is required",
            "java.lang.IllegalArgumentException: A host name is required",
            "the port 70000 is not a valid port number",
            "field 'name' has invalid value 'null'",
            "You MUST set only one of 'password', 'passwordEnvironmentVariable' or 'passwordFile'.",
            "The hostname is invalid java.net.UnknownHostException: no-such-host.invalid",
            "field 'host' has invalid value 'no-such-host.invalid'",
        ] {
            assert!(
                errors.iter().any(|e| e.contains(expected)),
                "{expected}: {errors:#?}"
            );
        }
        for name in ["NoLayout", "NoPort", "NoHost", "BadPort", "Unknown"] {
            assert!(config.appender(name).is_none(), "{name} was built");
        }
        // A store that cannot be bound drops the <Ssl> child, as log4j2's null element does.
        assert!(socket(&config, "TwoPasswords").ssl.is_none());
        let no_layout = config
            .diagnostics
            .iter()
            .find(|d| d.message.starts_with("No layout"))
            .unwrap();
        assert!(no_layout.help.as_deref().unwrap().contains("PatternLayout"));
    }
}
