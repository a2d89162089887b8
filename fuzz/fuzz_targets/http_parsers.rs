//! The Http appender's readers: its `url` read as `java.net.URL` reads it
//! (`l4rs_java_syntax::url::parse`), and a server's response read off the connection
//! (`l4rs_appenders::fuzzing::fuzz_http_response`). Neither panics on any input. A URL read has
//! a lower-case scheme and a port Java's `int` holds, and its request target carries no
//! fragment. A response read is a final one (no 1xx) whose kept body is at most the kept
//! length and whose reason has no line break; and it reads the same whether the connection
//! delivers it whole, a byte at a time or in blocks of 7 (but for reuse: bytes past the
//! response that arrived with it make a connection unfit for another request, which bytes still
//! on their way cannot).
//!
//! Input: `url NUL method NUL response` (the response may be any bytes).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(3, |&b| b == 0);
    let url = String::from_utf8_lossy(parts.next().unwrap_or_default());
    let method = String::from_utf8_lossy(parts.next().unwrap_or_default());
    let response = parts.next().unwrap_or_default();

    if let Ok(parsed) = l4rs_java_syntax::url::parse(&url) {
        assert_eq!(parsed.protocol, parsed.protocol.to_ascii_lowercase());
        assert!(parsed.port.is_none_or(|port| port <= i32::MAX as u32));
        assert!(!parsed.request_target().contains('#'), "{parsed:?}");
    }

    let whole = l4rs_appenders::fuzzing::fuzz_http_response(response, &method, usize::MAX);
    if let Ok(read) = &whole {
        assert!(!(100..200).contains(&read.code), "{read:?}");
        assert!(read.body.len() <= l4rs_appenders::fuzzing::FUZZ_KEPT_BODY);
        assert!(!read.reason.contains(&b'\n') && !read.reason.contains(&b'\r'));
    }
    for chunk in [1, 7] {
        let trickled = l4rs_appenders::fuzzing::fuzz_http_response(response, &method, chunk);
        match (&whole, &trickled) {
            (Ok(whole), Ok(trickled)) => {
                assert_eq!(
                    (whole.code, &whole.reason, &whole.body),
                    (trickled.code, &trickled.reason, &trickled.body)
                );
                assert!(
                    !whole.reusable || trickled.reusable,
                    "{whole:?} {trickled:?}"
                );
            }
            (Err(_), Err(_)) => {}
            _ => panic!("whole {whole:?}, {chunk} at a time {trickled:?}"),
        }
    }
});
