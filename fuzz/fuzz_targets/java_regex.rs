//! The Java-regex translation (`RegexFilter`, `%replace`, `<Replace>`): translate, compile the
//! result and match it against a text.
//!
//! Input: `java-regex NUL haystack`.
//!
//! This targets `l4rs_filter::java_regex` (the copy in `l4rs_layout` is being merged into the
//! same crate); retarget it to the merged crate when that lands.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let [java, haystack] = l4rs_fuzz::fields::<2>(text);
    let Ok(translated) = l4rs_filter::java_regex::translate_java_regex(java) else {
        return;
    };
    let Ok(regex) = regex::RegexBuilder::new(&translated)
        .size_limit(1 << 22)
        .build()
    else {
        return;
    };
    let _ = regex.is_match(haystack);
    let _ = regex.replace_all(haystack, "$0");
});
