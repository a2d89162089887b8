//! Which database a `<DriverManager connectionString>` names: l4rs reaches SQLite
//! (`jdbc:sqlite:…`, the xerial driver's URL) and PostgreSQL (`jdbc:postgresql:…`, pgjdbc's
//! URL), and refuses the others with a message saying so.

use std::time::Duration;

use l4rs_config::model::JdbcConnectionSpec;
use l4rs_core::status;

/// A database to connect to.
#[derive(Clone, Debug)]
pub(crate) enum Target {
    /// A SQLite database file (or `:memory:`), with the pragmas the URL sets.
    Sqlite {
        /// The file's path as given (relative paths are relative to the working directory).
        path: String,
        /// `busy_timeout` (xerial's default 3000 ms): how long a statement waits for another
        /// connection's lock.
        busy_timeout: Duration,
        /// Other `name=value` parameters, each run as `PRAGMA name=value` after connecting.
        pragmas: Vec<(String, String)>,
    },
    /// A PostgreSQL server.
    Postgres(Box<PostgresTarget>),
}

/// Where and how to connect to PostgreSQL.
#[derive(Clone, Debug)]
pub(crate) struct PostgresTarget {
    /// Hosts, database, user, password, connect timeout, application name, options.
    pub(crate) config: tokio_postgres::Config,
    /// The longest wait for the server's answer to one step (the handshake after the connect
    /// timeout, a statement, a commit): pgjdbc's `socketTimeout`, by default 10 s in l4rs
    /// (pgjdbc waits for ever), so a server that stops answering cannot hold a logging call.
    pub(crate) answer_timeout: Duration,
}

/// l4rs's default for `connectTimeout` and `socketTimeout` (pgjdbc: 10 s and none).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

pub(crate) use l4rs_config::jdbc_url::masked;

/// The database `spec` names, or why l4rs cannot connect to it.
pub(crate) fn target(spec: &JdbcConnectionSpec) -> Result<Target, String> {
    let url = spec.connection_string.trim();
    if let Some(rest) = url.strip_prefix("jdbc:sqlite:") {
        return Ok(sqlite(rest));
    }
    if let Some(rest) = url.strip_prefix("jdbc:postgresql:") {
        return postgres(rest, spec).map(|target| Target::Postgres(Box::new(target)));
    }
    let scheme = url
        .strip_prefix("jdbc:")
        .and_then(|rest| rest.split(':').next())
        // A sub-protocol is a name; anything else is shown only through `masked`.
        .filter(|scheme| {
            (1..=40).contains(&scheme.len())
                && scheme
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'+'))
        });
    Err(match scheme {
        Some(scheme) => format!(
            "l4rs cannot connect to `jdbc:{scheme}:` databases (help: l4rs's JDBC appender reaches SQLite, `jdbc:sqlite:/path/to/file.db`, and PostgreSQL, `jdbc:postgresql://host:5432/database`; {})",
            java_only_hint(scheme)
        ),
        None => format!(
            "`{}` is not a JDBC URL (help: write `jdbc:sqlite:/path/to/file.db` or `jdbc:postgresql://host:5432/database`)",
            masked(url)
        ),
    })
}

/// What to say about a scheme l4rs does not reach.
fn java_only_hint(scheme: &str) -> &'static str {
    match scheme {
        "h2" | "hsqldb" | "derby" => {
            "this one is a database that runs inside a Java process, which a Rust program cannot open"
        }
        _ => "other databases are not reached yet",
    }
}

/// What [`target`] makes of a connection string with `user_name`, `password` and
/// `properties`, as text for the fuzz target (`fuzz/fuzz_targets/jdbc_statements.rs`): the
/// database, or the refusal.
#[cfg(fuzzing)]
pub fn fuzz_connection_string(
    connection_string: &str,
    user_name: Option<&str>,
    password: Option<&str>,
    properties: &[(String, String)],
) -> Result<String, String> {
    let spec = JdbcConnectionSpec {
        connection_string: connection_string.to_string(),
        user_name: user_name.map(str::to_string),
        password: password.map(str::to_string),
        driver_class_name: None,
        properties: properties.to_vec(),
        element: "DriverManager".to_string(),
    };
    target(&spec).map(|target| match target {
        Target::Sqlite { path, .. } => format!("sqlite {path}"),
        Target::Postgres(postgres) => format!("postgres {:?}", postgres.config.get_hosts()),
    })
}

