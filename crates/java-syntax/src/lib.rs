//! The Java syntaxes that log4j2 configurations embed, read the way Java reads them, in one
//! place so that every l4rs crate agrees on them:
//!
//! * [`regex`]: `java.util.regex` patterns (`RegexFilter`, `%replace`, `<Replace>`,
//!   `IfFileName regex`), translated into the `regex` crate's syntax with Java's meaning, or
//!   refused with the construct named when the `regex` crate cannot express that meaning.
//! * [`date_pattern`]: `SimpleDateFormat`-style date patterns (`%d{…}` in layouts and
//!   `filePattern`, the `${date:…}` lookup), split into literal text and letter fields.
//! * [`local_time`]: times of day as `LocalTime.parse` reads `HH:mm:ss` (`TimeFilter`).
//! * [`zone_id`]: time-zone ids as `ZoneId.of` reads them (`TimeFilter timezone`).
//! * [`java_util`]: the orders of Java's `String` and `HashMap`, in which log4j2's status
//!   messages and layouts list keys.
//! * [`url`]: URLs as `java.net.URL` reads them (the Http appender's `url`).
//!
//! Every reader takes any text and never panics: the text is either read or comes back
//! as an error that says what is wrong and where (for the `java.time` readers, in Java's own
//! words).

pub mod date_pattern;
pub mod java_util;
pub mod local_time;
pub mod regex;
pub mod url;
pub mod zone_id;
