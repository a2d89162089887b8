//! The typed configuration: what a log4j2 XML file says, bound to plain Rust values with
//! log4j2's defaults filled in.
//!
//! Attribute values here are already substituted at configuration time. Pattern strings keep
//! whatever `${…}` was left for per-event resolution (written `$${…}` in the file), which the
//! layout resolves through [`Configuration::substitutor`].

use std::path::PathBuf;
use std::sync::Arc;

use l4rs_core::{FilterResult, Interpolator, Level};

use crate::{Diagnostic, Position, WaitStrategy};

/// A whole configuration.
#[derive(Clone)]
pub struct Configuration {
    /// The file it was loaded from; `None` for the default configuration.
    pub source: Option<PathBuf>,
    /// The `name` attribute (log4j2 defaults it to the source location).
    pub name: String,
    /// The `status` attribute: the status logger's level once the file is read.
    pub status: Option<Level>,
    /// The `dest` attribute: `err` (default), `out`, or a file path.
    pub dest: Option<String>,
    /// The `monitorInterval` attribute in seconds (0: off): how often the facade checks the
    /// file (and [`Configuration::monitor_resources`]) for a change to reload.
    pub monitor_interval_seconds: u32,
    /// The files named by `<MonitorResources><MonitorResource uri="…"/>`: a change to any of
    /// them reloads the configuration file too, as log4j2's watcher does.
    pub monitor_resources: Vec<PathBuf>,
    /// The `strict` attribute.
    pub strict: bool,
    /// False only when `shutdownHook="disable"`.
    pub shutdown_hook: bool,
    /// The `shutdownTimeout` attribute in milliseconds.
    pub shutdown_timeout_ms: u64,
    /// `<Properties>` after substitution, in document order.
    pub properties: Vec<(String, String)>,
    /// Custom levels declared by `<CustomLevels>`, already registered with [`Level::register`].
    pub custom_levels: Vec<Level>,
    /// The appenders that could be bound, in document order. Later duplicates of a name replace
    /// earlier ones (as log4j2's map put does); this list keeps only the survivor.
    pub appenders: Vec<AppenderSpec>,
    /// The appenders a later one of the same name replaced, in the order they were replaced
    /// (each keeps its `position`, which gives the document order). log4j2 builds
    /// them before its map discards them, so their files are opened (created, truncated with
    /// `append="false"`) although nothing is written to them; starting the configuration
    /// reproduces that.
    pub replaced_appenders: Vec<AppenderSpec>,
    /// The context-wide filter: several top-level filters are combined into one
    /// [`FilterSpec::Composite`] in document order.
    pub filter: Option<FilterSpec>,
    /// The loggers. A missing `<Root>` is replaced by log4j2's default ERROR root with a console
    /// (and a WARN diagnostic); a missing `<Loggers>` (or one with two roots) leaves only that
    /// default root, while the appenders already built stay in [`Configuration::appenders`]
    /// unreferenced, as in log4j2 (which still starts them).
    pub loggers: LoggersSpec,
    /// The wait strategy of the AsyncLogger queue that the factory named by the last buildable
    /// `<AsyncWaitStrategyFactory class="…"/>` created (see [`crate::wait_strategy`]); `None`
    /// when no element named a registered factory, and the wait strategy properties decide.
    pub async_wait_strategy: Option<WaitStrategy>,
    /// The substitutor holding this configuration's properties, for per-event lookups.
    pub substitutor: Arc<dyn Interpolator>,
    /// Everything that went wrong or was adjusted while loading, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// True when this is log4j2's default configuration (no file, or a file that could not be used).
    pub is_default: bool,
}

impl std::fmt::Debug for Configuration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Configuration")
            .field("source", &self.source)
            .field("name", &self.name)
            .field("status", &self.status)
            .field("appenders", &self.appenders)
            .field("filter", &self.filter)
            .field("loggers", &self.loggers)
            .field("async_wait_strategy", &self.async_wait_strategy)
            .field("diagnostics", &self.diagnostics)
            .field("is_default", &self.is_default)
            .finish_non_exhaustive()
    }
}

impl Configuration {
    /// The appender with this name.
    pub fn appender(&self, name: &str) -> Option<&AppenderSpec> {
        self.appenders.iter().find(|appender| appender.name == name)
    }

    /// The diagnostics at least as severe as `severity` (`Error` < `Warning` < `Info`).
    pub fn diagnostics_at_least(
        &self,
        severity: crate::Severity,
    ) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(move |d| d.severity <= severity)
    }
}

/// `<Loggers>`.
#[derive(Clone, Debug)]
pub struct LoggersSpec {
    /// `<Root>` (or `<AsyncRoot>`).
    pub root: LoggerSpec,
    /// Every `<Logger>`, in document order; a later logger with the same name replaced an
    /// earlier one.
    pub loggers: Vec<LoggerSpec>,
}

/// `<Logger>` or `<Root>`.
#[derive(Clone, Debug)]
pub struct LoggerSpec {
    /// The logger name; `""` for the root logger.
    pub name: String,
    /// The `level` attribute; `None` inherits the nearest configured ancestor's level (root: ERROR).
    pub level: Option<Level>,
    /// The `additivity` attribute (default true).
    pub additivity: bool,
    /// The `includeLocation` attribute; `None` means log4j2's default (true for synchronous loggers).
    pub include_location: Option<bool>,
    /// True for `<AsyncLogger>` / `<AsyncRoot>`.
    pub asynchronous: bool,
    /// `<AppenderRef>` children.
    pub appender_refs: Vec<AppenderRefSpec>,
    /// The logger's filter (only DENY drops).
    pub filter: Option<FilterSpec>,
    /// Where the element is.
    pub position: Option<Position>,
}

impl LoggerSpec {
    /// A synchronous, additive logger config named `name` with `level` and nothing else: no
    /// appenders or filter of its own, log4j2's default location setting, no position (as a
    /// config made in code, such as `set_level` on a name without one).
    pub fn new(name: impl Into<String>, level: Option<Level>) -> LoggerSpec {
        LoggerSpec {
            name: name.into(),
            level,
            additivity: true,
            include_location: None,
            asynchronous: false,
            appender_refs: Vec::new(),
            filter: None,
            position: None,
        }
    }
}

/// `<AppenderRef ref="…" level="…">`.
#[derive(Clone, Debug)]
pub struct AppenderRefSpec {
    /// The referenced appender's name.
    pub appender: String,
    /// Events less severe than this are dropped for this reference only.
    pub level: Option<Level>,
    /// The reference's filter (only DENY drops).
    pub filter: Option<FilterSpec>,
    /// Where the element is.
    pub position: Option<Position>,
}

/// One appender, with the attributes every appender shares.
#[derive(Clone, Debug)]
pub struct AppenderSpec {
    /// The `name` attribute (required).
    pub name: String,
    /// The `ignoreExceptions` attribute (default true).
    pub ignore_exceptions: bool,
    /// The layout child; `None` means the appender's default (`PatternLayout` `%m%n`).
    pub layout: Option<LayoutSpec>,
    /// The appender's filter (only DENY drops).
    pub filter: Option<FilterSpec>,
    /// The appender type and its own attributes.
    pub kind: AppenderKind,
    /// Where the element is.
    pub position: Option<Position>,
}

/// The appender types and their attributes.
#[derive(Clone, Debug)]
pub enum AppenderKind {
    /// `<Console>`.
    Console(ConsoleSpec),
    /// `<File>`.
    File(FileSpec),
    /// `<RandomAccessFile>`.
    RandomAccessFile(RandomAccessFileSpec),
    /// `<MemoryMappedFile>`.
    MemoryMappedFile(MemoryMappedFileSpec),
    /// `<Async>`: a queue in front of other appenders.
    Async(AsyncAppenderSpec),
    /// `<RollingFile>`.
    RollingFile(RollingFileSpec),
    /// `<RollingRandomAccessFile>`.
    RollingRandomAccessFile(RollingRandomAccessFileSpec),
    /// `<RollingMemoryMappedFile>` (an l4rs extension: MemoryMappedFile with rollover).
    RollingMemoryMappedFile(RollingMemoryMappedFileSpec),
    /// `<Null>`: accepts every event and writes nothing.
    Null,
    /// `<CountingNoOp>`: counts the events it takes and writes nothing.
    CountingNoOp,
    /// `<Failover>`: the primary appender, and others in turn when it fails.
    Failover(FailoverSpec),
    /// `<Rewrite>`: changes each event with a policy, then passes it to other appenders.
    Rewrite(RewriteSpec),
    /// `<Socket>` or `<Syslog>`: events sent over TCP, UDP or TLS (boxed: it is several times
    /// the size of the other kinds).
    Socket(Box<SocketSpec>),
    /// `<Routing>`: each event goes to the appender of the route its key selects.
    Routing(RoutingSpec),
    /// `<Kafka>`: sends each event's layout bytes to a Kafka topic (built only with the `l4rs`
    /// crate's `kafka` feature).
    Kafka(KafkaSpec),
    /// `<SMTP>`: mails the events its filter lets through, each with the events before it that
    /// the filter kept back (boxed: it is several times the size of the other kinds).
    Smtp(Box<SmtpSpec>),
    /// `<Http>`: sends each event's layout bytes as the body of one HTTP request.
    Http(Box<HttpSpec>),
    /// `<JDBC>`: inserts one row per event into a database table (built only with the `l4rs`
    /// crate's `jdbc` feature; boxed: it is several times the size of the other kinds). Its
    /// [`AppenderSpec::layout`] is always `None`: log4j2 formats only `MapMessage`s with a JDBC
    /// appender's layout, and l4rs messages never are.
    Jdbc(Box<JdbcSpec>),
}

