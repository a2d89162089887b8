//! A trace's frame lines written in bulk: one reservation for all of them, then raw copies
//! with no capacity check, no UTF-8 check and no call into `memcpy` per piece
//! ([`crate::short::copy`]).
//!
//! A frame line is seven short pieces (`\tat `, the class, `::`, the method, `(`, the file,
//! `:line)` and the line end); pushing each onto a `String` cost a capacity check and a
//! `memcpy` call apiece, about 250 instructions a line. Nothing here is cached across events:
//! each event copies its frames' strings again, at the cost of the copies alone.

use l4rs_core::throwable::FrameStyle;
use l4rs_core::StackFrame;

use crate::short::{copy, digits};

/// The most bytes a frame line adds besides its three strings, its indentation and its line
/// end: `\tat ` and `::`, then the longest of `(Native Method)`, `(Unknown Source)` and
/// `(` `:` ten digits `)` (the file's own length is counted with the strings).
const FIXED: usize = 4 + 2 + 16;

/// Appends `\tat <frame>` and the line end (`end`'s two pieces, in order) for every frame,
/// each line after `tabs` tabs: what log4j2 2.19 prints for each `StackTraceElement`.
#[inline(always)]
pub(crate) fn write(out: &mut String, frames: &[StackFrame], tabs: usize, end: [&str; 2]) {
    let per_line = tabs + FIXED + end[0].len() + end[1].len();
    let bound = frames
        .iter()
        .map(|f| f.class.len() + f.method.len() + f.file.as_ref().map_or(0, String::len))
        .fold(frames.len() * per_line, usize::wrapping_add);
    out.reserve(bound);
    // SAFETY: `bound` bytes of spare capacity are reserved and no line writes more than
    // `per_line` bytes besides its strings, so every write stays inside the allocation; the
    // bytes written are whole `str`s and ASCII, so the string stays UTF-8; `len` is set to
    // the end of what was written.
    unsafe {
        let bytes = out.as_mut_vec();
        let start = bytes.len();
        let base = bytes.as_mut_ptr().add(start);
        let mut at = base;
        for f in frames {
            at = line(at, f, tabs, end);
        }
        let written = at.offset_from(base) as usize;
        debug_assert!(written <= bound);
        bytes.set_len(start + written);
    }
}

/// One frame line at `at`; returns the end of what it wrote.
///
/// # Safety
/// `at` must have room for the line (see [`write`]).
#[inline(always)]
unsafe fn line(mut at: *mut u8, f: &StackFrame, tabs: usize, end: [&str; 2]) -> *mut u8 {
    for _ in 0..tabs {
        at = fixed(at, b"\t");
    }
    at = fixed(at, b"\tat ");
    at = copy(at, f.class.as_bytes());
    if !f.class.is_empty() {
        at = match f.style {
            FrameStyle::Java => fixed(at, b"."),
            FrameStyle::Rust => fixed(at, b"::"),
        };
    }
    at = copy(at, f.method.as_bytes());
    at = match (&f.file, f.line) {
        (_, -2) => fixed(at, b"(Native Method)"),
        (None, _) => fixed(at, b"(Unknown Source)"),
        (Some(file), line) => {
            at = copy(fixed(at, b"("), file.as_bytes());
            if line >= 0 {
                at = digits(fixed(at, b":"), line as u32);
            }
            fixed(at, b")")
        }
    };
    copy(copy(at, end[0].as_bytes()), end[1].as_bytes())
}

/// Copies a constant piece: a few stores, no call.
///
/// # Safety
/// `at` must have room for `N` bytes.
#[inline(always)]
unsafe fn fixed<const N: usize>(at: *mut u8, piece: &[u8; N]) -> *mut u8 {
    std::ptr::copy_nonoverlapping(piece.as_ptr(), at, N);
    at.add(N)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(frames: &[StackFrame], tabs: usize, end: [&str; 2]) -> String {
        let mut out = String::from("head|");
        write(&mut out, frames, tabs, end);
        out
    }

    #[test]
    fn every_piece_length_and_line_number_copies_exactly() {
        // Strings of every length from 0 to 40 cross each branch of the short copy; line
        // numbers cross each digit count and the itoa fallback.
        let text: String = ('a'..='z').chain('A'..='Z').collect();
        for len in 0..=40 {
            for line in [
                0,
                7,
                10,
                99,
                100,
                999,
                1000,
                9999,
                10_000,
                123_456,
                i32::MAX,
            ] {
                let piece = &text[..len];
                let frame = StackFrame::rust(piece, piece, Some(piece), line);
                let sep = if piece.is_empty() { "" } else { "::" };
                assert_eq!(
                    written(std::slice::from_ref(&frame), 0, ["\n", ""]),
                    format!("head|\tat {piece}{sep}{piece}({piece}:{line})\n")
                );
            }
        }
    }

    #[test]
    fn native_unknown_and_lineless_frames_match_stack_trace_element() {
        let frames = [
            StackFrame::java("a.B", "run", Some("B.java"), -2),
            StackFrame::java("a.B", "run", None, 12),
            StackFrame::java("a.B", "run", Some("B.java"), -1),
            StackFrame::java("", "run", Some("B.java"), 3),
        ];
        assert_eq!(
            written(&frames, 2, [" ~[?:?]", "#"]),
            "head|\t\t\tat a.B.run(Native Method) ~[?:?]#\
             \t\t\tat a.B.run(Unknown Source) ~[?:?]#\
             \t\t\tat a.B.run(B.java) ~[?:?]#\
             \t\t\tat run(B.java:3) ~[?:?]#"
        );
    }

    #[test]
    fn a_trace_reserves_once() {
        let frames: Vec<StackFrame> = (0..100)
            .map(|_| StackFrame::rust("l4rs_bench::workload", "descend", Some("workload.rs"), 79))
            .collect();
        let mut out = String::new();
        write(&mut out, &frames, 0, ["\n", ""]);
        let capacity = out.capacity();
        out.clear();
        write(&mut out, &frames, 0, ["\n", ""]);
        assert_eq!(out.capacity(), capacity);
        assert_eq!(
            out.lines().next(),
            Some("\tat l4rs_bench::workload::descend(workload.rs:79)")
        );
        assert_eq!(out.lines().count(), 100);
    }
}
