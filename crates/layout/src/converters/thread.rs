//! `%t` / `%T` / `%tp`: the calling thread's name, id and priority, and the integer writer
//! the numeric converters share.

/// Appends `value` in decimal without going through `fmt` (no allocation, no formatter).
#[inline]
pub(crate) fn push_integer(out: &mut String, value: i64) {
    crate::short::push_integer(out, value);
}

/// Appends `value` zero-padded to at least `width` digits.
#[inline]
pub(crate) fn push_padded(out: &mut String, value: i64, width: usize) {
    let mut digits = 1;
    let mut probe = value.unsigned_abs();
    while probe >= 10 {
        probe /= 10;
        digits += 1;
    }
    if value < 0 {
        out.push('-');
    }
    for _ in digits..width {
        out.push('0');
    }
    push_integer(out, value.unsigned_abs() as i64);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{event, render};

    #[test]
    fn integers_print_like_java() {
        let mut out = String::new();
        push_integer(&mut out, 0);
        out.push(' ');
        push_integer(&mut out, -42);
        out.push(' ');
        push_integer(&mut out, i64::MIN);
        out.push(' ');
        push_padded(&mut out, 7, 3);
        out.push(' ');
        push_padded(&mut out, 1234, 2);
        assert_eq!(out, "0 -42 -9223372036854775808 007 1234");
    }

    #[test]
    fn thread_converters_print_name_id_and_priority() {
        let mut e = event();
        e.thread.name = "worker-1";
        e.thread.id = 21;
        e.thread.priority = 7;
        assert_eq!(
            render(
                "%t|%tn|%thread|%threadName|%T|%tid|%threadId|%tp|%threadPriority|[%-10t]|[%.4t]",
                &e
            ),
            "worker-1|worker-1|worker-1|worker-1|21|21|21|7|7|[worker-1  ]|[er-1]"
        );
    }
}
