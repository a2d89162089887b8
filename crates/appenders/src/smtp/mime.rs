//! The mail itself, written as log4j2's SmtpManager has JavaMail 1.6 write it: the message
//! headers in JavaMail's order (`Date`, `From`, `Reply-To`, `To`, `Cc`, `Message-ID`,
//! `Subject`, `MIME-Version`, `Content-Type`), a `multipart/mixed` body of one part holding the
//! layout's text, and that text in the transfer encoding JavaMail's `MimeUtility.getEncoding`
//! picks for it (7bit, quoted-printable or base64). Non-ASCII header text is written as RFC
//! 2047 encoded words, long header lines folded, as JavaMail does it.

/// How the part's bytes are written (`Content-Transfer-Encoding`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TransferEncoding {
    /// As they are: ASCII lines of at most 998 bytes.
    SevenBit,
    /// Quoted-printable: mostly ASCII text.
    QuotedPrintable,
    /// Base64: mostly non-ASCII text, or non-ASCII bytes in a type that is not `text/*`.
    Base64,
}

impl TransferEncoding {
    /// The header's value.
    pub(crate) fn name(self) -> &'static str {
        match self {
            TransferEncoding::SevenBit => "7bit",
            TransferEncoding::QuotedPrintable => "quoted-printable",
            TransferEncoding::Base64 => "base64",
        }
    }
}

/// What JavaMail's `checkAscii` finds in a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ascii {
    All,
    Mostly,
    MostlyNot,
}

/// JavaMail's `nonascii`: DEL and above, and the control characters but CR, LF and tab.
fn non_ascii(unit: u32) -> bool {
    unit >= 0x7f || (unit < 0x20 && !matches!(unit, 0x0d | 0x0a | 0x09))
}

/// JavaMail's `checkAscii` over bytes: a line longer than 998 bytes makes ASCII text only
/// "mostly" ASCII; with `stop_at_non_ascii` the first non-ASCII byte decides.
fn check_ascii_bytes(bytes: &[u8], stop_at_non_ascii: bool) -> Ascii {
    let (mut ascii, mut other, mut line, mut long_line) = (0usize, 0usize, 0usize, false);
    for &byte in bytes {
        if byte == b'\r' || byte == b'\n' {
            line = 0;
        } else {
            line += 1;
            long_line |= line > 998;
        }
        if non_ascii(u32::from(byte)) {
            if stop_at_non_ascii {
                return Ascii::MostlyNot;
            }
            other += 1;
        } else {
            ascii += 1;
        }
    }
    match (other, long_line) {
        (0, true) => Ascii::Mostly,
        (0, false) => Ascii::All,
        _ if ascii > other => Ascii::Mostly,
        _ => Ascii::MostlyNot,
    }
}

/// JavaMail's `checkAscii` over a Java string's UTF-16 units.
fn check_ascii_text(text: &str) -> Ascii {
    let (mut ascii, mut other) = (0usize, 0usize);
    for unit in text.encode_utf16() {
        if non_ascii(u32::from(unit)) {
            other += 1;
        } else {
            ascii += 1;
        }
    }
    match other {
        0 => Ascii::All,
        _ if ascii > other => Ascii::Mostly,
        _ => Ascii::MostlyNot,
    }
}

/// `MimeUtility.getEncoding` for `content` of the layout's `content_type`.
pub(crate) fn transfer_encoding(content: &[u8], content_type: &str) -> TransferEncoding {
    let Some((primary, charset)) = parse_content_type(content_type) else {
        // JavaMail falls back to base64 when the type cannot be parsed.
        return TransferEncoding::Base64;
    };
    let text = primary.eq_ignore_ascii_case("text");
    match check_ascii_bytes(content, !text) {
        Ascii::All => TransferEncoding::SevenBit,
        Ascii::Mostly if text && charset.is_some_and(|c| ascii_is_not_ascii_in(&c)) => {
            TransferEncoding::Base64
        }
        Ascii::Mostly => TransferEncoding::QuotedPrintable,
        Ascii::MostlyNot => TransferEncoding::Base64,
    }
}

/// The primary type and the `charset` parameter of a `type/subtype; name=value` content type;
/// `None` when it is not one.
fn parse_content_type(content_type: &str) -> Option<(String, Option<String>)> {
    let mut parts = content_type.split(';');
    let (primary, sub) = parts.next()?.trim().split_once('/')?;
    let token = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b > b' ' && b < 0x7f && !b"()<>@,;:\\\"/[]?=".contains(&b))
    };
    if !token(primary.trim()) || !token(sub.trim()) {
        return None;
    }
    let charset = parts.find_map(|parameter| {
        let (name, value) = parameter.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches('"').to_string())
    });
    Some((primary.trim().to_string(), charset))
}

