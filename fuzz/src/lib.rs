//! What the fuzz targets share: splitting one input into fields, and the event that carries
//! every part a layout prints.

use l4rs_core::{
    ContextMap, ContextStack, Level, Location, LogEvent, Marker, Message, Throwable, ThrowableRef,
    Timestamp,
};

/// `text` as an XML attribute value, for the targets that write a configuration around it.
pub fn xml_attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Reads `data` as UTF-8 text split by [`fields`]; `None` when it is not UTF-8 (the targets
/// that take text have nothing to test then).
pub fn text_fields<const N: usize>(data: &[u8]) -> Option<[&str; N]> {
    std::str::from_utf8(data).ok().map(fields)
}

/// Splits `text` at the first NUL into up to `N` fields; missing fields are empty.
pub fn fields<const N: usize>(text: &str) -> [&str; N] {
    let mut out = [""; N];
    let mut rest = text;
    for (index, slot) in out.iter_mut().enumerate() {
        if index + 1 == N {
            *slot = rest;
            break;
        }
        match rest.split_once('\0') {
            Some((head, tail)) => {
                *slot = head;
                rest = tail;
            }
            None => {
                *slot = rest;
                rest = "";
            }
        }
    }
    out
}

/// A WARN event of logger `org.example.Fuzz` with a fixed time and location, carrying
/// `message`, `throwable`, `mdc`, `ndc` and `marker`: every optional part a layout prints.
pub fn event_with_every_part<'a>(
    message: &'a str,
    throwable: &'a Throwable,
    mdc: &'a ContextMap,
    ndc: &'a ContextStack,
    marker: &'a Marker,
) -> LogEvent<'a> {
    let mut event = LogEvent::new("org.example.Fuzz", Level::WARN, Message::Text(message));
    event.timestamp = Timestamp::from_millis(1_351_866_842_781);
    event.location = Some(Location {
        class: "org.example.Fuzz",
        method: "run",
        file: "Fuzz.java",
        line: 7,
    });
    event.throwable = Some(ThrowableRef::Throwable(throwable));
    event.context_map = mdc;
    event.context_stack = ndc;
    event.marker = Some(marker);
    event
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_split_at_nul() {
        assert_eq!(fields::<3>("a\0b\0c\0d"), ["a", "b", "c\0d"]);
        assert_eq!(fields::<3>("a"), ["a", "", ""]);
    }
}