/// xerial's URL: `jdbc:sqlite:PATH`, `jdbc:sqlite::memory:`, `jdbc:sqlite:` (in memory),
/// `jdbc:sqlite:file:PATH`, each optionally followed by `?name=value&…`.
fn sqlite(rest: &str) -> Target {
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let path = path.strip_prefix("file:").unwrap_or(path);
    let path = if path.is_empty() { ":memory:" } else { path };
    let mut busy_timeout = Duration::from_millis(3000);
    let mut pragmas = Vec::new();
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        if name == "busy_timeout" {
            if let Ok(millis) = value.parse::<u64>() {
                busy_timeout = Duration::from_millis(millis);
            }
        } else if XERIAL_OPTIONS.contains(&name) {
            // Options of xerial's driver, not of SQLite: a PRAGMA of that name would be
            // ignored silently, and what they change (how xerial stores dates, how it opens
            // the file) is not how l4rs does it.
            status::warn(format_args!(
                "The SQLite option {name}={value} of xerial's JDBC driver is not applied by l4rs (help: l4rs stores the event time as INTEGER milliseconds, xerial's default; remove the option)"
            ));
        } else if is_pragma_name(name) {
            pragmas.push((name.to_string(), value.to_string()));
        }
    }
    Target::Sqlite {
        path: path.to_string(),
        busy_timeout,
        pragmas,
    }
}

/// Connection options of xerial's driver that are not SQLite pragmas.
const XERIAL_OPTIONS: &[&str] = &[
    "date_class",
    "date_precision",
    "date_string_format",
    "open_mode",
    "shared_cache",
    "transaction_mode",
    "load_extension",
    "jdbc.explicit_readonly",
    "jdbc.get_generated_keys",
];

/// A parameter that can be run as a pragma: a plain identifier (the value is quoted when run).
fn is_pragma_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// pgjdbc's URL: `jdbc:postgresql:DATABASE`, `jdbc:postgresql:/`,
/// `jdbc:postgresql://HOST[:PORT][,HOST[:PORT]…]/DATABASE`, then `?name=value&…` with pgjdbc's
/// parameter names (`user`, `password`, `connectTimeout` and `socketTimeout` in seconds,
/// `ApplicationName`, `currentSchema`, `options`, `sslmode`).
fn postgres(rest: &str, spec: &JdbcConnectionSpec) -> Result<PostgresTarget, String> {
    let (location, query) = rest.split_once('?').unwrap_or((rest, ""));
    let mut target = PostgresTarget {
        config: tokio_postgres::Config::new(),
        answer_timeout: DEFAULT_TIMEOUT,
    };
    let config = &mut target.config;
    // pgjdbc's default connectTimeout is 10 s; without one a connection attempt to a host that
    // does not answer would hold the logging call for the kernel's TCP timeout.
    config.connect_timeout(DEFAULT_TIMEOUT);
    let database = if let Some(hosts_and_database) = location.strip_prefix("//") {
        let (hosts, database) = hosts_and_database
            .split_once('/')
            .unwrap_or((hosts_and_database, ""));
        for host in hosts.split(',').filter(|host| !host.is_empty()) {
            let (name, port) = split_host_port(host).map_err(|what| {
                // The host part is not printed as it is: it may hold a user's password.
                format!(
                    "Invalid {what} in the JDBC URL `jdbc:postgresql:{}`",
                    masked(rest)
                )
            })?;
            config.host(name);
            config.port(port);
        }
        if hosts.is_empty() {
            config.host("localhost");
            config.port(5432);
        }
        database
    } else {
        config.host("localhost");
        config.port(5432);
        location.trim_start_matches('/')
    };
    if !database.is_empty() {
        config.dbname(percent_decoded(database));
    }
    // `userName`/`password` first: parameters in the URL take precedence, as pgjdbc merges them.
    if let Some(user) = &spec.user_name {
        config.user(user);
    }
    if let Some(password) = &spec.password {
        config.password(password);
    }
    for (name, value) in &spec.properties {
        apply_postgres_parameter(&mut target, name, value)?;
    }
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        apply_postgres_parameter(&mut target, name, &percent_decoded(value))?;
    }
    if target.config.get_user().is_none() {
        // pgjdbc requires a user; libpq would take the operating system's user name.
        if let Ok(user) = std::env::var("USER") {
            target.config.user(&user);
        }
    }
    Ok(target)
}

