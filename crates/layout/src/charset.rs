//! The layout's `charset`: how formatted text becomes bytes.

use l4rs_core::status;

/// The charsets a layout can encode to. Characters a charset cannot represent become `?`, as
/// Java's encoders do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Charset {
    /// UTF-8, the default (no copy: the text's own bytes are written).
    #[default]
    Utf8,
    /// US-ASCII.
    UsAscii,
    /// ISO-8859-1 (Latin-1).
    Iso8859_1,
    /// windows-1252 (Latin-1 with printable characters such as `€` in 0x80–0x9F).
    Windows1252,
    /// UTF-16 as Java's `UTF-16` encoder writes it: a big-endian byte order mark, then
    /// big-endian units, for every encoded event.
    Utf16,
    /// UTF-16 big-endian, no byte order mark.
    Utf16Be,
    /// UTF-16 little-endian, no byte order mark.
    Utf16Le,
}

impl Charset {
    /// Looks a charset up by one of Java's names or aliases (case-insensitive).
    pub fn for_name(name: &str) -> Option<Charset> {
        let upper = name.trim().to_ascii_uppercase();
        Some(match upper.as_str() {
            "UTF-8" | "UTF8" | "UNICODE-1-1-UTF-8" => Charset::Utf8,
            "US-ASCII" | "ASCII" | "US" | "646" | "ISO646-US" | "ISO_646.IRV:1991"
            | "ANSI_X3.4-1968" | "ANSI_X3.4-1986" | "ISO-IR-6" | "CP367" | "IBM367" | "CSASCII"
            | "ASCII7" | "DEFAULT" | "ISO_646.IRV:1983" => Charset::UsAscii,
            "ISO-8859-1" | "ISO8859-1" | "ISO8859_1" | "ISO_8859_1" | "ISO_8859-1"
            | "ISO_8859-1:1987" | "LATIN1" | "L1" | "8859_1" | "CP819" | "IBM819" | "IBM-819"
            | "ISO-IR-100" | "CSISOLATIN1" | "819" => Charset::Iso8859_1,
            "WINDOWS-1252" | "CP1252" | "CP5348" | "IBM-1252" | "IBM1252" => Charset::Windows1252,
            "UTF-16" | "UTF16" | "UTF_16" | "UNICODE" => Charset::Utf16,
            "UTF-16BE" | "UTF_16BE" | "X-UTF-16BE" | "ISO-10646-UCS-2" | "UNICODEBIGUNMARKED" => {
                Charset::Utf16Be
            }
            "UTF-16LE" | "UTF_16LE" | "X-UTF-16LE" | "UNICODELITTLEUNMARKED" => Charset::Utf16Le,
            _ => return None,
        })
    }

    /// Resolves the `charset` attribute; an unknown name is reported and UTF-8 is used.
    pub fn from_attribute(name: Option<&str>) -> Charset {
        match name {
            None => Charset::Utf8,
            Some(name) => Charset::for_name(name).unwrap_or_else(|| {
                status::error(format_args!(
                    "Error while converting string [{name}] to type [class java.nio.charset.Charset]. Using default value [null]."
                ));
                Charset::Utf8
            }),
        }
    }

    /// Java's canonical name.
    pub fn name(&self) -> &'static str {
        match self {
            Charset::Utf8 => "UTF-8",
            Charset::UsAscii => "US-ASCII",
            Charset::Iso8859_1 => "ISO-8859-1",
            Charset::Windows1252 => "windows-1252",
            Charset::Utf16 => "UTF-16",
            Charset::Utf16Be => "UTF-16BE",
            Charset::Utf16Le => "UTF-16LE",
        }
    }

    /// Encodes `text`, borrowing its bytes when they are already right and using `scratch`
    /// otherwise.
    pub fn encode<'b>(&self, text: &'b str, scratch: &'b mut Vec<u8>) -> &'b [u8] {
        match self {
            Charset::Utf8 => text.as_bytes(),
            Charset::UsAscii | Charset::Iso8859_1 | Charset::Windows1252 if text.is_ascii() => {
                text.as_bytes()
            }
            Charset::Windows1252 => {
                scratch.clear();
                scratch.extend(text.chars().map(windows_1252_byte));
                scratch
            }
            Charset::UsAscii | Charset::Iso8859_1 => {
                let limit = if *self == Charset::UsAscii {
                    0x7f
                } else {
                    0xff
                };
                scratch.clear();
                scratch.extend(
                    text.chars()
                        .map(|c| if (c as u32) <= limit { c as u8 } else { b'?' }),
                );
                scratch
            }
            Charset::Utf16 | Charset::Utf16Be | Charset::Utf16Le => {
                scratch.clear();
                if *self == Charset::Utf16 {
                    scratch.extend_from_slice(&[0xfe, 0xff]);
                }
                for unit in text.encode_utf16() {
                    let bytes = if *self == Charset::Utf16Le {
                        unit.to_le_bytes()
                    } else {
                        unit.to_be_bytes()
                    };
                    scratch.extend_from_slice(&bytes);
                }
                scratch
            }
        }
    }
}

/// The windows-1252 byte for `c`, or `?`. 0x80–0x9F hold the characters below (0 marks the
/// five bytes the code page leaves undefined); 0xA0–0xFF are Latin-1.
fn windows_1252_byte(c: char) -> u8 {
    const HIGH: [u16; 32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
        0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC,
        0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ];
    let code = c as u32;
    if code < 0x80 || (0xa0..=0xff).contains(&code) {
        return code as u8;
    }
    HIGH.iter()
        .position(|&mapped| mapped != 0 && u32::from(mapped) == code)
        .map_or(b'?', |index| 0x80 + index as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings() {
        let mut scratch = Vec::new();
        assert_eq!(Charset::for_name("utf-8"), Some(Charset::Utf8));
        assert_eq!(Charset::for_name("Latin1"), Some(Charset::Iso8859_1));
        assert_eq!(Charset::UsAscii.encode("aé😀", &mut scratch), b"a??");
        assert_eq!(Charset::Iso8859_1.encode("aé😀", &mut scratch), b"a\xe9?");
        assert_eq!(Charset::for_name("Cp1252"), Some(Charset::Windows1252));
        assert_eq!(
            Charset::Windows1252.encode("é€\u{81}Ÿ😀", &mut scratch),
            b"\xe9\x80?\x9f?"
        );
        assert_eq!(Charset::Utf16.encode("a", &mut scratch), b"\xfe\xff\x00a");
        assert_eq!(Charset::Utf16Le.encode("a", &mut scratch), b"a\x00");
        assert_eq!(
            Charset::Utf16Be.encode("😀", &mut scratch),
            b"\xd8\x3d\xde\x00"
        );
        let (charset, records) = status::capture(|| Charset::from_attribute(Some("klingon")));
        assert_eq!((charset, records.len()), (Charset::Utf8, 1));
    }
}