/// JavaMail's `nonAsciiCharset`: a charset in which CR LF is not the two ASCII bytes (UTF-16
/// and UTF-32 in their forms); text in one is sent as base64 rather than quoted-printable.
fn ascii_is_not_ascii_in(charset: &str) -> bool {
    let name = charset.to_ascii_lowercase().replace(['-', '_'], "");
    [
        "utf16", "utf32", "ucs2", "ucs4", "unicode", "xutf16", "xutf32",
    ]
    .iter()
    .any(|prefix| name.starts_with(prefix))
}

/// Encodes `content` into `out` as `encoding` does it.
pub(crate) fn encode_content(content: &[u8], encoding: TransferEncoding, out: &mut Vec<u8>) {
    match encoding {
        TransferEncoding::SevenBit => out.extend_from_slice(content),
        TransferEncoding::QuotedPrintable => quoted_printable(content, out),
        TransferEncoding::Base64 => base64_lines(content, out),
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// JavaMail's `QPEncoderStream` with 76-byte lines: every line break becomes CRLF, a space
/// before one is encoded, `=` and bytes outside printable ASCII are `=XX`, and a line that
/// would pass 75 characters is broken with a soft `=` CRLF.
fn quoted_printable(content: &[u8], out: &mut Vec<u8>) {
    const LIMIT: usize = 75;
    let mut column = 0usize;
    let output = |out: &mut Vec<u8>, byte: u8, encode: bool, column: &mut usize| {
        let width = if encode { 3 } else { 1 };
        *column += width;
        if *column > LIMIT {
            out.extend_from_slice(b"=\r\n");
            *column = width;
        }
        if encode {
            out.extend_from_slice(&[
                b'=',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 15)],
            ]);
        } else {
            out.push(byte);
        }
    };
    let (mut pending_space, mut after_cr) = (false, false);
    for &byte in content {
        if pending_space {
            output(out, b' ', byte == b'\r' || byte == b'\n', &mut column);
            pending_space = false;
        }
        if byte == b'\r' {
            after_cr = true;
            out.extend_from_slice(b"\r\n");
            column = 0;
            continue;
        }
        if byte == b'\n' {
            if !after_cr {
                out.extend_from_slice(b"\r\n");
                column = 0;
            }
        } else if byte == b' ' {
            pending_space = true;
        } else if !(0x20..0x7f).contains(&byte) || byte == b'=' {
            output(out, byte, true, &mut column);
        } else {
            output(out, byte, false, &mut column);
        }
        after_cr = false;
    }
    if pending_space {
        output(out, b' ', true, &mut column);
    }
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Base64 of `bytes` with `=` padding, no line breaks.
fn base64(bytes: &[u8], out: &mut Vec<u8>) {
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        out.push(BASE64[(n >> 18) as usize & 63]);
        out.push(BASE64[(n >> 12) as usize & 63]);
        out.push(if chunk.len() > 1 {
            BASE64[(n >> 6) as usize & 63]
        } else {
            b'='
        });
        out.push(if chunk.len() > 2 {
            BASE64[n as usize & 63]
        } else {
            b'='
        });
    }
}

/// Base64 in lines of 76 characters, each ended by CRLF (`BASE64EncoderStream`).
fn base64_lines(content: &[u8], out: &mut Vec<u8>) {
    // 57 bytes make one 76-character line.
    for line in content.chunks(57) {
        base64(line, out);
        out.extend_from_slice(b"\r\n");
    }
}

/// Base64 of `bytes` as text (the SMTP login's challenges and answers).
pub(crate) fn base64_text(bytes: &[u8]) -> String {
    let mut out = Vec::with_capacity(bytes.len().div_ceil(3) * 4);
    base64(bytes, &mut out);
    String::from_utf8(out).expect("base64 is ASCII")
}

/// The characters a Q-encoded `Subject` escapes besides those outside printable ASCII.
const TEXT_SPECIALS: &str = "=_?";

/// `MimeUtility.encodeText` for a `Subject`.
pub(crate) fn encode_text(text: &str) -> String {
    encode(text, TEXT_SPECIALS)
}

