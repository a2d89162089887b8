//! Appending short text without a `memcpy` call.
//!
//! A pattern's pieces are mostly 1–32 bytes (a literal space, the level, the thread name, a
//! frame's method); `String::push_str` hands each to `memcpy`, whose call and size dispatch
//! cost more than the copy. Two overlapping loads and stores of the widest size that fits do
//! the same work inline.

/// Appends `text` to `out`; pieces longer than 32 bytes go through `push_str`.
#[inline(always)]
pub(crate) fn push(out: &mut String, text: &str) {
    let len = text.len();
    if len > 32 {
        out.push_str(text);
        return;
    }
    out.reserve(len);
    // SAFETY: `len` bytes of spare capacity are reserved; the bytes are a whole `str`, so the
    // string stays UTF-8; `len` then covers exactly what was written.
    unsafe {
        let bytes = out.as_mut_vec();
        let end = bytes.len();
        copy(bytes.as_mut_ptr().add(end), text.as_bytes());
        bytes.set_len(end + len);
    }
}

/// Copies `piece` to `at` and returns the end of the copy: two overlapping loads and stores
/// of 16, 8, 4 or 1 bytes, `memcpy` only past 32 bytes.
///
/// # Safety
/// `at` must have room for `piece.len()` bytes and not overlap `piece`.
#[inline(always)]
pub(crate) unsafe fn copy(at: *mut u8, piece: &[u8]) -> *mut u8 {
    use std::ptr::{read_unaligned, write_unaligned};
    let len = piece.len();
    let from = piece.as_ptr();
    if len >= 16 {
        if len <= 32 {
            let head = read_unaligned(from.cast::<u128>());
            let tail = read_unaligned(from.add(len - 16).cast::<u128>());
            write_unaligned(at.cast::<u128>(), head);
            write_unaligned(at.add(len - 16).cast::<u128>(), tail);
        } else {
            std::ptr::copy_nonoverlapping(from, at, len);
        }
    } else if len >= 8 {
        let head = read_unaligned(from.cast::<u64>());
        let tail = read_unaligned(from.add(len - 8).cast::<u64>());
        write_unaligned(at.cast::<u64>(), head);
        write_unaligned(at.add(len - 8).cast::<u64>(), tail);
    } else if len >= 4 {
        let head = read_unaligned(from.cast::<u32>());
        let tail = read_unaligned(from.add(len - 4).cast::<u32>());
        write_unaligned(at.cast::<u32>(), head);
        write_unaligned(at.add(len - 4).cast::<u32>(), tail);
    } else if len > 0 {
        *at = *from;
        *at.add(len / 2) = *from.add(len / 2);
        *at.add(len - 1) = *from.add(len - 1);
    }
    at.add(len)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_length_appends_exactly() {
        let text: String = ('a'..='z').chain('A'..='Z').chain("é→😀".chars()).collect();
        for end in (0..=text.len()).filter(|&end| text.is_char_boundary(end)) {
            let mut out = String::from("head");
            super::push(&mut out, &text[..end]);
            super::push(&mut out, "|");
            assert_eq!(out, format!("head{}|", &text[..end]));
        }
    }
}
