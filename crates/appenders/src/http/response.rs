//! Reading an HTTP/1.x response off a connection: the status line, the headers that frame the
//! body (`Content-Length`, `Transfer-Encoding: chunked`, `Connection`), and the body itself,
//! read to its end so that the connection can carry the next request.
//!
//! Every response is read into one buffer that the connection keeps, so reading allocates
//! nothing once the buffer has grown to the server's usual response. A response is read whole
//! (Java's `HttpURLConnection` reads it whole too), but only the first [`KEPT_BODY`] bytes of
//! its body are kept, for an error's message; the head may be at most [`MAX_HEAD`] bytes.

use std::io::{self, Read};

/// The most bytes of a response's status line and headers.
pub(crate) const MAX_HEAD: usize = 64 * 1024;
/// The most bytes of a body kept for an error's message; the rest is read and dropped.
pub(crate) const KEPT_BODY: usize = 4 * 1024;
/// How many interim (1xx) responses may come before the final one.
const MAX_INTERIM: usize = 16;

/// A response's status and what became of its body.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Response {
    /// The status code.
    pub code: u16,
    /// Where the reason phrase is in the buffer (after the code, trimmed).
    reason: std::ops::Range<usize>,
    /// Where the kept part of the body is in the buffer.
    body: std::ops::Range<usize>,
    /// Whether the connection can carry another request.
    pub reusable: bool,
    /// `Keep-Alive: timeout=…`: how many seconds the server keeps the connection open.
    pub keep_alive_timeout: Option<u64>,
    /// `Keep-Alive: max=…`: how many more requests the server takes on it.
    pub keep_alive_max: Option<u64>,
    /// The response names a `Location` (a redirect, with a 3xx).
    pub redirect: bool,
}

impl Response {
    /// The reason phrase (`Not Found`), possibly empty.
    pub(crate) fn reason<'b>(&self, buffer: &'b [u8]) -> &'b [u8] {
        &buffer[self.reason.clone()]
    }

    /// The first [`KEPT_BODY`] bytes of the body.
    pub(crate) fn body<'b>(&self, buffer: &'b [u8]) -> &'b [u8] {
        &buffer[self.body.clone()]
    }
}