/// ASCII text unchanged; anything else as UTF-8 encoded words, `Q` when the text is mostly
/// ASCII and `B` otherwise, each at most 75 characters, the text split in halves (by UTF-16
/// unit, never between a surrogate pair) until each half fits, as JavaMail splits it.
fn encode(text: &str, specials: &str) -> String {
    let ascii = check_ascii_text(text);
    if ascii == Ascii::All {
        return text.to_string();
    }
    let b = ascii == Ascii::MostlyNot;
    let prefix = if b { "=?UTF-8?B?" } else { "=?UTF-8?Q?" };
    // 75 minus `=?`, `?Q?`, `?=` and the charset's name.
    let available = 75 - 7 - "UTF-8".len();
    let units: Vec<u16> = text.encode_utf16().collect();
    let mut out = String::new();
    encode_units(&units, b, specials, available, prefix, true, &mut out);
    out
}

fn encode_units(
    units: &[u16],
    b: bool,
    specials: &str,
    available: usize,
    prefix: &str,
    first: bool,
    out: &mut String,
) {
    let bytes = String::from_utf16_lossy(units).into_bytes();
    let length = if b {
        bytes.len().div_ceil(3) * 4
    } else {
        bytes
            .iter()
            .map(|&c| if q_encodes(c, specials) { 3 } else { 1 })
            .sum()
    };
    if length > available && units.len() > 1 {
        let mut split = units.len() / 2;
        if (0xd800..0xdc00).contains(&units[split - 1]) {
            split -= 1;
        }
        if split > 0 {
            encode_units(&units[..split], b, specials, available, prefix, first, out);
        }
        encode_units(&units[split..], b, specials, available, prefix, false, out);
        return;
    }
    if !first {
        out.push(' ');
    }
    out.push_str(prefix);
    let mut encoded = Vec::with_capacity(length);
    if b {
        base64(&bytes, &mut encoded);
    } else {
        for &c in &bytes {
            if c == b' ' {
                encoded.push(b'_');
            } else if q_encodes(c, specials) {
                encoded.extend_from_slice(&[
                    b'=',
                    HEX[usize::from(c >> 4)],
                    HEX[usize::from(c & 15)],
                ]);
            } else {
                encoded.push(c);
            }
        }
    }
    out.push_str(std::str::from_utf8(&encoded).expect("encoded words are ASCII"));
    out.push_str("?=");
}

/// True when a Q encoding writes `c` as `=XX` (a space becomes `_` and counts one).
fn q_encodes(c: u8, specials: &str) -> bool {
    c != b' ' && (!(0x20..0x7f).contains(&c) || specials.as_bytes().contains(&c))
}

/// `MimeUtility.fold`: trailing white space dropped, then lines broken at the last space or
/// tab before column 76 (`used` is what the line already holds), and line breaks inside the
/// text made safe for a header (`makesafe`).
pub(crate) fn fold(mut used: usize, text: &str) -> String {
    let mut rest = text.trim_end_matches([' ', '\t', '\r', '\n']);
    if used + java_length(rest) <= 76 {
        return make_safe(rest);
    }
    let mut folded = String::with_capacity(rest.len() + 4);
    let mut last = '\0';
    while used + java_length(rest) > 76 {
        let mut last_space = None;
        // Java's index: UTF-16 units.
        let mut position = 0;
        for (index, c) in rest.char_indices() {
            if last_space.is_some() && used + position > 76 {
                break;
            }
            if (c == ' ' || c == '\t') && !(last == ' ' || last == '\t') {
                last_space = Some(index);
            }
            last = c;
            position += c.len_utf16();
        }
        let Some(space) = last_space else {
            // No place to break: the rest stays on one line.
            break;
        };
        folded.push_str(&rest[..space]);
        folded.push_str("\r\n");
        last = rest[space..].chars().next().expect("a space");
        folded.push(last);
        rest = &rest[space + 1..];
        used = 1;
    }
    folded.push_str(rest);
    make_safe(&folded)
}

/// A text's length as Java counts it: UTF-16 units.
pub(crate) fn java_length(text: &str) -> usize {
    text.encode_utf16().count()
}

/// JavaMail's `makesafe`: a header value's line breaks each followed by white space (a space
/// is added where the next line starts with none), blank lines dropped, so that text from a
/// log event can never start a header of its own.
fn make_safe(text: &str) -> String {
    if !text.contains(['\r', '\n']) {
        return text.to_string();
    }
    let mut safe = String::with_capacity(text.len() + 1);
    for line in java_lines(text) {
        if line.trim_matches(|c: char| c <= ' ').is_empty() {
            continue;
        }
        if !safe.is_empty() {
            safe.push_str("\r\n");
            if !line.starts_with([' ', '\t']) {
                safe.push(' ');
            }
        }
        safe.push_str(line);
    }
    safe
}