/// Seconds as pgjdbc reads them; 0 (pgjdbc: no limit) and nonsense keep l4rs's bound.
fn seconds(value: &str) -> Option<Duration> {
    value
        .trim()
        .parse::<u64>()
        .ok()
        .filter(|&seconds| seconds > 0)
        .map(Duration::from_secs)
}

/// Sets one of pgjdbc's connection parameters on `target`.
fn apply_postgres_parameter(
    target: &mut PostgresTarget,
    name: &str,
    value: &str,
) -> Result<(), String> {
    let config = &mut target.config;
    match name {
        "user" => {
            config.user(value);
        }
        "password" => {
            config.password(value);
        }
        "connectTimeout" | "loginTimeout" => {
            if let Some(timeout) = seconds(value) {
                config.connect_timeout(timeout);
            }
        }
        "socketTimeout" => {
            if let Some(timeout) = seconds(value) {
                target.answer_timeout = timeout;
            }
        }
        "ApplicationName" | "applicationName" => {
            config.application_name(value);
        }
        // Both are server options; neither replaces the other.
        "currentSchema" => add_options(config, &format!("-c search_path={value}")),
        "options" => add_options(config, value),
        "ssl" if value != "false" => return Err(tls_unsupported()),
        "sslmode" if !matches!(value, "disable" | "allow" | "prefer") => {
            return Err(tls_unsupported())
        }
        // pgjdbc's tuning parameters (prepareThreshold, tcpKeepAlive, …) have no counterpart
        // that changes what is inserted.
        _ => {}
    }
    Ok(())
}

/// `options` appended to the server options already set.
fn add_options(config: &mut tokio_postgres::Config, options: &str) {
    let combined = match config.get_options() {
        Some(earlier) if !earlier.is_empty() => format!("{earlier} {options}"),
        _ => options.to_string(),
    };
    config.options(combined);
}

/// The refusal of an encrypted connection, which l4rs's PostgreSQL client does not make yet.
fn tls_unsupported() -> String {
    "l4rs connects to PostgreSQL without TLS only (help: use sslmode=disable or prefer, or a local connection)".to_string()
}

/// `host`, `host:port`, `[v6]` or `[v6]:port`, with pgjdbc's default port 5432.
fn split_host_port(host: &str) -> Result<(&str, u16), &'static str> {
    let (name, port) = if let Some(v6) = host.strip_prefix('[') {
        match v6.split_once(']') {
            Some((name, rest)) => (name, rest.strip_prefix(':')),
            None => return Err("host"),
        }
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        }
    };
    let port = match port {
        None | Some("") => 5432,
        Some(port) => port.parse().map_err(|_| "port number")?,
    };
    Ok((name, port))
}

