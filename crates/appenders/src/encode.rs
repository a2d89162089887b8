//! Formatting and encoding an event outside any lock, into per-thread reused buffers.

use std::cell::RefCell;

use l4rs_core::Layout;

/// Scratch space kept past this size is dropped after use, as the text buffer's is (and the
/// Http appender's request buffer).
pub(crate) const MAX_RETAINED_CAPACITY: usize = 1 << 20;

thread_local! {
    static BYTE_SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Runs `fill` to produce text in this thread's text buffer, encodes it with `layout` (using a
/// per-thread scratch vector when the layout's charset needs one) and hands the bytes to
/// `write`. Nothing is allocated in steady state and no lock is taken here: the caller's `write`
/// decides what to lock, and only for as long as it copies or writes the bytes.
pub fn with_encoded<R>(
    layout: &dyn Layout,
    fill: impl FnOnce(&mut String),
    write: impl FnOnce(&[u8]) -> R,
) -> R {
    l4rs_core::buffer::with_text_buffer(|text| {
        fill(text);
        with_byte_scratch(|scratch| write(layout.encode(text, scratch)))
    })
}

/// [`with_encoded`] for text the layout formatted before (an event rendered ahead of a queue,
/// [`l4rs_core::Rendered`]): encoded from where it is, without copying it into this thread's
/// text buffer first.
pub(crate) fn with_encoded_text<R>(
    layout: &dyn Layout,
    text: &str,
    write: impl FnOnce(&[u8]) -> R,
) -> R {
    with_byte_scratch(|scratch| write(layout.encode(text, scratch)))
}

/// The layout's footer, encoded, for a manager that is closing (off the hot path: it allocates
/// the bytes so that they can be written under the manager's own locks).
pub(crate) fn encoded_footer(layout: &dyn Layout) -> Vec<u8> {
    with_encoded(layout, |out| layout.footer(out), <[u8]>::to_vec)
}

/// What a closing file manager writes after the data: the layout's footer, or nothing without
/// `footer`. Without is how a rolling manager closes the file a previous run left when
/// `OnStartupTriggeringPolicy` rolls it: that run already ended the file with its footer, and
/// log4j2 skips the footer for that one rollover.
pub(crate) fn closing_footer(layout: &dyn Layout, footer: bool) -> Vec<u8> {
    if footer {
        encoded_footer(layout)
    } else {
        Vec::new()
    }
}

/// Runs `f` with this thread's cleared byte scratch; a nested call gets a fresh vector.
fn with_byte_scratch<R>(f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    let mut f = Some(f);
    let reused = BYTE_SCRATCH
        .try_with(|cell| {
            let mut scratch = cell.try_borrow_mut().ok()?;
            let f = f.take()?;
            scratch.clear();
            let result = f(&mut scratch);
            if scratch.capacity() > MAX_RETAINED_CAPACITY {
                *scratch = Vec::new();
            }
            Some(result)
        })
        .ok()
        .flatten();
    match reused {
        Some(result) => result,
        None => (f
            .take()
            .expect("`f` runs only when the scratch was borrowed"))(&mut Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use l4rs_core::LogEvent;

    struct Latin1;

    impl Layout for Latin1 {
        fn format(&self, _event: &LogEvent<'_>, out: &mut String) {
            out.push_str("é\n");
        }

        fn encode<'b>(&self, text: &'b str, scratch: &'b mut Vec<u8>) -> &'b [u8] {
            scratch.extend(text.chars().map(|c| c as u32 as u8));
            scratch
        }
    }

    #[test]
    fn encodes_through_the_layout_and_nests() {
        let bytes = with_encoded(
            &Latin1,
            |out| Latin1.format(&LogEvent::empty(), out),
            |bytes| {
                let inner = with_encoded(&Latin1, |out| out.push('x'), |b| b.to_vec());
                assert_eq!(inner, b"x");
                bytes.to_vec()
            },
        );
        assert_eq!(bytes, vec![0xE9, b'\n']);
    }
}