/// `<JDBC>` attributes, its connection source and its columns, with log4j2 2.19's defaults.
///
/// The statement is log4j2's: `insert into TABLE (COLUMNS) values (VALUES)`, the columns in
/// [`columns`](JdbcSpec::columns)' order, each value a `?` bound per event, or the column's
/// SQL text.
#[derive(Clone, Debug)]
pub struct JdbcSpec {
    /// `tableName` (required), written into the statement as given.
    pub table_name: String,
    /// The `<DriverManager>` (or `<PoolingDriver>`) child: where to connect.
    pub connection: JdbcConnectionSpec,
    /// The columns: every `<ColumnMapping>` in document order, then every `<Column>`, as
    /// log4j2 orders them in the statement.
    pub columns: Vec<JdbcColumnSpec>,
    /// `bufferSize` (default 0): with a positive size, rows are kept until that many are
    /// waiting (or an asynchronous stage's batch ends) and inserted in one transaction.
    pub buffer_size: u32,
    /// `reconnectIntervalMillis` (default 5000): how long after a failed connection attempt
    /// the next one is made; 0 or less: log4j2 does not retry, and l4rs tries again with the
    /// next event.
    pub reconnect_interval_millis: i64,
    /// `immediateFail` (default false): log4j2 waits for its reconnecting thread unless set;
    /// l4rs never makes the caller wait for a reconnection either way (kept for `l4rs check`).
    pub immediate_fail: bool,
    /// `truncateStrings` (default true): text longer than its column's declared length is cut
    /// to it (where the database declares one).
    pub truncate_strings: bool,
}

/// Where a `<JDBC>` appender connects: `<DriverManager>`'s (or `<PoolingDriver>`'s)
/// attributes and `<Property>` children.
#[derive(Clone, PartialEq, Eq)]
pub struct JdbcConnectionSpec {
    /// `connectionString` (required): a JDBC URL, `jdbc:sqlite:…` or `jdbc:postgresql:…` for
    /// the databases l4rs reaches.
    pub connection_string: String,
    /// `userName`.
    pub user_name: Option<String>,
    /// `password` (never printed by `Debug`).
    pub password: Option<String>,
    /// `driverClassName`: the Java driver class, which l4rs does not load (it chooses its
    /// driver by the URL's scheme).
    pub driver_class_name: Option<String>,
    /// The `<Property name="…">` children in document order: the driver's connection
    /// properties (log4j2 refuses them together with `userName` or `password`).
    pub properties: Vec<(String, String)>,
    /// The element the source was written as (`DriverManager` or `PoolingDriver`).
    pub element: String,
}

impl std::fmt::Debug for JdbcConnectionSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The password stays out of status lines and test output.
        f.debug_struct("JdbcConnectionSpec")
            .field(
                "connection_string",
                &crate::jdbc_url::masked(&self.connection_string),
            )
            .field("user_name", &self.user_name)
            .field("password", &self.password.as_ref().map(|_| "***"))
            .field("driver_class_name", &self.driver_class_name)
            .field("properties", &self.properties.len())
            .field("element", &self.element)
            .finish()
    }
}

/// One column of a `<JDBC>` appender's statement.
#[derive(Clone, Debug)]
pub struct JdbcColumnSpec {
    /// The column's name, written into the statement as given.
    pub name: String,
    /// What the column receives for each event.
    pub value: JdbcColumnValue,
}

/// What a `<JDBC>` column receives for each event.
#[derive(Clone, Debug)]
// The layout makes `Text` several times the size of the other variants; a configuration holds
// a handful of columns, built once, so boxing it would only add a step for every reader.
#[allow(clippy::large_enum_variant)]
pub enum JdbcColumnValue {
    /// `literal`: SQL text written into the statement's `values (…)` in place of a parameter
    /// (e.g. `CURRENT_TIMESTAMP` or `'constant'`); nothing is bound.
    Literal(String),
    /// The event's text by a layout (`pattern` is a PatternLayout that does not append the
    /// exception; a `<ColumnMapping>` may hold any layout), bound as text.
    Text {
        /// The layout.
        layout: LayoutSpec,
        /// How the value is bound.
        binding: JdbcTextBinding,
        /// `<ColumnMapping parameter>`: SQL text written in place of the `?` (it holds the `?`
        /// itself, e.g. `CAST(? AS json)`).
        parameter: Option<String>,
    },
    /// `isEventTimestamp="true"` or a `<ColumnMapping>` of a `java.util.Date` type: the
    /// event's time as a timestamp.
    EventTimestamp {
        /// `<ColumnMapping parameter>`, as for [`JdbcColumnValue::Text`].
        parameter: Option<String>,
    },
    /// A `<ColumnMapping>` with neither layout nor literal and a plain type: log4j2 fills it
    /// from a `MapMessage`'s value of that key; l4rs messages are never `MapMessage`s, so the
    /// column gets NULL.
    MapMessageValue {
        /// `<ColumnMapping parameter>`, as for [`JdbcColumnValue::Text`].
        parameter: Option<String>,
    },
}

/// How a `<JDBC>` column's text is bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JdbcTextBinding {
    /// Text (`<Column>`'s default and `isUnicode`; a `<ColumnMapping>` of type `String`).
    Text,
    /// Text bound as a character large object (`<Column isClob="true">`, a `<ColumnMapping>` of
    /// type `java.sql.Clob` or `NClob`): stored as text, and never cut by `truncateStrings`, as
    /// log4j2 cuts only what it binds as a string.
    Clob,
    /// A `<ColumnMapping>` whose `type` is a Java number class (or its primitive): the text
    /// parsed as that class parses it (NULL when it does not parse, as log4j2's converters
    /// give null), then bound as log4j2's drivers store an object of that class.
    Number(JavaNumber),
    /// A `<ColumnMapping>` of type `java.lang.Boolean`: `true` (any case) or false.
    Boolean,
}

/// The Java number classes a `<ColumnMapping type>` can name: each parses text its own way
/// (log4j2 calls `Integer.valueOf`, `Long.valueOf`, …, `new BigInteger(s)`, `Double.valueOf`,
/// `Float.valueOf`, `new BigDecimal(s)`), and the JDBC drivers store each differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JavaNumber {
    /// `java.lang.Integer` (or `int`): a 32-bit whole number.
    Integer,
    /// `java.lang.Long` (or `long`): a 64-bit whole number.
    Long,
    /// `java.lang.Short` (or `short`): a 16-bit whole number.
    Short,
    /// `java.lang.Byte` (or `byte`): an 8-bit whole number.
    Byte,
    /// `java.math.BigInteger`: a whole number of any size.
    BigInteger,
    /// `java.lang.Double` (or `double`): a 64-bit binary floating-point number.
    Double,
    /// `java.lang.Float` (or `float`): a 32-bit binary floating-point number.
    Float,
    /// `java.math.BigDecimal`: a decimal number of any size with its scale.
    BigDecimal,
}

impl JavaNumber {
    /// The class's name, as log4j2's messages print it after `class `.
    pub fn class_name(self) -> &'static str {
        match self {
            JavaNumber::Integer => "java.lang.Integer",
            JavaNumber::Long => "java.lang.Long",
            JavaNumber::Short => "java.lang.Short",
            JavaNumber::Byte => "java.lang.Byte",
            JavaNumber::BigInteger => "java.math.BigInteger",
            JavaNumber::Double => "java.lang.Double",
            JavaNumber::Float => "java.lang.Float",
            JavaNumber::BigDecimal => "java.math.BigDecimal",
        }
    }
}

/// `<Http>` attributes, its `<Property>` headers and its `<Ssl>` child, with log4j2 2.19's
/// defaults. The layout is required (log4j2 has no default for it) and is the appender's own,
/// in [`AppenderSpec`].
#[derive(Clone, PartialEq, Eq)]
pub struct HttpSpec {
    /// `url` as written (after configuration-time substitution), for messages.
    pub url: String,
    /// Whether the scheme is `https`.
    pub https: bool,
    /// The URL's host: a name, an IPv4 address or a bracketed IPv6 address (`[::1]`). Empty
    /// when the URL names none, which fails each send as Java does.
    pub host: String,
    /// The URL's port, or `None` for the scheme's (80, 443). Java accepts any `int` here;
    /// one above 65535 fails each send.
    pub port: Option<u32>,
    /// What the request line asks for: the path and query (`/` when the URL has no path).
    pub target: String,
    /// `method` (default `POST`).
    pub method: String,
    /// `connectTimeoutMillis` (default 0: l4rs's own limit; see the appender).
    pub connect_timeout_millis: i32,
    /// `readTimeoutMillis` (default 0: l4rs's own limit; see the appender).
    pub read_timeout_millis: i32,
    /// The `<Property name="…" value="…"/>` children: request headers, in document order. A
    /// value that still holds `${` after configuration-time substitution (written `$${…}` in
    /// the file) is resolved for every event.
    pub headers: Vec<(String, String)>,
    /// The `<Ssl>` child: the trust store (and client key) of an `https` URL.
    pub ssl: Option<SslSpec>,
    /// `verifyHostname` (default true): the server's certificate must name the URL's host.
    pub verify_hostname: bool,
}

impl std::fmt::Debug for HttpSpec {
    /// Prints the header names only and the URL without its user information: both often
    /// carry credentials (`Authorization`, `user:password@`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let header_names: Vec<&str> = self.headers.iter().map(|(name, _)| name.as_str()).collect();
        let url = match (self.url.find("://"), self.url.rfind('@')) {
            (Some(scheme_end), Some(at)) if at > scheme_end => {
                format!("{}://…@{}", &self.url[..scheme_end], &self.url[at + 1..])
            }
            _ => self.url.clone(),
        };
        f.debug_struct("HttpSpec")
            .field("url", &url)
            .field("https", &self.https)
            .field("host", &self.host)
            .field("port", &self.port)
            .field("target", &self.target)
            .field("method", &self.method)
            .field("connect_timeout_millis", &self.connect_timeout_millis)
            .field("read_timeout_millis", &self.read_timeout_millis)
            .field("header_names", &header_names)
            .field("ssl", &self.ssl)
            .field("verify_hostname", &self.verify_hostname)
            .finish()
    }
}