/// Lines as Java's `BufferedReader.readLine` splits them: at CR, LF or CR LF.
fn java_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(['\r', '\n']).unwrap_or(rest.len());
        let line = &rest[..end];
        let skip = if rest[end..].starts_with("\r\n") {
            2
        } else {
            usize::from(end < rest.len())
        };
        rest = &rest[end + skip..];
        Some(line)
    })
}

/// The message headers' values, already in header form (addresses from
/// [`super::address::header_value`]).
pub(crate) struct Headers<'a> {
    /// `Date`, as JavaMail's `MailDateFormat` writes it.
    pub date: &'a str,
    /// `From`, when there is a sender.
    pub from: Option<&'a str>,
    /// `Reply-To`.
    pub reply_to: Option<&'a str>,
    /// `To`.
    pub to: Option<&'a str>,
    /// `Cc`.
    pub cc: Option<&'a str>,
    /// `Message-ID`, with its angle brackets.
    pub message_id: &'a str,
    /// `Subject`, as formatted (encoded and folded here).
    pub subject: Option<&'a str>,
}

/// Writes the whole message: the headers, then the part of `content_type` holding `content`
/// between `boundary` lines.
pub(crate) fn write_message(
    headers: &Headers<'_>,
    boundary: &str,
    content_type: &str,
    content: &[u8],
    out: &mut Vec<u8>,
) {
    let mut header = |name: &str, value: &str| {
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    };
    header("Date", headers.date);
    let optional = [
        ("From", headers.from),
        ("Reply-To", headers.reply_to),
        ("To", headers.to),
        ("Cc", headers.cc),
    ];
    for (name, value) in optional {
        if let Some(value) = value {
            header(name, value);
        }
    }
    header("Message-ID", headers.message_id);
    if let Some(subject) = headers.subject {
        header("Subject", &fold("Subject: ".len(), &encode_text(subject)));
    }
    header("MIME-Version", "1.0");
    header("Content-Type", &multipart_type(boundary));
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(b"--");
    out.extend_from_slice(boundary.as_bytes());
    out.extend_from_slice(b"\r\n");
    let encoding = transfer_encoding(content, content_type);
    // log4j2 appends the charset to the layout's type whatever it holds. A line break in it
    // (an HtmlLayout's `contentType`) is made safe, so it cannot end the part's headers.
    out.extend_from_slice(
        format!(
            "Content-Type: {}; charset=UTF-8\r\n",
            make_safe(content_type)
        )
        .as_bytes(),
    );
    out.extend_from_slice(
        format!("Content-Transfer-Encoding: {}\r\n\r\n", encoding.name()).as_bytes(),
    );
    encode_content(content, encoding, out);
    out.extend_from_slice(b"\r\n--");
    out.extend_from_slice(boundary.as_bytes());
    out.extend_from_slice(b"--\r\n");
}

