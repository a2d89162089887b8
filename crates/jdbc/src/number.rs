//! Text read as Java's number classes read it, for a `<ColumnMapping>` whose `type` is one:
//! log4j2 2.19's converters call `Integer.valueOf`, `Long.valueOf`, `Short.valueOf`,
//! `Byte.valueOf`, `new BigInteger(s)`, `Double.valueOf`, `Float.valueOf` and
//! `new BigDecimal(s)`, and bind the result, or NULL when it throws.
//!
//! What each accepts (measured with Java 17, see `crates/conformance/tests/jdbc_rows.rs`):
//! * the whole numbers and `BigInteger`: one optional leading `+` or `-`, then at least one
//!   digit as `Character.digit(c, 10)` reads it, which takes every Unicode decimal digit of the
//!   Basic Multilingual Plane (`٣`, `３`) and nothing else: no whitespace, no `_`, no exponent;
//!   `Integer`, `Long`, `Short` and `Byte` refuse values outside their range;
//! * `Double` and `Float`: whitespace (every character up to U+0020) around the number is
//!   ignored; a sign; `NaN` or `Infinity`; or ASCII decimal digits with an optional `.` and
//!   exponent, or a hexadecimal float with its binary exponent (`0x1.8p1`; `0x10` alone is
//!   refused); then an optional `f`, `F`, `d` or `D`. A `Float` is rounded from the text to 32
//!   bits directly (never through a `double`);
//! * `BigDecimal`: a sign, digits (any Unicode decimal digit, as above) with an optional `.`,
//!   and an optional exponent whose value and resulting scale fit in 32 bits; no whitespace,
//!   no `NaN`, `Infinity`, hexadecimal or suffix.

use std::borrow::Cow;

/// The first code point of each run of ten decimal digits (Unicode category Nd) in the Basic
/// Multilingual Plane, as Java 17's `Character.digit(c, 10)` reads them (the digit's value is
/// its distance from the run's start); listed by running Java over every `char`.
const DIGIT_ZEROS: [u32; 37] = [
    0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
    0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80,
    0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
    0xFF10,
];

/// `Character.digit(c, 10)`: the value of a decimal digit. A character beyond the Basic
/// Multilingual Plane is two UTF-16 units in Java, neither of them a digit.
pub(crate) fn java_digit(c: char) -> Option<u32> {
    if c.is_ascii_digit() {
        return Some(c as u32 - u32::from(b'0'));
    }
    let code = c as u32;
    DIGIT_ZEROS
        .iter()
        .find(|&&zero| (zero..zero + 10).contains(&code))
        .map(|zero| code - zero)
}

/// The text after one optional leading sign, and whether that sign was `-`.
fn split_sign(text: &str) -> (bool, &str) {
    match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    }
}

/// `Integer.parseInt` and its siblings (`Long.parseLong`; `Short` and `Byte` parse an `int`
/// and check their range): a sign and digits, the value within `min..=max`.
pub(crate) fn java_whole(text: &str, min: i64, max: i64) -> Option<i64> {
    let (negative, digits) = split_sign(text);
    if digits.is_empty() {
        return None;
    }
    let mut magnitude: u64 = 0;
    for c in digits.chars() {
        magnitude = magnitude
            .checked_mul(10)?
            .checked_add(u64::from(java_digit(c)?))?;
    }
    let value = if negative {
        -i128::from(magnitude)
    } else {
        i128::from(magnitude)
    };
    (i128::from(min)..=i128::from(max))
        .contains(&value)
        .then_some(value as i64)
}

/// `new BigInteger(text)`: a sign and digits of any length, as the decimal text
/// `BigInteger.toString()` prints (no `+`, no leading zeros, `0` unsigned). Borrowed when
/// `text` is already that text.
pub(crate) fn java_big_integer(text: &str) -> Option<Cow<'_, str>> {
    let (negative, digits) = split_sign(text);
    if digits.is_empty() {
        return None;
    }
    let leading_zero = digits.len() > 1 && digits.starts_with('0');
    let mut canonical = !text.starts_with('+') && !leading_zero;
    for c in digits.chars() {
        java_digit(c)?;
        canonical &= c.is_ascii_digit();
    }
    if canonical && !(negative && digits == "0") {
        return Some(Cow::Borrowed(text));
    }
    let mut out = String::with_capacity(text.len());
    if negative {
        out.push('-');
    }
    push_significant_digits(&mut out, digits.chars());
    if out == "-0" {
        out.remove(0);
    }
    Some(Cow::Owned(out))
}