/// `<SMTP>` attributes and its `<Ssl>` child, with log4j2 2.19's defaults. The layout (default:
/// an HtmlLayout with its defaults) and the filter (default: a ThresholdFilter at ERROR that
/// is NEUTRAL on a match and DENY otherwise) are the appender's own, in [`AppenderSpec`].
#[derive(Clone, PartialEq, Eq)]
pub struct SmtpSpec {
    /// `to`: comma-separated recipients (RFC 822 addresses).
    pub to: Option<String>,
    /// `cc`: comma-separated copy recipients.
    pub cc: Option<String>,
    /// `bcc`: comma-separated blind copy recipients.
    pub bcc: Option<String>,
    /// `from`: the sender's address.
    pub from: Option<String>,
    /// `replyTo`: comma-separated reply addresses.
    pub reply_to: Option<String>,
    /// `subject`: a PatternLayout pattern formatted with the event that sends the mail.
    pub subject: Option<String>,
    /// `smtpProtocol` (default `smtp`; an empty value is `smtp` too): `smtp`, or `smtps` for
    /// TLS from the first byte. Any other value is refused when a mail is sent, as JavaMail
    /// refuses it.
    pub protocol: String,
    /// `smtpHost`: the server (default: this machine's host name, as log4j2's `mail.host`).
    pub host: Option<String>,
    /// `smtpPort` (default 0: 25 for `smtp`, 465 for `smtps`).
    pub port: u16,
    /// `smtpUsername`: with a password, the account to log in with.
    pub username: Option<String>,
    /// `smtpPassword` (never printed).
    pub password: Option<String>,
    /// `smtpDebug`: the SMTP conversation is printed to stderr.
    pub debug: bool,
    /// `bufferSize` (default 512): how many events the filter kept back are mailed with the
    /// next one it lets through (the most recent ones).
    pub buffer_size: usize,
    /// The `<Ssl>` child: the trust store an `smtps` server is verified with.
    pub ssl: Option<SslSpec>,
    /// log4j2's name for the appender's manager, which starts its messages about sending:
    /// `SMTP:to:cc:bcc:from:replyTo:subject:protocol:host:port:username::filter`.
    pub manager_name: String,
}

impl std::fmt::Debug for SmtpSpec {
    /// Never prints the password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpSpec")
            .field("to", &self.to)
            .field("cc", &self.cc)
            .field("bcc", &self.bcc)
            .field("from", &self.from)
            .field("reply_to", &self.reply_to)
            .field("subject", &self.subject)
            .field("protocol", &self.protocol)
            .field("host", &self.host)
            .field("port", &self.port)
            .field("username", &self.username)
            .field("debug", &self.debug)
            .field("buffer_size", &self.buffer_size)
            .field("ssl", &self.ssl)
            .finish_non_exhaustive()
    }
}

/// `<Kafka>` attributes and producer properties, with log4j2 2.24's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KafkaSpec {
    /// `topic` (required).
    pub topic: String,
    /// `key`: the record key; a value that still holds `${` after configuration-time
    /// substitution (written `$${…}` in the file) is resolved for every event.
    pub key: Option<String>,
    /// `syncSend` (default true): wait for the broker's acknowledgement before returning.
    pub sync_send: bool,
    /// `sendEventTimestamp` (default false): the record's timestamp is the event's time rather
    /// than the producer's.
    pub send_event_timestamp: bool,
    /// `retryCount` (default 0): how many more times a failed send is tried.
    pub retry_count: u32,
    /// The `<Property name="…">` children, in document order: the producer's configuration
    /// (Java client names; the appender maps them onto its client's).
    pub properties: Vec<(String, String)>,
}

/// `<Routing>`'s routes and purge policy.
#[derive(Clone, Debug)]
pub struct RoutingSpec {
    /// `<Routes pattern>` after configuration-time substitution: what is left of `${…}` (written
    /// `$${…}` in the file) is resolved for every event, and the result is the event's key.
    /// `None` without a pattern: every event takes the default route.
    pub pattern: Option<String>,
    /// The `<Route>` children that could be built, in document order.
    pub routes: Vec<RouteSpec>,
    /// `<IdlePurgePolicy>`: when the appenders a route created are stopped for being idle.
    pub purge_policy: Option<IdlePurgePolicySpec>,
    /// A rewrite policy child (`PropertiesRewritePolicy`…): applied to each event before its
    /// key is computed, as log4j2's RoutingAppender applies its `rewritePolicy`.
    pub rewrite_policy: Option<RewritePolicySpec>,
}

impl RoutingSpec {
    /// The default route: the first route without a key (log4j2 ignores later ones, with an
    /// error when the appender is built).
    pub fn default_route(&self) -> Option<&RouteSpec> {
        self.routes.iter().find(|route| route.key.is_none())
    }

    /// The appenders the routes refer to by name (`<Route ref="…">`).
    pub fn referenced(&self) -> impl Iterator<Item = &str> {
        self.routes.iter().filter_map(|route| match &route.target {
            RouteTarget::Ref(name) => Some(name.as_str()),
            RouteTarget::Inline(_) => None,
        })
    }
}

impl std::fmt::Display for RoutingSpec {
    /// What `l4rs check` shows: the key, each route in the order an event's key is matched,
    /// and the purge policy, one per line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.pattern {
            Some(pattern) => writeln!(f, "key: {pattern} (substituted for every event)")?,
            None => writeln!(f, "key: none (every event takes the default route)")?,
        }
        let default = self.default_route();
        for route in &self.routes {
            let is_default = default.is_some_and(|d| std::ptr::eq(d, route));
            let key = match &route.key {
                Some(key) => format!("'{key}'"),
                None if is_default => "any other key".to_string(),
                None => "ignored second default".to_string(),
            };
            let target = match &route.target {
                RouteTarget::Ref(name) => format!("appender {name}"),
                RouteTarget::Inline(inline) => format!(
                    "a new {} per key, built by the key's first event",
                    inline.element_name().unwrap_or("(no appender element)")
                ),
            };
            writeln!(f, "  {key} -> {target}")?;
        }
        if default.is_none() {
            writeln!(f, "  any other key -> dropped (no default route)")?;
        }
        if let Some(policy) = &self.purge_policy {
            writeln!(
                f,
                "  idle per-key appenders stopped after {} ms (looked at again after {} ms when none is left)",
                policy.time_to_live_ms, policy.check_interval_ms
            )?;
        }
        Ok(())
    }
}

/// One `<Route>`.
#[derive(Clone, Debug)]
pub struct RouteSpec {
    /// `key` (substituted at configuration time); `None` for the default route.
    pub key: Option<String>,
    /// Where the route's events go.
    pub target: RouteTarget,
    /// Where the element is.
    pub position: Position,
}

impl std::fmt::Display for RouteSpec {
    /// log4j2's `Route.toString`: `Route(type=static Reference=A key='k')`, or
    /// `Route(type=dynamic - type=Route default)` for an inline appender (log4j2 prints the
    /// route node's own name there).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.target {
            RouteTarget::Ref(name) => write!(f, "Route(type=static Reference={name}")?,
            RouteTarget::Inline(inline) => {
                write!(f, "Route(type=dynamic - type={}", inline.route_name)?
            }
        }
        match &self.key {
            Some(key) => write!(f, " key='{key}')"),
            None => f.write_str(" default)"),
        }
    }
}

/// Where a route sends its events.
#[derive(Clone, Debug)]
pub enum RouteTarget {
    /// `ref="Name"`: an appender of the configuration, shared with everything else using it.
    Ref(String),
    /// An appender element inside the route, built for the first event of each key that
    /// takes the route (see [`InlineAppender`]).
    Inline(Box<InlineAppender>),
}

/// The appender element inside a `<Route>`, kept unbuilt: log4j2 builds a copy of it for the
/// first event of each key, substituting its `${…}` with that event (`${ctx:user}` is the
/// event's `user`), and keeps that appender for the key. `l4rs_config` builds it with
/// [`InlineAppender::build`].
#[derive(Clone, Debug)]
pub struct InlineAppender {
    /// The element, as written (nothing substituted).
    pub(crate) node: crate::load::InlineNode,
    /// The name of the route element (`Route`, as written), for messages.
    pub(crate) route_name: String,
    /// The configuration's properties and lookups.
    pub(crate) substitutor: crate::Substitutor,
    /// The configuration file, for diagnostics.
    pub(crate) file: Option<PathBuf>,
}

/// `<IdlePurgePolicy timeToLive checkInterval timeUnit>`, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdlePurgePolicySpec {
    /// An appender a route created is stopped once no event used it for this long.
    pub time_to_live_ms: u64,
    /// How long to wait before looking again when no created appender is left.
    pub check_interval_ms: u64,
}

/// The transport of a `<Socket>` or `<Syslog>` appender (log4j2's `Protocol`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SocketProtocol {
    /// A TCP stream (the default).
    Tcp,
    /// One UDP datagram per event.
    Udp,
    /// TLS over TCP.
    Ssl,
    /// RELP, the Reliable Event Logging Protocol (rsyslog's `imrelp`), over TCP, or over TLS
    /// with an `<Ssl>` child: every event is acknowledged by the receiver. An l4rs extension;
    /// log4j2's `Protocol` has no such constant.
    Relp,
}

impl SocketProtocol {
    /// The prefix of log4j2's manager name (`TCP:host:port`, `UDP:…`, `TLS:…`; l4rs's
    /// `RELP:…`, or `RELP-TLS:…` when `tls`).
    pub fn manager_prefix(self, tls: bool) -> &'static str {
        match self {
            SocketProtocol::Tcp => "TCP",
            SocketProtocol::Udp => "UDP",
            SocketProtocol::Ssl => "TLS",
            SocketProtocol::Relp if tls => "RELP-TLS",
            SocketProtocol::Relp => "RELP",
        }
    }
}

