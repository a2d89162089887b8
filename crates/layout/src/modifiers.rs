//! Format modifiers (`%-5p`, `%.10c`, `%05X{n}`): log4j2's `FormattingInfo`.
//!
//! Widths count UTF-16 code units, as Java's `StringBuilder` does, so a character outside the
//! Basic Multilingual Plane counts as two. Truncating through such a pair leaves half a
//! surrogate in Java, which the UTF-8 encoder writes as `?`; we write the `?` directly.
//!
//! Padding costs time and memory linear in the width: the buffer grows once and the field is
//! moved once, however wide the padding (log4j2 inserts eight characters at a time, which is
//! quadratic). The parser refuses widths above [`MAX_PADDING_WIDTH`].

use crate::scratch::with_scratch;

const SPACES: &str = "                                                                ";
const ZEROS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The largest minimum width the parser accepts, in UTF-16 units. log4j2 has no limit short of
/// a Java `int`, where `%2000000000c` runs out of memory or pads for hours; a megabyte of
/// padding is far beyond any real layout and keeps one event's text bounded.
pub(crate) const MAX_PADDING_WIDTH: usize = 1 << 20;

/// The largest width log4j2 can hold (`Integer.MAX_VALUE`): its parser accumulates the digits
/// in an `int` with no overflow check, so a longer width wraps around.
pub(crate) const JAVA_INT_MAX: usize = i32::MAX as usize;

/// The modifiers of one converter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FormattingInfo {
    /// Pad on the right instead of the left.
    pub left_align: bool,
    /// Pad with `0` instead of spaces (only when padding on the left).
    pub zero_pad: bool,
    /// Minimum width in UTF-16 units.
    pub min: usize,
    /// Maximum width in UTF-16 units (`usize::MAX`: none).
    pub max: usize,
    /// Truncate by dropping the beginning (`.n`) rather than the end (`.-n`).
    pub left_truncate: bool,
}

impl Default for FormattingInfo {
    fn default() -> Self {
        FormattingInfo {
            left_align: false,
            zero_pad: false,
            min: 0,
            max: usize::MAX,
            left_truncate: true,
        }
    }
}

impl FormattingInfo {
    /// True when applying these modifiers can never change anything.
    pub(crate) fn is_default(&self) -> bool {
        self.min == 0 && self.max == usize::MAX
    }

    /// Applies the modifiers to `out[start..]`. Truncation never pads afterwards (log4j2
    /// checks the two in an if/else-if).
    pub(crate) fn apply(&self, out: &mut String, start: usize) {
        let start = field_start(out, start);
        let units = utf16_len(&out[start..]);
        if units > self.max {
            if self.left_truncate {
                truncate_front(out, start, units - self.max);
            } else {
                truncate_back(out, start, self.max);
            }
        } else if units < self.min {
            let pad = self.min - units;
            if self.left_align {
                out.reserve(pad);
                push_repeated(out, SPACES, pad);
            } else {
                let fill = if self.zero_pad { ZEROS } else { SPACES };
                insert_repeated(out, start, fill, pad);
            }
        }
    }
}

