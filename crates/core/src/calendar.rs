//! The text of `java.text.SimpleDateFormat` patterns in the `en_US` locale log4j2 is compared
//! with: month and day names. Shared by the configuration's `date` lookup and the layout's date
//! converters (the patterns themselves are split by `l4rs-java-syntax`'s `date_pattern`).

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_full_or_abbreviated() {
        assert_eq!(text(MONTH_NAMES[10], true), "November");
        assert_eq!(text(MONTH_NAMES[10], false), "Nov");
        assert_eq!(text(DAY_NAMES[2], false), "Tue");
    }
}