/// Appends the ASCII digits of `digits` (Java digits) without leading zeros, or `0`.
fn push_significant_digits(out: &mut String, digits: impl Iterator<Item = char>) {
    let start = out.len();
    for digit in digits.filter_map(java_digit) {
        if digit != 0 || out.len() > start {
            out.push(char::from(b'0' + digit as u8));
        }
    }
    if out.len() == start {
        out.push('0');
    }
}

/// A `java.math.BigDecimal`: `digits` × 10^-`scale`, with its sign.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct JavaDecimal {
    /// Whether the value is below zero (a zero is never negative, as in Java).
    pub(crate) negative: bool,
    /// The unscaled value's ASCII digits, without leading zeros (`0` for zero).
    pub(crate) digits: String,
    /// The scale: how many of the digits are after the decimal point (negative: zeros to
    /// add before it).
    pub(crate) scale: i32,
}

/// `new BigDecimal(text)`.
pub(crate) fn java_big_decimal(text: &str) -> Option<JavaDecimal> {
    let (negative, rest) = split_sign(text);
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], Some(&rest[at + 1..])),
        None => (rest, None),
    };
    let mut fraction_digits: i64 = 0;
    let mut seen_point = false;
    let mut any_digit = false;
    for c in mantissa.chars() {
        if c == '.' {
            if seen_point {
                return None;
            }
            seen_point = true;
        } else {
            java_digit(c)?;
            any_digit = true;
            if seen_point {
                fraction_digits += 1;
            }
        }
    }
    if !any_digit {
        return None;
    }
    let exponent = match exponent {
        Some(exponent) => java_decimal_exponent(exponent)?,
        None => 0,
    };
    let scale = i32::try_from(fraction_digits - exponent).ok()?;
    let mut digits = String::with_capacity(mantissa.len());
    push_significant_digits(&mut digits, mantissa.chars().filter(|&c| c != '.'));
    Some(JavaDecimal {
        negative: negative && digits != "0",
        digits,
        scale,
    })
}

/// A `BigDecimal` exponent: a sign and Java digits whose value fits in an `int`.
fn java_decimal_exponent(text: &str) -> Option<i64> {
    let (negative, digits) = split_sign(text);
    if digits.is_empty() {
        return None;
    }
    let mut value: i64 = 0;
    for c in digits.chars() {
        // Saturates far above the `int` range, which is refused below.
        value = (value * 10 + i64::from(java_digit(c)?)).min(1 << 40);
    }
    let value = if negative { -value } else { value };
    i32::try_from(value).is_ok().then_some(value)
}

impl JavaDecimal {
    /// `BigDecimal.toString()`: plain for a scale from 0 up to six places beyond the first
    /// digit, otherwise scientific (`1E+3`, `1.5E-7`), as xerial's driver stores it.
    pub(crate) fn java_string(&self) -> String {
        let mut out = String::with_capacity(self.digits.len() + 16);
        if self.negative {
            out.push('-');
        }
        let length = self.digits.len() as i64;
        let scale = i64::from(self.scale);
        let adjusted = length - 1 - scale;
        if scale == 0 {
            out.push_str(&self.digits);
        } else if scale > 0 && adjusted >= -6 {
            self.push_plain(&mut out);
        } else {
            out.push_str(&self.digits[..1]);
            if length > 1 {
                out.push('.');
                out.push_str(&self.digits[1..]);
            }
            out.push('E');
            if adjusted > 0 {
                out.push('+');
            }
            out.push_str(&adjusted.to_string());
        }
        out
    }