/// `<Socket>` / `<Syslog>` attributes, with log4j2's defaults applied the way its socket
/// managers apply them (port 0: 4560 for TCP, 6514 for SSL, 20514 for RELP; reconnection delay
/// 0: 30000 ms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SocketSpec {
    /// `Socket` or `Syslog`: the element, for messages.
    pub element: &'static str,
    /// `host` (default `localhost`).
    pub host: String,
    /// `port`, after the managers' defaults.
    pub port: u16,
    /// `protocol` (default TCP; TCP with an `<Ssl>` child becomes SSL, as in log4j2; RELP with
    /// an `<Ssl>` child is RELP over TLS).
    pub protocol: SocketProtocol,
    /// `connectTimeoutMillis` (default 0). l4rs bounds each connection attempt and each TCP
    /// write with it, 10 s for 0 (see docs/appenders.md).
    pub connect_timeout_millis: u32,
    /// `reconnectionDelayMillis` and its aliases, 0 replaced by 30000. A negative delay is
    /// kept, as log4j2 keeps it: the connection is then never re-made once it is lost.
    pub reconnect_delay_millis: i32,
    /// `immediateFail` (default true): while disconnected, an event fails at once instead of
    /// waiting for the next reconnection attempt.
    pub immediate_fail: bool,
    /// `immediateFlush` (default true; UDP always sends each event at once).
    pub immediate_flush: bool,
    /// `bufferedIo` (default true).
    pub buffered_io: bool,
    /// `bufferSize` (default 8192; Syslog always uses 8192).
    pub buffer_size: usize,
    /// The `<Ssl>` child (alias `<SslConfig>`, `<SslConfiguration>`).
    pub ssl: Option<SslSpec>,
    /// The `<SocketOptions>` child: applied to every TCP/TLS connection, as log4j2 applies
    /// them (UDP ignores them, as log4j2's datagram manager does).
    pub socket_options: Option<SocketOptionsSpec>,
}

/// `<SocketOptions>`: each option that is given is set on the connection; the others keep the
/// OS's defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SocketOptionsSpec {
    /// `keepAlive` (`SO_KEEPALIVE`).
    pub keep_alive: Option<bool>,
    /// `oobInline` (`SO_OOBINLINE`).
    pub oob_inline: Option<bool>,
    /// `reuseAddress` (`SO_REUSEADDR`).
    pub reuse_address: Option<bool>,
    /// `receiveBufferSize` (`SO_RCVBUF`).
    pub receive_buffer_size: Option<i32>,
    /// `sendBufferSize` (`SO_SNDBUF`).
    pub send_buffer_size: Option<i32>,
    /// `soLinger` in seconds (`SO_LINGER` on).
    pub so_linger: Option<i32>,
    /// `soTimeout`: Java's read timeout; l4rs never reads, so it changes nothing.
    pub so_timeout: Option<i32>,
    /// `tcpNoDelay` (`TCP_NODELAY`).
    pub tcp_no_delay: Option<bool>,
    /// `trafficClass`, else the value of `rfc1349TrafficClass` (`IP_TOS`).
    pub traffic_class: Option<i32>,
}

/// `<Ssl>`: log4j2's `SslConfiguration`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SslSpec {
    /// `protocol` (default `TLS`): the TLS versions offered (`TLSv1.2`, `TLSv1.3`; `TLS` and
    /// `SSL` offer both).
    pub protocol: Option<String>,
    /// `<KeyStore>`: the client certificate and key.
    pub key_store: Option<StoreSpec>,
    /// `<TrustStore>`: the certificates that may sign the server's; none trusts nothing, as
    /// l4rs has no JVM default trust store to fall back on.
    pub trust_store: Option<StoreSpec>,
    /// `verifyHostName` (default false): the server certificate must name `host`.
    pub verify_host_name: bool,
}

/// `<KeyStore>` or `<TrustStore>`.
#[derive(Clone, PartialEq, Eq)]
pub struct StoreSpec {
    /// `location`: a file path (or `file:` URI).
    pub location: Option<String>,
    /// Where the password comes from.
    pub password: StorePassword,
    /// `type` (default PKCS12; `PEM` is an l4rs extension; `JKS` is refused when loaded).
    pub store_type: String,
    /// Where the element is (for messages when the store is loaded).
    pub position: Option<Position>,
}

impl std::fmt::Debug for StoreSpec {
    /// Never prints the password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreSpec")
            .field("location", &self.location)
            .field("store_type", &self.store_type)
            .finish_non_exhaustive()
    }
}

/// How a store's password is given: log4j2 allows exactly one of the three attributes.
#[derive(Clone, PartialEq, Eq)]
pub enum StorePassword {
    /// No password.
    None,
    /// `password`.
    Literal(String),
    /// `passwordEnvironmentVariable`: read when the store is loaded.
    Environment(String),
    /// `passwordFile`: the first line of the file, read when the store is loaded.
    File(String),
}

/// `<Rewrite>`'s references and policy.
#[derive(Clone, Debug)]
pub struct RewriteSpec {
    /// `<AppenderRef>` children: where the rewritten event goes, each with its own level and
    /// filter. None is allowed (log4j2 builds the appender; it writes nothing).
    pub appender_refs: Vec<AppenderRefSpec>,
    /// The rewrite policy; `None` passes events unchanged.
    pub policy: Option<RewritePolicySpec>,
}

/// A rewrite policy of `<Rewrite>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RewritePolicySpec {
    /// `MapRewritePolicy mode` with `<KeyValuePair>` children. log4j2 rewrites only events whose
    /// message is a `MapMessage`, which l4rs messages never are: events pass unchanged.
    Map {
        /// `mode`: `Add` (default) or `Update`.
        mode: MapRewriteMode,
        /// The pairs, in document order.
        pairs: Vec<(String, String)>,
    },
    /// `PropertiesRewritePolicy` with `<Property name>` children: each is set in the event's
    /// context map; a value that still holds `${` after configuration-time substitution is
    /// resolved again for every event.
    Properties(Vec<(String, String)>),
    /// `LoggerNameLevelRewritePolicy logger` with `<KeyValuePair key="LEVEL" value="LEVEL">`
    /// children: events of loggers whose name starts with `logger` get their level mapped.
    LoggerNameLevel {
        /// The logger-name prefix.
        logger: String,
        /// Level → new level (pairs naming an unknown level were left out, as they never
        /// match in log4j2).
        levels: Vec<(Level, Level)>,
    },
}

/// `MapRewritePolicy mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapRewriteMode {
    /// Keys are added or replaced.
    Add,
    /// Only keys already present are replaced.
    Update,
}

/// `<Failover>` attributes and references, with log4j2's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailoverSpec {
    /// `primary` (required): the appender tried first. It must have `ignoreExceptions="false"`
    /// for its failures to be seen.
    pub primary: String,
    /// The `<Failovers><AppenderRef ref/></Failovers>` names, in order (at least one).
    pub failovers: Vec<String>,
    /// `retryIntervalSeconds` (alias `retryInterval`, default 60): after the primary failed,
    /// events go straight to the failovers for this long before it is tried again.
    pub retry_interval_seconds: u64,
}

/// `<Async>` attributes and references, with log4j2's defaults.
#[derive(Clone, Debug)]
pub struct AsyncAppenderSpec {
    /// `<AppenderRef>` children (at least one): the appenders the queue feeds, each with its
    /// own optional level and filter.
    pub appender_refs: Vec<AppenderRefSpec>,
    /// `errorRef` (alias `error-ref`): the appender that gets the events a full non-blocking
    /// queue cannot take, and those every referenced appender failed to write.
    pub error_ref: Option<String>,
    /// `bufferSize`: the queue's capacity in events (default 1024; a value below 1 counts as 1).
    pub buffer_size: usize,
    /// `blocking` (default true): a full queue waits (or applies the queue-full policy); false
    /// hands the event to `errorRef` or drops it.
    pub blocking: bool,
    /// `shutdownTimeout` in milliseconds (default 0: wait until the queue is drained).
    pub shutdown_timeout_ms: u64,
    /// `includeLocation` (default false): keep the caller's location in the queued copy.
    pub include_location: bool,
    /// How the queue's thread waits while the queue is empty, after the queue factory child
    /// (`<DisruptorBlockingQueue spinPolicy>`, `<JCToolsBlockingQueue waitStrategy>`); the
    /// default without one.
    pub wait_strategy: WaitStrategy,
}

/// `<Console>` attributes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsoleSpec {
    /// `target`: SYSTEM_OUT (default) or SYSTEM_ERR.
    pub target: ConsoleTarget,
    /// `follow` (default false).
    pub follow: bool,
    /// `direct` (default false).
    pub direct: bool,
}

/// Where a console appender writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConsoleTarget {
    /// Standard output.
    SystemOut,
    /// Standard error.
    SystemErr,
}

/// `<File>` attributes, with log4j2's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileSpec {
    /// `fileName` (required).
    pub file_name: String,
    /// `append` (default true; false truncates when the appender is built).
    pub append: bool,
    /// `bufferedIo` (default true; turned off by `locking`).
    pub buffered_io: bool,
    /// `bufferSize` (default 8192).
    pub buffer_size: usize,
    /// `immediateFlush` (default true).
    pub immediate_flush: bool,
    /// `locking` (default false).
    pub locking: bool,
    /// `createOnDemand` (default false).
    pub create_on_demand: bool,
    /// `filePermissions`, e.g. `rw-r-----`.
    pub file_permissions: Option<String>,
    /// `fileOwner`.
    pub file_owner: Option<String>,
    /// `fileGroup`.
    pub file_group: Option<String>,
}

impl FileSpec {
    /// Turns buffering off when `locking` is on, as log4j2's `FileAppender` builder does, and
    /// returns the builder's warning when it did.
    pub fn give_locking_precedence(&mut self) -> Option<String> {
        if !(self.locking && self.buffered_io) {
            return None;
        }
        self.buffered_io = false;
        Some(format!(
            "Locking and buffering are mutually exclusive. No buffering will occur for {}",
            self.file_name
        ))
    }
}