/// Why a response could not be read; the text is what Java's exception says.
#[derive(Debug)]
pub(crate) enum ResponseError {
    /// The connection closed before any byte of a response: the request may not have been
    /// read (a kept-alive connection the server had closed); it can be sent again.
    ClosedBeforeResponse,
    /// The socket failed (a timeout is `WouldBlock`/`TimedOut`).
    Io(io::Error),
    /// What arrived is not an HTTP response, or the connection closed inside one.
    Malformed(&'static str),
}

/// The buffers a connection keeps for its responses, reused from one to the next.
#[derive(Default)]
pub(crate) struct ResponseBuffers {
    /// The status line, headers and kept body of the last response.
    pub kept: Vec<u8>,
    /// Bytes read from the connection and not yet consumed.
    input: Vec<u8>,
    /// A chunk-size or trailer line.
    line: Vec<u8>,
}

/// Reads the final response to a request with `method` from `reader`, into `buffers.kept`
/// (cleared first), where the response's ranges point.
pub(crate) fn read_response(
    reader: &mut impl Read,
    buffers: &mut ResponseBuffers,
    method: &str,
) -> Result<Response, ResponseError> {
    let buffer = &mut buffers.kept;
    buffer.clear();
    buffers.input.clear();
    let mut input = Input {
        reader,
        pending: &mut buffers.input,
        line: &mut buffers.line,
        start: 0,
        any_byte: false,
    };
    for _ in 0..=MAX_INTERIM {
        let head = input.read_head(buffer)?;
        let parsed = parse_head(&buffer[head.clone()])?;
        let reason = head.start + parsed.reason.start..head.start + parsed.reason.end;
        if (100..200).contains(&parsed.code) {
            // `100 Continue` and the like precede the real response.
            continue;
        }
        let body_start = buffer.len();
        let no_body =
            method.eq_ignore_ascii_case("HEAD") || parsed.code == 204 || parsed.code == 304;
        let framed_to_close = if no_body {
            false
        } else if parsed.chunked {
            input.read_chunked(buffer, body_start)?;
            false
        } else if let Some(length) = parsed.content_length {
            input.read_exactly(buffer, body_start, length)?;
            false
        } else {
            input.read_to_end(buffer, body_start)?;
            true
        };
        let body = body_start..buffer.len();
        return Ok(Response {
            code: parsed.code,
            reason,
            body,
            reusable: parsed.keep_alive && !framed_to_close && input.drained(),
            keep_alive_timeout: parsed.keep_alive_timeout,
            keep_alive_max: parsed.keep_alive_max,
            redirect: parsed.location,
        });
    }
    Err(ResponseError::Malformed("too many interim responses"))
}

/// The parts of a response head that matter here.
struct Head {
    code: u16,
    reason: std::ops::Range<usize>,
    content_length: Option<u64>,
    chunked: bool,
    keep_alive: bool,
    keep_alive_timeout: Option<u64>,
    keep_alive_max: Option<u64>,
    location: bool,
}

/// Reads a status line and headers (`head` holds them, CRLF or LF line ends, no final blank
/// line).
fn parse_head(head: &[u8]) -> Result<Head, ResponseError> {
    let mut lines = head
        .split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line));
    let status = lines.next().unwrap_or_default();
    let rest = status
        .strip_prefix(b"HTTP/1.")
        .ok_or(ResponseError::Malformed("Invalid Http response"))?;
    let minor = *rest
        .first()
        .ok_or(ResponseError::Malformed("Invalid Http response"))?;
    let code_text = rest
        .get(1..5)
        .filter(|code| code[0] == b' ' && code[1..].iter().all(u8::is_ascii_digit))
        .ok_or(ResponseError::Malformed("Invalid Http response"))?;
    let code = code_text[1..]
        .iter()
        .fold(0u16, |code, digit| code * 10 + u16::from(digit - b'0'));
    if rest.len() > 5 && rest[5] != b' ' {
        return Err(ResponseError::Malformed("Invalid Http response"));
    }
    // "HTTP/1." is 7 bytes, the minor version 1, the space and code 4, then a space.
    let reason_start = (7 + 5 + 1).min(status.len());
    // The reason ends at a control character (a stray CR): it is printed in status messages.
    let reason_end = status[reason_start..]
        .iter()
        .position(|&b| (b < b' ' && b != b'\t') || b == 0x7f)
        .map_or(status.len(), |at| reason_start + at);
    let reason = trim_range(status, reason_start..reason_end);
    let mut parsed = Head {
        code,
        reason,
        content_length: None,
        chunked: false,
        keep_alive: minor != b'0',
        keep_alive_timeout: None,
        keep_alive_max: None,
        location: false,
    };
    for line in lines {
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let name = &line[..colon];
        let value = trim(&line[colon + 1..]);
        if name.eq_ignore_ascii_case(b"content-length") {
            let length = std::str::from_utf8(value)
                .ok()
                .and_then(|text| text.parse::<u64>().ok())
                .ok_or(ResponseError::Malformed("Invalid Content-Length"))?;
            if parsed
                .content_length
                .is_some_and(|earlier| earlier != length)
            {
                return Err(ResponseError::Malformed("Conflicting Content-Length"));
            }
            parsed.content_length = Some(length);
        } else if name.eq_ignore_ascii_case(b"transfer-encoding") {
            parsed.chunked = value
                .rsplit(|&b| b == b',')
                .next()
                .is_some_and(|last| trim(last).eq_ignore_ascii_case(b"chunked"));
        } else if name.eq_ignore_ascii_case(b"location") {
            parsed.location = true;
        } else if name.eq_ignore_ascii_case(b"keep-alive") {
            for parameter in value.split(|&b| b == b',').map(trim) {
                let Some(equals) = parameter.iter().position(|&b| b == b'=') else {
                    continue;
                };
                let number = std::str::from_utf8(trim(&parameter[equals + 1..]))
                    .ok()
                    .and_then(|text| text.parse::<u64>().ok());
                let key = trim(&parameter[..equals]);
                if key.eq_ignore_ascii_case(b"timeout") {
                    parsed.keep_alive_timeout = number;
                } else if key.eq_ignore_ascii_case(b"max") {
                    parsed.keep_alive_max = number;
                }
            }
        } else if name.eq_ignore_ascii_case(b"connection") {
            for token in value.split(|&b| b == b',').map(trim) {
                if token.eq_ignore_ascii_case(b"close") {
                    parsed.keep_alive = false;
                } else if token.eq_ignore_ascii_case(b"keep-alive") {
                    parsed.keep_alive = true;
                }
            }
        }
    }
    Ok(parsed)
}

