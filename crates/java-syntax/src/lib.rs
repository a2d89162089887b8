//! The Java syntaxes that log4j2 configurations embed, read the way Java reads them, in one
//! place so that every l4rs crate agrees on them:
//!
//! * [`regex`]: `java.util.regex` patterns (`RegexFilter`, `%replace`, `<Replace>`,
//!   `IfFileName regex`), translated into the `regex` crate's syntax with Java's meaning, or
//!   refused with the construct named when the `regex` crate cannot express that meaning.
//! * [`date_pattern`]: `SimpleDateFormat`-style date patterns (`%d{…}` in layouts and
//!   `filePattern`, the `${date:…}` lookup), split into literal text and letter fields.
//!
//! Both entry points take any text and never panic: a pattern either translates or comes
//! back as an error that says what is wrong and where.

pub mod date_pattern;
pub mod regex;