/// `<RandomAccessFile>` attributes, with log4j2's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomAccessFileSpec {
    /// `fileName` (required).
    pub file_name: String,
    /// `append` (default true).
    pub append: bool,
    /// `immediateFlush` (default true).
    pub immediate_flush: bool,
    /// `bufferSize` (default 262144).
    pub buffer_size: usize,
}

/// `<MemoryMappedFile>` attributes, with log4j2's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryMappedFileSpec {
    /// `fileName` (required).
    pub file_name: String,
    /// `append` (default true).
    pub append: bool,
    /// `immediateFlush` (accepted; log4j2 ignores it).
    pub immediate_flush: bool,
    /// `regionLength` as written (default 33554432); clamping and rounding happen in the appender.
    pub region_length: i64,
}

/// What the three rolling appenders share: where they write, when they roll and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollingSpec {
    /// `fileName`; `None` writes straight to the files `filePattern` names (direct write).
    pub file_name: Option<String>,
    /// `filePattern` (required).
    pub file_pattern: crate::rolling::FilePattern,
    /// The triggering policies (several under `<Policies>`; at least one).
    pub policies: Vec<TriggeringPolicySpec>,
    /// The rollover strategy (the default one depends on whether `fileName` is given).
    pub strategy: RolloverStrategySpec,
    /// `filePermissions`, e.g. `rw-r-----`.
    pub file_permissions: Option<String>,
    /// `fileOwner`.
    pub file_owner: Option<String>,
    /// `fileGroup`.
    pub file_group: Option<String>,
    /// The appender's `maxRandomDelay` in seconds (default 0): the work a rollover leaves for
    /// later (compression, `<Delete>`) waits a random 0 to this many seconds.
    pub max_random_delay_seconds: u64,
}

/// `<RollingFile>` attributes, with log4j2's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollingFileSpec {
    /// The rolling attributes and children.
    pub rolling: RollingSpec,
    /// `append` (default true).
    pub append: bool,
    /// `bufferedIo` (default true).
    pub buffered_io: bool,
    /// `bufferSize` (default 8192).
    pub buffer_size: usize,
    /// `immediateFlush` (default true).
    pub immediate_flush: bool,
    /// `createOnDemand` (default false).
    pub create_on_demand: bool,
}

/// `<RollingRandomAccessFile>` attributes, with log4j2's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollingRandomAccessFileSpec {
    /// The rolling attributes and children.
    pub rolling: RollingSpec,
    /// `append` (default true).
    pub append: bool,
    /// `immediateFlush` (default true).
    pub immediate_flush: bool,
    /// `bufferSize` (default 262144).
    pub buffer_size: usize,
}

/// `<RollingMemoryMappedFile>` attributes: MemoryMappedFile's, with rollover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollingMemoryMappedFileSpec {
    /// The rolling attributes and children.
    pub rolling: RollingSpec,
    /// `append` (default true).
    pub append: bool,
    /// `immediateFlush` (accepted; as for MemoryMappedFile it changes nothing).
    pub immediate_flush: bool,
    /// `regionLength` as written (default 33554432).
    pub region_length: i64,
}

/// A triggering policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TriggeringPolicySpec {
    /// `SizeBasedTriggeringPolicy`: rolls before an event when the file holds more than `size`
    /// bytes (default 10 MB).
    Size {
        /// The limit in bytes.
        max_size: u64,
    },
    /// `TimeBasedTriggeringPolicy`: rolls when an event's time reaches the next period.
    Time {
        /// `interval` in units of the `%d` pattern's smallest unit (default 1).
        interval: u32,
        /// `modulate` (default false): align rollovers to multiples of the interval.
        modulate: bool,
        /// `maxRandomDelay` in seconds (default 0): a random delay added to each boundary.
        max_random_delay_seconds: u64,
    },
    /// `OnStartupTriggeringPolicy`: rolls once when the appender starts, if the file predates
    /// the process and holds at least `min_size` bytes (default 1).
    OnStartup {
        /// `minSize`, as written: 0 archives an empty file too; a negative value, as in
        /// log4j2, rolls every file that predates the process, an empty one being deleted.
        min_size: i64,
    },
    /// `CronTriggeringPolicy`: rolls on a schedule, events or not.
    Cron {
        /// `schedule` (default `0 0 0 * * ?`, daily at midnight).
        schedule: crate::rolling::CronExpression,
        /// `evaluateOnStartup` (default false): roll at start when a fire time passed since the
        /// file was last written.
        evaluate_on_startup: bool,
    },
}

/// `DefaultRolloverStrategy fileIndex`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileIndexOrder {
    /// `max` (default): the newest archive has the highest index.
    Max,
    /// `min`: the newest archive has the lowest index, older ones move up.
    Min,
    /// `nomax`: the next index is the highest existing one plus one; nothing is deleted.
    NoMax,
}

/// The rollover strategy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RolloverStrategySpec {
    /// `DefaultRolloverStrategy`: the current file is renamed to the pattern's name.
    Default {
        /// `max` (default 7).
        max: u32,
        /// `min` (default 1).
        min: u32,
        /// `fileIndex` (default `max`).
        file_index: FileIndexOrder,
        /// `compressionLevel` 0–9, or -1 for the codec's default (the default).
        compression_level: i32,
        /// Actions run after each rollover, off the logging threads.
        actions: Vec<ActionSpec>,
    },
    /// `DirectWriteRolloverStrategy`: events go straight to the pattern's file.
    DirectWrite {
        /// `maxFiles` (default unlimited).
        max_files: Option<u32>,
        /// `compressionLevel`.
        compression_level: i32,
        /// Actions run after each rollover, off the logging threads.
        actions: Vec<ActionSpec>,
    },
}

/// An action of a rollover strategy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionSpec {
    /// `<Delete>`.
    Delete(DeleteSpec),
    /// `<PosixViewAttribute>`.
    PosixViewAttribute(PosixViewAttributeSpec),
}

/// `<PosixViewAttribute>`: sets the permissions, owner and group of the files under `basePath`
/// that every condition accepts (all of them without a condition).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PosixViewAttributeSpec {
    /// `basePath` (required, not empty).
    pub base_path: String,
    /// `maxDepth` (default 1: the files directly in `basePath`).
    pub max_depth: u32,
    /// `followLinks` (default false).
    pub follow_links: bool,
    /// The conditions; a file is changed when all accept it.
    pub conditions: Vec<PathConditionSpec>,
    /// `filePermissions` (`rw-r-----`) as mode bits.
    pub permissions: Option<u32>,
    /// `fileOwner`: a user name (or number).
    pub owner: Option<String>,
    /// `fileGroup`: a group name (or number).
    pub group: Option<String>,
}

/// `<Delete>`: deletes the files under `basePath` that every condition accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeleteSpec {
    /// `basePath` (required).
    pub base_path: String,
    /// `maxDepth` (default 1: the files directly in `basePath`).
    pub max_depth: u32,
    /// `followLinks` (default false).
    pub follow_links: bool,
    /// `testMode` (default false): report at INFO what would be deleted, delete nothing.
    pub test_mode: bool,
    /// The conditions; a file is deleted when all accept it.
    pub conditions: Vec<PathConditionSpec>,
    /// `SortByModificationTime recentFirst` (default true): the order files are offered
    /// to the conditions in.
    pub recent_first: bool,
}

/// A condition of `<Delete>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathConditionSpec {
    /// `IfFileName glob|regex`: the path relative to `basePath` matches. `regex` is the
    /// anchored expression in the `regex` crate's syntax (Java regexes and globs are
    /// translated).
    FileName {
        /// The regular expression, in the `regex` crate's syntax.
        regex: String,
        /// Nested conditions, all of which must accept too.
        nested: Vec<PathConditionSpec>,
    },
    /// `IfLastModified age`: the file is at least this old.
    LastModified {
        /// The age in milliseconds.
        age_millis: u64,
        /// Nested conditions.
        nested: Vec<PathConditionSpec>,
    },
    /// `IfAccumulatedFileCount exceeds`: true from the (exceeds+1)-th file in sort order.
    AccumulatedFileCount {
        /// The count kept.
        exceeds: u64,
        /// Nested conditions.
        nested: Vec<PathConditionSpec>,
    },
    /// `IfAccumulatedFileSize exceeds`: true once the sizes so far add up to more than this.
    AccumulatedFileSize {
        /// The size kept, in bytes.
        exceeds: u64,
        /// Nested conditions.
        nested: Vec<PathConditionSpec>,
    },
    /// `IfAll`: every child accepts.
    All(Vec<PathConditionSpec>),
    /// `IfAny`: some child accepts.
    Any(Vec<PathConditionSpec>),
    /// `IfNot`: the child does not accept.
    Not(Box<PathConditionSpec>),
}

/// A layout child.
#[derive(Clone, Debug)]
pub enum LayoutSpec {
    /// `<PatternLayout>`.
    Pattern(PatternLayoutSpec),
    /// `<JsonLayout>` (log4j-core's Jackson-based JSON layout).
    Json(JsonLayoutSpec),
    /// `<SyslogLayout>` (BSD syslog, RFC 3164).
    Syslog(SyslogLayoutSpec),
    /// `<Rfc5424Layout>` (syslog, RFC 5424).
    Rfc5424(Rfc5424LayoutSpec),
    /// `<XmlLayout>` (log4j-core's Jackson-based XML layout); JsonLayout's options where
    /// XmlLayout has them (`propertiesAsList`, `objectMessageAsJsonObject` and `eventEol` stay
    /// at their defaults).
    Xml(JsonLayoutSpec),
    /// `<YamlLayout>` (log4j-core's Jackson-based YAML layout); JsonLayout's options where
    /// YamlLayout has them (`propertiesAsList` and `objectMessageAsJsonObject` stay at their
    /// defaults). `header` and `footer` are kept in [`JsonLayoutSpec::header`].
    Yaml(JsonLayoutSpec),
    /// `<GelfLayout>` (Graylog Extended Log Format).
    Gelf(GelfLayoutSpec),
    /// `<CsvLogEventLayout>` or `<CsvParameterLayout>`.
    Csv(CsvLayoutSpec),
    /// `<HtmlLayout>`: events as rows of an HTML table.
    Html(HtmlLayoutSpec),
    /// `<JsonTemplateLayout>` (log4j-layout-template-json).
    JsonTemplate(JsonTemplateLayoutSpec),
}

