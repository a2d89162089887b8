//! The JSON reader for templates: RFC 8259 JSON into a tree that keeps object members in the
//! order they are written (log4j2's `JsonReader` reads objects into a `LinkedHashMap`, and the
//! order of a template's members is the order of the output's fields).
//!
//! It runs once per template, when the layout is built, so it favours clear errors (line and
//! column of the first offending character) over speed. Nesting is bounded so that a hostile
//! template cannot overflow the stack.

use std::fmt;

/// Deeper nesting than this is rejected: no real template comes near it.
const MAX_DEPTH: usize = 128;

/// A JSON value of a template.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, kept as written (see [`java_number`] for how log4j2 prints it back).
    Number(String),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object, members in their written order (a repeated key keeps its first position and
    /// its last value, as a `LinkedHashMap` does).
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The member `key` of an object.
    pub(super) fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Sets the member `key` of an object (in place when present, appended otherwise).
    pub(super) fn insert(&mut self, key: &str, value: Value) {
        if let Value::Object(members) = self {
            match members.iter_mut().find(|(k, _)| k == key) {
                Some(member) => member.1 = value,
                None => members.push((key.to_string(), value)),
            }
        }
    }

    /// Writes the value back as compact JSON.
    pub(super) fn write_json(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => out.push_str(n),
            Value::String(s) => {
                out.push('"');
                crate::structured::escape_into(out, s);
                out.push('"');
            }
            Value::Array(items) => {
                out.push('[');
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    item.write_json(out);
                }
                out.push(']');
            }
            Value::Object(members) => {
                out.push('{');
                for (index, (key, value)) in members.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    out.push('"');
                    crate::structured::escape_into(out, key);
                    out.push_str("\":");
                    value.write_json(out);
                }
                out.push('}');
            }
        }
    }
}

/// A template number as log4j2 writes it back: its `JsonReader` reads integers into an `int`,
/// `long` or `BigInteger` and the others into a `BigDecimal`, which `String.valueOf` prints
/// in `BigDecimal.toString()`'s form (`1.50` stays, `-0` and `-0.0` lose the sign, `1.5e3`
/// becomes `1.5E+3`, `1e-7` `1E-7`). `text` is a valid JSON number.
pub(crate) fn java_number(text: &str) -> String {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], unsigned[at + 1..].parse::<i64>().ok()),
        None => (unsigned, Some(0)),
    };
    let Some(exponent) = exponent else {
        return text.to_string();
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: String = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    let is_decimal = !fraction.is_empty() || unsigned.contains(['e', 'E']);
    let sign = if negative && digits != "0" { "-" } else { "" };
    if !is_decimal {
        return format!("{sign}{digits}");
    }
    // BigDecimal: unscaled value `digits`, scale `fraction digits - exponent`.
    let scale = fraction.len() as i64 - exponent;
    let adjusted = -scale + (digits.len() as i64 - 1);
    if scale == 0 {
        return format!("{sign}{digits}");
    }
    if scale > 0 && adjusted >= -6 {
        let scale = scale as usize;
        return if digits.len() > scale {
            let (int, frac) = digits.split_at(digits.len() - scale);
            format!("{sign}{int}.{frac}")
        } else {
            format!("{sign}0.{}{digits}", "0".repeat(scale - digits.len()))
        };
    }
    let (first, rest) = digits.split_at(1);
    let point = if rest.is_empty() {
        String::new()
    } else {
        format!(".{rest}")
    };
    let exponent_sign = if adjusted >= 0 { "+" } else { "-" };
    format!("{sign}{first}{point}E{exponent_sign}{}", adjusted.abs())
}

/// Why a template is not JSON, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ReadError {
    /// What was expected.
    pub message: String,
    /// Line of the offending character, from 1.
    pub line: usize,
    /// Column (in characters) of the offending character, from 1.
    pub column: usize,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.message, self.line, self.column
        )
    }
}