fn trim(bytes: &[u8]) -> &[u8] {
    let range = trim_range(bytes, 0..bytes.len());
    &bytes[range]
}

fn trim_range(bytes: &[u8], mut range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    while range.start < range.end && bytes[range.start].is_ascii_whitespace() {
        range.start += 1;
    }
    while range.end > range.start && bytes[range.end - 1].is_ascii_whitespace() {
        range.end -= 1;
    }
    range
}

/// The connection's bytes, read in blocks: what a block held past the part asked for waits in
/// `pending` (from `start`).
struct Input<'r, R: Read> {
    reader: &'r mut R,
    pending: &'r mut Vec<u8>,
    line: &'r mut Vec<u8>,
    start: usize,
    any_byte: bool,
}

impl<R: Read> Input<'_, R> {
    /// True when nothing read is left over: bytes past the response mean the server sent more
    /// than one response, and the connection is not trusted with another request.
    fn drained(&self) -> bool {
        self.start >= self.pending.len()
    }

    /// One more block into `pending`; `Ok(false)` at the end of the stream.
    fn fill(&mut self) -> Result<bool, ResponseError> {
        if self.start >= self.pending.len() {
            self.pending.clear();
            self.start = 0;
        }
        let mut block = [0u8; 4096];
        let read = loop {
            match self.reader.read(&mut block) {
                Ok(read) => break read,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error)
                    if !self.any_byte
                        && matches!(
                            error.kind(),
                            io::ErrorKind::ConnectionReset
                                | io::ErrorKind::ConnectionAborted
                                // rustls: closed without `close_notify`.
                                | io::ErrorKind::UnexpectedEof
                        ) =>
                {
                    return Err(ResponseError::ClosedBeforeResponse)
                }
                Err(error) => return Err(ResponseError::Io(error)),
            }
        };
        if read == 0 {
            return Ok(false);
        }
        self.any_byte = true;
        self.pending.extend_from_slice(&block[..read]);
        Ok(true)
    }

    /// The head up to its blank line, appended to `buffer`; its range there (without the
    /// blank line).
    fn read_head(&mut self, buffer: &mut Vec<u8>) -> Result<std::ops::Range<usize>, ResponseError> {
        let begin = buffer.len();
        let mut skipped = 0;
        loop {
            let available = &self.pending[self.start..];
            if let Some(newline) = available.iter().position(|&b| b == b'\n') {
                let line = &available[..=newline];
                self.start += newline + 1;
                let content = line
                    .strip_suffix(b"\n")
                    .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
                    .unwrap_or(line);
                if content.is_empty() {
                    if buffer.len() == begin {
                        // Blank lines before a status line are skipped, within the limit.
                        skipped += line.len();
                        if skipped > MAX_HEAD {
                            return Err(ResponseError::Malformed("the response head is too large"));
                        }
                        continue;
                    }
                    return Ok(begin..buffer.len());
                }
                if buffer.len() - begin + line.len() > MAX_HEAD {
                    return Err(ResponseError::Malformed("the response head is too large"));
                }
                buffer.extend_from_slice(line);
                continue;
            }
            if available.len() > MAX_HEAD {
                return Err(ResponseError::Malformed("the response head is too large"));
            }
            if !self.fill()? {
                return Err(if self.any_byte {
                    ResponseError::Malformed("Unexpected end of file from server")
                } else {
                    ResponseError::ClosedBeforeResponse
                });
            }
        }
    }

    /// Keeps up to [`KEPT_BODY`] bytes of the body in `buffer` (whose body begins at
    /// `body_start`).
    fn keep(buffer: &mut Vec<u8>, body_start: usize, bytes: &[u8]) {
        let room = KEPT_BODY.saturating_sub(buffer.len() - body_start);
        buffer.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// Takes up to `wanted` bytes (at least one unless the stream ended) for `take`.
    fn take(&mut self, wanted: u64, take: &mut impl FnMut(&[u8])) -> Result<usize, ResponseError> {
        if self.start >= self.pending.len() && !self.fill()? {
            return Ok(0);
        }
        let available = self.pending.len() - self.start;
        let count = usize::try_from(wanted).map_or(available, |w| w.min(available));
        take(&self.pending[self.start..self.start + count]);
        self.start += count;
        Ok(count)
    }

    fn read_exactly(
        &mut self,
        buffer: &mut Vec<u8>,
        body_start: usize,
        length: u64,
    ) -> Result<(), ResponseError> {
        let mut left = length;
        while left > 0 {
            let taken = self.take(left, &mut |bytes| Self::keep(buffer, body_start, bytes))?;
            if taken == 0 {
                return Err(ResponseError::Malformed("Premature EOF"));
            }
            left -= taken as u64;
        }
        Ok(())
    }

    fn read_to_end(
        &mut self,
        buffer: &mut Vec<u8>,
        body_start: usize,
    ) -> Result<(), ResponseError> {
        while self.take(u64::MAX, &mut |bytes| Self::keep(buffer, body_start, bytes))? > 0 {}
        Ok(())
    }

    /// One line (a chunk size or a trailer) into `self.line`, at most 4 KiB.
    fn read_line(&mut self) -> Result<(), ResponseError> {
        self.line.clear();
        loop {
            let available = &self.pending[self.start..];
            if let Some(newline) = available.iter().position(|&b| b == b'\n') {
                self.line.extend_from_slice(&available[..newline]);
                self.start += newline + 1;
                if self.line.last() == Some(&b'\r') {
                    self.line.pop();
                }
                return Ok(());
            }
            self.line.extend_from_slice(available);
            self.start = self.pending.len();
            if self.line.len() > 4096 {
                return Err(ResponseError::Malformed("a chunk line is too long"));
            }
            if !self.fill()? {
                return Err(ResponseError::Malformed("Premature EOF"));
            }
        }
    }

    fn read_chunked(
        &mut self,
        buffer: &mut Vec<u8>,
        body_start: usize,
    ) -> Result<(), ResponseError> {
        loop {
            self.read_line()?;
            let size_text = self
                .line
                .split(|&b| b == b';')
                .next()
                .map(trim)
                .unwrap_or_default();
            let size = std::str::from_utf8(size_text)
                .ok()
                .filter(|text| !text.is_empty())
                .and_then(|text| u64::from_str_radix(text, 16).ok())
                .ok_or(ResponseError::Malformed("Invalid chunk size"))?;
            if size == 0 {
                // Trailers, up to the blank line.
                loop {
                    self.read_line()?;
                    if self.line.is_empty() {
                        return Ok(());
                    }
                }
            }
            self.read_exactly(buffer, body_start, size)?;
            self.read_line()?;
            if !self.line.is_empty() {
                return Err(ResponseError::Malformed("Invalid chunk end"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{read_response, ResponseBuffers, ResponseError, KEPT_BODY};

    fn read(bytes: &[u8], method: &str) -> Result<(u16, String, String, bool), String> {
        let mut buffers = ResponseBuffers::default();
        let result = read_response(&mut &bytes[..], &mut buffers, method);
        let buffer = &buffers.kept;
        result
            .map(|response| {
                (
                    response.code,
                    String::from_utf8_lossy(response.reason(buffer)).into_owned(),
                    String::from_utf8_lossy(response.body(buffer)).into_owned(),
                    response.reusable,
                )
            })
            .map_err(|error| format!("{error:?}"))
    }

    #[test]
    fn reads_a_framed_response_and_keeps_the_connection() {
        assert_eq!(
            read(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", "POST"),
            Ok((200, "OK".into(), "ok".into(), true))
        );
        assert_eq!(
            read(
                b"HTTP/1.1 500 Server Error\r\nContent-Length: 0\r\n\r\n",
                "POST"
            ),
            Ok((500, "Server Error".into(), String::new(), true))
        );
    }

    #[test]
    fn reads_chunks_and_trailers() {
        assert_eq!(
            read(
                b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nT: 1\r\n\r\n",
                "POST"
            ),
            Ok((404, "Not Found".into(), "abcde".into(), true))
        );
    }

    #[test]
    fn a_body_to_the_end_of_the_connection_closes_it() {
        assert_eq!(
            read(b"HTTP/1.0 200 OK\r\n\r\nrest", "POST"),
            Ok((200, "OK".into(), "rest".into(), false))
        );
        assert_eq!(
            read(
                b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n",
                "POST"
            ),
            Ok((200, "OK".into(), String::new(), false))
        );
    }

    #[test]
    fn skips_interim_responses_and_has_no_body_for_head() {
        assert_eq!(
            read(
                b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
                "POST"
            ),
            Ok((204, "No Content".into(), String::new(), true))
        );
        assert_eq!(
            read(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n", "HEAD"),
            Ok((200, "OK".into(), String::new(), true))
        );
    }

    #[test]
    fn keeps_only_the_start_of_a_long_body() {
        let mut response = format!(
            "HTTP/1.1 500 E\r\nContent-Length: {}\r\n\r\n",
            KEPT_BODY * 3
        )
        .into_bytes();
        response.extend(std::iter::repeat_n(b'x', KEPT_BODY * 3));
        let (code, _, body, reusable) = read(&response, "POST").expect("read");
        assert_eq!((code, body.len(), reusable), (500, KEPT_BODY, true));
    }

    #[test]
    fn keep_alive_parameters_are_read() {
        let mut buffers = ResponseBuffers::default();
        let response = read_response(
            &mut &b"HTTP/1.1 200 OK\r\nKeep-Alive: timeout=2, max=7\r\nContent-Length: 0\r\n\r\n"[..],
            &mut buffers,
            "POST",
        )
        .expect("a response");
        assert_eq!(
            (response.keep_alive_timeout, response.keep_alive_max),
            (Some(2), Some(7))
        );
    }

    #[test]
    fn a_reason_ends_at_a_control_character() {
        assert_eq!(
            read(b"HTTP/1.1 200 OK\rX-Injected: 1\r\n\r\n", "HEAD"),
            Ok((200, "OK".into(), String::new(), true))
        );
    }

    #[test]
    fn what_is_not_a_response_is_refused() {
        for bytes in [
            &b"SSH-2.0-OpenSSH\r\n\r\n"[..],
            b"HTTP/1.1 2000 OK\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab",
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        ] {
            assert!(
                matches!(
                    read_response(&mut &bytes[..], &mut ResponseBuffers::default(), "POST"),
                    Err(ResponseError::Malformed(_))
                ),
                "{}",
                String::from_utf8_lossy(bytes)
            );
        }
        assert!(matches!(
            read_response(&mut &b""[..], &mut ResponseBuffers::default(), "POST"),
            Err(ResponseError::ClosedBeforeResponse)
        ));
    }
}