/// `<JsonTemplateLayout>` attributes and `<EventTemplateAdditionalField>` children, with
/// log4j2 2.24's defaults. The templates themselves are read and compiled when the layout is
/// built, which reports their errors with [`JsonTemplateLayoutSpec::origin`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonTemplateLayoutSpec {
    /// `charset` (default UTF-8).
    pub charset: Option<String>,
    /// `locationInfoEnabled` (default false): the `source` resolver writes the caller's
    /// location, which loggers then capture.
    pub location_info_enabled: bool,
    /// `stackTraceEnabled` (default true): without it `exception` resolvers write nothing.
    pub stack_trace_enabled: bool,
    /// `eventTemplate`: the template text; when blank, `eventTemplateUri` is read.
    pub event_template: Option<String>,
    /// `eventTemplateUri` (default `classpath:EcsLayout.json`).
    pub event_template_uri: String,
    /// `eventTemplateRootObjectKey`: the event object is wrapped as `{"KEY": event}`.
    pub event_template_root_object_key: Option<String>,
    /// `<EventTemplateAdditionalField>` children, in order.
    pub additional_fields: Vec<EventTemplateAdditionalField>,
    /// `stackTraceElementTemplate`: the element template text; when blank,
    /// `stackTraceElementTemplateUri` is read.
    pub stack_trace_element_template: Option<String>,
    /// `stackTraceElementTemplateUri` (default `classpath:StackTraceElementLayout.json`).
    pub stack_trace_element_template_uri: String,
    /// `eventDelimiter` (default the line separator, `\n`).
    pub event_delimiter: String,
    /// `nullEventDelimiterEnabled` (default false): a NUL byte after the delimiter.
    pub null_event_delimiter_enabled: bool,
    /// `maxStringLength` (default 16384): string values are cut after this many Java chars.
    pub max_string_length: i32,
    /// `truncatedStringSuffix` (default `…`), written after a cut string.
    pub truncated_string_suffix: String,
    /// `recyclerFactory`: accepted (`dummy`, `threadLocal`, `queue…`); l4rs always reuses
    /// per-thread buffers.
    pub recycler_factory: Option<String>,
    /// `log4j.layout.jsonTemplate.timestampFormatPattern`: the `timestamp` resolver's
    /// default `pattern.format` (log4j2's default `yyyy-MM-dd'T'HH:mm:ss.SSSZZZ` when unset).
    pub timestamp_format_pattern: Option<String>,
    /// `log4j.layout.jsonTemplate.timeZone`: the `timestamp` resolver's default
    /// `pattern.timeZone` (the local zone when unset).
    pub time_zone: Option<String>,
    /// Where the element is (`file:line:column`, or `line:column` without a file), named in
    /// the messages about its templates.
    pub origin: String,
}

impl Default for JsonTemplateLayoutSpec {
    fn default() -> JsonTemplateLayoutSpec {
        JsonTemplateLayoutSpec {
            charset: None,
            location_info_enabled: false,
            stack_trace_enabled: true,
            event_template: None,
            event_template_uri: "classpath:EcsLayout.json".to_string(),
            event_template_root_object_key: None,
            additional_fields: Vec::new(),
            stack_trace_element_template: None,
            stack_trace_element_template_uri: "classpath:StackTraceElementLayout.json".to_string(),
            event_delimiter: "\n".to_string(),
            null_event_delimiter_enabled: false,
            max_string_length: 16 * 1024,
            truncated_string_suffix: "…".to_string(),
            recycler_factory: None,
            timestamp_format_pattern: None,
            time_zone: None,
            origin: String::new(),
        }
    }
}

/// One `<EventTemplateAdditionalField key value format>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventTemplateAdditionalField {
    /// `key`: the member name.
    pub key: String,
    /// `value`: a string, or JSON text with `format="JSON"`.
    pub value: String,
    /// `format="JSON"` (default `STRING`): `value` is JSON (which may hold resolvers).
    pub json: bool,
}

/// How `<GelfLayout>` compresses an event's bytes (`compressionType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GelfCompression {
    /// `GZIP` (log4j2's default).
    Gzip,
    /// `ZLIB`: a zlib stream (RFC 1950).
    Zlib,
    /// `OFF`.
    Off,
}

/// `<GelfLayout>` attributes and children, with log4j2's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GelfLayoutSpec {
    /// `host` (default: the local host name).
    pub host: Option<String>,
    /// `compressionType` (default GZIP).
    pub compression: GelfCompression,
    /// `compressionThreshold` (default 1024): only events of more bytes are compressed.
    pub compression_threshold: i32,
    /// `includeStacktrace` (default true): `full_message` is the trace, not just its first line.
    pub include_stacktrace: bool,
    /// `includeThreadContext` (default true): MDC entries as `_key` fields.
    pub include_thread_context: bool,
    /// `threadContextIncludes`: the only MDC keys written.
    pub thread_context_includes: Option<Vec<String>>,
    /// `threadContextExcludes`: MDC keys left out (includes win when both are given).
    pub thread_context_excludes: Option<Vec<String>>,
    /// `threadContextPrefix` (default empty): written before each MDC key.
    pub thread_context_prefix: String,
    /// `includeNullDelimiter` (default false): a NUL after each event.
    pub include_null_delimiter: bool,
    /// `includeNewLineDelimiter` (default false): a `\n` after each event.
    pub include_new_line_delimiter: bool,
    /// `omitEmptyFields` (default false): additional and MDC fields with empty values are left out.
    pub omit_empty_fields: bool,
    /// `messagePattern`, or a `<PatternSelector>` child (in [`PatternLayoutSpec::selector`]):
    /// `full_message` is this PatternLayout's output.
    pub message_layout: Option<PatternLayoutSpec>,
    /// `<KeyValuePair key value>` children: `_key` fields; `${…}` left after
    /// configuration-time substitution is resolved per event.
    pub additional_fields: Vec<(String, String)>,
}

impl Default for GelfLayoutSpec {
    fn default() -> GelfLayoutSpec {
        GelfLayoutSpec {
            host: None,
            compression: GelfCompression::Gzip,
            compression_threshold: 1024,
            include_stacktrace: true,
            include_thread_context: true,
            thread_context_includes: None,
            thread_context_excludes: None,
            thread_context_prefix: String::new(),
            include_null_delimiter: false,
            include_new_line_delimiter: false,
            omit_empty_fields: false,
            message_layout: None,
            additional_fields: Vec::new(),
        }
    }
}

/// Which CSV layout: what each record holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CsvLayoutKind {
    /// `<CsvLogEventLayout>`: the event's fields.
    LogEvent,
    /// `<CsvParameterLayout>`: the message's parameters.
    Parameter,
}

/// commons-csv's `QuoteMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CsvQuoteMode {
    /// `ALL`: every field quoted.
    All,
    /// `ALL_NON_NULL`: every field but null ones.
    AllNonNull,
    /// `MINIMAL`: only fields that need it.
    Minimal,
    /// `NON_NUMERIC`: every field that is not a number (all of the layouts' fields but integers).
    NonNumeric,
    /// `NONE`: never quoted; special characters are escaped instead.
    None,
}

/// HtmlLayout's `fontSize` constants (Java's enum names) and the CSS size each stands for,
/// smallest first; the header's text is one size larger (the last stays).
pub const HTML_FONT_SIZES: [(&str, &str); 9] = [
    ("SMALLER", "smaller"),
    ("XXSMALL", "xx-small"),
    ("XSMALL", "x-small"),
    ("SMALL", "small"),
    ("MEDIUM", "medium"),
    ("LARGE", "large"),
    ("XLARGE", "x-large"),
    ("XXLARGE", "xx-large"),
    ("LARGER", "larger"),
];

/// `<HtmlLayout>` attributes, with log4j2's defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct HtmlLayoutSpec {
    /// `locationInfo` (false): a File:Line column.
    pub location_info: bool,
    /// `title` ("Log4j Log Messages"), written as it is: log4j2 does not escape it.
    pub title: String,
    /// `contentType` (`text/html; charset=` and the charset).
    pub content_type: Option<String>,
    /// `charset` (UTF-8).
    pub charset: Option<String>,
    /// `fontSize`: an index into [`HTML_FONT_SIZES`] (default 3, `SMALL`).
    pub font_size: usize,
    /// `fontName` ("arial,sans-serif").
    pub font_name: String,
    /// `datePattern` of the time column: a `%d` pattern, or the default `JVM_ELAPSE_TIME`,
    /// milliseconds since the process started.
    pub date_pattern: String,
    /// `timezone` of `datePattern` (the system's by default).
    pub timezone: Option<String>,
}

impl Default for HtmlLayoutSpec {
    fn default() -> HtmlLayoutSpec {
        HtmlLayoutSpec {
            location_info: false,
            title: "Log4j Log Messages".to_string(),
            content_type: None,
            charset: None,
            font_size: 3,
            font_name: "arial,sans-serif".to_string(),
            date_pattern: "JVM_ELAPSE_TIME".to_string(),
            timezone: None,
        }
    }
}

