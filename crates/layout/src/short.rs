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

/// Appends `value` in decimal: below 10,000 (line numbers, most thread ids) from a table of
/// digit pairs, larger and negative values through `itoa`.
#[inline(always)]
pub(crate) fn push_integer(out: &mut String, value: i64) {
    match u32::try_from(value) {
        Ok(small) if small < 10_000 => {
            out.reserve(4);
            // SAFETY: four bytes of spare capacity are reserved, `digits` writes at most four
            // ASCII digits for a value below 10,000, and `len` covers what it wrote.
            unsafe {
                let bytes = out.as_mut_vec();
                let end = bytes.len();
                let at = bytes.as_mut_ptr().add(end);
                let written = digits(at, small).offset_from(at) as usize;
                bytes.set_len(end + written);
            }
        }
        _ => push(out, itoa::Buffer::new().format(value)),
    }
}

/// "00" to "99", for decimals two digits at a time.
static PAIRS: [u8; 200] = {
    let mut pairs = [0u8; 200];
    let mut n = 0;
    while n < 100 {
        pairs[2 * n] = b'0' + (n / 10) as u8;
        pairs[2 * n + 1] = b'0' + (n % 10) as u8;
        n += 1;
    }
    pairs
};

/// Writes `n` in decimal at `at` and returns the end: values below 10,000 from the table,
/// others through `itoa`.
///
/// # Safety
/// `at` must have room for ten bytes, or four when `n` is below 10,000.
#[inline(always)]
pub(crate) unsafe fn digits(at: *mut u8, n: u32) -> *mut u8 {
    let pair = |at: *mut u8, n: u32| {
        std::ptr::copy_nonoverlapping(PAIRS.as_ptr().add(2 * n as usize), at, 2);
    };
    if n < 10 {
        *at = b'0' + n as u8;
        at.add(1)
    } else if n < 100 {
        pair(at, n);
        at.add(2)
    } else if n < 1000 {
        *at = b'0' + (n / 100) as u8;
        pair(at.add(1), n % 100);
        at.add(3)
    } else if n < 10_000 {
        pair(at, n / 100);
        pair(at.add(2), n % 100);
        at.add(4)
    } else {
        copy(at, itoa::Buffer::new().format(n).as_bytes())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn integers_print_as_itoa_does() {
        for value in (-1_100..11_000).chain([
            i64::MIN,
            -1,
            99_999,
            123_456_789,
            i64::from(u32::MAX),
            i64::MAX,
        ]) {
            let mut out = String::from("x");
            super::push_integer(&mut out, value);
            assert_eq!(out, format!("x{value}"));
        }
    }

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