/// `%XX` escapes decoded, as pgjdbc decodes URL parameters.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(high), Some(low)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((high * 16 + low) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(url: &str) -> JdbcConnectionSpec {
        JdbcConnectionSpec {
            connection_string: url.to_string(),
            user_name: None,
            password: None,
            driver_class_name: None,
            properties: Vec::new(),
            element: "DriverManager".to_string(),
        }
    }

    #[test]
    fn sqlite_urls() {
        let Ok(Target::Sqlite {
            path,
            busy_timeout,
            pragmas,
        }) = target(&spec(
            "jdbc:sqlite:/tmp/x.db?journal_mode=WAL&busy_timeout=50&x y=1",
        ))
        else {
            panic!()
        };
        assert_eq!(path, "/tmp/x.db");
        assert_eq!(busy_timeout, Duration::from_millis(50));
        assert_eq!(
            pragmas,
            vec![("journal_mode".to_string(), "WAL".to_string())]
        );
        let (parsed, records) =
            status::capture(|| target(&spec("jdbc:sqlite:x.db?date_class=TEXT&synchronous=OFF")));
        let Ok(Target::Sqlite { pragmas, .. }) = parsed else {
            panic!()
        };
        assert_eq!(
            pragmas,
            vec![("synchronous".to_string(), "OFF".to_string())]
        );
        let messages: Vec<String> = records.into_iter().map(|r| r.message).collect();
        assert_eq!(
            messages,
            ["The SQLite option date_class=TEXT of xerial's JDBC driver is not applied by l4rs (help: l4rs stores the event time as INTEGER milliseconds, xerial's default; remove the option)"]
        );
        for (url, expected) in [
            ("jdbc:sqlite:", ":memory:"),
            ("jdbc:sqlite::memory:", ":memory:"),
            ("jdbc:sqlite:file:logs.db", "logs.db"),
        ] {
            let Ok(Target::Sqlite { path, .. }) = target(&spec(url)) else {
                panic!("{url}")
            };
            assert_eq!(path, expected, "{url}");
        }
    }

    #[test]
    fn postgres_urls() {
        let mut with_user =
            spec("jdbc:postgresql://db.example:6543/logs%20db?password=p&ApplicationName=app");
        with_user.user_name = Some("alice".to_string());
        let Ok(Target::Postgres(postgres)) = target(&with_user) else {
            panic!()
        };
        assert_eq!(postgres.answer_timeout, DEFAULT_TIMEOUT);
        let config = &postgres.config;
        assert_eq!(
            config.get_hosts(),
            &[tokio_postgres::config::Host::Tcp("db.example".to_string())]
        );
        assert_eq!(config.get_ports(), &[6543]);
        assert_eq!(config.get_dbname(), Some("logs db"));
        assert_eq!(config.get_user(), Some("alice"));
        assert_eq!(config.get_password(), Some(&b"p"[..]));
        assert_eq!(config.get_application_name(), Some("app"));
        let Ok(Target::Postgres(postgres)) = target(&spec(
            "jdbc:postgresql:logs?user=bob&connectTimeout=2&socketTimeout=3",
        )) else {
            panic!()
        };
        assert_eq!(postgres.config.get_ports(), &[5432]);
        assert_eq!(postgres.config.get_dbname(), Some("logs"));
        assert_eq!(postgres.config.get_options(), None);
        assert_eq!(postgres.config.get_user(), Some("bob"));
        assert_eq!(
            postgres.config.get_connect_timeout(),
            Some(&Duration::from_secs(2))
        );
        assert_eq!(postgres.answer_timeout, Duration::from_secs(3));
        let Ok(Target::Postgres(postgres)) =
            target(&spec("jdbc:postgresql://[::1]/d?socketTimeout=0"))
        else {
            panic!()
        };
        assert_eq!(
            postgres.answer_timeout, DEFAULT_TIMEOUT,
            "0 keeps l4rs's bound"
        );
        assert_eq!(
            postgres.config.get_hosts(),
            &[tokio_postgres::config::Host::Tcp("::1".to_string())]
        );
        assert!(target(&spec("jdbc:postgresql://h:x/d"))
            .unwrap_err()
            .contains("Invalid port number in the JDBC URL `jdbc:postgresql://h:x/d`"));
        let error = target(&spec("jdbc:postgresql://u:secret@h/d")).unwrap_err();
        assert_eq!(
            error,
            "Invalid port number in the JDBC URL `jdbc:postgresql://u:***@h/d`"
        );
        assert!(target(&spec("jdbc:postgresql://h/d?sslmode=require"))
            .unwrap_err()
            .contains("without TLS"));
    }

    #[test]
    fn other_databases_are_refused_with_help() {
        let error = target(&spec("jdbc:h2:mem:Log4j")).unwrap_err();
        assert!(
            error.starts_with("l4rs cannot connect to `jdbc:h2:` databases"),
            "{error}"
        );
        assert!(error.contains("inside a Java process"), "{error}");
        let error = target(&spec("jdbc:mysql://h/d")).unwrap_err();
        assert!(error.contains("not reached yet"), "{error}");
        let error = target(&spec("postgres://h/d?password=secret")).unwrap_err();
        assert!(error.contains("is not a JDBC URL"), "{error}");
        assert!(!error.contains("secret"), "{error}");
    }

    #[test]
    fn percent_decoding_keeps_malformed_escapes() {
        assert_eq!(percent_decoded("a%20b%zz%2"), "a b%zz%2");
    }
}