    /// The value in plain notation with `max(scale, 0)` decimal places, as PostgreSQL prints
    /// a `numeric` (`1E+3` is `1000`, `1.50` stays `1.50`); `None` when that would be longer
    /// than `limit` characters.
    pub(crate) fn plain_string(&self, limit: usize) -> Option<String> {
        let zeros = if self.scale < 0 && self.digits != "0" {
            self.scale.unsigned_abs() as usize
        } else {
            0
        };
        let places = self.scale.max(0) as usize;
        if self.digits.len() + zeros + places > limit {
            return None;
        }
        let mut out = String::with_capacity(self.digits.len() + zeros + places + 3);
        if self.negative {
            out.push('-');
        }
        if self.scale <= 0 {
            out.push_str(&self.digits);
            out.extend(std::iter::repeat_n('0', zeros));
        } else {
            self.push_plain(&mut out);
        }
        Some(out)
    }

    /// Appends the digits with the decimal point `scale` (> 0) places from the right.
    fn push_plain(&self, out: &mut String) {
        let scale = self.scale as usize;
        match self.digits.len().checked_sub(scale) {
            Some(0) | None => {
                out.push_str("0.");
                let pad = scale - self.digits.len();
                out.extend(std::iter::repeat_n('0', pad));
                out.push_str(&self.digits);
            }
            Some(integer) => {
                out.push_str(&self.digits[..integer]);
                out.push('.');
                out.push_str(&self.digits[integer..]);
            }
        }
    }

    /// The value rounded to a whole number, halves away from zero (as PostgreSQL converts a
    /// `numeric` to an integer type); `None` when it would be longer than `limit` digits.
    pub(crate) fn rounded_whole(&self, limit: usize) -> Option<String> {
        if self.scale <= 0 {
            return self.plain_string(limit);
        }
        let scale = self.scale as usize;
        let integer_length = self.digits.len().saturating_sub(scale);
        let integer = &self.digits[..integer_length];
        // With fewer digits than places, the first place dropped is a leading zero (0.05).
        let first_dropped = (self.digits.len() >= scale)
            .then(|| self.digits.as_bytes().get(integer_length).copied())
            .flatten();
        let round_up = first_dropped.is_some_and(|digit| digit >= b'5');
        let mut magnitude: Vec<u8> = if integer.is_empty() {
            vec![b'0']
        } else {
            integer.as_bytes().to_vec()
        };
        if round_up {
            let mut index = magnitude.len();
            loop {
                if index == 0 {
                    magnitude.insert(0, b'1');
                    break;
                }
                index -= 1;
                if magnitude[index] == b'9' {
                    magnitude[index] = b'0';
                } else {
                    magnitude[index] += 1;
                    break;
                }
            }
        }
        let mut out = String::with_capacity(magnitude.len() + 1);
        if self.negative && magnitude != b"0" {
            out.push('-');
        }
        out.extend(magnitude.iter().map(|&digit| char::from(digit)));
        Some(out)
    }
}

/// A binary floating-point format: `f64` (Java's `double`) or `f32` (`float`).
#[derive(Clone, Copy)]
struct Format {
    /// Significand bits, the leading one included.
    precision: u32,
    /// The exponent of the smallest normal number.
    min_exponent: i64,
    /// The exponent of the largest finite number.
    max_exponent: i64,
}

const DOUBLE: Format = Format {
    precision: 53,
    min_exponent: -1022,
    max_exponent: 1023,
};
const FLOAT: Format = Format {
    precision: 24,
    min_exponent: -126,
    max_exponent: 127,
};

/// `Double.valueOf(text)`.
pub(crate) fn java_double(text: &str) -> Option<f64> {
    java_floating(text, DOUBLE, |decimal| decimal.parse::<f64>().ok())
}

/// `Float.valueOf(text)`: rounded to 32 bits from the text itself.
pub(crate) fn java_float(text: &str) -> Option<f32> {
    java_floating(text, FLOAT, |decimal| {
        decimal.parse::<f32>().ok().map(f64::from)
    })
    .map(|value| value as f32)
}

