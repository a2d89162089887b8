//! The text of `java.text.SimpleDateFormat` patterns in the `en_US` locale log4j2 is compared
//! with: month and day names, and quoted literals. Shared by the configuration's `date` lookup
//! and the layout's date converters.

/// The months' names, January first.
pub const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The days' names, Sunday first (as `java.util.Calendar` numbers them).
pub const DAY_NAMES: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// A name as a text field writes it: in full for `long` (four letters or more, `MMMM`,
/// `EEEE`), otherwise its first three letters (`MMM`, `EEE`).
pub fn text(name: &'static str, long: bool) -> &'static str {
    if long {
        name
    } else {
        name.get(..3).unwrap_or(name)
    }
}

/// Reads the quoted text that starts with the quote at `chars[quote]` into `out`: `''` is a
/// literal quote, anywhere; otherwise the text up to the closing quote is literal. Returns the
/// index after the closing quote, or `None` when the quote is never closed.
pub fn read_quoted(chars: &[char], quote: usize, out: &mut String) -> Option<usize> {
    let mut i = quote + 1;
    if chars.get(i) == Some(&'\'') {
        out.push('\'');
        return Some(i + 1);
    }
    loop {
        match chars.get(i) {
            None => return None,
            Some('\'') if chars.get(i + 1) == Some(&'\'') => {
                out.push('\'');
                i += 2;
            }
            Some('\'') => return Some(i + 1),
            Some(&other) => {
                out.push(other);
                i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_quoted_text() {
        let chars: Vec<char> = "'at' x '' 'o''clock' 'open".chars().collect();
        let mut out = String::new();
        assert_eq!(read_quoted(&chars, 0, &mut out), Some(4));
        assert_eq!(read_quoted(&chars, 7, &mut out), Some(9));
        assert_eq!(read_quoted(&chars, 10, &mut out), Some(20));
        assert_eq!(out, "at'o'clock");
        assert_eq!(read_quoted(&chars, 21, &mut out), None);
    }

    #[test]
    fn names_in_full_or_abbreviated() {
        assert_eq!(text(MONTH_NAMES[10], true), "November");
        assert_eq!(text(MONTH_NAMES[10], false), "Nov");
        assert_eq!(text(DAY_NAMES[2], false), "Tue");
    }
}
