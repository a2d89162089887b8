//! What the fuzz targets share: splitting one input into fields.

/// Splits `text` at the first NUL into up to `N` fields; missing fields are empty.
pub fn fields<const N: usize>(text: &str) -> [&str; N] {
    let mut out = [""; N];
    let mut rest = text;
    for (index, slot) in out.iter_mut().enumerate() {
        if index + 1 == N {
            *slot = rest;
            break;
        }
        match rest.split_once('\0') {
            Some((head, tail)) => {
                *slot = head;
                rest = tail;
            }
            None => {
                *slot = rest;
                rest = "";
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_split_at_nul() {
        assert_eq!(fields::<3>("a\0b\0c\0d"), ["a", "b", "c\0d"]);
        assert_eq!(fields::<3>("a"), ["a", "", ""]);
    }
}
