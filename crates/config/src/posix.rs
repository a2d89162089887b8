//! POSIX file permissions as log4j2 reads them (`PosixFilePermissions.fromString`): the
//! `filePermissions` of the file appenders and of `<PosixViewAttribute>`.

/// Parses a permission string such as `rw-r-----` into mode bits: nine characters, each the
/// letter of its place (`rwxrwxrwx`) or `-`; anything else is Java's `Invalid mode`.
pub fn parse_permissions(text: &str) -> Option<u32> {
    const LETTERS: &[u8; 9] = b"rwxrwxrwx";
    let bytes = text.as_bytes();
    if bytes.len() != LETTERS.len() {
        return None;
    }
    let mut mode = 0;
    for (index, (&actual, &letter)) in bytes.iter().zip(LETTERS).enumerate() {
        if actual == letter {
            mode |= 1 << (8 - index);
        } else if actual != b'-' {
            return None;
        }
    }
    Some(mode)
}

#[cfg(test)]
mod tests {
    use super::parse_permissions;

    #[test]
    fn reads_javas_permission_strings() {
        assert_eq!(parse_permissions("rw-r-----"), Some(0o640));
        assert_eq!(parse_permissions("rwxrwxrwx"), Some(0o777));
        assert_eq!(parse_permissions("---------"), Some(0));
        for invalid in ["rw-", "rw-rw-rwz", "wr-------", "rw-r-----x", "0640", ""] {
            assert_eq!(parse_permissions(invalid), None, "{invalid}");
        }
    }
}
