//! The JDBC appender's parsers: a fuzzed connection string (with a user, a password and one
//! connection property) read as xerial's and pgjdbc's URLs, and a fuzzed statement whose JDBC
//! `?` placeholders are numbered for PostgreSQL. Neither may panic; a refusal never shows the
//! password the URL or the element carries; a statement without `?` is left as it is; and the
//! numbering is the count of `$n` it added, 1, 2, … in order.
//!
//! Input: `connection-string NUL user NUL password NUL statement`.
#![no_main]

use l4rs_jdbc::fuzzing::{fuzz_connection_string, fuzz_numbered_placeholders};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some([url, user, password, statement]) = l4rs_fuzz::text_fields::<4>(data) else {
        return;
    };
    let properties = [("password".to_string(), password.to_string())];
    for (user, password, properties) in [
        (Some(user), Some(password), &[][..]),
        (None, None, &properties[..]),
    ] {
        if let Err(refusal) = fuzz_connection_string(url, user, password, properties) {
            // A `password=` parameter's value is not shown (the `user:password@` part is
            // checked by the unit tests of crates/jdbc/src/url.rs).
            let secret = password
                .or(properties.first().map(|p| p.1.as_str()))
                .unwrap_or("");
            if !secret.is_empty() && !secret.contains(['&', ';', '*']) {
                let lower = refusal.to_ascii_lowercase();
                let parameter = format!("password={}", secret.to_ascii_lowercase());
                assert!(!lower.contains(&parameter), "{refusal}");
            }
        }
    }
    let numbered = fuzz_numbered_placeholders(statement);
    if !statement.contains('?') {
        assert_eq!(numbered, statement);
    }
    if !statement.contains('$') {
        // Every `$n` in the output was added, numbered from 1 in order.
        let mut expected = 1;
        let mut rest = numbered.as_str();
        while let Some(at) = rest.find('$') {
            // The number may be followed by digits of the statement's own text.
            let number = expected.to_string();
            assert!(
                rest[at + 1..].starts_with(&number),
                "{statement:?} -> {numbered:?}"
            );
            expected += 1;
            rest = &rest[at + 1 + number.len()..];
        }
    }
});