/// `multipart/mixed; boundary="…"`, the parameter on a line of its own when it would pass
/// column 76 (JavaMail's `ParameterList.toString`).
fn multipart_type(boundary: &str) -> String {
    let used = "Content-Type: multipart/mixed".len() + 2;
    let parameter = format!("boundary=\"{boundary}\"");
    if used + parameter.len() > 76 {
        format!("multipart/mixed; \r\n\t{parameter}")
    } else {
        format!("multipart/mixed; {parameter}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn qp(text: &str) -> String {
        let mut out = Vec::new();
        quoted_printable(text.as_bytes(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn picks_the_transfer_encoding_as_javamail_does() {
        use TransferEncoding::*;
        assert_eq!(transfer_encoding(b"plain\nlines\n", "text/plain"), SevenBit);
        assert_eq!(
            transfer_encoding("caf\u{e9}\n".as_bytes(), "text/plain"),
            QuotedPrintable
        );
        assert_eq!(
            transfer_encoding(&[b'x'; 999], "text/plain"),
            QuotedPrintable
        );
        assert_eq!(transfer_encoding(&[b'x'; 998], "text/plain"), SevenBit);
        assert_eq!(
            transfer_encoding("\u{e9}\u{e9}".as_bytes(), "text/plain"),
            Base64
        );
        assert_eq!(
            transfer_encoding("caf\u{e9}".as_bytes(), "application/json; charset=UTF-8"),
            Base64
        );
        assert_eq!(
            transfer_encoding(b"{}", "application/json; charset=UTF-8"),
            SevenBit
        );
        assert_eq!(
            transfer_encoding(b"a\tb\x01", "text/plain"),
            QuotedPrintable
        );
        assert_eq!(
            transfer_encoding("caf\u{e9}".as_bytes(), "text/html; charset=UTF-16"),
            Base64
        );
        assert_eq!(transfer_encoding(b"x", "no type"), Base64);
    }

    #[test]
    fn quoted_printable_breaks_lines_and_encodes_as_javamail_does() {
        assert_eq!(qp("a = b\n"), "a =3D b\r\n");
        assert_eq!(qp("trailing \nspace "), "trailing=20\r\nspace=20");
        assert_eq!(qp("tab\there"), "tab=09here");
        assert_eq!(qp("\r\n\r"), "\r\n\r\n");
        let long = "x".repeat(80);
        assert_eq!(
            qp(&long),
            format!("{}=\r\n{}", "x".repeat(75), "x".repeat(5))
        );
        let encoded = "\u{e9}".repeat(30);
        let out = qp(&encoded);
        assert!(out.split("\r\n").all(|line| line.len() <= 76), "{out}");
    }

    #[test]
    fn base64_lines_are_76_characters_each_ended_by_crlf() {
        let mut out = Vec::new();
        base64_lines(&[0xff; 60], &mut out);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.split("\r\n").collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert_eq!(lines[0].len(), 76);
        assert_eq!(lines[1], "////");
        assert_eq!(lines[2], "");
        assert_eq!(base64_text(b"\0user\0pass"), "AHVzZXIAcGFzcw==");
    }

    #[test]
    fn encodes_header_text_in_words_as_javamail_does() {
        assert_eq!(encode_text("plain"), "plain");
        assert_eq!(
            encode_text("[ERROR] app.db: boom \u{e9}"),
            "=?UTF-8?Q?[ERROR]_app.db:_boom_=C3=A9?="
        );
        assert_eq!(encode_text("\u{e9}\u{e8}"), "=?UTF-8?B?w6nDqA==?=");
        let long = format!("{}\u{e9}", "word ".repeat(20));
        let encoded = encode_text(&long);
        assert!(encoded.split(' ').all(|word| word.len() <= 75), "{encoded}");
        assert!(encoded.split(' ').count() > 1, "{encoded}");
        // A surrogate pair is never split between two words.
        let emoji = "\u{1f600}".repeat(40);
        let encoded = encode_text(&emoji);
        for word in encoded.split(' ') {
            let payload = word.trim_start_matches("=?UTF-8?B?").trim_end_matches("?=");
            assert_eq!(payload.len() % 4, 0, "{word}");
        }
    }

    #[test]
    fn folds_and_makes_line_breaks_safe() {
        assert_eq!(fold(9, "short"), "short");
        let long = "a ".repeat(50);
        let folded = fold(9, &long);
        assert!(
            folded.lines().all(|line| line.trim_end().len() <= 76),
            "{folded}"
        );
        assert!(folded.contains("\r\n "), "{folded}");
        assert_eq!(make_safe("one\nBcc: x@y.org\n\n"), "one\r\n Bcc: x@y.org");
        assert_eq!(fold(9, &"x".repeat(100)), "x".repeat(100));
    }

    #[test]
    fn writes_a_multipart_message_with_one_part() {
        let mut out = Vec::new();
        write_message(
            &Headers {
                date: "Mon, 7 Dec 2026 06:28:53 +0000 (UTC)",
                from: Some("logs@example.com"),
                reply_to: None,
                to: Some("a@example.com"),
                cc: None,
                message_id: "<1.1.1@host>",
                subject: Some("s"),
            },
            "----=_Part_0_131206411.1796624933440",
            "text/plain",
            b"line\n",
            &mut out,
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "Date: Mon, 7 Dec 2026 06:28:53 +0000 (UTC)\r\nFrom: logs@example.com\r\nTo: a@example.com\r\nMessage-ID: <1.1.1@host>\r\nSubject: s\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; \r\n\tboundary=\"----=_Part_0_131206411.1796624933440\"\r\n\r\n------=_Part_0_131206411.1796624933440\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\nline\n\r\n------=_Part_0_131206411.1796624933440--\r\n"
        );
    }
}
