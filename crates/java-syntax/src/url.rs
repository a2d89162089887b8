//! URLs as `java.net.URL`'s constructor reads them (the `url` of log4j2's Http appender): the
//! scheme and, for hierarchical URLs, the host, port, path and query.
//!
//! The reader accepts what Java accepts and refuses what it refuses, with Java's exception
//! text, so that a configuration gets log4j2's status messages. Java's reader is lenient: it
//! takes spaces in a path, an empty host (`http://`) and ports above 65535; those are kept as
//! written and fail when a request is made, as they do in Java.

/// The protocols a JDK 17 knows a handler for (`sun.net.www.protocol.*`); any other scheme is
/// `unknown protocol`.
const KNOWN_PROTOCOLS: &[&str] = &[
    "file", "ftp", "http", "https", "jar", "jmod", "jrt", "mailto",
];

/// A URL as `java.net.URL` holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JavaUrl {
    /// The scheme, lower-cased as Java lower-cases it (`HTTPS:` is `https`).
    pub protocol: String,
    /// The host (`getHost()`): empty when the URL has none; an IPv6 address keeps its
    /// brackets.
    pub host: String,
    /// The port (`getPort()`), or `None` when the URL gives none (`-1` in Java).
    pub port: Option<u32>,
    /// The path (`getPath()`), possibly empty.
    pub path: String,
    /// The query (`getQuery()`), without its `?`.
    pub query: Option<String>,
}

impl JavaUrl {
    /// What an HTTP request line asks for: the path and query, `/` for an empty path (as
    /// `HttpURLConnection` asks).
    pub fn request_target(&self) -> String {
        let path = if self.path.is_empty() {
            "/"
        } else {
            &self.path
        };
        match &self.query {
            Some(query) => format!("{path}?{query}"),
            None => path.to_string(),
        }
    }
}

/// Reads `text` as `new URL(text)` does; the error is the text of Java's
/// `MalformedURLException` (`no protocol: x`, `unknown protocol: foo`,
/// `Error at index 2 in: "12a"`).
pub fn parse(text: &str) -> Result<JavaUrl, String> {
    // Java trims the spec of characters up to and including space before reading it.
    let spec = text.trim_matches(|c: char| c <= ' ');
    let spec = strip_url_prefix(spec);
    let Some(protocol) = scheme(spec) else {
        return Err(format!("no protocol: {text}"));
    };
    let lowered = protocol.to_ascii_lowercase();
    if !KNOWN_PROTOCOLS.contains(&lowered.as_str()) {
        return Err(format!("unknown protocol: {lowered}"));
    }
    let rest = &spec[protocol.len() + 1..];
    // The fragment is not part of what is requested.
    let rest = rest.split_once('#').map_or(rest, |(before, _)| before);
    let (before_query, query) = match rest.split_once('?') {
        Some((before, query)) => (before, Some(query.to_string())),
        None => (rest, None),
    };
    let mut url = JavaUrl {
        protocol: lowered,
        host: String::new(),
        port: None,
        path: before_query.to_string(),
        query,
    };
    if let Some(after_slashes) = before_query.strip_prefix("//") {
        let (authority, path) = match after_slashes.find('/') {
            Some(slash) => after_slashes.split_at(slash),
            None => (after_slashes, ""),
        };
        url.path = path.to_string();
        // User information (`user:password@`) is not sent by HttpURLConnection; it is dropped.
        let host_port = authority.rsplit_once('@').map_or(authority, |(_, hp)| hp);
        let (host, port) = split_port(host_port)?;
        url.host = host.to_string();
        url.port = port;
    }
    Ok(url)
}

/// Java skips a leading `url:` (any case) before reading the scheme.
fn strip_url_prefix(spec: &str) -> &str {
    match spec.get(..4) {
        Some(prefix) if prefix.eq_ignore_ascii_case("url:") => &spec[4..],
        _ => spec,
    }
}

/// The scheme before the first `:`, when it is one: a letter, then letters, digits, `+`, `-`
/// or `.` (Java's `isValidProtocol`), before any `/`.
fn scheme(spec: &str) -> Option<&str> {
    let colon = spec.find(':')?;
    let candidate = &spec[..colon];
    let mut chars = candidate.chars();
    let first = chars.next()?;
    let valid = first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(candidate)
}

