//! The request Java's `HttpURLConnection` writes for log4j2's HttpAppender: the request line,
//! the headers in Java's order, and `Content-Length` for the body that follows.

use std::io::Write as _;

use l4rs_config::model::HttpSpec;

/// The methods `HttpURLConnection.setRequestMethod` accepts.
const METHODS: &[&str] = &["GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"];

/// Headers Java does not let a program set (`sun.net.www.protocol.http.HttpURLConnection`'s
/// restricted headers, and any whose name starts with `Sec-`): a `<Property>` naming one is
/// dropped, as Java drops it, but for `Connection: close`, which Java lets through.
const RESTRICTED: &[&str] = &[
    "access-control-request-headers",
    "access-control-request-method",
    "connection",
    "content-length",
    "content-transfer-encoding",
    "host",
    "keep-alive",
    "origin",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "via",
];

/// What l4rs sends where Java sends `Java/<version>`.
const USER_AGENT: &str = concat!("l4rs/", env!("CARGO_PKG_VERSION"));
/// Java's default `Accept`.
const ACCEPT: &str = "text/html, image/gif, image/jpeg, */*; q=0.2";

/// A header's value: as written, or with `${…}` to resolve for each event.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum HeaderValue {
    Fixed(String),
    Lookup(String),
}

/// The request line and `Host` of every request.
#[derive(Debug)]
pub(crate) struct RequestLine {
    method: String,
    target: String,
    host: String,
}

impl RequestLine {
    /// The request line of `spec`'s requests, or Java's exception for a method it refuses.
    pub(crate) fn new(spec: &HttpSpec) -> Result<RequestLine, String> {
        let method = match spec.method.as_str() {
            // A request with a body is never a GET in Java: it becomes a POST.
            "GET" => "POST",
            "TRACE" => {
                return Err(
                    "java.net.ProtocolException: HTTP method TRACE doesn't support output"
                        .to_string(),
                )
            }
            method if METHODS.contains(&method) => method,
            method => {
                return Err(format!(
                    "java.net.ProtocolException: Invalid HTTP method: {method}"
                ))
            }
        };
        // Java names the port only when it is not the scheme's.
        let default_port = if spec.https { 443 } else { 80 };
        let host = match spec.port {
            Some(port) if port != default_port => format!("{}:{port}", spec.host),
            _ => spec.host.clone(),
        };
        Ok(RequestLine {
            method: method.to_string(),
            target: spec.target.clone(),
            host,
        })
    }

    /// The method sent.
    pub(crate) fn method(&self) -> &str {
        &self.method
    }

    /// Appends the request's head to `out`: the request line, `headers` (each lookup value
    /// resolved by `resolve`), Java's own headers, and `Content-Length: body_length`. A value
    /// that could start a header of its own (a line break) refuses the request with Java's
    /// exception.
    pub(crate) fn write_head(
        &self,
        out: &mut Vec<u8>,
        headers: &[(String, HeaderValue)],
        resolve: impl Fn(&str) -> String,
        body_length: usize,
    ) -> Result<(), String> {
        // Writing into a Vec cannot fail.
        let _ = write!(out, "{} {} HTTP/1.1\r\n", self.method, self.target);
        let mut user_agent = false;
        let mut accept = false;
        let mut connection = false;
        for (name, value) in headers {
            if !is_token(name) {
                return Err(format!(
                    "java.lang.IllegalArgumentException: Illegal character(s) in message header field: {name}"
                ));
            }
            let resolved;
            let value = match value {
                HeaderValue::Fixed(text) => text.as_str(),
                HeaderValue::Lookup(text) => {
                    resolved = resolve(text);
                    resolved.as_str()
                }
            };
            if value.contains(['\r', '\n', '\0']) {
                return Err(format!(
                    "java.lang.IllegalArgumentException: Illegal character(s) in message header value: {value}"
                ));
            }
            user_agent |= name.eq_ignore_ascii_case("user-agent");
            accept |= name.eq_ignore_ascii_case("accept");
            connection |= name.eq_ignore_ascii_case("connection");
            let _ = write!(out, "{name}: {value}\r\n");
        }
        if !user_agent {
            let _ = write!(out, "User-Agent: {USER_AGENT}\r\n");
        }
        let _ = write!(out, "Host: {}\r\n", self.host);
        if !accept {
            let _ = write!(out, "Accept: {ACCEPT}\r\n");
        }
        if !connection {
            let _ = write!(out, "Connection: keep-alive\r\n");
        }
        let _ = write!(out, "Content-Length: {body_length}\r\n\r\n");
        Ok(())
    }
}