/// `<CsvLogEventLayout>` / `<CsvParameterLayout>` attributes, with log4j2's defaults. The
/// format's character attributes are `None` when the format's own setting applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvLayoutSpec {
    /// Which layout.
    pub kind: CsvLayoutKind,
    /// `format` (default `Default`): a commons-csv predefined format name.
    pub format: String,
    /// `delimiter`.
    pub delimiter: Option<char>,
    /// `escape`.
    pub escape: Option<char>,
    /// `quote`.
    pub quote: Option<char>,
    /// `quoteMode`.
    pub quote_mode: Option<CsvQuoteMode>,
    /// `nullString`: written for null fields.
    pub null_string: Option<String>,
    /// `recordSeparator`.
    pub record_separator: Option<String>,
    /// `header`, `footer` and `charset`, rendered as a PatternLayout renders them (as log4j2
    /// builds a PatternLayout serializer for each); its `pattern` is unused.
    pub text: PatternLayoutSpec,
}

impl CsvLayoutSpec {
    /// The layout of `kind` with log4j2's defaults.
    pub fn new(kind: CsvLayoutKind) -> CsvLayoutSpec {
        CsvLayoutSpec {
            kind,
            format: "Default".to_string(),
            delimiter: None,
            escape: None,
            quote: None,
            quote_mode: None,
            null_string: None,
            record_separator: None,
            text: PatternLayoutSpec::default(),
        }
    }
}

/// `<Rfc5424Layout>` attributes, with log4j2's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rfc5424LayoutSpec {
    /// `facility` as its code, an index into [`SYSLOG_FACILITIES`] (default 16, `LOCAL0`).
    pub facility: u8,
    /// `id`: the structured data id of structured messages, which l4rs does not have.
    pub id: Option<String>,
    /// `enterpriseNumber` (default 32473), after the `@` of the MDC's structured data id.
    pub enterprise_number: i32,
    /// `includeMDC` (default true): the MDC as a structured data element.
    pub include_mdc: bool,
    /// `mdcId` (default `mdc`): the MDC element's id before the `@`.
    pub mdc_id: String,
    /// `mdcPrefix`: written before each MDC key.
    pub mdc_prefix: Option<String>,
    /// `eventPrefix`: for structured messages, which l4rs does not have.
    pub event_prefix: Option<String>,
    /// `newLine` (default false): end each event with `\n`.
    pub new_line: bool,
    /// `newLineEscape`: written instead of each `\n` or `\r\n` in the message and exception.
    pub new_line_escape: Option<String>,
    /// `appName` (default: the configuration's name).
    pub app_name: Option<String>,
    /// `messageId` (default `-`).
    pub message_id: Option<String>,
    /// `mdcExcludes`: MDC keys left out (comma-separated in the attribute).
    pub mdc_excludes: Vec<String>,
    /// `mdcIncludes`: the only MDC keys written; ignored when `mdcExcludes` is given too.
    pub mdc_includes: Vec<String>,
    /// `mdcRequired`: MDC keys every event must have; an event without one of them is not
    /// written (log4j2 throws, and the appender reports the error).
    pub mdc_required: Vec<String>,
    /// `exceptionPattern`: a PatternLayout pattern for the event's throwable, written after the
    /// message on a new line.
    pub exception_pattern: Option<String>,
    /// `useTlsMessageFormat` (default false): each event is preceded by its length and a space
    /// (RFC 5425 octet counting).
    pub use_tls_message_format: bool,
    /// `<LoggerFields>` children: structured data elements of `<KeyValuePair>` patterns.
    pub logger_fields: Vec<LoggerFieldsSpec>,
}

/// One `<LoggerFields>` of an `<Rfc5424Layout>`: a structured data element whose parameter
/// values are PatternLayout patterns rendered per event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggerFieldsSpec {
    /// `<KeyValuePair key value>` children: parameter name and pattern.
    pub fields: Vec<(String, String)>,
    /// `sdId` (default: the layout's `mdcId`).
    pub sd_id: Option<String>,
    /// `enterpriseId` (default: the layout's `enterpriseNumber`).
    pub enterprise_id: Option<String>,
    /// `discardIfAllFieldsAreEmpty` (default false).
    pub discard_if_all_fields_are_empty: bool,
}

impl Default for Rfc5424LayoutSpec {
    fn default() -> Rfc5424LayoutSpec {
        Rfc5424LayoutSpec {
            facility: 16,
            id: None,
            enterprise_number: 32473,
            include_mdc: true,
            mdc_id: "mdc".to_string(),
            mdc_prefix: None,
            event_prefix: None,
            new_line: false,
            new_line_escape: None,
            app_name: None,
            message_id: None,
            mdc_excludes: Vec::new(),
            mdc_includes: Vec::new(),
            mdc_required: Vec::new(),
            exception_pattern: None,
            use_tls_message_format: false,
            logger_fields: Vec::new(),
        }
    }
}

/// The syslog facility names, in the order of their codes (0 to 23), as log4j2's `Facility`
/// enum spells them.
pub const SYSLOG_FACILITIES: [&str; 24] = [
    "KERN",
    "USER",
    "MAIL",
    "DAEMON",
    "AUTH",
    "SYSLOG",
    "LPR",
    "NEWS",
    "UUCP",
    "CRON",
    "AUTHPRIV",
    "FTP",
    "NTP",
    "LOG_AUDIT",
    "LOG_ALERT",
    "CLOCK",
    "LOCAL0",
    "LOCAL1",
    "LOCAL2",
    "LOCAL3",
    "LOCAL4",
    "LOCAL5",
    "LOCAL6",
    "LOCAL7",
];

/// `<SyslogLayout>` attributes, with log4j2's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyslogLayoutSpec {
    /// `facility` as its code, an index into [`SYSLOG_FACILITIES`] (default 16, `LOCAL0`).
    pub facility: u8,
    /// `newLine` (default false): end each event with `\n`.
    pub new_line: bool,
    /// `newLineEscape`: written instead of each `\n` or `\r\n` in the message.
    pub new_line_escape: Option<String>,
    /// `charset` (default UTF-8).
    pub charset: Option<String>,
}

impl Default for SyslogLayoutSpec {
    fn default() -> SyslogLayoutSpec {
        SyslogLayoutSpec {
            facility: 16,
            new_line: false,
            new_line_escape: None,
            charset: None,
        }
    }
}

/// `<JsonLayout>` attributes and `<KeyValuePair>` children, with log4j2's defaults; also the
/// options of `<XmlLayout>` and `<YamlLayout>`, which share log4j2's `AbstractJacksonLayout`
/// builder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonLayoutSpec {
    /// `locationInfo` (default false): adds `source` and makes loggers capture the location.
    pub location_info: bool,
    /// `properties` (default false): adds `contextMap`.
    pub properties: bool,
    /// `propertiesAsList` (default false): `contextMap` as a list of key/value objects.
    pub properties_as_list: bool,
    /// `complete` (default false): a JSON array, `[` as header and `]` as footer.
    pub complete: bool,
    /// `compact` (default false): one line per event instead of Jackson's pretty printer.
    pub compact: bool,
    /// `eventEol` (default false): end each compact event with the end of line.
    pub event_eol: bool,
    /// `endOfLine` (default none: `\r\n`, or nothing when compact without `eventEol`).
    pub end_of_line: Option<String>,
    /// `includeStacktrace` (default true): the throwable's frames.
    pub include_stacktrace: bool,
    /// `stacktraceAsString` (default false): frames as one string, as `%xEx` prints them.
    pub stacktrace_as_string: bool,
    /// `includeNullDelimiter` (default false): a NUL byte after each event.
    pub include_null_delimiter: bool,
    /// `includeTimeMillis` (default false): `timeMillis` instead of `instant`.
    pub include_time_millis: bool,
    /// `objectMessageAsJsonObject` (default false); l4rs messages are always text.
    pub object_message_as_json_object: bool,
    /// `charset` (default UTF-8).
    pub charset: Option<String>,
    /// `<KeyValuePair key value>` children: extra top-level fields; `${…}` left in a value
    /// after configuration-time substitution is resolved per event.
    pub additional_fields: Vec<(String, String)>,
    /// `header` and `footer`: YamlLayout writes them (PatternLayout patterns) around a
    /// `complete` stream; JsonLayout and XmlLayout accept and ignore them.
    pub header: Option<String>,
    /// See [`JsonLayoutSpec::header`].
    pub footer: Option<String>,
    /// The level `%p` prints in YamlLayout's header (see [`PatternLayoutSpec::header_level`]).
    pub header_level: Level,
    /// The level `%p` prints in YamlLayout's footer (see [`PatternLayoutSpec::footer_level`]).
    pub footer_level: Level,
}

impl Default for JsonLayoutSpec {
    fn default() -> JsonLayoutSpec {
        JsonLayoutSpec {
            location_info: false,
            properties: false,
            properties_as_list: false,
            complete: false,
            compact: false,
            event_eol: false,
            end_of_line: None,
            include_stacktrace: true,
            stacktrace_as_string: false,
            include_null_delimiter: false,
            include_time_millis: false,
            object_message_as_json_object: false,
            charset: None,
            additional_fields: Vec::new(),
            header: None,
            footer: None,
            header_level: Level::ERROR,
            footer_level: Level::ERROR,
        }
    }
}

/// `<PatternLayout>` attributes and children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternLayoutSpec {
    /// `pattern` (default `%m%n`), substituted at configuration time; `${…}` left in it is
    /// resolved per event.
    pub pattern: String,
    /// `<PatternSelector>` / `<MarkerPatternSelector>` / `<LevelPatternSelector>` child.
    pub selector: Option<PatternSelectorSpec>,
    /// `<Replace regex replacement>` child: applied to the whole formatted event.
    pub replace: Option<ReplaceSpec>,
    /// `alwaysWriteExceptions` (default true).
    pub always_write_exceptions: bool,
    /// `disableAnsi` (default false).
    pub disable_ansi: bool,
    /// `noConsoleNoAnsi` (default false).
    pub no_console_no_ansi: bool,
    /// `charset` (default UTF-8 here; the platform default in log4j2).
    pub charset: Option<String>,
    /// `header` pattern.
    pub header: Option<String>,
    /// `footer` pattern.
    pub footer: Option<String>,
    /// The level `%p` prints in the header. log4j2 renders the header with an event carrying
    /// the root logger's level at the time the layout is built: ERROR, unless `<Loggers>`
    /// came before `<Appenders>` in the document.
    pub header_level: Level,
    /// The level `%p` prints in the footer: the configured root logger's level, which log4j2
    /// reads when the appender stops.
    pub footer_level: Level,
}