/// Java's `FloatingDecimal.readJavaFormatString` grammar; a decimal number is handed to
/// `decimal` without its suffix (Rust's parsers round correctly, as Java's do), a
/// hexadecimal one is rounded to `format` here. The result is exact in `format`.
fn java_floating(text: &str, format: Format, decimal: impl Fn(&str) -> Option<f64>) -> Option<f64> {
    // `String.trim()`: every character up to U+0020, not Unicode's other spaces.
    let text = text.trim_matches(|c: char| c <= ' ');
    let (negative, unsigned) = split_sign(text);
    let sign = if negative { -1.0 } else { 1.0 };
    match unsigned {
        "NaN" => return Some(f64::NAN),
        "Infinity" => return Some(sign * f64::INFINITY),
        _ => {}
    }
    let number = unsigned
        .strip_suffix(['f', 'F', 'd', 'D'])
        .unwrap_or(unsigned);
    if let Some(hex) = number
        .strip_prefix("0x")
        .or_else(|| number.strip_prefix("0X"))
    {
        return java_hex(hex, format).map(|value| sign * value);
    }
    // Digits, an optional point, digits (at least one digit in all), then an optional
    // exponent with at least one digit; ASCII only.
    let (mantissa, exponent) = match number.find(['e', 'E']) {
        Some(at) => (&number[..at], Some(&number[at + 1..])),
        None => (number, None),
    };
    let (integer, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(integer) || !all_digits(fraction) || integer.len() + fraction.len() == 0 {
        return None;
    }
    if let Some(exponent) = exponent {
        let (_, digits) = split_sign(exponent);
        if digits.is_empty() || !all_digits(digits) {
            return None;
        }
    }
    decimal(number).map(|value| if negative { -value } else { value })
}

/// A hexadecimal significand and binary exponent (`1.8p1`, after `0x`), rounded to `format`
/// (to nearest, ties to even, with subnormals), as Java reads them.
fn java_hex(text: &str, format: Format) -> Option<f64> {
    let (significand, exponent) = text.split_once(['p', 'P'])?;
    let (integer, fraction) = significand.split_once('.').unwrap_or((significand, ""));
    let all_hex = |part: &str| part.bytes().all(|b| b.is_ascii_hexdigit());
    if !all_hex(integer) || !all_hex(fraction) || integer.len() + fraction.len() == 0 {
        return None;
    }
    let (exponent_negative, exponent_digits) = split_sign(exponent);
    if exponent_digits.is_empty() || !exponent_digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Saturated far beyond any finite value's exponent.
    let mut binary_exponent: i64 = 0;
    for digit in exponent_digits.bytes() {
        binary_exponent = (binary_exponent * 10 + i64::from(digit - b'0')).min(1 << 40);
    }
    if exponent_negative {
        binary_exponent = -binary_exponent;
    }
    // The first 15 significant hex digits (60 bits); any nonzero digit after them is sticky.
    let mut bits: u64 = 0;
    let mut kept = 0;
    let mut sticky = false;
    for (index, digit) in integer.bytes().chain(fraction.bytes()).enumerate() {
        let value = u64::from((digit as char).to_digit(16)?);
        let in_fraction = index >= integer.len();
        if kept < 15 {
            if bits != 0 || value != 0 {
                bits = bits << 4 | value;
                kept += 1;
            }
            if in_fraction {
                binary_exponent -= 4;
            }
        } else {
            sticky |= value != 0;
            if !in_fraction {
                binary_exponent += 4;
            }
        }
    }
    if bits == 0 {
        return Some(0.0);
    }
    Some(round_binary(bits, sticky, binary_exponent, format))
}

/// `bits` × 2^`exponent` (plus a little more when `sticky`) rounded to `format`.
fn round_binary(bits: u64, sticky: bool, exponent: i64, format: Format) -> f64 {
    let length = i64::from(64 - bits.leading_zeros());
    // The exponent of the leading bit.
    let top = exponent + length - 1;
    if top > format.max_exponent {
        return f64::INFINITY;
    }
    let keep = if top >= format.min_exponent {
        i64::from(format.precision)
    } else {
        i64::from(format.precision) - (format.min_exponent - top)
    };
    let drop = length - keep;
    let (mut significand, mut exponent) = (bits, exponent);
    if drop > 0 {
        if drop > 64 {
            return 0.0;
        }
        let (kept_bits, half, rest) = if drop == 64 {
            (0, bits >> 63 & 1 == 1, bits << 1 != 0)
        } else {
            let rest_mask = (1u64 << (drop - 1)) - 1;
            (
                bits >> drop,
                bits >> (drop - 1) & 1 == 1,
                bits & rest_mask != 0,
            )
        };
        significand = kept_bits;
        if half && (rest || sticky || significand & 1 == 1) {
            significand += 1;
        }
        exponent += drop;
        if significand == 0 {
            return 0.0;
        }
        let new_top = exponent + i64::from(64 - significand.leading_zeros()) - 1;
        if new_top > format.max_exponent {
            return f64::INFINITY;
        }
    }
    // Exact: `significand` has at most `precision` bits and the value is in range, so each
    // step by a power of two is exact.
    let mut value = significand as f64;
    while exponent > 0 {
        let step = exponent.min(1000);
        value *= 2f64.powi(step as i32);
        exponent -= step;
    }
    while exponent < 0 {
        let step = exponent.max(-1000);
        value *= 2f64.powi(step as i32);
        exponent -= step;
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    const INT: (i64, i64) = (i32::MIN as i64, i32::MAX as i64);
    const SHORT: (i64, i64) = (i16::MIN as i64, i16::MAX as i64);
    const BYTE: (i64, i64) = (i8::MIN as i64, i8::MAX as i64);

    fn whole(text: &str, (min, max): (i64, i64)) -> Option<i64> {
        java_whole(text, min, max)
    }

    #[test]
    fn integer_reads_signs_and_unicode_digits_within_32_bits() {
        assert_eq!(whole("2147483647", INT), Some(2147483647));
        assert_eq!(whole("2147483648", INT), None);
        assert_eq!(whole("-2147483648", INT), Some(-2147483648));
        assert_eq!(whole("-2147483649", INT), None);
        assert_eq!(whole("+1", INT), Some(1));
        assert_eq!(whole("-0", INT), Some(0));
        assert_eq!(whole("00012", INT), Some(12));
        assert_eq!(whole("٣", INT), Some(3));
        assert_eq!(whole("1３", INT), Some(13));
        for refused in [
            "", "+", "-", " 1", "1 ", "+-1", "1e3", "0x10", "1.5", "1_000", "𝟙", "1.0",
        ] {
            assert_eq!(whole(refused, INT), None, "{refused:?}");
        }
    }

    #[test]
    fn long_short_and_byte_keep_their_ranges() {
        let long = (i64::MIN, i64::MAX);
        assert_eq!(whole("9223372036854775807", long), Some(i64::MAX));
        assert_eq!(whole("-9223372036854775808", long), Some(i64::MIN));
        assert_eq!(whole("9223372036854775808", long), None);
        assert_eq!(whole("-9223372036854775809", long), None);
        assert_eq!(whole("99999999999999999999", long), None);
        assert_eq!(whole("32767", SHORT), Some(32767));
        assert_eq!(whole("32768", SHORT), None);
        assert_eq!(whole("-32768", SHORT), Some(-32768));
        assert_eq!(whole("-32769", SHORT), None);
        assert_eq!(whole("127", BYTE), Some(127));
        assert_eq!(whole("128", BYTE), None);
        assert_eq!(whole("-128", BYTE), Some(-128));
        assert_eq!(whole("-129", BYTE), None);
    }

    #[test]
    fn big_integer_keeps_every_digit() {
        let thirty = "123456789012345678901234567890";
        assert_eq!(java_big_integer(thirty), Some(Cow::Borrowed(thirty)));
        assert!(matches!(
            java_big_integer("-12"),
            Some(Cow::Borrowed("-12"))
        ));
        assert_eq!(java_big_integer("+0012").as_deref(), Some("12"));
        assert_eq!(java_big_integer("-0").as_deref(), Some("0"));
        assert_eq!(java_big_integer("000").as_deref(), Some("0"));
        assert_eq!(java_big_integer("-٣٠").as_deref(), Some("-30"));
        for refused in ["", "-", "+-1", " 1", "1e3", "1.0", "0x10", "NaN"] {
            assert_eq!(java_big_integer(refused), None, "{refused:?}");
        }
    }

    #[test]
    fn double_reads_javas_grammar() {
        assert_eq!(java_double(" \t1.5d\n"), Some(1.5));
        assert_eq!(java_double("1e3"), Some(1000.0));
        assert_eq!(java_double("1."), Some(1.0));
        assert_eq!(java_double(".5"), Some(0.5));
        assert_eq!(java_double("-.5e-2"), Some(-0.005));
        assert_eq!(java_double("+Infinity"), Some(f64::INFINITY));
        assert_eq!(java_double("-Infinity"), Some(f64::NEG_INFINITY));
        assert!(java_double("-NaN").unwrap().is_nan());
        assert_eq!(java_double("0x1p4"), Some(16.0));
        assert_eq!(java_double("0X1.8P1"), Some(3.0));
        assert_eq!(java_double("-0x1p-2f"), Some(-0.25));
        assert_eq!(java_double("0x.8p1"), Some(1.0));
        assert_eq!(java_double("1E+2147483648"), Some(f64::INFINITY));
        assert_eq!(java_double("1e-400"), Some(0.0));
        assert!(java_double("-0").unwrap().is_sign_negative());
        assert_eq!(java_double("4.9e-324"), Some(f64::from_bits(1)));
        for refused in [
            "", " ", "inf", "infinity", "nan", "NaNd", "1e", ".", "e3", "1.5dd", "0x10", "0x10p",
            "0xp1", "1_000", "1,5", "٣", "\u{a0}1", "1e3.5", "1.5.5", "+-1",
        ] {
            assert_eq!(java_double(refused), None, "{refused:?}");
        }
    }

    #[test]
    fn hexadecimal_floats_round_to_nearest_even() {
        // 2^53 + 1 is a tie between 2^53 and 2^53 + 2: the even one.
        assert_eq!(java_double("0x20000000000001p0"), Some(9007199254740992.0));
        assert_eq!(java_double("0x20000000000003p0"), Some(9007199254740996.0));
        // A sticky digit far beyond the kept ones breaks the tie upwards.
        assert_eq!(
            java_double("0x20000000000001000000001p-36"),
            Some(9007199254740994.0)
        );
        assert_eq!(java_double("0x1p-1074"), Some(f64::from_bits(1)));
        assert_eq!(java_double("0x1p-1075"), Some(0.0));
        assert_eq!(java_double("0x1.8p-1075"), Some(f64::from_bits(1)));
        assert_eq!(java_double("0x1.fffffffffffffp1023"), Some(f64::MAX));
        assert_eq!(java_double("0x1.fffffffffffff8p1023"), Some(f64::INFINITY));
        assert_eq!(java_float("0x1.fffffep127"), Some(f32::MAX));
        assert_eq!(java_float("0x1.ffffffp127"), Some(f32::INFINITY));
        assert_eq!(java_float("0x1p-149"), Some(f32::from_bits(1)));
        assert_eq!(java_float("0x1000001p0"), Some(16777216.0));
        assert_eq!(java_double("0x0p0"), Some(0.0));
        assert_eq!(java_double("0x1.00000000000008p0"), Some(1.0));
        assert_eq!(
            java_double("0x1.000000000000080000001p0"),
            Some(1.0000000000000002)
        );
        // Rounded to 32 bits from the hex digits themselves (values checked with Java 17).
        assert_eq!(java_float("0x1.000001p0"), Some(1.0));
        assert_eq!(java_float("0x1.0000010000000000001p0"), Some(1.0000001));
        assert_eq!(java_float("0x1p-150"), Some(0.0));
        assert_eq!(java_float("0x1.8p-150"), Some(f32::from_bits(1)));
    }

    #[test]
    fn float_rounds_from_the_text_to_32_bits() {
        assert_eq!(java_float("0.1"), Some(0.1f32));
        assert_eq!(f64::from(java_float("0.1").unwrap()), 0.10000000149011612);
        assert_eq!(java_float("16777217"), Some(16777216.0));
        assert_eq!(java_float("3.4028235e38"), Some(f32::MAX));
        assert_eq!(java_float("3.4028236e38"), Some(f32::INFINITY));
        assert_eq!(java_float("1e-46"), Some(0.0));
        assert_eq!(java_float("1e-45"), Some(f32::from_bits(1)));
        // Rounding the decimal to a double first would round twice.
        assert_eq!(
            java_float("1.00000005960464477539062500001"),
            Some(1.0000001f32)
        );
        assert_eq!(java_float(" 1.5F "), Some(1.5));
        assert!(java_float("NaN").unwrap().is_nan());
        assert_eq!(java_float("1.5x"), None);
    }

    fn decimal(text: &str) -> Option<String> {
        java_big_decimal(text).map(|value| value.java_string())
    }

    #[test]
    fn big_decimal_reads_unicode_digits_and_keeps_its_scale() {
        assert_eq!(decimal("1.50").as_deref(), Some("1.50"));
        assert_eq!(decimal("1e3").as_deref(), Some("1E+3"));
        assert_eq!(decimal("1.e3").as_deref(), Some("1E+3"));
        assert_eq!(decimal("+00012").as_deref(), Some("12"));
        assert_eq!(decimal("-0").as_deref(), Some("0"));
        assert_eq!(decimal("-0.0").as_deref(), Some("0.0"));
        assert_eq!(decimal(".5").as_deref(), Some("0.5"));
        assert_eq!(decimal("1.").as_deref(), Some("1"));
        assert_eq!(decimal("1e-5").as_deref(), Some("0.00001"));
        assert_eq!(decimal("1e-7").as_deref(), Some("1E-7"));
        assert_eq!(decimal("12345E-10").as_deref(), Some("0.0000012345"));
        assert_eq!(decimal("0.0000000").as_deref(), Some("0E-7"));
        assert_eq!(decimal("0E+3").as_deref(), Some("0E+3"));
        assert_eq!(decimal("-1.5E+1").as_deref(), Some("-15"));
        assert_eq!(decimal("1234.5E+2").as_deref(), Some("1.2345E+5"));
        assert_eq!(decimal("٣.٥").as_deref(), Some("3.5"));
        assert_eq!(decimal("٣e٣").as_deref(), Some("3E+3"));
        assert_eq!(
            decimal("123456789012345678901234567890").as_deref(),
            Some("123456789012345678901234567890")
        );
        assert_eq!(decimal("1E+00000000000000000003").as_deref(), Some("1E+3"));
        assert_eq!(decimal("1E+2147483647").as_deref(), Some("1E+2147483647"));
        assert_eq!(decimal("1E-2147483647").as_deref(), Some("1E-2147483647"));
        for refused in [
            "",
            "+",
            ".",
            "NaN",
            "Infinity",
            " 1",
            "1 ",
            "1.5d",
            "0x10",
            "1e",
            "1e+",
            "1e3.5",
            "1.5.5",
            "e3",
            ".e3",
            "+-1",
            "1e+-3",
            "1_000",
            "1E+2147483648",
            "1E-2147483648",
            "1.0E-2147483647",
            "1.0E+2147483648",
            "1E+10000000000",
        ] {
            assert_eq!(decimal(refused), None, "{refused:?}");
        }
    }

    #[test]
    fn big_decimal_as_postgresql_prints_and_rounds_it() {
        let plain = |text: &str| java_big_decimal(text).unwrap().plain_string(100);
        assert_eq!(plain("1E+3").as_deref(), Some("1000"));
        assert_eq!(plain("1.50").as_deref(), Some("1.50"));
        assert_eq!(plain("1E-7").as_deref(), Some("0.0000001"));
        assert_eq!(plain("0E+3").as_deref(), Some("0"));
        assert_eq!(plain("0E-3").as_deref(), Some("0.000"));
        assert_eq!(plain("-12.5").as_deref(), Some("-12.5"));
        assert_eq!(plain("1E+400"), None);
        let whole = |text: &str| java_big_decimal(text).unwrap().rounded_whole(100);
        assert_eq!(whole("0.5").as_deref(), Some("1"));
        assert_eq!(whole("-0.5").as_deref(), Some("-1"));
        assert_eq!(whole("0.49").as_deref(), Some("0"));
        assert_eq!(whole("-0.4").as_deref(), Some("0"));
        assert_eq!(whole("99.5").as_deref(), Some("100"));
        assert_eq!(whole("1e-3").as_deref(), Some("0"));
        // Fewer digits than places: the first place dropped is a zero.
        assert_eq!(whole("0.05").as_deref(), Some("0"));
        assert_eq!(whole("-0.06").as_deref(), Some("0"));
        assert_eq!(whole("5e-2").as_deref(), Some("0"));
        assert_eq!(whole("1.5E+1").as_deref(), Some("15"));
        assert_eq!(whole("12").as_deref(), Some("12"));
    }
}