/// The headers of every request, in Java's order: `Content-Type` (the layout's), then the
/// `<Property>` headers. As `setRequestProperty` does, a later value for a name (in any case)
/// replaces the earlier one in its place, and restricted names are dropped.
pub(crate) fn header_values(
    content_type: &str,
    properties: &[(String, String)],
) -> Vec<(String, HeaderValue)> {
    let mut headers = vec![(
        "Content-Type".to_string(),
        HeaderValue::Fixed(content_type.to_string()),
    )];
    for (name, value) in properties {
        let connection_close =
            name.eq_ignore_ascii_case("connection") && value.eq_ignore_ascii_case("close");
        let sec = name.len() >= 4 && name[..4].eq_ignore_ascii_case("sec-");
        if !connection_close
            && (sec
                || RESTRICTED
                    .iter()
                    .any(|restricted| name.eq_ignore_ascii_case(restricted)))
        {
            continue;
        }
        let value = if value.contains("${") {
            HeaderValue::Lookup(value.clone())
        } else {
            HeaderValue::Fixed(value.clone())
        };
        match headers
            .iter_mut()
            .rev()
            .find(|(existing, _)| existing.eq_ignore_ascii_case(name))
        {
            Some((_, existing)) => *existing = value,
            None => headers.push((name.clone(), value)),
        }
    }
    headers
}

/// An HTTP token (RFC 9110): what a header name is made of.
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::{header_values, HeaderValue, RequestLine, USER_AGENT};
    use l4rs_config::model::HttpSpec;

    fn spec(method: &str, https: bool, port: Option<u32>) -> HttpSpec {
        HttpSpec {
            url: String::new(),
            https,
            host: "example.com".to_string(),
            port,
            target: "/in?x=1".to_string(),
            method: method.to_string(),
            connect_timeout_millis: 0,
            read_timeout_millis: 0,
            headers: Vec::new(),
            ssl: None,
            verify_hostname: true,
        }
    }

    fn head(line: &RequestLine, properties: &[(&str, &str)]) -> Result<String, String> {
        let properties: Vec<(String, String)> = properties
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        let mut out = Vec::new();
        line.write_head(
            &mut out,
            &header_values("text/plain", &properties),
            |text| text.replace("${ctx:user}", "alice"),
            12,
        )?;
        Ok(String::from_utf8(out).expect("text"))
    }

    #[test]
    fn javas_headers_in_javas_order() {
        let line = RequestLine::new(&spec("POST", false, Some(8080))).expect("valid");
        assert_eq!(
            head(&line, &[("X-One", "1"), ("X-User", "${ctx:user}")]),
            Ok(format!("POST /in?x=1 HTTP/1.1\r\nContent-Type: text/plain\r\nX-One: 1\r\nX-User: alice\r\nUser-Agent: {USER_AGENT}\r\nHost: example.com:8080\r\nAccept: text/html, image/gif, image/jpeg, */*; q=0.2\r\nConnection: keep-alive\r\nContent-Length: 12\r\n\r\n"))
        );
    }

    #[test]
    fn replaced_and_restricted_headers_are_javas() {
        let line = RequestLine::new(&spec("PUT", true, Some(443))).expect("valid");
        assert_eq!(
            head(
                &line,
                &[("X-A", "1"), ("content-type", "application/x-ndjson"), ("x-a", "2"), ("Host", "evil"), ("Sec-Fetch-Mode", "cors"), ("Connection", "Upgrade"), ("Accept", "*/*"), ("User-Agent", "me")]
            ),
            Ok("PUT /in?x=1 HTTP/1.1\r\nContent-Type: application/x-ndjson\r\nX-A: 2\r\nAccept: */*\r\nUser-Agent: me\r\nHost: example.com\r\nConnection: keep-alive\r\nContent-Length: 12\r\n\r\n".to_string())
        );
        // Java lets `Connection: close` through, in its place, and adds no `keep-alive` then.
        assert_eq!(
            head(&line, &[("connection", "Close"), ("X-A", "1")]),
            Ok("PUT /in?x=1 HTTP/1.1\r\nContent-Type: text/plain\r\nconnection: Close\r\nX-A: 1\r\nUser-Agent: l4rs/0.1.0\r\nHost: example.com\r\nAccept: text/html, image/gif, image/jpeg, */*; q=0.2\r\nContent-Length: 12\r\n\r\n".replace("l4rs/0.1.0", USER_AGENT))
        );
    }

    #[test]
    fn a_line_break_in_a_value_refuses_the_request() {
        let line = RequestLine::new(&spec("POST", false, None)).expect("valid");
        let refused = head(&line, &[("X-User", "${ctx:user}\r\nX-Evil: 1")]);
        assert!(refused.is_err_and(|e| e.starts_with(
            "java.lang.IllegalArgumentException: Illegal character(s) in message header value"
        )));
        let refused = head(&line, &[("X Bad", "1")]);
        assert!(refused.is_err_and(|e| e.ends_with("message header field: X Bad")));
    }

    #[test]
    fn methods_are_javas() {
        assert_eq!(
            RequestLine::new(&spec("GET", false, None))
                .expect("valid")
                .method(),
            "POST"
        );
        assert_eq!(
            RequestLine::new(&spec("FOO", false, None)).unwrap_err(),
            "java.net.ProtocolException: Invalid HTTP method: FOO"
        );
        assert!(RequestLine::new(&spec("TRACE", false, None)).is_err());
        assert!(RequestLine::new(&spec("post", false, None)).is_err());
    }

    #[test]
    fn lookups_are_found_once() {
        let headers = header_values(
            "t",
            &[("A".into(), "${x}".into()), ("B".into(), "y".into())],
        );
        assert_eq!(headers[1].1, HeaderValue::Lookup("${x}".into()));
        assert_eq!(headers[2].1, HeaderValue::Fixed("y".into()));
    }
}