/// The host and port of an authority; an IPv6 address is bracketed, and its colons are not
/// the port's.
fn split_port(host_port: &str) -> Result<(&str, Option<u32>), String> {
    let port_colon = if host_port.starts_with('[') {
        match host_port.find(']') {
            Some(close) => host_port[close..].find(':').map(|at| close + at),
            None => return Err(format!("Invalid host: {host_port}")),
        }
    } else {
        host_port.find(':')
    };
    let Some(colon) = port_colon else {
        return Ok((host_port, None));
    };
    let digits = &host_port[colon + 1..];
    if digits.is_empty() {
        return Ok((&host_port[..colon], None));
    }
    Ok((&host_port[..colon], Some(parse_port(digits)?)))
}

/// The port as `Integer.parseInt` reads it, failing at the same index with Java's words.
fn parse_port(digits: &str) -> Result<u32, String> {
    let mut value: u32 = 0;
    for (index, c) in digits.chars().enumerate() {
        let next = c
            .to_digit(10)
            .and_then(|digit| value.checked_mul(10)?.checked_add(digit))
            .filter(|next| *next <= i32::MAX as u32);
        match next {
            Some(next) => value = next,
            None => return Err(format!("Error at index {index} in: \"{digits}\"")),
        }
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::{parse, JavaUrl};

    fn url(
        protocol: &str,
        host: &str,
        port: Option<u32>,
        path: &str,
        query: Option<&str>,
    ) -> JavaUrl {
        JavaUrl {
            protocol: protocol.to_string(),
            host: host.to_string(),
            port,
            path: path.to_string(),
            query: query.map(str::to_string),
        }
    }

    #[test]
    fn reads_the_parts_java_reads() {
        assert_eq!(
            parse("http://127.0.0.1:8080/logs?x=1#top"),
            Ok(url("http", "127.0.0.1", Some(8080), "/logs", Some("x=1")))
        );
        assert_eq!(
            parse("HTTPS://example.com"),
            Ok(url("https", "example.com", None, "", None))
        );
        assert_eq!(
            parse("http://[::1]:9/a"),
            Ok(url("http", "[::1]", Some(9), "/a", None))
        );
        assert_eq!(
            parse("http://[::1]/a"),
            Ok(url("http", "[::1]", None, "/a", None))
        );
        assert_eq!(parse("http://h:/x"), Ok(url("http", "h", None, "/x", None)));
        assert_eq!(
            parse("http://user:pw@h:1/x"),
            Ok(url("http", "h", Some(1), "/x", None))
        );
        assert_eq!(
            parse("  url:http://h/x "),
            Ok(url("http", "h", None, "/x", None))
        );
        assert_eq!(parse("http://"), Ok(url("http", "", None, "", None)));
        assert_eq!(parse("http:x"), Ok(url("http", "", None, "x", None)));
        assert_eq!(parse("http://h:99999/x").map(|u| u.port), Ok(Some(99999)));
    }

    #[test]
    fn refuses_with_javas_words() {
        assert_eq!(
            parse("not a url"),
            Err("no protocol: not a url".to_string())
        );
        assert_eq!(parse(""), Err("no protocol: ".to_string()));
        assert_eq!(parse("foo://x/y"), Err("unknown protocol: foo".to_string()));
        assert_eq!(
            parse("http://127.0.0.1:12a/x"),
            Err("Error at index 2 in: \"12a\"".to_string())
        );
        assert_eq!(
            parse("http://127.0.0.1:99999999999/x"),
            Err("Error at index 9 in: \"99999999999\"".to_string())
        );
    }

    #[test]
    fn other_known_protocols_are_read_for_the_caller_to_refuse() {
        for text in ["ftp://h/x", "jar:file:/x!/", "mailto:a@b", "file:///tmp/x"] {
            let parsed = parse(text).expect(text);
            assert!(
                parsed.protocol != "http" && parsed.protocol != "https",
                "{text}"
            );
        }
    }

    #[test]
    fn the_request_target_is_the_path_and_query() {
        assert_eq!(parse("http://h").unwrap().request_target(), "/");
        assert_eq!(parse("http://h?a=b").unwrap().request_target(), "/?a=b");
        assert_eq!(
            parse("http://h/p/q?a=b#f").unwrap().request_target(),
            "/p/q?a=b"
        );
    }
}