/// Where a converter's output begins in `out` when the converter started writing at `start`.
/// That is `start`, except after a negative `%maxLen` inside it cut into the text before it
/// (as log4j2 does): then the nearest character boundary at or before `start` within `out`,
/// so that what the converter left is still a valid slice.
pub(crate) fn field_start(out: &str, start: usize) -> usize {
    let mut at = start.min(out.len());
    while !out.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The length of `text` in UTF-16 code units.
pub(crate) fn utf16_len(text: &str) -> usize {
    if text.is_ascii() {
        return text.len();
    }
    text.chars().map(char::len_utf16).sum()
}

/// Removes the first `drop` UTF-16 units of `out[start..]`. When the cut falls inside a
/// surrogate pair, the surviving half is written as `?`.
fn truncate_front(out: &mut String, start: usize, drop: usize) {
    let mut dropped = 0;
    let mut cut = start;
    let mut half = false;
    for (index, c) in out[start..].char_indices() {
        if dropped >= drop {
            cut = start + index;
            break;
        }
        dropped += c.len_utf16();
        cut = start + index + c.len_utf8();
        if dropped > drop {
            half = true;
            break;
        }
    }
    out.replace_range(start..cut, if half { "?" } else { "" });
}

/// Keeps the first `keep` UTF-16 units of `out[start..]`. When the cut falls inside a
/// surrogate pair, the surviving half is written as `?`.
pub(crate) fn truncate_back(out: &mut String, start: usize, keep: usize) {
    let mut kept = 0;
    for (index, c) in out[start..].char_indices() {
        let width = c.len_utf16();
        if kept + width > keep {
            out.truncate(start + index);
            if kept < keep {
                out.push('?');
            }
            return;
        }
        kept += width;
    }
}

fn push_repeated(out: &mut String, fill: &str, mut count: usize) {
    while count > 0 {
        let chunk = count.min(fill.len());
        crate::short::push(out, &fill[..chunk]);
        count -= chunk;
    }
}

/// Inserts `count` characters of the ASCII `fill` at `at`, in time linear in `count` and the
/// text after `at`.
fn insert_repeated(out: &mut String, at: usize, fill: &str, count: usize) {
    if count <= fill.len() {
        out.insert_str(at, &fill[..count]);
        return;
    }
    // Wider than the fill constant: inserting chunk after chunk would move the field once per
    // chunk. Move it aside instead (the scratch buffer keeps its capacity, so this allocates
    // nothing in steady state), pad, and put it back, growing `out` once.
    with_scratch(|field| {
        field.push_str(&out[at..]);
        out.truncate(at);
        out.reserve(count + field.len());
        push_repeated(out, fill, count);
        out.push_str(field);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(
        left_align: bool,
        zero_pad: bool,
        min: usize,
        max: usize,
        left_truncate: bool,
    ) -> FormattingInfo {
        FormattingInfo {
            left_align,
            zero_pad,
            min,
            max,
            left_truncate,
        }
    }

    fn run(info: FormattingInfo, text: &str) -> String {
        let mut out = String::from(">");
        out.push_str(text);
        info.apply(&mut out, 1);
        out[1..].to_string()
    }

    #[test]
    fn pads_left_right_and_with_zeros() {
        assert_eq!(run(info(false, false, 5, usize::MAX, true), "ab"), "   ab");
        assert_eq!(run(info(true, false, 5, usize::MAX, true), "ab"), "ab   ");
        assert_eq!(run(info(false, true, 5, usize::MAX, true), "INFO"), "0INFO");
        assert_eq!(run(info(true, true, 5, usize::MAX, true), "ab"), "ab   ");
        assert_eq!(
            run(info(false, false, 100, usize::MAX, true), "x").len(),
            100
        );
    }

    #[test]
    fn truncates_from_either_end_without_padding_afterwards() {
        assert_eq!(run(info(false, false, 0, 5, true), "Hello, world"), "world");
        assert_eq!(
            run(info(false, false, 0, 5, false), "Hello, world"),
            "Hello"
        );
        assert_eq!(run(info(false, false, 8, 3, false), "Hello, world"), "Hel");
    }

    #[test]
    fn widths_count_utf16_units_and_split_pairs_become_question_marks() {
        assert_eq!(utf16_len("😀a"), 3);
        assert_eq!(run(info(false, false, 5, usize::MAX, true), "😀"), "   😀");
        assert_eq!(run(info(false, false, 0, 3, true), "😀😀a"), "😀a");
        assert_eq!(run(info(false, false, 0, 2, true), "😀😀a"), "?a");
        assert_eq!(run(info(false, false, 0, 3, false), "a😀😀"), "a😀");
        assert_eq!(run(info(false, false, 0, 2, false), "a😀😀"), "a?");
        assert_eq!(run(info(false, false, 0, 2, true), "😀😀"), "😀");
    }

    /// What padding must produce: the field with `min - len` fill characters on one side.
    fn naive_padding(info: FormattingInfo, text: &str) -> String {
        let units = utf16_len(text);
        if units >= info.min {
            return text.to_string();
        }
        let fill = if info.zero_pad && !info.left_align {
            "0"
        } else {
            " "
        };
        let padding = fill.repeat(info.min - units);
        if info.left_align {
            format!("{text}{padding}")
        } else {
            format!("{padding}{text}")
        }
    }

    #[test]
    fn padding_of_every_width_around_the_fill_chunk_matches_the_plain_definition() {
        for text in ["", "ab", "é😀x", "0123456789012345678901234567890123456789"] {
            for min in 0..=200 {
                for (left_align, zero_pad) in
                    [(false, false), (false, true), (true, false), (true, true)]
                {
                    let info = info(left_align, zero_pad, min, usize::MAX, true);
                    assert_eq!(
                        run(info, text),
                        naive_padding(info, text),
                        "min {min}, left_align {left_align}, zero_pad {zero_pad}, {text:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn wide_padding_keeps_the_text_before_the_field_and_grows_the_buffer_once() {
        for left_align in [false, true] {
            let info = info(left_align, false, MAX_PADDING_WIDTH, usize::MAX, true);
            let mut out = String::from("before|field");
            info.apply(&mut out, 7);
            assert!(out.starts_with("before|"));
            assert_eq!(out.len(), 7 + MAX_PADDING_WIDTH);
            let expected_field = if left_align {
                format!("field{}", " ".repeat(MAX_PADDING_WIDTH - 5))
            } else {
                format!("{}field", " ".repeat(MAX_PADDING_WIDTH - 5))
            };
            assert!(out[7..] == expected_field, "left_align {left_align}");
            // One reservation of the final size, not a doubling per chunk.
            assert!(out.capacity() < out.len() + 64, "{}", out.capacity());
        }
    }
}