/// Reads `text` as one JSON value (surrounding whitespace allowed).
pub(crate) fn read(text: &str) -> Result<Value, ReadError> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    reader.skip_whitespace();
    let value = reader.value(0)?;
    reader.skip_whitespace();
    if reader.at < reader.bytes.len() {
        return Err(reader.error("was expecting the end of the template"));
    }
    Ok(value)
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn error(&self, message: &str) -> ReadError {
        let before = &self.text[..self.at.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        ReadError {
            message: message.to_string(),
            line,
            column: before[line_start..].chars().count() + 1,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8, message: &str) -> Result<(), ReadError> {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(message))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, ReadError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nesting is too deep"));
        }
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Value::String),
            Some(b't') => self.keyword("true", Value::Bool(true)),
            Some(b'f') => self.keyword("false", Value::Bool(false)),
            Some(b'n') => self.keyword("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("was expecting a JSON value")),
            None => Err(self.error("was expecting a JSON value, found the end of the template")),
        }
    }

    fn keyword(&mut self, word: &str, value: Value) -> Result<Value, ReadError> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error("was expecting a JSON value"))
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - start
    }

    fn number(&mut self) -> Result<Value, ReadError> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        if self.peek() == Some(b'0') {
            self.at += 1;
        } else if self.digits() == 0 {
            return Err(self.error("was expecting a digit"));
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if self.digits() == 0 {
                return Err(self.error("was expecting a digit after the decimal point"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("was expecting a digit in the exponent"));
            }
        }
        Ok(Value::Number(self.text[start..self.at].to_string()))
    }

    fn hex4(&mut self) -> Result<u32, ReadError> {
        let Some(hex) = self.text.get(self.at..self.at + 4) else {
            return Err(self.error("was expecting four hex digits"));
        };
        let code = u32::from_str_radix(hex, 16)
            .ok()
            .filter(|_| hex.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.error("was expecting four hex digits"))?;
        self.at += 4;
        Ok(code)
    }

    fn string(&mut self) -> Result<String, ReadError> {
        self.expect(b'"', "was expecting '\"'")?;
        let mut out = String::new();
        loop {
            let start = self.at;
            while let Some(byte) = self.peek() {
                if byte == b'"' || byte == b'\\' || byte < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // Only ASCII bytes stop the scan, so the slice is on char boundaries.
            out.push_str(&self.text[start..self.at]);
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let Some(escape) = self.peek() else {
                        return Err(self.error("unterminated string"));
                    };
                    self.at += 1;
                    match escape {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let first = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&first)
                                && self.bytes[self.at..].starts_with(b"\\u")
                            {
                                self.at += 2;
                                let second = self.hex4()?;
                                if (0xDC00..0xE000).contains(&second) {
                                    0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                                } else {
                                    return Err(self.error("invalid surrogate pair"));
                                }
                            } else {
                                first
                            };
                            // A lone surrogate cannot be held in a Rust string.
                            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                        }
                        _ => {
                            self.at -= 1;
                            return Err(self.error("invalid escape sequence"));
                        }
                    }
                }
                Some(_) => return Err(self.error("control character in a string")),
                None => return Err(self.error("unterminated string")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value, ReadError> {
        self.at += 1;
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.skip_whitespace();
            items.push(self.value(depth + 1)?);
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.error("was expecting ',' or ']'")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, ReadError> {
        self.at += 1;
        let mut object = Value::Object(Vec::new());
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(object);
        }
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return Err(self.error("was expecting a member name"));
            }
            let key = self.string()?;
            self.skip_whitespace();
            self.expect(b':', "was expecting ':'")?;
            self.skip_whitespace();
            let value = self.value(depth + 1)?;
            object.insert(&key, value);
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(object);
                }
                _ => return Err(self.error("was expecting ',' or '}'")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_keep_their_order_and_values_round_trip() {
        let text = r#"{"z":1,"a":[true,false,null,-1.5e3],"m":{"k":"v\n\u00e9\ud83d\ude00"}}"#;
        let value = read(text).unwrap();
        let Value::Object(members) = &value else {
            panic!("{value:?}")
        };
        let keys: Vec<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["z", "a", "m"]);
        let mut out = String::new();
        value.write_json(&mut out);
        assert_eq!(
            out,
            "{\"z\":1,\"a\":[true,false,null,-1.5e3],\"m\":{\"k\":\"v\\né😀\"}}"
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        let error = read("{\n  \"a\": 1,\n  \"b\" 2\n}").unwrap_err();
        assert_eq!(error.to_string(), "was expecting ':' at line 3 column 7");
        assert_eq!(
            read("[1,]").unwrap_err().to_string(),
            "was expecting a JSON value at line 1 column 4"
        );
        assert!(read("{} x").is_err());
        assert!(read("\"\\x\"").is_err());
        assert!(read("01").is_err());
        assert!(read(&"[".repeat(1000)).is_err());
    }

    #[test]
    fn numbers_print_as_java_prints_them() {
        for (json, java) in [
            ("1", "1"),
            ("-0", "0"),
            ("12345678901234567890", "12345678901234567890"),
            ("1.50", "1.50"),
            ("-0.0", "0.0"),
            ("0.001", "0.001"),
            ("1.5e3", "1.5E+3"),
            ("-1.5E3", "-1.5E+3"),
            ("1e-7", "1E-7"),
            ("15e-1", "1.5"),
            ("1e0", "1"),
            ("2E2", "2E+2"),
            ("0.0000001", "1E-7"),
        ] {
            assert_eq!(java_number(json), java, "{json}");
        }
    }

    #[test]
    fn a_repeated_key_keeps_its_place_and_last_value() {
        assert_eq!(
            read(r#"{"a":1,"b":2,"a":3}"#).unwrap(),
            Value::Object(vec![
                ("a".into(), Value::Number("3".into())),
                ("b".into(), Value::Number("2".into()))
            ])
        );
    }
}