impl Default for PatternLayoutSpec {
    fn default() -> PatternLayoutSpec {
        PatternLayoutSpec {
            pattern: "%m%n".to_string(),
            selector: None,
            replace: None,
            always_write_exceptions: true,
            disable_ansi: false,
            no_console_no_ansi: false,
            charset: None,
            header: None,
            footer: None,
            header_level: Level::ERROR,
            footer_level: Level::ERROR,
        }
    }
}

/// `<Replace regex="…" replacement="…"/>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplaceSpec {
    /// A Java regular expression.
    pub regex: String,
    /// The replacement, with Java's `$1` group references.
    pub replacement: String,
}

/// A pattern selector: picks the pattern per event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternSelectorSpec {
    /// What the `key` of each match is compared with.
    pub kind: PatternSelectorKind,
    /// `<PatternMatch key pattern>` children, in order.
    pub matches: Vec<(String, String)>,
    /// `defaultPattern`.
    pub default_pattern: String,
    /// `alwaysWriteExceptions` (default true).
    pub always_write_exceptions: bool,
    /// `disableAnsi` (default false).
    pub disable_ansi: bool,
    /// `noConsoleNoAnsi` (default false).
    pub no_console_no_ansi: bool,
}

/// The pattern selector types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatternSelectorKind {
    /// `MarkerPatternSelector`: the event's marker is, or descends from, the key.
    Marker,
    /// `LevelPatternSelector`: the event's level name equals the key.
    Level,
}

/// What every filter shares: its verdicts on match and mismatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FilterVerdicts {
    /// `onMatch` (default NEUTRAL).
    pub on_match: FilterResult,
    /// `onMismatch` (default DENY).
    pub on_mismatch: FilterResult,
}

impl Default for FilterVerdicts {
    fn default() -> FilterVerdicts {
        FilterVerdicts {
            on_match: FilterResult::Neutral,
            on_mismatch: FilterResult::Deny,
        }
    }
}

/// `MutableThreadContextMapFilter`: its file (`{"configs": {"key": ["value", …]}}`,
/// [`crate::context_map_file`]), read again every `pollInterval` seconds when it has changed.
/// Without pairs it is NEUTRAL.
#[derive(Clone, Debug, PartialEq)]
pub struct MutableContextMapSpec {
    /// `configLocation`: the file (a path or a `file:` URI).
    pub location: std::path::PathBuf,
    /// `pollInterval` in seconds; 0 or less reads the file once.
    pub poll_seconds: u64,
    /// The pairs the file held when the configuration was loaded; `None` when there were none
    /// to match (no file, no pairs, or a file that could not be read).
    pub initial: Option<Vec<(String, Vec<String>)>>,
    /// The stamp of the file that was read (what a poll compares with).
    pub read_at: Option<crate::context_map_file::FileStamp>,
    /// onMatch / onMismatch.
    pub verdicts: FilterVerdicts,
}

/// A filter and its attributes, with log4j2's defaults.
#[derive(Clone, Debug, PartialEq)]
pub enum FilterSpec {
    /// `ThresholdFilter level` (default ERROR).
    Threshold {
        /// The threshold.
        level: Level,
        /// onMatch / onMismatch.
        verdicts: FilterVerdicts,
    },
    /// `LevelRangeFilter minLevel maxLevel` (defaults as log4j2 2.19, verified with the oracle:
    /// both ERROR).
    LevelRange {
        /// The most severe level in range.
        min_level: Level,
        /// The least severe level in range.
        max_level: Level,
        /// onMatch / onMismatch.
        verdicts: FilterVerdicts,
    },
    /// `LevelMatchFilter level` (default ERROR).
    LevelMatch {
        /// The level matched exactly.
        level: Level,
        /// onMatch / onMismatch.
        verdicts: FilterVerdicts,
    },
    /// `RegexFilter regex useRawMsg`: the whole message must match.
    Regex {
        /// The Java regular expression.
        regex: String,
        /// Match the unformatted message (no difference for l4rs messages).
        use_raw_msg: bool,
        /// onMatch / onMismatch.
        verdicts: FilterVerdicts,
    },
    /// `StringMatchFilter text`: the message contains the text.
    StringMatch {
        /// The text searched for.
        text: String,
        /// onMatch / onMismatch.
        verdicts: FilterVerdicts,
    },
    /// `MarkerFilter marker`: the event marker is, or descends from, the named one.
    Marker {
        /// The marker name.
        marker: String,
        /// onMatch / onMismatch.
        verdicts: FilterVerdicts,
    },
    /// `NoMarkerFilter`: the event has no marker.
    NoMarker {
        /// onMatch / onMismatch.
        verdicts: FilterVerdicts,
    },
    /// `BurstFilter level rate maxBurst`.
    Burst {
        /// Events at or below this level (less severe) are rate-limited (default WARN).
        level: Level,
        /// Events per second (default 10).
        rate: f64,
        /// The burst allowance (default 100 × rate, as log4j2 computes it; verified).
        max_burst: u64,
        /// onMatch / onMismatch.
        verdicts: FilterVerdicts,
    },
    /// `DenyAllFilter`.
    DenyAll {
        /// onMatch / onMismatch.
        verdicts: FilterVerdicts,
    },
    /// `DynamicThresholdFilter key defaultThreshold` with `<KeyValuePair key value>` children:
    /// the threshold is picked by the event's context-map value of `key`.
    DynamicThreshold {
        /// The context-map key (required).
        key: String,
        /// Context value → threshold, from the `<KeyValuePair>` children (a later pair with the
        /// same key wins, as in log4j2's `HashMap`); unknown level names became DEBUG.
        levels: Vec<(String, Level)>,
        /// The threshold for a value without a pair (default ERROR).
        default_threshold: Level,
        /// onMatch / onMismatch.
        verdicts: FilterVerdicts,
    },
    /// `ThreadContextMapFilter operator` (alias `ContextMapFilter`) with `<KeyValuePair key
    /// value>` children: the event's context map against the listed values.
    ThreadContextMap {
        /// Context-map key → the values that match it, from the `<KeyValuePair>` children in
        /// document order (a key listed twice matches either value). Never empty: log4j2
        /// creates no filter without a valid pair.
        pairs: Vec<(String, Vec<String>)>,
        /// `operator="or"` (any case): one key with a listed value is enough. Otherwise
        /// (`and`, the default, or any other word) every key must have one.
        any: bool,
        /// onMatch / onMismatch.
        verdicts: FilterVerdicts,
    },
    /// `MutableThreadContextMapFilter` (alias `MutableContextMapFilter`): a ThreadContextMapFilter
    /// with `operator="or"` whose pairs come from a JSON file (boxed: it is larger than the
    /// other filters).
    MutableThreadContextMap(Box<MutableContextMapSpec>),
    /// `MapFilter` or `StructuredDataFilter` (`operator`, `<KeyValuePair key value>`
    /// children): they judge the fields of a `MapMessage` or `StructuredDataMessage`. l4rs
    /// messages are text, so the filter answers NEUTRAL, as log4j2's does for any other
    /// message; the attributes are read and checked as log4j2 reads them.
    MessageMap {
        /// `StructuredDataFilter` (else `MapFilter`).
        structured_data: bool,
        /// Field name → the values that match it, as for [`FilterSpec::ThreadContextMap`].
        pairs: Vec<(String, Vec<String>)>,
        /// `operator="or"` (any case).
        any: bool,
        /// onMatch / onMismatch, which no l4rs message reaches.
        verdicts: FilterVerdicts,
    },
    /// `TimeFilter start end timezone`: the event's time of day lies in a daily window.
    Time {
        /// The window's start, in seconds after midnight (`start`, `HH:mm:ss`; default 0).
        start_second: u32,
        /// The window's end, in seconds after midnight (`end`); `None` is log4j2's default,
        /// the last instant of the day (23:59:59.999999999). An end at or before the start
        /// closes the window on the next day.
        end_second: Option<u32>,
        /// The zone of the times of day (`timezone`, read as `ZoneId.of` reads it); `None` is
        /// the system's zone.
        zone: Option<jiff::tz::TimeZone>,
        /// onMatch / onMismatch.
        verdicts: FilterVerdicts,
    },
    /// `<Filters>`: the first non-NEUTRAL result of the children, in order.
    Composite(Vec<FilterSpec>),
}

impl AppenderKind {
    /// The file this appender writes, for the kinds that write one.
    pub fn file_name(&self) -> Option<&str> {
        match self {
            AppenderKind::File(spec) => Some(&spec.file_name),
            AppenderKind::RandomAccessFile(spec) => Some(&spec.file_name),
            AppenderKind::MemoryMappedFile(spec) => Some(&spec.file_name),
            AppenderKind::RollingFile(spec) => spec.rolling.file_name.as_deref(),
            AppenderKind::RollingRandomAccessFile(spec) => spec.rolling.file_name.as_deref(),
            AppenderKind::RollingMemoryMappedFile(spec) => spec.rolling.file_name.as_deref(),
            AppenderKind::Console(_)
            | AppenderKind::Async(_)
            | AppenderKind::Null
            | AppenderKind::CountingNoOp
            | AppenderKind::Failover(_)
            | AppenderKind::Rewrite(_)
            | AppenderKind::Socket(_)
            | AppenderKind::Routing(_)
            | AppenderKind::Kafka(_)
            | AppenderKind::Smtp(_)
            | AppenderKind::Http(_)
            | AppenderKind::Jdbc(_) => None,
        }
    }
}
