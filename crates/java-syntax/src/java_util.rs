//! The orders Java's `String` and `java.util.HashMap` give, which log4j2's output shows: a
//! `HashMap` lists its keys by the bucket of their `String.hashCode`, so status messages that
//! list attributes, and layouts that print a map, follow that order.

use std::cmp::Ordering;

/// `String.hashCode`: over UTF-16 code units, wrapping.
pub fn string_hash(text: &str) -> i32 {
    text.encode_utf16().fold(0i32, |hash, unit| {
        hash.wrapping_mul(31).wrapping_add(i32::from(unit))
    })
}

/// `String.compareTo`: UTF-16 code unit order (which differs from `str`'s byte order above
/// U+FFFF).
pub fn compare_strings(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// The table size `new HashMap<>(capacity)` takes at its first insertion.
pub fn initial_table_size(capacity: usize) -> usize {
    capacity.max(1).next_power_of_two()
}

/// The order a `java.util.HashMap` iterates `keys` (distinct, in insertion order) in, when it
/// started with `table_size` buckets (16 for `new HashMap<>()`) and at most `most_entries`
/// entries were ever in it: by bucket of the final table, then insertion order. The table
/// doubles whenever it is more than three quarters full, which keeps each bucket's order.
/// Returns indexes into `keys`.
pub fn hash_map_order(keys: &[&str], table_size: usize, most_entries: usize) -> Vec<usize> {
    let size = hash_map_table_size(table_size, most_entries);
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by_key(|&index| hash_map_bucket(keys[index], size));
    order
}

/// The table size of a `java.util.HashMap` that started with `table_size` buckets once at
/// most `most_entries` entries were in it: it doubles whenever it is more than three quarters
/// full.
pub fn hash_map_table_size(table_size: usize, most_entries: usize) -> usize {
    let mut size = table_size.max(1);
    while most_entries.saturating_mul(4) > size.saturating_mul(3) {
        size *= 2;
    }
    size
}

/// The bucket `key` falls in, in a table of `table_size` buckets (a power of two): its
/// `hashCode`, spread as `HashMap.hash` spreads it.
pub fn hash_map_bucket(key: &str, table_size: usize) -> usize {
    let hash = string_hash(key) as u32;
    ((hash ^ (hash >> 16)) as usize) & (table_size - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_as_java_does() {
        assert_eq!(string_hash(""), 0);
        assert_eq!(string_hash("a"), 97);
        assert_eq!(string_hash("ab"), 97 * 31 + 98);
        assert_eq!(string_hash("é"), 0xE9);
        assert_eq!(string_hash("hello"), 99_162_322);
        assert_eq!(string_hash("polygenelubricants"), i32::MIN);
    }

    #[test]
    fn compares_utf16_units() {
        assert_eq!(compare_strings("a", "b"), Ordering::Less);
        // U+FFFD sorts after a surrogate pair in UTF-16, before it in UTF-8.
        assert_eq!(compare_strings("\u{FFFD}", "😀"), Ordering::Greater);
    }

    #[test]
    fn iterates_by_bucket_then_insertion() {
        // Buckets 1 ("a"), 2 ("b"), 1 ("q" = 113 = 16*7+1): "q" follows "a" in its bucket.
        assert_eq!(hash_map_order(&["b", "a", "q"], 16, 3), vec![1, 2, 0]);
        // A one-bucket table holds two keys in insertion order until it doubles.
        assert_eq!(initial_table_size(1), 1);
        assert_eq!(hash_map_order(&["b", "a"], 1, 2), vec![1, 0]);
        assert_eq!(hash_map_order(&["b", "c"], 1, 2), vec![0, 1]);
        // Observed with log4j2 2.19: `Console contains invalid attributes "Appender",
        // "colour", "size", "Unknown"`, and `Appenders contains invalid attributes "Qux", "Foo2"`.
        let keys = ["colour", "name", "size", "Unknown", "Appender"];
        let listed: Vec<&str> = hash_map_order(&keys, 16, keys.len())
            .into_iter()
            .map(|index| keys[index])
            .filter(|key| *key != "name")
            .collect();
        assert_eq!(listed, ["Appender", "colour", "size", "Unknown"]);
        assert_eq!(hash_map_order(&["Foo2", "Qux"], 16, 2), [1, 0]);
    }
}
