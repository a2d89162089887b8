//! The SMTP appender's address lists and mails: `to` read as JavaMail's strict parse reads it,
//! written back into a `To` header, and a mail of `content` written around it. Every address
//! read is `local@domain` without white space; the message has exactly its own headers (a line
//! break in a header value is always followed by white space, so neither an address list nor
//! event text in the subject can start a header of its own);
//! the encoded content decodes to the content (quoted-printable with its line breaks as CRLF),
//! in lines of at most 76 characters.
//!
//! Input: `to NUL subject NUL content-type NUL content`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some([to, subject, content_type, content]) = l4rs_fuzz::text_fields::<4>(data) else {
        return;
    };
    let Ok(mail) =
        l4rs_appenders::fuzzing::fuzz_mail(to, subject, content.as_bytes(), content_type)
    else {
        return;
    };
    for (address, _) in &mail.mailboxes {
        assert!(address.contains('@'), "{address:?}");
        assert!(
            !address.chars().any(|c| c.is_whitespace() || c.is_control()),
            "{address:?}"
        );
    }
    let message = String::from_utf8_lossy(&mail.message);
    let headers = message.split("\r\n\r\n").next().unwrap_or("");
    let mut names = Vec::new();
    for line in headers.split("\r\n") {
        if line.starts_with([' ', '\t']) {
            continue;
        }
        let name = line.split(':').next().unwrap_or(line);
        names.push(name.to_string());
    }
    assert_eq!(
        names,
        [
            "Date",
            "To",
            "Message-ID",
            "Subject",
            "MIME-Version",
            "Content-Type"
        ],
        "the headers are the mail's own, each once: {headers:?}"
    );
    for line in mail.encoded.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if mail.encoding != "7bit" {
            assert!(line.len() <= 76, "{} line of {}", mail.encoding, line.len());
        }
    }
    let decoded = match mail.encoding {
        "7bit" => mail.encoded.clone(),
        "base64" => {
            let text: Vec<u8> = mail
                .encoded
                .iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace())
                .collect();
            base64::Engine::decode(&base64::engine::general_purpose::STANDARD, text)
                .expect("the encoded content is base64")
        }
        "quoted-printable" => decode_quoted_printable(&mail.encoded),
        other => panic!("unknown encoding {other}"),
    };
    let expected = if mail.encoding == "quoted-printable" {
        crlf_lines(content.as_bytes())
    } else {
        content.as_bytes().to_vec()
    };
    assert_eq!(
        decoded, expected,
        "{} does not decode to the content",
        mail.encoding
    );
});

/// Every lone CR or LF, and every CR LF, as CR LF.
fn crlf_lines(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut previous = 0;
    for &byte in bytes {
        match byte {
            b'\n' if previous == b'\r' => {}
            b'\r' | b'\n' => out.extend_from_slice(b"\r\n"),
            _ => out.push(byte),
        }
        previous = byte;
    }
    out
}

fn decode_quoted_printable(encoded: &[u8]) -> Vec<u8> {
    let hex = |b: u8| (b as char).to_digit(16).expect("hex digit") as u8;
    let mut out = Vec::with_capacity(encoded.len());
    let mut i = 0;
    while i < encoded.len() {
        if encoded[i] == b'=' {
            if encoded[i + 1..].starts_with(b"\r\n") {
                i += 3;
                continue;
            }
            out.push(hex(encoded[i + 1]) << 4 | hex(encoded[i + 2]));
            i += 3;
        } else {
            out.push(encoded[i]);
            i += 1;
        }
    }
    out
}
